#include "connection_p.h"

namespace cs::cpu {

Connection::Connection(int slots, std::int64_t messageBytes)
    : m_slots(static_cast<std::uint32_t>(slots < 1 ? 1 : slots)), m_messageBytes(messageBytes),
      m_storage(static_cast<std::size_t>(messageBytes) * m_slots), m_messages(m_slots)
{
}

void Connection::reset()
{
  m_published.value.store(0, std::memory_order_relaxed);
  m_consumed.value.store(0, std::memory_order_relaxed);
}

std::byte* Connection::slot(std::uint32_t k)
{
  return m_storage.data() +
         static_cast<std::size_t>(k % m_slots) * static_cast<std::size_t>(m_messageBytes);
}

std::byte* Connection::waitForRoom(std::uint32_t k)
{
  const bool ready =
      waitUntil(m_consumed, [k, this](std::uint32_t consumed) { return k - consumed < m_slots; });
  return ready ? slot(k) : nullptr;
}

void Connection::publish(std::uint32_t k, const Message& message)
{
  m_messages[k % m_slots] = message;
  cpu::advance(m_published, 1);
}

std::optional<Message> Connection::waitForMessage(std::uint32_t k)
{
  if (!waitUntil(m_published, [k](std::uint32_t published) { return published > k; }))
    return std::nullopt;
  return m_messages[k % m_slots];
}

void Connection::release()
{
  cpu::advance(m_consumed, 1);
}

void Connection::abort()
{
  poison(m_published);
  poison(m_consumed);
}

} // namespace cs::cpu
