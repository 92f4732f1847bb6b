#pragma once

// Symbolic chunk values for the abstract execution of msccl-format.md §7: a value is the multiset
// of input contributions it has summed, each contribution a token (rank, input chunk), or
// "uninitialised". Multisets make double counting visible: Σ{r0·c1, r1·c1, r1·c1} is not an
// all-reduce result even though every rank contributed.
//
// Values are immutable and interned in one arena, so memory slots and messages hold a 32-bit id
// and forwarding a value (rcs) copies nothing. A union allocates one new value; the arena has a
// hard cap so that a pathological program cannot exhaust memory.

#include "../model/program.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace cs {

/// Handle of an interned symbolic value. 0 is the uninitialised ("garbage") value.
using ValueId = std::uint32_t;
inline constexpr ValueId kUninitialised = 0;

/// Dense numbering of the tokens (rank, input chunk): rank-major, so token order is (rank, chunk)
/// order and a sorted multiset prints in a readable order.
class TokenSpace
{
public:
  TokenSpace() = default;
  /// `inputChunks[r]` tokens for rank r.
  explicit TokenSpace(const std::vector<int>& inputChunks);

  std::uint32_t count() const { return m_count; }
  /// The token of input chunk `chunk` of `rank`, or nullopt when that chunk holds no input.
  std::optional<std::uint32_t> token(int rank, int chunk) const
  {
    if (rank < 0 || chunk < 0 || static_cast<std::size_t>(rank) + 1 >= m_base.size())
      return std::nullopt;
    const std::size_t r = static_cast<std::size_t>(rank);
    const std::uint64_t candidate = std::uint64_t{m_base[r]} + static_cast<std::uint64_t>(chunk);
    if (candidate >= m_base[r + 1])
      return std::nullopt;
    return static_cast<std::uint32_t>(candidate);
  }
  /// (rank, chunk) of a token.
  std::pair<int, int> decode(std::uint32_t token) const;

private:
  std::vector<std::uint32_t> m_base; ///< first token of each rank; one extra entry at the end
  std::uint32_t m_count = 0;
};

/// One element of a multiset: a token and how often it was summed in.
struct TokenCount {
  std::uint32_t token = 0;
  std::uint32_t count = 0;
};

/// Arena of interned multisets. Ids 1..tokenCount are the singletons {token}, created up front.
class ValueStore
{
public:
  /// `maxEntries` caps the arena; once exceeded, overflowed() turns true and combine() returns
  /// kUninitialised, and the caller is expected to abandon the run.
  explicit ValueStore(std::uint32_t tokenCount, std::size_t maxEntries = std::size_t{1} << 24);

  ValueId singleton(std::uint32_t token) const { return token + 1; }
  /// a ⊕ b (multiset union). Anything combined with an uninitialised value is uninitialised.
  ValueId combine(ValueId a, ValueId b);
  /// The sorted (token, count) entries of a value; empty for kUninitialised.
  std::span<const TokenCount> entries(ValueId value) const;
  bool overflowed() const { return m_overflowed; }
  /// Ids in use: every value id is below this.
  std::size_t size() const { return m_values.size(); }

private:
  struct Range {
    std::uint32_t begin = 0;
    std::uint32_t size = 0;
  };
  std::vector<TokenCount> m_entries;
  std::vector<Range> m_values;
  std::size_t m_maxEntries;
  bool m_overflowed = false;
};

/// "r2·c3": the contribution of rank 2's input chunk 3.
std::string formatToken(const TokenSpace& tokens, std::uint32_t token);
/// "uninitialised", "r2·c3" or "Σ{r0·c1, r1·c1, r1·c1}" (repeated tokens written out, at most
/// `maxItems` items before an ellipsis).
std::string formatValue(const ValueStore& store, const TokenSpace& tokens, ValueId value,
                        int maxItems = 12);

} // namespace cs
