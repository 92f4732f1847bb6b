#include "connection.h"

namespace cs::cpu {

Connection::Connection(int slots, std::int64_t messageBytes)
    : m_slots(static_cast<std::uint32_t>(slots < 1 ? 1 : slots)), m_messageBytes(messageBytes),
      m_storage(static_cast<std::size_t>(messageBytes) * m_slots), m_elements(m_slots, 0)
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
  const bool ready = waitUntil(
      m_consumed.value, [k, this](std::uint32_t consumed) { return k - consumed < m_slots; });
  return ready ? slot(k) : nullptr;
}

void Connection::publish(std::uint32_t k, std::int64_t elements)
{
  m_elements[k % m_slots] = elements;
  cpu::advance(m_published.value, 1);
}

const std::byte* Connection::waitForMessage(std::uint32_t k, std::int64_t* elements)
{
  if (!waitUntil(m_published.value, [k](std::uint32_t published) { return published > k; }))
    return nullptr;
  *elements = m_elements[k % m_slots];
  return slot(k);
}

void Connection::release()
{
  cpu::advance(m_consumed.value, 1);
}

void Connection::abort()
{
  poison(m_published.value);
  poison(m_consumed.value);
}

} // namespace cs::cpu
