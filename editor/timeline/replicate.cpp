#include "replicate.h"

#include <set>
#include <tuple>

namespace cs::editor {

namespace {

int wrap(long long x, int n)
{
  return static_cast<int>(((x % n) + n) % n);
}

/// What makes two transfers the same arrow, ids and pins aside.
auto identity(const Transfer& t)
{
  return std::tuple(t.step, t.src, t.dst, t.count, t.op);
}

ChunkRef shifted(const Schedule& schedule, ChunkRef ref, long long by, bool shiftChunks)
{
  ref.rank = wrap(ref.rank + by, schedule.ranks);
  if (shiftChunks) {
    const int chunks = schedule.buffers[static_cast<std::size_t>(ref.rank)].chunks(ref.buffer);
    if (chunks > 0)
      ref.index = wrap(ref.index + by, chunks);
  }
  return ref;
}

} // namespace

std::vector<Transfer> replicateTransfers(const Schedule& schedule,
                                         std::span<const Transfer> selected,
                                         const ReplicateOptions& options)
{
  std::vector<Transfer> copies;
  const int n = schedule.ranks;
  if (n < 2 || static_cast<int>(schedule.buffers.size()) != n)
    return copies;
  std::set<decltype(identity(Transfer{}))> seen;
  for (const Transfer& t : schedule.transfers)
    seen.insert(identity(t));
  for (int r = 1; r < n && wrap(static_cast<long long>(r) * options.shift, n) != 0; ++r) {
    const long long by = static_cast<long long>(r) * options.shift;
    for (const Transfer& t : selected) {
      if (t.src.rank < 0 || t.src.rank >= n || t.dst.rank < 0 || t.dst.rank >= n)
        continue;
      Transfer copy = t;
      copy.id = -1;
      copy.src = shifted(schedule, t.src, by, options.shiftChunks);
      copy.dst = shifted(schedule, t.dst, by, options.shiftChunks);
      copy.pins.route.clear();
      if (seen.insert(identity(copy)).second)
        copies.push_back(copy);
    }
  }
  return copies;
}

} // namespace cs::editor
