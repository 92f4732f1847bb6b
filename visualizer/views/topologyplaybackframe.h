#pragma once

// What the topology playback view shows at the cursor (issue 14 item 4), computed from the
// session's state and the view's geometry: a stroke per link direction, a token per message in
// flight, and the ranks whose threadblocks wait. The view paints exactly this, and tests read it.

#include "topologyplaybackgeometry.h"

#include "replay/replayindex.h"

#include <QString>
#include <QStringList>

#include <cstddef>
#include <map>
#include <vector>

namespace cs::replay {
class BufferReplay;
}

namespace cs::visualizer {

class ReplaySession;

/// One direction of one link as drawn.
struct DrawnLane {
  int link = 0;
  bool aToB = true;
  double utilisation = 0;
  LinkStroke stroke;
};

/// A message in flight as drawn: where, how far along its route, and whose data it carries.
struct DrawnToken {
  std::size_t message = 0;
  double progress = 0;
  RoutePoint at;
  std::vector<int> ranks; ///< contributing ranks of its contents, ascending
};

struct TopologyPlaybackFrame {
  std::vector<DrawnLane> lanes;
  std::vector<DrawnToken> tokens;
  /// Ranks with a threadblock blocked on a message, on room or on a flag, and why (one line each).
  std::map<int, QStringList> blocked;
};

/// The contributing ranks of what message `message` carries (the send's contents), ascending.
std::vector<int> messageRanks(const replay::ReplayIndex& index, const replay::BufferReplay& buffers,
                              std::size_t message);

/// "tb 1 step 3 waits for a message from rank 2 (channel 0)", or empty for WaitReason::Start.
QString describeWait(const replay::Waiting& waiting);

/// The frame of `session` at its cursor, laid out by `geometry` (already fitted).
/// `ranksCache` keeps messageRanks per message between frames (resized as needed).
TopologyPlaybackFrame makePlaybackFrame(const ReplaySession& session,
                                        const TopologyPlaybackGeometry& geometry,
                                        std::vector<std::vector<int>>& ranksCache);

} // namespace cs::visualizer
