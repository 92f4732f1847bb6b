// The narration (engine/teach/narration.h) is exact: for every catalogue algorithm at 4, 8 and 16
// ranks, every lifted corpus file and a hand-drawn irregular Schedule, each step's sentences
// cover that step's transfers exactly once; each sentence, read back through its grammar
// (narrationclaims.h), claims exactly the (src, dst, count, op) of the transfers it covers and
// contents the chunk states confirm; the completion sentence appears at the step where the
// postcondition (checked by the Schedule checks on the Schedule cut after that step) first holds,
// and nowhere else; every other goal sentence states the counts the chunk states of the Schedule
// cut after its step give.

#include "narrationclaims.h"

#include "support/corpus.h"

#include "catalogue/catalogue.h"
#include "check/schedulecheck.h"
#include "check/schedulegeometry.h"
#include "compile/lift.h"
#include "model/collectivespec.h"
#include "teach/narration.h"

#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <map>

using namespace cs;

namespace {

std::vector<int> chunkHolders(const Schedule& schedule)
{
  std::vector<int> holders;
  for (const RankBuffers& buffers : schedule.buffers) {
    holders.resize(std::max(holders.size(), static_cast<std::size_t>(buffers.input)), 0);
    for (int k = 0; k < buffers.input; ++k)
      ++holders[static_cast<std::size_t>(k)];
  }
  return holders;
}

/// The first step after which the postcondition holds in the narrated call mode, judged by the
/// Schedule checks on the Schedule cut after that step; -1 when it never does.
int firstCompleteStep(const Schedule& schedule)
{
  // Without input chunks (an in-place file declaring i_chunks="0") the postcondition is vacuous:
  // the narration claims no completion.
  if (!hasPostcondition(schedule.collective) || scheduleGeometry(schedule).whole == 0)
    return -1;
  Schedule cut = schedule;
  cut.outofplace = !schedule.inplace; // the mode the narration follows, alone
  for (int step = 0; step < schedule.stepCount(); ++step) {
    cut.transfers.clear();
    for (const Transfer& t : schedule.transfers)
      if (t.step <= step)
        cut.transfers.push_back(t);
    const ScheduleCheckResult checked = checkSchedule(cut);
    const bool failing =
        std::any_of(checked.diagnostics.begin(), checked.diagnostics.end(), [](const auto& d) {
          return d.code == "schedule.postcondition" && d.severity == Severity::Error;
        });
    if (!failing)
      return step;
  }
  return -1;
}

/// Where the result stands after `step`, judged by the chunk states of the Schedule cut after
/// that step (their last column's result judgement, which compares whole multisets).
struct Standing {
  int right = 0;
  int total = 0;
  int doneRanks = 0;
  int leastRightOnARank = -1;
};

Standing standingAfter(const Schedule& schedule, int step)
{
  Schedule cut = schedule;
  std::erase_if(cut.transfers, [step](const Transfer& t) { return t.step > step; });
  const ChunkStates states(cut);
  std::map<std::uint32_t, std::pair<int, bool>> results; // memory -> (rank, right)
  for (const ChunkRow& row : states.rows())
    if (row.result)
      results[row.memory] = {row.ref.rank, row.resultCorrect};
  std::map<int, std::pair<int, int>> perRank; // rank -> (right, total)
  Standing standing;
  for (const auto& [memory, result] : results) {
    ++standing.total;
    standing.right += result.second ? 1 : 0;
    perRank[result.first].first += result.second ? 1 : 0;
    ++perRank[result.first].second;
  }
  for (const auto& [rank, counts] : perRank) {
    standing.doneRanks += counts.first == counts.second ? 1 : 0;
    if (standing.leastRightOnARank < 0 || counts.first < standing.leastRightOnARank)
      standing.leastRightOnARank = counts.first;
  }
  return standing;
}

/// A goal sentence of `step` states the standing of the result after it.
void checkGoalSentence(const Schedule& schedule, int step, const std::string& text)
{
  static const QRegularExpression progress(QStringLiteral(
      "^After step (\\d+), (\\d+) of the (\\d+) result chunks hold their final value, and (\\d+) "
      "of the (\\d+) ranks hold their whole result\\.$"));
  static const QRegularExpression broadcast(
      QStringLiteral("^After step (\\d+), (\\d+) of (\\d+) ranks hold the root's data\\.$"));
  static const QRegularExpression half(QStringLiteral(
      "^After step (\\d+) every rank holds (\\d+) fully reduced chunks?: the reduce-scatter half "
      "is done\\.$"));
  const QString sentence = QString::fromStdString(text);
  const Standing now = standingAfter(schedule, step);
  if (sentence.endsWith(" is complete."))
    return; // checked against the Schedule checks in checkNarration()
  if (const QRegularExpressionMatch m = progress.match(sentence); m.hasMatch()) {
    QCOMPARE(m.captured(1).toInt(), step);
    QCOMPARE(m.captured(2).toInt(), now.right);
    QCOMPARE(m.captured(3).toInt(), now.total);
    QCOMPARE(m.captured(4).toInt(), now.doneRanks);
    QCOMPARE(m.captured(5).toInt(), schedule.ranks);
  } else if (const QRegularExpressionMatch b = broadcast.match(sentence); b.hasMatch()) {
    QCOMPARE(b.captured(1).toInt(), step);
    QCOMPARE(b.captured(2).toInt(), now.doneRanks);
    QCOMPARE(b.captured(3).toInt(), schedule.ranks);
  } else if (const QRegularExpressionMatch h = half.match(sentence); h.hasMatch()) {
    // Every rank holds its share fully reduced now, and did not after the step before.
    const int share = h.captured(2).toInt();
    QCOMPARE(share * schedule.ranks, now.total / schedule.ranks);
    QVERIFY(now.leastRightOnARank >= share);
    QVERIFY(step == 0 || standingAfter(schedule, step - 1).leastRightOnARank < share);
  } else {
    QFAIL(qPrintable("not a goal sentence: " + sentence));
  }
}

/// Each sentence of `step` covers its own transfers and says exactly what they do.
void checkStep(const Schedule& schedule, const NarrationStep& step, const ChunkStates& states,
               const std::vector<int>& holders)
{
  std::vector<int> expected;
  for (const Transfer& t : schedule.transfers)
    if (t.step == step.step)
      expected.push_back(t.id);
  std::vector<int> covered;
  for (const NarrationSentence& sentence : step.sentences) {
    if (sentence.transfers.empty())
      continue;
    covered.insert(covered.end(), sentence.transfers.begin(), sentence.transfers.end());
    QString why;
    const std::optional<test::SentenceClaims> claims =
        test::parseSentence(QString::fromStdString(sentence.text), schedule.ranks, why);
    QVERIFY2(claims, qPrintable(why));
    std::vector<test::ClaimedTransfer> actual;
    for (const int id : sentence.transfers)
      actual.push_back(test::claimOf(*schedule.transfer(id)));
    std::vector<test::ClaimedTransfer> claimed = claims->transfers;
    std::sort(actual.begin(), actual.end());
    std::sort(claimed.begin(), claimed.end());
    QVERIFY2(claimed == actual, sentence.text.c_str());
    QVERIFY2(test::contentHolds(*claims, states, step.step, holders, why),
             qPrintable(why + " in: " + QString::fromStdString(sentence.text)));
  }
  std::sort(expected.begin(), expected.end());
  std::sort(covered.begin(), covered.end());
  QCOMPARE(covered, expected);
}

/// The whole narration of `schedule` is exact.
void checkNarration(const Schedule& schedule)
{
  const Narration narration = narrateSchedule(schedule);
  QVERIFY(!narration.goal.empty());
  QCOMPARE(static_cast<int>(narration.steps.size()), schedule.stepCount());
  const ChunkStates states(schedule);
  const std::vector<int> holders = chunkHolders(schedule);
  std::vector<int> completedAt;
  for (const NarrationStep& step : narration.steps) {
    checkStep(schedule, step, states, holders);
    if (QTest::currentTestFailed())
      return;
    for (const NarrationSentence& sentence : step.sentences) {
      if (!sentence.transfers.empty())
        continue;
      if (sentence.text.ends_with(" is complete."))
        completedAt.push_back(step.step);
      checkGoalSentence(schedule, step.step, sentence.text);
      if (QTest::currentTestFailed())
        return;
    }
  }
  const int first = firstCompleteStep(schedule);
  QCOMPARE(completedAt, first < 0 ? std::vector<int>{} : std::vector<int>{first});
}

/// An irregular 5-rank all-gather drawn by hand: local and remote copies, a two-chunk relay, a
/// reduce that double counts, a step that is left empty, and no rank-affine pattern.
Schedule handDrawn()
{
  Schedule s;
  s.name = "hand_drawn";
  s.collective = Collective::AllGather;
  s.ranks = 5;
  s.setUniformBuffers({1, 5, 2});
  s.inplace = false;
  s.outofplace = true;
  const auto add = [&s](int step, ChunkRef src, ChunkRef dst, int count, TransferOp op) {
    s.add({0, step, src, dst, count, op, {}});
  };
  using B = Buffer;
  add(0, {0, B::Input, 0}, {0, B::Output, 0}, 1, TransferOp::Copy);
  add(0, {0, B::Input, 0}, {3, B::Output, 0}, 1, TransferOp::Copy);
  add(0, {2, B::Input, 0}, {4, B::Output, 2}, 1, TransferOp::Copy);
  add(0, {4, B::Input, 0}, {1, B::Scratch, 1}, 1, TransferOp::Copy);
  add(1, {3, B::Output, 0}, {1, B::Output, 0}, 1, TransferOp::Copy);
  add(1, {1, B::Scratch, 0}, {2, B::Scratch, 0}, 2, TransferOp::Copy);
  add(3, {2, B::Input, 0}, {2, B::Scratch, 1}, 1, TransferOp::Reduce);
  add(3, {2, B::Scratch, 1}, {0, B::Output, 4}, 1, TransferOp::Copy);
  return s;
}

} // namespace

class TestNarration : public QObject
{
  Q_OBJECT

private slots:
  void formulas_data();
  void formulas();
  void catalogue_data();
  void catalogue();
  void corpus_data();
  void corpus();
  void handDrawnSchedule();
  void goalOfRingAllReduce();
};

void TestNarration::formulas_data()
{
  QTest::addColumn<QString>("text");
  QTest::addColumn<int>("r");
  QTest::addColumn<int>("value");
  QTest::newRow("shift") << "r+1" << 3 << 4;
  QTest::newRow("wrap") << "(r+1) mod 4" << 3 << 0;
  QTest::newRow("negative wrap") << "(r-2) mod 4" << 1 << 3;
  QTest::newRow("mirror") << "3-r" << 1 << 2;
  QTest::newRow("xor") << "r XOR 2" << 3 << 1;
  QTest::newRow("block") << "8 + (r+1) mod 8" << 7 << 8;
  QTest::newRow("block xor") << "8 + (r XOR 1)" << 6 << 15;
}

void TestNarration::formulas()
{
  QFETCH(QString, text);
  QFETCH(int, r);
  QFETCH(int, value);
  QCOMPARE(test::evaluateFormula(text, r), std::optional<int>(value));
}

void TestNarration::catalogue_data()
{
  QTest::addColumn<QString>("key");
  QTest::addColumn<int>("ranks");
  for (const AlgorithmInfo& info : algorithmCatalog())
    for (const int ranks : {4, 8, 16}) {
      GeneratorOptions options;
      options.ranks = ranks;
      if (!info.unsupported(options))
        QTest::addRow("%s-%d", std::string(info.key).c_str(), ranks)
            << QString::fromUtf8(info.key.data(), static_cast<qsizetype>(info.key.size())) << ranks;
    }
}

void TestNarration::catalogue()
{
  QFETCH(QString, key);
  QFETCH(int, ranks);
  GeneratorOptions options;
  options.ranks = ranks;
  const GenerateResult generated = generateAlgorithm(key.toStdString(), options);
  QVERIFY(generated.schedule);
  checkNarration(*generated.schedule);
}

void TestNarration::corpus_data()
{
  QTest::addColumn<QString>("path");
  CS_REQUIRE_CORPUS();
  for (const QString& path : test::corpusFiles())
    QTest::newRow(qPrintable(path.section('/', -1))) << path;
}

void TestNarration::corpus()
{
  QFETCH(QString, path);
  const Program program = test::loadProgram(path);
  if (QTest::currentTestFailed())
    return;
  const LiftResult lifted = liftProgram(program);
  if (!lifted.schedule)
    QSKIP("not liftable (the lifting tests say why)");
  checkNarration(*lifted.schedule);
}

void TestNarration::handDrawnSchedule()
{
  const Schedule schedule = handDrawn();
  checkNarration(schedule);
  const Narration narration = narrateSchedule(schedule);
  QCOMPARE(narration.steps.size(), std::size_t{4});
  QVERIFY(narration.steps[2].sentences.empty()); // the empty step says nothing
  // Irregular: one sentence per transfer of step 0, each naming its ranks and slots, then the
  // progress: o[0] of ranks 0 and 3 and o[2] of rank 4 now hold what the all-gather wants there.
  QCOMPARE(narration.steps[0].sentences.size(), std::size_t{5});
  QCOMPARE(narration.steps[0].sentences[4].text,
           std::string("After step 0, 3 of the 25 result chunks hold their final value, and 0 "
                       "of the 5 ranks hold their whole result."));
  QCOMPARE(narration.steps[0].sentences[2].text,
           std::string("rank 2 sends i[0], holding its own input i[0], to rank 4, which stores it "
                       "in its o[2]."));
  QCOMPARE(
      narration.steps[1].sentences[0].text,
      std::string("rank 1 sends s[0..1], each holding contents that differ from chunk to chunk, "
                  "to rank 2, which stores it in its s[0..1]."));
}

void TestNarration::goalOfRingAllReduce()
{
  GeneratorOptions options;
  options.ranks = 4;
  const Narration narration =
      narrateSchedule(*generateAlgorithm("ring-allreduce", options).schedule);
  // Derived from the chunk states: after n-1 = 3 steps (step 2) every rank holds its reduced
  // share; after 2(n-1) steps (step 5) the result.
  const auto last = [&](int step) { return narration.steps[step].sentences.back().text; };
  QCOMPARE(last(2),
           std::string("After step 2 every rank holds 1 fully reduced chunk: the reduce-scatter "
                       "half is done."));
  QCOMPARE(last(5), std::string("After step 5 every rank holds the whole result: the all-reduce is "
                                "complete."));
  QCOMPARE(narration.steps[1].sentences.size(), std::size_t{1}); // no progress yet: no goal line
}

QTEST_GUILESS_MAIN(TestNarration)
#include "tst_narration.moc"
