#pragma once

// What is selected, shared by every view so a click on the timeline highlights the same transfer
// in the program view and the inspector. Not part of the undo history. The document prunes it
// after every edit (what an edit or an undo removed is no longer selected), and the main window
// keeps only the part the current tab shows (selectionShownBy), so the Inspector always shows
// something the user can see selected, or says that nothing is.

#include "model/schedule.h"

#include <compare>
#include <cstddef>
#include <optional>
#include <set>

namespace cs::editor {

/// A position in the Program: (rank, threadblock id, index in the threadblock's steps).
struct InstructionRef {
  int rank = 0;
  int tb = 0;
  int step = 0;
  auto operator<=>(const InstructionRef&) const = default;
};

/// A timeline cell: a chunk slot in a column (0 = before step 0, c = after step c-1). Selected by
/// a problem about a chunk's value (a wrong result) rather than about a transfer.
struct CellRef {
  ChunkRef slot;
  int column = 0;
  bool operator==(const CellRef&) const = default;
};

struct Selection {
  std::set<int> transfers; ///< transfer ids
  std::set<int> nodes;     ///< topology node ids
  std::set<int> links;     ///< topology link ids
  std::optional<InstructionRef> instruction;
  std::optional<CellRef> cell; ///< the timeline's current cell, when a problem pointed at one

  bool empty() const
  {
    return transfers.empty() && nodes.empty() && links.empty() && !instruction && !cell;
  }
  bool operator==(const Selection&) const = default;
};

/// The tabs' kinds of selection: the topology shows nodes and links, the timeline and the program
/// transfers, instructions and cells.
enum class SelectionScope { Topology, Algorithm };

/// The part of `selection` a tab of `scope` shows; the rest is dropped when that tab comes forward.
Selection selectionShownBy(const Selection& selection, SelectionScope scope);

} // namespace cs::editor
