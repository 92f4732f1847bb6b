// collective-studio: the desktop editor's entry point. Parses the command line, opens the file (or
// the built-in example: the catalogue's ring all-reduce on 4 ranks in a ring) and shows the main
// window. With --screenshot it renders the laid-out window into a PNG and exits instead, which is
// how the user guide's pictures are made (works with QT_QPA_PLATFORM=offscreen). With --trace it
// also replays a recorded run of FILE's program in the visual debugger (with --screenshot, one of
// its views at --at instead of the main window); --compare B.json adds a second run to compare
// with it (designed vs measured), and --view compare screenshots that comparison. --dialog sweep
// opens the Benchmark Sweep window; with --screenshot it runs a small sweep there first.
//
// Exit codes, as cstudio's: 0 success, 1 the screenshot could not be written, 2 bad arguments, an
// unreadable FILE or a trace that does not fit it.

#include "compare/comparewindow.h"
#include "document/document.h"
#include "io/bytesize.h"
#include "panels/problemspanel.h"
#include "replaywindow.h"
#include "session/documenttrace.h"
#include "session/replaysession.h"
#include "sweep/sweepwindow.h"
#include "views/bufferview.h"
#include "views/ganttview.h"
#include "views/linkchart.h"
#include "views/topologyplaybackview.h"
#include "window/exportdialog.h"
#include "window/mainwindow.h"
#include "window/windowicons.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QEventLoop>
#include <QFileInfo>
#include <QIcon>
#include <QMessageBox>
#include <QPainter>
#include <QRegularExpression>
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

using cs::editor::MainWindow;

void printError(const QString& message)
{
  std::fprintf(stderr, "collective-studio: %s\n", qPrintable(message));
}

std::optional<MainWindow::View> parseView(const QString& name)
{
  if (name == QLatin1String("topology"))
    return MainWindow::View::Topology;
  if (name == QLatin1String("timeline"))
    return MainWindow::View::Timeline;
  if (name == QLatin1String("program"))
    return MainWindow::View::Program;
  return std::nullopt;
}

std::optional<QSize> parseSize(const QString& text)
{
  const QRegularExpressionMatch match =
      QRegularExpression(QStringLiteral("^(\\d{2,5})x(\\d{2,5})$")).match(text);
  if (!match.hasMatch())
    return std::nullopt;
  return QSize(match.captured(1).toInt(), match.captured(2).toInt());
}

/// Draws the Export dialog, as it would open for the window's document, over `shot`.
void paintExportDialog(cs::editor::MainWindow& window, QPixmap& shot)
{
  const std::optional<cs::Program>& program = window.document()->shownProgram();
  if (!program)
    return;
  cs::editor::ExportDialog dialog(*program, window.document()->lowering().dialect,
                                  QFileInfo(window.document()->displayName()).completeBaseName() +
                                      QStringLiteral(".xml"),
                                  &window);
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
  bool exportDialog = false;
  bool runDock = false;     ///< --dialog run: the Run dock shown
  bool sweepWindow = false; ///< --dialog sweep: the Benchmark Sweep window
  bool aboutBox = false;    ///< --dialog about: Help › About alone
  bool problemSet = false;
  QString problem; ///< --activate-problem as given
  QString trace;   ///< --trace: a recorded run of FILE's program to replay
  QString compare; ///< --compare: a second run to compare --trace with
  QString replayView = QStringLiteral("playback"); ///< --view with --trace
  std::optional<double> atUs;                      ///< --at: the replay cursor
  std::int64_t sweepMin = std::int64_t{1} << 10;   ///< --sweep-sizes MIN:MAX
  std::int64_t sweepMax = std::int64_t{4} << 20;
  QStringList sweepBackends; ///< --sweep-backends; empty: the window's choice
  QString sweepAlso;         ///< --sweep-also: a second document swept into the same plot
};

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

void addOptions(QCommandLineParser& parser)
{
  parser.setApplicationDescription(
      QStringLiteral("Collective Studio: design, check and export GPU collective algorithms."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(
      QStringLiteral("file"),
      QStringLiteral("MSCCL XML or design document (.csdesign.json or .json) to open."),
      QStringLiteral("[FILE]"));
  parser.addOptions({
      {QStringLiteral("library"),
       QStringLiteral("The algorithm library (SQLite) to use instead of the default one."),
       QStringLiteral("PATH")},
      {QStringLiteral("screenshot"),
       QStringLiteral("Render the window into a PNG once it is laid out, then exit."),
       QStringLiteral("OUT.png")},
      {QStringLiteral("view"),
       QStringLiteral("The tab to show: topology, timeline or program; with --trace, the replay "
                      "view to screenshot: playback (the whole replay window), gantt, "
                      "buffers, topology or links."),
       QStringLiteral("VIEW"), QStringLiteral("timeline")},
      {QStringLiteral("trace"),
       QStringLiteral("Replay this Chrome trace of a run of FILE's program (cstudio simulate "
                      "--trace) in the visual debugger."),
       QStringLiteral("T.json")},
      {QStringLiteral("compare"),
       QStringLiteral("With --trace: compare this second trace of a run of FILE's program with "
                      "it (designed vs measured); --view compare screenshots the comparison."),
       QStringLiteral("B.json")},
      {QStringLiteral("at"), QStringLiteral("With --trace: put the replay cursor at this time."),
       QStringLiteral("US")},
      {QStringLiteral("size"), QStringLiteral("Window size, default 1400x900."),
       QStringLiteral("WxH"), QStringLiteral("1400x900")},
      {QStringLiteral("dialog"),
       QStringLiteral("With --screenshot: also open this dialog over the window (export), "
                      "show the Run dock (run), screenshot the Benchmark Sweep window after "
                      "a sweep of 1 KiB..4 MiB on the simulator and the CPU (sweep), or "
                      "Help > About alone (about)."),
       QStringLiteral("NAME")},
      {QStringLiteral("sweep-sizes"),
       QStringLiteral("With --dialog sweep: the sizes to sweep, MIN:MAX (powers of two, e.g. "
                      "4K:256M; default 1K:4M)."),
       QStringLiteral("MIN:MAX")},
      {QStringLiteral("sweep-backends"),
       QStringLiteral("With --dialog sweep: the backends to sweep, comma-separated (simulate, "
                      "cpu, cuda, nccl)."),
       QStringLiteral("LIST")},
      {QStringLiteral("sweep-also"),
       QStringLiteral("With --dialog sweep: then open this document and sweep it too, so the "
                      "plot compares the two algorithms."),
       QStringLiteral("FILE")},
      {QStringLiteral("activate-problem"),
       QStringLiteral("Activate the N-th problem (0-based) as a double-click would, before the "
                      "screenshot."),
       QStringLiteral("N")},
  });
}

/// Checks --trace, --at and the replay --view into `args`; prints why and returns false.
bool parseReplayArguments(const QCommandLineParser& parser, Arguments& args)
{
  args.trace = parser.value(QStringLiteral("trace"));
  args.compare = parser.value(QStringLiteral("compare"));
  if (args.trace.isEmpty()) {
    if (!parser.isSet(QStringLiteral("at")) && !parser.isSet(QStringLiteral("compare")))
      return true;
    printError(QStringLiteral("--at and --compare need --trace"));
    return false;
  }
  if (parser.isSet(QStringLiteral("view")))
    args.replayView = parser.value(QStringLiteral("view"));
  else if (!args.compare.isEmpty())
    args.replayView = QStringLiteral("compare");
  const QStringList views = {QStringLiteral("playback"), QStringLiteral("gantt"),
                             QStringLiteral("buffers"),  QStringLiteral("topology"),
                             QStringLiteral("links"),    QStringLiteral("compare")};
  if (!views.contains(args.replayView)) {
    printError(QStringLiteral("with --trace, --view must be playback, gantt, buffers, topology, "
                              "links or compare, not \"%1\"")
                   .arg(args.replayView));
    return false;
  }
  if (args.replayView == QLatin1String("compare") && args.compare.isEmpty()) {
    printError(QStringLiteral("--view compare needs --compare B.json"));
    return false;
  }
  if (parser.isSet(QStringLiteral("at"))) {
    bool ok = false;
    args.atUs = parser.value(QStringLiteral("at")).toDouble(&ok);
    if (!ok || *args.atUs < 0) {
      printError(QStringLiteral("--at must be a time in µs, not \"%1\"")
                     .arg(parser.value(QStringLiteral("at"))));
      return false;
    }
  }
  return true;
}

/// Checks --sweep-sizes, --sweep-backends and --sweep-also into `args`; prints why and returns
/// false.
bool parseSweepArguments(const QCommandLineParser& parser, Arguments& args)
{
  if (parser.isSet(QStringLiteral("sweep-sizes"))) {
    const QString text = parser.value(QStringLiteral("sweep-sizes"));
    const QStringList range = text.split(QLatin1Char(':'));
    std::optional<std::int64_t> from;
    std::optional<std::int64_t> to;
    if (range.size() == 2) {
      from = cs::parseByteSize(range[0].toStdString());
      to = cs::parseByteSize(range[1].toStdString());
    }
    if (!from || !to || from.value() > to.value()) {
      printError(
          QStringLiteral("--sweep-sizes must be MIN:MAX, e.g. 4K:256M, not \"%1\"").arg(text));
      return false;
    }
    args.sweepMin = *from;
    args.sweepMax = *to;
  }
  if (parser.isSet(QStringLiteral("sweep-backends")))
    args.sweepBackends =
        parser.value(QStringLiteral("sweep-backends")).split(QLatin1Char(','), Qt::SkipEmptyParts);
  args.sweepAlso = parser.value(QStringLiteral("sweep-also"));
  return true;
}

/// Parses and checks the command line into `args`; prints why and returns false for a bad one.
/// --help and --version exit from here.
bool parseArguments(Arguments& args)
{
  QCommandLineParser parser;
  addOptions(parser);
  if (!parser.parse(QCoreApplication::arguments())) {
    printError(parser.errorText());
    return false;
  }
  if (parser.isSet(QStringLiteral("help")))
    parser.showHelp(0);
  if (parser.isSet(QStringLiteral("version")))
    parser.showVersion();

  if (!parseReplayArguments(parser, args) || !parseSweepArguments(parser, args))
    return false;
  const QString viewName =
      args.trace.isEmpty() ? parser.value(QStringLiteral("view")) : QStringLiteral("timeline");
  const std::optional<MainWindow::View> view = parseView(viewName);
  if (!view) {
    printError(
        QStringLiteral("--view must be topology, timeline or program, not \"%1\"").arg(viewName));
    return false;
  }
  const QString sizeText = parser.value(QStringLiteral("size"));
  const std::optional<QSize> size = parseSize(sizeText);
  if (!size) {
    printError(
        QStringLiteral("--size must be WIDTHxHEIGHT, e.g. 1400x900, not \"%1\"").arg(sizeText));
    return false;
  }
  if (parser.positionalArguments().size() > 1) {
    printError(QStringLiteral("at most one FILE can be opened"));
    return false;
  }
  const QString dialog = parser.value(QStringLiteral("dialog"));
  if (parser.isSet(QStringLiteral("dialog")) && dialog != QLatin1String("export") &&
      dialog != QLatin1String("run") && dialog != QLatin1String("sweep") &&
      dialog != QLatin1String("about")) {
    printError(
        QStringLiteral("--dialog must be export, run, sweep or about, not \"%1\"").arg(dialog));
    return false;
  }
  args.file = parser.positionalArguments().value(0);
  args.libraryPath = parser.value(QStringLiteral("library"));
  args.screenshot = parser.isSet(QStringLiteral("screenshot"));
  args.screenshotPath = parser.value(QStringLiteral("screenshot"));
  args.view = *view;
  args.viewSet = parser.isSet(QStringLiteral("view"));
  args.size = *size;
  args.sizeSet = parser.isSet(QStringLiteral("size"));
  args.exportDialog = dialog == QLatin1String("export");
  args.runDock = dialog == QLatin1String("run");
  args.sweepWindow = dialog == QLatin1String("sweep");
  args.aboutBox = dialog == QLatin1String("about");
  args.problemSet = parser.isSet(QStringLiteral("activate-problem"));
  args.problem = parser.value(QStringLiteral("activate-problem"));
  return true;
}

/// Opens FILE, or the built-in example when there is none or it cannot be read; returns why FILE
/// could not be opened (empty when it was, or when there was none).
QString openStartDocument(MainWindow& window, const QString& file, bool screenshot)
{
  QString openError;
  if (!file.isEmpty())
    openError = window.openFile(file);
  if (!openError.isEmpty()) {
    printError(openError);
    if (screenshot)
      return openError;
  }
  if (file.isEmpty() || !openError.isEmpty()) {
    const QString error =
        window.newFromAlgorithm(QStringLiteral("ring-allreduce"), 4, QStringLiteral("ring-4"));
    if (!error.isEmpty())
      printError(error);
  }
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

/// Renders the window into the PNG once it is laid out, and exits with the result.
int takeScreenshot(QApplication& app, MainWindow& window, const Arguments& args)
{
  const QString out = args.screenshotPath;
  const bool withExportDialog = args.exportDialog;
  // After the first event-loop turn the window is laid out and the views have built what they
  // build lazily; a second turn lets anything they scheduled from there run too.
  QTimer::singleShot(0, &window, [&window, &app, out, withExportDialog] {
    QCoreApplication::processEvents();
    QPixmap shot = window.grab();
    if (withExportDialog)
      paintExportDialog(window, shot);
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
  options.restoreLayout = !args.screenshot;
  options.autosave = !args.screenshot;
  options.recordRecentFiles = !args.screenshot;
  MainWindow window(options);

  const QString openError = openStartDocument(window, args.file, args.screenshot);
  if (!openError.isEmpty() && args.screenshot)
    return kUsageError;
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
  QTimer::singleShot(0, &window, &MainWindow::offerRecovery);
  return QApplication::exec();
}
