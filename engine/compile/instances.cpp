// Instances (msccl-format §8.3 step 7): the whole program replicated, each copy on its own
// threadblocks, channels and interleaved chunks, so one algorithm drives more channels.

#include "lowerplan_p.h"

#include <algorithm>

namespace cs::lowering {

Schedule splitIntoPieces(const Schedule& schedule, int limit,
                         std::unordered_map<int, int>& originalId)
{
  Schedule out = schedule;
  out.transfers.clear();
  int fresh = schedule.nextTransferId();
  int pieces = 0;
  for (const Transfer& t : schedule.transfers) {
    originalId[t.id] = t.id;
    pieces = std::max(pieces, (t.count + limit - 1) / limit);
  }
  // Piece-major ids: piece c of every transfer before piece c+1 of any, so the rounds of a step
  // (lowerplan_p.h) alternate between the transfers that share a connection.
  for (int c = 0; c < pieces; ++c) {
    for (const Transfer& t : schedule.transfers) {
      const int first = c * limit;
      if (first >= t.count)
        continue;
      Transfer piece = t;
      piece.count = std::min(limit, t.count - first);
      piece.src.index += first;
      piece.dst.index += first;
      if (c > 0) {
        piece.id = fresh++;
        originalId[piece.id] = t.id;
      }
      out.transfers.push_back(piece);
    }
  }
  return out;
}

Program replicateInstances(const Program& program, int instances,
                           std::vector<InstructionOrigin>& origins)
{
  if (instances <= 1)
    return program;
  const int n = instances;
  Program out = program;
  out.nchannels = program.nchannels * n;
  out.nchunksperloop = program.nchunksperloop * n;
  const auto chunk = [n](int x, int i) { return x < 0 ? x : x * n + i; };
  for (Gpu& gpu : out.gpus) {
    gpu.inputChunks *= n;
    gpu.outputChunks *= n;
    gpu.scratchChunks *= n;
    std::vector<ThreadBlock> replicated(gpu.threadblocks.size() * static_cast<std::size_t>(n));
    for (const ThreadBlock& tb : gpu.threadblocks) {
      for (int i = 0; i < n; ++i) {
        ThreadBlock copy = tb;
        copy.id = tb.id * n + i;
        copy.chan = program.nchannels * i + tb.chan;
        for (Step& step : copy.steps) {
          step.srcOff = chunk(step.srcOff, i);
          step.dstOff = chunk(step.dstOff, i);
          if (step.depid >= 0)
            step.depid = step.depid * n + i;
        }
        replicated[static_cast<std::size_t>(copy.id)] = std::move(copy);
      }
    }
    gpu.threadblocks = std::move(replicated);
  }
  std::vector<InstructionOrigin> more;
  more.reserve(origins.size() * static_cast<std::size_t>(n));
  for (const InstructionOrigin& o : origins) {
    for (int i = 0; i < n; ++i) {
      InstructionOrigin copy = o;
      copy.tb = o.tb * n + i;
      copy.instance = i;
      more.push_back(copy);
    }
  }
  origins = std::move(more);
  return out;
}

} // namespace cs::lowering
