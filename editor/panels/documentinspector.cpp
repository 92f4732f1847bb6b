#include "documentinspector.h"

#include "gpuchoice.h"

#include "style/textformat.h"

#include "document/commands/statecommands.h"
#include "document/document.h"
#include "style/rankpalette.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>

namespace cs::editor {

namespace {

constexpr int kMaxRanks = 1024;
// Offsets are int16 in the runtimes, so a buffer never needs more chunks than this.
constexpr int kMaxChunks = 32768;
constexpr Collective kCollectives[] = {
    Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter, Collective::AllToAll,
    Collective::Broadcast, Collective::Reduce,    Collective::Gather,        Collective::Scatter,
    Collective::AllToAllV, Collective::Send,      Collective::Recv,          Collective::Custom,
};

bool uniform(const Schedule& schedule)
{
  for (const RankBuffers& buffers : schedule.buffers)
    if (!(buffers == schedule.buffers.front()))
      return false;
  return true;
}

/// Transfers that touch a rank the Schedule no longer has.
int outsideRanks(const Schedule& schedule)
{
  int outside = 0;
  for (const Transfer& t : schedule.transfers)
    if (t.src.rank >= schedule.ranks || t.dst.rank >= schedule.ranks)
      ++outside;
  return outside;
}

} // namespace

bool DocumentInspector::hasRoot(Collective collective)
{
  return collective == Collective::Broadcast || collective == Collective::Reduce ||
         collective == Collective::Gather || collective == Collective::Scatter;
}

DocumentInspector::DocumentInspector(Document* document, QWidget* parent)
    : InspectorPage(document, parent), m_name(new QLineEdit(this)),
      m_collective(makeCombo(QStringLiteral("collective"))),
      m_ranks(makeSpin(QStringLiteral("ranks"), 1, kMaxRanks)),
      m_input(makeSpin(QStringLiteral("inputChunks"), 0, kMaxChunks)),
      m_output(makeSpin(QStringLiteral("outputChunks"), 0, kMaxChunks)),
      m_scratch(makeSpin(QStringLiteral("scratchChunks"), 0, kMaxChunks)),
      m_buffersNote(makeNote(QStringLiteral("buffersNote"))),
      m_root(makeSpin(QStringLiteral("root"), 0, kMaxRanks - 1)),
      m_inPlace(makeCheck(QStringLiteral("inPlace"), tr("in place"))),
      m_outOfPlace(makeCheck(QStringLiteral("outOfPlace"), tr("out of place"))),
      m_gpu(makeCombo(QStringLiteral("gpu"))), m_summary(makeNote(QStringLiteral("summary"))),
      m_rangeNote(makeNote(QStringLiteral("rangeNote"))), m_notes(new QPlainTextEdit(this))
{
  m_name->setObjectName(QStringLiteral("name"));
  m_notes->setObjectName(QStringLiteral("notes"));
  m_notes->setPlaceholderText(tr("What this algorithm is for, where it came from…"));
  m_notes->setTabChangesFocus(true);
  m_notes->setMinimumHeight(4 * fontMetrics().height());
  for (Collective collective : kCollectives)
    m_collective->addItem(QString::fromUtf8(collectiveTitle(collective)),
                          static_cast<int>(collective));
  m_root->setPrefix(tr("rank "));
  m_ranks->setToolTip(tr("Number of ranks (GPUs) the algorithm runs on"));
  m_rangeNote->setForegroundRole(QPalette::WindowText);
  fillGpuCombo(m_gpu);

  auto* modes = new QHBoxLayout;
  modes->addWidget(m_inPlace);
  modes->addWidget(m_outOfPlace);
  modes->addStretch();

  form()->addRow(m_summary);
  form()->addRow(tr("Name"), m_name);
  form()->addRow(tr("Collective"), m_collective);
  form()->addRow(tr("Ranks"), m_ranks);
  form()->addRow(m_rangeNote);
  form()->addRow(tr("Input chunks"), m_input);
  form()->addRow(tr("Output chunks"), m_output);
  form()->addRow(tr("Scratch chunks"), m_scratch);
  form()->addRow(m_buffersNote);
  form()->addRow(tr("Root"), m_root);
  form()->addRow(tr("Calls"), modes);
  form()->addRow(tr("GPU"), m_gpu);
  form()->addRow(tr("Notes"), m_notes);

  connect(m_name, &QLineEdit::editingFinished, this, [this] {
    const std::string name = m_name->text().trimmed().toStdString();
    push(tr("Rename algorithm"), [name](Schedule& s) { s.name = name; });
  });
  connect(m_collective, &QComboBox::activated, this, [this] {
    const auto collective = static_cast<Collective>(m_collective->currentData().toInt());
    push(tr("Change collective"), [collective](Schedule& s) {
      s.collective = collective;
      if (!hasRoot(collective))
        s.root.reset();
      else if (!s.root)
        s.root = 0;
    });
  });
  connect(m_ranks, &QSpinBox::valueChanged, this, [this](int ranks) {
    push(tr("Change rank count"), [ranks](Schedule& s) {
      const RankBuffers perRank = s.buffers.empty() ? RankBuffers{} : s.buffers.back();
      s.ranks = ranks;
      s.buffers.resize(static_cast<std::size_t>(ranks), perRank);
      if (s.root && *s.root >= ranks)
        s.root = ranks - 1;
    });
  });
  connect(m_input, &QSpinBox::valueChanged, this,
          [this](int chunks) { setBufferChunks(Buffer::Input, chunks); });
  connect(m_output, &QSpinBox::valueChanged, this,
          [this](int chunks) { setBufferChunks(Buffer::Output, chunks); });
  connect(m_scratch, &QSpinBox::valueChanged, this,
          [this](int chunks) { setBufferChunks(Buffer::Scratch, chunks); });
  connect(m_root, &QSpinBox::valueChanged, this,
          [this](int root) { push(tr("Change root"), [root](Schedule& s) { s.root = root; }); });
  connect(m_inPlace, &QCheckBox::toggled, this, [this](bool on) {
    push(tr("Change call modes"), [on](Schedule& s) { s.inplace = on; });
  });
  connect(m_outOfPlace, &QCheckBox::toggled, this, [this](bool on) {
    push(tr("Change call modes"), [on](Schedule& s) { s.outofplace = on; });
  });
  connect(m_gpu, &QComboBox::activated, this, &DocumentInspector::chooseGpu);
  connect(m_notes, &QPlainTextEdit::textChanged, this, [this] {
    if (updating())
      return;
    std::string notes = m_notes->toPlainText().toStdString();
    if (notes != this->document()->state().design.notes)
      this->document()->undoStack()->push(
          new ChangeNotesCommand(this->document(), std::move(notes)));
  });
}

void DocumentInspector::push(const QString& text, const std::function<void(Schedule&)>& change)
{
  const std::optional<Schedule>& shown = document()->shownSchedule();
  if (updating() || !shown)
    return;
  Schedule schedule = *shown;
  change(schedule);
  if (schedule == *shown)
    return;
  document()->undoStack()->push(new ReplaceScheduleCommand(document(), std::move(schedule), text));
}

void DocumentInspector::setBufferChunks(Buffer buffer, int chunks)
{
  const QString text = buffer == Buffer::Input    ? tr("Change input chunks")
                       : buffer == Buffer::Output ? tr("Change output chunks")
                                                  : tr("Change scratch chunks");
  push(text, [buffer, chunks](Schedule& s) {
    for (RankBuffers& perRank : s.buffers)
      (buffer == Buffer::Input    ? perRank.input
       : buffer == Buffer::Output ? perRank.output
                                  : perRank.scratch) = chunks;
  });
}

void DocumentInspector::chooseGpu()
{
  if (QUndoCommand* command = makeChooseGpuCommand(document(), gpuChoice(m_gpu)))
    document()->undoStack()->push(command);
}

void DocumentInspector::showGpu()
{
  fillEditors([&] {
    updateGpuToolTips(m_gpu, document()->lowering().dialect);
    showGpuChoice(m_gpu, document()->lowering().gpu);
  });
}

QString DocumentInspector::heading() const
{
  return document()->displayName();
}

void DocumentInspector::refresh()
{
  const std::optional<Schedule>& shown = document()->shownSchedule();
  const Analysis& analysis = document()->analysis();
  for (QWidget* shape :
       std::initializer_list<QWidget*>{m_name, m_collective, m_ranks, m_input, m_output, m_scratch,
                                       m_root, m_inPlace, m_outOfPlace})
    shape->setEnabled(shown.has_value());
  showGpu();

  QString verdict;
  if (analysis.errors > 0)
    verdict = QStringLiteral("<span style=\"color:%1\">%2</span>")
                  .arg(errorColor().name(), countText(analysis.errors, tr("error"), tr("errors")));
  else if (analysis.correct())
    verdict =
        QStringLiteral("<span style=\"color:%1\">✔ %2</span>").arg(okColor().name(), tr("correct"));
  const QString source = document()->source() == Source::Schedule
                             ? tr("drawn on the timeline")
                             : tr("the program (imported or edited)");
  if (!shown) {
    m_summary->setText(tr("Source: %1 · %2<br>The program cannot be lifted onto the timeline, so "
                          "its shape cannot be edited here.")
                           .arg(source, verdict));
    fillEditors([&] {
      if (!m_notes->hasFocus() &&
          m_notes->toPlainText().toStdString() != document()->state().design.notes)
        m_notes->setPlainText(QString::fromStdString(document()->state().design.notes));
    });
    return;
  }
  const Schedule& s = *shown;
  m_summary->setText(QStringLiteral("%1 · %2 · %3<br>%4")
                         .arg(tr("Source: %1").arg(source),
                              countText(static_cast<long long>(s.transfers.size()), tr("transfer"),
                                        tr("transfers")),
                              countText(s.stepCount(), tr("step"), tr("steps")), verdict));

  fillEditors([&] {
    if (!m_name->hasFocus())
      m_name->setText(QString::fromStdString(s.name));
    m_collective->setCurrentIndex(m_collective->findData(static_cast<int>(s.collective)));
    showValue(m_ranks, s.ranks, 1, kMaxRanks);
    const RankBuffers first = s.buffers.empty() ? RankBuffers{} : s.buffers.front();
    showValue(m_input, first.input, 0, kMaxChunks);
    showValue(m_output, first.output, 0, kMaxChunks);
    showValue(m_scratch, first.scratch, 0, kMaxChunks);
    form()->setRowVisible(m_root, hasRoot(s.collective));
    showValue(m_root, s.root.value_or(0), 0, std::max(0, s.ranks - 1));
    m_inPlace->setChecked(s.inplace);
    m_outOfPlace->setChecked(s.outofplace);
    const std::string& notes = document()->state().design.notes;
    if (m_notes->toPlainText().toStdString() != notes)
      m_notes->setPlainText(QString::fromStdString(notes));
  });

  const bool sameEverywhere = s.buffers.empty() || uniform(s);
  m_buffersNote->setText(sameEverywhere
                             ? tr("Chunks per rank; the same on every rank.")
                             : tr("Ranks differ; rank 0 is shown and a change applies to all."));
  const int outside = outsideRanks(s);
  m_rangeNote->setText(outside == 0
                           ? QString()
                           : QStringLiteral("<span style=\"color:%1\">%2</span>")
                                 .arg(warningColor().name(),
                                      tr("%1 on ranks beyond %2 kept; the checker marks them.")
                                          .arg(countText(outside, tr("transfer"), tr("transfers")))
                                          .arg(s.ranks - 1)));
  m_rangeNote->setVisible(outside > 0);
}

} // namespace cs::editor
