// Predict rounds (engine/teach/predict.h): the cells of a step are the chunks its transfers
// write, the right content is among the options exactly once, and scoring marks answers and adds
// rounds up over a run-through.

#include "analysis/chunkstates.h"
#include "catalogue/catalogue.h"
#include "teach/predict.h"

#include <QTest>

#include <algorithm>
#include <set>

using namespace cs;

namespace {

Schedule generated(const char* key, int ranks)
{
  GeneratorOptions options;
  options.ranks = ranks;
  GenerateResult result = generateAlgorithm(key, options);
  if (!result.schedule)
    qFatal("the catalogue cannot generate %s", key);
  return std::move(*result.schedule);
}

/// Right answers for every cell of `round`.
std::vector<PredictAnswer> rightAnswers(const PredictRound& round)
{
  std::vector<PredictAnswer> answers;
  for (const PredictCell& cell : round.cells)
    answers.push_back({cell.row, cell.answer});
  return answers;
}

} // namespace

class TestPredict : public QObject
{
  Q_OBJECT

private slots:
  void cellsAreTheChunksTheStepWrites_data()
  {
    QTest::addColumn<QString>("key");
    QTest::addColumn<int>("ranks");
    QTest::addRow("ring 4") << "ring-allreduce" << 4;
    QTest::addRow("ring 8") << "ring-allreduce" << 8;
    QTest::addRow("halving-doubling 8") << "halving-doubling-allreduce" << 8;
    QTest::addRow("all-to-all 4") << "direct-alltoall" << 4;
  }

  void cellsAreTheChunksTheStepWrites()
  {
    QFETCH(QString, key);
    QFETCH(int, ranks);
    const Schedule schedule = generated(qPrintable(key), ranks);
    const ChunkStates states(schedule);
    for (int step = 0; step < schedule.stepCount(); ++step) {
      // The memory the step's transfers write, from the Schedule itself.
      std::set<std::uint32_t> written;
      for (const Transfer& transfer : schedule.transfers) {
        if (transfer.step != step)
          continue;
        for (int k = 0; k < transfer.count; ++k) {
          ChunkRef ref = transfer.dst;
          ref.index += k;
          written.insert(states.rows()[static_cast<std::size_t>(states.rowOf(ref))].memory);
        }
      }
      const PredictRound round = predictRound(states, step);
      QCOMPARE(round.step, step);
      std::set<std::uint32_t> asked;
      for (const PredictCell& cell : round.cells) {
        asked.insert(states.rows()[static_cast<std::size_t>(cell.row)].memory);
        QCOMPARE(std::count(cell.options.begin(), cell.options.end(), cell.answer), 1);
        QCOMPARE(std::set<std::string>(cell.options.begin(), cell.options.end()).size(),
                 cell.options.size());
        QVERIFY(cell.options.size() >= 2);
        QVERIFY(cell.answer != cell.before);
        QCOMPARE(cell.answer, cellContent(states, cell.row, step + 1));
      }
      QCOMPARE(asked.size(), round.cells.size());
      QVERIFY(asked == written);
    }
  }

  void contentsNameTheContributions()
  {
    // Step 0 of the ring all-reduce: rank r reduces its neighbour's copy of a chunk into its
    // own, so the cell holds exactly those two contributions.
    const Schedule schedule = generated("ring-allreduce", 4);
    const ChunkStates states(schedule);
    const PredictRound round = predictRound(states, 0);
    int checked = 0;
    for (const Transfer& transfer : schedule.transfers) {
      if (transfer.step != 0 || transfer.op != TransferOp::Reduce)
        continue;
      const int row = states.rowOf(transfer.dst);
      const auto cell = std::find_if(round.cells.begin(), round.cells.end(),
                                     [&](const PredictCell& c) { return c.row == row; });
      QVERIFY(cell != round.cells.end());
      const int low = std::min(transfer.src.rank, transfer.dst.rank);
      const int high = std::max(transfer.src.rank, transfer.dst.rank);
      QCOMPARE(cell->answer, "chunk " + std::to_string(transfer.dst.index) + " from ranks " +
                                 std::to_string(low) + ", " + std::to_string(high));
      QCOMPARE(cell->before, "rank " + std::to_string(transfer.dst.rank) + "'s chunk " +
                                 std::to_string(transfer.dst.index));
      ++checked;
    }
    QCOMPARE(checked, 4);
  }

  void scoringMarksAndAccumulates()
  {
    const Schedule schedule = generated("ring-allreduce", 4);
    const ChunkStates states(schedule);
    PredictRun run;
    int cells = 0;
    for (int step = 0; step < schedule.stepCount(); ++step) {
      const PredictRound round = predictRound(states, step);
      std::vector<PredictAnswer> answers = rightAnswers(round);
      if (step == 1) {
        // One wrong choice: marked wrong, the right content shown beside it.
        const PredictCell& cell = round.cells.front();
        const auto wrong = std::find_if(cell.options.begin(), cell.options.end(),
                                        [&](const std::string& o) { return o != cell.answer; });
        answers.front().choice = *wrong;
        const RoundResult result = scoreRound(round, answers);
        QCOMPARE(result.right, result.total - 1);
        QVERIFY(!result.cells.front().right);
        QCOMPARE(result.cells.front().given, *wrong);
        QCOMPARE(result.cells.front().answer, cell.answer);
        run.add(result);
      } else {
        const RoundResult result = scoreRound(round, answers);
        QCOMPARE(result.right, static_cast<int>(round.cells.size()));
        QCOMPARE(result.total, static_cast<int>(round.cells.size()));
        run.add(result);
      }
      cells += static_cast<int>(round.cells.size());
      QCOMPARE(run.total(), cells);
    }
    QCOMPARE(run.right(), cells - 1);
    QCOMPARE(run.percent(), (cells - 1) * 100 / cells);

    // Playing step 1 again, right this time, replaces its result; an unanswered round scores 0.
    run.add(scoreRound(predictRound(states, 1), rightAnswers(predictRound(states, 1))));
    QCOMPARE(run.right(), cells);
    const RoundResult unanswered = scoreRound(predictRound(states, 2), {});
    QCOMPARE(unanswered.right, 0);
    QCOMPARE(unanswered.total, static_cast<int>(predictRound(states, 2).cells.size()));
    run.clear();
    QCOMPARE(run.percent(), 0);
  }

  void outOfRangeStepsHaveNoCells()
  {
    const ChunkStates states(generated("ring-allreduce", 4));
    QVERIFY(predictRound(states, -1).cells.empty());
    QVERIFY(predictRound(states, states.stepCount()).cells.empty());
  }
};

QTEST_GUILESS_MAIN(TestPredict)
#include "tst_predict.moc"
