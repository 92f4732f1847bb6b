// Every problem points somewhere (issue 17 item 2): for each problem the catalogue's algorithms
// and the broken variants of tests/support/mutate.h produce (Schedule edits, Program edits, a
// topology that does not fit), activating its row in the Problems dock selects an item that
// exists — a transfer, an instruction, a timeline cell, GPUs or a link — and the Where column
// says which.
// A wrong result selects its first wrong cell; a fault repeated on several ranks is one row that
// says how many.

#include "document/document.h"
#include "panels/problemsmodel.h"
#include "panels/problemspanel.h"
#include "panels/problemtargets.h"

#include "catalogue/catalogue.h"
#include "model/topologypresets.h"
#include "support/mutate.h"

#include <QSet>
#include <QTest>
#include <QTreeView>

using namespace cs;
using namespace cs::editor;

namespace {

/// Problems about the algorithm as a whole: nothing narrower to point at.
bool aboutTheWholeAlgorithm(const std::string& code)
{
  return code == "topology.none" || code == "schedule.postcondition.unknown" ||
         codeInCategory(code, "check");
}

DocumentState catalogueState(const std::string& key, int ranks, const std::string& preset)
{
  DocumentState state;
  state.design.schedule = *generateAlgorithm(key, {.ranks = ranks}).schedule;
  if (!preset.empty())
    state.design.topology = makePresetTopology(preset);
  return state;
}

/// Whether every item `selection` names exists in `document`.
bool selectionExists(const Document& document, const Selection& selection)
{
  const std::optional<Schedule>& shown = document.shownSchedule();
  for (const int id : selection.transfers)
    if (!shown || !shown->transfer(id))
      return false;
  for (const int id : selection.nodes)
    if (!document.topology() || !document.topology()->node(id))
      return false;
  for (const int id : selection.links)
    if (!document.topology() || !document.topology()->link(id))
      return false;
  if (selection.instruction) {
    const std::optional<Program>& program = document.shownProgram();
    const ThreadBlock* tb =
        program ? program->threadblock(selection.instruction->rank, selection.instruction->tb)
                : nullptr;
    if (!tb || selection.instruction->step >= static_cast<int>(tb->steps.size()))
      return false;
  }
  if (selection.cell)
    return document.analysis().states &&
           document.analysis().states->rowOf(selection.cell->slot) >= 0;
  return true;
}

} // namespace

class TestProblemNavigation : public QObject
{
  Q_OBJECT

private slots:
  void everyProblemPointsSomewhere_data();
  void everyProblemPointsSomewhere();
  void wrongResultSelectsItsFirstWrongCell();
  void aLinkProblemSelectsTheLink();
  void codesCovered();

private:
  QSet<QString> m_codes; ///< every code navigated to, for codesCovered
};

void TestProblemNavigation::everyProblemPointsSomewhere_data()
{
  QTest::addColumn<QString>("variant");
  const QStringList keys = {"ring-allreduce",  "ring-allgather",     "ring-reducescatter",
                            "direct-alltoall", "binomial-broadcast", "binomial-reduce"};
  for (const QString& key : keys) {
    QStringList variants = {"as generated",     "no topology",           "transfer removed",
                            "transfer doubled", "too small topology",    "idle GPUs",
                            "unlinked ranks",   "link without bandwidth"};
    // Program edits need a threadblock with two instructions: the rings have them.
    if (key.startsWith("ring-"))
      variants << "steps swapped"
               << "step erased";
    for (const QString& variant : variants)
      QTest::newRow(qPrintable(key + ": " + variant)) << key + "|" + variant;
  }
}

void TestProblemNavigation::everyProblemPointsSomewhere()
{
  QFETCH(QString, variant);
  const std::string key = variant.section('|', 0, 0).toStdString();
  const QString how = variant.section('|', 1);
  DocumentState state = catalogueState(key, 4, "ring-4");
  Schedule& schedule = state.design.schedule;
  if (how == "no topology")
    state.design.topology.reset();
  if (how == "transfer removed")
    schedule.transfers.erase(schedule.transfers.begin());
  if (how == "transfer doubled")
    schedule.add(schedule.transfers.front());
  if (how == "too small topology")
    state.design.topology = makePresetTopology("ring-2");
  if (how == "idle GPUs")
    state.design.topology = makePresetTopology("ring-8");
  if (how == "unlinked ranks")
    state.design.topology->links.resize(1);
  if (how == "link without bandwidth")
    state.design.topology->links[2].bandwidthGBps = 0; // GPU2 - GPU3
  if (how == "steps swapped" || how == "step erased") {
    const Analysis lowered = analyseSchedule(schedule, state.lowering);
    QVERIFY(lowered.program);
    Program program = *lowered.program;
    // The first threadblock with two steps (a broadcast's root may have one per peer).
    int rank = -1;
    int tb = -1;
    for (const Gpu& gpu : program.gpus)
      for (const ThreadBlock& block : gpu.threadblocks)
        if (rank < 0 && block.steps.size() >= 2) {
          rank = gpu.id;
          tb = block.id;
        }
    QVERIFY(rank >= 0);
    if (how == "steps swapped")
      test::swapSteps(program, rank, tb, 0, 1);
    else
      test::eraseStep(program, rank, tb, 0);
    state.program = std::move(program);
  }

  Document document;
  document.reset(std::move(state), {});
  document.waitForAnalysis();
  ProblemsPanel panel(&document);
  const ProblemsModel* model = panel.model();
  QCOMPARE(model->listedProblemCount(), static_cast<int>(document.analysis().problems.size()));
  for (int row = 0; row < panel.problemCount(); ++row) {
    const QModelIndex top = model->index(row, 0);
    std::vector<QModelIndex> rows{top};
    for (int child = 0; child < model->rowCount(top); ++child)
      if (model->memberOf(model->index(child, 0, top)) >= 0)
        rows.push_back(model->index(child, 0, top));
    for (const QModelIndex& index : rows) {
      const Problem problem = *model->problemAt(index);
      const std::string& code = problem.diagnostic.code;
      m_codes.insert(QString::fromStdString(code));
      const ProblemTarget target = problemTarget(problem, document);
      const QString where = index.siblingAtColumn(ProblemsModel::WhereColumn).data().toString();
      QVERIFY2(!where.isEmpty(), code.c_str());
      if (!aboutTheWholeAlgorithm(code) && !codeInCategory(code, "topology"))
        QVERIFY2(!target.selection.empty(),
                 qPrintable(QString::fromStdString(code) + ": " +
                            QString::fromStdString(problem.diagnostic.message)));
      if (codeInCategory(code, "topology"))
        QVERIFY2(target.view != ProblemTarget::View::Document || !target.selection.empty(),
                 code.c_str());
      QVERIFY2(selectionExists(document, target.selection), code.c_str());

      // A double click (here: activation of the same row) selects exactly the target.
      document.setSelection({});
      panel.treeView()->setCurrentIndex(index);
      emit panel.treeView()->activated(index);
      QVERIFY2(document.selection() == target.selection, code.c_str());
    }
  }
}

void TestProblemNavigation::wrongResultSelectsItsFirstWrongCell()
{
  // The guide's first picture: a ring all-reduce missing a transfer. The result is wrong on
  // several ranks; the row says which, and activating it selects the first wrong result cell.
  DocumentState state = catalogueState("ring-allreduce", 4, "ring-4");
  state.design.schedule.transfers.erase(state.design.schedule.transfers.begin());
  Document document;
  document.reset(std::move(state), {});
  ProblemsPanel panel(&document);
  int row = -1;
  for (int r = 0; r < panel.problemCount() && row < 0; ++r)
    if (panel.model()->index(r, ProblemsModel::CodeColumn).data().toString() ==
        "schedule.postcondition")
      row = r;
  QVERIFY(row >= 0);
  const ChunkStates& states = *document.analysis().states;
  std::set<int> wrongRanks;
  const ChunkRow* firstWrong = nullptr;
  for (const ChunkRow& chunk : states.rows()) {
    if (chunk.result && !chunk.resultCorrect) {
      wrongRanks.insert(chunk.ref.rank);
      firstWrong = firstWrong ? firstWrong : &chunk;
    }
  }
  QVERIFY(firstWrong);
  QVERIFY(wrongRanks.size() > 1);
  const QString message = panel.model()->index(row, ProblemsModel::MessageColumn).data().toString();
  QVERIFY2(message.startsWith(ranksText({wrongRanks.begin(), wrongRanks.end()}) + ": "),
           qPrintable(message));
  const QString where = panel.model()->index(row, ProblemsModel::WhereColumn).data().toString();
  QVERIFY2(where.startsWith(QStringLiteral("rank %1 ").arg(firstWrong->ref.rank)),
           qPrintable(where));

  QVERIFY(panel.activateRow(row));
  const std::optional<CellRef> cell = document.selection().cell;
  QVERIFY(cell.has_value());
  QCOMPARE(cell->slot, firstWrong->ref);
  QCOMPARE(cell->column, states.columnCount() - 1);
}

void TestProblemNavigation::aLinkProblemSelectsTheLink()
{
  // A route through a link without bandwidth is fixed at the link: the row names it and a double
  // click selects it on the topology; its child row is the transfer that needs the link.
  DocumentState state = catalogueState("ring-allreduce", 4, "ring-4");
  TopologyLink& zero = state.design.topology->links[2];
  zero.bandwidthGBps = 0;
  const int linkId = zero.id;
  const QString ends = QString::fromStdString(state.design.topology->node(zero.a)->name) +
                       QChar(0x2013) +
                       QString::fromStdString(state.design.topology->node(zero.b)->name);
  Document document;
  document.reset(std::move(state), {});
  document.waitForAnalysis();
  ProblemsPanel panel(&document);
  const ProblemsModel* model = panel.model();
  int row = -1;
  for (int r = 0; r < panel.problemCount() && row < 0; ++r)
    if (model->index(r, ProblemsModel::CodeColumn).data().toString() == "topology.zero-bandwidth")
      row = r;
  QVERIFY(row >= 0);
  QCOMPARE(model->index(row, ProblemsModel::WhereColumn).data().toString(),
           QStringLiteral("link ") + ends);
  const Problem problem = *model->problemAt(model->index(row, 0));
  QCOMPARE(problem.diagnostic.location.link, linkId);
  QCOMPARE(problemTarget(problem, document).view, ProblemTarget::View::Topology);

  QVERIFY(panel.activateRow(row));
  QCOMPARE(document.selection().links, std::set<int>{linkId});
  QVERIFY(document.selection().transfers.empty());

  const QModelIndex transferRow = model->index(0, 0, model->index(row, 0));
  QVERIFY(transferRow.isValid());
  panel.treeView()->setCurrentIndex(transferRow);
  emit panel.treeView()->activated(transferRow);
  QCOMPARE(document.selection().transfers, std::set<int>{problem.transferId});
  QVERIFY(document.selection().links.empty());
}

void TestProblemNavigation::codesCovered()
{
  // The variants above reach the checks they are meant to; a code that stops appearing means a
  // variant no longer exercises its navigation.
  for (const QString code :
       {"schedule.postcondition", "schedule.write-conflict", "schedule.uninitialised",
        "postcondition", "deadlock", "topology.none", "topology.no-route", "topology.idle-gpus",
        "topology.rank-unmapped", "topology.zero-bandwidth"})
    QVERIFY2(m_codes.contains(code), qPrintable(QStringList(m_codes.values()).join(", ")));
  qInfo("%lld codes navigated: %s", static_cast<long long>(m_codes.size()),
        qPrintable(QStringList(m_codes.values()).join(", ")));
}

QTEST_MAIN(TestProblemNavigation)
#include "tst_problemnavigation.moc"
