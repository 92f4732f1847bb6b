// The timeline's cells: what every chunk slot holds before step 0 and after each step, as the
// Schedule checks execute it, and how that reads ("r2", "Σ01", "Σ all", double counting, mixed
// chunks, uninitialised), including in-place aliasing.

#include "analysis/analysis.h"
#include "analysis/chunkstates.h"

#include "catalogue/catalogue.h"

#include <QTest>

using namespace cs;

namespace {

ChunkRef in(int rank, int index)
{
  return {rank, Buffer::Input, index};
}

ChunkRef out(int rank, int index)
{
  return {rank, Buffer::Output, index};
}

Schedule emptySchedule(Collective collective, int ranks, RankBuffers buffers, bool inplace)
{
  Schedule schedule;
  schedule.collective = collective;
  schedule.ranks = ranks;
  schedule.setUniformBuffers(buffers);
  schedule.inplace = inplace;
  schedule.outofplace = !inplace;
  return schedule;
}

void add(Schedule& schedule, int step, ChunkRef src, ChunkRef dst, TransferOp op)
{
  Transfer t;
  t.step = step;
  t.src = src;
  t.dst = dst;
  t.op = op;
  schedule.add(t);
}

/// The labels of rank r's input chunks 0..n-1 in `column`, joined by '|'.
QString inputLabels(const ChunkStates& states, int rank, int chunks, int column)
{
  QStringList labels;
  for (int k = 0; k < chunks; ++k)
    labels << QString::fromStdString(states.label(states.rowOf(in(rank, k)), column));
  return labels.join('|');
}

} // namespace

class TestChunkStates : public QObject
{
  Q_OBJECT

private slots:
  void ringAllReduceLabelsAfterEachStep_data();
  void ringAllReduceLabelsAfterEachStep();
  void ringAllReduceEndsCompleteEverywhere();
  void doubleCountingIsWrong();
  void mixedChunksAreWrong();
  void outputStartsUninitialisedAndReduceIntoItStaysSo();
  void otherChunkIsNamed();
  void longRankListsAreCounted();
  void inPlaceAllGatherSharesInputWithOutput();
  void malformedTransfersAreSkipped();
  void emptyStepsShareStorageAndTheBudgetStopsEarly();
  void pipelineReusesTheScheduleChecksExecution_data();
  void pipelineReusesTheScheduleChecksExecution();
};

void TestChunkStates::ringAllReduceLabelsAfterEachStep_data()
{
  // generateAlgorithm("ring-allreduce", 3 ranks): reduce-scatter in steps 0-1, all-gather in 2-3.
  QTest::addColumn<int>("column");
  QTest::addColumn<QString>("rank0");
  QTest::addColumn<QString>("rank1");
  QTest::addColumn<QString>("rank2");
  QTest::newRow("start") << 0 << "r0|r0|r0"
                         << "r1|r1|r1"
                         << "r2|r2|r2";
  QTest::newRow("after step 0") << 1 << "r0|Σ02|r0"
                                << "r1|r1|Σ01"
                                << "Σ12|r2|r2";
  QTest::newRow("after step 1") << 2 << "Σ all|Σ02|r0"
                                << "r1|Σ all|Σ01"
                                << "Σ12|r2|Σ all";
  QTest::newRow("after step 2") << 3 << "Σ all|Σ02|Σ all"
                                << "Σ all|Σ all|Σ01"
                                << "Σ12|Σ all|Σ all";
  QTest::newRow("after step 3") << 4 << "Σ all|Σ all|Σ all"
                                << "Σ all|Σ all|Σ all"
                                << "Σ all|Σ all|Σ all";
}

void TestChunkStates::ringAllReduceLabelsAfterEachStep()
{
  QFETCH(int, column);
  QFETCH(QString, rank0);
  QFETCH(QString, rank1);
  QFETCH(QString, rank2);
  const GenerateResult generated = generateAlgorithm("ring-allreduce", {.ranks = 3});
  QVERIFY(generated.schedule);
  const ChunkStates states(*generated.schedule);
  QCOMPARE(states.mode(), CallMode::InPlace);
  QCOMPARE(states.stepCount(), 4);
  QCOMPARE(states.columnCount(), 5);
  QCOMPARE(states.rowCount(), 9); // input only: the catalogue's ring declares no output chunks
  QCOMPARE(inputLabels(states, 0, 3, column), rank0);
  QCOMPARE(inputLabels(states, 1, 3, column), rank1);
  QCOMPARE(inputLabels(states, 2, 3, column), rank2);
}

void TestChunkStates::ringAllReduceEndsCompleteEverywhere()
{
  const ChunkStates states(*generateAlgorithm("ring-allreduce", {.ranks = 3}).schedule);
  // Rank 1's i[2] after step 0 is the partial sum of ranks 0 and 1, coloured by both.
  const int row = states.rowOf(in(1, 2));
  QCOMPARE(states.kind(row, 1), CellKind::Partial);
  QCOMPARE(states.summary(states.value(row, 1)).ranks, (std::vector<int>{0, 1}));
  QCOMPARE(states.summary(states.value(row, 1)).chunk, 2);
  QVERIFY(states.changed(row, 1));
  QVERIFY(!states.changed(row, 2));
  QCOMPARE(QString::fromStdString(states.fullText(row, 1)),
           QStringLiteral("Σ{r0·c2, r1·c2}: partial sum of ranks 0, 1 (2 of 3)"));
  for (int r = 0; r < states.rowCount(); ++r) {
    QCOMPARE(states.kind(r, 4), CellKind::Complete);
    QCOMPARE(states.summary(states.value(r, 4)).ranks, (std::vector<int>{0, 1, 2}));
    // In place, o[c] is i[c]: every input row is a result row, and each got its sum.
    QVERIFY(states.rows()[static_cast<std::size_t>(r)].result);
    QVERIFY(states.rows()[static_cast<std::size_t>(r)].resultCorrect);
    QCOMPARE(states.goalLabel(r), std::string("Σ all"));
  }
  // o[1] of rank 2 has no row of its own but shares memory with i[1].
  QCOMPARE(states.rowOf(out(2, 1)), states.rowOf(in(2, 1)));
}

void TestChunkStates::doubleCountingIsWrong()
{
  Schedule schedule = emptySchedule(Collective::AllReduce, 3, {2, 0, 0}, true);
  add(schedule, 0, in(0, 0), in(1, 0), TransferOp::Reduce);
  add(schedule, 1, in(0, 0), in(1, 0), TransferOp::Reduce);
  const ChunkStates states(schedule);
  const int row = states.rowOf(in(1, 0));
  QCOMPARE(states.label(row, 1), std::string("Σ01"));
  QCOMPARE(states.label(row, 2), std::string("Σ01×2!"));
  QCOMPARE(states.kind(row, 2), CellKind::Wrong);
  QCOMPARE(states.summary(states.value(row, 2)).maxCount, 2u);
  QCOMPARE(QString::fromStdString(states.fullText(row, 2)),
           QStringLiteral("Σ{r0·c0, r0·c0, r1·c0}: wrong, double counted (r0·c0 2 times)"));
  QVERIFY(!states.rows()[static_cast<std::size_t>(row)].resultCorrect);
  QCOMPARE(states.goalLabel(row), std::string("Σ all"));
}

void TestChunkStates::mixedChunksAreWrong()
{
  Schedule schedule = emptySchedule(Collective::AllReduce, 2, {2, 0, 0}, true);
  add(schedule, 0, in(0, 1), in(1, 0), TransferOp::Reduce);
  const ChunkStates states(schedule);
  const int row = states.rowOf(in(1, 0));
  QCOMPARE(states.label(row, 1), std::string("Σ01·mix!"));
  QCOMPARE(states.kind(row, 1), CellKind::Wrong);
  QCOMPARE(states.summary(states.value(row, 1)).chunk, -1);
}

void TestChunkStates::outputStartsUninitialisedAndReduceIntoItStaysSo()
{
  Schedule schedule = emptySchedule(Collective::AllReduce, 2, {1, 1, 0}, false);
  add(schedule, 0, in(0, 0), out(1, 0), TransferOp::Copy);
  add(schedule, 0, in(1, 0), out(0, 0), TransferOp::Reduce);
  const ChunkStates states(schedule);
  QCOMPARE(states.mode(), CallMode::OutOfPlace);
  QCOMPARE(states.rowCount(), 4);
  const int copied = states.rowOf(out(1, 0));
  const int reduced = states.rowOf(out(0, 0));
  QVERIFY(copied != states.rowOf(in(1, 0))); // out of place: separate memory
  QCOMPARE(states.rows()[static_cast<std::size_t>(copied)].sharesWith, -1);
  QCOMPARE(states.label(copied, 0), std::string());
  QCOMPARE(states.kind(copied, 0), CellKind::Uninitialised);
  QCOMPARE(states.fullText(copied, 0),
           std::string("uninitialised: nothing has been written here yet"));
  QCOMPARE(states.label(copied, 1), std::string("r0"));
  QCOMPARE(states.kind(copied, 1), CellKind::Single);
  // A reduce into garbage is garbage, as the checker says (schedule.uninitialised).
  QCOMPARE(states.kind(reduced, 1), CellKind::Uninitialised);
  QCOMPARE(states.label(reduced, 1), std::string());
}

void TestChunkStates::otherChunkIsNamed()
{
  Schedule schedule = emptySchedule(Collective::AllReduce, 2, {2, 0, 0}, true);
  add(schedule, 0, in(0, 1), in(1, 0), TransferOp::Copy);
  const ChunkStates states(schedule);
  QCOMPARE(states.label(states.rowOf(in(1, 0)), 1), std::string("r0·c1"));
  QCOMPARE(states.label(states.rowOf(in(1, 1)), 1), std::string("r1"));
}

void TestChunkStates::longRankListsAreCounted()
{
  Schedule schedule = emptySchedule(Collective::AllReduce, 16, {1, 0, 0}, true);
  int step = 0;
  for (const int rank : {1, 2, 3})
    add(schedule, step++, in(rank, 0), in(0, 0), TransferOp::Reduce);
  const int stepsToRange = step;
  add(schedule, step++, in(10, 0), in(0, 0), TransferOp::Reduce);
  add(schedule, step++, in(12, 0), in(0, 0), TransferOp::Reduce);
  const ChunkStates states(schedule);
  const int row = states.rowOf(in(0, 0));
  QCOMPARE(states.label(row, 1), std::string("Σ01"));
  QCOMPARE(states.label(row, 2), std::string("Σ0-2"));
  QCOMPARE(states.label(row, stepsToRange), std::string("Σ0-3"));
  QCOMPARE(states.label(row, stepsToRange + 1), std::string("Σ0-3,10"));
  QCOMPARE(states.label(row, stepsToRange + 2), std::string("Σ6/16"));
}

void TestChunkStates::inPlaceAllGatherSharesInputWithOutput()
{
  const GenerateResult generated = generateAlgorithm("ring-allgather", {.ranks = 3});
  QVERIFY(generated.schedule);
  const ChunkStates states(*generated.schedule);
  QCOMPARE(states.mode(), CallMode::InPlace);
  const int last = states.columnCount() - 1;
  // In place, rank 1's i[0] is its o[1]: one memory, one value in both rows.
  QCOMPARE(states.rows()[static_cast<std::size_t>(states.rowOf(in(1, 0)))].memory,
           states.rows()[static_cast<std::size_t>(states.rowOf(out(1, 1)))].memory);
  QCOMPARE(states.label(states.rowOf(out(1, 1)), 0), std::string("r1"));
  QCOMPARE(states.rows()[static_cast<std::size_t>(states.rowOf(in(1, 0)))].sharesWith,
           states.rowOf(out(1, 1)));
  QCOMPARE(states.rows()[static_cast<std::size_t>(states.rowOf(out(1, 1)))].sharesWith,
           states.rowOf(in(1, 0)));
  QCOMPARE(states.rows()[static_cast<std::size_t>(states.rowOf(out(1, 0)))].sharesWith, -1);
  for (int r = 0; r < 3; ++r) {
    for (int k = 0; k < 3; ++k) {
      const int row = states.rowOf(out(r, k));
      QCOMPARE(states.label(row, last), "r" + std::to_string(k));
      QVERIFY(states.rows()[static_cast<std::size_t>(row)].resultCorrect);
    }
  }
  // Before anything moved, rank 0's o[2] holds nothing yet.
  QCOMPARE(states.kind(states.rowOf(out(0, 2)), 0), CellKind::Uninitialised);
}

void TestChunkStates::malformedTransfersAreSkipped()
{
  Schedule schedule = emptySchedule(Collective::AllReduce, 2, {2, 0, 0}, true);
  add(schedule, 0, in(0, 0), in(5, 0), TransferOp::Copy); // no rank 5
  add(schedule, 1, in(0, 7), in(1, 0), TransferOp::Copy); // no chunk 7
  add(schedule, 1, in(0, 1), in(1, 1), TransferOp::Reduce);
  const ChunkStates states(schedule);
  QCOMPARE(states.stepCount(), 2);
  QCOMPARE(states.rowOf(in(5, 0)), -1);
  QCOMPARE(states.label(states.rowOf(in(1, 0)), 2), std::string("r1"));
  QCOMPARE(states.label(states.rowOf(in(1, 1)), 2), std::string("Σ all"));
}

void TestChunkStates::emptyStepsShareStorageAndTheBudgetStopsEarly()
{
  Schedule schedule = emptySchedule(Collective::AllReduce, 2, {2, 0, 0}, true);
  add(schedule, 0, in(0, 0), in(1, 0), TransferOp::Reduce);
  add(schedule, 100000, in(1, 1), in(0, 1), TransferOp::Reduce); // a stray far-away step
  const ChunkStates states(schedule);
  QCOMPARE(states.columnCount(), 100002);
  QVERIFY(states.computed(100001));
  const int row = states.rowOf(in(1, 0));
  QCOMPARE(states.label(row, 1), std::string("Σ all"));
  QCOMPARE(states.label(row, 50000), std::string("Σ all"));
  QCOMPARE(states.label(states.rowOf(in(0, 1)), 100000), std::string("r0"));
  QCOMPARE(states.label(states.rowOf(in(0, 1)), 100001), std::string("Σ all"));

  // A budget of three stored columns (4 slots each): the start and steps 0 and 1 only.
  Schedule busy = emptySchedule(Collective::AllReduce, 2, {2, 0, 0}, true);
  for (int step = 0; step < 4; ++step)
    add(busy, step, in(step % 2, 0), in(1 - step % 2, 0), TransferOp::Copy);
  const ChunkStates limited(busy, 12);
  QCOMPARE(limited.columnCount(), 5);
  QVERIFY(limited.computed(2));
  QVERIFY(!limited.computed(3));
  QCOMPARE(limited.kind(limited.rowOf(in(1, 0)), 3), CellKind::Uninitialised);
  QCOMPARE(limited.label(limited.rowOf(in(1, 0)), 1), std::string("r0"));
  QVERIFY(!limited.rows()[0].result); // unknown after the last step: no verdict
}

void TestChunkStates::pipelineReusesTheScheduleChecksExecution_data()
{
  QTest::addColumn<Schedule>("schedule");
  for (const auto& [key, ranks] :
       std::vector<std::pair<const char*, int>>{{"ring-allreduce", 4},
                                                {"ring-allgather", 5},
                                                {"ring-reducescatter", 4},
                                                {"halving-doubling-allreduce", 8},
                                                {"binomial-reduce", 6},
                                                {"bruck-alltoall", 6},
                                                {"hierarchical-ring-allreduce", 8}})
    QTest::newRow(key) << *generateAlgorithm(key, {.ranks = ranks}).schedule;
  // Both call modes declared (the shown one is in place) and a wrong, double-counting step.
  Schedule both = *generateAlgorithm("ring-allreduce", {.ranks = 3}).schedule;
  both.outofplace = true;
  Transfer again = both.transfers.front();
  again.id = 1000;
  both.add(again);
  QTest::newRow("both modes, double counted") << both;
}

void TestChunkStates::pipelineReusesTheScheduleChecksExecution()
{
  // The pipeline's cells come from the Schedule check's own execution; they must read exactly
  // as an execution of the Schedule on its own.
  QFETCH(Schedule, schedule);
  const Analysis analysis = analyseSchedule(schedule, {});
  QVERIFY(analysis.states);
  const ChunkStates& recorded = *analysis.states;
  const ChunkStates alone(schedule);
  QCOMPARE(recorded.rowCount(), alone.rowCount());
  QCOMPARE(recorded.columnCount(), alone.columnCount());
  QCOMPARE(recorded.mode(), alone.mode());
  for (int row = 0; row < alone.rowCount(); ++row) {
    const ChunkRow& a = recorded.rows()[static_cast<std::size_t>(row)];
    const ChunkRow& b = alone.rows()[static_cast<std::size_t>(row)];
    QCOMPARE(a.result, b.result);
    QCOMPARE(a.resultCorrect, b.resultCorrect);
    QCOMPARE(a.sharesWith, b.sharesWith);
    QCOMPARE(recorded.goalLabel(row), alone.goalLabel(row));
    for (int column = 0; column < alone.columnCount(); ++column) {
      QCOMPARE(recorded.label(row, column), alone.label(row, column));
      QCOMPARE(recorded.fullText(row, column), alone.fullText(row, column));
      QCOMPARE(recorded.kind(row, column), alone.kind(row, column));
    }
  }
}

QTEST_GUILESS_MAIN(TestChunkStates)
#include "tst_chunkstates.moc"
