#pragma once

// One connection of msccl-format.md §4.5 (rank A → rank B on a channel) with a bounded number of
// message slots, like NCCL's FIFO of NCCL_STEPS steps. Exactly one thread sends and one receives,
// so each side numbers its messages itself; the shared state is two counters: messages published
// and messages consumed. A sender blocks while `slots` messages are unconsumed, a receiver while
// none is published. Messages carry their element count so that a send and a receive whose cnt
// differ are caught instead of silently misreading.
//
// A message's data lies either in its slot (the sender copied it there) or in the sender's own
// memory, when the plan proved that nothing changes it any more (PlannedStep::sendsInPlace); the
// slot then only bounds the messages in flight, exactly as for a copied message.

#include "waiting_p.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace cs::cpu {

/// Where a published message's data is: piece j (one per chunk of the step's cnt) starts at
/// data + j · pieceStride.
struct Message {
  const std::byte* data = nullptr;
  std::int64_t pieceStride = 0; ///< bytes
  std::int64_t elements = 0;    ///< cnt × slice elements
};

class Connection
{
public:
  /// Allocates `slots` slots of `messageBytes` each.
  Connection(int slots, std::int64_t messageBytes);
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  /// Empties the connection for a new run; only while no thread uses it.
  void reset();

  /// Sender: waits for room for message `k` (0, 1, …); its slot, or nullptr when aborted.
  std::byte* waitForRoom(std::uint32_t k);
  /// Sender: publishes message `k`; `message` says where its data lies (slot or sender memory).
  void publish(std::uint32_t k, const Message& message);
  /// Receiver: waits for message `k`; nothing when aborted.
  std::optional<Message> waitForMessage(std::uint32_t k);
  /// Receiver: frees the slot of the oldest message.
  void release();
  /// Wakes both ends for good (watchdog).
  void abort();

private:
  std::byte* slot(std::uint32_t k);

  Counter m_published;
  Counter m_consumed;
  std::uint32_t m_slots = 1;
  std::int64_t m_messageBytes = 0;
  std::vector<std::byte> m_storage;
  std::vector<Message> m_messages; ///< per slot, written before publishing
};

} // namespace cs::cpu
