#include "predict.h"

#include <algorithm>

namespace cs {

namespace {

/// The words for a sum of `chunk` over `ranks` (ascending, distinct).
std::string contributionText(const std::vector<int>& ranks, int chunk, int rankCount)
{
  if (ranks.empty())
    return "empty";
  const std::string chunkName = "chunk " + std::to_string(chunk);
  if (ranks.size() == 1)
    return "rank " + std::to_string(ranks.front()) + "'s " + chunkName;
  if (static_cast<int>(ranks.size()) == rankCount)
    return chunkName + " from all " + std::to_string(rankCount) + " ranks";
  std::string text = chunkName + " from ranks ";
  for (std::size_t i = 0; i < ranks.size(); ++i)
    text += (i ? ", " : "") + std::to_string(ranks[i]);
  return text;
}

/// Whether a value is a plain sum of one chunk that the options can vary.
bool isPlainSum(const CellSummary& summary)
{
  return summary.chunk >= 0 && !summary.ranks.empty() &&
         (summary.kind == CellKind::Single || summary.kind == CellKind::Partial ||
          summary.kind == CellKind::Complete);
}

/// The wrong options for a plain sum: a neighbour's contributions, one short, one too many.
std::vector<std::string> variations(const CellSummary& after, const CellSummary& before,
                                    int rankCount)
{
  std::vector<std::string> texts;
  const std::vector<int>& ranks = after.ranks;
  std::vector<int> shifted;
  for (const int rank : ranks)
    shifted.push_back((rank + 1) % rankCount);
  std::sort(shifted.begin(), shifted.end());
  texts.push_back(contributionText(shifted, after.chunk, rankCount));
  if (ranks.size() >= 2) {
    // The newest contribution is the one a student forgets: in the sum now, not before.
    int newest = ranks.back();
    for (const int rank : ranks) {
      if (!std::binary_search(before.ranks.begin(), before.ranks.end(), rank))
        newest = rank;
    }
    std::vector<int> shorter;
    std::copy_if(ranks.begin(), ranks.end(), std::back_inserter(shorter),
                 [&](int rank) { return rank != newest; });
    texts.push_back(contributionText(shorter, after.chunk, rankCount));
  }
  for (int rank = 0; rank < rankCount; ++rank) {
    if (std::binary_search(ranks.begin(), ranks.end(), rank))
      continue;
    std::vector<int> more = ranks;
    more.insert(std::lower_bound(more.begin(), more.end(), rank), rank);
    texts.push_back(contributionText(more, after.chunk, rankCount));
    break;
  }
  return texts;
}

PredictCell makeCell(const ChunkStates& states, int row, int step)
{
  PredictCell cell;
  cell.row = row;
  cell.ref = states.rows()[static_cast<std::size_t>(row)].ref;
  cell.before = cellContent(states, row, step);
  cell.answer = cellContent(states, row, step + 1);
  std::vector<std::string> candidates{cell.answer, cell.before};
  const CellSummary& after = states.summary(states.value(row, step + 1));
  if (isPlainSum(after)) {
    const CellSummary& before = states.summary(states.value(row, step));
    for (std::string& text : variations(after, before, states.ranks()))
      candidates.push_back(std::move(text));
  }
  for (std::string& text : candidates) {
    if (std::find(cell.options.begin(), cell.options.end(), text) == cell.options.end())
      cell.options.push_back(std::move(text));
  }
  // The right answer must not always be first: rotate by a fixed amount per cell, so a round
  // replays the same way.
  const auto turn =
      static_cast<std::ptrdiff_t>(static_cast<std::size_t>(row + step) % cell.options.size());
  std::rotate(cell.options.begin(), cell.options.begin() + turn, cell.options.end());
  return cell;
}

} // namespace

std::string cellContent(const ChunkStates& states, int row, int column)
{
  const CellSummary& summary = states.summary(states.value(row, column));
  if (summary.kind == CellKind::Uninitialised)
    return "empty";
  if (!isPlainSum(summary))
    return states.label(row, column);
  return contributionText(summary.ranks, summary.chunk, states.ranks());
}

PredictRound predictRound(const ChunkStates& states, int step)
{
  PredictRound round;
  round.step = step;
  if (step < 0 || step >= states.stepCount() || !states.computed(step + 1))
    return round;
  for (int row = 0; row < states.rowCount(); ++row) {
    const int twin = states.rows()[static_cast<std::size_t>(row)].sharesWith;
    if (twin >= 0 && twin < row)
      continue; // the same memory is asked for once, at its first row
    if (states.changed(row, step + 1))
      round.cells.push_back(makeCell(states, row, step));
  }
  return round;
}

RoundResult scoreRound(const PredictRound& round, const std::vector<PredictAnswer>& answers)
{
  RoundResult result;
  result.step = round.step;
  for (const PredictCell& cell : round.cells) {
    CellVerdict verdict;
    verdict.row = cell.row;
    verdict.answer = cell.answer;
    for (const PredictAnswer& answer : answers) {
      if (answer.row == cell.row)
        verdict.given = answer.choice;
    }
    verdict.right = verdict.given == cell.answer;
    result.right += verdict.right ? 1 : 0;
    ++result.total;
    result.cells.push_back(std::move(verdict));
  }
  return result;
}

void PredictRun::add(RoundResult result)
{
  const auto same = std::find_if(m_rounds.begin(), m_rounds.end(),
                                 [&](const RoundResult& r) { return r.step == result.step; });
  if (same != m_rounds.end())
    *same = std::move(result);
  else
    m_rounds.push_back(std::move(result));
}

int PredictRun::right() const
{
  int sum = 0;
  for (const RoundResult& round : m_rounds)
    sum += round.right;
  return sum;
}

int PredictRun::total() const
{
  int sum = 0;
  for (const RoundResult& round : m_rounds)
    sum += round.total;
  return sum;
}

int PredictRun::percent() const
{
  return total() == 0 ? 0 : right() * 100 / total();
}

} // namespace cs
