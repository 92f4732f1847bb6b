#pragma once

// One connection of msccl-format.md §4.5 (rank A → rank B on a channel) with a bounded number of
// message slots, like NCCL's FIFO of NCCL_STEPS steps. Exactly one thread sends and one receives,
// so each side numbers its messages itself; the shared state is two counters: messages published
// and messages consumed. A sender blocks while `slots` messages are unconsumed, a receiver while
// none is published. Messages carry their element count so that a send and a receive whose cnt
// differ are caught instead of silently misreading.

#include "waiting.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cs::cpu {

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
  /// Sender: publishes message `k` of `elements` elements.
  void publish(std::uint32_t k, std::int64_t elements);
  /// Receiver: waits for message `k`; its data and size, or nullptr when aborted.
  const std::byte* waitForMessage(std::uint32_t k, std::int64_t* elements);
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
  std::vector<std::int64_t> m_elements; ///< per slot, written before publishing
};

} // namespace cs::cpu
