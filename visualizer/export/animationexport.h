#pragma once

// Exporting the playback as an animation for slides (issue 19 item 6): the document's program is
// simulated (animationsource.h), and for each logical step of the algorithm N frames move the
// replay cursor across that step's span of the run, N = frames per step = fps × seconds per step
// (rounded, at least 1), so an export has exactly steps × N frames. The frames of the chosen
// view(s) (animationrenderer.h) go to an animated GIF, an MP4 (when built with FFmpeg) or a PNG
// sequence; SVG writes one picture per step (its last frame). The output appears whole or not
// at all: cancel and errors leave no file.

#include "animationrenderer.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <optional>

namespace cs::editor {
class Document;
}

namespace cs::visualizer {

struct AnimationSource;

enum class AnimationFormat { Gif, Mp4, PngSequence, SvgSteps };

/// Where an export goes, read from the path the user gave.
struct AnimationTarget {
  AnimationFormat format = AnimationFormat::Gif;
  QString path; ///< the file (GIF, MP4) or the folder (PNG, SVG)
  QString name; ///< a sequence's base name: "ring" for ring.png, "frame" for a folder
};

/// OUT.gif, OUT.mp4, OUT.png (a PNG sequence OUT-0001.png… beside it), OUT.svg (OUT-01.svg… one
/// per step), or a folder (ends in '/' or exists): a PNG sequence frame-0001.png… in it. nullopt
/// with the reason in `error` for anything else.
std::optional<AnimationTarget> animationTarget(const QString& out, QString* error);

struct AnimationOptions {
  AnimationView view = AnimationView::Both;
  int fps = 10;
  double stepSeconds = 1.0; ///< how long each step lasts in the animation
  QSize size{1280, 720};
  QString topologyPreset; ///< empty: the document's topology, else fully-connected-N
};

/// The limits options must respect: fps 1..60 (GIF: 50), size 160x90..7680x4320, step seconds
/// over 0 and at most 60. Empty when they do; else what is wrong.
QString checkAnimationOptions(const AnimationOptions& options, AnimationFormat format);

/// Frames per step: fps × stepSeconds, rounded, at least 1.
int framesPerStep(const AnimationOptions& options);

struct AnimationControl {
  /// Called after each frame (SVG: each step) with (done, total).
  std::function<void(int, int)> progress;
  /// Set (by a Cancel button) to stop; the export then leaves no file.
  const std::atomic<bool>* cancel = nullptr;
};

struct AnimationExport {
  bool ok = false;
  bool cancelled = false;
  QString error; ///< names the path or the problem
  int steps = 0;
  int framesPerStep = 0;
  int frames = 0;    ///< frames written (SVG: pictures)
  QStringList files; ///< what was written
};

/// Exports `document`'s playback to `out`; never throws.
AnimationExport exportAnimation(editor::Document& document, const QString& out,
                                const AnimationOptions& options,
                                const AnimationControl& control = {});

/// The same from a source already simulated (made from `document`).
AnimationExport exportAnimation(AnimationSource& source, editor::Document& document,
                                const AnimationTarget& target, const AnimationOptions& options,
                                const AnimationControl& control = {});

} // namespace cs::visualizer
