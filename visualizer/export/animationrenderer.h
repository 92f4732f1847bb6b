#pragma once

// Paints one frame of an exported animation (issue 19 item 6): a caption band (the algorithm,
// "Step k of K") above the chosen views of the playback at the cursor, the topology (links and
// tokens in flight) and/or the editor's timeline with the replay's marks, side by side for
// "both". The views are the application's own widgets, never shown: QWidget::render paints them
// into any QPaintDevice (a QImage for GIF/MP4/PNG, a QSvgGenerator for SVG).

#include <QSize>
#include <QString>

#include <memory>

class QImage;
class QPainter;

namespace cs::editor {
class Document;
class TimelineView;
} // namespace cs::editor

namespace cs::visualizer {

struct AnimationSource;
class TopologyPlaybackView;

enum class AnimationView { Topology, Timeline, Both };

class AnimationRenderer
{
public:
  /// `source` and `document` (the document `source` was made from) outlive the renderer.
  AnimationRenderer(AnimationSource& source, editor::Document& document, AnimationView view,
                    QSize size);
  ~AnimationRenderer();
  AnimationRenderer(const AnimationRenderer&) = delete;
  AnimationRenderer& operator=(const AnimationRenderer&) = delete;

  /// Moves the replay cursor (and the timeline's marks) to `timeUs`.
  void setTime(double timeUs);
  /// Paints the frame at the cursor, captioned "Step k (k+1 of K)" for `step` (0-based),
  /// into `painter`'s device over the renderer's size.
  void paint(QPainter& painter, int step);
  /// The frame at the cursor as an opaque image of the renderer's size.
  QImage image(int step);

  QSize size() const { return m_size; }
  /// The caption band's height at this size.
  int captionHeight() const;

private:
  void layOut();
  void paintCaption(QPainter& painter, int step) const;

  AnimationSource& m_source;
  editor::Document& m_document;
  AnimationView m_view;
  QSize m_size;
  std::unique_ptr<TopologyPlaybackView> m_topology;
  std::unique_ptr<editor::TimelineView> m_timeline;
};

} // namespace cs::visualizer
