#include "transfergroup.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace cs::editor {

namespace {

int wrapRank(long long rank, int ranks)
{
  return static_cast<int>(((rank % ranks) + ranks) % ranks);
}

/// The group's first transfer: earliest step, then lowest source rank, then lowest id.
bool comesFirst(const Transfer& a, const Transfer& b)
{
  return std::tuple(a.step, a.src.rank, a.id) < std::tuple(b.step, b.src.rank, b.id);
}

/// The slots a transfer covers from `ref` must all exist on the target rank.
std::optional<MissingChunk> missingAt(const Schedule& target, const ChunkRef& ref, int count)
{
  const int available = target.buffers[static_cast<std::size_t>(ref.rank)].chunks(ref.buffer);
  if (ref.index >= 0 && count >= 1 && static_cast<long long>(ref.index) + count <= available)
    return std::nullopt;
  return MissingChunk{ref, count, available};
}

ChunkRef placed(ChunkRef ref, int rankOffset, int ranks)
{
  ref.rank = wrapRank(static_cast<long long>(ref.rank) + rankOffset, ranks);
  return ref;
}

} // namespace

PasteAnchor anchorOf(std::span<const Transfer> selected)
{
  if (selected.empty())
    return {};
  const Transfer& first = *std::min_element(selected.begin(), selected.end(), comesFirst);
  return {first.step, first.src.rank};
}

PasteAnchor duplicateAnchor(std::span<const Transfer> selected)
{
  PasteAnchor at = anchorOf(selected);
  for (const Transfer& t : selected)
    at.step = std::max(at.step, t.step + 1);
  return at;
}

TransferGroup groupOf(const Schedule& schedule, std::span<const Transfer> selected)
{
  TransferGroup group;
  group.ranks = schedule.ranks;
  if (selected.empty() || schedule.ranks < 1)
    return group;
  std::vector<Transfer> ordered(selected.begin(), selected.end());
  std::sort(ordered.begin(), ordered.end(), comesFirst);
  const PasteAnchor origin = anchorOf(ordered);
  for (const Transfer& t : ordered) {
    Transfer relative = t;
    relative.id = static_cast<int>(group.transfers.size());
    relative.step = t.step - origin.step;
    relative.src = placed(t.src, -origin.rank, schedule.ranks);
    relative.dst = placed(t.dst, -origin.rank, schedule.ranks);
    relative.pins.route.clear();
    group.transfers.push_back(relative);
  }
  return group;
}

Placement placeGroup(const Schedule& target, const TransferGroup& group, PasteAnchor at)
{
  Placement placement;
  const int ranks = target.ranks;
  if (ranks < 1 || static_cast<int>(target.buffers.size()) != ranks)
    return placement;
  using Identity = std::tuple<int, ChunkRef, ChunkRef, int, TransferOp>;
  std::map<Identity, int> existing;
  for (const Transfer& t : target.transfers)
    existing.emplace(Identity(t.step, t.src, t.dst, t.count, t.op), t.id);
  for (const Transfer& relative : group.transfers) {
    Transfer t = relative;
    t.id = -1;
    t.step = relative.step + at.step;
    t.src = placed(relative.src, at.rank, ranks);
    t.dst = placed(relative.dst, at.rank, ranks);
    for (const ChunkRef& end : {t.src, t.dst}) {
      if (const std::optional<MissingChunk> missing = missingAt(target, end, t.count)) {
        placement.added.clear();
        placement.existing.clear();
        placement.missing = missing;
        return placement;
      }
    }
    const auto found = existing.find(Identity(t.step, t.src, t.dst, t.count, t.op));
    if (found != existing.end())
      placement.existing.push_back(found->second);
    else
      placement.added.push_back(t);
  }
  return placement;
}

} // namespace cs::editor
