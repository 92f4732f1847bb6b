#include "narration_p.h"

#include <algorithm>

namespace cs::narration {

namespace {

/// Which fields a transfer of this shape states per sender (the others are implied).
std::array<bool, kFields> usedFields(const Transfer& t, const Content& content)
{
  std::array<bool, kFields> used{};
  used[DstRank] = !t.isLocal();
  used[SrcIndex] = true;
  used[DstIndex] = true;
  const bool namesChunk =
      !content.varies && !content.mixed &&
      (content.kind == CellKind::Single ||
       ((content.kind == CellKind::Partial || content.kind == CellKind::Complete) &&
        !content.chunkIsSlot));
  used[ContentChunk] = namesChunk;
  used[ContentRank] = content.kind == CellKind::Single && !content.varies && !content.rankIsSender;
  return used;
}

int fieldValue(const Described& d, Field field)
{
  switch (field) {
  case DstRank:
    return d.transfer->dst.rank;
  case SrcIndex:
    return d.transfer->src.index;
  case DstIndex:
    return d.transfer->dst.index;
  case ContentRank:
    return d.content.rank;
  case ContentChunk:
    return d.content.chunk;
  case kFields:
    break;
  }
  return 0;
}

/// Transfers that may share one sentence: same operation, buffers, size and kind of content.
bool sameKind(const Described& a, const Described& b)
{
  const Transfer& x = *a.transfer;
  const Transfer& y = *b.transfer;
  return x.op == y.op && x.isLocal() == y.isLocal() && x.count == y.count &&
         x.src.buffer == y.src.buffer && x.dst.buffer == y.dst.buffer &&
         a.content.sameShape(b.content);
}

bool inRange(const Transfer& t, int ranks)
{
  return t.src.rank >= 0 && t.src.rank < ranks && t.dst.rank >= 0 && t.dst.rank < ranks;
}

/// Const, or r + c without wrapping around for any member.
bool isPlainShift(const Formula& formula, const std::vector<const Transfer*>& members)
{
  if (formula.form == Form::Const)
    return true;
  return formula.form == Form::Plus &&
         std::all_of(members.begin(), members.end(),
                     [&](const Transfer* t) { return t->src.rank + formula.c < formula.n; });
}

/// The largest group the seed can lead among `pool` (candidates of the seed's kind, ascending
/// sender): every combination of formulas through the seed's fields, the one fitting most
/// senders wins (the simplest on a tie, as formulasThrough() lists simplest first).
Group bestGroup(const Described& seed, const std::vector<const Described*>& pool, int ranks)
{
  const std::array<bool, kFields> used = usedFields(*seed.transfer, seed.content);
  std::array<std::vector<Formula>, kFields> options;
  for (int f = 0; f < kFields; ++f) {
    const int value = fieldValue(seed, static_cast<Field>(f));
    options[f] = used[f] ? formulasThrough(value, seed.transfer->src.rank, ranks)
                         : std::vector<Formula>{Formula{Form::Const, value, 0, ranks}};
  }
  // Per pool entry and field, which of the seed's formulas give its value.
  std::vector<std::array<unsigned, kFields>> fits(pool.size());
  for (std::size_t k = 0; k < pool.size(); ++k)
    for (int f = 0; f < kFields; ++f) {
      fits[k][f] = 0;
      for (std::size_t o = 0; o < options[f].size(); ++o)
        if (!used[f] || options[f][o].evaluate(pool[k]->transfer->src.rank) ==
                            fieldValue(*pool[k], static_cast<Field>(f)))
          fits[k][f] |= 1U << o;
    }
  Group best;
  std::size_t bestSize = 0;
  std::array<std::size_t, kFields> choice{};
  while (true) {
    std::vector<const Transfer*> members;
    int lastSender = -1;
    for (std::size_t k = 0; k < pool.size(); ++k) {
      const int sender = pool[k]->transfer->src.rank;
      bool fitsAll = sender != lastSender;
      for (int f = 0; f < kFields && fitsAll; ++f)
        fitsAll = (fits[k][f] >> choice[f]) & 1U;
      if (fitsAll) {
        members.push_back(pool[k]->transfer);
        lastSender = sender;
      }
    }
    // Two points fit almost any formula: a pair is one sentence only under a plain shift.
    bool plain = true;
    for (int f = 0; f < kFields && members.size() == 2; ++f)
      plain = plain && isPlainShift(options[f][choice[f]], members);
    if (members.size() > bestSize && (members.size() != 2 || plain)) {
      bestSize = members.size();
      best.members = std::move(members);
      for (int f = 0; f < kFields; ++f)
        best.formulas[f] = options[f][choice[f]];
    }
    int f = 0;
    while (f < kFields && ++choice[f] == options[f].size())
      choice[f++] = 0;
    if (f == kFields)
      break;
  }
  best.content = seed.content;
  return best;
}

Group singleton(const Described& d, int ranks)
{
  Group group;
  group.members = {d.transfer};
  for (int f = 0; f < kFields; ++f)
    group.formulas[f] = Formula{Form::Const, fieldValue(d, static_cast<Field>(f)), 0, ranks};
  group.content = d.content;
  return group;
}

} // namespace

bool Content::sameShape(const Content& o) const
{
  return kind == o.kind && contributions == o.contributions && total == o.total &&
         mixed == o.mixed && varies == o.varies && rankPerChunk == o.rankPerChunk &&
         chunkIsSlot == o.chunkIsSlot && rankIsSender == o.rankIsSender;
}

std::vector<Group> groupTransfers(std::vector<Described> transfers, int ranks)
{
  std::stable_sort(transfers.begin(), transfers.end(), [](const Described& a, const Described& b) {
    return a.transfer->src.rank != b.transfer->src.rank
               ? a.transfer->src.rank < b.transfer->src.rank
               : a.transfer->id < b.transfer->id;
  });
  std::vector<bool> done(transfers.size(), false);
  std::vector<Group> groups;
  for (std::size_t s = 0; s < transfers.size(); ++s) {
    if (done[s])
      continue;
    const Described& seed = transfers[s];
    if (!inRange(*seed.transfer, ranks)) {
      done[s] = true;
      groups.push_back(singleton(seed, ranks));
      continue;
    }
    std::vector<const Described*> pool;
    std::vector<std::size_t> poolIndex;
    for (std::size_t k = s; k < transfers.size(); ++k)
      if (!done[k] && inRange(*transfers[k].transfer, ranks) && sameKind(seed, transfers[k])) {
        pool.push_back(&transfers[k]);
        poolIndex.push_back(k);
      }
    Group group = bestGroup(seed, pool, ranks);
    for (std::size_t k = 0; k < pool.size(); ++k)
      if (std::find(group.members.begin(), group.members.end(), pool[k]->transfer) !=
          group.members.end())
        done[poolIndex[k]] = true;
    groups.push_back(std::move(group));
  }
  return groups;
}

} // namespace cs::narration
