#pragma once

// The presenter's pointer (presentation mode): a ring drawn over the window where the presenter
// last clicked, fading out after a moment, so a room can follow "this link" and "that cell"
// on a projector. Transparent to the mouse: clicks still reach the views below.

#include <QPoint>
#include <QWidget>

class QVariantAnimation;

namespace cs::visualizer {

class PointerHighlight : public QWidget
{
  Q_OBJECT

public:
  explicit PointerHighlight(QWidget* parent);

  /// Shows the ring at `pos` (in the parent's coordinates) and starts its fade.
  void pointAt(const QPoint& pos);
  bool isShowing() const { return m_opacity > 0; }
  QPoint position() const { return m_position; }

  static constexpr int kRadius = 28;
  static constexpr int kFadeMs = 1800;

protected:
  void paintEvent(QPaintEvent* event) override;

private:
  QPoint m_position;
  double m_opacity = 0;
  QVariantAnimation* m_fade = nullptr;
};

} // namespace cs::visualizer
