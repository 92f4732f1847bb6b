#include "commandline.h"

#include "io/bytesize.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QRegularExpression>

#include <cstdio>

namespace cs::editor {

namespace {

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

/// --export-animation and the options that shape the animation.
void addExportAnimationOptions(QCommandLineParser& parser)
{
  parser.addOptions({
      {QStringLiteral("export-animation"),
       QStringLiteral("Export FILE's playback (simulated) as an animation for slides, then exit: "
                      "OUT.gif, OUT.mp4, OUT.png (a PNG sequence OUT-0001.png...), OUT.svg (one "
                      "SVG per step, OUT-01.svg...) or DIR/ (a PNG sequence in DIR). With it, "
                      "--view is topology, timeline or both (default), --size defaults to "
                      "1280x720."),
       QStringLiteral("OUT")},
      {QStringLiteral("fps"),
       QStringLiteral("With --export-animation: frames per second (default 10; GIF at most 50)."),
       QStringLiteral("N"), QStringLiteral("10")},
      {QStringLiteral("step-seconds"),
       QStringLiteral("With --export-animation: how long each algorithm step lasts (default 1); "
                      "each step gets fps x seconds frames."),
       QStringLiteral("S"), QStringLiteral("1")},
      {QStringLiteral("topology"),
       QStringLiteral("With --export-animation: simulate on this topology preset (cstudio "
                      "topology --list) instead of the document's (fully-connected-N without "
                      "one)."),
       QStringLiteral("PRESET")},
  });
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
      {QStringLiteral("fit"), QStringLiteral("View > Fit Timeline to Window, once laid out.")},
      {QStringLiteral("dialog"),
       QStringLiteral("With --screenshot: also open this dialog over the window (export, or "
                      "animation: File > Export Animation; replace-topology: the question a "
                      "double click on the Library's dgx-h100 asks), "
                      "show the Run dock (run), screenshot the Benchmark Sweep window after "
                      "a sweep of 1 KiB..4 MiB on the simulator and the CPU (sweep), "
                      "Help > About alone (about), Teach > Gallery alone (gallery), teaching "
                      "mode (teaching, or teaching-predict and teaching-break-it on those tabs) or "
                      "presentation mode (presentation, presentation-dark); screenshots show "
                      "the teaching modes a few steps in."),
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
      {QStringLiteral("gpu"),
       QStringLiteral("Check FILE for this GPU (%1), as the Inspector's GPU box would choose it.")
           .arg(QString::fromStdString(gpuModelKeys())),
       QStringLiteral("MODEL")},
      {QStringLiteral("activate-problem"),
       QStringLiteral("Activate the N-th problem (0-based) as a double-click would, before the "
                      "screenshot."),
       QStringLiteral("N")},
  });
  addExportAnimationOptions(parser);
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

/// Checks --export-animation with its --view, --fps, --step-seconds, --size and --topology into
/// `args`; prints why and returns false.
bool parseExportArguments(const QCommandLineParser& parser, Arguments& args)
{
  args.exportAnimation = parser.value(QStringLiteral("export-animation"));
  const QStringList exportOnly = {QStringLiteral("fps"), QStringLiteral("step-seconds"),
                                  QStringLiteral("topology")};
  if (args.exportAnimation.isEmpty()) {
    for (const QString& name : exportOnly) {
      if (parser.isSet(name)) {
        printError(QStringLiteral("--%1 needs --export-animation").arg(name));
        return false;
      }
    }
    return true;
  }
  if (parser.isSet(QStringLiteral("trace")) || parser.isSet(QStringLiteral("screenshot"))) {
    printError(
        QStringLiteral("--export-animation cannot be combined with --trace or --screenshot"));
    return false;
  }
  cs::visualizer::AnimationOptions& options = args.animation;
  const QString view = parser.value(QStringLiteral("view"));
  if (!parser.isSet(QStringLiteral("view")) || view == QLatin1String("both"))
    options.view = cs::visualizer::AnimationView::Both;
  else if (view == QLatin1String("topology"))
    options.view = cs::visualizer::AnimationView::Topology;
  else if (view == QLatin1String("timeline"))
    options.view = cs::visualizer::AnimationView::Timeline;
  else {
    printError(QStringLiteral("with --export-animation, --view must be topology, timeline or "
                              "both, not \"%1\"")
                   .arg(view));
    return false;
  }
  bool fpsOk = false;
  bool secondsOk = false;
  options.fps = parser.value(QStringLiteral("fps")).toInt(&fpsOk);
  options.stepSeconds = parser.value(QStringLiteral("step-seconds")).toDouble(&secondsOk);
  if (!fpsOk || !secondsOk) {
    printError(QStringLiteral("--fps must be a whole number and --step-seconds a number, not "
                              "\"%1\" and \"%2\"")
                   .arg(parser.value(QStringLiteral("fps")),
                        parser.value(QStringLiteral("step-seconds"))));
    return false;
  }
  options.topologyPreset = parser.value(QStringLiteral("topology"));
  return true;
}

} // namespace

void printError(const QString& message)
{
  std::fprintf(stderr, "collective-studio: %s\n", qPrintable(message));
}

/// Checks --gpu into `args`; prints why and returns false.
bool parseGpuArgument(const QCommandLineParser& parser, Arguments& args)
{
  if (!parser.isSet(QStringLiteral("gpu")))
    return true;
  const QString spelling = parser.value(QStringLiteral("gpu"));
  args.gpu = parseGpuModel(spelling.toStdString());
  if (!args.gpu)
    printError(QStringLiteral("--gpu must be one of %1, not \"%2\"")
                   .arg(QString::fromStdString(gpuModelKeys()), spelling));
  return args.gpu.has_value();
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

  if (!parseReplayArguments(parser, args) || !parseSweepArguments(parser, args) ||
      !parseExportArguments(parser, args) || !parseGpuArgument(parser, args))
    return false;
  const QString viewName = args.trace.isEmpty() && args.exportAnimation.isEmpty()
                               ? parser.value(QStringLiteral("view"))
                               : QStringLiteral("timeline");
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
  const QStringList dialogs = {QStringLiteral("export"),
                               QStringLiteral("animation"),
                               QStringLiteral("replace-topology"),
                               QStringLiteral("run"),
                               QStringLiteral("sweep"),
                               QStringLiteral("about"),
                               QStringLiteral("gallery"),
                               QStringLiteral("teaching"),
                               QStringLiteral("teaching-predict"),
                               QStringLiteral("teaching-break-it"),
                               QStringLiteral("presentation"),
                               QStringLiteral("presentation-dark")};
  if (parser.isSet(QStringLiteral("dialog")) && !dialogs.contains(dialog)) {
    printError(QStringLiteral("--dialog must be %1, not \"%2\"")
                   .arg(dialogs.join(QStringLiteral(", ")), dialog));
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
  args.fitTimeline = parser.isSet(QStringLiteral("fit"));
  if (args.sizeSet) // else the animation's own default, 1280x720
    args.animation.size = *size;
  if (dialog == QLatin1String("export") || dialog == QLatin1String("animation") ||
      dialog == QLatin1String("replace-topology"))
    args.overDialog = dialog;
  args.runDock = dialog == QLatin1String("run");
  args.sweepWindow = dialog == QLatin1String("sweep");
  args.aboutBox = dialog == QLatin1String("about");
  if (dialog == QLatin1String("gallery") || dialog.startsWith(QLatin1String("teaching")) ||
      dialog.startsWith(QLatin1String("presentation")))
    args.teachDialog = dialog;
  args.problemSet = parser.isSet(QStringLiteral("activate-problem"));
  args.problem = parser.value(QStringLiteral("activate-problem"));
  return true;
}

} // namespace cs::editor
