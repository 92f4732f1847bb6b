// Validation of a Schedule before lowering, and the <algo>/<gpu> skeleton of the Program.

#include "lowerplan_p.h"

#include <algorithm>
#include <string>
#include <unordered_set>

namespace cs::lowering {

namespace {

std::string slotText(const ChunkRef& ref)
{
  return "rank " + std::to_string(ref.rank) + " " + std::string(bufferName(ref.buffer)) + "[" +
         std::to_string(ref.index) + "]";
}

Location transferLocation(const Transfer& t)
{
  Location location;
  location.transfer = t.id;
  return location;
}

void checkEnd(const Schedule& schedule, const Transfer& t, const ChunkRef& ref, const char* side,
              Diagnostics& out)
{
  // Messages are built only for faults: this runs for millions of transfers at 1,024 ranks.
  const auto prefix = [&] { return "transfer " + std::to_string(t.id) + ": " + side + " "; };
  if (ref.rank < 0 || ref.rank >= schedule.ranks) {
    out.error("lower.rank-out-of-range",
              prefix() + "rank " + std::to_string(ref.rank) + " is outside 0.." +
                  std::to_string(schedule.ranks - 1),
              transferLocation(t));
    return;
  }
  const int chunks = schedule.buffers[static_cast<std::size_t>(ref.rank)].chunks(ref.buffer);
  if (ref.index < 0 || t.count < 1 || ref.index + t.count > chunks) {
    out.error("lower.index-out-of-range",
              prefix() + slotText(ref) + " with count " + std::to_string(t.count) +
                  " does not fit the buffer's " + std::to_string(chunks) + " chunks",
              transferLocation(t));
  }
}

/// The transfer ids seen so far: a flag per id while the ids are dense (as every generator and
/// reader numbers them), a hash set beyond.
class IdSet
{
public:
  explicit IdSet(std::size_t transfers) : m_seen(transfers, false) {}

  /// False when `id` was seen before.
  bool insert(int id)
  {
    if (id >= 0 && static_cast<std::size_t>(id) < m_seen.size()) {
      if (m_seen[static_cast<std::size_t>(id)])
        return false;
      m_seen[static_cast<std::size_t>(id)] = true;
      return true;
    }
    return m_sparse.insert(id).second;
  }

private:
  std::vector<bool> m_seen;
  std::unordered_set<int> m_sparse;
};

} // namespace

std::vector<Diagnostic> validateSchedule(const Schedule& schedule, const Dialect& dialect)
{
  Diagnostics out;
  if (schedule.ranks < 1) {
    out.error("lower.ranks", "the schedule has " + std::to_string(schedule.ranks) +
                                 " ranks; at least 1 is needed");
    return out.take();
  }
  if (schedule.buffers.size() != static_cast<std::size_t>(schedule.ranks)) {
    out.error("lower.ranks", "the schedule has " + std::to_string(schedule.ranks) +
                                 " ranks but buffer sizes for " +
                                 std::to_string(schedule.buffers.size()));
    return out.take();
  }
  for (int r = 0; r < schedule.ranks; ++r) {
    const RankBuffers& b = schedule.buffers[static_cast<std::size_t>(r)];
    if (b.input < 0 || b.output < 0 || b.scratch < 0 || b.input > dialect.maxOffset + 1 ||
        b.output > dialect.maxOffset + 1 || b.scratch > dialect.maxOffset + 1) {
      out.error("lower.buffer-size",
                "rank " + std::to_string(r) + " has buffer sizes " + std::to_string(b.input) + "/" +
                    std::to_string(b.output) + "/" + std::to_string(b.scratch) +
                    " chunks; each must be 0.." + std::to_string(dialect.maxOffset + 1));
    }
  }
  IdSet ids(schedule.transfers.size());
  for (const Transfer& t : schedule.transfers) {
    const auto prefix = [&t] { return "transfer " + std::to_string(t.id) + ": "; };
    if (!ids.insert(t.id))
      out.error("lower.duplicate-id", prefix() + "the id is used by another transfer",
                transferLocation(t));
    if (t.step < 0)
      out.error("lower.step", prefix() + "step " + std::to_string(t.step) + " is negative",
                transferLocation(t));
    // Wider transfers are split into messages of at most dialect.maxCount chunks.
    if (t.count < 1)
      out.error("lower.count", prefix() + "count " + std::to_string(t.count) + " is below 1",
                transferLocation(t));
    checkEnd(schedule, t, t.src, "source", out);
    checkEnd(schedule, t, t.dst, "destination", out);
    if (t.pins.channel && (*t.pins.channel < 0 || *t.pins.channel >= dialect.maxChannels)) {
      out.error("lower.pin-channel",
                prefix() + "pinned channel " + std::to_string(*t.pins.channel) + " is outside 0.." +
                    std::to_string(dialect.maxChannels - 1) + " for " + std::string(dialect.title),
                transferLocation(t));
    }
    if (t.pins.threadblock &&
        (*t.pins.threadblock < 0 || *t.pins.threadblock >= dialect.maxThreadblocksPerRank)) {
      out.error("lower.pin-threadblock",
                prefix() + "pinned threadblock " + std::to_string(*t.pins.threadblock) +
                    " is outside 0.." + std::to_string(dialect.maxThreadblocksPerRank - 1) +
                    " for " + std::string(dialect.title),
                transferLocation(t));
    }
    if (t.src == t.dst && t.src.rank >= 0)
      out.error("lower.self-transfer", prefix() + "source and destination are the same slot",
                transferLocation(t));
  }
  return out.take();
}

void buildSkeleton(Plan& plan)
{
  const Schedule& schedule = *plan.schedule;
  Program& p = plan.skeleton;
  p.name = schedule.name.empty() ? std::string("collective-studio") : schedule.name;
  p.collective = schedule.collective;
  p.ngpus = schedule.ranks;
  p.inplace = schedule.inplace;
  const int inMult = schedule.collective == Collective::AllGather ? schedule.ranks : 1;
  const int outMult = schedule.collective == Collective::ReduceScatter ? schedule.ranks : 1;
  int perLoop = 1;
  p.gpus.clear();
  for (int r = 0; r < schedule.ranks; ++r) {
    const RankBuffers& b = schedule.buffers[static_cast<std::size_t>(r)];
    perLoop = std::max({perLoop, b.input * inMult, b.output * outMult});
    Gpu gpu;
    gpu.id = r;
    gpu.inputChunks = b.input;
    gpu.outputChunks = b.output;
    gpu.scratchChunks = b.scratch;
    p.gpus.push_back(std::move(gpu));
  }
  p.nchunksperloop = perLoop;

  plan.modes.clear();
  if (schedule.inplace)
    plan.modes.push_back(CallMode::InPlace);
  if (schedule.outofplace || !schedule.inplace)
    plan.modes.push_back(CallMode::OutOfPlace);
}

} // namespace cs::lowering
