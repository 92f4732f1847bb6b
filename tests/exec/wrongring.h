#pragma once

// A program whose result is wrong in known chunks, for the tests of verification, the trace's
// record of it, the buffer view and `cstudio replay`: the catalogue's 4-rank ring all-reduce
// with rank 0's last instruction (the receive that brings its last result chunk) writing into
// the next chunk instead. So exactly two chunks of rank 0 end wrong: the one the receive should
// have filled (it keeps rank 0's own input) and the one it overwrote (it holds the other sum).

#include "catalogue/ringallreduce.h"
#include "exec/executor.h"

#include <QTest>

#include <algorithm>
#include <set>
#include <utility>

namespace cs::test {

struct WrongRing {
  Program program;
  int rank = 0;
  int missed = -1; ///< the chunk the receive should have written
  int hit = -1;    ///< the chunk it wrote instead
  /// (rank, chunk) of every chunk that ends wrong.
  std::set<std::pair<int, int>> wrongChunks() const { return {{rank, missed}, {rank, hit}}; }
};

inline WrongRing makeWrongRing()
{
  WrongRing ring;
  ring.program = makeRingAllReduce({4, 1, Protocol::Simple});
  Step& last = ring.program.gpus[0].threadblocks[0].steps.back();
  ring.missed = last.dstOff;
  ring.hit = (last.dstOff + 1) % ring.program.nchunksperloop;
  last.dstOff = ring.hit;
  return ring;
}

/// A small traced run of it in int32 (exact values) that keeps every rank's buffers.
inline ExecOptions wrongRingOptions()
{
  ExecOptions options;
  options.dtype = DataType::I32;
  options.bytes = 4 * 64 * 4; // 64 elements per chunk
  options.timeoutSeconds = 10;
  options.trace = true;
  options.keepBuffers = true;
  return options;
}

/// Runs the broken ring on `executor` and checks that it names the CPU reference's wrong chunks
/// with the same values, in its result and its trace.
inline void checkWrongChunksMatchTheCpu(Executor& executor)
{
  const WrongRing ring = makeWrongRing();
  const ExecResult result = executor.run(ring.program, wrongRingOptions());
  const ExecResult cpu = makeExecutor("cpu")->run(ring.program, wrongRingOptions());
  QCOMPARE(result.status, ExecStatus::Wrong);
  QCOMPARE(result.wrongChunks.size(), std::size_t{2});
  QCOMPARE(result.wrongChunks, cpu.wrongChunks);
  QVERIFY(result.trace.verification == cpu.trace.verification);
}

} // namespace cs::test
