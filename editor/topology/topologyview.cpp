#include "topologyview.h"

#include "canvasstyle.h"
#include "linkitem.h"
#include "nodeitem.h"
#include "topologyedits.h"
#include "topologyexport.h"
#include "topologyicons.h"
#include "topologylayout.h"
#include "topologyoverlays.h"
#include "topologyscene.h"

#include "document/commands/statecommands.h"
#include "document/document.h"

#include "model/topologypresets.h"

#include <QActionGroup>
#include <QCursor>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

namespace cs::editor {

namespace {

// Texts are marked for lupdate here and translated where they are used (tr() in createActions).
struct ToolInfo {
  TopologyView::Tool tool;
  TopologyIcon icon;
  const char* text;
  const char* key;
  const char* help;
  const char* name;
};

const ToolInfo kToolInfo[] = {
    {TopologyView::Tool::Select, TopologyIcon::Select,
     QT_TRANSLATE_NOOP("cs::editor::TopologyView", "Select and move"), "V",
     QT_TRANSLATE_NOOP(
         "cs::editor::TopologyView",
         "Click to select, drag to move nodes, drag on empty canvas to select an area"),
     "topologySelectTool"},
    {TopologyView::Tool::AddGpu, TopologyIcon::Gpu,
     QT_TRANSLATE_NOOP("cs::editor::TopologyView", "Add GPU"), "G",
     QT_TRANSLATE_NOOP("cs::editor::TopologyView",
                       "Click on the canvas to place a GPU hosting the next free rank"),
     "topologyAddGpuTool"},
    {TopologyView::Tool::AddNvSwitch, TopologyIcon::NvSwitch,
     QT_TRANSLATE_NOOP("cs::editor::TopologyView", "Add NVSwitch"), "S",
     QT_TRANSLATE_NOOP("cs::editor::TopologyView", "Click on the canvas to place an NVSwitch"),
     "topologyAddNvSwitchTool"},
    {TopologyView::Tool::AddPcieSwitch, TopologyIcon::PcieSwitch,
     QT_TRANSLATE_NOOP("cs::editor::TopologyView", "Add PCIe switch"), "P",
     QT_TRANSLATE_NOOP("cs::editor::TopologyView", "Click on the canvas to place a PCIe switch"),
     "topologyAddPcieSwitchTool"},
    {TopologyView::Tool::AddNic, TopologyIcon::Nic,
     QT_TRANSLATE_NOOP("cs::editor::TopologyView", "Add NIC"), "N",
     QT_TRANSLATE_NOOP("cs::editor::TopologyView", "Click on the canvas to place a network card"),
     "topologyAddNicTool"},
    {TopologyView::Tool::AddCpu, TopologyIcon::Cpu,
     QT_TRANSLATE_NOOP("cs::editor::TopologyView", "Add CPU"), "C",
     QT_TRANSLATE_NOOP("cs::editor::TopologyView", "Click on the canvas to place a CPU"),
     "topologyAddCpuTool"},
    {TopologyView::Tool::AddNetworkSwitch, TopologyIcon::NetworkSwitch,
     QT_TRANSLATE_NOOP("cs::editor::TopologyView", "Add network switch"), "W",
     QT_TRANSLATE_NOOP("cs::editor::TopologyView",
                       "Click on the canvas to place a network switch (a leaf or spine between "
                       "nodes, which NICs plug into)"),
     "topologyAddNetworkSwitchTool"},
    {TopologyView::Tool::Link, TopologyIcon::Link,
     QT_TRANSLATE_NOOP("cs::editor::TopologyView", "Link"), "L",
     QT_TRANSLATE_NOOP(
         "cs::editor::TopologyView",
         "Drag from one node to another to link them (NVLink, PCIe or network, from the kinds)"),
     "topologyLinkTool"},
};

bool isPattern(const std::string& name)
{
  return name.ends_with("-N") || name.ends_with("-RxC") || name.ends_with("-NxG");
}

} // namespace

TopologyView::TopologyView(Document* document, QWidget* parent)
    : QGraphicsView(parent), m_document(document), m_scene(new TopologyScene(this)),
      m_toolGroup(new QActionGroup(this)), m_presetMenu(new QMenu(tr("Preset"), this)),
      m_hint(new EmptyTopologyHint(this)), m_warning(new RankWarningBar(this)),
      m_legend(new LinkLegend(this))
{
  setObjectName(QStringLiteral("topologyView"));
  setScene(m_scene);
  m_scene->setPalette(palette());
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing |
                 QPainter::SmoothPixmapTransform);
  setDragMode(RubberBandDrag);
  // A band selects what it encloses: a link only when both its ends are inside.
  setRubberBandSelectionMode(Qt::ContainsItemShape);
  setTransformationAnchor(AnchorUnderMouse);
  setResizeAnchor(AnchorViewCenter);
  // Panning is by middle button, Space + drag or the wheel; scroll bars would only take room.
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setFrameShape(QFrame::NoFrame);
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  viewport()->setMouseTracking(true);

  createActions();
  m_hint->setPresetMenu(m_presetMenu);
  connect(m_hint, &EmptyTopologyHint::addGpusClicked, this, &TopologyView::addGpusForMissingRanks);
  connect(m_warning, &RankWarningBar::addGpusClicked, this, &TopologyView::addGpusForMissingRanks);
  connect(m_document, &Document::changed, this, &TopologyView::followDocument);
  connect(m_document, &Document::analysisChanged, this, &TopologyView::updateOverlays);
  connect(m_document, &Document::selectionChanged, this, &TopologyView::applyDocumentSelection);
  // A new document starts with the default tool (Select), not the last one's.
  connect(m_document, &Document::replaced, this, [this] { setTool(Tool::Select); });
  connect(m_scene, &QGraphicsScene::selectionChanged, this, &TopologyView::sceneSelectionChanged);

  m_autoFit = m_document->topology().has_value();
  syncFromDocument();
  applyDocumentSelection();
  setTool(Tool::Select);
}

TopologyView::~TopologyView()
{
  // The scene's items may call back into the view while it is destroyed; detach first.
  disconnect(m_scene, nullptr, this, nullptr);
}

QAction* TopologyView::toolAction(Tool tool) const
{
  return m_tools[static_cast<std::size_t>(tool)];
}

QAction* TopologyView::commandAction(Command command) const
{
  return m_commands[static_cast<std::size_t>(command)];
}

void TopologyView::createActions()
{
  createToolActions();
  addSeparatorAction();
  createCommandActions();
  createNodeGroupingAction();
  refreshIcons();
  rebuildPresetMenu();
}

void TopologyView::addShortcutAction(QAction* action, const QList<QKeySequence>& keys)
{
  action->setShortcuts(keys);
  // The four views share one window: shortcuts act only where the canvas has focus.
  action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  addAction(action);
  m_toolActions.push_back(action);
}

void TopologyView::addSeparatorAction()
{
  auto* action = new QAction(this);
  action->setSeparator(true);
  m_toolActions.push_back(action);
}

void TopologyView::createToolActions()
{
  for (const ToolInfo& info : kToolInfo) {
    auto* action = new QAction(tr(info.text), this);
    action->setObjectName(QString::fromLatin1(info.name));
    action->setCheckable(true);
    action->setToolTip(QStringLiteral("<b>%1</b> (%2)<br>%3")
                           .arg(tr(info.text), QString::fromLatin1(info.key), tr(info.help)));
    action->setStatusTip(tr(info.help));
    m_toolGroup->addAction(action);
    const Tool tool = info.tool;
    connect(action, &QAction::triggered, this, [this, tool] { setTool(tool); });
    m_tools[static_cast<std::size_t>(tool)] = action;
    addShortcutAction(action, {QKeySequence(QString::fromLatin1(info.key))});
  }
}

QAction* TopologyView::addCommandAction(Command which, const QString& text, const QString& help,
                                        const QString& name, const QList<QKeySequence>& keys)
{
  auto* action = new QAction(text, this);
  action->setObjectName(name);
  const QString key = keys.isEmpty() ? QString() : keys.front().toString(QKeySequence::NativeText);
  action->setToolTip(key.isEmpty() ? QStringLiteral("<b>%1</b><br>%2").arg(text, help)
                                   : QStringLiteral("<b>%1</b> (%2)<br>%3").arg(text, key, help));
  action->setStatusTip(help);
  m_commands[static_cast<std::size_t>(which)] = action;
  addShortcutAction(action, keys);
  return action;
}

void TopologyView::createCommandActions()
{
  connect(addCommandAction(Command::Delete, tr("Delete"),
                           tr("Delete the selected nodes with their links, and the selected links"),
                           QStringLiteral("topologyDelete"),
                           {QKeySequence(QKeySequence::Delete), QKeySequence(Qt::Key_Backspace)}),
          &QAction::triggered, this, &TopologyView::deleteSelection);
  QAction* preset =
      addCommandAction(Command::Preset, tr("Preset"),
                       tr("Replace the topology by a real machine or a shape sized for "
                          "the algorithm's ranks"),
                       QStringLiteral("topologyPreset"), {});
  preset->setMenu(m_presetMenu);
  // A toolbar may show it as a plain button: clicking it opens the menu as well.
  connect(preset, &QAction::triggered, this, [this] { m_presetMenu->popup(QCursor::pos()); });
  connect(m_presetMenu, &QMenu::aboutToShow, this, &TopologyView::rebuildPresetMenu);
  m_presetMenu->setToolTipsVisible(true);
  connect(addCommandAction(
              Command::AutoLayout, tr("Auto layout"),
              tr("Place every node again: switches beside the GPUs they serve, no overlaps"),
              QStringLiteral("topologyAutoLayout"), {QKeySequence(tr("Ctrl+Shift+L"))}),
          &QAction::triggered, this, &TopologyView::autoLayout);
  addSeparatorAction();
  connect(addCommandAction(Command::ZoomIn, tr("Zoom in"), tr("Zoom in (Ctrl + wheel)"),
                           QStringLiteral("topologyZoomIn"),
                           {QKeySequence(QKeySequence::ZoomIn), QKeySequence(tr("Ctrl+="))}),
          &QAction::triggered, this, &TopologyView::zoomIn);
  connect(addCommandAction(Command::ZoomOut, tr("Zoom out"), tr("Zoom out (Ctrl + wheel)"),
                           QStringLiteral("topologyZoomOut"),
                           {QKeySequence(QKeySequence::ZoomOut)}),
          &QAction::triggered, this, &TopologyView::zoomOut);
  connect(addCommandAction(Command::ZoomFit, tr("Fit to window"), tr("Show the whole topology"),
                           QStringLiteral("topologyZoomFit"), {QKeySequence(tr("Ctrl+0"))}),
          &QAction::triggered, this, &TopologyView::zoomToFit);
  addSeparatorAction();
  connect(addCommandAction(Command::ExportImage, tr("Export image…"),
                           tr("Save the whole topology as an SVG or PNG picture"),
                           QStringLiteral("topologyExportImage"), {}),
          &QAction::triggered, this, &TopologyView::exportImage);
}

void TopologyView::exportImage()
{
  const QString name = QString::fromStdString(m_document->topology() ? m_document->topology()->name
                                                                     : std::string("topology"));
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Export topology image"), name + QStringLiteral(".svg"),
                                   tr("SVG image (*.svg);;PNG image (*.png)"));
  if (path.isEmpty())
    return;
  const QString error = path.endsWith(QStringLiteral(".png"), Qt::CaseInsensitive)
                            ? exportPng(path)
                            : exportSvg(path);
  if (!error.isEmpty())
    QMessageBox::warning(this, tr("Export topology image"), error);
  else
    emit statusMessage(tr("Topology exported to %1").arg(path));
}

void TopologyView::refreshIcons()
{
  const QPalette& colours = palette();
  for (const ToolInfo& info : kToolInfo)
    toolAction(info.tool)->setIcon(topologyIcon(info.icon, colours));
  commandAction(Command::Delete)->setIcon(topologyIcon(TopologyIcon::Delete, colours));
  commandAction(Command::Preset)->setIcon(topologyIcon(TopologyIcon::Preset, colours));
  commandAction(Command::AutoLayout)->setIcon(topologyIcon(TopologyIcon::AutoLayout, colours));
  commandAction(Command::ZoomIn)->setIcon(topologyIcon(TopologyIcon::ZoomIn, colours));
  commandAction(Command::ZoomOut)->setIcon(topologyIcon(TopologyIcon::ZoomOut, colours));
  commandAction(Command::ZoomFit)->setIcon(topologyIcon(TopologyIcon::ZoomFit, colours));
  commandAction(Command::ExportImage)->setIcon(topologyIcon(TopologyIcon::Export, colours));
}

int TopologyView::rankCount() const
{
  if (const std::optional<Schedule>& schedule = m_document->shownSchedule())
    return schedule->ranks;
  if (const std::optional<Program>& program = m_document->shownProgram())
    return program->ngpus;
  return m_document->schedule().ranks;
}

QStringList TopologyView::presetNames() const
{
  QStringList names;
  for (const PresetInfo& preset : topologyPresets())
    names.push_back(QString::fromStdString(sizedPresetName(preset.name, rankCount())));
  return names;
}

void TopologyView::rebuildPresetMenu()
{
  m_presetRanks = rankCount();
  m_presetMenu->clear();
  m_presetMenu->addSection(tr("Machines"));
  bool shapes = false;
  for (const PresetInfo& preset : topologyPresets()) {
    if (isPattern(preset.name) && !shapes) {
      m_presetMenu->addSection(tr("Shapes for %n ranks", nullptr, m_presetRanks));
      shapes = true;
    }
    const QString name = QString::fromStdString(sizedPresetName(preset.name, m_presetRanks));
    QAction* action = m_presetMenu->addAction(name);
    action->setObjectName(QStringLiteral("preset:") + name);
    action->setToolTip(QString::fromStdString(preset.description));
    action->setStatusTip(QString::fromStdString(preset.description));
    connect(action, &QAction::triggered, this, [this, name] { loadPreset(name); });
  }
  m_presetMenu->addSeparator();
  QAction* remove = m_presetMenu->addAction(tr("Remove topology"));
  remove->setEnabled(m_document->topology().has_value());
  connect(remove, &QAction::triggered, this, [this] {
    m_document->undoStack()->push(
        new ChangeTopologyCommand(m_document, std::nullopt, tr("Remove topology")));
  });
}

void TopologyView::followDocument(const ChangeEvent& event)
{
  switch (event.kind) {
  case ChangeEvent::Kind::Reset:
    m_autoFit = m_document->topology().has_value();
    syncFromDocument();
    break;
  case ChangeEvent::Kind::Topology:
    syncFromDocument();
    break;
  case ChangeEvent::Kind::Schedule:
  case ChangeEvent::Kind::Program:
    updateOverlays();
    break;
  default:
    break;
  }
}

void TopologyView::syncFromDocument()
{
  const std::optional<Topology>& topology = m_document->topology();
  m_syncingSelection = true;
  m_scene->sync(topology ? &*topology : nullptr);
  const Selection& selection = m_document->selection();
  m_scene->selectIds(selection.nodes, selection.links);
  m_syncingSelection = false;
  if (m_link.from >= 0 && !m_scene->nodeItem(m_link.from))
    finishLinkDrag(false);

  updateNodeGroupingAction();
  updateSceneRect(true);
  updateOverlays();
  if (m_autoFit && isVisible())
    zoomToFit();

  // Ids of deleted nodes and links leave the shared selection too.
  Selection pruned = selection;
  std::erase_if(pruned.nodes, [this](int id) { return !m_scene->nodeItem(id); });
  std::erase_if(pruned.links, [this](int id) { return !m_scene->linkItem(id); });
  if (!(pruned == selection))
    m_document->setSelection(pruned);
  const bool any = topology && !topology->nodes.empty();
  commandAction(Command::AutoLayout)->setEnabled(any);
  commandAction(Command::ExportImage)->setEnabled(any);
}

void TopologyView::applyDocumentSelection()
{
  const Selection& selection = m_document->selection();
  m_syncingSelection = true;
  m_scene->selectIds(selection.nodes, selection.links);
  m_syncingSelection = false;
  commandAction(Command::Delete)->setEnabled(!selection.nodes.empty() || !selection.links.empty());
}

void TopologyView::sceneSelectionChanged()
{
  if (m_syncingSelection)
    return;
  // A selection on the canvas replaces the selection elsewhere (one thing is inspected).
  Selection selection;
  selection.nodes = m_scene->selectedNodeIds();
  selection.links = m_scene->selectedLinkIds();
  m_document->setSelection(selection);
}

Topology TopologyView::currentTopology() const
{
  if (const std::optional<Topology>& topology = m_document->topology())
    return *topology;
  Topology fresh;
  fresh.name = "custom";
  return fresh;
}

void TopologyView::push(Topology topology, const QString& text, std::vector<int> changedNodes,
                        const QString& mergeKey)
{
  m_document->undoStack()->push(new ChangeTopologyCommand(m_document, std::move(topology), text,
                                                          std::move(changedNodes), mergeKey));
}

void TopologyView::setTool(Tool tool)
{
  if (m_link.from >= 0)
    finishLinkDrag(false);
  m_tool = tool;
  toolAction(tool)->setChecked(true);
  setDragMode(tool == Tool::Select ? RubberBandDrag : NoDrag);
  updateCursor(viewport()->mapFromGlobal(QCursor::pos()));
}

bool TopologyView::loadPreset(const QString& name)
{
  std::string error;
  std::optional<Topology> topology = makePresetTopology(name.toStdString(), {}, &error);
  if (!topology) {
    emit statusMessage(QString::fromStdString(error));
    return false;
  }
  m_autoFit = true;
  push(std::move(*topology), tr("Load preset %1").arg(name));
  return true;
}

void TopologyView::autoLayout()
{
  const std::optional<Topology>& topology = m_document->topology();
  if (!topology || topology->nodes.empty())
    return;
  QString used;
  const NodePositions positions = layoutTopology(*topology, NodeItem::sizeFor, &used);
  Topology laidOut = withPositions(*topology, positions);
  m_autoFit = true;
  if (laidOut == *topology) {
    zoomToFit();
    emit statusMessage(tr("The topology is already laid out"));
    return;
  }
  push(std::move(laidOut), tr("Auto layout"));
  emit statusMessage(tr("Laid out with the %1 layout").arg(used));
}

void TopologyView::deleteSelection()
{
  const std::optional<Topology>& topology = m_document->topology();
  const std::set<int> nodes = m_scene->selectedNodeIds();
  const std::set<int> links = m_scene->selectedLinkIds();
  if (!topology || (nodes.empty() && links.empty()))
    return;
  QString text;
  if (nodes.size() == 1 && links.empty()) {
    text = tr("Delete %1").arg(QString::fromStdString(topology->node(*nodes.begin())->name));
  } else if (nodes.empty() && links.size() == 1) {
    text = tr("Delete link");
  } else {
    text = tr("Delete %n items", nullptr, static_cast<int>(nodes.size() + links.size()));
  }
  Topology edited = *topology;
  removeNodesAndLinks(edited, nodes, links);
  push(std::move(edited), text, std::vector<int>(nodes.begin(), nodes.end()));
}

void TopologyView::addGpusForMissingRanks()
{
  Topology topology = currentTopology();
  const std::vector<int> missing = ranksWithoutGpu(&topology, rankCount());
  if (missing.empty())
    return;
  const bool wasEmpty = topology.nodes.empty();
  const std::vector<int> ids = addGpusForRanks(topology, missing);
  if (wasEmpty) {
    // A fresh set of GPUs reads best as a circle; the built-in layout gives one every time.
    topology = withPositions(
        topology,
        makeBuiltinLayout()->layout(topology, NodeItem::sizeFor).value_or(NodePositions{}));
    m_autoFit = true;
  }
  const QString ranks = QString::fromStdString(formatRankList(missing));
  push(std::move(topology),
       missing.size() == 1 ? tr("Add GPU for rank %1").arg(ranks)
                           : tr("Add GPUs for ranks %1").arg(ranks),
       ids);
}

} // namespace cs::editor
