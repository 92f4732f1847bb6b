// collective-studio: the desktop editor's entry point. Parses the command line, opens the file (or
// the built-in example: the catalogue's ring all-reduce on 4 ranks in a ring) and shows the main
// window. With --screenshot it renders the laid-out window into a PNG and exits instead, which is
// how the user guide's pictures are made (works with QT_QPA_PLATFORM=offscreen). With --trace it
// also replays a recorded run of FILE's program in the visual debugger (with --screenshot, one of
// its views at --at instead of the main window); --compare B.json adds a second run to compare
// with it (designed vs measured), and --view compare screenshots that comparison. --dialog sweep
// opens the Benchmark Sweep window; with --screenshot it runs a small sweep there first.
// --export-animation OUT writes FILE's simulated playback as a GIF, MP4, PNG sequence or SVGs
// (visualizer/export) and exits. The options are parsed in window/commandline.cpp.
//
// Exit codes, as cstudio's: 0 success, 1 the screenshot or animation could not be written, 2 bad
// arguments, an unreadable FILE or a trace that does not fit it.

#include "compare/comparewindow.h"
#include "document/document.h"
#include "library.h"
#include "model/topologypresets.h"
#include "panels/gpuchoice.h"
#include "panels/problemspanel.h"
#include "replaywindow.h"
#include "session/documenttrace.h"
#include "session/replaysession.h"
#include "sweep/sweepwindow.h"
#include "teach/breakitpanel.h"
#include "teach/predictpanel.h"
#include "teach/presentationwindow.h"
#include "teach/teachingview.h"
#include "views/bufferview.h"
#include "views/ganttview.h"
#include "views/linkchart.h"
#include "views/topologyplaybackview.h"
#include "window/commandline.h"
#include "window/exportanimationdialog.h"
#include "window/exportdialog.h"
#include "window/gallerydialog.h"
#include "window/mainwindow.h"
#include "window/replacetopologyquestion.h"
#include "window/windowicons.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QEventLoop>
#include <QFileInfo>
#include <QIcon>
#include <QMessageBox>
#include <QPainter>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

namespace {

constexpr int kUsageError = 2;
constexpr int kWriteError = 1;

using cs::editor::Arguments;
using cs::editor::MainWindow;
using cs::editor::printError;

/// Draws `dialog`, laid out as it would open over the window, over `shot` (the window behind
/// darkened as behind a modal dialog).
void paintDialogOver(QDialog& dialog, QPixmap& shot)
{
  dialog.adjustSize();
  dialog.show();
  QCoreApplication::processEvents();
  const QPixmap picture = dialog.grab();
  dialog.hide();
  QPainter painter(&shot);
  const qreal ratio = shot.devicePixelRatio();
  const QSize size = shot.size() / ratio;
  const QPoint at((size.width() - picture.width()) / 2, (size.height() - picture.height()) / 3);
  painter.fillRect(QRect(QPoint(0, 0), size), QColor(0, 0, 0, 60)); // the window behind a modal
  painter.fillRect(QRect(at + QPoint(4, 4), picture.size()), QColor(0, 0, 0, 70)); // shadow
  painter.drawPixmap(at, picture);
}

/// Draws the dialog --dialog names (export, animation), as it would open for the window's
/// document, over `shot`.
void paintDialog(cs::editor::MainWindow& window, const QString& name, QPixmap& shot)
{
  const QString base = QFileInfo(window.document()->displayName()).completeBaseName();
  if (name == QLatin1String("animation")) {
    cs::editor::ExportAnimationDialog dialog(base, &window);
    paintDialogOver(dialog, shot);
    return;
  }
  if (name == QLatin1String("replace-topology")) {
    const std::optional<cs::Topology>& current = window.document()->topology();
    const std::unique_ptr<QMessageBox> question = cs::editor::makeReplaceTopologyQuestion(
        current ? QString::fromStdString(current->name) : QString(), QStringLiteral("dgx-h100"),
        &window);
    paintDialogOver(*question, shot);
    return;
  }
  const std::optional<cs::Program>& program = window.document()->shownProgram();
  if (!program)
    return;
  cs::editor::ExportDialog dialog(*program, window.document()->lowering().dialect,
                                  base + QStringLiteral(".xml"), &window);
  paintDialogOver(dialog, shot);
}

void setIdentity()
{
  QCoreApplication::setOrganizationName(QStringLiteral("CollectiveStudio"));
  QCoreApplication::setApplicationName(QStringLiteral("collective-studio"));
  QCoreApplication::setApplicationVersion(QStringLiteral(CSTUDIO_VERSION));
  QGuiApplication::setApplicationDisplayName(QStringLiteral("Collective Studio"));
  QGuiApplication::setDesktopFileName(QStringLiteral("collective-studio"));
  // The installed icon (resources/collective-studio.svg) when the icon theme has it.
  QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("collective-studio"),
                                               cs::editor::drawnIcon(cs::editor::WindowIcon::App)));
}

/// --gpu: the same undoable edit as the Inspector's GPU box, so the title shows the change.
void chooseStartGpu(MainWindow& window, std::optional<cs::GpuModelId> gpu)
{
  if (!gpu)
    return;
  if (QUndoCommand* choose = cs::editor::makeChooseGpuCommand(window.document(), gpu))
    window.document()->undoStack()->push(choose);
}

/// Opens FILE, or the built-in example when there is none or it cannot be read, and chooses --gpu
/// for it; returns why FILE could not be opened (empty when it was, or when there was none).
QString openStartDocument(MainWindow& window, const Arguments& args, bool screenshot)
{
  const QString& file = args.file;
  QString openError;
  if (!file.isEmpty())
    openError = window.openFile(file);
  if (!openError.isEmpty()) {
    printError(openError);
    if (screenshot)
      return openError;
  }
  if (file.isEmpty() || !openError.isEmpty()) {
    // The library's copy of this example runs on the same topology.
    const QString error = window.newFromAlgorithm(
        QStringLiteral("ring-allreduce"), 4,
        QString::fromStdString(cs::storage::exampleTopologyPreset("ring-allreduce", 4)));
    if (!error.isEmpty())
      printError(error);
  }
  chooseStartGpu(window, args.gpu);
  return openError;
}

/// Activates the problem row `text` names, as a double-click would; false (printed) for a bad one.
bool activateProblem(MainWindow& window, const QString& text)
{
  bool ok = false;
  const int row = text.toInt(&ok);
  if (!ok || row < 0 || row >= window.problemsPanel()->problemCount()) {
    printError(QStringLiteral("--activate-problem %1: the document has %2 problems")
                   .arg(text)
                   .arg(window.problemsPanel()->problemCount()));
    return false;
  }
  window.problemsPanel()->activateRow(row);
  return true;
}

/// View › Fit Timeline to Window, as the menu does it.
void fitTimeline(MainWindow& window)
{
  if (auto* fit = window.findChild<QAction*>(QStringLiteral("fitTimeline")))
    fit->trigger();
}

/// Renders the window into the PNG once it is laid out, and exits with the result.
int takeScreenshot(QApplication& app, MainWindow& window, const Arguments& args)
{
  const QString out = args.screenshotPath;
  const QString dialog = args.overDialog;
  // After the first event-loop turn the window is laid out and the views have built what they
  // build lazily; a second turn lets anything they scheduled from there run too.
  QTimer::singleShot(0, &window, [&window, &app, out, dialog, fit = args.fitTimeline] {
    QCoreApplication::processEvents();
    if (fit) {
      fitTimeline(window);
      QCoreApplication::processEvents(); // the scroll bars the fit made unnecessary go
    }
    QPixmap shot = window.grab();
    if (!dialog.isEmpty())
      paintDialog(window, dialog, shot);
    if (!shot.save(out, "PNG")) {
      printError(QStringLiteral("cannot write the screenshot %1").arg(out));
      app.exit(kWriteError);
      return;
    }
    app.exit(0);
  });
  return QApplication::exec();
}

/// Saves `shot` to the screenshot path; the exit code.
int saveShot(const QPixmap& shot, const QString& out)
{
  if (shot.save(out, "PNG"))
    return 0;
  printError(QStringLiteral("cannot write the screenshot %1").arg(out));
  return kWriteError;
}

/// Renders the comparison of --trace (A) with --compare (B) into the PNG at the window size.
int takeCompareScreenshot(MainWindow& window, const Arguments& args)
{
  cs::visualizer::DocumentReplay first =
      cs::visualizer::openDocumentTrace(*window.document(), args.trace);
  cs::visualizer::DocumentReplay second =
      cs::visualizer::openDocumentTrace(*window.document(), args.compare);
  if (!first.session || !second.session) {
    printError(first.session ? second.error : first.error);
    return kUsageError;
  }
  cs::visualizer::CompareWindow compare(std::move(first.session), std::move(second.session));
  compare.resize(args.size);
  compare.show();
  QCoreApplication::processEvents();
  QCoreApplication::processEvents();
  return saveShot(compare.grab(), args.screenshotPath);
}

/// Renders the replay of --trace at --at into the PNG: the whole replay window (playback), or one
/// view (Gantt chart, buffers, topology, link chart) alone at the window size.
int takeReplayScreenshot(MainWindow& window, const Arguments& args)
{
  if (args.replayView == QLatin1String("compare"))
    return takeCompareScreenshot(window, args);
  cs::visualizer::DocumentReplay opened =
      cs::visualizer::openDocumentTrace(*window.document(), args.trace);
  if (!opened.session) {
    printError(opened.error);
    return kUsageError;
  }
  cs::visualizer::ReplayWindow replay(std::move(opened.session));
  if (args.atUs) // else where the window opens: the start, or a stopped run's stop
    replay.session()->setCursor(*args.atUs);
  std::unique_ptr<QWidget> alone; // a view taken out of the window, gone before the window
  QWidget* target = &replay;
  if (args.replayView == QLatin1String("gantt"))
    target = replay.gantt();
  else if (args.replayView == QLatin1String("buffers"))
    target = replay.bufferView();
  else if (args.replayView == QLatin1String("topology"))
    target = replay.topologyView();
  else if (args.replayView == QLatin1String("links"))
    target = replay.linkChart();
  if (target != &replay) {
    target->setParent(nullptr);
    alone.reset(target);
  }
  target->resize(args.size);
  target->show();
  QCoreApplication::processEvents();
  QCoreApplication::processEvents();
  return saveShot(target->grab(), args.screenshotPath);
}

/// Sweeps the shown program in the Benchmark Sweep window with the --sweep-* settings and waits
/// for the sweep to end; false (the reason printed) when it cannot start.
bool sweepShownProgram(cs::visualizer::SweepWindow& sweep, const Arguments& args)
{
  if (!sweep.setSizeRange(args.sweepMin, args.sweepMax)) {
    printError(QStringLiteral("--sweep-sizes: the sizes must be powers of two the window offers"));
    return false;
  }
  if (!args.sweepBackends.isEmpty()) {
    for (const QString& id : QStringList{"simulate", "cpu", "cuda", "nccl"})
      sweep.setBackendChecked(id, args.sweepBackends.contains(id));
  }
  QEventLoop loop;
  QObject::connect(&sweep, &cs::visualizer::SweepWindow::sweepFinished, &loop, &QEventLoop::quit);
  if (!sweep.start()) {
    printError(sweep.statusText());
    return false;
  }
  loop.exec();
  return true;
}

/// Sweeps FILE's program (1 KiB..4 MiB on the simulator and the CPU unless --sweep-sizes and
/// --sweep-backends say otherwise; then --sweep-also's too) in the Benchmark Sweep window, then
/// renders that window with its plot into the PNG at the window size.
int takeSweepScreenshot(MainWindow& window, const Arguments& args)
{
  cs::visualizer::SweepWindow* sweep = window.showSweepWindow();
  sweep->resize(args.size);
  if (!sweepShownProgram(*sweep, args))
    return kUsageError;
  if (!args.sweepAlso.isEmpty()) {
    if (const QString error = window.openFile(args.sweepAlso); !error.isEmpty()) {
      printError(error);
      return kUsageError;
    }
    window.document()->waitForAnalysis();
    if (!sweepShownProgram(*sweep, args))
      return kUsageError;
  }
  QCoreApplication::processEvents();
  return saveShot(sweep->grab(), args.screenshotPath);
}

/// Opens --trace in a replay window over the main window, at --at (or, with --compare, the two
/// runs in a compare window); a message box says why not.
void openStartTrace(MainWindow& window, const Arguments& args)
{
  const QString error = args.compare.isEmpty() ? window.openTrace(args.trace)
                                               : window.openComparison(args.trace, args.compare);
  if (!error.isEmpty()) {
    printError(error);
    QTimer::singleShot(0, &window, [&window, error] {
      QMessageBox::warning(&window, QStringLiteral("Collective Studio"), error);
    });
    return;
  }
  auto* replay = qobject_cast<cs::visualizer::ReplayWindow*>(window.replayWindow());
  if (replay && args.compare.isEmpty() && args.atUs)
    replay->session()->setCursor(*args.atUs);
}

/// Writes FILE's playback as the animation --export-animation names; the exit code (2: bad
/// options, 1: the export failed).
int exportStartAnimation(MainWindow& window, const Arguments& args)
{
  QString error;
  const std::optional<cs::visualizer::AnimationTarget> target =
      cs::visualizer::animationTarget(args.exportAnimation, &error);
  if (target)
    error = cs::visualizer::checkAnimationOptions(args.animation, target->format);
  std::string presetError;
  if (error.isEmpty() && !args.animation.topologyPreset.isEmpty() &&
      !cs::makePresetTopology(args.animation.topologyPreset.toStdString(), {}, &presetError)) {
    error = QStringLiteral("--topology %1: %2")
                .arg(args.animation.topologyPreset, QString::fromStdString(presetError));
  }
  if (!error.isEmpty()) {
    printError(error);
    return kUsageError;
  }
  window.document()->waitForAnalysis();
  const cs::visualizer::AnimationExport result =
      cs::visualizer::exportAnimation(*window.document(), args.exportAnimation, args.animation);
  if (!result.ok) {
    printError(result.error);
    return kWriteError;
  }
  std::printf("%s: %d steps x %d frames per step, %d %s\n", qPrintable(args.exportAnimation),
              result.steps, result.framesPerStep, result.frames,
              target->format == cs::visualizer::AnimationFormat::SvgSteps ? "SVG pictures"
                                                                          : "frames");
  return 0;
}

/// --dialog gallery|teaching|presentation[-dark] without --screenshot: opens it over the window.
void openTeachDialog(MainWindow& window, const Arguments& args)
{
  if (args.teachDialog == QLatin1String("gallery")) {
    window.createGalleryDialog()->open();
    return;
  }
  window.setTeachingMode(true);
  if (args.screenshot)
    window.teachingView()->panel()->goTo(2, false);
  QTabWidget* tabs = window.teachingView()->panel()->tabs();
  if (args.teachDialog == QLatin1String("teaching-predict"))
    tabs->setCurrentWidget(window.teachingView()->findChild<cs::visualizer::PredictPanel*>());
  if (args.teachDialog == QLatin1String("teaching-break-it")) {
    cs::visualizer::BreakItPanel* breakIt = window.teachingView()->breakItPanel();
    tabs->setCurrentWidget(breakIt);
    if (args.screenshot) {
      // The exercises are found in the background once the tab shows: picture the list.
      window.show();
      while (breakIt->isSearching())
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    }
  }
  if (args.teachDialog.startsWith(QLatin1String("presentation")))
    window.createPresentation(args.teachDialog.endsWith(QLatin1String("dark")))->showFullScreen();
}

/// --screenshot with --dialog gallery or presentation[-dark]: that window alone.
int takeTeachingScreenshot(MainWindow& window, const Arguments& args)
{
  if (args.teachDialog == QLatin1String("gallery")) {
    cs::editor::GalleryDialog* gallery = window.createGalleryDialog();
    gallery->renderAllThumbnails();
    gallery->show();
    QCoreApplication::processEvents();
    return saveShot(gallery->grab(), args.screenshotPath);
  }
  cs::visualizer::PresentationWindow* presentation =
      window.createPresentation(args.teachDialog.endsWith(QLatin1String("dark")));
  presentation->resize(args.size);
  presentation->show();
  window.teachingView()->panel()->goTo(3, false);
  QCoreApplication::processEvents();
  QCoreApplication::processEvents(); // the timeline fits itself after the first layout
  return saveShot(presentation->grab(), args.screenshotPath);
}

} // namespace

int main(int argc, char** argv)
{
  // --help and --version need no display: answer them before QApplication asks for one.
  const std::span<char*> given(argv, static_cast<std::size_t>(argc));
  if (std::any_of(given.begin() + 1, given.end(), [](const char* arg) {
        return std::string_view(arg).starts_with("--help") || std::string_view(arg) == "-h" ||
               std::string_view(arg) == "--version" || std::string_view(arg) == "-v";
      })) {
    QCoreApplication core(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("collective-studio"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CSTUDIO_VERSION));
    Arguments args;
    return parseArguments(args) ? 0 : kUsageError;
  }
  QApplication app(argc, argv);
  setIdentity();
  Arguments args;
  if (!parseArguments(args))
    return kUsageError;

  cs::editor::MainWindowOptions options;
  options.libraryPath = args.libraryPath;
  // A screenshot shows the default layout and leaves no trace: no autosave, no recent file.
  const bool headless = args.screenshot || !args.exportAnimation.isEmpty();
  options.restoreLayout = !headless;
  options.autosave = !headless;
  options.recordRecentFiles = !headless;
  options.rememberViewSettings = !headless;
  MainWindow window(options);

  const QString openError = openStartDocument(window, args, headless);
  if (!openError.isEmpty() && headless)
    return kUsageError;
  if (!args.exportAnimation.isEmpty())
    return exportStartAnimation(window, args);
  // Before the view is chosen, so --view wins over the tab the activation brings forward.
  if (args.problemSet && !activateProblem(window, args.problem))
    return kUsageError;

  if (args.screenshot && !args.trace.isEmpty())
    return takeReplayScreenshot(window, args);
  if (args.screenshot || args.sizeSet)
    window.resize(args.size);
  if (args.screenshot || args.viewSet)
    window.showView(args.view);
  if (args.runDock)
    window.runDock()->show();
  if (args.screenshot && args.sweepWindow)
    return takeSweepScreenshot(window, args);
  if (args.screenshot && args.aboutBox) {
    QMessageBox* about = window.createAboutBox();
    about->show();
    QCoreApplication::processEvents();
    return saveShot(about->grab(), args.screenshotPath);
  }
  if (args.screenshot && !args.teachDialog.isEmpty() && !args.teachDialog.startsWith("teaching"))
    return takeTeachingScreenshot(window, args);
  if (!args.teachDialog.isEmpty())
    openTeachDialog(window, args);
  window.show();
  if (args.sweepWindow)
    window.showSweepWindow();
  if (args.screenshot)
    return takeScreenshot(app, window, args);

  if (!openError.isEmpty()) {
    QTimer::singleShot(0, &window, [&window, openError] {
      QMessageBox::warning(&window, QStringLiteral("Collective Studio"), openError);
    });
  }
  if (!args.trace.isEmpty())
    openStartTrace(window, args);
  if (args.fitTimeline)
    QTimer::singleShot(0, &window, [&window] { fitTimeline(window); });
  QTimer::singleShot(0, &window, [&window, firstDocument = args.file.isEmpty()] {
    window.offerRecovery();
    // A first start without a file opens the gallery over the example: where to begin.
    if (firstDocument && !window.document()->isModified())
      window.offerGalleryOnFirstStart();
  });
  return QApplication::exec();
}
