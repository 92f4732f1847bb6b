#include "symbolicvalue.h"

#include <algorithm>
#include <limits>

namespace cs {

TokenSpace::TokenSpace(const std::vector<int>& inputChunks)
{
  m_base.reserve(inputChunks.size() + 1);
  std::uint64_t total = 0;
  for (const int chunks : inputChunks) {
    m_base.push_back(static_cast<std::uint32_t>(total));
    total += static_cast<std::uint64_t>(std::max(0, chunks));
    // The caller bounds buffer sizes long before this; clamp anyway so ids never wrap.
    total = std::min<std::uint64_t>(total, std::numeric_limits<std::uint32_t>::max() / 2);
  }
  m_base.push_back(static_cast<std::uint32_t>(total));
  m_count = static_cast<std::uint32_t>(total);
}

std::pair<int, int> TokenSpace::decode(std::uint32_t token) const
{
  if (m_base.size() < 2)
    return {-1, -1};
  // The last rank whose first token is <= token; ranks without input share a base, so take the
  // last one of equal bases, which is the rank that actually owns the token.
  const auto it = std::upper_bound(m_base.begin(), m_base.end() - 1, token);
  const std::size_t rank = static_cast<std::size_t>(it - m_base.begin()) - 1;
  return {static_cast<int>(rank), static_cast<int>(token - m_base[rank])};
}

ValueStore::ValueStore(std::uint32_t tokenCount, std::size_t maxEntries) : m_maxEntries(maxEntries)
{
  m_entries.reserve(tokenCount);
  m_values.reserve(std::size_t{tokenCount} + 1);
  m_values.push_back({0, 0});
  for (std::uint32_t t = 0; t < tokenCount; ++t) {
    m_values.push_back({t, 1});
    m_entries.push_back({t, 1});
  }
}

ValueId ValueStore::combine(ValueId a, ValueId b)
{
  if (a == kUninitialised || b == kUninitialised || m_overflowed || a >= m_values.size() ||
      b >= m_values.size())
    return kUninitialised;
  const Range ra = m_values[a];
  const Range rb = m_values[b];
  if (m_entries.size() + ra.size + rb.size > m_maxEntries ||
      m_values.size() >= std::numeric_limits<std::uint32_t>::max() - 1) {
    m_overflowed = true;
    return kUninitialised;
  }
  // Make room first: the merge reads from the same vector it appends to. Grow geometrically;
  // an exact reserve here would reallocate on every union.
  const std::size_t needed = m_entries.size() + ra.size + rb.size;
  if (needed > m_entries.capacity())
    m_entries.reserve(std::max(needed, 2 * m_entries.capacity()));
  const std::size_t begin = m_entries.size();
  std::uint32_t i = ra.begin;
  std::uint32_t j = rb.begin;
  const std::uint32_t iEnd = ra.begin + ra.size;
  const std::uint32_t jEnd = rb.begin + rb.size;
  while (i < iEnd || j < jEnd) {
    if (j >= jEnd || (i < iEnd && m_entries[i].token < m_entries[j].token)) {
      m_entries.push_back(m_entries[i++]);
    } else if (i >= iEnd || m_entries[j].token < m_entries[i].token) {
      m_entries.push_back(m_entries[j++]);
    } else {
      const std::uint64_t sum = std::uint64_t{m_entries[i].count} + m_entries[j].count;
      const std::uint32_t count = static_cast<std::uint32_t>(
          std::min<std::uint64_t>(sum, std::numeric_limits<std::uint32_t>::max()));
      m_entries.push_back({m_entries[i].token, count});
      ++i;
      ++j;
    }
  }
  m_values.push_back(
      {static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(m_entries.size() - begin)});
  return static_cast<ValueId>(m_values.size() - 1);
}

std::span<const TokenCount> ValueStore::entries(ValueId value) const
{
  if (value == kUninitialised || value >= m_values.size())
    return {};
  const Range r = m_values[value];
  return {m_entries.data() + r.begin, r.size};
}

std::string formatToken(const TokenSpace& tokens, std::uint32_t token)
{
  const auto [rank, chunk] = tokens.decode(token);
  return "r" + std::to_string(rank) + "\u00b7c" + std::to_string(chunk);
}

std::string formatValue(const ValueStore& store, const TokenSpace& tokens, ValueId value,
                        int maxItems)
{
  const std::span<const TokenCount> entries = store.entries(value);
  if (entries.empty())
    return "uninitialised";
  if (entries.size() == 1 && entries[0].count == 1)
    return formatToken(tokens, entries[0].token);
  std::string text = "\u03a3{";
  int written = 0;
  for (const TokenCount& entry : entries) {
    for (std::uint32_t k = 0; k < entry.count; ++k) {
      if (written == maxItems) {
        text += ", \u2026}";
        return text;
      }
      if (written > 0)
        text += ", ";
      text += formatToken(tokens, entry.token);
      ++written;
    }
  }
  text += '}';
  return text;
}

} // namespace cs
