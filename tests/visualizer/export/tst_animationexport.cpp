// The animation export (issue 19 item 6): a GIF decodes with giflib to steps × frames per step
// frames of the requested size and lasts frames / fps; the 8-rank ring stays within its size
// budget; an MP4 (when built with FFmpeg) probes to the right duration, size and frame count; a
// PNG sequence has one file per frame and SVG one valid picture per step; an unwritable target
// gives an error naming it, and that and cancelling leave no file (not even a temporary one).

#include "animationfixture.h"
#include "export/animationexport.h"
#include "export/animationsource.h"
#include "export/mp4writer.h"
#include "gifdecode.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>
#include <unistd.h>

#include <csignal>

#ifdef CSTUDIO_HAVE_FFMPEG
extern "C" {
#include <libavformat/avformat.h>
}
#endif

using namespace cs;
using namespace cs::visualizer;
using cs::visualizer::test::decodeGif;
using cs::visualizer::test::ringDocument;

namespace {

AnimationOptions smallOptions(AnimationView view = AnimationView::Both)
{
  AnimationOptions options;
  options.view = view;
  options.fps = 4;
  options.stepSeconds = 0.5; // 2 frames per step
  options.size = QSize(320, 180);
  return options;
}

/// Every entry of `dir`, hidden ones (staging files) included.
QStringList everything(const QString& dir)
{
  return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
}

} // namespace

class Test_animationexport : public QObject
{
  Q_OBJECT

private slots:
  void framesPerStepRoundsAndNeverZero();
  void targetFormatFromThePath();
  void stepSpansMoveForward();
  void sourceHasTheScheduleSteps();
  void gifDecodesToStepsTimesFrames_data();
  void gifDecodesToStepsTimesFrames();
  void ringGifStaysWithinItsBudget();
  void mp4ProbesToFramesOverFps();
  void pngSequenceHasAFilePerFrame();
  void svgHasAValidPicturePerStep();
  void unwritableTargetNamesItAndLeavesNothing();
  void fullDiskLeavesNothing_data();
  void fullDiskLeavesNothing();
  void cancelLeavesNothing_data();
  void cancelLeavesNothing();
  void badOptionsAreRefused();
};

void Test_animationexport::framesPerStepRoundsAndNeverZero()
{
  AnimationOptions options;
  options.fps = 10;
  options.stepSeconds = 1.0;
  QCOMPARE(framesPerStep(options), 10);
  options.fps = 3;
  options.stepSeconds = 0.5; // 1.5 frames
  QCOMPARE(framesPerStep(options), 2);
  options.stepSeconds = 0.01;
  QCOMPARE(framesPerStep(options), 1);
}

void Test_animationexport::targetFormatFromThePath()
{
  QString error;
  QCOMPARE(animationTarget("a/b.gif", &error)->format, AnimationFormat::Gif);
  QCOMPARE(animationTarget("b.MP4", &error)->format, AnimationFormat::Mp4);
  const std::optional<AnimationTarget> png = animationTarget("out/ring.png", &error);
  QCOMPARE(png->format, AnimationFormat::PngSequence);
  QCOMPARE(png->path, QString("out"));
  QCOMPARE(png->name, QString("ring"));
  const std::optional<AnimationTarget> folder = animationTarget("frames/", &error);
  QCOMPARE(folder->format, AnimationFormat::PngSequence);
  QCOMPARE(folder->path, QString("frames"));
  QCOMPARE(animationTarget("talk.svg", &error)->format, AnimationFormat::SvgSteps);
  QVERIFY(!animationTarget("talk.txt", &error));
  QVERIFY2(error.contains("talk.txt"), qPrintable(error));
}

void Test_animationexport::stepSpansMoveForward()
{
  Trace trace;
  // Step 1 overlaps step 0 (pipelined) and ends first; step 2 has no events.
  for (const auto& [start, end] :
       {std::pair(0.0, 10.0), std::pair(2.0, 6.0), std::pair(12.0, 20.0)}) {
    TraceEvent event;
    event.start = start;
    event.end = end;
    trace.events.push_back(event);
  }
  const std::vector<StepSpan> spans = stepSpans(trace, {0, 1, 3}, 4);
  QCOMPARE(spans.size(), std::size_t{4});
  QCOMPARE(spans[0].startUs, 0.0);
  QCOMPARE(spans[0].endUs, 10.0);
  QCOMPARE(spans[1].startUs, 10.0); // never back before where step 0 ended
  QCOMPARE(spans[1].endUs, 10.0);
  QCOMPARE(spans[2].endUs, 10.0); // empty
  QCOMPARE(spans[3].startUs, 10.0);
  QCOMPARE(spans[3].endUs, 20.0);
  QCOMPARE(frameTime(spans[3], 0, 2), 12.5); // the middles of two halves
  QCOMPARE(frameTime(spans[3], 1, 2), 17.5);
}

void Test_animationexport::sourceHasTheScheduleSteps()
{
  const std::unique_ptr<editor::Document> document = ringDocument(8);
  AnimationSourceResult made = makeAnimationSource(*document, {});
  QVERIFY2(made.source, qPrintable(made.error));
  QCOMPARE(static_cast<int>(made.source->steps.size()), document->shownSchedule()->stepCount());
  QCOMPARE(static_cast<int>(made.source->steps.size()), 14); // 2 (n - 1)
  QVERIFY(made.source->steps.back().endUs >= made.source->session->trace().totalUs * 0.999);
  QVERIFY(made.source->steps.front().endUs > 0);
  QVERIFY(made.source->title.contains("ring-8"));
  const AnimationSourceResult unknown = makeAnimationSource(*document, "no-such-machine");
  QVERIFY(!unknown.source);
  QVERIFY2(unknown.error.contains("no-such-machine"), qPrintable(unknown.error));
}

void Test_animationexport::gifDecodesToStepsTimesFrames_data()
{
  QTest::addColumn<int>("view");
  QTest::newRow("topology") << static_cast<int>(AnimationView::Topology);
  QTest::newRow("timeline") << static_cast<int>(AnimationView::Timeline);
  QTest::newRow("both") << static_cast<int>(AnimationView::Both);
}

void Test_animationexport::gifDecodesToStepsTimesFrames()
{
  QFETCH(int, view);
  QTemporaryDir dir;
  const std::unique_ptr<editor::Document> document = ringDocument(4);
  const AnimationOptions options = smallOptions(static_cast<AnimationView>(view));
  const QString path = dir.filePath("ring.gif");
  int progressCalls = 0;
  AnimationControl control;
  control.progress = [&](int done, int total) {
    ++progressCalls;
    QCOMPARE(total, 6 * 2);
    QCOMPARE(done, progressCalls);
  };
  const AnimationExport result = exportAnimation(*document, path, options, control);
  QVERIFY2(result.ok, qPrintable(result.error));
  QCOMPARE(result.steps, 6);
  QCOMPARE(result.framesPerStep, 2);
  QCOMPARE(progressCalls, 12);
  const auto decoded = decodeGif(path);
  QVERIFY(decoded.ok);
  QCOMPARE(decoded.frames, result.steps * result.framesPerStep);
  QCOMPARE(decoded.width, 320);
  QCOMPARE(decoded.height, 180);
  QCOMPARE(decoded.delayHundredths, 100 * decoded.frames / options.fps); // frames / fps seconds
  QCOMPARE(everything(dir.path()), QStringList{"ring.gif"});
}

void Test_animationexport::ringGifStaysWithinItsBudget()
{
  // The goal: the 8-rank ring (14 steps) at 1280x720 within 5 MB. At a quarter of the pixels the
  // same frames (10 fps, 1 s per step: 140) get a quarter of that budget, 1.25 MB; uncompressed
  // they would be 140 x 640 x 360 bytes, 32 MB.
  QTemporaryDir dir;
  const std::unique_ptr<editor::Document> document = ringDocument(8);
  AnimationOptions options;
  options.size = QSize(640, 360);
  const QString path = dir.filePath("ring8.gif");
  const AnimationExport result = exportAnimation(*document, path, options);
  QVERIFY2(result.ok, qPrintable(result.error));
  QCOMPARE(result.frames, 14 * 10);
  QCOMPARE(decodeGif(path).frames, 140);
  const qint64 bytes = QFileInfo(path).size();
  qInfo("8-rank ring at 640x360, 140 frames: %lld bytes", bytes);
  QVERIFY2(bytes <= 5 * 1000 * 1000 / 4, qPrintable(QString::number(bytes)));
}

void Test_animationexport::mp4ProbesToFramesOverFps()
{
#ifndef CSTUDIO_HAVE_FFMPEG
  QVERIFY(!mp4Supported());
  QSKIP("this build has no MP4 support");
#else
  QTemporaryDir dir;
  const std::unique_ptr<editor::Document> document = ringDocument(4);
  AnimationOptions options = smallOptions(AnimationView::Topology);
  options.fps = 8; // 4 frames per step, 24 in all: 3 s
  const QString path = dir.filePath("ring.mp4");
  const AnimationExport result = exportAnimation(*document, path, options);
  QVERIFY2(result.ok, qPrintable(result.error));
  QCOMPARE(result.frames, 24);
  AVFormatContext* format = nullptr;
  QCOMPARE(avformat_open_input(&format, QFile::encodeName(path).constData(), nullptr, nullptr), 0);
  QVERIFY(avformat_find_stream_info(format, nullptr) >= 0);
  const int video = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
  QVERIFY(video >= 0);
  const AVStream* stream = format->streams[video];
  const double seconds = static_cast<double>(format->duration) / AV_TIME_BASE;
  const double expected = 24.0 / options.fps;
  QVERIFY2(std::abs(seconds - expected) <= 1.0 / options.fps,
           qPrintable(QString("%1 s, expected %2 s").arg(seconds).arg(expected)));
  QCOMPARE(stream->codecpar->width, 320);
  QCOMPARE(stream->codecpar->height, 180);
  QCOMPARE(stream->nb_frames, std::int64_t{24});
  avformat_close_input(&format);
  QCOMPARE(everything(dir.path()), QStringList{"ring.mp4"});
#endif
}

void Test_animationexport::pngSequenceHasAFilePerFrame()
{
  QTemporaryDir dir;
  const std::unique_ptr<editor::Document> document = ringDocument(4);
  const AnimationExport result =
      exportAnimation(*document, dir.filePath("frames/"), smallOptions());
  QVERIFY2(result.ok, qPrintable(result.error));
  const QStringList files = QDir(dir.filePath("frames")).entryList(QDir::Files);
  QCOMPARE(files.size(), 12);
  QCOMPARE(files.front(), QString("frame-0001.png"));
  QCOMPARE(files.back(), QString("frame-0012.png"));
  QCOMPARE(QImage(dir.filePath("frames/frame-0007.png")).size(), QSize(320, 180));
  QCOMPARE(everything(dir.path()), QStringList{"frames"});
}

void Test_animationexport::svgHasAValidPicturePerStep()
{
  QTemporaryDir dir;
  const std::unique_ptr<editor::Document> document = ringDocument(4);
  const AnimationExport result =
      exportAnimation(*document, dir.filePath("ring.svg"), smallOptions());
  QVERIFY2(result.ok, qPrintable(result.error));
  QCOMPARE(result.files.size(), 6);
  QCOMPARE(everything(dir.path()).size(), 6);
  for (const QString& file : result.files) {
    QSvgRenderer svg(file);
    QVERIFY2(svg.isValid(), qPrintable(file));
  }
  QVERIFY(QFileInfo::exists(dir.filePath("ring-01.svg")));
  QVERIFY(QFileInfo::exists(dir.filePath("ring-06.svg")));
}

void Test_animationexport::unwritableTargetNamesItAndLeavesNothing()
{
  QTemporaryDir dir;
  const std::unique_ptr<editor::Document> document = ringDocument(4);
  QFile regular(dir.filePath("notes.txt"));
  QVERIFY(regular.open(QIODevice::WriteOnly));
  regular.close();
  for (const QString& out : {dir.filePath("notes.txt/ring.gif"), dir.filePath("notes.txt/f/"),
                             dir.filePath("notes.txt/ring.svg")}) {
    const AnimationExport result = exportAnimation(*document, out, smallOptions());
    QVERIFY(!result.ok);
    QVERIFY2(result.error.contains(dir.filePath("notes.txt")), qPrintable(result.error));
    QCOMPARE(everything(dir.path()), QStringList{"notes.txt"});
  }
  if (::geteuid() == 0)
    return; // root writes anywhere: the read-only folder case cannot fail
  const QString locked = dir.filePath("locked");
  QVERIFY(QDir().mkdir(locked));
  QVERIFY(QFile::setPermissions(locked, QFileDevice::ReadOwner | QFileDevice::ExeOwner));
  const AnimationExport result = exportAnimation(*document, locked + "/ring.gif", smallOptions());
  QFile::setPermissions(locked,
                        QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
  QVERIFY(!result.ok);
  QVERIFY2(result.error.contains(locked + "/ring.gif"), qPrintable(result.error));
  QVERIFY(everything(locked).isEmpty());
}

void Test_animationexport::fullDiskLeavesNothing_data()
{
  QTest::addColumn<QString>("out");
  QTest::newRow("gif") << "ring.gif";
  QTest::newRow("png") << "frames/";
  if (mp4Supported())
    QTest::newRow("mp4") << "ring.mp4";
}

void Test_animationexport::fullDiskLeavesNothing()
{
  // A full disk, as a write sees it: a file size limit (RLIMIT_FSIZE) with SIGXFSZ ignored makes
  // every write past it fail (EFBIG) as writes to a full disk fail (ENOSPC).
  QFETCH(QString, out);
  QTemporaryDir dir;
  const std::unique_ptr<editor::Document> document = ringDocument(4);
  AnimationOptions options = smallOptions();
  options.size = QSize(640, 360);
  rlimit before{};
  QCOMPARE(::getrlimit(RLIMIT_FSIZE, &before), 0);
  const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = before;
  small.rlim_cur = 16 * 1024; // smaller than one frame
  QCOMPARE(::setrlimit(RLIMIT_FSIZE, &small), 0);
  const AnimationExport result = exportAnimation(*document, dir.filePath(out), options);
  ::setrlimit(RLIMIT_FSIZE, &before);
  std::signal(SIGXFSZ, previousHandler);
  QVERIFY(!result.ok);
  QVERIFY(!result.cancelled);
  qInfo("%s", qPrintable(result.error));
  QVERIFY2(result.error.contains(QDir::cleanPath(dir.filePath(out))), qPrintable(result.error));
  QVERIFY2(everything(dir.path()).isEmpty(), qPrintable(everything(dir.path()).join(", ")));
}

void Test_animationexport::cancelLeavesNothing_data()
{
  QTest::addColumn<QString>("out");
  QTest::newRow("gif") << "ring.gif";
  QTest::newRow("png") << "frames/";
  QTest::newRow("svg") << "ring.svg";
  if (mp4Supported())
    QTest::newRow("mp4") << "ring.mp4";
}

void Test_animationexport::cancelLeavesNothing()
{
  QFETCH(QString, out);
  QTemporaryDir dir;
  const std::unique_ptr<editor::Document> document = ringDocument(4);
  std::atomic<bool> cancel = false;
  int lastDone = 0;
  AnimationControl control;
  control.cancel = &cancel;
  control.progress = [&](int done, int total) {
    lastDone = done;
    if (done == total / 2)
      cancel = true;
  };
  const AnimationExport result =
      exportAnimation(*document, dir.filePath(out), smallOptions(), control);
  QVERIFY(!result.ok);
  QVERIFY(result.cancelled);
  QVERIFY(lastDone > 0);
  QVERIFY2(result.error.contains("cancelled"), qPrintable(result.error));
  QVERIFY2(everything(dir.path()).isEmpty(), qPrintable(everything(dir.path()).join(", ")));
}

void Test_animationexport::badOptionsAreRefused()
{
  QTemporaryDir dir;
  const std::unique_ptr<editor::Document> document = ringDocument(4);
  AnimationOptions options = smallOptions();
  options.fps = 51; // more than GIF delays can show
  AnimationExport result = exportAnimation(*document, dir.filePath("a.gif"), options);
  QVERIFY(!result.ok);
  QVERIFY2(result.error.contains("GIF"), qPrintable(result.error));
  options = smallOptions();
  options.size = QSize(10, 10);
  result = exportAnimation(*document, dir.filePath("a.png"), options);
  QVERIFY2(result.error.contains("10x10"), qPrintable(result.error));
  if (mp4Supported()) {
    options = smallOptions();
    options.size = QSize(321, 181);
    result = exportAnimation(*document, dir.filePath("a.mp4"), options);
    QVERIFY2(result.error.contains("even"), qPrintable(result.error));
  } else {
    result = exportAnimation(*document, dir.filePath("a.mp4"), smallOptions());
    QCOMPARE(result.error, mp4UnsupportedMessage());
  }
  QVERIFY(everything(dir.path()).isEmpty());
}

QTEST_MAIN(Test_animationexport)
#include "tst_animationexport.moc"
