#pragma once

// What is selected, shared by every view so a click on the timeline highlights the same transfer
// in the program view and the inspector. Not part of the undo history.

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

struct Selection {
  std::set<int> transfers; ///< transfer ids
  std::set<int> nodes;     ///< topology node ids
  std::set<int> links;     ///< topology link ids
  std::optional<InstructionRef> instruction;

  bool empty() const { return transfers.empty() && nodes.empty() && links.empty() && !instruction; }
  bool operator==(const Selection&) const = default;
};

} // namespace cs::editor
