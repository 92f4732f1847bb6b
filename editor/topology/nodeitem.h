#pragma once

// One topology node on the canvas: a glyph per kind (a GPU card in its rank's colour with the
// rank large and the name small, wide boxes for NVSwitch and PCIe switches, a NIC with its port,
// a CPU chip), centred on the node's (x, y). The item mirrors a TopologyNode the scene gives it
// (TopologyScene::sync); it never moves itself: dragging is an edit the view pushes as a command,
// and the document's change moves the item back here through setNode().

#include "model/topology.h"

#include <QGraphicsItem>

namespace cs::editor {

class NodeItem : public QGraphicsItem
{
public:
  enum { Type = UserType + 1 };

  explicit NodeItem(const TopologyNode& node);

  /// Size of the glyph of `kind` in scene units; the layouts keep these rectangles apart.
  static QSizeF sizeFor(NodeKind kind);
  /// The glyph's rectangle around its centre (x, y), in scene units.
  static QRectF rectFor(const TopologyNode& node);

  int nodeId() const { return m_node.id; }
  const TopologyNode& node() const { return m_node; }
  /// Mirrors `node` (same id): moves and repaints only when something changed.
  void setNode(const TopologyNode& node);
  /// Highlights the node as the drop target of a link being drawn.
  void setLinkTarget(bool target);

  int type() const override { return Type; }
  QRectF boundingRect() const override;
  QPainterPath shape() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

protected:
  void hoverEnterEvent(QGraphicsSceneHoverEvent* event) override;
  void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;

private:
  QRectF glyphRect() const;
  void paintGpu(QPainter* painter, const QRectF& rect) const;
  void paintSwitch(QPainter* painter, const QRectF& rect, bool dark) const;
  void paintNic(QPainter* painter, const QRectF& rect, bool dark) const;
  void paintCpu(QPainter* painter, const QRectF& rect, bool dark) const;
  void paintDecorations(QPainter* painter, const QRectF& rect) const;
  QString toolTipText() const;

  TopologyNode m_node;
  bool m_hovered = false;
  bool m_linkTarget = false;
};

} // namespace cs::editor
