#pragma once

// What a replay of a recorded run says about the document's own design at the replay cursor
// (issue 14, items 5 and 7): which transfers have run, which are in flight and which are still to
// come, which instruction each threadblock is executing, and, for a run the watchdog stopped,
// where it stood and the wait-for cycle the checker predicts. Plain data: the visualizer computes
// it (visualizer/follow) and hands it to the timeline and the program view, which only paint it;
// the editor never includes the visualizer. An empty value (active == false) clears every mark.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cs::editor {

/// Where one transfer stands at the cursor.
enum class TransferProgress : std::uint8_t { Pending, Running, Done };

/// One transfer's state; `fraction` is the share of its instructions' events already done
/// (0..1, rounded to 1/100 so an unchanged picture compares equal).
struct TransferMark {
  int transfer = -1;
  TransferProgress state = TransferProgress::Pending;
  float fraction = 0;
  bool operator==(const TransferMark&) const = default;
};

/// One threadblock at the cursor: how many of its instructions have finished every slice (they
/// always form a prefix), and the ones it is executing now.
struct LaneMark {
  int rank = 0;
  int tb = 0;
  int done = 0;
  std::vector<int> running; ///< instruction indices (positions in the threadblock), ascending
  int blocked = -1;         ///< the instruction the watchdog found it blocked at, or -1
  bool operator==(const LaneMark&) const = default;
};

/// A (rank, tb, step) the watchdog found blocked, with the transfer it belongs to.
struct BlockedMark {
  int rank = 0;
  int tb = 0;
  int step = 0;
  int transfer = -1;
  std::string text; ///< "rank 1 tb 0 step 2 slice 0 waits for room on the connection to rank 2"
  bool operator==(const BlockedMark&) const = default;
};

struct PlaybackMarks {
  bool active = false;
  double timeUs = 0;
  /// The Schedule step the cursor is in: the first step with a transfer in flight, else the first
  /// with one still to come; absent once everything has run.
  std::optional<int> step;
  /// Every transfer of the shown Schedule that has instructions, sorted by transfer id.
  std::vector<TransferMark> transfers;
  /// Every threadblock of the run, sorted by (rank, tb).
  std::vector<LaneMark> lanes;
  /// A stopped run: the blocked positions, and the predicted wait-for cycle as transfer ids in
  /// wait-for order (each waits for the next, the last for the first).
  std::vector<BlockedMark> blocked;
  std::vector<int> cycle;

  bool operator==(const PlaybackMarks&) const = default;

  /// The mark of `transfer`, or null when it has none (not in the run: shown as done).
  const TransferMark* transferMark(int transfer) const
  {
    auto it = std::lower_bound(transfers.begin(), transfers.end(), transfer,
                               [](const TransferMark& mark, int id) { return mark.transfer < id; });
    return it != transfers.end() && it->transfer == transfer ? &*it : nullptr;
  }
  /// The mark of threadblock (rank, tb), or null.
  const LaneMark* laneMark(int rank, int tb) const
  {
    auto it = std::lower_bound(lanes.begin(), lanes.end(), std::pair(rank, tb),
                               [](const LaneMark& mark, const std::pair<int, int>& key) {
                                 return std::pair(mark.rank, mark.tb) < key;
                               });
    return it != lanes.end() && it->rank == rank && it->tb == tb ? &*it : nullptr;
  }
};

} // namespace cs::editor
