#include "lexicalscan_p.h"

#include <array>
#include <cstddef>
#include <string>

namespace cs {

namespace {

// The runtime's parser keeps names and values in 255-character fields (msccl-format.md §1).
constexpr std::size_t kMaxRuntimeToken = 255;

enum Problem : std::size_t {
  Declaration,
  Doctype,
  Cdata,
  SingleQuotes,
  BreakInTag,
  ExtraSpace,
  TabBetweenElements,
  Entity,
  LongToken,
  ProblemCount,
};

struct ProblemInfo {
  Severity severity;
  const char* code;
  const char* message;
};

constexpr std::array<ProblemInfo, ProblemCount> kProblems = {{
    {Severity::Error, "format.lexical.declaration",
     "an XML declaration or processing instruction; the runtimes' parser does not accept '<?'"},
    {Severity::Error, "format.lexical.doctype",
     "a <!DOCTYPE> or other '<!' construct the runtimes' parser does not accept"},
    {Severity::Error, "format.lexical.cdata", "a CDATA section; the runtimes' parser has none"},
    {Severity::Error, "format.lexical.quotes",
     "an attribute value in single quotes; the runtimes' parser needs double quotes"},
    {Severity::Error, "format.lexical.line-break",
     "a line break or tab inside a tag; the runtimes' parser needs all attributes on one line "
     "separated by single spaces (\"expected >\")"},
    {Severity::Warning, "format.lexical.spacing",
     "more than one space between attributes; each extra space becomes an empty attribute in the "
     "runtimes' parser and counts against its 16 attributes per element"},
    {Severity::Error, "format.lexical.tab",
     "a tab between elements; the runtimes' parser accepts only spaces and line breaks there"},
    {Severity::Warning, "format.lexical.entity",
     "an '&' in an attribute value; the runtimes copy values raw, so an entity such as &amp; "
     "stays literal"},
    {Severity::Error, "format.lexical.length",
     "an attribute name or value longer than 255 characters, which the runtimes' parser cuts"},
}};

class Scanner
{
public:
  Scanner(std::string_view text, const LineIndex& lines) : m_text(text), m_lines(lines) {}

  void run()
  {
    while (m_pos < m_text.size()) {
      if (m_text[m_pos] == '<' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] != '!' &&
          m_text[m_pos + 1] != '?') {
        scanTag();
      } else if (startsWith("<!--")) {
        skipPast("-->");
      } else if (startsWith("<?")) {
        note(Declaration, m_pos);
        skipPast("?>");
      } else if (startsWith("<![CDATA[")) {
        note(Cdata, m_pos);
        skipPast("]]>");
      } else if (startsWith("<!")) {
        note(Doctype, m_pos);
        skipPast(">");
      } else if (m_text[m_pos] == '<') {
        scanTag();
      } else {
        // Text between elements: only a tab matters, so jump to the next '<' or tab.
        const std::size_t next = m_text.find_first_of("<\t", m_pos);
        if (next == std::string_view::npos) {
          m_pos = m_text.size();
        } else if (m_text[next] == '\t') {
          note(TabBetweenElements, next);
          m_pos = next + 1;
        } else {
          m_pos = next;
        }
      }
    }
  }

  void report(Diagnostics& out) const
  {
    for (std::size_t p = 0; p < ProblemCount; ++p) {
      if (m_counts[p] == 0)
        continue;
      const TextPosition where = m_lines.position(m_first[p]);
      std::string message = kProblems[p].message;
      if (m_counts[p] > 1)
        message += " (and " + std::to_string(m_counts[p] - 1) + " more)";
      Location location;
      location.line = where.line;
      location.column = where.column;
      out.add(kProblems[p].severity, kProblems[p].code, std::move(message), location);
    }
  }

private:
  bool startsWith(std::string_view prefix) const
  {
    return m_text.compare(m_pos, prefix.size(), prefix) == 0;
  }

  void skipPast(std::string_view terminator)
  {
    const std::size_t end = m_text.find(terminator, m_pos);
    m_pos = end == std::string_view::npos ? m_text.size() : end + terminator.size();
  }

  void note(Problem problem, std::size_t offset)
  {
    if (m_counts[problem]++ == 0)
      m_first[problem] = offset;
  }

  static bool isNameChar(char c)
  {
    return c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '=' && c != '>' && c != '/' &&
           c != '"' && c != '\'';
  }

  // From '<' to the matching '>' of an element tag, following the runtime's expectations:
  // name, then (single space, name="value")*, then optional '/', then '>'.
  void scanTag()
  {
    ++m_pos; // '<'
    while (m_pos < m_text.size() && isNameChar(m_text[m_pos]))
      ++m_pos;
    while (m_pos < m_text.size()) {
      const char c = m_text[m_pos];
      if (c == '>') {
        ++m_pos;
        return;
      }
      if (c == '\n' || c == '\r' || c == '\t') {
        note(BreakInTag, m_pos);
        ++m_pos;
      } else if (c == ' ') {
        const std::size_t start = m_pos;
        while (m_pos < m_text.size() && m_text[m_pos] == ' ')
          ++m_pos;
        if (m_pos - start > 1)
          note(ExtraSpace, start);
      } else if (c == '"' || c == '\'') {
        scanValue(c);
      } else if (c == '=' || c == '/') {
        ++m_pos;
      } else {
        const std::size_t start = m_pos;
        while (m_pos < m_text.size() && isNameChar(m_text[m_pos]))
          ++m_pos;
        if (m_pos - start > kMaxRuntimeToken)
          note(LongToken, start);
      }
    }
  }

  void scanValue(char quote)
  {
    if (quote == '\'')
      note(SingleQuotes, m_pos);
    const std::size_t start = ++m_pos;
    std::size_t end = m_text.find(quote, start);
    if (end == std::string_view::npos)
      end = m_text.size();
    const std::size_t ampersand = m_text.substr(start, end - start).find('&');
    if (ampersand != std::string_view::npos)
      note(Entity, start + ampersand);
    if (end - start > kMaxRuntimeToken)
      note(LongToken, start);
    m_pos = end < m_text.size() ? end + 1 : end; // past the closing quote
  }

  std::string_view m_text;
  const LineIndex& m_lines;
  std::size_t m_pos = 0;
  std::array<int, ProblemCount> m_counts{};
  std::array<std::size_t, ProblemCount> m_first{};
};

} // namespace

void scanRuntimeLexicalRules(std::string_view text, const LineIndex& lines, Diagnostics& out)
{
  Scanner scanner(text, lines);
  scanner.run();
  scanner.report(out);
}

} // namespace cs
