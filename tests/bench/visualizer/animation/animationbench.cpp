// cs_animationbench: the animation export's goals (issue 19 item 6), printed with a baseline
// measured in the same run.
//
//   gif:      the catalogue's ring all-reduce (8 ranks: 14 steps) on ring-8 exported as a GIF at
//             1280x720, 10 fps, 1 s per step (140 frames), topology and timeline side by side:
//             the file size (goal <= 5 MB) and the time (goal <= 10 s), simulation included.
//   baseline: the same frames rendered to images without encoding (what painting alone costs);
//             the GIF's time is printed as a ratio to it.
//   mp4:      the same frames as an MP4 (when the build has FFmpeg), for comparison.
//
//   cs_animationbench [--ranks N] [--size WxH] [--fps N] [--view topology|timeline|both]
//                     [--keep DIR]   (write the files into DIR and keep them)

#include "animationfixture.h" // the tests' document: the catalogue ring on ring-N
#include "document/document.h"
#include "export/animationexport.h"
#include "export/animationrenderer.h"
#include "export/animationsource.h"
#include "export/mp4writer.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QTemporaryDir>

#include <cstdio>

using namespace cs;
using namespace cs::visualizer;
using cs::visualizer::test::ringDocument;

namespace {

struct Options {
  int ranks = 8;
  AnimationOptions animation;
  QString keep;
};

Options parse(const QStringList& arguments)
{
  Options options;
  for (int i = 1; i + 1 < arguments.size(); ++i) {
    const QString& name = arguments[i];
    const QString value = arguments[i + 1];
    if (name == QLatin1String("--ranks"))
      options.ranks = std::max(2, value.toInt());
    else if (name == QLatin1String("--fps"))
      options.animation.fps = std::max(1, value.toInt());
    else if (name == QLatin1String("--size") && value.contains(QLatin1Char('x')))
      options.animation.size = QSize(value.section(QLatin1Char('x'), 0, 0).toInt(),
                                     value.section(QLatin1Char('x'), 1, 1).toInt());
    else if (name == QLatin1String("--view"))
      options.animation.view = value == QLatin1String("topology")   ? AnimationView::Topology
                               : value == QLatin1String("timeline") ? AnimationView::Timeline
                                                                    : AnimationView::Both;
    else if (name == QLatin1String("--keep"))
      options.keep = value;
    else
      continue;
    ++i;
  }
  return options;
}

/// Renders every frame of the export to an image and drops it: the baseline. Returns ms.
double renderOnly(AnimationSource& source, editor::Document& document,
                  const AnimationOptions& options, int& frames)
{
  QElapsedTimer timer;
  timer.start();
  AnimationRenderer renderer(source, document, options.view, options.size);
  const int perStep = framesPerStep(options);
  frames = 0;
  for (std::size_t step = 0; step < source.steps.size(); ++step) {
    for (int frame = 0; frame < perStep; ++frame) {
      renderer.setTime(frameTime(source.steps[step], frame, perStep));
      const QImage image = renderer.image(static_cast<int>(step));
      frames += image.isNull() ? 0 : 1;
    }
  }
  return static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

/// Exports to `path` (simulation included) and prints the result line; false on failure.
bool exportAndPrint(editor::Document& document, const QString& path,
                    const AnimationOptions& options, const char* name, double baselineMs)
{
  QElapsedTimer timer;
  timer.start();
  const AnimationExport result = exportAnimation(document, path, options);
  const double ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  if (!result.ok) {
    std::fprintf(stderr, "%s: %s\n", name, qPrintable(result.error));
    return false;
  }
  const qint64 bytes = QFileInfo(path).size();
  std::printf("%-8s %4d frames  %8.2f MB  %8.0f ms  %5.2fx baseline\n", name, result.frames,
              static_cast<double>(bytes) / 1e6, ms, ms / baselineMs);
  return true;
}

} // namespace

int main(int argc, char** argv)
{
  QApplication app(argc, argv);
  const Options options = parse(QCoreApplication::arguments());
  QTemporaryDir temporary;
  const QString dir = options.keep.isEmpty() ? temporary.path() : options.keep;
  QDir().mkpath(dir);

  const std::unique_ptr<editor::Document> document = ringDocument(options.ranks);
  QElapsedTimer timer;
  timer.start();
  AnimationSourceResult made = makeAnimationSource(*document, {});
  if (!made.source) {
    std::fprintf(stderr, "%s\n", qPrintable(made.error));
    return 1;
  }
  const double simulateMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  int frames = 0;
  const double baselineMs = renderOnly(*made.source, *document, options.animation, frames);
  const QSize size = options.animation.size;
  std::printf("ring all-reduce, %d ranks, %zu steps, %dx%d, %d fps, %d frames per step\n",
              options.ranks, made.source->steps.size(), size.width(), size.height(),
              options.animation.fps, framesPerStep(options.animation));
  std::printf("simulate %.0f ms\n", simulateMs);
  std::printf("%-8s %4d frames  %8s     %8.0f ms  (render only, no encoding)\n", "baseline", frames,
              "", baselineMs);
  bool ok = exportAndPrint(*document, QDir(dir).filePath("ring.gif"), options.animation, "gif",
                           baselineMs);
  std::printf("goals: gif <= 5 MB and <= 10 s (8 ranks at 1280x720)\n");
  if (mp4Supported())
    ok = exportAndPrint(*document, QDir(dir).filePath("ring.mp4"), options.animation, "mp4",
                        baselineMs) &&
         ok;
  return ok ? 0 : 1;
}
