#pragma once

// Inspector pages for the topology canvas's selection. A node: kind, name and the rank a GPU
// hosts. A link: kind, bandwidth (GB/s per direction), latency (µs) and duplex. Several items:
// what is selected, read-only. Every change is a ChangeTopologyCommand carrying the whole new
// Topology with a merge key of field and id ("link/3/bandwidth"), so spinning a value is one
// undo step.

#include "inspectorpage.h"

#include "model/topology.h"

#include <set>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace cs::editor {

class NodeInspector : public InspectorPage
{
  Q_OBJECT

public:
  NodeInspector(Document* document, QWidget* parent);
  void setNode(int id) { m_id = id; }
  void refresh() override;
  QString heading() const override;

private:
  const TopologyNode* node() const;
  void push(const TopologyNode& changed, const QString& text, const QString& field);

  int m_id = -1;
  QComboBox* m_kind;
  QLineEdit* m_name;
  QSpinBox* m_rank;
  QLabel* m_links;
};

class LinkInspector : public InspectorPage
{
  Q_OBJECT

public:
  LinkInspector(Document* document, QWidget* parent);
  void setLink(int id) { m_id = id; }
  void refresh() override;
  QString heading() const override;

private:
  const TopologyLink* link() const;
  void push(const TopologyLink& changed, const QString& text, const QString& field);

  int m_id = -1;
  QLabel* m_ends;
  QComboBox* m_kind;
  QDoubleSpinBox* m_bandwidth;
  QDoubleSpinBox* m_latency;
  QCheckBox* m_duplex;
};

/// Several nodes and/or links: a read-only list (editing several at once is the canvas's job).
class TopologySelectionInspector : public InspectorPage
{
  Q_OBJECT

public:
  TopologySelectionInspector(Document* document, QWidget* parent);
  void setItems(std::set<int> nodes, std::set<int> links);
  void refresh() override;
  QString heading() const override;

private:
  std::set<int> m_nodes;
  std::set<int> m_links;
  QLabel* m_list;
};

/// "GPU0 ↔ NVSwitch0" (node names, or "node 3" when unnamed or missing).
QString linkTitle(const Topology& topology, const TopologyLink& link);

} // namespace cs::editor
