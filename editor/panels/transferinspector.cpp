#include "transferinspector.h"

#include "style/textformat.h"

#include "document/commands/transfercommands.h"
#include "document/document.h"

#include "model/routing.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

namespace cs::editor {

namespace {

// Steps and chunk counts a person can reasonably draw; the Schedule model holds any int, the
// timeline shows up to a few thousand steps.
constexpr int kMaxStep = 4095;
constexpr int kMaxChunks = 32768;

void fillBuffers(QComboBox* combo)
{
  for (Buffer buffer : {Buffer::Input, Buffer::Output, Buffer::Scratch})
    combo->addItem(QString::fromUtf8(bufferName(buffer)), static_cast<int>(buffer));
}

void fillOps(QComboBox* combo)
{
  combo->addItem(QString::fromUtf8(transferOpName(TransferOp::Copy)),
                 static_cast<int>(TransferOp::Copy));
  combo->addItem(QString::fromUtf8(transferOpName(TransferOp::Reduce)),
                 static_cast<int>(TransferOp::Reduce));
}

int chunksOf(const Schedule& schedule, const ChunkRef& chunk)
{
  if (chunk.rank < 0 || chunk.rank >= static_cast<int>(schedule.buffers.size()))
    return 0;
  return schedule.buffers[static_cast<std::size_t>(chunk.rank)].chunks(chunk.buffer);
}

std::vector<const Problem*> problemsOf(const Analysis& analysis, int transferId)
{
  std::vector<const Problem*> found;
  const auto entry = analysis.problemsByTransfer.find(transferId);
  if (entry == analysis.problemsByTransfer.end())
    return found;
  for (int i : entry->second)
    if (i >= 0 && i < static_cast<int>(analysis.problems.size()))
      found.push_back(&analysis.problems[static_cast<std::size_t>(i)]);
  return found;
}

/// "GPU2 → NVSwitch → GPU5 · 450 GB/s · 0.7 µs" for the route between the transfer's ranks.
QString routeText(const std::optional<Topology>& topology, const Transfer& transfer)
{
  if (transfer.isLocal())
    return TransferInspector::tr("local: no link");
  if (!topology)
    return TransferInspector::tr("no topology");
  const TopologyNode* from = topology->gpuNode(transfer.src.rank);
  const TopologyNode* to = topology->gpuNode(transfer.dst.rank);
  if (!from || !to)
    return TransferInspector::tr("a rank is on no GPU of the topology");
  const std::optional<Route> route = findRoute(*topology, from->id, to->id);
  if (!route)
    return TransferInspector::tr("no path in the topology");
  QStringList nodes = {QString::fromStdString(from->name)};
  int at = from->id;
  for (const Hop& hop : route->hops) {
    const TopologyLink* link = topology->link(hop.link);
    at = hop.aToB ? link->b : link->a;
    const TopologyNode* node = topology->node(at);
    nodes << (node ? QString::fromStdString(node->name) : QStringLiteral("?"));
  }
  return QStringLiteral("%1 \u00b7 %2 GB/s \u00b7 %3 \u00b5s")
      .arg(nodes.join(QStringLiteral(" \u2192 ")), QString::number(route->bottleneckGBps, 'g', 4),
           QString::number(route->latencyUs, 'g', 3));
}

} // namespace

TransferInspector::TransferInspector(Document* document, QWidget* parent)
    : InspectorPage(document, parent), m_step(makeSpin(QStringLiteral("step"), 0, kMaxStep)),
      m_count(makeSpin(QStringLiteral("count"), 1, kMaxChunks)),
      m_op(makeCombo(QStringLiteral("op"))),
      m_channel(makeSpin(QStringLiteral("channel"), -1, 31, tr("auto"))),
      m_threadblock(makeSpin(QStringLiteral("threadblock"), -1, 63, tr("auto"))),
      m_instructions(makeNote(QStringLiteral("instructions"))),
      m_route(makeNote(QStringLiteral("route"))), m_problems(makeNote(QStringLiteral("problems"))),
      m_sourceNote(makeNote(QStringLiteral("sourceNote")))
{
  m_src = makeEndpoint(QStringLiteral("src"), true);
  m_dst = makeEndpoint(QStringLiteral("dst"), false);
  fillOps(m_op);
  m_problems->setForegroundRole(QPalette::WindowText);
  m_instructions->setTextInteractionFlags(Qt::LinksAccessibleByMouse |
                                          Qt::LinksAccessibleByKeyboard);
  m_channel->setToolTip(tr("The channel lowering must use (auto: lowering chooses)"));
  m_threadblock->setToolTip(
      tr("The sender's threadblock id, or the receiver's for a local copy (auto: lowering "
         "chooses)"));

  auto row = [](QWidget* a, QWidget* b, QWidget* c) {
    auto* box = new QHBoxLayout;
    box->setSpacing(4);
    box->addWidget(a);
    box->addWidget(b, 1);
    box->addWidget(c);
    return box;
  };
  form()->addRow(tr("Step"), m_step);
  form()->addRow(tr("From"), row(m_src.rank, m_src.buffer, m_src.index));
  form()->addRow(tr("To"), row(m_dst.rank, m_dst.buffer, m_dst.index));
  form()->addRow(tr("Chunks"), m_count);
  form()->addRow(tr("Operation"), m_op);
  form()->addRow(tr("Channel"), m_channel);
  form()->addRow(tr("Threadblock"), m_threadblock);
  form()->addRow(tr("Instructions"), m_instructions);
  form()->addRow(tr("Route"), m_route);
  form()->addRow(m_problems);
  form()->addRow(m_sourceNote);

  connect(m_step, &QSpinBox::valueChanged, this, [this](int step) {
    if (const Transfer* t = transfer(); t && !updating()) {
      Transfer changed = *t;
      changed.step = step;
      push(changed, tr("Change step"));
    }
  });
  connect(m_count, &QSpinBox::valueChanged, this, [this](int count) {
    if (const Transfer* t = transfer(); t && !updating()) {
      Transfer changed = *t;
      changed.count = count;
      push(changed, tr("Change chunk count"));
    }
  });
  connect(m_op, &QComboBox::activated, this, [this] {
    if (const Transfer* t = transfer(); t && !updating()) {
      Transfer changed = *t;
      changed.op = static_cast<TransferOp>(m_op->currentData().toInt());
      push(changed, tr("Change operation"));
    }
  });
  connect(m_channel, &QSpinBox::valueChanged, this, [this](int channel) {
    if (const Transfer* t = transfer(); t && !updating()) {
      Transfer changed = *t;
      changed.pins.channel = channel < 0 ? std::nullopt : std::optional(channel);
      push(changed, tr("Pin channel"));
    }
  });
  connect(m_threadblock, &QSpinBox::valueChanged, this, [this](int tb) {
    if (const Transfer* t = transfer(); t && !updating()) {
      Transfer changed = *t;
      changed.pins.threadblock = tb < 0 ? std::nullopt : std::optional(tb);
      push(changed, tr("Pin threadblock"));
    }
  });
  connect(m_instructions, &QLabel::linkActivated, this, &TransferInspector::selectInstruction);
}

TransferInspector::Endpoint TransferInspector::makeEndpoint(const QString& prefix, bool source)
{
  Endpoint editors;
  editors.rank = makeSpin(prefix + QStringLiteral("Rank"), 0, 0);
  editors.rank->setPrefix(tr("r"));
  editors.rank->setToolTip(tr("Rank"));
  editors.buffer = makeCombo(prefix + QStringLiteral("Buffer"));
  fillBuffers(editors.buffer);
  editors.index = makeSpin(prefix + QStringLiteral("Index"), 0, 0);
  editors.index->setPrefix(QStringLiteral("["));
  editors.index->setSuffix(QStringLiteral("]"));
  editors.index->setToolTip(tr("Chunk index in the buffer"));
  const QString text = source ? tr("Change source") : tr("Change destination");
  auto changed = [this, editors, source, text] {
    const Transfer* t = transfer();
    if (!t || updating())
      return;
    Transfer edited = *t;
    ChunkRef& chunk = source ? edited.src : edited.dst;
    chunk.rank = editors.rank->value();
    chunk.buffer = static_cast<Buffer>(editors.buffer->currentData().toInt());
    chunk.index = editors.index->value();
    push(edited, text);
  };
  connect(editors.rank, &QSpinBox::valueChanged, this, changed);
  connect(editors.buffer, &QComboBox::activated, this, changed);
  connect(editors.index, &QSpinBox::valueChanged, this, changed);
  return editors;
}

const Transfer* TransferInspector::transfer() const
{
  const std::optional<Schedule>& shown = document()->shownSchedule();
  return shown ? shown->transfer(m_id) : nullptr;
}

void TransferInspector::push(const Transfer& changed, const QString& text)
{
  if (const Transfer* t = transfer(); t && *t == changed)
    return;
  document()->undoStack()->push(new ChangeTransfersCommand(document(), {changed}, text));
}

QString TransferInspector::heading() const
{
  return tr("Transfer #%1").arg(m_id);
}

void TransferInspector::showEndpoint(const Endpoint& editors, const ChunkRef& chunk,
                                     const Schedule& schedule)
{
  showValue(editors.rank, chunk.rank, 0, std::max(0, schedule.ranks - 1));
  editors.buffer->setCurrentIndex(static_cast<int>(chunk.buffer));
  showValue(editors.index, chunk.index, 0, std::max(0, chunksOf(schedule, chunk) - 1));
}

void TransferInspector::refresh()
{
  const Transfer* t = transfer();
  setEnabled(t != nullptr);
  if (!t)
    return;
  const Schedule& schedule = *document()->shownSchedule();
  const Analysis& analysis = document()->analysis();
  const Dialect& target = dialect(document()->lowering().dialect);
  fillEditors([&] {
    showValue(m_step, t->step, 0, kMaxStep);
    showEndpoint(m_src, t->src, schedule);
    showEndpoint(m_dst, t->dst, schedule);
    showValue(m_count, t->count, 1,
              std::max({1, chunksOf(schedule, t->src), chunksOf(schedule, t->dst)}));
    m_op->setCurrentIndex(static_cast<int>(t->op));
    showValue(m_channel, t->pins.channel.value_or(-1), -1, target.maxChannels - 1);
    showValue(m_threadblock, t->pins.threadblock.value_or(-1), -1,
              target.maxThreadblocksPerRank - 1);
  });

  QStringList links;
  const std::optional<Program>& program = document()->shownProgram();
  for (const InstructionOrigin& origin : analysis.instructionsOf(m_id)) {
    const ThreadBlock* tb = program ? program->threadblock(origin.rank, origin.tb) : nullptr;
    const QString type =
        tb && origin.step < static_cast<int>(tb->steps.size())
            ? QString::fromUtf8(opTypeName(tb->steps[static_cast<std::size_t>(origin.step)].type))
            : QString();
    links << QStringLiteral("<a href=\"%1/%2/%3\">r%1 tb %2 s %3</a> %4")
                 .arg(origin.rank)
                 .arg(origin.tb)
                 .arg(origin.step)
                 .arg(type);
  }
  if (analysis.programPending)
    m_instructions->setText(tr("lowering…"));
  else
    m_instructions->setText(links.isEmpty() ? tr("none (not lowered)")
                                            : links.join(QStringLiteral("<br>")));
  m_route->setText(routeText(document()->topology(), *t));
  m_problems->setText(problemsHtml(problemsOf(analysis, m_id)));
  m_problems->setVisible(!m_problems->text().isEmpty());
  m_sourceNote->setText(document()->source() == Source::Program
                            ? tr("The program is the source now: editing this transfer makes "
                                 "the timeline the source and lowers it again.")
                            : QString());
  m_sourceNote->setVisible(!m_sourceNote->text().isEmpty());
}

void TransferInspector::selectInstruction(const QString& link)
{
  const QStringList parts = link.split(QLatin1Char('/'));
  if (parts.size() != 3)
    return;
  Selection selection;
  selection.transfers.insert(m_id);
  selection.instruction = InstructionRef{parts[0].toInt(), parts[1].toInt(), parts[2].toInt()};
  document()->setSelection(selection);
}

TransfersInspector::TransfersInspector(Document* document, QWidget* parent)
    : InspectorPage(document, parent),
      m_step(makeSpin(QStringLiteral("step"), -1, kMaxStep, tr("mixed"))),
      m_count(makeSpin(QStringLiteral("count"), 0, kMaxChunks, tr("mixed"))),
      m_op(makeCombo(QStringLiteral("op"))), m_list(makeNote(QStringLiteral("transferList"))),
      m_problems(makeNote(QStringLiteral("problems")))
{
  fillOps(m_op);
  m_op->setPlaceholderText(tr("mixed"));
  m_problems->setForegroundRole(QPalette::WindowText);
  form()->addRow(tr("Step"), m_step);
  form()->addRow(tr("Chunks"), m_count);
  form()->addRow(tr("Operation"), m_op);
  form()->addRow(tr("Transfers"), m_list);
  form()->addRow(m_problems);

  connect(m_step, &QSpinBox::valueChanged, this, [this](int step) {
    if (!updating() && step >= 0)
      pushAll([](Transfer& t, int value) { t.step = value; }, step, tr("Change step"));
  });
  connect(m_count, &QSpinBox::valueChanged, this, [this](int count) {
    if (!updating() && count >= 1)
      pushAll([](Transfer& t, int value) { t.count = value; }, count, tr("Change chunk count"));
  });
  connect(m_op, &QComboBox::activated, this, [this] {
    if (!updating() && m_op->currentIndex() >= 0)
      pushAll([](Transfer& t, int value) { t.op = static_cast<TransferOp>(value); },
              m_op->currentData().toInt(), tr("Change operation"));
  });
}

std::vector<Transfer> TransfersInspector::selected() const
{
  std::vector<Transfer> found;
  if (const std::optional<Schedule>& shown = document()->shownSchedule())
    for (int id : m_ids)
      if (const Transfer* t = shown->transfer(id))
        found.push_back(*t);
  return found;
}

void TransfersInspector::pushAll(void (*change)(Transfer&, int), int value, const QString& text)
{
  std::vector<Transfer> transfers = selected();
  bool differs = false;
  for (Transfer& t : transfers) {
    const Transfer before = t;
    change(t, value);
    differs = differs || !(before == t);
  }
  if (differs)
    document()->undoStack()->push(new ChangeTransfersCommand(document(), transfers, text));
}

QString TransfersInspector::heading() const
{
  return countText(static_cast<long long>(selected().size()), tr("transfer"), tr("transfers"));
}

void TransfersInspector::refresh()
{
  const std::vector<Transfer> transfers = selected();
  setEnabled(!transfers.empty());
  if (transfers.empty())
    return;
  auto common = [&](auto field) -> std::optional<int> {
    const int first = field(transfers.front());
    for (const Transfer& t : transfers)
      if (field(t) != first)
        return std::nullopt;
    return first;
  };
  const std::optional<int> step = common([](const Transfer& t) { return t.step; });
  const std::optional<int> count = common([](const Transfer& t) { return t.count; });
  const std::optional<int> op = common([](const Transfer& t) { return static_cast<int>(t.op); });
  fillEditors([&] {
    m_step->setValue(step.value_or(-1));
    m_count->setValue(count.value_or(0));
    m_op->setCurrentIndex(op.value_or(-1));
  });

  QStringList ids;
  std::vector<const Problem*> problems;
  const Analysis& analysis = document()->analysis();
  for (const Transfer& t : transfers) {
    ids << QStringLiteral("#%1").arg(t.id);
    for (const Problem* p : problemsOf(analysis, t.id))
      problems.push_back(p);
  }
  constexpr int kShownIds = 24;
  if (ids.size() > kShownIds) {
    const auto hidden = ids.size() - kShownIds;
    ids = ids.mid(0, kShownIds);
    ids << tr("and %1 more").arg(hidden);
  }
  m_list->setText(ids.join(QStringLiteral(", ")));
  m_problems->setText(problemsHtml(problems));
  m_problems->setVisible(!problems.empty());
}

} // namespace cs::editor
