// Schedule checks (engine/check/schedulecheck.h): each broken variant of a correct ring
// all-reduce gives its own schedule.* code, names the transfer and, for wrong results, the chunk,
// what it holds and what it should hold.

#include "catalogue/catalogue.h"
#include "check/schedulecheck.h"
#include "check/schedulestates.h"
#include "support/corpus.h"

#include <QTest>

using namespace cs;

namespace {

constexpr int kRanks = 4;

Schedule ring(const char* key = "ring-allreduce", int ranks = kRanks)
{
  GeneratorOptions options;
  options.ranks = ranks;
  return *generateAlgorithm(key, options).schedule;
}

/// The transfer of `step` that leaves `rank`.
Transfer* find(Schedule& s, int step, int rank)
{
  for (Transfer& t : s.transfers) {
    if (t.step == step && t.src.rank == rank && !t.isLocal())
      return &t;
  }
  return nullptr;
}

/// Diagnostics with `code`, exactly.
std::vector<std::size_t> withCode(const ScheduleCheckResult& r, const char* code)
{
  std::vector<std::size_t> found;
  for (std::size_t i = 0; i < r.diagnostics.size(); ++i) {
    if (r.diagnostics[i].code == code)
      found.push_back(i);
  }
  return found;
}

QString text(const ScheduleCheckResult& r)
{
  return test::describeDiagnostics(r.diagnostics);
}

} // namespace

class Test_schedulecheck : public QObject
{
  Q_OBJECT

private slots:
  void correctRingIsClean();
  void droppedTransferNamesTheChunk();
  void duplicatedReduceCountsTwice();
  void twoWritesInOneStep();
  void readWhileWritten();
  void uninitialisedScratch();
  void indexOutOfRange();
  void structuralCodes();
  void rootAndCustom();
  void inPlaceAliasingPerMode();
  void reduceScatterInPlaceAliasing();
  void recordsStatesOnlyWhenAsked();
};

void Test_schedulecheck::correctRingIsClean()
{
  const ScheduleCheckResult r = checkSchedule(ring());
  QVERIFY2(r.diagnostics.empty(), qPrintable(text(r)));
  QVERIFY(!r.hasErrors());
}

void Test_schedulecheck::droppedTransferNamesTheChunk()
{
  Schedule s = ring();
  // Last all-gather step (2n-3): position p forwards chunk p-(n-2) = p+2; rank 0 sends chunk 2
  // to rank 1, which then keeps its partial sum of chunk 2 (from the reduce-scatter).
  Transfer* last = find(s, 2 * kRanks - 3, 0);
  QVERIFY(last);
  QCOMPARE(last->src.index, 2);
  const int dropped = last->id;
  s.transfers.erase(s.transfers.begin() + (last - s.transfers.data()));
  const ScheduleCheckResult r = checkSchedule(s);
  const auto found = withCode(r, "schedule.postcondition");
  QCOMPARE(found.size(), std::size_t{1});
  QCOMPARE(r.diagnostics.size(), std::size_t{1});
  const Diagnostic& d = r.diagnostics[found[0]];
  const QString message = QString::fromStdString(d.message);
  QVERIFY2(message.contains("rank 1 o[2] (memory i[2])"), qPrintable(message));
  QVERIFY2(message.contains("should hold \u03a3{r0\u00b7c2 \u2026 r3\u00b7c2}"),
           qPrintable(message));
  QVERIFY2(message.contains("1 of 16 result chunks are wrong"), qPrintable(message));
  QCOMPARE(d.location.rank, 1);
  QVERIFY(r.diagnostics[found[0]].location.transfer != dropped);
}

void Test_schedulecheck::duplicatedReduceCountsTwice()
{
  Schedule s = ring();
  // Reduce-scatter step 0: rank 0 adds its chunk 3 into rank 1's chunk 3. Doing it again in an
  // extra step after the end adds r0·c3 a second time to rank 1's finished chunk 3.
  Transfer extra = *find(s, 0, 0);
  QCOMPARE(extra.op, TransferOp::Reduce);
  QCOMPARE(extra.dst.index, 3);
  extra.step = s.stepCount();
  const int id = s.add(extra);
  const ScheduleCheckResult r = checkSchedule(s);
  const auto found = withCode(r, "schedule.postcondition");
  QCOMPARE(found.size(), std::size_t{1});
  const QString message = QString::fromStdString(r.diagnostics[found[0]].message);
  QVERIFY2(message.contains("rank 1 o[3]"), qPrintable(message));
  // Rank 0's chunk 3 holds the full sum by then: every contribution arrives a second time.
  QVERIFY2(message.contains("r0\u00b7c3 2 times"), qPrintable(message));
  QCOMPARE(r.diagnostics[found[0]].location.transfer, id);
  QCOMPARE(r.diagnostics[found[0]].location.step, extra.step);
  QVERIFY2(message.contains("transfer #" + QString::number(id)), qPrintable(message));
}

void Test_schedulecheck::twoWritesInOneStep()
{
  Schedule s = ring();
  // Step 0: rank 0 reduces into rank 1's chunk 3; rank 2 now copies into the same chunk.
  Transfer clash;
  clash.step = 0;
  clash.src = {2, Buffer::Input, 3};
  clash.dst = {1, Buffer::Input, 3};
  const int id = s.add(clash);
  const ScheduleCheckResult r = checkSchedule(s);
  const auto found = withCode(r, "schedule.write-conflict");
  QCOMPARE(found.size(), std::size_t{1});
  const Diagnostic& d = r.diagnostics[found[0]];
  QVERIFY2(QString::fromStdString(d.message).contains("rank 1 i[3]"), d.message.c_str());
  QCOMPARE(d.location.rank, 1);
  QCOMPARE(d.location.step, 0);
  const int other = find(s, 0, 0)->id;
  QVERIFY(r.diagnostics[found[0]].location.transfer == id ||
          r.diagnostics[found[0]].location.transfer == other);
}

void Test_schedulecheck::readWhileWritten()
{
  Schedule s = ring();
  // Step 0 writes rank 1's chunk 3 (from rank 0); reading it in the same step is a race.
  Transfer reader;
  reader.step = 0;
  reader.src = {1, Buffer::Input, 3};
  reader.dst = {2, Buffer::Scratch, 0};
  for (RankBuffers& b : s.buffers)
    b.scratch = 1;
  const int id = s.add(reader);
  const ScheduleCheckResult r = checkSchedule(s);
  const auto found = withCode(r, "schedule.race");
  QCOMPARE(found.size(), std::size_t{1});
  QCOMPARE(r.diagnostics.size(), std::size_t{1});
  QCOMPARE(r.diagnostics[found[0]].location.transfer, id);
  QVERIFY2(QString::fromStdString(r.diagnostics[found[0]].message)
               .contains("transfer #" + QString::number(id) + " reads rank 1 i[3] in step 0"),
           r.diagnostics[found[0]].message.c_str());
}

void Test_schedulecheck::uninitialisedScratch()
{
  Schedule s = ring();
  for (RankBuffers& b : s.buffers)
    b.scratch = 2;
  Transfer t;
  t.step = 1;
  t.src = {3, Buffer::Scratch, 1};
  t.dst = {0, Buffer::Scratch, 0};
  const int id = s.add(t);
  const ScheduleCheckResult r = checkSchedule(s);
  const auto found = withCode(r, "schedule.uninitialised");
  QCOMPARE(found.size(), std::size_t{1});
  QCOMPARE(r.diagnostics.size(), std::size_t{1});
  QCOMPARE(r.diagnostics[found[0]].location.transfer, id);
  QCOMPARE(r.diagnostics[found[0]].location.rank, 3);
  QVERIFY(QString::fromStdString(r.diagnostics[found[0]].message).contains("rank 3 s[1]"));
}

void Test_schedulecheck::indexOutOfRange()
{
  Schedule s = ring();
  Transfer* t = find(s, 1, 2);
  t->dst.index = kRanks; // one past the input's n chunks
  const int id = t->id;
  const ScheduleCheckResult r = checkSchedule(s);
  const auto found = withCode(r, "schedule.index");
  QCOMPARE(found.size(), std::size_t{1});
  QCOMPARE(r.diagnostics[found[0]].location.transfer, id);
  QVERIFY2(QString::fromStdString(r.diagnostics[found[0]].message).contains("has 4 chunks"),
           r.diagnostics[found[0]].message.c_str());
  // The dropped transfer also leaves a wrong result.
  QCOMPARE(withCode(r, "schedule.postcondition").size(), std::size_t{1});
}

void Test_schedulecheck::structuralCodes()
{
  Schedule s = ring();
  s.transfers[1].id = s.transfers[0].id;
  s.transfers[2].src.rank = kRanks;
  s.transfers[3].count = 0;
  s.transfers[4].step = -1;
  const ScheduleCheckResult r = checkSchedule(s);
  for (const char* code :
       {"schedule.duplicate-id", "schedule.rank", "schedule.count", "schedule.step"})
    QVERIFY2(withCode(r, code).size() == 1, qPrintable(code + QString("\n") + text(r)));
  QCOMPARE(r.diagnostics[withCode(r, "schedule.rank")[0]].location.transfer, s.transfers[2].id);

  Schedule empty;
  empty.ranks = 2;
  const ScheduleCheckResult shape = checkSchedule(empty);
  QCOMPARE(withCode(shape, "schedule.shape").size(), std::size_t{1});
}

void Test_schedulecheck::rootAndCustom()
{
  Schedule b = ring("binomial-broadcast");
  QVERIFY(checkSchedule(b).diagnostics.empty());
  b.root.reset();
  QCOMPARE(withCode(checkSchedule(b), "schedule.root").size(), std::size_t{1});
  b.root = 1; // the data flows out of rank 0: every other rank ends with r0·c0
  const ScheduleCheckResult wrongRoot = checkSchedule(b);
  const auto found = withCode(wrongRoot, "schedule.postcondition");
  QCOMPARE(found.size(), std::size_t{1});
  QVERIFY2(QString::fromStdString(wrongRoot.diagnostics[found[0]].message)
               .contains("rank 0 o[0] (memory i[0]) holds r0\u00b7c0"),
           wrongRoot.diagnostics[found[0]].message.c_str());

  Schedule custom = ring();
  custom.collective = Collective::Custom;
  const ScheduleCheckResult r = checkSchedule(custom);
  QCOMPARE(r.diagnostics.size(), std::size_t{1});
  QCOMPARE(r.diagnostics[0].code, std::string("schedule.postcondition.unknown"));
  QCOMPARE(r.diagnostics[0].severity, Severity::Warning);
}

void Test_schedulecheck::inPlaceAliasingPerMode()
{
  // Ring all-gather declares both modes. Without rank 2's local copy of its own block, in place
  // still works (i[0] is o[2] there) but out of place o[2] stays empty.
  Schedule s = ring("ring-allgather");
  QVERIFY(s.inplace && s.outofplace);
  const auto local = std::find_if(s.transfers.begin(), s.transfers.end(),
                                  [](const Transfer& t) { return t.isLocal() && t.src.rank == 2; });
  QVERIFY(local != s.transfers.end());
  s.transfers.erase(local);
  const ScheduleCheckResult r = checkSchedule(s);
  QCOMPARE(r.diagnostics.size(), std::size_t{1});
  const QString message = QString::fromStdString(r.diagnostics[0].message);
  QVERIFY2(message.startsWith("out-of-place: "), qPrintable(message));
  QVERIFY2(message.contains("rank 2 o[2] is uninitialised but should hold r2\u00b7c0"),
           qPrintable(message));
  QCOMPARE(r.diagnostics[0].location.transfer, -1);

  // Claiming in place for an all-to-all that uses i and o independently breaks it.
  Schedule a2a = ring("direct-alltoall");
  a2a.inplace = true;
  const ScheduleCheckResult aliased = checkSchedule(a2a);
  QVERIFY(!withCode(aliased, "schedule.race").empty());
  for (const std::size_t i : withCode(aliased, "schedule.race"))
    QVERIFY(aliased.diagnostics[i].message.starts_with("in-place: "));
}

void Test_schedulecheck::reduceScatterInPlaceAliasing()
{
  // In place, rank r's o[0] is i[r]: the final local copy is a copy onto itself and the
  // result chunk must be found in the input.
  Schedule s = ring("ring-reducescatter");
  s.outofplace = false;
  s.transfers.erase(std::remove_if(s.transfers.begin(), s.transfers.end(),
                                   [](const Transfer& t) { return t.isLocal(); }),
                    s.transfers.end());
  QVERIFY2(checkSchedule(s).diagnostics.empty(), qPrintable(text(checkSchedule(s))));
  s.inplace = false;
  s.outofplace = true;
  const ScheduleCheckResult r = checkSchedule(s);
  QCOMPARE(withCode(r, "schedule.postcondition").size(), std::size_t{1});
  QVERIFY(r.diagnostics[0].message.find("rank 0 o[0] is uninitialised") != std::string::npos);
}

void Test_schedulecheck::recordsStatesOnlyWhenAsked()
{
  const Schedule schedule = ring();
  QVERIFY(!checkSchedule(schedule).states);
  const ScheduleCheckResult checked = checkSchedule(schedule, {.recordStates = true});
  QVERIFY(checked.diagnostics.empty());
  QVERIFY(checked.states);
  const ScheduleStates& states = *checked.states;
  QCOMPARE(states.columns, schedule.stepCount() + 1);
  QCOMPARE(states.computedColumns, states.columns);
  QCOMPARE(states.ranks, schedule.ranks);
  // Before step 0 rank 1's input chunk 0 holds its own contribution; after the last step the sum
  // of every rank's, each once.
  const std::size_t slot = states.slot({1, Buffer::Input, 0});
  QCOMPARE(formatValue(states.store, states.tokens, states.value(slot, 0)), std::string("r1·c0"));
  const auto last = states.store.entries(states.value(slot, states.columns - 1));
  QCOMPARE(static_cast<int>(last.size()), schedule.ranks);
  for (const TokenCount& entry : last)
    QCOMPARE(entry.count, 1u);
  // The same values as executing the Schedule alone.
  const ScheduleStates alone = executeSchedule(schedule);
  QCOMPARE(alone.values, states.values);
  QCOMPARE(alone.storedOf, states.storedOf);

  Schedule shapeless = schedule;
  shapeless.buffers.pop_back();
  QVERIFY(!checkSchedule(shapeless, {.recordStates = true}).states);
}

QTEST_GUILESS_MAIN(Test_schedulecheck)
#include "tst_schedulecheck.moc"
