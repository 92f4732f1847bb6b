#include "symbolicvalue.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <unordered_map>
#include <unordered_set>

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

namespace {

constexpr std::uint64_t kPrime = (std::uint64_t{1} << 61) - 1; ///< a Mersenne prime

std::uint64_t addMod(std::uint64_t a, std::uint64_t b)
{
  const std::uint64_t sum = a + b; // both below 2^61: no wrap
  return sum >= kPrime ? sum - kPrime : sum;
}

/// splitmix64: a fixed, well-mixed weight per (token, seed), the same in every run.
std::uint64_t weight(std::uint64_t token, std::uint64_t seed)
{
  std::uint64_t z = token * 0x9E3779B97F4A7C15ULL + seed;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return (z ^ (z >> 31)) % kPrime;
}

Fingerprint unite(const Fingerprint& a, const Fingerprint& b)
{
  return {addMod(a.first, b.first), addMod(a.second, b.second), a.total + b.total};
}

} // namespace

Fingerprint ValueStore::tokenFingerprint(std::uint32_t token)
{
  return {weight(token, 0x1234567ULL), weight(token, 0x89ABCDEF01ULL), 1};
}

ValueStore::ValueStore(std::uint32_t tokenCount, std::size_t maxEntries) : m_maxEntries(maxEntries)
{
  m_entries.reserve(tokenCount);
  m_values.reserve(std::size_t{tokenCount} + 1);
  m_values.push_back({});
  for (std::uint32_t t = 0; t < tokenCount; ++t) {
    Node node;
    node.begin = t;
    node.size = 1;
    node.fingerprint = tokenFingerprint(t);
    m_values.push_back(node);
    m_entries.push_back({t, 1});
  }
}

ValueId ValueStore::combine(ValueId a, ValueId b)
{
  if (a == kUninitialised || b == kUninitialised || m_overflowed || a >= m_values.size() ||
      b >= m_values.size())
    return kUninitialised;
  if (m_values.size() >= std::numeric_limits<std::uint32_t>::max() - 1) {
    m_overflowed = true;
    return kUninitialised;
  }
  const Node na = m_values[a];
  const Node nb = m_values[b];
  Node node;
  node.fingerprint = unite(na.fingerprint, nb.fingerprint);
  if (stored(na) && stored(nb) && m_entries.size() + na.size + nb.size <= m_maxEntries) {
    node.begin = static_cast<std::uint32_t>(m_entries.size());
    storeMerged(na, nb);
    node.size = static_cast<std::uint32_t>(m_entries.size() - node.begin);
  } else {
    node.left = a;
    node.right = b;
  }
  m_values.push_back(node);
  return static_cast<ValueId>(m_values.size() - 1);
}

void ValueStore::storeMerged(const Node& a, const Node& b)
{
  // Make room first: the merge reads from the same vector it appends to. Grow geometrically;
  // an exact reserve here would reallocate on every union. The merge then writes through
  // pointers: a push_back per entry (a capacity check each) was most of a 1,024-rank check.
  const std::size_t begin = m_entries.size();
  const std::size_t needed = begin + a.size + b.size;
  if (needed > m_entries.capacity())
    m_entries.reserve(std::max(needed, 2 * m_entries.capacity()));
  m_entries.resize(needed);
  const TokenCount* i = m_entries.data() + a.begin;
  const TokenCount* j = m_entries.data() + b.begin;
  const TokenCount* const iEnd = i + a.size;
  const TokenCount* const jEnd = j + b.size;
  TokenCount* out = m_entries.data() + begin;
  while (i < iEnd && j < jEnd) {
    if (i->token < j->token) {
      *out++ = *i++;
    } else if (j->token < i->token) {
      *out++ = *j++;
    } else {
      const std::uint64_t sum = std::uint64_t{i->count} + j->count;
      *out++ = {i->token, static_cast<std::uint32_t>(std::min<std::uint64_t>(
                              sum, std::numeric_limits<std::uint32_t>::max()))};
      ++i;
      ++j;
    }
  }
  out = std::copy(i, iEnd, out);
  out = std::copy(j, jEnd, out);
  m_entries.resize(static_cast<std::size_t>(out - m_entries.data()));
}

std::vector<TokenCount> ValueStore::expand(ValueId value) const
{
  // Operands always have smaller ids than the union, so visiting the reachable values from the
  // highest id down hands every value its full multiplicity before it passes it on.
  std::vector<ValueId> reachable{value};
  std::unordered_set<ValueId> seen{value};
  for (std::size_t k = 0; k < reachable.size(); ++k) {
    const Node& node = m_values[reachable[k]];
    if (stored(node))
      continue;
    for (const ValueId operand : {node.left, node.right})
      if (seen.insert(operand).second)
        reachable.push_back(operand);
  }
  std::sort(reachable.begin(), reachable.end(), std::greater<>());
  std::unordered_map<ValueId, std::uint64_t> times{{value, 1}};
  std::map<std::uint32_t, std::uint64_t> counts;
  for (const ValueId id : reachable) {
    const Node& node = m_values[id];
    const std::uint64_t k = times[id];
    if (!stored(node)) {
      times[node.left] += k;
      times[node.right] += k;
      continue;
    }
    for (std::uint32_t e = node.begin; e < node.begin + node.size; ++e)
      counts[m_entries[e].token] += k * m_entries[e].count;
  }
  std::vector<TokenCount> result;
  result.reserve(counts.size());
  for (const auto& [token, count] : counts)
    result.push_back({token, static_cast<std::uint32_t>(std::min<std::uint64_t>(
                                 count, std::numeric_limits<std::uint32_t>::max()))});
  return result;
}

TokenEntries ValueStore::entries(ValueId value) const
{
  if (value == kUninitialised || value >= m_values.size())
    return {};
  const Node& node = m_values[value];
  if (stored(node))
    return TokenEntries(std::span(m_entries.data() + node.begin, node.size));
  return TokenEntries(expand(value));
}

bool ValueStore::holdsEachOnce(ValueId value, std::span<const std::uint32_t> ascending) const
{
  if (value == kUninitialised || value >= m_values.size())
    return false;
  const Node& node = m_values[value];
  if (stored(node)) {
    if (node.size != ascending.size())
      return false;
    for (std::size_t i = 0; i < ascending.size(); ++i) {
      const TokenCount& entry = m_entries[node.begin + i];
      if (entry.token != ascending[i] || entry.count != 1)
        return false;
    }
    return true;
  }
  Fingerprint expected;
  for (const std::uint32_t token : ascending)
    expected = unite(expected, tokenFingerprint(token));
  return expected == node.fingerprint;
}

bool holdsContributions(const ValueStore& store, const TokenSpace& tokens, ValueId value,
                        const std::vector<Contribution>& expected)
{
  // Expected contributions come in ascending rank order and tokens are rank-major, so the
  // tokens come out ascending too.
  std::vector<std::uint32_t> ascending;
  ascending.reserve(expected.size());
  for (const Contribution& c : expected) {
    const std::optional<std::uint32_t> token = tokens.token(c.rank, c.chunk);
    if (!token)
      return false;
    ascending.push_back(*token);
  }
  return store.holdsEachOnce(value, ascending);
}

ResultMatcher::ResultMatcher(const CollectiveSpec& spec, const ValueStore& store,
                             const TokenSpace& tokens)
    : m_spec(spec), m_store(store), m_tokens(tokens),
      m_sameOnEveryRank(spec.collective() == Collective::AllReduce ||
                        spec.collective() == Collective::Broadcast)
{
}

bool ResultMatcher::holds(int rank, int index, ValueId value, std::vector<Contribution>& expected)
{
  const std::size_t at = static_cast<std::size_t>(index);
  if (m_sameOnEveryRank && at < m_passed.size() && value != kUninitialised && m_passed[at] == value)
    return true;
  m_spec.contributions(rank, index, expected);
  if (!holdsContributions(m_store, m_tokens, value, expected))
    return false;
  if (m_sameOnEveryRank) {
    if (at >= m_passed.size())
      m_passed.resize(at + 1, kUninitialised);
    m_passed[at] = value;
  }
  return true;
}

std::string formatToken(const TokenSpace& tokens, std::uint32_t token)
{
  const auto [rank, chunk] = tokens.decode(token);
  return "r" + std::to_string(rank) + "\u00b7c" + std::to_string(chunk);
}

std::string formatValue(const ValueStore& store, const TokenSpace& tokens, ValueId value,
                        int maxItems)
{
  const TokenEntries entries = store.entries(value);
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
