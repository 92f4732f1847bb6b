#pragma once

// The topology canvas (issue 6, item 2): GPUs, NVSwitch and PCIe switches, NICs and CPUs and the
// links between them, drawn on a TopologyScene and edited with tools (select and move, add a node
// by clicking, draw a link by dragging from node to node), presets, auto layout, zoom and pan,
// and SVG/PNG export.
//
// Invariants: the document's topology is the only truth. Every edit here builds a whole new
// Topology (editor/topology/topologyedits.h) and pushes it as one ChangeTopologyCommand (a node
// drag pushes one per mouse move under one merge key, so the drag is one undo step); the scene
// follows the document's `changed` signal, never the other way round. The scene's selection and
// the document's selection mirror each other.
//
// Where to start: topologyview.cpp builds the actions, follows the document and makes the
// edits; topologyviewinput.cpp turns mouse and keys into edits; topologyviewmenus.cpp holds the
// context menu; topologyviewcanvas.cpp the overlays, zoom and exports; topologyscene.cpp maps
// ids to items.

#include "model/topology.h"

#include <QAction>
#include <QGraphicsView>
#include <QList>

#include <array>
#include <functional>
#include <set>
#include <vector>

class QActionGroup;
class QGraphicsLineItem;
class QMenu;

namespace cs::editor {

struct ChangeEvent;
class Document;
class EmptyTopologyHint;
class LinkLegend;
class RankWarningBar;
class TopologyScene;

class TopologyView : public QGraphicsView
{
  Q_OBJECT

public:
  /// The canvas tools, one checkable action each (exclusive).
  enum class Tool {
    Select,
    AddGpu,
    AddNvSwitch,
    AddPcieSwitch,
    AddNic,
    AddCpu,
    AddNetworkSwitch,
    Link,
    Count ///< how many tools there are, not a tool
  };
  /// The other actions of toolActions().
  enum class Command { Delete, Preset, AutoLayout, ZoomIn, ZoomOut, ZoomFit, ExportImage };

  explicit TopologyView(Document* document, QWidget* parent = nullptr);
  ~TopologyView() override;

  /// Actions this view adds to the main window's toolbar and menus while it is shown: the tools,
  /// Delete, Preset (with its menu), Auto layout, the zooms and Export image. Their shortcuts
  /// work while the canvas has focus.
  QList<QAction*> toolActions() const { return m_toolActions; }
  QAction* toolAction(Tool tool) const;
  QAction* commandAction(Command command) const;

  TopologyScene* topologyScene() const { return m_scene; }
  Tool tool() const { return m_tool; }
  void setTool(Tool tool);

  /// The algorithm's rank count (the shown Schedule's, else the Program's).
  int rankCount() const;
  /// The presets offered, with sizes filled in for rankCount(): "dgx-h100", …, "ring-8".
  QStringList presetNames() const;
  /// The Preset menu (rebuilt each time it opens).
  QMenu* presetMenu() const { return m_presetMenu; }
  /// Replaces the topology by preset `name` as one undo step; false (no change) when unknown.
  bool loadPreset(const QString& name);
  /// Lays every node out again (Graphviz when available) as one undo step.
  void autoLayout();
  /// Deletes the selected nodes with their links, and the selected links, as one undo step.
  void deleteSelection();
  /// Adds one GPU for every rank of the algorithm that has none, as one undo step.
  void addGpusForMissingRanks();

  /// The current zoom factor (1: one scene unit per pixel).
  double zoom() const;
  void setZoom(double zoom);
  void zoomIn();
  void zoomOut();
  /// Shows the whole topology, at most at 125 %.
  void zoomToFit();

  /// Writes the whole topology as SVG; returns an empty string or the error.
  QString exportSvg(const QString& path);
  /// Writes the whole topology as PNG (2 pixels per scene unit); returns "" or the error.
  QString exportPng(const QString& path);

  /// View › Group Topology by Node (checkable; checked while any machine is folded; enabled on
  /// topologies of several machines). See TopologyScene's machines.
  QAction* groupByNodeAction() const { return m_groupByNode; }
  /// Folds every machine (true) or unfolds every machine.
  void setGroupedByNode(bool grouped);
  /// Folds or unfolds one machine ("node 3" is machine 3).
  void setMachineFolded(int machine, bool folded);

  /// The warning about ranks without a GPU ("" when there is none).
  QString missingRanksText() const;
  /// Whether the "No topology yet" hint is showing.
  bool emptyHintShown() const;

signals:
  /// A short message for the status bar ("GPU0 and GPU1 are already linked").
  void statusMessage(const QString& message);

protected:
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void keyReleaseEvent(QKeyEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;
  void changeEvent(QEvent* event) override;
  void focusOutEvent(QFocusEvent* event) override;
  void drawBackground(QPainter* painter, const QRectF& rect) override;

private:
  /// A node drag in progress (Select tool): where it started and the topology before it.
  struct NodeDrag {
    bool pressed = false;
    bool moving = false;
    QPoint pressPos;
    QPointF pressScene;
    std::set<int> nodes;
    Topology start;
    QString mergeKey;
  };
  /// A link being drawn (Link tool).
  struct LinkDrag {
    int from = -1;
    int target = -1;
    QGraphicsLineItem* line = nullptr;
  };

  void createActions();
  void createToolActions();
  void createCommandActions();
  /// Adds `action` to the canvas's actions with `keys` active while the canvas has focus.
  void addShortcutAction(QAction* action, const QList<QKeySequence>& keys);
  void addSeparatorAction();
  QAction* addCommandAction(Command which, const QString& text, const QString& help,
                            const QString& name, const QList<QKeySequence>& keys);
  /// Asks for a file and saves the whole topology there as SVG or PNG.
  void exportImage();
  void refreshIcons();
  void rebuildPresetMenu();
  void followDocument(const ChangeEvent& event);
  void syncFromDocument();
  void applyDocumentSelection();
  void sceneSelectionChanged();
  void updateOverlays();
  void updateSceneRect(bool keepVisible);
  void placeOverlays();
  /// Room for the warning strip above the canvas, keeping the drawing still on screen.
  void setTopMargin(int top);
  /// Scrolls so that `scenePos` is at `viewportPos` again.
  void keepSceneAt(const QPointF& scenePos, const QPoint& viewportPos);
  void markUserViewChange() { m_autoFit = false; }
  void updateCursor(const QPoint& pos);

  /// The document's topology, or an empty one named "custom" to start drawing on.
  Topology currentTopology() const;
  /// Pushes `topology` as one ChangeTopologyCommand.
  void push(Topology topology, const QString& text, std::vector<int> changedNodes = {},
            const QString& mergeKey = {});
  void addNodeAt(NodeKind kind, const QPointF& scenePos);
  void finishLinkDrag(bool commit);
  /// Moves the selected nodes; false when no node is selected.
  bool nudgeSelection(double dx, double dy);
  void editNode(int id, const QString& text, const std::function<void(TopologyNode&)>& edit);
  void editLink(int id, const QString& text, const std::function<void(TopologyLink&)>& edit);
  void setGpuRank(int id, int rank);
  void showItemMenu(QMenu& menu, QGraphicsItem* item);
  void showCanvasMenu(QMenu& menu, const QPointF& scenePos);
  // Machine folding (topologyviewmachines.cpp).
  void createNodeGroupingAction();
  void updateNodeGroupingAction();
  /// Folds or unfolds the machine whose box or title is at `scenePos`; false when none is.
  bool toggleMachineAt(const QPointF& scenePos);
  /// "Fold node 3" or "Unfold node 3", and Group Topology by Node.
  void addMachineActions(QMenu& menu, int machine);

  Document* m_document;
  TopologyScene* m_scene;
  QList<QAction*> m_toolActions;
  QActionGroup* m_toolGroup;
  std::array<QAction*, static_cast<std::size_t>(Tool::Count)> m_tools{};
  std::array<QAction*, 7> m_commands{};
  QAction* m_groupByNode = nullptr;
  QMenu* m_presetMenu;
  EmptyTopologyHint* m_hint;
  RankWarningBar* m_warning;
  LinkLegend* m_legend;

  Tool m_tool = Tool::Select;
  NodeDrag m_drag;
  LinkDrag m_link;
  bool m_panning = false;
  QPoint m_panLast;
  bool m_spaceHeld = false;
  bool m_syncingSelection = false;
  /// Refit on every resize until the user zooms, pans or places a node.
  bool m_autoFit = false;
  int m_dragSerial = 0;
  int m_presetRanks = -1;
};

} // namespace cs::editor
