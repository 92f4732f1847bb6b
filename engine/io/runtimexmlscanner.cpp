#include "runtimexmlscanner_p.h"

#include <algorithm>
#include <cstring>
#include <tuple>
#include <utility>

namespace cs {

namespace {

struct ProblemInfo {
  Severity severity;
  const char* code;
  const char* message; ///< the first occurrence's detail, if any, follows in quotes
};

// What the runtimes' tokenizer does at each spot, read from mscclXmlGetNode (expects '<' after
// spaces and line breaks), mscclXmlGetToken (a name ends at ' ', '>', '/', '\n', '\r' or '='),
// mscclXmlGetValue (the value opens with " or ' and ends at the next ") and the classic xml.cc.
constexpr std::array<ProblemInfo, RuntimeXmlScanner::ProblemCount> kProblems = {{
    {Severity::Error, "format.lexical.bom",
     "a UTF-8 byte-order mark before the first element: the runtimes' reader stops reading here "
     "(\"expecting '<', got '\\xEF'\") and the file does not load; save it without a BOM"},
    {Severity::Error, "format.lexical.text",
     "text between elements: the runtimes' reader accepts only spaces and line breaks there and "
     "stops reading here (\"expecting '<'\"); the file does not load"},
    {Severity::Error, "format.lexical.tab",
     "a tab between elements: the runtimes' reader accepts only spaces and line breaks there and "
     "stops reading here (\"expecting '<', got '\\t'\"); the file does not load"},
    {Severity::Error, "format.lexical.declaration",
     "an XML declaration or processing instruction: the runtimes' reader takes '<?' for an "
     "element it skips and reads to the end of the file looking for its end (\"unterminated\"); "
     "the file does not load"},
    {Severity::Error, "format.lexical.doctype",
     "a <!DOCTYPE> or other '<!' construct: the runtimes' reader takes it for an element and does "
     "not load the file"},
    {Severity::Error, "format.lexical.cdata",
     "a CDATA section: the runtimes' reader has none and stops reading here"},
    {Severity::Error, "format.lexical.comment",
     "an '=' in the first word of a comment: the runtimes' reader reads that word as an element "
     "name and stops reading here (\"Unexpected value with name\")"},
    {Severity::Error, "format.lexical.quotes",
     "an attribute value in single quotes: the runtimes' reader accepts ' as the opening quote "
     "but reads on to the next double quote, so the value and the rest of the tag are misread; "
     "write double quotes"},
    {Severity::Error, "format.lexical.line-break",
     "a line break or tab inside a tag: the runtimes' reader needs all attributes on one line "
     "separated by single spaces and stops reading here (\"expected >\")"},
    {Severity::Warning, "format.lexical.spacing",
     "more than one space between attributes: the runtimes' reader reads each extra space as an "
     "empty attribute, which counts against its 16 attributes per element"},
    {Severity::Error, "format.lexical.equals",
     "a space after '=': the runtimes' reader expects the opening quote right after '=' and stops "
     "reading here (\"Expected (double) quote\"); the file does not load"},
    {Severity::Warning, "format.lexical.equals",
     "a space before '=': the runtimes' reader ends the attribute name at the space, so it reads "
     "this attribute with an empty value (a number reads as 0) and the value as a second, "
     "nameless attribute"},
    {Severity::Error, "format.lexical.close-tag",
     "a space inside a closing tag: the runtimes' reader stops reading here (\"unexpected "
     "trailing ' ' in closing tag\"); the file does not load"},
    {Severity::Warning, "format.lexical.entity",
     "an '&' in an attribute value: the runtimes copy values raw, so an entity such as &amp; "
     "stays literal"},
    {Severity::Error, "format.lexical.length",
     "an element or attribute name of 255 characters or more: the runtimes' reader stops reading "
     "here (\"name too long\"); the file does not load"},
    {Severity::Error, "format.lexical.value-length",
     "an attribute value longer than 255 characters: the runtimes' reader copies a value into its "
     "256-byte field without checking the length, so this one overruns into the fields after it "
     "(the next attribute's name, or past the element); undefined behaviour: the file may load "
     "with other values than written or crash the process"},
    {Severity::Warning, "format.lexical.attribute-count",
     "an element with more than 16 attributes as the runtimes' reader counts them (an extra space "
     "counts as one): it keeps the first 16 and drops the rest, so a required attribute past "
     "them is missing to the runtime"},
}};

// Character classes, looked up once per byte: the scanner's inner loops run over every byte of
// files with tens of thousands of tags.
constexpr std::uint8_t kNameEnd = 1; // ends a name: white space, '=', '>', '/', quotes, '<'
constexpr std::uint8_t kTagSpace = 2;
constexpr std::uint8_t kValueStop =
    4; // ends a value, or needs a look inside one: quotes, '&', '\n'

constexpr std::array<std::uint8_t, 256> makeClasses()
{
  std::array<std::uint8_t, 256> classes{};
  for (const unsigned char c : {' ', '\t', '\n', '\r'})
    classes[c] = kNameEnd | kTagSpace;
  for (const unsigned char c : {'=', '>', '/', '"', '\'', '<'})
    classes[c] = kNameEnd;
  for (const unsigned char c : {'"', '\'', '&', '\n'})
    classes[c] |= kValueStop;
  return classes;
}

constexpr std::array<std::uint8_t, 256> kClasses = makeClasses();

bool isNameEnd(char c)
{
  return (kClasses[static_cast<unsigned char>(c)] & kNameEnd) != 0;
}

bool isTagSpace(char c)
{
  return (kClasses[static_cast<unsigned char>(c)] & kTagSpace) != 0;
}

} // namespace

RuntimeXmlScanner::RuntimeXmlScanner(std::string_view text) : m_text(text)
{
  m_open.reserve(8);
  if (m_text.starts_with("\xEF\xBB\xBF")) {
    note(Bom, 0);
    m_pos = 3;
  }
}

void RuntimeXmlScanner::next(ScannedTag& tag)
{
  tag.kind = TagKind::End;
  tag.attributes.clear();
  while (!m_malformed && m_pos < m_text.size() && tag.kind == TagKind::End) {
    if (m_text[m_pos] == '<')
      markup(tag);
    else
      between();
  }
  if (!m_malformed && m_pos >= m_text.size() && tag.kind == TagKind::End && !m_open.empty())
    fail(m_text.size(), "the file ends inside <" + std::string(m_open.back()) +
                            "> (the runtimes' reader: \"unterminated " +
                            std::string(m_open.back()) + "\")");
  if (m_malformed)
    tag.kind = TagKind::End;
}

// Between tags the runtime skips spaces, '\n' and '\r' and expects '<' (mscclXmlGetNode).
void RuntimeXmlScanner::between()
{
  const char* const text = m_text.data();
  const std::size_t size = m_text.size();
  std::size_t pos = m_pos; // in a register while it walks the indentation
  while (pos < size) {
    const char c = text[pos];
    if (c == ' ' || c == '\r') {
      ++pos;
      continue;
    }
    if (c == '\n') {
      ++pos;
      ++m_line;
      m_lineStart = pos;
      continue;
    }
    m_pos = pos;
    if (c == '<')
      return;
    if (c == '\t') {
      note(TabBetweenElements, pos);
      ++pos;
    } else if (m_open.empty()) {
      fail(pos, "text outside the root element");
      return;
    } else {
      note(Text, pos, m_text.substr(pos, 1));
      const std::size_t end = std::min(m_text.find('<', pos), size);
      advanceLines(pos, end);
      pos = end;
    }
  }
  m_pos = pos;
}

void RuntimeXmlScanner::markup(ScannedTag& tag)
{
  const std::string_view rest = m_text.substr(m_pos);
  if (rest.starts_with("<!--")) {
    skipComment();
  } else if (rest.starts_with("<?")) {
    note(Declaration, m_pos);
    skipPast("?>", "a processing instruction without its closing '?>'");
  } else if (rest.starts_with("<![CDATA[")) {
    note(Cdata, m_pos);
    skipPast("]]>", "a CDATA section without its closing ']]>'");
  } else if (rest.starts_with("<!")) {
    note(Doctype, m_pos);
    skipPast(">", "a '<!' construct without its closing '>'");
  } else if (rest.starts_with("</")) {
    closeTag(tag);
  } else {
    openTag(tag);
  }
}

void RuntimeXmlScanner::skipComment()
{
  // The runtime reads the comment's first word as an element name (mscclXmlGetToken with no
  // value allowed) before it looks for "-->".
  std::size_t word = m_pos + 1;
  while (word < m_text.size() && !isNameEnd(m_text[word]) && m_text[word] != '\t')
    ++word;
  if (word < m_text.size() && m_text[word] == '=')
    note(CommentEquals, m_pos);
  else if (word - (m_pos + 1) >= kRuntimeMaxString)
    note(LongName, m_pos + 1);
  const std::size_t end = m_text.find("-->", m_pos + 4);
  if (end == std::string_view::npos) {
    fail(m_pos, "a comment without its closing '-->' (the runtimes' reader: \"unterminated "
                "comment\")");
    return;
  }
  advanceLines(m_pos, end);
  m_pos = end + 3;
}

void RuntimeXmlScanner::skipPast(std::string_view terminator, std::string_view unterminated)
{
  const std::size_t end = m_text.find(terminator, m_pos + 2);
  if (end == std::string_view::npos) {
    fail(m_pos, std::string(unterminated));
    return;
  }
  advanceLines(m_pos, end);
  m_pos = end + terminator.size();
}

// The end of the name that starts at `from`. A local index, not m_pos, so the loop stays in a
// register (the text's bytes could alias the scanner's members for the compiler).
std::size_t RuntimeXmlScanner::nameEnd(std::size_t from) const
{
  const char* const text = m_text.data();
  const std::size_t size = m_text.size();
  while (from < size && !isNameEnd(text[from]))
    ++from;
  return from;
}

// Whitespace inside a tag. The runtime separates attributes by single spaces only: a line break
// or tab ends the tag for it ("expected >").
std::size_t RuntimeXmlScanner::skipTagSpace()
{
  std::size_t spaces = 0;
  while (m_pos < m_text.size() && isTagSpace(m_text[m_pos])) {
    const char c = m_text[m_pos];
    if (c == ' ') {
      ++spaces;
    } else {
      note(BreakInTag, m_pos);
      if (c == '\n') {
        ++m_line;
        m_lineStart = m_pos + 1;
      }
    }
    ++m_pos;
  }
  return spaces;
}

void RuntimeXmlScanner::openTag(ScannedTag& tag)
{
  const std::size_t start = m_pos++;
  tag.line = m_line;
  tag.column = static_cast<int>(start - m_lineStart) + 2; // the name's, as editors show it
  m_pos = nameEnd(m_pos);
  tag.name = m_text.substr(start + 1, m_pos - start - 1);
  if (tag.name.empty()) {
    fail(start, "a '<' that starts no element name");
    return;
  }
  if (tag.name.size() >= kRuntimeMaxString)
    note(LongName, start + 1);
  // The runtime's count of attributes: every extra space is an empty one (mscclXmlGetNode reads
  // a token after each space).
  std::size_t runtimeCount = 0;
  std::size_t dropped = 0;
  std::string droppedNames;
  while (!m_malformed) {
    const bool spaceFirst = m_pos < m_text.size() && isTagSpace(m_text[m_pos]);
    std::size_t spaces = 0;
    if (spaceFirst && m_text[m_pos] == ' ' && m_pos + 1 < m_text.size() &&
        !isTagSpace(m_text[m_pos + 1])) {
      spaces = 1; // the usual single space between attributes
      ++m_pos;
    } else {
      spaces = skipTagSpace();
    }
    if (m_pos >= m_text.size()) {
      fail(start, "the file ends inside the tag <" + std::string(tag.name) + ">");
      return;
    }
    const char c = m_text[m_pos];
    if (c == '>' || c == '/') {
      runtimeCount += spaces;
      if (c == '/' && (m_pos + 1 >= m_text.size() || m_text[m_pos + 1] != '>')) {
        fail(m_pos, "a '/' not followed by '>' in <" + std::string(tag.name) + ">");
        return;
      }
      m_pos += c == '/' ? 2 : 1;
      tag.kind = c == '/' ? TagKind::SelfClosing : TagKind::Open;
      break;
    }
    if (!spaceFirst) {
      fail(m_pos, "attributes of <" + std::string(tag.name) + "> not separated by a space");
      return;
    }
    if (!attribute(tag, spaces, runtimeCount))
      return;
    if (!tag.attributes.back().kept) {
      ++dropped;
      droppedNames += (droppedNames.empty() ? "" : ", ") + std::string(tag.attributes.back().name);
    }
  }
  if (dropped > 0)
    note(AttributeCount, start, "<" + std::string(tag.name) + "> drops " + droppedNames);
  if (tag.kind == TagKind::Open)
    m_open.push_back(tag.name);
}

// One name="value" after `spaces` spaces; false after a fault.
bool RuntimeXmlScanner::attribute(ScannedTag& tag, std::size_t spaces, std::size_t& runtimeCount)
{
  if (spaces > 1) {
    note(ExtraSpace, m_pos - spaces);
    runtimeCount += spaces - 1;
  }
  const std::size_t nameStart = m_pos;
  m_pos = nameEnd(m_pos);
  const std::string_view name = m_text.substr(nameStart, m_pos - nameStart);
  if (name.empty()) {
    fail(nameStart, "an attribute without a name in <" + std::string(tag.name) + ">");
    return false;
  }
  if (name.size() >= kRuntimeMaxString)
    note(LongName, nameStart);
  // The common case, name="value", without the white-space scans.
  const bool spaceBefore = m_pos < m_text.size() && m_text[m_pos] != '=' &&
                           (skipTagSpace() > 0 || m_pos > nameStart + name.size());
  if (m_pos >= m_text.size() || m_text[m_pos] != '=') {
    fail(m_pos, "attribute " + std::string(name) + " of <" + std::string(tag.name) +
                    "> without '=' and a quoted value");
    return false;
  }
  ++m_pos;
  const std::size_t equalsEnd = m_pos;
  const bool spaceAfter =
      m_pos < m_text.size() && m_text[m_pos] != '"' && (skipTagSpace() > 0 || m_pos > equalsEnd);
  const char quote = m_pos < m_text.size() ? m_text[m_pos] : '\0';
  if (quote != '"' && quote != '\'') {
    fail(m_pos, "attribute " + std::string(name) + " of <" + std::string(tag.name) +
                    "> has no quoted value");
    return false;
  }
  if (quote == '\'')
    note(SingleQuotes, m_pos);
  const std::size_t valueStart = m_pos + 1;
  const std::size_t valueEnd = scanValue(valueStart, quote);
  if (valueEnd == std::string_view::npos) {
    fail(m_pos, "the file ends inside the value of attribute " + std::string(name));
    return false;
  }
  std::string_view value = m_text.substr(valueStart, valueEnd - valueStart);
  if (value.size() > kRuntimeMaxString)
    note(LongValue, valueStart);
  if (spaceAfter) {
    note(SpaceAfterEquals, equalsEnd - 1);
  } else if (spaceBefore) {
    note(SpaceBeforeEquals, nameStart + name.size(), name);
    value = {}; // the name ends at the space; the value goes to a nameless attribute
    ++runtimeCount;
  }
  m_pos = valueEnd + 1;
  tag.attributes.push_back({name, value, runtimeCount < kRuntimeMaxAttributes});
  ++runtimeCount;
  return true;
}

// The end of the value that starts at `start` (the position of its closing `quote`), or npos;
// notes entities and follows line breaks on the way. Values are short: one loop, no calls.
std::size_t RuntimeXmlScanner::scanValue(std::size_t start, char quote)
{
  const char* const text = m_text.data();
  const std::size_t size = m_text.size();
  for (std::size_t end = start; end < size; ++end) {
    const char c = text[end];
    if ((kClasses[static_cast<unsigned char>(c)] & kValueStop) == 0)
      continue;
    if (c == quote)
      return end;
    if (c == '&') {
      note(Entity, end);
    } else if (c == '\n') {
      ++m_line;
      m_lineStart = end + 1;
    }
  }
  return std::string_view::npos;
}

void RuntimeXmlScanner::closeTag(ScannedTag& tag)
{
  const std::size_t start = m_pos;
  tag.line = m_line;
  tag.column = static_cast<int>(start - m_lineStart) + 2; // the name's, as editors show it
  m_pos += 2;
  m_pos = nameEnd(m_pos);
  tag.name = m_text.substr(start + 2, m_pos - start - 2);
  if (m_pos < m_text.size() && isTagSpace(m_text[m_pos])) {
    note(CloseTagSpace, m_pos);
    skipTagSpace();
  }
  if (m_pos >= m_text.size() || m_text[m_pos] != '>') {
    fail(start, "the closing tag </" + std::string(tag.name) + "> has no '>'");
    return;
  }
  ++m_pos;
  if (m_open.empty() || m_open.back() != tag.name) {
    fail(start, "</" + std::string(tag.name) + "> closes " +
                    (m_open.empty() ? std::string("no open element")
                                    : "<" + std::string(m_open.back()) + ">") +
                    " (the runtimes' reader: \"XML Mismatch\")");
    return;
  }
  m_open.pop_back();
  tag.kind = TagKind::Close;
}

void RuntimeXmlScanner::advanceLines(std::size_t from, std::size_t to)
{
  const char* const begin = m_text.data();
  while (from < to) {
    const void* found = std::memchr(begin + from, '\n', to - from);
    if (!found)
      return;
    from = static_cast<std::size_t>(static_cast<const char*>(found) - begin) + 1;
    ++m_line;
    m_lineStart = from;
  }
}

// The line and column of `offset`, at or before the scan position: walks back from the current
// line, which is where nearly every offset lies.
std::pair<int, int> RuntimeXmlScanner::positionOf(std::size_t offset) const
{
  int line = m_line;
  std::size_t lineStart = m_lineStart;
  while (offset < lineStart && line > 1) {
    const std::size_t previous =
        lineStart >= 2 ? m_text.rfind('\n', lineStart - 2) : std::string_view::npos;
    lineStart = previous == std::string_view::npos ? 0 : previous + 1;
    --line;
  }
  return {line, static_cast<int>(offset - std::min(offset, lineStart)) + 1};
}

void RuntimeXmlScanner::note(Problem problem, std::size_t offset, std::string_view detail)
{
  Occurrence& occurrence = m_problems[problem];
  if (occurrence.count++ > 0)
    return;
  std::tie(occurrence.line, occurrence.column) = positionOf(offset);
  occurrence.detail = detail;
}

void RuntimeXmlScanner::fail(std::size_t offset, const std::string& message)
{
  if (m_malformed)
    return;
  m_malformed = true;
  const auto [line, column] = positionOf(offset);
  m_fault = {1, line, column, message};
  m_pos = m_text.size();
}

void RuntimeXmlScanner::report(Diagnostics& out) const
{
  for (std::size_t p = 0; p < ProblemCount; ++p) {
    const Occurrence& occurrence = m_problems[p];
    if (occurrence.count == 0)
      continue;
    std::string message = kProblems[p].message;
    if (!occurrence.detail.empty())
      message += " (\"" + occurrence.detail + "\")";
    if (occurrence.count > 1)
      message += " (and " + std::to_string(occurrence.count - 1) + " more)";
    Location location;
    location.line = occurrence.line;
    location.column = occurrence.column;
    out.add(kProblems[p].severity, kProblems[p].code, std::move(message), location);
  }
  if (m_malformed) {
    Location location;
    location.line = m_fault.line;
    location.column = m_fault.column;
    out.error("format.malformed", "the XML is not well formed: " + m_fault.detail, location);
  }
}

} // namespace cs
