#include "animationexport.h"

#include "animationsource.h"
#include "gifwriter.h"
#include "mp4writer.h"
#include "pngsequencewriter.h"
#include "stagedoutput.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QPainter>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>

namespace cs::visualizer {

namespace {

constexpr int kMaxFps = 60;
constexpr QSize kMinSize(160, 90);
constexpr QSize kMaxSize(7680, 4320);
/// Steps whose middle frame feeds the GIF palette (spread over the animation).
constexpr int kPaletteSamples = 12;

bool cancelled(const AnimationControl& control)
{
  return control.cancel && control.cancel->load();
}

/// Sample frames for the GIF palette: the middle of up to kPaletteSamples steps, spread evenly,
/// so colours that only appear later (tokens of every rank) are in it.
std::vector<QImage> paletteSamples(AnimationSource& source, AnimationRenderer& renderer,
                                   int framesPerStep)
{
  std::vector<QImage> samples;
  const int steps = static_cast<int>(source.steps.size());
  const int count = std::min(steps, kPaletteSamples);
  for (int i = 0; i < count; ++i) {
    const int step = count > 1 ? i * (steps - 1) / (count - 1) : 0;
    renderer.setTime(
        frameTime(source.steps[static_cast<std::size_t>(step)], framesPerStep / 2, framesPerStep));
    samples.push_back(renderer.image(step));
  }
  return samples;
}

/// The writer for a raster `target`, opened; null with the reason in `error`.
std::unique_ptr<FrameWriter> openWriter(const AnimationTarget& target,
                                        const AnimationOptions& options, int frames,
                                        AnimationSource& source, AnimationRenderer& renderer,
                                        QString* error)
{
  switch (target.format) {
  case AnimationFormat::Gif: {
    auto gif = std::make_unique<GifWriter>(target.path, options.size, options.fps);
    if (!gif->open(paletteSamples(source, renderer, framesPerStep(options)), error))
      return nullptr;
    return gif;
  }
  case AnimationFormat::Mp4: {
    auto mp4 = std::make_unique<Mp4Writer>(target.path, options.size, options.fps);
    if (!mp4->open(error))
      return nullptr;
    return mp4;
  }
  case AnimationFormat::PngSequence: {
    auto png = std::make_unique<PngSequenceWriter>(target.path, target.name, frames);
    if (!png->open(error))
      return nullptr;
    return png;
  }
  case AnimationFormat::SvgSteps:
    break;
  }
  *error = QObject::tr("SVG is written per step, not per frame");
  return nullptr;
}

/// Every frame into a GIF, MP4 or PNG sequence.
void exportFrames(AnimationSource& source, AnimationRenderer& renderer,
                  const AnimationTarget& target, const AnimationOptions& options,
                  const AnimationControl& control, AnimationExport& result)
{
  const int perStep = result.framesPerStep;
  const int total = result.steps * perStep;
  std::unique_ptr<FrameWriter> writer =
      openWriter(target, options, total, source, renderer, &result.error);
  if (!writer)
    return;
  for (int step = 0; step < result.steps; ++step) {
    for (int frame = 0; frame < perStep; ++frame) {
      if (cancelled(control)) {
        result.cancelled = true;
        return;
      }
      renderer.setTime(frameTime(source.steps[static_cast<std::size_t>(step)], frame, perStep));
      if (!writer->addFrame(renderer.image(step), &result.error))
        return;
      ++result.frames;
      if (control.progress)
        control.progress(result.frames, total);
    }
  }
  if (!writer->finish(&result.error))
    return;
  if (auto* png = dynamic_cast<PngSequenceWriter*>(writer.get()))
    result.files = png->files();
  else
    result.files = {target.path};
  result.ok = true;
}

/// One SVG per step, each the step's last frame (the step all but finished).
void exportSvgSteps(AnimationSource& source, AnimationRenderer& renderer,
                    const AnimationTarget& target, const AnimationControl& control,
                    AnimationExport& result)
{
  StagedFolder folder(target.path);
  if (!folder.open(&result.error))
    return;
  const int digits = sequenceDigits(result.steps, 2);
  for (int step = 0; step < result.steps; ++step) {
    if (cancelled(control)) {
      result.cancelled = true;
      return;
    }
    renderer.setTime(frameTime(source.steps[static_cast<std::size_t>(step)],
                               result.framesPerStep - 1, result.framesPerStep));
    const QString name = sequenceName(target.name, step, digits, QStringLiteral("svg"));
    QSvgGenerator svg;
    svg.setFileName(folder.stagingPath(name));
    svg.setSize(renderer.size());
    svg.setViewBox(QRect(QPoint(0, 0), renderer.size()));
    svg.setTitle(
        QObject::tr("%1: step %2 of %3").arg(source.title).arg(step + 1).arg(result.steps));
    QPainter painter;
    if (!painter.begin(&svg)) {
      result.error = cannotWrite(QDir(target.path).filePath(name), QObject::tr("cannot start"));
      return;
    }
    renderer.paint(painter, step);
    painter.end();
    folder.add(name);
    ++result.frames;
    if (control.progress)
      control.progress(result.frames, result.steps);
  }
  if (!folder.commit(&result.error))
    return;
  result.files = folder.committedPaths();
  result.ok = true;
}

} // namespace

std::optional<AnimationTarget> animationTarget(const QString& out, QString* error)
{
  const QFileInfo info(out);
  if (out.endsWith(QLatin1Char('/')) || info.isDir())
    return AnimationTarget{AnimationFormat::PngSequence, QDir::cleanPath(out),
                           QStringLiteral("frame")};
  const QString suffix = info.suffix().toLower();
  if (suffix == QLatin1String("gif"))
    return AnimationTarget{AnimationFormat::Gif, out, {}};
  if (suffix == QLatin1String("mp4"))
    return AnimationTarget{AnimationFormat::Mp4, out, {}};
  if (suffix == QLatin1String("png") || suffix == QLatin1String("svg")) {
    return AnimationTarget{suffix == QLatin1String("png") ? AnimationFormat::PngSequence
                                                          : AnimationFormat::SvgSteps,
                           info.path(), info.completeBaseName()};
  }
  *error = QObject::tr("cannot tell what to export to %1: name a .gif, .mp4, .png (a PNG "
                       "sequence) or .svg (one per step) file, or a folder ending in /")
               .arg(out);
  return std::nullopt;
}

QString checkAnimationOptions(const AnimationOptions& options, AnimationFormat format)
{
  const int maxFps = format == AnimationFormat::Gif ? GifWriter::kMaxFps : kMaxFps;
  if (options.fps < 1 || options.fps > maxFps)
    return QObject::tr("the frame rate must be 1 to %1 frames per second%2, not %3")
        .arg(maxFps)
        .arg(format == AnimationFormat::Gif ? QObject::tr(" for a GIF") : QString())
        .arg(options.fps);
  if (options.size.width() < kMinSize.width() || options.size.height() < kMinSize.height() ||
      options.size.width() > kMaxSize.width() || options.size.height() > kMaxSize.height())
    return QObject::tr("the size must be between 160x90 and 7680x4320, not %1x%2")
        .arg(options.size.width())
        .arg(options.size.height());
  if (!(options.stepSeconds > 0 && options.stepSeconds <= 60))
    return QObject::tr("the seconds per step must be over 0 and at most 60, not %1")
        .arg(options.stepSeconds);
  if (format == AnimationFormat::Mp4 && !mp4Supported())
    return mp4UnsupportedMessage();
  return {};
}

int framesPerStep(const AnimationOptions& options)
{
  return std::max(1, static_cast<int>(std::lround(options.fps * options.stepSeconds)));
}

AnimationExport exportAnimation(AnimationSource& source, editor::Document& document,
                                const AnimationTarget& target, const AnimationOptions& options,
                                const AnimationControl& control)
{
  AnimationExport result;
  result.error = checkAnimationOptions(options, target.format);
  if (!result.error.isEmpty())
    return result;
  result.steps = static_cast<int>(source.steps.size());
  result.framesPerStep = framesPerStep(options);
  AnimationRenderer renderer(source, document, options.view, options.size);
  if (target.format == AnimationFormat::SvgSteps)
    exportSvgSteps(source, renderer, target, control, result);
  else
    exportFrames(source, renderer, target, options, control, result);
  if (result.cancelled)
    result.error =
        QObject::tr("the export to %1 was cancelled; nothing was written").arg(target.path);
  return result;
}

AnimationExport exportAnimation(editor::Document& document, const QString& out,
                                const AnimationOptions& options, const AnimationControl& control)
{
  AnimationExport result;
  const std::optional<AnimationTarget> target = animationTarget(out, &result.error);
  if (!target)
    return result;
  result.error = checkAnimationOptions(options, target->format);
  if (!result.error.isEmpty())
    return result;
  AnimationSourceResult made = makeAnimationSource(document, options.topologyPreset);
  if (!made.source) {
    result.error = QObject::tr("cannot export %1: %2").arg(out, made.error);
    return result;
  }
  return exportAnimation(*made.source, document, *target, options, control);
}

} // namespace cs::visualizer
