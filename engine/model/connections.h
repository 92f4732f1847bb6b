#pragma once

// The connections of msccl-format.md §4.5: on every channel a rank has at most one send
// connection and one receive connection per peer, and the k-th send-type step of the sending
// threadblock pairs with the k-th receive-type step of the receiving one. This index answers
// "which threadblock drives connection (from → to, channel)" for the matching, deadlock and race
// passes and for the executors.

#include "program.h"

#include <map>
#include <tuple>
#include <vector>

namespace cs {

/// A directed connection: messages from rank `from` to rank `to` on channel `chan`.
struct ConnectionKey {
  int from = -1;
  int to = -1;
  int chan = -1;
  auto operator<=>(const ConnectionKey&) const = default;
};

/// The threadblocks on each end of a connection. More than one on an end breaks the runtime's
/// uniqueness rule (structure.duplicate-connection); the vectors keep all of them for reporting.
struct ConnectionEnds {
  std::vector<int> senders;   ///< tb ids on `from` with send == to and chan == chan
  std::vector<int> receivers; ///< tb ids on `to` with recv == from and chan == chan
};

/// Every connection some threadblock declares, sender or receiver side, in key order.
std::map<ConnectionKey, ConnectionEnds> buildConnections(const Program& program);

/// Step positions of the send-type (or receive-type) instructions of a threadblock, in order.
std::vector<int> sendPositions(const ThreadBlock& tb);
std::vector<int> receivePositions(const ThreadBlock& tb);

} // namespace cs
