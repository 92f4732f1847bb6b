// The semantic pass (checkSemantics): deadlock and race checks by abstract execution, on programs
// built in code (each differs from a correct one by one edit), random programs, and the shared
// corpus, whose MANIFEST states the expected verdicts (postconditions: tst_postconditions).

#include "catalogue/ringallreduce.h"
#include "model/buffergeometry.h"
#include "semanticprograms.h"
#include "support/corpus.h"
#include "support/mutate.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <random>
#include <set>

using namespace cs;

namespace {

using namespace test::semantic;

/// The ring all-reduce rewritten to store results in o (rrcs/rcs/r write o, as the RCCL
/// unit-test XMLs do), declaring both modes: correct in place and out of place.
Program dualModeRing(int ranks, int channels)
{
  Program program = makeRingAllReduce({ranks, channels, Protocol::Simple});
  program.outofplace = true;
  for (Gpu& gpu : program.gpus) {
    gpu.outputChunks = program.nchunksperloop;
    for (ThreadBlock& tb : gpu.threadblocks) {
      for (Step& step : tb.steps) {
        if (opTraits(step.type).writesDst)
          step.dstBuf = Buffer::Output;
      }
    }
  }
  return program;
}

const std::set<std::string> kSemanticCodes = {"deadlock",
                                              "race",
                                              "race.uninitialised",
                                              "race.more",
                                              "postcondition",
                                              "postcondition.root",
                                              "postcondition.unknown",
                                              "check.too-large",
                                              "check.semantic-skipped"};

} // namespace

class Test_semantics : public QObject
{
  Q_OBJECT

private slots:
  void ringPasses_data();
  void ringPasses();
  void ringDeadlocksWithOneSlot_data();
  void ringDeadlocksWithOneSlot();
  void manyCyclesAreCapped();
  void crossingOrderDeadlocks();
  void unpublishedDependencyDeadlocks();
  void missingSenderEndsTheChain();
  void removedDependencyRaces();
  void inPlaceAliasingRacesOnlyInPlace();
  void uninitialisedScratchRead();
  void absurdSizesAreRefused();
  void randomProgramsNeverCrash();
  void corpusVerdicts_data();
  void corpusVerdicts();
};

void Test_semantics::ringPasses_data()
{
  QTest::addColumn<int>("ranks");
  QTest::addColumn<int>("channels");
  for (int ranks : {2, 3, 4, 8}) {
    for (int channels : {1, 2})
      QTest::addRow("%d ranks %d ch", ranks, channels) << ranks << channels;
  }
}

void Test_semantics::ringPasses()
{
  QFETCH(int, ranks);
  QFETCH(int, channels);
  const Diagnostics inPlace = runSemantics(makeRingAllReduce({ranks, channels, Protocol::LL}));
  QVERIFY2(inPlace.empty(), qPrintable(dump(inPlace)));
  const Diagnostics both = runSemantics(dualModeRing(ranks, channels));
  QVERIFY2(both.empty(), qPrintable(dump(both)));
}

void Test_semantics::ringDeadlocksWithOneSlot_data()
{
  QTest::addColumn<int>("ranks");
  for (int ranks : {2, 3, 4, 8})
    QTest::addRow("%d ranks", ranks) << ranks;
}

void Test_semantics::ringDeadlocksWithOneSlot()
{
  QFETCH(int, ranks);
  CheckOptions options;
  options.fifoSlots = 1;
  const Diagnostics out = runSemantics(makeRingAllReduce({ranks, 1, Protocol::Simple}), options);
  const std::vector<Diagnostic> deadlocks = withCode(out, "deadlock");
  QCOMPARE(deadlocks.size(), std::size_t{1});
  QCOMPARE(out.size(), std::size_t{1}); // no postcondition after a deadlock
  const Diagnostic& d = deadlocks.front();
  QCOMPARE(d.severity, Severity::Error);
  QCOMPARE(d.related.size(), static_cast<std::size_t>(ranks));
  QCOMPARE(d.location, d.related.front());
  // Every rank sent its first chunk and waits in step 1 for room to forward the next.
  for (int r = 0; r < ranks; ++r)
    QVERIFY(sameStep(d.related[static_cast<std::size_t>(r)], r, 0, 1));
  QCOMPARE(d.related[1].line, 0); // makeRingAllReduce has no source lines
  const QString message = QString::fromStdString(d.message);
  QVERIFY2(message.contains("rank 0 tb 0 step 1 (" + QString(ranks == 2 ? "rrcs" : "rrs") +
                            ") waits for room on the connection to rank 1 on channel 0"),
           qPrintable(message));
  QVERIFY2(message.contains("back to rank 0 tb 0 step 1"), qPrintable(message));
  QVERIFY2(message.contains(QString("%1 of %1 threadblocks are blocked").arg(ranks)),
           qPrintable(message));
  QVERIFY2(message.contains("connections hold 1 message(s); the runtime's hold about 2 Simple / "
                            "8 LL messages"),
           qPrintable(message));
}

void Test_semantics::manyCyclesAreCapped()
{
  CheckOptions options;
  options.fifoSlots = 1;
  const Diagnostics out = runSemantics(makeRingAllReduce({4, 8, Protocol::Simple}), options);
  const std::vector<Diagnostic> deadlocks = withCode(out, "deadlock");
  QCOMPARE(deadlocks.size(), std::size_t{5});
  for (const Diagnostic& d : deadlocks) {
    QCOMPARE(d.related.size(), std::size_t{4});
    const QString message = QString::fromStdString(d.message);
    QVERIFY2(message.contains("32 of 32 threadblocks are blocked"), qPrintable(message));
    QVERIFY2(message.contains("8 independent wait-for cycles or chains; the first 5"),
             qPrintable(message));
  }
  // One ring per channel: the cycles are the channels 0..4 in order.
  for (int k = 0; k < 5; ++k)
    QVERIFY(sameStep(deadlocks[static_cast<std::size_t>(k)].location, 0, k, 1));
}

void Test_semantics::crossingOrderDeadlocks()
{
  Program program = makeProgram(Collective::Custom, "custom", 2, 1, false, true);
  for (int r = 0; r < 2; ++r) {
    ThreadBlock& tb = addTb(program, r, 1 - r, 1 - r);
    add(tb, recv(Buffer::Scratch, 0));
    add(tb, send(Buffer::Input, 0));
  }
  const Diagnostics out = runSemantics(program);
  const std::vector<Diagnostic> deadlocks = withCode(out, "deadlock");
  QCOMPARE(deadlocks.size(), std::size_t{1});
  const Diagnostic& d = deadlocks.front();
  QCOMPARE(d.related.size(), std::size_t{2});
  QVERIFY(sameStep(d.location, 0, 0, 0));
  QVERIFY(sameStep(d.related[1], 1, 0, 0));
  QCOMPARE(d.location.line, 100);
  QCOMPARE(QString::fromStdString(d.message),
           QString("the program deadlocks: rank 0 tb 0 step 0 (r) waits for a message from rank 1 "
                   "on channel 0 \u2192 rank 1 tb 0 step 0 (r) waits for a message from rank 0 on "
                   "channel 0 \u2192 back to rank 0 tb 0 step 0; 2 of 2 threadblocks are blocked"));
  // Custom: no postcondition, and none is attempted after a deadlock anyway.
  QCOMPARE(withCode(out, "postcondition").size(), std::size_t{0});
  QCOMPARE(withCode(out, "postcondition.unknown").size(), std::size_t{1});
}

void Test_semantics::unpublishedDependencyDeadlocks()
{
  Program program = exchangeAllReduce();
  QVERIFY2(runSemantics(program).empty(), qPrintable(dump(runSemantics(program))));
  test::stepAt(program, 1, 0, 1).hasdep = false;
  const Diagnostics out = runSemantics(program);
  const std::vector<Diagnostic> deadlocks = withCode(out, "deadlock");
  QCOMPARE(deadlocks.size(), std::size_t{1});
  QCOMPARE(out.size(), std::size_t{1});
  const Diagnostic& d = deadlocks.front();
  QCOMPARE(d.related.size(), std::size_t{1});
  QVERIFY(sameStep(d.location, 1, 1, 1));
  QCOMPARE(d.location.line, 201);
  QCOMPARE(QString::fromStdString(d.message),
           QString("the program deadlocks: rank 1 tb 1 step 1 (re) waits for rank 1 tb 0 to "
                   "publish step 1 \u2192 rank 1 tb 0 has finished without publishing step 1 (no "
                   "step at or after it has hasdep=1); 1 of 4 threadblocks are blocked"));
}

void Test_semantics::missingSenderEndsTheChain()
{
  Program program = makeProgram(Collective::Custom, "custom", 2, 1, false, true);
  ThreadBlock& waiter = addTb(program, 0, -1, 1, 0);
  add(waiter, recv(Buffer::Scratch, 0));
  ThreadBlock& other = addTb(program, 1, 0, -1, 1); // sends on channel 1, not 0
  for (int k = 0; k < 3; ++k)                       // the third finds the connection full
    add(other, send(Buffer::Input, 0));
  const Diagnostics out = runSemantics(program);
  const std::vector<Diagnostic> deadlocks = withCode(out, "deadlock");
  QCOMPARE(deadlocks.size(), std::size_t{2});
  QCOMPARE(QString::fromStdString(deadlocks[0].message),
           QString("the program deadlocks: rank 0 tb 0 step 0 (r) waits for a message from rank 1 "
                   "on channel 0 \u2192 rank 1 has no threadblock sending to rank 0 on channel 0; "
                   "2 of 2 threadblocks are blocked"));
  QVERIFY(sameStep(deadlocks[1].location, 1, 0, 2));
  QVERIFY2(QString::fromStdString(deadlocks[1].message)
               .contains("waits for room on the connection to rank 0 on channel 1 \u2192 rank 0 "
                         "has no threadblock receiving from rank 1 on channel 1"),
           qPrintable(dump(out)));

  // A sender that exists but stops early.
  Program early = makeProgram(Collective::Custom, "custom", 2, 2, false, true);
  ThreadBlock& receiver = addTb(early, 0, -1, 1);
  add(receiver, recv(Buffer::Scratch, 0));
  add(receiver, recv(Buffer::Scratch, 1));
  ThreadBlock& sender = addTb(early, 1, 0, -1);
  add(sender, send(Buffer::Input, 0));
  const std::vector<Diagnostic> stopped = withCode(runSemantics(early), "deadlock");
  QCOMPARE(stopped.size(), std::size_t{1});
  QVERIFY(sameStep(stopped.front().location, 0, 0, 1));
  QVERIFY2(QString::fromStdString(stopped.front().message)
               .contains("\u2192 rank 1 tb 0 has finished without sending; 1 of 2"),
           qPrintable(QString::fromStdString(stopped.front().message)));
}

void Test_semantics::removedDependencyRaces()
{
  Program program = exchangeAllReduce();
  Step& guarded = test::stepAt(program, 1, 1, 1);
  guarded.depid = -1;
  guarded.deps = -1;
  const Diagnostics out = runSemantics(program);
  const std::vector<Diagnostic> races = withCode(out, "race");
  QCOMPARE(races.size(), std::size_t{1});
  QCOMPARE(out.count(Severity::Error), 1);
  const Diagnostic& d = races.front();
  QVERIFY(sameStep(d.location, 1, 1, 1));
  QCOMPARE(d.location.line, 201);
  QCOMPARE(d.related.size(), std::size_t{1});
  QVERIFY(sameStep(d.related.front(), 1, 0, 1));
  QCOMPARE(d.related.front().line, 101);
  QCOMPARE(QString::fromStdString(d.message),
           QString("out-of-place: race on rank 1 s[0]: tb 0 step 1 (r) writes s[0] and tb 1 step "
                   "1 (re) reads s[0] with no happens-before order between them (order them with "
                   "a dependency, or declare only the modes the buffers allow)"));
}

void Test_semantics::inPlaceAliasingRacesOnlyInPlace()
{
  // tb 0 sends i[0] while tb 2 copies i[0] to o[0]: harmless out of place, but in place o[0] is
  // i[0] and the copy writes the chunk tb 0 is reading.
  Program program = makeProgram(Collective::AllReduce, "allreduce", 2, 1, true, true);
  for (int r = 0; r < 2; ++r) {
    ThreadBlock& out = addTb(program, r, 1 - r, -1);
    add(out, send(Buffer::Input, 0));
    ThreadBlock& in = addTb(program, r, -1, 1 - r);
    add(in, recv(Buffer::Scratch, 0, true));
    ThreadBlock& local = addTb(program, r, -1, -1);
    add(local, makeStep(OpType::Copy, Buffer::Input, 0, Buffer::Output, 0));
    add(local, makeStep(OpType::Reduce, Buffer::Scratch, 0, Buffer::Output, 0, 1, 1, 0));
  }
  const Diagnostics out = runSemantics(program);
  const std::vector<Diagnostic> races = withCode(out, "race");
  QCOMPARE(races.size(), std::size_t{2});
  QCOMPARE(out.size(), std::size_t{2}); // the results are right in both modes
  for (int r = 0; r < 2; ++r) {
    const Diagnostic& d = races[static_cast<std::size_t>(r)];
    QVERIFY2(d.message.starts_with("in-place: race on rank " + std::to_string(r) + " i[0]: "),
             d.message.c_str());
    QVERIFY2(d.message.find("writes o[0] (memory i[0])") != std::string::npos, d.message.c_str());
    QCOMPARE(d.location.rank, r);
    QCOMPARE(d.related.size(), std::size_t{1});
    // The two sides are tb 0 (the send) and tb 2 (the copy), whichever ran first.
    const std::set<int> sides = {d.location.tb, d.related.front().tb};
    QCOMPARE(sides, (std::set<int>{0, 2}));
  }
}

void Test_semantics::uninitialisedScratchRead()
{
  Program program = makeProgram(Collective::Custom, "custom", 2, 4, false, true);
  ThreadBlock& tb = addTb(program, 0, 1, -1);
  add(tb, send(Buffer::Scratch, 3));
  add(tb, send(Buffer::Scratch, 3)); // reported once per chunk
  ThreadBlock& peer = addTb(program, 1, -1, 0);
  add(peer, recv(Buffer::Output, 0));
  add(peer, recv(Buffer::Output, 1));
  const Diagnostics out = runSemantics(program);
  const std::vector<Diagnostic> reads = withCode(out, "race.uninitialised");
  QCOMPARE(reads.size(), std::size_t{1});
  QCOMPARE(reads.front().severity, Severity::Warning);
  QVERIFY(sameStep(reads.front().location, 0, 0, 0));
  QCOMPARE(reads.front().message,
           std::string("out-of-place: rank 0 tb 0 step 0 (s) reads s[3], which holds no input and "
                       "nothing wrote before (uninitialised); the value is garbage"));
  QCOMPARE(out.count(Severity::Error), 0);
}

void Test_semantics::absurdSizesAreRefused()
{
  Program program = makeProgram(Collective::AllReduce, "allreduce", 4, 1, true, true);
  program.gpus[2].scratchChunks = 2'000'000'000;
  Diagnostics out = runSemantics(program);
  QCOMPARE(out.size(), std::size_t{1});
  QCOMPARE(out.items().front().code, std::string("check.too-large"));
  QCOMPARE(out.items().front().severity, Severity::Info);

  // Ranks that are not numbered densely cannot be executed.
  Program odd = makeProgram(Collective::AllReduce, "allreduce", 2, 1, true, false);
  odd.gpus[1].id = 5;
  out = runSemantics(odd);
  QCOMPARE(out.size(), std::size_t{1});
  QCOMPARE(out.items().front().code, std::string("check.semantic-skipped"));
}

void Test_semantics::randomProgramsNeverCrash()
{
  // The pass runs on whatever the reader produces; mangle every field of small rings and demand a
  // bounded, well-formed answer. Deterministic seed so a failure reproduces.
  std::mt19937 random(12345);
  auto pick = [&random](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  int deadlocks = 0;
  for (int round = 0; round < 1500; ++round) {
    Program program = makeRingAllReduce({pick(2, 5), pick(1, 2), Protocol::LL});
    program.collective = static_cast<Collective>(pick(0, 11));
    program.inplace = pick(0, 1) == 1;
    program.outofplace = pick(0, 1) == 1;
    program.nchunksperloop = pick(-2, 12);
    for (Gpu& gpu : program.gpus) {
      gpu.inputChunks = pick(-1, 12);
      gpu.outputChunks = pick(-1, 12);
      gpu.scratchChunks = pick(-1, 4);
      if (pick(0, 3) == 0)
        addTb(program, gpu.id, pick(-1, 6), pick(-1, 6), pick(0, 2));
      for (ThreadBlock& tb : gpu.threadblocks) {
        if (pick(0, 4) == 0)
          tb.send = pick(-2, 6);
        if (pick(0, 4) == 0)
          tb.recv = pick(-2, 6);
        for (Step& step : tb.steps) {
          switch (pick(0, 9)) {
          case 0:
            step.type = static_cast<OpType>(pick(0, kOpTypeCount - 1));
            break;
          case 1:
            step.srcOff = pick(-3, 14);
            break;
          case 2:
            step.dstOff = pick(-3, 14);
            break;
          case 3:
            step.cnt = pick(-1, 80);
            break;
          case 4:
            step.depid = pick(-2, 3);
            step.deps = pick(-2, 8);
            break;
          case 5:
            step.hasdep = !step.hasdep;
            break;
          case 6:
            step.dstBuf = static_cast<Buffer>(pick(0, 2));
            break;
          default:
            break;
          }
        }
        if (!tb.steps.empty() && pick(0, 5) == 0)
          tb.steps.push_back(tb.steps[static_cast<std::size_t>(pick(0, 2))]);
      }
    }
    CheckOptions options;
    options.fifoSlots = pick(-1, 3);
    options.root = pick(0, 2) == 0 ? std::optional<int>(pick(-1, 6)) : std::nullopt;
    const Diagnostics out = runSemantics(program, options);
    for (const Diagnostic& d : out.items()) {
      QVERIFY2(kSemanticCodes.contains(d.code), d.code.c_str());
      QVERIFY(!d.message.empty());
      deadlocks += d.code == "deadlock" ? 1 : 0;
    }
    QVERIFY(withCode(out, "deadlock").size() <= 5);
    QVERIFY(withCode(out, "race").size() <= 40); // 20 per mode
  }
  QVERIFY(deadlocks > 0); // the mangling does reach the interesting paths
}

void Test_semantics::corpusVerdicts_data()
{
  CS_REQUIRE_CORPUS();
  QTest::addColumn<QString>("path");
  QTest::addColumn<QString>("expected");
  const QMap<QString, test::ManifestRow> manifest = test::readManifest();
  for (const QString& path : test::corpusFiles()) {
    const QString name = QFileInfo(path).fileName();
    QTest::newRow(qPrintable(name)) << path << manifest.value(name).value("expected");
  }
}

void Test_semantics::corpusVerdicts()
{
  QFETCH(QString, path);
  QFETCH(QString, expected);
  QVERIFY2(!expected.isEmpty(), "file missing from MANIFEST.md");
  const Program program = test::loadProgram(path);
  const QString name = QFileInfo(path).fileName();

  const Diagnostics out = runSemantics(program);
  QVERIFY2(!out.contains("check"), qPrintable(dump(out)));
  QCOMPARE(withCode(out, "deadlock").size(), std::size_t{0});

  if (expected.contains("post PASS")) {
    QVERIFY2(out.count(Severity::Error) == 0, qPrintable(dump(out)));
    QVERIFY2(out.count(Severity::Warning) == 0, qPrintable(dump(out)));
  }
  const QRegularExpression failCount("post FAIL \\((\\d+) wrong chunk-slots\\)");
  if (const QRegularExpressionMatch m = failCount.match(expected); m.hasMatch()) {
    const std::vector<Diagnostic> failures = withCode(out, "postcondition");
    QCOMPARE(failures.size(), declaredModes(program).size());
    const QString wanted = m.captured(1) + " of " + m.captured(1) + " output chunk slots are wrong";
    QVERIFY2(QString::fromStdString(failures.front().message).endsWith(wanted),
             failures.front().message.c_str());
    QCOMPARE(withCode(out, "race").size(), std::size_t{0});
  }
  if (expected.contains("post n/a"))
    QCOMPARE(withCode(out, "postcondition.unknown").size(), std::size_t{1});
  if (expected.contains("RACE")) {
    // "race rank 1 ('i', 0): tb 1 vs tb 0"
    const std::vector<Diagnostic> races = withCode(out, "race");
    QVERIFY(!races.empty());
    const bool found = std::any_of(races.begin(), races.end(), [](const Diagnostic& d) {
      return d.location.rank == 1 && d.related.size() == 1 &&
             std::set<int>{d.location.tb, d.related.front().tb} == std::set<int>{0, 1} &&
             d.message.starts_with("in-place: race on rank 1 i[0]: ");
    });
    QVERIFY2(found, qPrintable(dump(out)));
    QCOMPARE(races.size(), std::size_t{20});
    QCOMPARE(withCode(out, "race.more").size(), std::size_t{1});
  } else {
    QCOMPARE(withCode(out, "race").size(), std::size_t{0});
  }

  // Capacity: only the ring-like files marked in the MANIFEST need two messages per connection.
  CheckOptions oneSlot;
  oneSlot.fifoSlots = 1;
  const Diagnostics tight = runSemantics(program, oneSlot);
  const bool deadlocks = expected.contains("deadlocks if each connection holds only 1 message");
  QCOMPARE(!withCode(tight, "deadlock").empty(), deadlocks);
  if (deadlocks) {
    for (const Diagnostic& d : withCode(tight, "deadlock"))
      QVERIFY2(d.message.find("connections hold 1 message(s)") != std::string::npos,
               d.message.c_str());
  }
  Q_UNUSED(name);
}

QTEST_GUILESS_MAIN(Test_semantics)
#include "tst_semantics.moc"
