// Mouse, wheel and keys on the topology canvas, turned into edits (see topologyview.h).

#include "topologyview.h"

#include "linkitem.h"
#include "nodeitem.h"
#include "topologyedits.h"
#include "topologyscene.h"

#include "document/document.h"

#include <QApplication>
#include <QGraphicsLineItem>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QWheelEvent>

#include <cmath>

namespace cs::editor {

namespace {

NodeKind kindFor(TopologyView::Tool tool)
{
  switch (tool) {
  case TopologyView::Tool::AddNvSwitch:
    return NodeKind::NvSwitch;
  case TopologyView::Tool::AddPcieSwitch:
    return NodeKind::PcieSwitch;
  case TopologyView::Tool::AddNic:
    return NodeKind::Nic;
  case TopologyView::Tool::AddCpu:
    return NodeKind::Cpu;
  case TopologyView::Tool::AddNetworkSwitch:
    return NodeKind::NetworkSwitch;
  default:
    return NodeKind::Gpu;
  }
}

bool isAddTool(TopologyView::Tool tool)
{
  return tool != TopologyView::Tool::Select && tool != TopologyView::Tool::Link;
}

QString nameOf(const Topology& topology, int id)
{
  const TopologyNode* node = topology.node(id);
  return node ? QString::fromStdString(node->name) : QString();
}

} // namespace

void TopologyView::mousePressEvent(QMouseEvent* event)
{
  const QPoint pos = event->position().toPoint();
  if (event->button() == Qt::MiddleButton || (event->button() == Qt::LeftButton && m_spaceHeld)) {
    m_panning = true;
    m_panLast = pos;
    markUserViewChange();
    viewport()->setCursor(Qt::ClosedHandCursor);
    event->accept();
    return;
  }
  if (event->button() != Qt::LeftButton) {
    // The right button opens the context menu (contextMenuEvent) and leaves the selection.
    event->accept();
    return;
  }
  const QPointF scenePos = mapToScene(pos);
  NodeItem* node = m_scene->nodeAt(scenePos);

  if (m_tool == Tool::Link) {
    if (node) {
      m_link.from = node->nodeId();
      m_link.line = new QGraphicsLineItem(QLineF(node->pos(), scenePos));
      QPen pen(palette().color(QPalette::Highlight), 2.5, Qt::DashLine, Qt::RoundCap);
      pen.setCosmetic(true);
      m_link.line->setPen(pen);
      m_link.line->setZValue(10);
      m_scene->addItem(m_link.line);
    }
    event->accept();
    return;
  }
  if (isAddTool(m_tool) && !node) {
    addNodeAt(kindFor(m_tool), scenePos);
    event->accept();
    return;
  }

  // Select (and add tools over an existing node): the scene selects; pressing on a selected
  // node starts moving every selected node.
  QGraphicsView::mousePressEvent(event);
  if (node && node->isSelected() && m_document->topology()) {
    m_drag = NodeDrag{};
    m_drag.pressed = true;
    m_drag.pressPos = pos;
    m_drag.pressScene = scenePos;
    m_drag.nodes = m_scene->selectedNodeIds();
    m_drag.start = *m_document->topology();
    m_drag.mergeKey = QStringLiteral("move-%1").arg(++m_dragSerial);
  }
}

void TopologyView::mouseMoveEvent(QMouseEvent* event)
{
  const QPoint pos = event->position().toPoint();
  if (m_panning) {
    const QPoint delta = pos - m_panLast;
    m_panLast = pos;
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
    verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
    event->accept();
    return;
  }
  const QPointF scenePos = mapToScene(pos);
  if (m_drag.pressed) {
    if (!m_drag.moving &&
        (pos - m_drag.pressPos).manhattanLength() < QApplication::startDragDistance()) {
      event->accept();
      return;
    }
    m_drag.moving = true;
    const QPointF delta = scenePos - m_drag.pressScene;
    Topology moved = m_drag.start;
    moveNodes(moved, m_drag.start, m_drag.nodes, delta.x(), delta.y());
    if (!m_document->topology() || moved != *m_document->topology()) {
      const QString text =
          m_drag.nodes.size() == 1
              ? tr("Move %1").arg(nameOf(moved, *m_drag.nodes.begin()))
              : tr("Move %n nodes", nullptr, static_cast<int>(m_drag.nodes.size()));
      push(std::move(moved), text, std::vector<int>(m_drag.nodes.begin(), m_drag.nodes.end()),
           m_drag.mergeKey);
    }
    event->accept();
    return;
  }
  if (m_link.from >= 0) {
    const NodeItem* from = m_scene->nodeItem(m_link.from);
    NodeItem* target = m_scene->nodeAt(scenePos);
    if (target == from)
      target = nullptr;
    if (NodeItem* previous = m_scene->nodeItem(m_link.target); previous && previous != target)
      previous->setLinkTarget(false);
    m_link.target = target ? target->nodeId() : -1;
    if (target)
      target->setLinkTarget(true);
    if (from)
      m_link.line->setLine(QLineF(from->pos(), target ? target->pos() : scenePos));
    event->accept();
    return;
  }
  updateCursor(pos);
  QGraphicsView::mouseMoveEvent(event);
}

void TopologyView::mouseReleaseEvent(QMouseEvent* event)
{
  if (m_panning && (event->button() == Qt::MiddleButton || event->button() == Qt::LeftButton)) {
    m_panning = false;
    updateCursor(event->position().toPoint());
    event->accept();
    return;
  }
  if (event->button() == Qt::LeftButton && m_link.from >= 0) {
    finishLinkDrag(true);
    event->accept();
    return;
  }
  if (event->button() == Qt::LeftButton)
    m_drag = NodeDrag{};
  QGraphicsView::mouseReleaseEvent(event);
}

void TopologyView::mouseDoubleClickEvent(QMouseEvent* event)
{
  // A double click is two presses to the add tools; Qt would otherwise send the second one as a
  // double click that places nothing.
  if (event->button() == Qt::LeftButton && isAddTool(m_tool) &&
      !m_scene->nodeAt(mapToScene(event->position().toPoint()))) {
    mousePressEvent(event);
    return;
  }
  if (event->button() == Qt::LeftButton && m_tool == Tool::Select &&
      toggleMachineAt(mapToScene(event->position().toPoint()))) {
    event->accept();
    return;
  }
  QGraphicsView::mouseDoubleClickEvent(event);
}

void TopologyView::finishLinkDrag(bool commit)
{
  const int from = m_link.from;
  const int to = m_link.target;
  if (NodeItem* target = m_scene->nodeItem(to))
    target->setLinkTarget(false);
  delete m_link.line;
  m_link = LinkDrag{};
  const std::optional<Topology>& topology = m_document->topology();
  if (!commit || to < 0 || !topology)
    return;
  Topology linked = *topology;
  const int id = addLink(linked, from, to);
  if (id < 0) {
    emit statusMessage(
        tr("%1 and %2 are already linked").arg(nameOf(linked, from), nameOf(linked, to)));
    return;
  }
  const QString text = tr("Link %1 and %2").arg(nameOf(linked, from), nameOf(linked, to));
  push(std::move(linked), text);
  Selection selection;
  selection.links.insert(id);
  m_document->setSelection(selection);
}

void TopologyView::addNodeAt(NodeKind kind, const QPointF& scenePos)
{
  Topology topology = currentTopology();
  const int id = addNode(topology, kind, scenePos.x(), scenePos.y());
  const QString text = tr("Add %1").arg(nameOf(topology, id));
  // Placing by hand: the view must not jump away from where the user is clicking.
  markUserViewChange();
  push(std::move(topology), text, {id});
  Selection selection;
  selection.nodes.insert(id);
  m_document->setSelection(selection);
}

void TopologyView::updateCursor(const QPoint& pos)
{
  if (m_spaceHeld || m_panning) {
    viewport()->setCursor(m_panning ? Qt::ClosedHandCursor : Qt::OpenHandCursor);
    return;
  }
  switch (m_tool) {
  case Tool::Select:
    viewport()->setCursor(Qt::ArrowCursor);
    break;
  case Tool::Link:
    viewport()->setCursor(m_scene->nodeAt(mapToScene(pos)) ? Qt::PointingHandCursor
                                                           : Qt::CrossCursor);
    break;
  default:
    viewport()->setCursor(Qt::CrossCursor);
    break;
  }
}

void TopologyView::wheelEvent(QWheelEvent* event)
{
  // Ctrl + wheel zooms around the pointer, as on the timeline; the plain wheel scrolls.
  if (event->modifiers() & Qt::ControlModifier) {
    markUserViewChange();
    const double steps = event->angleDelta().y() / 120.0;
    setZoom(zoom() * std::pow(1.2, steps));
    event->accept();
    return;
  }
  markUserViewChange();
  QGraphicsView::wheelEvent(event);
}

bool TopologyView::nudgeSelection(double dx, double dy)
{
  const std::set<int> nodes = m_scene->selectedNodeIds();
  const std::optional<Topology>& topology = m_document->topology();
  if (nodes.empty() || !topology)
    return false;
  Topology moved = *topology;
  moveNodes(moved, *topology, nodes, dx, dy);
  // Repeated arrow presses on the same nodes are one undo step.
  QString key = QStringLiteral("nudge");
  for (const int id : nodes)
    key += QLatin1Char(':') + QString::number(id);
  const QString text = nodes.size() == 1
                           ? tr("Move %1").arg(nameOf(moved, *nodes.begin()))
                           : tr("Move %n nodes", nullptr, static_cast<int>(nodes.size()));
  push(std::move(moved), text, std::vector<int>(nodes.begin(), nodes.end()), key);
  return true;
}

void TopologyView::keyPressEvent(QKeyEvent* event)
{
  const double step = (event->modifiers() & Qt::ShiftModifier) ? 1 : 10;
  switch (event->key()) {
  case Qt::Key_Space:
    if (!event->isAutoRepeat()) {
      m_spaceHeld = true;
      updateCursor({});
    }
    event->accept();
    return;
  case Qt::Key_Escape:
    if (m_link.from >= 0)
      finishLinkDrag(false);
    else
      setTool(Tool::Select);
    event->accept();
    return;
  default:
    break;
  }
  // Arrows nudge the selected nodes; with none selected they scroll, as in any view.
  const QPointF arrow = event->key() == Qt::Key_Left    ? QPointF(-step, 0)
                        : event->key() == Qt::Key_Right ? QPointF(step, 0)
                        : event->key() == Qt::Key_Up    ? QPointF(0, -step)
                        : event->key() == Qt::Key_Down  ? QPointF(0, step)
                                                        : QPointF();
  if (arrow.isNull() || !nudgeSelection(arrow.x(), arrow.y())) {
    QGraphicsView::keyPressEvent(event);
    return;
  }
  event->accept();
}

void TopologyView::keyReleaseEvent(QKeyEvent* event)
{
  if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
    m_spaceHeld = false;
    updateCursor(viewport()->mapFromGlobal(QCursor::pos()));
    event->accept();
    return;
  }
  QGraphicsView::keyReleaseEvent(event);
}

void TopologyView::focusOutEvent(QFocusEvent* event)
{
  // A Space released while another widget had focus never reaches us.
  m_spaceHeld = false;
  QGraphicsView::focusOutEvent(event);
}

} // namespace cs::editor
