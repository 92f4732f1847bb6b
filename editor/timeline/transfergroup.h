#pragma once

// Copy, paste and duplicate on the timeline (issue 17, item 6), without the clipboard: a group of
// transfers made relative to its origin, and the group placed again at another step and rank.
// Qt-free; transferclipboard.h carries a group through QClipboard and timelineclipboard.cpp
// wraps a placement in one undoable command.
//
// The origin of a group is its first transfer: the earliest step, and among that step's
// transfers the lowest source rank. Placing the group at (step, rank) moves every transfer by
// the same step offset and the same rank offset, ranks wrapping modulo the target's rank count as
// Replicate does (replicate.h); buffers and chunk indices stay as they were.

#include "model/schedule.h"

#include <optional>
#include <span>
#include <vector>

namespace cs::editor {

/// Transfers relative to their group's origin: steps counted from the first step, ranks from
/// the first transfer's source rank, wrapped into 0 .. ranks-1 (a valid Schedule's ranks).
struct TransferGroup {
  int ranks = 0;                   ///< rank count of the Schedule the group was copied from
  std::vector<Transfer> transfers; ///< ids 0 .. n-1 in (step, source rank, id) order
  bool operator==(const TransferGroup&) const = default;
};

/// Where a group's origin goes: its first transfer's step and source rank.
struct PasteAnchor {
  int step = 0;
  int rank = 0;
  bool operator==(const PasteAnchor&) const = default;
};

/// The group of `selected`, copied from `schedule` (whose rank count wraps the ranks). Route
/// pins name the source's topology links and are dropped; channel and threadblock pins stay.
TransferGroup groupOf(const Schedule& schedule, std::span<const Transfer> selected);

/// The origin of `selected` itself (placing its group there puts every transfer back).
PasteAnchor anchorOf(std::span<const Transfer> selected);

/// Where Duplicate puts `selected`: on the same ranks, starting right after its last step.
PasteAnchor duplicateAnchor(std::span<const Transfer> selected);

/// A chunk a placed transfer would read or write that `rank` does not have.
struct MissingChunk {
  ChunkRef first;    ///< the first slot of the transfer's range on the target rank
  int count = 1;     ///< slots the transfer covers from `first`
  int available = 0; ///< chunks that buffer has on that rank
};

/// The outcome of placing a group: either the transfers to add or why there are none.
struct Placement {
  /// New transfers (id -1: AddTransfersCommand assigns ids), in the group's order.
  std::vector<Transfer> added;
  /// Ids of transfers already in the target that a placed one would repeat (same step, source,
  /// destination, count and operation): not added again, but selected with the pasted ones.
  std::vector<int> existing;
  /// Set when a placed transfer needs a chunk the target lacks: then `added` is empty and
  /// nothing may change.
  std::optional<MissingChunk> missing;
};

/// Places `group` with its origin at `at` in `target`. Steps past the target's last step are
/// new steps. Never adds a transfer whose chunks do not exist on its ranks (see missing).
Placement placeGroup(const Schedule& target, const TransferGroup& group, PasteAnchor at);

} // namespace cs::editor
