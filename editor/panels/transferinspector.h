#pragma once

// Inspector pages for timeline transfers. One transfer: step, source and destination (rank,
// buffer, index), count, copy/reduce and the channel and threadblock pins, each change one
// ChangeTransfersCommand whose text names the field, so repeated changes of one field merge into
// one undo step. Its problems are listed in red under the form and the instructions it became
// are links into the program; the route its data takes through the document's topology (which
// switches and NICs it crosses) is shown under them. Several transfers: the fields they share
// (step, operation, count) edited for all at once, showing "mixed" where they differ.

#include "inspectorpage.h"

#include "model/schedule.h"

#include <set>

class QComboBox;
class QLabel;
class QSpinBox;

namespace cs::editor {

class TransferInspector : public InspectorPage
{
  Q_OBJECT

public:
  TransferInspector(Document* document, QWidget* parent);
  /// Which transfer the page edits (a Transfer::id of the shown Schedule).
  void setTransfer(int id) { m_id = id; }
  int transferId() const { return m_id; }
  void refresh() override;
  QString heading() const override;

private:
  struct Endpoint {
    QSpinBox* rank = nullptr;
    QComboBox* buffer = nullptr;
    QSpinBox* index = nullptr;
  };
  Endpoint makeEndpoint(const QString& prefix, bool source);
  void showEndpoint(const Endpoint& editors, const ChunkRef& chunk, const Schedule& schedule);
  const Transfer* transfer() const;
  void push(const Transfer& changed, const QString& text);
  void selectInstruction(const QString& link);

  int m_id = -1;
  QSpinBox* m_step;
  Endpoint m_src;
  Endpoint m_dst;
  QSpinBox* m_count;
  QComboBox* m_op;
  QSpinBox* m_channel;
  QSpinBox* m_threadblock;
  QLabel* m_instructions;
  QLabel* m_route;
  QLabel* m_problems;
  QLabel* m_sourceNote;
};

class TransfersInspector : public InspectorPage
{
  Q_OBJECT

public:
  TransfersInspector(Document* document, QWidget* parent);
  void setTransfers(std::set<int> ids) { m_ids = std::move(ids); }
  void refresh() override;
  QString heading() const override;

private:
  std::vector<Transfer> selected() const;
  void pushAll(void (*change)(Transfer&, int), int value, const QString& text);

  std::set<int> m_ids;
  QSpinBox* m_step;
  QSpinBox* m_count;
  QComboBox* m_op;
  QLabel* m_list;
  QLabel* m_problems;
};

} // namespace cs::editor
