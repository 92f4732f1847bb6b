#pragma once

// Internals of the narration (narration.h): formulas in the sender's rank r, the content of a
// transfer's source, groups of transfers that follow one rule, and their sentences.

#include "analysis/chunkstates.h"
#include "model/schedule.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace cs::narration {

/// How a value follows the sender's rank r, with n = ranks:
/// Const: value; Plus: base + (r + c) mod n; Minus: base + (c - r) mod n; Xor: base + (r XOR c).
enum class Form : std::uint8_t { Const, Plus, Minus, Xor };

struct Formula {
  Form form = Form::Const;
  int base = 0; ///< a multiple of n for the rank-relative forms; the value for Const
  int c = 0;
  int n = 1;

  int evaluate(int r) const;
};

/// The formulas of each form that give `value` at rank `r` (Const first, simplest first).
std::vector<Formula> formulasThrough(int value, int r, int n);

/// The text of `formula` for the senders `ranks` (ascending): "r+1" when no sender wraps around,
/// "(r+1) mod 4" when some do, the value itself for one sender.
std::string formulaText(const Formula& formula, const std::vector<int>& ranks);

/// What the source of a transfer holds before its step, in terms that compare across senders.
struct Content {
  CellKind kind = CellKind::Uninitialised;
  int contributions = 0; ///< distinct contributing ranks
  int total = 0;         ///< ranks that hold the chunk summed (a complete sum's size)
  int rank = -1;         ///< Single: the contributing rank
  int chunk = -1;        ///< the input chunk summed (of the first slot), -1 when mixed
  bool mixed = false;    ///< Wrong: chunks mixed rather than double counted
  bool varies = false;   ///< several slots whose contents differ beyond their index
  /// Several slots holding single inputs of the same chunk from consecutive ranks (rank + j in
  /// slot j), as all-gather blocks do.
  bool rankPerChunk = false;
  bool chunkIsSlot = false;  ///< the chunk summed is the slot's own index
  bool rankIsSender = false; ///< Single: the sender's own contribution

  bool sameShape(const Content& other) const;
};

/// The fields a group's rule gives per sender.
enum Field : std::uint8_t { DstRank, SrcIndex, DstIndex, ContentRank, ContentChunk, kFields };

/// One or more transfers of a step that follow one rule in the sender's rank.
struct Group {
  std::vector<const Transfer*> members; ///< ascending sender rank, one transfer per sender
  std::array<Formula, kFields> formulas;
  Content content; ///< the shape every member's source shares
};

/// A transfer with the content of its source.
struct Described {
  const Transfer* transfer = nullptr;
  Content content;
};

/// Partitions one step's transfers into groups; every transfer lands in exactly one group.
std::vector<Group> groupTransfers(std::vector<Described> transfers, int ranks);

/// The sentence of a group (grammar in narration.h).
std::string groupSentence(const Group& group, int ranks);

/// The content of `transfer`'s source in `column` of `states` (before the transfer's step).
Content describeSource(const ChunkStates& states, const Transfer& transfer, int column,
                       const std::vector<int>& holders);

/// The goal sentences: what the collective must achieve, and per step what changed (empty where
/// nothing did). `steps` entries, one per step.
struct GoalNarration {
  std::string goal;
  std::vector<std::string> afterStep;
};
GoalNarration narrateGoal(const Schedule& schedule, const ChunkStates& states);

} // namespace cs::narration
