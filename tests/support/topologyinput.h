#pragma once

// Driving the topology canvas as a user does, for its tests: mouse moves with buttons held,
// drags, wheel turns, and a Canvas (the ring document of topologycanvas.h in an active, focused
// view) with the positions of its nodes.

#include "support/topologycanvas.h"

#include "model/topology.h"

#include <QApplication>
#include <QMouseEvent>
#include <QTest>
#include <QWheelEvent>

#include <memory>
#include <string>

namespace cs::test {

/// A mouse move with buttons held (QTest::mouseMove carries no button state).
void moveMouse(QWidget* widget, const QPoint& pos, Qt::MouseButtons buttons,
               Qt::KeyboardModifiers modifiers = {})
{
  QMouseEvent event(QEvent::MouseMove, QPointF(pos), widget->mapToGlobal(QPointF(pos)),
                    Qt::NoButton, buttons, modifiers);
  QApplication::sendEvent(widget, &event);
}

/// Press at `from`, move in `steps` steps to `to`, release there.
void drag(QWidget* widget, const QPoint& from, const QPoint& to,
          Qt::MouseButton button = Qt::LeftButton, int steps = 6)
{
  QTest::mousePress(widget, button, {}, from);
  for (int i = 1; i <= steps; ++i)
    moveMouse(widget, from + (to - from) * i / steps, button);
  QTest::mouseRelease(widget, button, {}, to);
}

void wheel(QWidget* widget, const QPoint& pos, int angle, Qt::KeyboardModifiers modifiers)
{
  QWheelEvent event(QPointF(pos), widget->mapToGlobal(QPointF(pos)), QPoint(), QPoint(0, angle),
                    Qt::NoButton, modifiers, Qt::NoScrollPhase, false);
  QApplication::sendEvent(widget, &event);
}

/// A document with a ring all-reduce over `ranks` and no topology, and a shown view on it.
struct Canvas {
  explicit Canvas(int ranks = 4)
  {
    view = showRingCanvas(document, ranks);
    view->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(view.get()));
    view->setFocus();
  }

  QWidget* viewport() const { return view->viewport(); }
  const Topology& topology() const { return *document.topology(); }
  int undoCount() { return document.undoStack()->count(); }
  /// The viewport position of a node's centre.
  QPoint at(int nodeId) const
  {
    const TopologyNode* node = document.topology()->node(nodeId);
    return view->mapFromScene(QPointF(node->x, node->y));
  }
  const TopologyNode* named(const std::string& name) const
  {
    for (const TopologyNode& node : document.topology()->nodes) {
      if (node.name == name)
        return &node;
    }
    return nullptr;
  }
  void click(const QPoint& pos) const { QTest::mouseClick(viewport(), Qt::LeftButton, {}, pos); }
  void use(editor::TopologyView::Tool tool) const { view->toolAction(tool)->trigger(); }

  editor::Document document;
  std::unique_ptr<editor::TopologyView> view;
};

} // namespace cs::test
