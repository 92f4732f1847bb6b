// Verification names every wrong chunk: a ring all-reduce broken in known chunks (wrongring.h)
// runs on the CPU executor and the GPU executor's host emulation, and ExecResult::wrongChunks
// lists exactly the chunks whose memory differs from the collective's definition, each with its
// first wrong element as the kept buffers hold it; the trace carries the same list; a right run
// lists none; the list stops at TraceVerification::kChunkLimit while the count goes on.

#include "exec/hostexecutors.h"
#include "exec/plan/reference.h"
#include "exec/wrongring.h"
#include "model/buffergeometry.h"

#include <QTest>

#include <cstring>
#include <memory>

using namespace cs;

namespace {

/// The all-reduce's value of element `e` of chunk `chunk`: every rank's input summed.
std::int32_t expectedValue(const ExecResult& result, int ranks, int chunk, std::int64_t e)
{
  std::int64_t sum = 0;
  for (int q = 0; q < ranks; ++q)
    sum +=
        plan::inputValue(DataType::I32, ReduceOp::Sum, ranks, q, chunk * result.chunkElements + e);
  return static_cast<std::int32_t>(sum);
}

/// Element `e` of chunk `chunk` of the result (o, folded onto i in place) as the run left it.
std::int32_t actualValue(const Program& program, const ExecResult& result, int rank, int chunk,
                         std::int64_t e)
{
  const MemorySlot slot = memorySlot(program, rank, Buffer::Output, chunk, result.mode);
  const auto& memory =
      result.buffers[static_cast<std::size_t>(rank)][static_cast<std::size_t>(slot.memory)];
  std::int32_t value = 0;
  std::memcpy(&value, memory.data() + (slot.index * result.chunkElements + e) * 4, 4);
  return value;
}

} // namespace

class TestWrongChunks : public QObject
{
  Q_OBJECT

private slots:
  void everyWrongChunkIsNamed_data() { test::addHostExecutorRows(); }
  void everyWrongChunkIsNamed()
  {
    QFETCH(QString, backend);
    const test::WrongRing ring = test::makeWrongRing();
    const ExecResult result =
        test::hostExecutor(backend)->run(ring.program, test::wrongRingOptions());
    QCOMPARE(result.status, ExecStatus::Wrong);
    QCOMPARE(result.buffers.size(), std::size_t{4});

    // What differs, element by element, in the memory the run left.
    std::vector<WrongElement> differing;
    std::int64_t wrongElements = 0;
    for (int rank = 0; rank < 4; ++rank) {
      for (int chunk = 0; chunk < 4; ++chunk) {
        bool first = true;
        for (std::int64_t e = 0; e < result.chunkElements; ++e) {
          const std::int32_t want = expectedValue(result, 4, chunk, e);
          const std::int32_t got = actualValue(ring.program, result, rank, chunk, e);
          if (want == got)
            continue;
          ++wrongElements;
          if (first)
            differing.push_back({rank, Buffer::Output, chunk, e, double(want), double(got)});
          first = false;
        }
      }
    }
    std::set<std::pair<int, int>> named;
    for (const WrongElement& w : differing)
      named.insert({w.rank, w.chunk});
    QCOMPARE(named, ring.wrongChunks());

    QCOMPARE(result.wrongChunks, differing);
    QCOMPARE(result.wrongChunkCount, std::int64_t{2});
    QCOMPARE(result.wrong, wrongElements);
    QCOMPARE(*result.firstWrong, differing.front());

    QVERIFY(result.trace.verification.has_value());
    const TraceVerification& recorded = *result.trace.verification;
    QCOMPARE(recorded.wrongChunks, differing);
    QCOMPARE(recorded.wrongChunkCount, std::int64_t{2});
    QCOMPARE(recorded.wrongElements, wrongElements);
    QCOMPARE(recorded.checked, result.checked);
  }

  void oneRankVerifiesItsOwn()
  {
    // A launcher run holds one rank's memory (ExecOptions::verifyRank): only that rank's chunks
    // are compared, so the four ranks' verdicts add up to the whole run's.
    const test::WrongRing ring = test::makeWrongRing();
    const ExecResult whole = makeExecutor("cpu")->run(ring.program, test::wrongRingOptions());
    std::int64_t checked = 0;
    std::int64_t wrongChunks = 0;
    for (int rank = 0; rank < 4; ++rank) {
      ExecOptions options = test::wrongRingOptions();
      options.verifyRank = rank;
      const ExecResult mine = makeExecutor("cpu")->run(ring.program, options);
      std::int64_t expectedWrong = 0;
      for (const auto& [wrongRank, chunk] : ring.wrongChunks())
        expectedWrong += wrongRank == rank ? 1 : 0;
      QCOMPARE(mine.wrongChunkCount, expectedWrong);
      QCOMPARE(mine.status, expectedWrong > 0 ? ExecStatus::Wrong : ExecStatus::Verified);
      for (const WrongElement& w : mine.wrongChunks)
        QCOMPARE(w.rank, rank);
      QCOMPARE(mine.checked * 4, whole.checked);
      checked += mine.checked;
      wrongChunks += mine.wrongChunkCount;
    }
    QCOMPARE(checked, whole.checked);
    QCOMPARE(wrongChunks, whole.wrongChunkCount);
  }

  void aRightRunListsNothing()
  {
    const Program program = makeRingAllReduce({4, 1, Protocol::Simple});
    const ExecResult result = makeExecutor("cpu")->run(program, test::wrongRingOptions());
    QCOMPARE(result.status, ExecStatus::Verified);
    QVERIFY(result.wrongChunks.empty());
    QCOMPARE(result.wrongChunkCount, std::int64_t{0});
    QVERIFY(result.trace.verification.has_value());
    QCOMPARE(result.trace.verification->wrongElements, std::int64_t{0});
    QCOMPARE(result.trace.verification->checked, result.checked);
    // Without a trace nothing is recorded there.
    ExecOptions untraced = test::wrongRingOptions();
    untraced.trace = false;
    QVERIFY(!makeExecutor("cpu")->run(program, untraced).trace.verification.has_value());
  }

  void theListStopsAtItsLimit()
  {
    // Out of place, the in-place ring never writes o: every result chunk is wrong (NaN-free in
    // int32: the sentinel reads -1). 4 ranks × 2048 chunks = 8192 wrong chunks, 4096 listed.
    const Program program = makeRingAllReduce({4, 1, Protocol::Simple});
    ExecOptions options;
    options.dtype = DataType::I32;
    options.mode = CallMode::OutOfPlace;
    options.bytes = 4 * 4;
    const ExecResult small = makeExecutor("cpu")->run(program, options);
    QCOMPARE(small.wrongChunkCount, std::int64_t{4 * 4});
    QCOMPARE(small.wrongChunks.size(), std::size_t{16});
    QCOMPARE(small.wrongChunks.back().actual, -1.0);

    Program wide = makeRingAllReduce({4, 512, Protocol::Simple});
    options.bytes = std::int64_t{wide.nchunksperloop} * 4;
    const ExecResult many = makeExecutor("cpu")->run(wide, options);
    QCOMPARE(many.wrongChunkCount, std::int64_t{4} * wide.nchunksperloop);
    QCOMPARE(many.wrongChunks.size(), TraceVerification::kChunkLimit);
    QCOMPARE(many.wrong, std::int64_t{4} * wide.nchunksperloop);
  }
};

QTEST_MAIN(TestWrongChunks)
#include "tst_wrongchunks.moc"
