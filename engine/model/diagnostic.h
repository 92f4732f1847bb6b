#pragma once

// What every library call in the engine reports instead of throwing: a list of diagnostics, each
// with a stable code (documented in docs/diagnostics.md), a message that says what and where, and
// a location made of the model's stable ids so the GUI can jump to the offending item.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cs {

enum class Severity : std::uint8_t { Info, Warning, Error };
std::string_view severityName(Severity severity); ///< "info", "warning", "error"

/// Where a diagnostic points. Any field may be unknown (-1 / 0 / empty).
struct Location {
  int rank = -1;       ///< gpu id
  int tb = -1;         ///< threadblock id on that rank
  int step = -1;       ///< position in the threadblock's step list (a Schedule step for transfers)
  int transfer = -1;   ///< Schedule transfer id, when the diagnostic is about a drawn transfer
  int link = -1;       ///< Topology link id, when the diagnostic is about a link of the topology
  int line = 0;        ///< 1-based line in the source file
  int column = 0;      ///< 1-based column in the source file
  std::string element; ///< XML element involved ("step"), when known
  std::string attribute; ///< XML attribute involved ("cnt"), when known

  bool operator==(const Location&) const = default;
};

/// "rank 2 tb 1 step 5" (only the parts that are known); empty when nothing is.
std::string describe(const Location& location);

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string code;    ///< stable, dotted: "match.count-mismatch"
  std::string message; ///< one sentence for a person; names values and what was expected
  Location location;
  /// Further positions that explain the problem, in order: a deadlock's wait-for cycle, the two
  /// sides of a race, a send and its unmatched receive.
  std::vector<Location> related;
};

/// Collects diagnostics; passes append to it.
class Diagnostics
{
public:
  Diagnostic& add(Severity severity, std::string code, std::string message, Location location = {});
  Diagnostic& error(std::string code, std::string message, Location location = {});
  Diagnostic& warning(std::string code, std::string message, Location location = {});
  Diagnostic& info(std::string code, std::string message, Location location = {});
  void append(const std::vector<Diagnostic>& more);

  bool hasErrors() const;
  int count(Severity severity) const;
  /// Whether any diagnostic's code equals `code` or starts with `code` followed by a dot.
  bool contains(std::string_view code) const;

  const std::vector<Diagnostic>& items() const { return m_items; }
  std::vector<Diagnostic> take() { return std::move(m_items); }
  bool empty() const { return m_items.empty(); }
  std::size_t size() const { return m_items.size(); }

private:
  std::vector<Diagnostic> m_items;
};

/// Whether `code` is `category` or inside it ("race.uninitialised" is in "race").
bool codeInCategory(std::string_view code, std::string_view category);

} // namespace cs
