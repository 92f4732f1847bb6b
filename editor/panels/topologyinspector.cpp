#include "topologyinspector.h"

#include "style/textformat.h"

#include "document/commands/statecommands.h"
#include "document/document.h"
#include "style/rankpalette.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace cs::editor {

namespace {

constexpr int kMaxRank = 1023;

QString nodeTitle(const Topology& topology, int id)
{
  const TopologyNode* node = topology.node(id);
  if (!node || node->name.empty())
    return NodeInspector::tr("node %1").arg(id);
  return QString::fromStdString(node->name);
}

} // namespace

QString linkTitle(const Topology& topology, const TopologyLink& link)
{
  return QStringLiteral("%1 ↔ %2").arg(nodeTitle(topology, link.a), nodeTitle(topology, link.b));
}

NodeInspector::NodeInspector(Document* document, QWidget* parent)
    : InspectorPage(document, parent), m_kind(makeCombo(QStringLiteral("kind"))),
      m_name(new QLineEdit(this)),
      m_rank(makeSpin(QStringLiteral("rank"), -1, kMaxRank, tr("none"))),
      m_links(makeNote(QStringLiteral("links")))
{
  m_name->setObjectName(QStringLiteral("name"));
  for (NodeKind kind : {NodeKind::Gpu, NodeKind::NvSwitch, NodeKind::PcieSwitch, NodeKind::Nic,
                        NodeKind::Cpu, NodeKind::NetworkSwitch})
    m_kind->addItem(QString::fromUtf8(nodeKindName(kind)), static_cast<int>(kind));
  m_rank->setToolTip(tr("The rank this GPU hosts (none for switches, NICs and CPUs)"));
  form()->addRow(tr("Kind"), m_kind);
  form()->addRow(tr("Name"), m_name);
  form()->addRow(tr("Rank"), m_rank);
  form()->addRow(tr("Links"), m_links);

  connect(m_kind, &QComboBox::activated, this, [this] {
    if (const TopologyNode* n = node(); n && !updating()) {
      TopologyNode changed = *n;
      changed.kind = static_cast<NodeKind>(m_kind->currentData().toInt());
      if (changed.kind != NodeKind::Gpu)
        changed.rank = -1; // only GPUs host ranks
      push(changed, tr("Change node kind"), QStringLiteral("kind"));
    }
  });
  connect(m_name, &QLineEdit::editingFinished, this, [this] {
    if (const TopologyNode* n = node(); n && !updating()) {
      TopologyNode changed = *n;
      changed.name = m_name->text().trimmed().toStdString();
      push(changed, tr("Rename node"), QStringLiteral("name"));
    }
  });
  connect(m_rank, &QSpinBox::valueChanged, this, [this](int rank) {
    if (const TopologyNode* n = node(); n && !updating()) {
      TopologyNode changed = *n;
      changed.rank = rank;
      push(changed, tr("Change node rank"), QStringLiteral("rank"));
    }
  });
}

const TopologyNode* NodeInspector::node() const
{
  const std::optional<Topology>& topology = document()->topology();
  return topology ? topology->node(m_id) : nullptr;
}

void NodeInspector::push(const TopologyNode& changed, const QString& text, const QString& field)
{
  const TopologyNode* current = node();
  if (!current || *current == changed)
    return;
  Topology topology = *document()->topology();
  for (TopologyNode& n : topology.nodes)
    if (n.id == m_id)
      n = changed;
  document()->undoStack()->push(
      new ChangeTopologyCommand(document(), std::move(topology), text, {m_id},
                                QStringLiteral("node/%1/%2").arg(m_id).arg(field)));
}

QString NodeInspector::heading() const
{
  const TopologyNode* n = node();
  if (!n)
    return tr("Node");
  return nodeTitle(*document()->topology(), m_id);
}

void NodeInspector::refresh()
{
  const TopologyNode* n = node();
  setEnabled(n != nullptr);
  if (!n)
    return;
  fillEditors([&] {
    m_kind->setCurrentIndex(static_cast<int>(n->kind));
    if (!m_name->hasFocus())
      m_name->setText(QString::fromStdString(n->name));
    showValue(m_rank, n->rank, -1, kMaxRank);
    m_rank->setEnabled(n->kind == NodeKind::Gpu);
  });
  QStringList links;
  const Topology& topology = *document()->topology();
  for (const TopologyLink& link : topology.links)
    if (link.a == m_id || link.b == m_id)
      links << QStringLiteral("%1 · %2 · %3 GB/s")
                   .arg(nodeTitle(topology, link.a == m_id ? link.b : link.a),
                        QString::fromUtf8(linkKindName(link.kind)))
                   .arg(link.bandwidthGBps, 0, 'g', 6);
  m_links->setText(links.isEmpty() ? tr("not connected") : links.join(QStringLiteral("<br>")));
}

LinkInspector::LinkInspector(Document* document, QWidget* parent)
    : InspectorPage(document, parent), m_ends(makeNote(QStringLiteral("ends"))),
      m_kind(makeCombo(QStringLiteral("kind"))),
      m_bandwidth(makeDoubleSpin(QStringLiteral("bandwidth"), 0.01, 100000.0, 2, tr(" GB/s"))),
      m_latency(makeDoubleSpin(QStringLiteral("latency"), 0.0, 100000.0, 3, tr(" µs"))),
      m_duplex(makeCheck(QStringLiteral("duplex"), tr("Both directions")))
{
  for (LinkKind kind : {LinkKind::NvLink, LinkKind::Pcie, LinkKind::Network, LinkKind::Smp})
    m_kind->addItem(QString::fromUtf8(linkKindName(kind)), static_cast<int>(kind));
  m_bandwidth->setToolTip(tr("Bandwidth per direction, in GB/s (10⁹ bytes per second)"));
  m_latency->setToolTip(tr("Latency paid once per message crossing the link"));
  m_duplex->setToolTip(tr("Full bandwidth in both directions at once"));
  m_ends->setForegroundRole(QPalette::WindowText);
  form()->addRow(m_ends);
  form()->addRow(tr("Kind"), m_kind);
  form()->addRow(tr("Bandwidth"), m_bandwidth);
  form()->addRow(tr("Latency"), m_latency);
  form()->addRow(tr("Duplex"), m_duplex);

  connect(m_kind, &QComboBox::activated, this, [this] {
    if (const TopologyLink* l = link(); l && !updating()) {
      TopologyLink changed = *l;
      changed.kind = static_cast<LinkKind>(m_kind->currentData().toInt());
      push(changed, tr("Change link kind"), QStringLiteral("kind"));
    }
  });
  connect(m_bandwidth, &QDoubleSpinBox::valueChanged, this, [this](double value) {
    if (const TopologyLink* l = link(); l && !updating()) {
      TopologyLink changed = *l;
      changed.bandwidthGBps = value;
      push(changed, tr("Change link bandwidth"), QStringLiteral("bandwidth"));
    }
  });
  connect(m_latency, &QDoubleSpinBox::valueChanged, this, [this](double value) {
    if (const TopologyLink* l = link(); l && !updating()) {
      TopologyLink changed = *l;
      changed.latencyUs = value;
      push(changed, tr("Change link latency"), QStringLiteral("latency"));
    }
  });
  connect(m_duplex, &QCheckBox::toggled, this, [this](bool duplex) {
    if (const TopologyLink* l = link(); l && !updating()) {
      TopologyLink changed = *l;
      changed.duplex = duplex;
      push(changed, tr("Change link duplex"), QStringLiteral("duplex"));
    }
  });
}

const TopologyLink* LinkInspector::link() const
{
  const std::optional<Topology>& topology = document()->topology();
  return topology ? topology->link(m_id) : nullptr;
}

void LinkInspector::push(const TopologyLink& changed, const QString& text, const QString& field)
{
  const TopologyLink* current = link();
  if (!current || *current == changed)
    return;
  Topology topology = *document()->topology();
  for (TopologyLink& l : topology.links)
    if (l.id == m_id)
      l = changed;
  document()->undoStack()->push(
      new ChangeTopologyCommand(document(), std::move(topology), text, {changed.a, changed.b},
                                QStringLiteral("link/%1/%2").arg(m_id).arg(field)));
}

QString LinkInspector::heading() const
{
  const TopologyLink* l = link();
  return l ? tr("Link %1").arg(linkTitle(*document()->topology(), *l)) : tr("Link");
}

void LinkInspector::refresh()
{
  const TopologyLink* l = link();
  setEnabled(l != nullptr);
  if (!l)
    return;
  const QColor color = linkKindColor(l->kind);
  m_ends->setText(QStringLiteral("<span style=\"color:%1\">■</span> %2 · %3")
                      .arg(color.name(), tr("link %1").arg(m_id),
                           l->duplex ? tr("%1 GB/s each way").arg(l->bandwidthGBps, 0, 'g', 6)
                                     : tr("%1 GB/s shared").arg(l->bandwidthGBps, 0, 'g', 6)));
  fillEditors([&] {
    m_kind->setCurrentIndex(static_cast<int>(l->kind));
    m_bandwidth->setValue(l->bandwidthGBps);
    m_latency->setValue(l->latencyUs);
    m_duplex->setChecked(l->duplex);
  });
}

TopologySelectionInspector::TopologySelectionInspector(Document* document, QWidget* parent)
    : InspectorPage(document, parent), m_list(makeNote(QStringLiteral("items")))
{
  m_list->setForegroundRole(QPalette::WindowText);
  form()->addRow(m_list);
}

void TopologySelectionInspector::setItems(std::set<int> nodes, std::set<int> links)
{
  m_nodes = std::move(nodes);
  m_links = std::move(links);
}

QString TopologySelectionInspector::heading() const
{
  QStringList parts;
  if (!m_nodes.empty())
    parts << countText(static_cast<long long>(m_nodes.size()), tr("node"), tr("nodes"));
  if (!m_links.empty())
    parts << countText(static_cast<long long>(m_links.size()), tr("link"), tr("links"));
  return parts.join(QStringLiteral(", "));
}

void TopologySelectionInspector::refresh()
{
  const std::optional<Topology>& topology = document()->topology();
  if (!topology) {
    m_list->clear();
    return;
  }
  QStringList lines;
  for (int id : m_nodes)
    if (const TopologyNode* node = topology->node(id))
      lines << QStringLiteral("%1 <small>(%2)</small>")
                   .arg(nodeTitle(*topology, id).toHtmlEscaped(),
                        QString::fromUtf8(nodeKindName(node->kind)));
  for (int id : m_links)
    if (const TopologyLink* link = topology->link(id))
      lines << QStringLiteral("%1 <small>(%2, %3 GB/s)</small>")
                   .arg(linkTitle(*topology, *link).toHtmlEscaped(),
                        QString::fromUtf8(linkKindName(link->kind)))
                   .arg(link->bandwidthGBps, 0, 'g', 6);
  lines << QString() << tr("Select a single node or link to edit it.");
  m_list->setText(lines.join(QStringLiteral("<br>")));
}

} // namespace cs::editor
