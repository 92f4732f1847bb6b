#include "exercisecandidates_p.h"

#include <algorithm>
#include <cstdlib>
#include <tuple>

namespace cs::teach {

namespace {

/// Rank 1 first, then 2, 3, …, rank 0 last.
int rankPreference(int rank, int ranks)
{
  return rank >= 1 ? rank - 1 : ranks;
}

/// The transfers in the order they are tried: between ranks before local ones, nearest the
/// middle step first, the preferred source rank first, then by id.
std::vector<const Transfer*> orderedTransfers(const Schedule& schedule)
{
  std::vector<const Transfer*> ordered;
  for (const Transfer& transfer : schedule.transfers)
    ordered.push_back(&transfer);
  const int middle = (schedule.stepCount() - 1) / 2;
  const auto key = [&](const Transfer* t) {
    return std::make_tuple(t->isLocal(), std::abs(t->step - middle),
                           rankPreference(t->src.rank, schedule.ranks), t->id);
  };
  std::sort(ordered.begin(), ordered.end(),
            [&](const Transfer* a, const Transfer* b) { return key(a) < key(b); });
  return ordered;
}

/// The source index a wrong-chunk edit reads instead: the next block of `count` chunks, or the
/// previous one at the end of the buffer; nullopt when the buffer has no other block.
std::optional<int> neighbourIndex(const Schedule& schedule, const Transfer& transfer)
{
  const ChunkRef& src = transfer.src;
  if (src.rank < 0 || src.rank >= static_cast<int>(schedule.buffers.size()))
    return std::nullopt;
  const int chunks = schedule.buffers[static_cast<std::size_t>(src.rank)].chunks(src.buffer);
  if (src.index + 2 * transfer.count <= chunks)
    return src.index + transfer.count;
  if (src.index - transfer.count >= 0)
    return src.index - transfer.count;
  return std::nullopt;
}

/// Ranks in preference order.
std::vector<const Gpu*> orderedGpus(const Program& program)
{
  std::vector<const Gpu*> ordered;
  for (const Gpu& gpu : program.gpus)
    ordered.push_back(&gpu);
  std::stable_sort(ordered.begin(), ordered.end(), [&](const Gpu* a, const Gpu* b) {
    return rankPreference(a->id, program.ngpus) < rankPreference(b->id, program.ngpus);
  });
  return ordered;
}

/// Whether two instructions move the same data the same way (positions and flags aside).
bool sameMove(const Step& a, const Step& b)
{
  return a.type == b.type && a.srcBuf == b.srcBuf && a.srcOff == b.srcOff && a.dstBuf == b.dstBuf &&
         a.dstOff == b.dstOff && a.cnt == b.cnt;
}

/// At most one edit per threadblock, `change` proposing the threadblock's new instructions, over
/// the ranks in preference order until `limit` edits are found.
template <typename Change>
std::vector<ExerciseEdit> perThreadblock(const Program& program, int limit, Change change)
{
  std::vector<ExerciseEdit> edits;
  for (const Gpu* gpu : orderedGpus(program)) {
    for (const ThreadBlock& tb : gpu->threadblocks) {
      if (static_cast<int>(edits.size()) >= limit)
        return edits;
      if (std::optional<std::vector<Step>> after = change(tb)) {
        ExerciseEdit edit;
        edit.instructions = InstructionEdit{gpu->id, tb.id, tb.steps, std::move(*after)};
        edits.push_back(std::move(edit));
      }
    }
  }
  return edits;
}

} // namespace

std::vector<ExerciseEdit> transferCandidates(const Schedule& schedule, ExerciseKind kind, int limit)
{
  std::vector<ExerciseEdit> edits;
  for (const Transfer* transfer : orderedTransfers(schedule)) {
    if (static_cast<int>(edits.size()) >= limit)
      break;
    ExerciseEdit edit;
    const auto position = static_cast<int>(transfer - schedule.transfers.data());
    if (kind == ExerciseKind::RemoveTransfer) {
      edit.transfer = TransferEdit{*transfer, std::nullopt, position};
    } else {
      const std::optional<int> index = neighbourIndex(schedule, *transfer);
      if (!index)
        continue;
      Transfer wrong = *transfer;
      wrong.src.index = *index;
      edit.transfer = TransferEdit{*transfer, wrong, position};
    }
    edits.push_back(std::move(edit));
  }
  return edits;
}

std::vector<ExerciseEdit> swapCandidates(const Program& program, int limit)
{
  return perThreadblock(program, limit,
                        [](const ThreadBlock& tb) -> std::optional<std::vector<Step>> {
                          // The first two neighbouring sends of the threadblock that move different
                          // data.
                          std::optional<std::size_t> previous;
                          for (std::size_t position = 0; position < tb.steps.size(); ++position) {
                            if (!opTraits(tb.steps[position].type).sends)
                              continue;
                            if (previous && !sameMove(tb.steps[*previous], tb.steps[position])) {
                              std::vector<Step> after = tb.steps;
                              std::swap(after[*previous], after[position]);
                              std::swap(after[*previous].s, after[position].s);
                              std::swap(after[*previous].hasdep, after[position].hasdep);
                              return after;
                            }
                            previous = position;
                          }
                          return std::nullopt;
                        });
}

std::vector<ExerciseEdit> dependencyCandidates(const Program& program, int limit)
{
  return perThreadblock(
      program, limit, [](const ThreadBlock& tb) -> std::optional<std::vector<Step>> {
        // Its first dependency, the one a student meets first. A nop only carries dependencies:
        // without its own, it is a lint finding, not a bug.
        for (std::size_t position = 0; position < tb.steps.size(); ++position) {
          if (!tb.steps[position].hasDependency() || tb.steps[position].type == OpType::Nop)
            continue;
          std::vector<Step> after = tb.steps;
          after[position].depid = -1;
          after[position].deps = -1;
          return after;
        }
        return std::nullopt;
      });
}

} // namespace cs::teach
