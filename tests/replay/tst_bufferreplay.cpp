// The buffer view's data: executing a recorded run's instructions along its trace. At the end of a
// complete simulated run of every catalogue algorithm every result chunk holds exactly what the
// collective's postcondition requires; before the first event every chunk holds its input or
// nothing; an in-place chunk's contributions only grow until it holds the result; clocks that put a
// receive before its send still give the right values; a run cut short executes fewer instructions
// and reaches no result.

#include "catalogue/catalogue.h"
#include "catalogue/ringallreduce.h"
#include "compile/lower.h"
#include "model/collectivespec.h"
#include "model/topologypresets.h"
#include "replay/bufferreplay.h"
#include "sim/simulator.h"

#include <QTest>

using namespace cs;
using namespace cs::replay;

namespace {

struct Run {
  Program program;
  Trace trace;
};

Run simulate(Program program, const char* preset)
{
  SimOptions options;
  options.bytes = 1 << 20;
  Trace trace = simulateProgram(program, *makePresetTopology(preset), options).trace;
  return {std::move(program), std::move(trace)};
}

std::optional<Program> lowered(const char* key, int ranks)
{
  const GenerateResult generated = generateAlgorithm(key, {.ranks = ranks});
  if (!generated.schedule)
    return std::nullopt;
  const LowerResult result = lowerSchedule(*generated.schedule, {});
  return result.program;
}

/// The first result chunk whose value differs from the postcondition, described; empty if none.
QString firstWrongResult(const BufferReplay& buffers, const Program& program, double timeUs)
{
  const CollectiveSpec spec(program.collective, program.ngpus, program.nchunksperloop,
                            isRooted(program.collective) ? 0 : -1);
  std::vector<Contribution> expected;
  for (int rank = 0; rank < program.ngpus; ++rank) {
    const ResultChunks result = spec.result(rank);
    for (int k = 0; k < result.count; ++k) {
      spec.contributions(rank, k, expected);
      const ValueId value = buffers.valueAt(rank, result.buffer, result.first + k, timeUs);
      std::vector<Contribution> held;
      for (const TokenCount& entry : buffers.values().entries(value)) {
        const auto [from, chunk] = buffers.tokens().decode(entry.token);
        for (std::uint32_t n = 0; n < entry.count; ++n)
          held.push_back({from, chunk});
      }
      if (held != expected)
        return QString("rank %1 chunk %2 holds %3")
            .arg(rank)
            .arg(result.first + k)
            .arg(QString::fromStdString(buffers.format(value)));
    }
  }
  return {};
}

std::size_t instructionCount(const Program& program)
{
  std::size_t count = 0;
  for (const Gpu& gpu : program.gpus)
    for (const ThreadBlock& tb : gpu.threadblocks)
      count += tb.steps.size();
  return count;
}

} // namespace

class TestBufferReplay : public QObject
{
  Q_OBJECT

private slots:
  void everyCatalogueAlgorithmEndsAtItsPostcondition_data()
  {
    QTest::addColumn<QString>("key");
    QTest::addColumn<int>("ranks");
    for (const AlgorithmInfo& info : algorithmCatalog()) {
      for (const int ranks : {4, 8}) {
        if (!info.unsupported({.ranks = ranks}))
          QTest::addRow("%s %d", info.key.data(), ranks) << QString(info.key.data()) << ranks;
      }
    }
  }

  void everyCatalogueAlgorithmEndsAtItsPostcondition()
  {
    QFETCH(QString, key);
    QFETCH(int, ranks);
    std::optional<Program> program = lowered(key.toUtf8().constData(), ranks);
    QVERIFY(program);
    const Run run = simulate(std::move(*program), ranks == 8 ? "dgx-h100" : "fully-connected-4");
    for (const CallMode mode : declaredModes(run.program)) {
      const BufferReplay buffers(run.program, run.trace, mode);
      QCOMPARE(buffers.executed(), instructionCount(run.program));
      const QString wrong = firstWrongResult(buffers, run.program, run.trace.totalUs);
      QVERIFY2(wrong.isEmpty(),
               qPrintable(QString::fromStdString(std::string(callModeName(mode))) + ": " + wrong));
    }
  }

  void beforeTheFirstEventChunksHoldTheirInput()
  {
    const Run run = simulate(makeRingAllReduce({4, 1, Protocol::Simple}), "ring-4");
    const BufferReplay buffers(run.program, run.trace, CallMode::OutOfPlace);
    for (int rank = 0; rank < 4; ++rank) {
      for (int k = 0; k < buffers.chunks(rank, Buffer::Input); ++k) {
        const ValueId value = buffers.valueAt(rank, Buffer::Input, k, -1);
        QCOMPARE(buffers.contributingRanks(value), std::vector<int>{rank});
        QCOMPARE(buffers.changedAt(rank, Buffer::Input, k, -1), -1.0);
      }
      for (int k = 0; k < buffers.chunks(rank, Buffer::Output); ++k)
        QCOMPARE(buffers.valueAt(rank, Buffer::Output, k, -1), kUninitialised);
    }
    QVERIFY(!firstWrongResult(buffers, run.program, -1).isEmpty());
  }

  void contributionsOnlyGrowUntilTheResult()
  {
    const Run run = simulate(makeRingAllReduce({4, 1, Protocol::Simple}), "ring-4");
    const BufferReplay buffers(run.program, run.trace, CallMode::InPlace);
    const int chunks = buffers.chunks(0, Buffer::Input);
    std::vector<std::size_t> previous(chunks, 0);
    const int samples = 50;
    for (int s = 0; s <= samples; ++s) {
      const double t = run.trace.totalUs * s / samples;
      for (int k = 0; k < chunks; ++k) {
        const ValueId value = buffers.valueAt(0, Buffer::Input, k, t);
        const std::size_t ranks = buffers.contributingRanks(value).size();
        QVERIFY2(ranks >= previous[k], "an in-place all-reduce chunk lost a contribution");
        previous[k] = ranks;
      }
    }
    QCOMPARE(previous, std::vector<std::size_t>(chunks, 4));
  }

  void aReceiveClockedBeforeItsSendWaitsForIt()
  {
    Run run = simulate(makeRingAllReduce({4, 1, Protocol::Simple}), "ring-4");
    // Rank 2's GPU clock runs 1 ms behind: all its events appear earlier than their sends.
    for (TraceEvent& event : run.trace.events) {
      if (event.rank == 2) {
        event.start = std::max(0.0, event.start - 1000);
        event.end = std::max(0.0, event.end - 1000);
      }
    }
    const BufferReplay buffers(run.program, run.trace, CallMode::InPlace);
    QCOMPARE(buffers.executed(), instructionCount(run.program));
    QVERIFY2(firstWrongResult(buffers, run.program, run.trace.totalUs).isEmpty(),
             qPrintable(firstWrongResult(buffers, run.program, run.trace.totalUs)));
  }

  void aRunCutShortReachesNoResult()
  {
    Run run = simulate(makeRingAllReduce({4, 1, Protocol::Simple}), "ring-4");
    const double cut = run.trace.totalUs / 2;
    std::erase_if(run.trace.events, [cut](const TraceEvent& event) { return event.end > cut; });
    const BufferReplay buffers(run.program, run.trace, CallMode::InPlace);
    QVERIFY(buffers.executed() > 0);
    QVERIFY(buffers.executed() < instructionCount(run.program));
    QVERIFY(!firstWrongResult(buffers, run.program, run.trace.totalUs).isEmpty());
  }
};

QTEST_GUILESS_MAIN(TestBufferReplay)
#include "tst_bufferreplay.moc"
