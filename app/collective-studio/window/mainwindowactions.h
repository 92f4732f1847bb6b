#pragma once

// Private to MainWindow: its actions, created once in mainwindowactions.cpp and shared by the
// menus and toolbars (one QAction per command, so enabling and shortcuts are defined once).

#include "mainwindow.h"

#include <QAction>
#include <QActionGroup>

namespace cs::editor {

struct MainWindow::Actions {
  QAction* newDocument = nullptr;
  QAction* open = nullptr;
  QAction* save = nullptr;
  QAction* saveDesignAs = nullptr;
  QAction* saveToLibrary = nullptr;
  QAction* exportXml = nullptr;
  QAction* exportDot = nullptr;
  QAction* exportSvg = nullptr;
  QAction* exportPng = nullptr;
  QAction* exportAnimation = nullptr;
  QAction* clearRecent = nullptr;
  QAction* quit = nullptr;

  QAction* undo = nullptr;
  QAction* redo = nullptr;
  /// Shown in the Edit menu when the current view has no delete / select-all action of its own.
  QAction* deletePlaceholder = nullptr;
  QAction* selectAllPlaceholder = nullptr;

  QActionGroup* views = nullptr;
  QAction* showTopology = nullptr;
  QAction* showTimeline = nullptr;
  QAction* showProgram = nullptr;
  QAction* resetLayout = nullptr;

  QAction* openTrace = nullptr;
  QAction* run = nullptr;

  QAction* about = nullptr;
  QAction* diagnostics = nullptr;
};

} // namespace cs::editor
