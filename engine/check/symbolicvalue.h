#pragma once

// Symbolic chunk values for the abstract execution of msccl-format.md §7: a value is the multiset
// of input contributions it has summed, each contribution a token (rank, input chunk), or
// "uninitialised". Multisets make double counting visible: Σ{r0·c1, r1·c1, r1·c1} is not an
// all-reduce result even though every rank contributed.
//
// Values are immutable and live in one store, so memory slots and messages hold a 32-bit id and
// forwarding a value (rcs) copies nothing. A union allocates one new value. While the store's
// entry budget lasts, a union stores its sorted (token, count) entries; past it, a union stores
// only its two operands and a fingerprint (two sums of per-token weights modulo 2^61-1, and the
// total count), so a ring all-reduce over n ranks, whose partial sums hold n³/2 entries in all,
// costs O(n²) memory instead of gigabytes. Entries of such a value are expanded on demand
// (messages, the timeline), and comparisons with an expected multiset use the fingerprint: two
// different multisets of fewer than 2^32 copies per token agree on both sums with probability
// below 2^-120.

#include "../model/collectivespec.h"
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

/// The entries of one value: a view into the store, or an expansion the value owns.
class TokenEntries
{
public:
  TokenEntries() = default;
  explicit TokenEntries(std::span<const TokenCount> view) : m_view(view) {}
  explicit TokenEntries(std::vector<TokenCount> owned) : m_owned(std::move(owned)), m_owns(true) {}

  std::span<const TokenCount> span() const { return m_owns ? std::span(m_owned) : m_view; }
  std::size_t size() const { return span().size(); }
  bool empty() const { return span().empty(); }
  const TokenCount& operator[](std::size_t i) const { return span()[i]; }
  const TokenCount* begin() const { return span().data(); }
  const TokenCount* end() const { return span().data() + span().size(); }

private:
  std::span<const TokenCount> m_view;
  std::vector<TokenCount> m_owned;
  bool m_owns = false;
};

/// Sums of per-token weights modulo 2^61-1 (two independent weightings) and the total count of
/// a multiset: equal multisets have equal fingerprints, and a union adds them.
struct Fingerprint {
  std::uint64_t first = 0;
  std::uint64_t second = 0;
  std::uint64_t total = 0;
  bool operator==(const Fingerprint&) const = default;
};

/// Store of multisets. Ids 1..tokenCount are the singletons {token}, created up front.
class ValueStore
{
public:
  /// `maxEntries` caps the stored (token, count) entries; unions past it keep operands and a
  /// fingerprint only. overflowed() turns true only when value ids run out, and then combine()
  /// returns kUninitialised, and the caller is expected to abandon the run.
  explicit ValueStore(std::uint32_t tokenCount, std::size_t maxEntries = std::size_t{1} << 23);

  ValueId singleton(std::uint32_t token) const { return token + 1; }
  /// a ⊕ b (multiset union). Anything combined with an uninitialised value is uninitialised.
  ValueId combine(ValueId a, ValueId b);
  /// The sorted (token, count) entries of a value; empty for kUninitialised. O(1) for stored
  /// entries, else proportional to the unions the value is built of.
  TokenEntries entries(ValueId value) const;
  /// Whether `value` is exactly the tokens `ascending`, each once (by fingerprint for values
  /// whose entries are not stored).
  bool holdsEachOnce(ValueId value, std::span<const std::uint32_t> ascending) const;
  bool overflowed() const { return m_overflowed; }
  /// Ids in use: every value id is below this.
  std::size_t size() const { return m_values.size(); }

  /// The fingerprint of {token}.
  static Fingerprint tokenFingerprint(std::uint32_t token);

private:
  struct Node {
    std::uint32_t begin = 0; ///< stored entries, when `size` > 0
    std::uint32_t size = 0;
    ValueId left = kUninitialised; ///< operands of a union whose entries are not stored
    ValueId right = kUninitialised;
    Fingerprint fingerprint;
  };
  bool stored(const Node& node) const { return node.size > 0; }
  void storeMerged(const Node& a, const Node& b);
  std::vector<TokenCount> expand(ValueId value) const;

  std::vector<TokenCount> m_entries;
  std::vector<Node> m_values;
  std::size_t m_maxEntries;
  bool m_overflowed = false;
};

/// Whether `value` holds exactly `expected` (ascending, each once): the comparison every
/// postcondition check makes.
bool holdsContributions(const ValueStore& store, const TokenSpace& tokens, ValueId value,
                        const std::vector<Contribution>& expected);

/// Compares result chunks with a collective's postcondition. Where every rank's chunk i must hold
/// the same contributions (all-reduce, broadcast), a value that passed at index i passes again
/// without being compared, so a 1,024-rank all-reduce whose ranks share their final values costs
/// O(n²) rather than O(n³).
class ResultMatcher
{
public:
  ResultMatcher(const CollectiveSpec& spec, const ValueStore& store, const TokenSpace& tokens);
  /// Whether result chunk `index` of `rank` holding `value` is right. When false, `expected`
  /// holds the contributions it should have.
  bool holds(int rank, int index, ValueId value, std::vector<Contribution>& expected);

private:
  const CollectiveSpec& m_spec;
  const ValueStore& m_store;
  const TokenSpace& m_tokens;
  bool m_sameOnEveryRank;
  std::vector<ValueId> m_passed; ///< per index: the value that passed, when m_sameOnEveryRank
};

/// "r2·c3": the contribution of rank 2's input chunk 3.
std::string formatToken(const TokenSpace& tokens, std::uint32_t token);
/// "uninitialised", "r2·c3" or "Σ{r0·c1, r1·c1, r1·c1}" (repeated tokens written out, at most
/// `maxItems` items before an ellipsis).
std::string formatValue(const ValueStore& store, const TokenSpace& tokens, ValueId value,
                        int maxItems = 12);

} // namespace cs
