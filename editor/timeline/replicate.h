#pragma once

// "Apply to every rank, shifted by k": how a ring is drawn in seconds. Draw one rank's transfers,
// select them, replicate with k = 1 and the chunk indices shifted along, and every rank does the
// same with its neighbour. Qt-free; the timeline wraps the result in one undoable command.

#include "model/schedule.h"

#include <span>
#include <vector>

namespace cs::editor {

struct ReplicateOptions {
  int shift = 1;           ///< k: the copy number r moves ranks by r·k (mod ranks)
  bool shiftChunks = true; ///< also move chunk indices by r·k (mod each buffer's chunk count)
};

/// The copies of `selected` for r = 1, 2, … until the rank shift r·k comes back to 0 (ranks - 1
/// copies when k and the rank count are coprime): src.rank and dst.rank += r·k (mod ranks) and,
/// with shiftChunks, src.index and dst.index += r·k (mod the chunk count of that buffer on the
/// new rank; buffers without chunks keep the index). Copies keep step, count, op and the channel
/// and threadblock pins; a route pin names topology links and is dropped. Copies that would repeat
/// a transfer of `schedule` or an earlier copy (same step, src, dst, count, op) are left out, so
/// replicating twice adds nothing. New transfers have id -1 (AddTransfersCommand assigns ids).
std::vector<Transfer> replicateTransfers(const Schedule& schedule,
                                         std::span<const Transfer> selected,
                                         const ReplicateOptions& options);

} // namespace cs::editor
