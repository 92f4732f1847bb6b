// The Inspector dock: typing into its editors pushes exactly one undoable command per edit that
// changes exactly the selected item (a transfer's step, several transfers at once, a link's
// bandwidth, a node's name, the document's rank count and notes), repeated changes of one field
// merge, and its spin boxes cannot hold a value the model could not.

#include "document/document.h"
#include "panels/inspectorpage.h"
#include "panels/inspectorpanel.h"

#include "catalogue/catalogue.h"
#include "model/topologypresets.h"

#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QTest>

using namespace cs;
using namespace cs::editor;

namespace {

DocumentState ringState(int ranks)
{
  GenerateResult generated = generateAlgorithm("ring-allreduce", {.ranks = ranks});
  DocumentState state;
  state.design.schedule = *generated.schedule;
  state.design.topology = makePresetTopology("ring-" + std::to_string(ranks));
  return state;
}

/// Types `text` into a spin box as a user does: select all, type, Enter.
void typeInto(QAbstractSpinBox* spin, const QString& text)
{
  spin->setFocus();
  QTest::keyClick(spin, Qt::Key_A, Qt::ControlModifier);
  QTest::keyClicks(spin, text);
  QTest::keyClick(spin, Qt::Key_Return);
}

template <typename T> T* findEditor(const InspectorPanel& panel, const char* name)
{
  return panel.currentPage() ? panel.currentPage()->findChild<T*>(QString::fromLatin1(name))
                             : nullptr;
}

} // namespace

class TestInspector : public QObject
{
  Q_OBJECT

private slots:
  void typingAStepChangesThatTransferInOneCommand();
  void arrowClicksOnOneFieldMerge();
  void rangesFollowTheBuffers();
  void severalTransfersShareOneEdit();
  void linkBandwidthChangesTheTopology();
  void nodeRenameIsUndoable();
  void documentRanksAndNotes();
  void instructionWithoutTransferIsSummarised();
  void aTransferShowsItsRouteAndAMissingOne();
};

void TestInspector::typingAStepChangesThatTransferInOneCommand()
{
  Document document;
  document.reset(ringState(4), {});
  InspectorPanel panel(&document);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  const DocumentState before = document.state();
  const Transfer target = document.schedule().transfers[2];
  document.selectTransfer(target.id);
  QCOMPARE(panel.heading(), QStringLiteral("Transfer #%1").arg(target.id));

  auto* step = findEditor<QSpinBox>(panel, "step");
  QVERIFY(step);
  QCOMPARE(step->value(), target.step);
  const int newStep = target.step + 3;
  typeInto(step, QString::number(newStep));

  QCOMPARE(document.undoStack()->count(), 1);
  Schedule expected = before.design.schedule;
  expected.transfer(target.id)->step = newStep;
  QCOMPARE(document.schedule(), expected);
  QCOMPARE(step->value(), newStep);
  // The new step is a hazard for the checker, and the page lists it under the form.
  QVERIFY(document.analysis().problemsByTransfer.contains(target.id));
  auto* problems = findEditor<QLabel>(panel, "problems");
  QVERIFY(problems->isVisible());
  QVERIFY(!problems->text().isEmpty());

  document.undoStack()->undo();
  QVERIFY(document.state() == before);
  QCOMPARE(step->value(), target.step);
}

void TestInspector::arrowClicksOnOneFieldMerge()
{
  Document document;
  document.reset(ringState(4), {});
  InspectorPanel panel(&document);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  const Transfer target = document.schedule().transfers[0];
  document.selectTransfer(target.id);
  auto* step = findEditor<QSpinBox>(panel, "step");
  step->setFocus();
  QTest::keyClick(step, Qt::Key_Up);
  QTest::keyClick(step, Qt::Key_Up);
  QTest::keyClick(step, Qt::Key_Up);
  QCOMPARE(document.undoStack()->count(), 1);
  QCOMPARE(document.schedule().transfer(target.id)->step, target.step + 3);

  auto* count = findEditor<QSpinBox>(panel, "count");
  typeInto(count, QStringLiteral("2"));
  QCOMPARE(document.undoStack()->count(), 2);
  QCOMPARE(document.schedule().transfer(target.id)->count, 2);
}

void TestInspector::rangesFollowTheBuffers()
{
  Document document;
  document.reset(ringState(4), {});
  InspectorPanel panel(&document);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  const Transfer target = document.schedule().transfers[0];
  document.selectTransfer(target.id);
  const int chunks = document.schedule().buffers[0].chunks(target.dst.buffer);

  auto* index = findEditor<QSpinBox>(panel, "dstIndex");
  QCOMPARE(index->maximum(), chunks - 1);
  auto* rank = findEditor<QSpinBox>(panel, "dstRank");
  QCOMPARE(rank->maximum(), 3);
  // Typing past the end is refused by the spin box: nothing reaches the document.
  typeInto(index, QStringLiteral("99"));
  QCOMPARE(document.undoStack()->count(), 0);
  QCOMPARE(*document.schedule().transfer(target.id), target);

  auto* channel = findEditor<QSpinBox>(panel, "channel");
  QCOMPARE(channel->minimum(), -1);
  QCOMPARE(channel->text(), QStringLiteral("auto"));
  typeInto(channel, QStringLiteral("1"));
  QCOMPARE(document.schedule().transfer(target.id)->pins.channel, std::optional(1));
}

void TestInspector::severalTransfersShareOneEdit()
{
  Document document;
  document.reset(ringState(4), {});
  InspectorPanel panel(&document);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  const DocumentState before = document.state();
  Selection selection;
  std::set<int> ids;
  for (const Transfer& t : document.schedule().transfers)
    if (t.step == 1)
      ids.insert(t.id);
  QCOMPARE(ids.size(), std::size_t{4}); // one per rank in a 4-rank ring
  selection.transfers = ids;
  document.setSelection(selection);
  QCOMPARE(panel.heading(), QStringLiteral("4 transfers"));

  auto* step = findEditor<QSpinBox>(panel, "step");
  QCOMPARE(step->value(), 1);
  typeInto(step, QStringLiteral("9"));
  QCOMPARE(document.undoStack()->count(), 1);
  Schedule expected = before.design.schedule;
  for (int id : ids)
    expected.transfer(id)->step = 9;
  QCOMPARE(document.schedule(), expected);

  // Transfers on different steps show "mixed" until a value is chosen.
  selection.transfers.insert(document.schedule().transfers.front().id);
  document.setSelection(selection);
  QCOMPARE(step->text(), QStringLiteral("mixed"));
}

void TestInspector::linkBandwidthChangesTheTopology()
{
  Document document;
  document.reset(ringState(4), {});
  InspectorPanel panel(&document);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  const DocumentState before = document.state();
  Selection selection;
  selection.links.insert(2);
  document.setSelection(selection);
  QCOMPARE(panel.heading(), QStringLiteral("Link GPU2 ↔ GPU3"));

  auto* bandwidth = findEditor<QDoubleSpinBox>(panel, "bandwidth");
  QVERIFY(bandwidth);
  QCOMPARE(bandwidth->value(), 100.0);
  typeInto(bandwidth, QStringLiteral("123.5"));
  QCOMPARE(document.undoStack()->count(), 1);
  Topology expected = *before.design.topology;
  expected.links[2].bandwidthGBps = 123.5;
  QCOMPARE(*document.topology(), expected);

  // A second value for the same field merges; another field is its own step.
  typeInto(bandwidth, QStringLiteral("150"));
  QCOMPARE(document.undoStack()->count(), 1);
  auto* latency = findEditor<QDoubleSpinBox>(panel, "latency");
  typeInto(latency, QStringLiteral("0.75"));
  QCOMPARE(document.undoStack()->count(), 2);
  QCOMPARE(document.topology()->links[2].latencyUs, 0.75);
  QCOMPARE(document.topology()->links[2].bandwidthGBps, 150.0);

  document.undoStack()->undo();
  document.undoStack()->undo();
  QVERIFY(document.state() == before);
  QCOMPARE(bandwidth->value(), 100.0);
}

void TestInspector::nodeRenameIsUndoable()
{
  Document document;
  document.reset(ringState(4), {});
  InspectorPanel panel(&document);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  Selection selection;
  selection.nodes.insert(1);
  document.setSelection(selection);
  auto* name = findEditor<QLineEdit>(panel, "name");
  QCOMPARE(name->text(), QStringLiteral("GPU1"));
  name->setFocus();
  name->selectAll();
  QTest::keyClicks(name, QStringLiteral("H100-a"));
  QTest::keyClick(name, Qt::Key_Return);
  QCOMPARE(document.undoStack()->count(), 1);
  QCOMPARE(document.topology()->node(1)->name, std::string("H100-a"));
  QCOMPARE(document.topology()->node(1)->rank, 1);
  document.undoStack()->undo();
  QCOMPARE(document.topology()->node(1)->name, std::string("GPU1"));
}

void TestInspector::documentRanksAndNotes()
{
  Document document;
  document.reset(ringState(4), {});
  InspectorPanel panel(&document);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  const DocumentState before = document.state();
  QVERIFY(document.selection().empty());

  auto* ranks = findEditor<QSpinBox>(panel, "ranks");
  QVERIFY(ranks);
  QCOMPARE(ranks->value(), 4);
  typeInto(ranks, QStringLiteral("3"));
  QCOMPARE(document.undoStack()->count(), 1);
  QCOMPARE(document.schedule().ranks, 3);
  QCOMPARE(document.schedule().buffers.size(), std::size_t{3});
  // Transfers on rank 3 are kept (the checker marks them) and the page says how many.
  QCOMPARE(document.schedule().transfers.size(), before.design.schedule.transfers.size());
  QVERIFY(document.analysis().errors > 0);
  auto* note = findEditor<QLabel>(panel, "rangeNote");
  QVERIFY(note->isVisible());
  QVERIFY2(note->text().contains(QStringLiteral("beyond 2")), qPrintable(note->text()));
  QCOMPARE(document.schedule().buffers[2], before.design.schedule.buffers[2]);

  auto* notes = findEditor<QPlainTextEdit>(panel, "notes");
  notes->setFocus();
  QTest::keyClicks(notes, QStringLiteral("ring"));
  QCOMPARE(document.state().design.notes, std::string("ring"));
  QCOMPARE(document.undoStack()->count(), 2); // four keystrokes, one merged command

  document.undoStack()->undo();
  document.undoStack()->undo();
  QVERIFY(document.state() == before);
  QCOMPARE(ranks->value(), 4);
  QCOMPARE(notes->toPlainText(), QString());
}

void TestInspector::instructionWithoutTransferIsSummarised()
{
  Document document;
  DocumentState state;
  state.design.schedule.ranks = 2;
  state.design.schedule.setUniformBuffers({.input = 1, .output = 1});
  Program program;
  program.ngpus = 2;
  for (int r = 0; r < 2; ++r) {
    Gpu gpu;
    gpu.id = r;
    gpu.inputChunks = gpu.outputChunks = 1;
    ThreadBlock tb;
    tb.send = 1 - r;
    tb.recv = 1 - r;
    Step send;
    send.type = OpType::Send;
    send.srcOff = 0;
    send.cnt = 1;
    Step recv;
    recv.s = 1;
    recv.type = OpType::Recv;
    recv.dstOff = 0;
    recv.cnt = 1;
    tb.steps = {send, recv};
    gpu.threadblocks = {tb};
    program.gpus.push_back(gpu);
  }
  state.program = program;
  document.reset(std::move(state), {});
  InspectorPanel panel(&document);
  Selection selection;
  selection.instruction = InstructionRef{1, 0, 1};
  document.setSelection(selection);
  QCOMPARE(panel.heading(), QStringLiteral("Instruction r1 · tb 0 · s 1"));
  auto* what = findEditor<QLabel>(panel, "what");
  QVERIFY(what);
  QVERIFY2(what->text().startsWith(QStringLiteral("r: receives from r0 into o[0]")),
           qPrintable(what->text()));
}

void TestInspector::aTransferShowsItsRouteAndAMissingOne()
{
  // An 8-rank ring on a DGX: every transfer crosses the NVSwitch. Then the same ring on ring-8
  // with one link removed: the transfers over it cannot happen, at the transfer and in the panel.
  DocumentState state = ringState(8);
  state.design.topology = makePresetTopology("dgx-h100");
  Document document;
  document.reset(state, {});
  InspectorPanel panel(&document);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  const auto remote =
      std::find_if(document.schedule().transfers.begin(), document.schedule().transfers.end(),
                   [](const Transfer& t) { return t.src.rank == 2; });
  QVERIFY(remote != document.schedule().transfers.end() && !remote->isLocal());
  const int id = remote->id;
  document.selectTransfer(id);
  auto* route = findEditor<QLabel>(panel, "route");
  QVERIFY(route);
  QVERIFY2(route->text().startsWith(QString::fromUtf8("GPU2 \u2192 NVSwitch \u2192 GPU3")),
           qPrintable(route->text()));
  QCOMPARE(document.analysis().errors, 0);

  state.design.topology = makePresetTopology("ring-8");
  state.design.topology->links.erase(state.design.topology->links.begin() + 2); // GPU2 - GPU3
  document.reset(state, {});
  document.selectTransfer(id);
  QCOMPARE(route->text(), QStringLiteral("no path in the topology"));
  QVERIFY(document.analysis().problemsByTransfer.contains(id));
  auto* problems = findEditor<QLabel>(panel, "problems");
  QVERIFY2(problems->text().contains(QString::fromUtf8("rank 2 \u2192 rank 3: no path")),
           qPrintable(problems->text()));
}

QTEST_MAIN(TestInspector)
#include "tst_inspector.moc"
