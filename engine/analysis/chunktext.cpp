#include "chunkstates.h"

#include "check/schedulestates.h"

#include <algorithm>

namespace cs {

namespace {

/// "02", "0-3", "0-2,5", "10,11": ranks written as compactly as stays unambiguous. Digits run
/// together only while every rank is a single digit and no range needs a dash.
std::string rankSetText(const std::vector<int>& ranks)
{
  std::vector<std::string> pieces;
  bool separated = false;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
      ++j;
    if (j - i >= 2) {
      pieces.push_back(std::to_string(ranks[i]) + "-" + std::to_string(ranks[j]));
      separated = true;
      i = j + 1;
    } else {
      separated = separated || ranks[i] >= 10;
      pieces.push_back(std::to_string(ranks[i]));
      ++i;
    }
  }
  std::string text;
  for (std::size_t i = 0; i < pieces.size(); ++i)
    text += (i > 0 && separated ? "," : "") + pieces[i];
  return text;
}

/// The ranks part of a sum's label, or "k/n" when listing them would not fit a cell.
std::string sumRanksText(const std::vector<int>& ranks, int totalRanks)
{
  constexpr std::size_t kMaxRankText = 7;
  std::string text = rankSetText(ranks);
  if (text.size() > kMaxRankText)
    text = std::to_string(ranks.size()) + "/" + std::to_string(totalRanks);
  return text;
}

} // namespace

void ChunkStates::summarise(CellValue value) const
{
  m_summarised[value] = 1;
  const TokenEntries entries = m_states->store.entries(value);
  if (entries.empty())
    return;
  CellSummary& s = m_summaries[value];
  bool mixed = false;
  for (const TokenCount& entry : entries) {
    const int rank = m_tokenRank[entry.token];
    const int chunk = m_tokenChunk[entry.token];
    if (s.ranks.empty() || s.ranks.back() != rank)
      s.ranks.push_back(rank);
    if (s.chunk < 0 && !mixed) {
      s.chunk = chunk;
    } else if (s.chunk != chunk) {
      mixed = true;
      s.chunk = -1;
    }
    s.maxCount = std::max(s.maxCount, entry.count);
  }
  // Tokens are rank-major, so with mixed chunks a rank can appear twice in a row: dedupe.
  s.ranks.erase(std::unique(s.ranks.begin(), s.ranks.end()), s.ranks.end());
  if (mixed || s.maxCount > 1)
    s.kind = CellKind::Wrong;
  else if (entries.size() == 1)
    s.kind = CellKind::Single;
  else if (static_cast<int>(entries.size()) == m_holders[static_cast<std::size_t>(s.chunk)])
    s.kind = CellKind::Complete;
  else
    s.kind = CellKind::Partial;
}

std::string ChunkStates::label(int row, int column) const
{
  const CellSummary& s = summary(value(row, column));
  const int natural = m_rows[static_cast<std::size_t>(row)].naturalChunk;
  const std::string chunkSuffix =
      s.chunk >= 0 && s.chunk != natural ? "·c" + std::to_string(s.chunk) : std::string();
  switch (s.kind) {
  case CellKind::Uninitialised:
    return {};
  case CellKind::Single:
    return "r" + std::to_string(s.ranks.front()) + chunkSuffix;
  case CellKind::Complete:
    return "Σ all" + chunkSuffix;
  case CellKind::Partial:
    return "Σ" + sumRanksText(s.ranks, m_ranks) + chunkSuffix;
  case CellKind::Wrong:
    if (s.chunk < 0)
      return "Σ" + sumRanksText(s.ranks, m_ranks) + "·mix!";
    return "Σ" + sumRanksText(s.ranks, m_ranks) + "×" + std::to_string(s.maxCount) + "!";
  }
  return {};
}

std::string ChunkStates::fullText(int row, int column) const
{
  const CellValue v = value(row, column);
  const CellSummary& s = summary(v);
  if (s.kind == CellKind::Uninitialised)
    return "uninitialised: nothing has been written here yet";
  std::string text = formatValue(m_states->store, m_states->tokens, v);
  std::string ranks;
  for (std::size_t i = 0; i < s.ranks.size() && i < 16; ++i)
    ranks += (i > 0 ? ", " : "") + std::to_string(s.ranks[i]);
  if (s.ranks.size() > 16)
    ranks += ", …";
  switch (s.kind) {
  case CellKind::Uninitialised:
    break;
  case CellKind::Single:
    text += ": rank " + ranks + "'s own contribution";
    break;
  case CellKind::Partial:
    text += ": partial sum of ranks " + ranks + " (" + std::to_string(s.ranks.size()) + " of " +
            std::to_string(m_holders[static_cast<std::size_t>(s.chunk)]) + ")";
    break;
  case CellKind::Complete:
    text += ": complete, every rank's c" + std::to_string(s.chunk) + " summed exactly once";
    break;
  case CellKind::Wrong: {
    if (s.chunk < 0) {
      text += ": wrong, contributions of different chunks are summed together";
      break;
    }
    std::vector<std::string> repeated;
    for (const TokenCount& entry : m_states->store.entries(v))
      if (entry.count > 1)
        repeated.push_back(formatToken(m_states->tokens, entry.token) + " " +
                           std::to_string(entry.count) + " times");
    text += ": wrong, double counted (";
    for (std::size_t i = 0; i < repeated.size() && i < 4; ++i)
      text += (i > 0 ? ", " : "") + repeated[i];
    if (repeated.size() > 4)
      text += ", …";
    text += ")";
    break;
  }
  }
  return text;
}

} // namespace cs
