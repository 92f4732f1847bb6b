#pragma once

// Machines on the topology canvas (issue 18, item 4). A MachineItem draws one machine of a
// multi-node topology (editor/document/nodegroups.h) as a labelled frame around its devices
// ("node 3 · 8 GPUs · 8 NICs"), or, folded, as one box that stands for them. A BundleItem is the
// one line that stands for every link between a folded machine and one node (or folded machine)
// outside it, labelled with how many links it bundles and their summed bandwidth. TopologyScene
// owns both and decides which machines are folded (topologyscenemachines.cpp).

#include "model/topology.h"

#include <QFont>
#include <QGraphicsItem>
#include <QString>

#include <optional>

namespace cs::editor {

class LinkLabelItem;
struct CanvasColors;

class MachineItem : public QGraphicsItem
{
public:
  enum { Type = UserType + 4 };

  /// Machine `machine`, `title` its one-line summary ("node 3 · 8 GPUs · 8 NICs"), `detail` its
  /// ranks ("ranks 24–31"), `devices` the union of its devices' rectangles.
  MachineItem(int machine, QString title, QString detail, const QRectF& devices);

  int machine() const { return m_machine; }
  const QString& title() const { return m_title; }
  bool folded() const { return m_folded; }
  void setFolded(bool folded);

  /// The view's zoom: the titles keep their pixel size at every zoom, as link labels do.
  void setViewScale(double scale);

  /// The frame around the devices; its title sits on the frame's top edge.
  QRectF frameRect() const;
  /// The folded box: the frame, filled.
  QRectF boxRect() const;

  int type() const override { return Type; }
  QRectF boundingRect() const override;
  /// Unfolded, only the title strip: clicks inside the frame reach the devices and the canvas.
  QPainterPath shape() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  /// The title strip on the frame's top edge (double-click folds the machine), in scene units.
  QRectF titleRect() const;

private:
  void updateToolTip();
  void paintFolded(QPainter* painter, const CanvasColors& colors) const;
  /// A font for `text` of `pixels` on screen, smaller where `text` would not fit `width` scene
  /// units; nullopt where it would be too small to read.
  std::optional<QFont> fittedFont(const QString& text, double pixels, double width,
                                  bool bold) const;
  /// A font of `pixels` on screen, in scene units at the current zoom.
  QFont zoomedFont(double pixels, bool bold) const;

  int m_machine;
  QString m_title;
  QString m_detail;
  QRectF m_devices;
  bool m_folded = false;
  double m_scale = 1;
};

class BundleItem : public QGraphicsItem
{
public:
  enum { Type = UserType + 5 };

  /// `links` links of `kind` (the first one's) with `bandwidthGBps` in all, from `a` to `b`.
  BundleItem(const QPointF& a, const QPointF& b, LinkKind kind, int links, double bandwidthGBps);
  /// Deletes the label with the bundle (the label is a top-level item of the same scene).
  ~BundleItem() override;

  int links() const { return m_links; }
  double bandwidthGBps() const { return m_bandwidthGBps; }
  /// "8 links · 400 GB/s".
  QString text() const;
  QPointF midpoint() const { return (m_a + m_b) / 2; }
  LinkLabelItem* label() const { return m_label; }
  void setLabelAlwaysShown(bool shown);

  int type() const override { return Type; }
  QRectF boundingRect() const override;
  QPainterPath shape() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

protected:
  void hoverEnterEvent(QGraphicsSceneHoverEvent* event) override;
  void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;

private:
  QPointF m_a;
  QPointF m_b;
  LinkKind m_kind;
  int m_links;
  double m_bandwidthGBps;
  LinkLabelItem* m_label;
  bool m_hovered = false;
  bool m_labelAlwaysShown = false;
};

} // namespace cs::editor
