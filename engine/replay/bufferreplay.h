#pragma once

// What every chunk of every rank holds at any time of a recorded run (DESIGN.md §9, the buffer
// view): the run's instructions are executed symbolically, once, in the order the trace says they
// completed, and each memory chunk keeps the list of (time, value) it was written with. Asking for
// a chunk at t is then a binary search in its list, whatever t is.
//
// Values are the checker's symbolic values (check/symbolicvalue.h): the multiset of input
// contributions a chunk has summed, so the state at the end of a complete run can be compared
// with the collective's postcondition. A chunk changes when its instruction's last slice ends; a
// receive takes the value its matching send read (the k-th send on a connection feeds the k-th
// receive, as the runtime matches them). Measured clocks of different GPUs may put a receive's
// end before its send's: the receive then waits for the send, so values never come from nowhere.
// A run stopped by the watchdog simply has fewer completed instructions.

#include "check/symbolicvalue.h"
#include "model/buffergeometry.h"
#include "model/program.h"
#include "model/trace.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace cs::replay {

class BufferReplay
{
public:
  /// Executes `program` along `trace` (which must fit it: ReplayIndex::build checks that),
  /// called in `mode`.
  BufferReplay(const Program& program, const Trace& trace, CallMode mode);

  CallMode mode() const { return m_mode; }
  /// Chunks of `buffer` on `rank` as the program declares them.
  int chunks(int rank, Buffer buffer) const;
  /// What chunk `index` of `buffer` on `rank` holds after every instruction that completed at or
  /// before `timeUs` (kUninitialised for a chunk never written and holding no input).
  ValueId valueAt(int rank, Buffer buffer, int index, double timeUs) const;
  /// When the chunk last changed at or before `timeUs`; negative when it never did.
  double changedAt(int rank, Buffer buffer, int index, double timeUs) const;
  /// The ranks whose input a value sums, ascending, each once.
  std::vector<int> contributingRanks(ValueId value) const;
  /// "Σ{r0·c1, r1·c1}", "r2·c3" or "uninitialised".
  std::string format(ValueId value) const;
  /// What the send-type step (rank, tb id, step) put on its connection, one value per chunk it
  /// sent (the contents of that step's message tokens); empty when it never ran.
  std::vector<ValueId> sentBy(int rank, int tb, int step) const;
  /// Instructions executed (one per (rank, tb, step) whose every traced slice ended).
  std::size_t executed() const { return m_executed; }

  const ValueStore& values() const { return m_values; }
  const TokenSpace& tokens() const { return m_tokens; }

private:
  struct Write {
    double timeUs = 0;
    ValueId value = kUninitialised;
  };
  /// A chunk of memory on one rank: its value before the run and every write, by time.
  struct MemoryChunk {
    ValueId initial = kUninitialised;
    std::vector<Write> writes;
  };
  class Execution;

  int memoryIndex(int rank, Buffer buffer, int index) const; ///< -1 outside the buffer
  void initialise();

  Program m_program;
  CallMode m_mode;
  TokenSpace m_tokens;
  ValueStore m_values;
  /// Per rank and allocation (i, o, s), the offset of its chunk 0 in m_memory.
  std::vector<std::array<int, 3>> m_base;
  std::vector<std::array<int, 3>> m_sizes;
  std::vector<MemoryChunk> m_memory;
  std::map<std::tuple<int, int, int>, std::vector<ValueId>> m_sent; ///< (rank, tb id, step)
  std::size_t m_executed = 0;
};

} // namespace cs::replay
