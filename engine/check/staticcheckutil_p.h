#pragma once

// Internal helpers shared by the static passes (structure, limits, selection, matching,
// dependencies). Not part of the engine's public API.
//
// - Reporter caps repeated diagnostics: at most kMaxPerCode per code and pass, then one
//   check.truncated info per code that overflowed. It builds messages lazily, so a pass that
//   finds thousands of problems on fuzzed input does not format thousands of strings.
// - IdIndex and ProgramIndex look ids up without trusting them: ids may be any int, duplicated
//   or missing, and the vectors may be empty (the reader's output on random bytes).
// - cat() formats messages (g++ 12 has no <format>).

#include "../model/program.h"
#include "model/diagnostic.h"

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cs::passes {

namespace detail {

inline void appendPart(std::string& text, std::string_view part)
{
  text += part;
}

inline void appendPart(std::string& text, char part)
{
  text += part;
}

template <std::integral T>
requires(!std::same_as<T, char> && !std::same_as<T, bool>) void appendPart(std::string& text,
                                                                           T part)
{
  text += std::to_string(part);
}

} // namespace detail

/// Concatenates strings, characters and integers into one message.
template <typename... Parts> std::string cat(const Parts&... parts)
{
  std::string text;
  (detail::appendPart(text, parts), ...);
  return text;
}

/// Adds diagnostics to `out`, at most kMaxPerCode per code; the destructor appends one
/// check.truncated info for every code that had more.
class Reporter
{
public:
  static constexpr int kMaxPerCode = 20;

  explicit Reporter(Diagnostics& out) : m_out(out) {}
  Reporter(const Reporter&) = delete;
  Reporter& operator=(const Reporter&) = delete;
  ~Reporter();

  /// Counts one diagnostic with `code` and says whether it is still to be kept. `code` must
  /// outlive the reporter (the passes use string literals).
  bool admit(std::string_view code);

  /// Adds a diagnostic unless its code is capped; `makeMessage()` runs only when it is kept.
  /// Returns the diagnostic (to fill `related`) or nullptr.
  template <typename MakeMessage>
  Diagnostic* report(Severity severity, std::string_view code, Location location,
                     MakeMessage&& makeMessage)
  {
    if (!admit(code))
      return nullptr;
    return &m_out.add(severity, std::string(code), makeMessage(), std::move(location));
  }

  template <typename MakeMessage>
  Diagnostic* error(std::string_view code, Location location, MakeMessage&& makeMessage)
  {
    return report(Severity::Error, code, std::move(location),
                  std::forward<MakeMessage>(makeMessage));
  }

  template <typename MakeMessage>
  Diagnostic* warning(std::string_view code, Location location, MakeMessage&& makeMessage)
  {
    return report(Severity::Warning, code, std::move(location),
                  std::forward<MakeMessage>(makeMessage));
  }

  template <typename MakeMessage>
  Diagnostic* info(std::string_view code, Location location, MakeMessage&& makeMessage)
  {
    return report(Severity::Info, code, std::move(location),
                  std::forward<MakeMessage>(makeMessage));
  }

private:
  struct Count {
    std::string_view code;
    int count = 0;
  };
  Diagnostics& m_out;
  std::vector<Count> m_counts;
};

/// Maps ids that may be anything (negative, huge, duplicated) to the index of the first item
/// carrying them. Dense ids 0..n-1 are looked up in O(1); others by binary search.
class IdIndex
{
public:
  IdIndex() = default;
  explicit IdIndex(const std::vector<int>& ids);

  /// Index of the first item with `id`, or -1.
  int find(int id) const;
  /// Whether exactly one item has `id`.
  bool isUnique(int id) const;

private:
  std::vector<int> m_first;                  ///< dense ids: first index or -1
  std::vector<std::uint8_t> m_many;          ///< dense ids: 1 when duplicated
  std::vector<std::pair<int, int>> m_sparse; ///< other ids: (id, index), sorted
};

/// Ids of the program's gpus and of each gpu's threadblocks, plus a global numbering of steps
/// (the nodes of the dependency graph): global tb g = firstTb[gpu index] + tb index, and global
/// step = firstStep[g] + position.
struct ProgramIndex {
  explicit ProgramIndex(const Program& program);

  /// The gpu index of rank `rankId` when exactly one <gpu> has that id, else -1.
  int uniqueGpu(int rankId) const;
  /// The threadblock index of `tbId` on gpu index `gpu` when exactly one <tb> has it, else -1.
  int uniqueThreadblock(int gpu, int tbId) const;

  IdIndex ranks;
  std::vector<IdIndex> threadblocks; ///< per gpu index
  std::vector<int> firstTb;          ///< per gpu index, plus one past the end
  std::vector<int> firstStep;        ///< per global tb, plus one past the end
  std::vector<int> tbGpu;            ///< per global tb: its gpu index
  std::vector<int> tbIndex;          ///< per global tb: its index in the gpu's threadblocks
  int stepCount = 0;
};

/// opTraits() from a table built once: the passes ask for every step, and the out-of-line switch
/// showed up as the largest cost on the biggest corpus files.
const OpTraits& traitsOf(OpType type);

/// Locations of the model's elements, with their source lines.
Location algoLocation(const Program& program, std::string_view attribute = {});
Location gpuLocation(const Gpu& gpu, std::string_view attribute = {});
Location tbLocation(const Gpu& gpu, const ThreadBlock& tb, std::string_view attribute = {});
/// `position` must be a valid index into tb.steps.
Location stepLocation(const Gpu& gpu, const ThreadBlock& tb, int position,
                      std::string_view attribute = {});

/// "rank 0 tb 1" and "rank 0 tb 1 step 3 (rrc)" for messages.
std::string tbName(const Gpu& gpu, const ThreadBlock& tb);
std::string stepName(const Gpu& gpu, const ThreadBlock& tb, int position);

/// "3", "3..7": a closed range of ids for messages.
std::string rangeText(long long first, long long last);

} // namespace cs::passes
