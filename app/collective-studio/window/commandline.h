#pragma once

// The command line of collective-studio (app/collective-studio/main.cpp): its options, and the
// checked Arguments they give. A bad command line is printed (prefixed "collective-studio: ")
// and parseArguments returns false; --help and --version exit from parseArguments.

#include "export/animationexport.h"
#include "model/gpumodel.h"
#include "window/mainwindow.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace cs::editor {

/// Prints "collective-studio: MESSAGE" on stderr.
void printError(const QString& message);

/// What the command line asks for, once checked.
struct Arguments {
  QString file;
  QString libraryPath;
  bool screenshot = false;
  QString screenshotPath;
  MainWindow::View view = MainWindow::View::Timeline;
  bool viewSet = false;
  QSize size;
  bool sizeSet = false;
  bool fitTimeline = false; ///< --fit: View › Fit Timeline to Window once laid out
  QString overDialog;       ///< --dialog export|animation|replace-topology: painted over it
  bool runDock = false;     ///< --dialog run: the Run dock shown
  bool sweepWindow = false; ///< --dialog sweep: the Benchmark Sweep window
  bool aboutBox = false;    ///< --dialog about: Help › About alone
  /// --dialog gallery|teaching|presentation|presentation-dark: Teach › Gallery alone, teaching
  /// mode, presentation mode (light or dark); screenshots show the modes a few steps in.
  QString teachDialog;
  bool problemSet = false;
  QString problem; ///< --activate-problem as given
  /// --gpu: chosen for FILE once opened (an undoable edit, as the Inspector's GPU box makes)
  std::optional<GpuModelId> gpu;
  QString trace;   ///< --trace: a recorded run of FILE's program to replay
  QString compare; ///< --compare: a second run to compare --trace with
  QString replayView = QStringLiteral("playback"); ///< --view with --trace
  std::optional<double> atUs;                      ///< --at: the replay cursor
  std::int64_t sweepMin = std::int64_t{1} << 10;   ///< --sweep-sizes MIN:MAX
  std::int64_t sweepMax = std::int64_t{4} << 20;
  QStringList sweepBackends; ///< --sweep-backends; empty: the window's choice
  QString sweepAlso;         ///< --sweep-also: a second document swept into the same plot
  QString exportAnimation;   ///< --export-animation: the animation to write, then exit
  cs::visualizer::AnimationOptions animation; ///< --view, --fps, --size… with --export-animation
};

/// Parses and checks the command line into `args`; prints why and returns false for a bad one.
bool parseArguments(Arguments& args);

} // namespace cs::editor
