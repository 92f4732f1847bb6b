#pragma once

// Internal to the abstract execution (symbolicrun*.cpp): the per-threadblock, per-step and
// per-plane records and the State behind SymbolicRun. build() in symbolicbuild.cpp lays them
// out, symbolicexecute.cpp runs them, symbolicrun.cpp answers the public queries.

#include "symbolicreach_p.h"
#include "symbolicrun.h"

#include "../model/connections.h"

#include <algorithm>
#include <optional>

namespace cs {

namespace symbolic {

// Bounds that keep a fuzzed or absurd program from exhausting memory or time. Real algorithms
// stay far below them (the largest corpus file has ~100k slots and 12k steps).
constexpr std::int64_t kMaxSlots = 50'000'000; ///< memory chunks over all planes
constexpr std::int64_t kMaxWork = 200'000'000; ///< chunk operations over all steps and planes
constexpr std::int64_t kMaxThreadblocks = 1'000'000;
constexpr std::int64_t kMaxSteps = 20'000'000;

constexpr int kNoDependency = -1;
constexpr int kMissingTarget = -2;

constexpr std::uint8_t kInitialised = 1; ///< holds input or was written
constexpr std::uint8_t kWarned = 2;      ///< an uninitialised read was reported
constexpr std::uint8_t kRaced = 4;       ///< a race was reported

struct TbRec {
  int rank = 0;
  int id = 0;
  int stepBegin = 0;
  int stepCount = 0;
  int sendConn = -1;
  int recvConn = -1;
  const ThreadBlock* tb = nullptr;
};

struct StepRec {
  int depTarget = kNoDependency; ///< global tb whose flag this step waits for
  int satisfyPos = -1;           ///< first publishing position >= deps in the target; -1: never
  int count = 0;                 ///< chunks touched, clamped to the largest buffer
  int snapshotRefs = 0;          ///< waiters that will join the clock published by this step
  int snapshot = -1;             ///< clock pool entry published by this step
  OpTraits traits;
};

struct Message {
  std::int32_t clock = -1;
  std::int32_t from = -1; ///< global step that sent it
  std::int32_t count = 0;
  std::size_t values = 0;
};

struct Conn {
  ConnectionKey key;
  std::vector<int> senders;   ///< global tbs
  std::vector<int> receivers; ///< global tbs
  std::vector<Message> queue;
  std::size_t head = 0;

  std::size_t held() const { return queue.size() - head; }
};

/// Where a buffer of one rank lives in a plane's flat slot array: slot = base + index.
struct Region {
  std::int64_t base = 0;
  int range = 0;
};

struct Plane {
  CallMode mode = CallMode::OutOfPlace;
  std::vector<Region> regions;        ///< rank * kBufferCount + buffer
  std::vector<std::int64_t> memBase;  ///< rank * kBufferCount + memory
  std::vector<int> memSize;           ///< rank * kBufferCount + memory
  std::vector<std::int64_t> rankBase; ///< first slot of each rank, plus the total
  std::vector<ValueId> value;
  std::vector<std::uint8_t> flags;
  RaceDetector detector;
  std::vector<ValueId> messageValues;
  std::vector<RaceRecord> races;
  int racesDropped = 0;
  std::vector<UninitialisedRead> uninitialised;
  int uninitialisedDropped = 0;
  std::optional<RaceRecord> pending; ///< the race group of the step being executed
  int pendingLastSlot = -1;
};

inline std::size_t at(int index)
{
  return static_cast<std::size_t>(index);
}

// Clock rows are padded to whole blocks so that the join below vectorises at -O2 (a fixed inner
// trip count needs neither an epilogue nor a runtime alias check). It is the hot loop of the run.
constexpr std::size_t kClockBlock = 8;

inline void joinClocks(Clock* __restrict row, const Clock* __restrict other, std::size_t n)
{
  for (std::size_t i = 0; i < n; i += kClockBlock) {
    for (std::size_t k = 0; k < kClockBlock; ++k)
      row[i + k] = std::max(row[i + k], other[i + k]);
  }
}

} // namespace symbolic

struct SymbolicRun::State {
  const Program& program;
  SymbolicRunOptions options;
  std::string refusal;
  bool tooLarge = false;
  std::string raceRefusal;
  Outcome outcome = Outcome::NotRun;

  int ranks = 0;
  /// Input chunks per rank: i_chunks, or the user's send buffer where that is larger (tools
  /// write i_chunks="0" for an in-place all-gather whose input lives inside o).
  std::vector<int> inputChunks;
  int tbCount = 0;
  std::vector<int> rankTbBase; ///< first global tb of each rank, plus the total
  std::vector<symbolic::TbRec> tbs;
  std::vector<symbolic::StepRec> steps;
  std::vector<symbolic::Conn> conns;

  std::vector<int> pc;
  std::vector<int> flag;
  std::vector<std::vector<int>> depWaiters;
  std::vector<int> queue; ///< circular, capacity tbCount + 1
  std::size_t qHead = 0;
  std::size_t qTail = 0;
  std::vector<std::uint8_t> queued;

  bool races = false;
  /// Races by vector clocks (small programs) or, when false, by searching the graph (reach).
  bool raceClocks = false;
  ClockOrder clockOrder;
  symbolic::ReachOrder reach;
  std::size_t clockStride = 0; ///< tbCount rounded up to kClockBlock
  std::vector<Clock> clocks;   ///< tbCount rows of clockStride, one per threadblock
  std::vector<Clock> pool;     ///< snapshots carried by messages and published flags
  std::vector<int> freeSnapshots;

  TokenSpace tokenSpace;
  std::optional<ValueStore> store;
  std::vector<symbolic::Plane> planes;
  std::vector<ValueId> scratchValues; ///< per-step temporary

  State(const Program& p, SymbolicRunOptions o) : program(p), options(std::move(o)) {}

  /// Lays out planes, threadblocks, connections and dependencies; false with refusal set.
  bool build();
  bool checkNumbering(std::int64_t& totalSteps);
  bool buildThreadblocks(std::int64_t totalSteps);
  void linkDependencies();
  void seedPlanes();
  bool buildPlane(symbolic::Plane& plane, std::int64_t& totalSlots);
  int resultRange() const;

  Outcome execute();
  void enqueue(int g);
  bool tryStep(int g);
  void advanceClock(int g, int pos, const symbolic::StepRec& rec, const symbolic::Message* message);
  void apply(symbolic::Plane& plane, int g, int pos, const Step& step, const symbolic::StepRec& rec,
             const symbolic::Message* in);
  ValueId read(symbolic::Plane& plane, int g, int pos, Buffer buffer, int index);
  void write(symbolic::Plane& plane, int g, int pos, Buffer buffer, int index, ValueId value);
  void noteRace(symbolic::Plane& plane, int slot, int g, int pos, bool writes, Buffer buffer,
                int index, const Conflict& conflict);
  void flushPending(symbolic::Plane& plane);
  AccessSite siteOf(const symbolic::Plane& plane, int g, int pos, bool writes, int slot) const;

  int globalIndexOf(int rank, int tbId) const
  {
    if (rank < 0 || rank >= ranks || tbId < 0)
      return -1;
    const int g = rankTbBase[symbolic::at(rank)] + tbId;
    return g < rankTbBase[symbolic::at(rank) + 1] ? g : -1;
  }
  int slotOf(const symbolic::Plane& plane, int rank, Buffer buffer, int index) const
  {
    const symbolic::Region& r =
        plane.regions[symbolic::at(rank) * kBufferCount + static_cast<std::size_t>(buffer)];
    if (index < 0 || index >= r.range)
      return -1;
    return static_cast<int>(r.base + index);
  }
  Clock* clockRow(int g) { return clocks.data() + symbolic::at(g) * clockStride; }
  HappensBefore& orderFor(int g)
  {
    if (!raceClocks)
      return reach;
    clockOrder.row = clockRow(g);
    return clockOrder;
  }
  void prepareReach();
  int snapshot(const Clock* row);
  void join(Clock* row, int snapshotIndex);
  void release(int snapshotIndex);
};

} // namespace cs
