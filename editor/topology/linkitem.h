#pragma once

// One topology link on the canvas: a line between its nodes' centres, as wide as its bandwidth
// on a log scale, in its kind's colour (style/rankpalette.h), dashed when half duplex, with a
// label "NVLink 450 GB/s · 0.35 µs". The label is its own item above the nodes, shown when the
// scene says labels fit (TopologyScene::updateLabels) or while the link is hovered or selected,
// so an 8-GPU NVSwitch system is not buried in text.

#include "model/topology.h"

#include <QGraphicsItem>
#include <QPainterPath>

namespace cs::editor {

class LinkLabelItem;

class LinkItem : public QGraphicsItem
{
public:
  enum { Type = UserType + 2 };

  /// Creates the link and its label. The label is a separate top-level item (so it stacks above
  /// the nodes): whoever adds or deletes the link adds or deletes label() with it.
  explicit LinkItem(const TopologyLink& link);

  /// Stroke width in scene units for `bandwidthGBps`: 1.5 at 8 GB/s and below, +1 per doubling,
  /// at most 7 (so 450 GB/s NVLink is about 7 and 32 GB/s PCIe 3.5).
  static double widthFor(double bandwidthGBps);

  int linkId() const { return m_link.id; }
  const TopologyLink& link() const { return m_link; }
  /// Mirrors `link` (same id).
  void setLink(const TopologyLink& link);
  /// The centres of its two nodes, in scene coordinates, and how far the link bows sideways
  /// (0: a straight line; otherwise the signed offset of a quadratic curve's control point along
  /// the line's left normal, used when a straight line would run under another node).
  void setGeometry(const QPointF& a, const QPointF& b, double bend = 0);
  double bend() const { return m_bend; }
  /// The middle of the drawn line or curve (where the label sits).
  QPointF midpoint() const;
  /// The drawn line or curve.
  QPainterPath path() const { return pathFor(m_a, m_b, m_bend); }
  /// The line or curve from `a` to `b` bowed by `bend` (see setGeometry).
  static QPainterPath pathFor(const QPointF& a, const QPointF& b, double bend);

  LinkLabelItem* label() const { return m_label; }
  /// Whether the label stays visible without hover or selection.
  void setLabelAlwaysShown(bool shown);

  int type() const override { return Type; }
  QRectF boundingRect() const override;
  QPainterPath shape() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

protected:
  QVariant itemChange(GraphicsItemChange change, const QVariant& value) override;
  void hoverEnterEvent(QGraphicsSceneHoverEvent* event) override;
  void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;

private:
  void updateLabel();

  TopologyLink m_link;
  QPointF m_a;
  QPointF m_b;
  double m_bend = 0;
  LinkLabelItem* m_label;
  bool m_hovered = false;
  bool m_labelAlwaysShown = false;
};

/// The text of a link in a rounded box, centred on its position. Sized in pixels: the scene
/// scales it by 1 / zoom (setScale) so it reads the same at every zoom.
class LinkLabelItem : public QGraphicsItem
{
public:
  enum { Type = UserType + 3 };

  LinkLabelItem();
  void setText(const QString& text, const QColor& accent);
  const QString& text() const { return m_text; }
  /// Size of the box in pixels (unscaled).
  QSizeF boxSize() const;

  int type() const override { return Type; }
  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
  QString m_text;
  QColor m_accent;
};

} // namespace cs::editor
