#include "narration_p.h"

namespace cs::narration {

namespace {

std::vector<int> senders(const Group& group)
{
  std::vector<int> ranks;
  for (const Transfer* t : group.members)
    ranks.push_back(t->src.rank);
  return ranks;
}

/// "every rank r", "each rank r in 0–3", "each rank r in {0, 2, 5}" or "rank 5".
std::string whoText(const std::vector<int>& ranks, int totalRanks)
{
  if (ranks.size() == 1)
    return "rank " + std::to_string(ranks.front());
  const bool contiguous = ranks.back() - ranks.front() + 1 == static_cast<int>(ranks.size());
  if (contiguous && ranks.front() == 0 && ranks.back() == totalRanks - 1)
    return "every rank r";
  if (contiguous)
    return "each rank r in " + std::to_string(ranks.front()) + "\u2013" +
           std::to_string(ranks.back());
  std::string text = "each rank r in {";
  for (std::size_t i = 0; i < ranks.size(); ++i)
    text += (i > 0 ? ", " : "") + std::to_string(ranks[i]);
  return text + "}";
}

/// "i[(r+1) mod 4]", "i[4..7]" or "2 chunks from i[r XOR 2]".
std::string slotText(Buffer buffer, const Formula& index, int count, const std::vector<int>& ranks)
{
  const std::string letter(1, bufferLetter(buffer));
  const std::string first = formulaText(index, ranks);
  if (count == 1)
    return letter + "[" + first + "]";
  if (index.form == Form::Const || ranks.size() == 1) {
    const int start = index.evaluate(ranks.front());
    return letter + "[" + std::to_string(start) + ".." + std::to_string(start + count - 1) + "]";
  }
  return std::to_string(count) + " chunks from " + letter + "[" + first + "]";
}

std::string contentText(const Group& group, const std::vector<int>& ranks)
{
  const Content& c = group.content;
  const std::string chunk = formulaText(group.formulas[ContentChunk], ranks);
  if (c.varies)
    return "contents that differ from chunk to chunk";
  switch (c.kind) {
  case CellKind::Uninitialised:
    return "nothing yet (uninitialised)";
  case CellKind::Single:
    if (c.rankPerChunk)
      return "the inputs i[" + chunk + "] of ranks " +
             formulaText(group.formulas[ContentRank], ranks) + " onward (one rank per chunk)";
    if (c.rankIsSender)
      return "its own input i[" + chunk + "]";
    return "the input i[" + chunk + "] of rank " + formulaText(group.formulas[ContentRank], ranks);
  case CellKind::Partial:
    return std::to_string(c.contributions) + " of the " + std::to_string(c.total) +
           " contributions" + (c.chunkIsSlot ? "" : " of chunk " + chunk);
  case CellKind::Complete:
    return "the fully reduced chunk" + (c.chunkIsSlot ? "" : " " + chunk);
  case CellKind::Wrong:
    return c.mixed ? "a wrong value (chunks mixed)" : "a wrong value (double counted)";
  }
  return {};
}

/// The content of one slot, with its chunk made relative to the slot (`offset` chunks in).
Content slotContent(const ChunkStates& states, const ChunkRef& slot, int offset, int column,
                    const std::vector<int>& holders)
{
  Content content;
  const int row = states.rowOf(slot);
  if (row < 0)
    return content;
  const CellSummary& s = states.summary(states.value(row, column));
  content.kind = s.kind;
  content.contributions = static_cast<int>(s.ranks.size());
  content.chunk = s.chunk < 0 ? -1 : s.chunk - offset;
  content.mixed = s.kind == CellKind::Wrong && s.chunk < 0;
  if (s.chunk >= 0 && static_cast<std::size_t>(s.chunk) < holders.size())
    content.total = holders[static_cast<std::size_t>(s.chunk)];
  if (s.kind == CellKind::Single)
    content.rank = s.ranks.front();
  return content;
}

} // namespace

std::string groupSentence(const Group& group, int ranks)
{
  const std::vector<int> who = senders(group);
  const Transfer& t = *group.members.front();
  const bool reduce = t.op == TransferOp::Reduce;
  const std::string source = slotText(t.src.buffer, group.formulas[SrcIndex], t.count, who);
  const std::string target = slotText(t.dst.buffer, group.formulas[DstIndex], t.count, who);
  const bool each = t.count > 1 && !group.content.rankPerChunk;
  const std::string holding =
      std::string(each ? "each " : "") + "holding " + contentText(group, who);
  if (t.isLocal())
    return whoText(who, ranks) + (reduce ? " adds " : " copies ") + source + ", " + holding +
           ", into its own " + target + ".";
  return whoText(who, ranks) + " sends " + source + ", " + holding + ", to rank " +
         formulaText(group.formulas[DstRank], who) + ", which " +
         (reduce ? "adds it to its " : "stores it in its ") + target + ".";
}

Content describeSource(const ChunkStates& states, const Transfer& transfer, int column,
                       const std::vector<int>& holders)
{
  Content content = slotContent(states, transfer.src, 0, column, holders);
  bool uniform = true;
  bool rankPerChunk = transfer.count > 1 && content.kind == CellKind::Single;
  for (int j = 1; j < transfer.count && (uniform || rankPerChunk); ++j) {
    ChunkRef slot = transfer.src;
    slot.index += j;
    const Content next = slotContent(states, slot, j, column, holders);
    uniform = uniform && next.sameShape(content) && next.rank == content.rank &&
              next.chunk == content.chunk;
    // slotContent() made the chunk relative to the slot: j less than the absolute one.
    rankPerChunk = rankPerChunk && next.kind == CellKind::Single && next.rank == content.rank + j &&
                   next.chunk + j == content.chunk;
  }
  content.rankPerChunk = !uniform && rankPerChunk;
  content.varies = !uniform && !rankPerChunk;
  content.chunkIsSlot = content.chunk >= 0 && content.chunk == transfer.src.index;
  content.rankIsSender = content.kind == CellKind::Single && !content.rankPerChunk &&
                         content.rank == transfer.src.rank;
  return content;
}

} // namespace cs::narration
