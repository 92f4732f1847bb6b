#pragma once

// A main window for GUI tests that touches nothing of the user's: settings, library and autosave
// live in a temporary folder; openIsolatedRingWindow's holds the catalogue's 4-rank ring on ring-4
// with its analysis finished. Header-only: only tests that link the application layer include it.

#include "document/document.h"
#include "window/mainwindow.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QTemporaryDir>

#include <memory>

namespace cs::test {

/// Points the settings, data and autosave folders into `dir` under the application name `name`
/// and opens an empty window that never asks about unsaved changes (it discards them).
inline std::unique_ptr<editor::MainWindow> openIsolatedWindow(const QTemporaryDir& dir,
                                                              const char* name)
{
  qputenv("XDG_CONFIG_HOME", dir.filePath("config").toUtf8());
  qputenv("XDG_DATA_HOME", dir.filePath("data").toUtf8());
  qputenv("CSTUDIO_AUTOSAVE_DIR", dir.filePath("autosave").toUtf8());
  QCoreApplication::setOrganizationName("CollectiveStudioTest");
  QCoreApplication::setApplicationName(name);
  editor::MainWindowOptions options;
  options.libraryPath = dir.filePath("library.sqlite");
  options.autosave = false;
  options.restoreLayout = false;
  options.recordRecentFiles = false;
  auto window = std::make_unique<editor::MainWindow>(options);
  window->setUnsavedChangesPrompt([] { return editor::MainWindow::UnsavedAnswer::Discard; });
  return window;
}

/// openIsolatedWindow holding the ring; null when the ring cannot be generated.
inline std::unique_ptr<editor::MainWindow> openIsolatedRingWindow(const QTemporaryDir& dir,
                                                                  const char* name)
{
  auto window = openIsolatedWindow(dir, name);
  if (!window->newFromAlgorithm("ring-allreduce", 4, "ring-4").isEmpty())
    return nullptr;
  window->document()->waitForAnalysis();
  return window;
}

} // namespace cs::test
