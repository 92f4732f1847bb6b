#pragma once

// The runtimes do not read MSCCL XML with an XML library but with a small hand-written tokenizer
// (msccl-format.md §1: mscclXmlGetNode/GetToken/GetValue in msccl_parser.cc of the executor and
// RCCL trees, NCCL's xml.cc in the classic tree; all three share it). A file that any XML library
// reads may still stop that tokenizer, or be misread by it. This scanner reads the text once, as
// a lenient XML tokenizer that hands the reader one tag at a time, and notes on the way every spot
// where the runtimes' tokenizer stops, misreads or drops something, with what the runtime does.

#include "model/diagnostic.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cs {

/// One attribute as written; `value` is what the runtime's tokenizer stores for it.
struct ScannedAttribute {
  std::string_view name;
  std::string_view value;
  /// False past the runtime's 16 attributes per element: the runtime drops it.
  bool kept = true;
};

enum class TagKind : std::uint8_t { Open, SelfClosing, Close, End };

struct ScannedTag {
  TagKind kind = TagKind::End;
  std::string_view name;
  int line = 0;   ///< of the '<'
  int column = 0; ///< of the name after the '<', 1-based, in bytes
  std::vector<ScannedAttribute> attributes;
};

/// The runtimes' tokenizer keeps names and values in 256-byte fields, 16 attributes per element
/// (MSCCL_MAX_STR_LEN, MSCCL_MAX_ATTR_COUNT in msccl_parser.h; MAX_STR_LEN, MAX_ATTR_COUNT in
/// the classic xml.h).
inline constexpr std::size_t kRuntimeMaxString = 255;
inline constexpr std::size_t kRuntimeMaxAttributes = 16;

class RuntimeXmlScanner
{
public:
  explicit RuntimeXmlScanner(std::string_view text);

  /// The next tag. TagKind::End at the end of the text, or at a fault that makes the text not
  /// XML at all (reported as format.malformed; malformed() is then true).
  void next(ScannedTag& tag);

  bool malformed() const { return m_malformed; }
  /// Elements open at the scan position (0 once the root is closed).
  std::size_t depth() const { return m_open.size(); }

  /// Appends the format.malformed and format.lexical.* diagnostics found so far: for each
  /// problem its first occurrence, with line and column, and how many more there are.
  void report(Diagnostics& out) const;

  enum Problem : std::uint8_t {
    Bom,
    Text,
    TabBetweenElements,
    Declaration,
    Doctype,
    Cdata,
    CommentEquals,
    SingleQuotes,
    BreakInTag,
    ExtraSpace,
    SpaceAfterEquals,
    SpaceBeforeEquals,
    CloseTagSpace,
    Entity,
    LongName,
    LongValue,
    AttributeCount,
    ProblemCount,
  };

private:
  struct Occurrence {
    int count = 0;
    int line = 0;
    int column = 0;
    std::string detail; ///< of the first occurrence
  };

  void between();
  void markup(ScannedTag& tag);
  void openTag(ScannedTag& tag);
  bool attribute(ScannedTag& tag, std::size_t spaces, std::size_t& runtimeCount);
  void closeTag(ScannedTag& tag);
  std::size_t scanValue(std::size_t start, char quote);
  std::size_t nameEnd(std::size_t from) const;
  void skipComment();
  void skipPast(std::string_view terminator, std::string_view unterminated);
  std::size_t skipTagSpace();
  void advanceLines(std::size_t from, std::size_t to);
  void note(Problem problem, std::size_t offset, std::string_view detail = {});
  void fail(std::size_t offset, const std::string& message);
  std::pair<int, int> positionOf(std::size_t offset) const;

  std::string_view m_text;
  std::size_t m_pos = 0;
  int m_line = 1;
  std::size_t m_lineStart = 0;
  bool m_malformed = false;
  Occurrence m_fault;
  std::vector<std::string_view> m_open;
  std::array<Occurrence, ProblemCount> m_problems{};
};

} // namespace cs
