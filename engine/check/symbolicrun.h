#pragma once

// Abstract execution of a Program with the runtime's semantics (msccl-format.md §4 and §7): the
// engine behind the deadlock, race and postcondition checks.
//
// Every threadblock of every rank runs its steps in order. A step fires when its dependency flag
// is published, its receive connection holds a message and its send connection has room
// (connections are FIFOs of `fifoSlots` messages, matched purely by order). Control flow does
// not depend on data, so one execution serves every call mode: each mode is a "data plane" with
// its own buffer aliasing (memorySlot), symbolic values and race histories, updated in lockstep.
//
// The final state does not depend on the order in which ready threadblocks are picked: every
// blocking condition, once true, stays true until the blocked threadblock itself acts. So a
// ready-queue with wake-ups (a send wakes the connection's receiver, a receive its sender, a
// publish the threadblocks waiting on that flag) visits each step once.
//
// Happens-before is program order, send → matching receive and flag publish → the waiter it
// released. Up to options.clockThreadblockLimit threadblocks it is tracked with vector clocks
// over all threadblocks (messages and published flags carry snapshots); above it the run records
// the graph's edges and searches it only when two threadblocks touch one slot. Start in
// symbolicexecute.cpp at State::tryStep() when changing the semantics.

#include "../model/buffergeometry.h"
#include "../model/program.h"
#include "racedetector.h"
#include "symbolicvalue.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cs {

struct SymbolicRunOptions {
  /// Messages a connection holds before its sender blocks; below 1 means unbounded.
  int fifoSlots = 2;
  /// One data plane per mode. Without modes only the control flow runs (deadlock detection).
  std::vector<CallMode> modes;
  bool detectRaces = true;
  /// Up to this many threadblocks races are found with vector clocks (a component per
  /// threadblock in each threadblock's clock: memory quadratic); above it by searching the
  /// happens-before graph (memory linear, same verdicts: symbolicreach_p.h).
  int clockThreadblockLimit = 4096;
  int maxRaceRecords = 20;          ///< per plane; further races are only counted
  int maxUninitialisedRecords = 20; ///< per plane; further reads are only counted
};

/// What a blocked threadblock waits for.
enum class WaitKind : std::uint8_t {
  None,       ///< not blocked (finished, or could fire)
  Dependency, ///< its step's depid has not published position `deps` yet
  Message,    ///< its receive connection is empty
  Room,       ///< its send connection is full
};

/// The wait-for edge of a blocked threadblock, for deadlock reports.
struct WaitFor {
  WaitKind kind = WaitKind::None;
  int target = -1;  ///< global index of the threadblock waited for; -1 when none exists
  int peer = -1;    ///< Message: the sending rank; Room: the receiving rank; Dependency: own rank
  int channel = -1; ///< Message and Room
  int depTb = -1;   ///< Dependency: the threadblock id awaited
  int deps = -1;    ///< Dependency: the position awaited
};

/// One access to a buffer chunk: which step, whether it writes, and the chunk as it addressed it.
struct AccessSite {
  int tb = -1; ///< threadblock id on the rank
  int step = -1;
  bool writes = false;
  Buffer buffer = Buffer::Input;
  int index = -1;
};

/// Two accesses to the same memory on one rank, at least one a write, with no happens-before
/// order between them. Consecutive chunks racing between the same two steps are one record.
struct RaceRecord {
  int rank = -1;
  MemorySlot memory; ///< the (first) memory chunk both accesses touch, after aliasing
  int chunks = 1;
  AccessSite first; ///< the access that came first in this execution
  AccessSite second;
};

/// The first read of a memory chunk that held no input and was never written.
struct UninitialisedRead {
  int rank = -1;
  AccessSite site;
  MemorySlot memory;
};

/// One abstract execution of a program; construct, run(), then query the final state.
/// Never throws on a well-formed-enough program (gpus[r].id == r, dense tb ids); refusal() says
/// why a program cannot be executed at all.
class SymbolicRun
{
public:
  enum class Outcome : std::uint8_t {
    NotRun,     ///< run() not called, or refused
    Completed,  ///< every threadblock finished
    Deadlocked, ///< no threadblock can fire, some have not finished
    Abandoned,  ///< symbolic values grew past their cap; results are meaningless
  };

  SymbolicRun(const Program& program, SymbolicRunOptions options);
  ~SymbolicRun();
  SymbolicRun(const SymbolicRun&) = delete;
  SymbolicRun& operator=(const SymbolicRun&) = delete;

  /// Empty when the program can be executed, otherwise the reason (ids not dense, too large).
  const std::string& refusal() const;
  /// Whether the refusal is about size (as opposed to a malformed program).
  bool tooLarge() const;
  /// Empty when races were tracked in full; otherwise why not (set by run() when the search
  /// for happens-before orders gave up on a program with very many unordered accesses).
  const std::string& raceRefusal() const;

  Outcome run();
  Outcome outcome() const;

  const Program& program() const;
  int fifoSlots() const;

  // Threadblocks, by a global index over all ranks (rank-major, then tb id).
  int threadblockCount() const;
  int globalIndex(int rank, int tbId) const; ///< -1 when there is no such threadblock
  int rankOf(int tb) const;
  int idOf(int tb) const;
  /// The position of the next step to run; the step count once finished.
  int position(int tb) const;
  bool finished(int tb) const;
  WaitFor waitFor(int tb) const;

  // Data planes, one per mode of the options, in that order.
  int planeCount() const;
  CallMode mode(int plane) const;
  /// Index of the memory slot a buffer chunk occupies on a rank in a plane, or -1 when the
  /// chunk lies outside the buffer (slots are private to the run; use them with value()).
  int slot(int plane, int rank, Buffer buffer, int index) const;
  MemorySlot memoryOf(int plane, int slot) const;
  ValueId value(int plane, int slot) const;
  /// The step that last wrote a slot, if any and if races are tracked.
  std::optional<AccessSite> lastWriter(int plane, int slot) const;
  const std::vector<RaceRecord>& races(int plane) const;
  int racesNotRecorded(int plane) const;
  const std::vector<UninitialisedRead>& uninitialisedReads(int plane) const;
  int uninitialisedNotRecorded(int plane) const;

  const ValueStore& values() const;
  const TokenSpace& tokens() const;

private:
  struct State;
  std::unique_ptr<State> m_state;
};

} // namespace cs
