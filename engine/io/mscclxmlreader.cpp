#include "mscclxmlreader.h"

#include "lexicalscan_p.h"
#include "textposition_p.h"

#include <pugixml.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>

namespace cs {

namespace {

// An unknown coll is not a value one runtime reads otherwise: the executors' parser fails on the
// file, and since they parse every file in MSCCL_ALGO_DIR at start-up, MSCCL initialisation fails
// with no message naming the attribute (msccl-format pitfall P1); the classic loader's comparison
// chain refuses it too, and NCCL's own algorithms run instead.
std::string unknownCollExpectation(std::string_view coll)
{
  std::string text = "a collective some runtime knows (allreduce, allgather, reduce_scatter or "
                     "reducescatter, alltoall, broadcast, reduce, custom, …)";
  if (const std::optional<std::string_view> nearest = nearestCollSpelling(coll))
    text += "; did you mean \"" + std::string(*nearest) + "\"?";
  return text + " The executor runtimes fail MSCCL initialisation at start-up on this file with "
                "no message naming coll; the classic runtime refuses it";
}

// Reads the attributes of one element with the runtime's rules, recording every problem with
// the element's position. Attributes not consumed by the time unknownAttributes() runs are
// unknown. Kept allocation-free on the happy path: a large file has tens of thousands of steps.
class ElementReader
{
public:
  ElementReader(pugi::xml_node node, const Location& location, Diagnostics& out)
      : m_node(node), m_location(location), m_out(out), m_next(node.first_attribute())
  {
  }

  const Location& location() const { return m_location; }

  /// A mandatory integer; reports format.missing-attribute or format.bad-number and returns
  /// `fallback` so the rest of the document can still be read.
  template <typename Int> Int required(const char* name, Int fallback)
  {
    const std::optional<Int> value = optional<Int>(name, true);
    return value.value_or(fallback);
  }

  template <typename Int> std::optional<Int> optional(const char* name, bool mandatory = false)
  {
    const pugi::xml_attribute attribute = take(name);
    if (!attribute) {
      if (mandatory)
        missing(name);
      return std::nullopt;
    }
    return parseInteger<Int>(name, attribute.value());
  }

  /// A mandatory string attribute, or nullopt after reporting it missing.
  std::optional<std::string_view> requiredText(const char* name)
  {
    const pugi::xml_attribute attribute = take(name);
    if (!attribute) {
      missing(name);
      return std::nullopt;
    }
    return std::string_view(attribute.value());
  }

  std::optional<std::string_view> optionalText(const char* name)
  {
    const pugi::xml_attribute attribute = take(name);
    if (!attribute)
      return std::nullopt;
    return std::string_view(attribute.value());
  }

  /// A 0/1 flag. The runtime casts any integer to bool for inplace/outofplace; values other
  /// than 0 and 1 are reported with `severity`.
  std::optional<bool> flag(const char* name, bool mandatory, Severity severity)
  {
    const std::optional<long long> value = optional<long long>(name, mandatory);
    if (!value)
      return std::nullopt;
    if (*value != 0 && *value != 1)
      badValue(name, std::to_string(*value), "0 or 1", severity);
    return *value != 0;
  }

  void badValue(const char* name, std::string_view value, const std::string& expected,
                Severity severity = Severity::Error)
  {
    m_out.add(severity, "format.bad-value",
              "<" + element() + "> attribute " + name + "=\"" + std::string(value) +
                  "\" is not valid; expected " + expected,
              at(name));
  }

  /// Attributes nobody asked for, in document order.
  std::vector<Attribute> unknownAttributes() const
  {
    std::vector<Attribute> unknown;
    int total = 0;
    for (const pugi::xml_attribute attribute : m_node.attributes()) {
      (void)attribute;
      ++total;
    }
    if (total == m_found)
      return unknown;
    for (const pugi::xml_attribute attribute : m_node.attributes()) {
      const std::string_view name = attribute.name();
      if (std::find(m_taken.begin(), m_taken.begin() + m_takenCount, name) ==
          m_taken.begin() + m_takenCount)
        unknown.push_back({std::string(name), attribute.value()});
    }
    return unknown;
  }

  Location at(std::string_view attribute) const
  {
    Location location = m_location;
    location.element = element();
    location.attribute = attribute;
    return location;
  }

  std::string element() const { return m_node.name(); }

private:
  pugi::xml_attribute take(const char* name)
  {
    if (m_takenCount < m_taken.size())
      m_taken[m_takenCount++] = name;
    // Files almost always list attributes in the order we ask for them: try the next one first.
    pugi::xml_attribute attribute;
    if (m_next && std::strcmp(m_next.name(), name) == 0) {
      attribute = m_next;
      m_next = m_next.next_attribute();
    } else {
      attribute = m_node.attribute(name);
    }
    if (attribute)
      ++m_found;
    return attribute;
  }

  void missing(const char* name)
  {
    m_out.error("format.missing-attribute",
                "missing required " + element() + " attribute " + name +
                    " (every runtime requires it)",
                at(name));
  }

  // The runtime reads numbers with strtol(value, NULL, 0): decimal, 0x… hex and 0… octal, and
  // silently stops at the first bad character. We read the same way but refuse trailing junk.
  template <typename Int> std::optional<Int> parseInteger(const char* name, const char* text)
  {
    if (const std::optional<int> plain = plainDecimal(text))
      return static_cast<Int>(*plain);
    const std::string_view view(text);
    std::size_t start = 0;
    while (start < view.size() && (view[start] == ' ' || view[start] == '\t'))
      ++start;
    const std::string_view digits = view.substr(start);
    if (digits.empty()) {
      badNumber(name, text, "it is empty");
      return std::nullopt;
    }
    errno = 0;
    char* end = nullptr;
    const long long value = std::strtoll(digits.data(), &end, 0);
    if (end == digits.data() || *end != '\0') {
      badNumber(name, text, "it is not an integer");
      return std::nullopt;
    }
    if (errno == ERANGE || value < static_cast<long long>(std::numeric_limits<Int>::min()) ||
        value > static_cast<long long>(std::numeric_limits<Int>::max())) {
      badNumber(name, text, "it is out of range");
      return std::nullopt;
    }
    const std::string_view unsignedDigits =
        digits.starts_with('-') || digits.starts_with('+') ? digits.substr(1) : digits;
    if (unsignedDigits.size() > 1 && unsignedDigits[0] == '0') {
      const bool hex = unsignedDigits[1] == 'x' || unsignedDigits[1] == 'X';
      m_out.warning("format.number-base",
                    "<" + element() + "> attribute " + name + "=\"" + text +
                        "\" is read by the runtime as " + (hex ? "hexadecimal" : "octal") + " (" +
                        std::to_string(value) + "); write decimal numbers",
                    at(name));
    }
    return static_cast<Int>(value);
  }

  // The common case, "-1" or "123", without strtoll's locale and base handling.
  static std::optional<int> plainDecimal(const char* text)
  {
    const bool negative = *text == '-';
    const char* p = negative ? text + 1 : text;
    if (*p < '1' || *p > '9')
      return *p == '0' && p[1] == '\0' ? std::optional<int>(0) : std::nullopt;
    int value = 0;
    for (int digits = 0; *p != '\0'; ++p, ++digits) {
      if (*p < '0' || *p > '9' || digits >= 9)
        return std::nullopt;
      value = value * 10 + (*p - '0');
    }
    return negative ? -value : value;
  }

  void badNumber(const char* name, const char* text, const char* why)
  {
    m_out.error("format.bad-number",
                "<" + element() + "> attribute " + name + "=\"" + text + "\": " + why +
                    " (the runtime would read it as " +
                    std::to_string(std::strtoll(text, nullptr, 0)) + ")",
                at(name));
  }

  pugi::xml_node m_node;
  const Location& m_location;
  Diagnostics& m_out;
  // Every element type has at most ten known attributes.
  std::array<std::string_view, 12> m_taken{};
  std::size_t m_takenCount = 0;
  int m_found = 0;
  pugi::xml_attribute m_next;
};

class DocumentReader
{
public:
  DocumentReader(std::string_view text, Diagnostics& out) : m_text(text), m_lines(text), m_out(out)
  {
  }

  std::optional<Program> read()
  {
    if (m_text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
      m_out.error("format.empty", "the file is empty; expected an <algo> element");
      return std::nullopt;
    }
    scanRuntimeLexicalRules(m_text, m_lines, m_out);

    // Entities stay undecoded because the runtimes copy attribute values raw.
    const unsigned options = pugi::parse_default & ~pugi::parse_escapes;
    const pugi::xml_parse_result parsed =
        m_document.load_buffer(m_text.data(), m_text.size(), options, pugi::encoding_utf8);
    if (!parsed) {
      const TextPosition where =
          m_lines.position(static_cast<std::size_t>(std::max<ptrdiff_t>(parsed.offset, 0)));
      Location location;
      location.line = where.line;
      location.column = where.column;
      m_out.error("format.malformed",
                  std::string("the XML is not well formed: ") + parsed.description(), location);
      return std::nullopt;
    }

    pugi::xml_node root;
    int roots = 0;
    for (const pugi::xml_node node : m_document.children()) {
      if (node.type() != pugi::node_element)
        continue;
      if (++roots == 1)
        root = node;
    }
    if (std::string_view(root.name()) != "algo") {
      Location location = locate(root);
      m_out.error("format.root",
                  root ? "the root element is <" + std::string(root.name()) +
                             ">; the runtimes expect <algo>"
                       : std::string("the document has no element; expected <algo>"),
                  location);
      return std::nullopt;
    }
    if (roots > 1)
      m_out.warning("format.root", "the document has " + std::to_string(roots) +
                                       " top-level elements; only the first <algo> is read");
    return readAlgo(root);
  }

private:
  Location locate(pugi::xml_node node) const
  {
    Location location;
    if (node && node.offset_debug() >= 0) {
      const TextPosition where = m_lines.position(static_cast<std::size_t>(node.offset_debug()));
      location.line = where.line;
      location.column = where.column;
    }
    return location;
  }

  Program readAlgo(pugi::xml_node node)
  {
    const Location location = locate(node);
    ElementReader reader(node, location, m_out);
    Program program;
    program.line = reader.location().line;
    program.name = std::string(reader.optionalText("name").value_or(""));
    if (const auto proto = reader.requiredText("proto")) {
      if (const auto parsed = parseProtocol(*proto))
        program.proto = *parsed;
      else
        reader.badValue("proto", *proto, "Simple, LL or LL128 (exact case)");
    }
    program.nchannels = reader.required<int>("nchannels", 1);
    program.nchunksperloop = reader.required<int>("nchunksperloop", 1);
    program.ngpus = reader.required<int>("ngpus", 0);
    if (const auto coll = reader.requiredText("coll")) {
      program.collSpelling = std::string(*coll);
      if (const auto parsed = parseCollective(*coll))
        program.collective = *parsed;
      else {
        program.collective = Collective::Custom;
        reader.badValue("coll", *coll, unknownCollExpectation(*coll));
      }
    }
    program.inplace = reader.flag("inplace", true, Severity::Warning).value_or(false);
    program.outofplace = reader.flag("outofplace", false, Severity::Warning);
    program.minBytes = reader.optional<std::int64_t>("minBytes");
    program.maxBytes = reader.optional<std::int64_t>("maxBytes");
    program.nthreads = reader.optional<int>("nthreads");
    program.extraAttributes = reader.unknownAttributes();
    for (const Attribute& extra : program.extraAttributes) {
      m_out.info("format.unknown-attribute",
                 "<algo> attribute " + extra.name + " is not read by any runtime; it is kept as is",
                 reader.at(extra.name));
    }

    for (const pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element)
        continue;
      if (std::string_view(child.name()) == "gpu")
        program.gpus.push_back(readGpu(child));
      else
        unknownElement(child, "algo");
    }
    std::stable_sort(program.gpus.begin(), program.gpus.end(),
                     [](const Gpu& a, const Gpu& b) { return a.id < b.id; });
    return program;
  }

  Gpu readGpu(pugi::xml_node node)
  {
    const Location location = locate(node);
    ElementReader reader(node, location, m_out);
    Gpu gpu;
    gpu.line = reader.location().line;
    gpu.id = reader.required<int>("id", -1);
    gpu.inputChunks = reader.required<int>("i_chunks", 0);
    gpu.outputChunks = reader.required<int>("o_chunks", 0);
    gpu.scratchChunks = reader.required<int>("s_chunks", 0);
    reportUnknown(reader);
    for (const pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element)
        continue;
      if (std::string_view(child.name()) == "tb")
        gpu.threadblocks.push_back(readThreadBlock(child, gpu.id));
      else
        unknownElement(child, "gpu");
    }
    std::stable_sort(gpu.threadblocks.begin(), gpu.threadblocks.end(),
                     [](const ThreadBlock& a, const ThreadBlock& b) { return a.id < b.id; });
    return gpu;
  }

  ThreadBlock readThreadBlock(pugi::xml_node node, int rank)
  {
    Location location = locate(node);
    location.rank = rank;
    ElementReader reader(node, location, m_out);
    ThreadBlock tb;
    tb.line = reader.location().line;
    tb.id = reader.required<int>("id", -1);
    tb.send = reader.required<int>("send", -1);
    tb.recv = reader.required<int>("recv", -1);
    tb.chan = reader.required<int>("chan", 0);
    reportUnknown(reader);
    for (const pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element)
        continue;
      if (std::string_view(child.name()) == "step")
        tb.steps.push_back(readStep(child, rank, tb.id, static_cast<int>(tb.steps.size())));
      else
        unknownElement(child, "tb");
    }
    return tb;
  }

  Step readStep(pugi::xml_node node, int rank, int tbId, int position)
  {
    Location location = locate(node);
    location.rank = rank;
    location.tb = tbId;
    location.step = position;
    ElementReader reader(node, location, m_out);
    Step step;
    step.line = reader.location().line;
    step.s = reader.required<int>("s", position);
    if (const auto type = reader.requiredText("type")) {
      if (const auto parsed = parseOpType(*type))
        step.type = *parsed;
      else if (*type == "ra")
        m_out.error("format.unknown-type",
                    "step type \"ra\" (residual add) is parsed by the classic runtime but never "
                    "executed, and the current executor and RCCL reject it",
                    reader.at("type"));
      else
        m_out.error("format.unknown-type",
                    "unknown step type \"" + std::string(*type) +
                        "\"; expected one of s, r, rcs, rrs, rrc, rrcs, cpy, re, nop",
                    reader.at("type"));
    }
    step.srcBuf = buffer(reader, "srcbuf", Buffer::Input);
    step.srcOff = reader.required<int>("srcoff", -1);
    step.dstBuf = buffer(reader, "dstbuf", Buffer::Output);
    step.dstOff = reader.required<int>("dstoff", -1);
    step.cnt = reader.required<int>("cnt", 0);
    step.depid = reader.required<int>("depid", -1);
    step.deps = reader.required<int>("deps", -1);
    // The runtime refuses any other value ("hasDependence needs to be 0 or 1").
    step.hasdep = reader.flag("hasdep", true, Severity::Error).value_or(false);
    reportUnknown(reader);
    for (const pugi::xml_node child : node.children()) {
      if (child.type() == pugi::node_element)
        unknownElement(child, "step");
    }
    return step;
  }

  Buffer buffer(ElementReader& reader, const char* name, Buffer fallback)
  {
    const std::optional<std::string_view> text = reader.requiredText(name);
    if (!text)
      return fallback;
    if (const auto parsed = parseBuffer(*text))
      return *parsed;
    reader.badValue(name, *text, "i, o or s (even where the instruction ignores it)");
    return fallback;
  }

  void reportUnknown(const ElementReader& reader)
  {
    for (const Attribute& extra : reader.unknownAttributes()) {
      m_out.info("format.unknown-attribute",
                 "<" + reader.element() + "> attribute " + extra.name +
                     " is not read by any runtime and is dropped",
                 reader.at(extra.name));
    }
  }

  void unknownElement(pugi::xml_node node, const char* parent)
  {
    Location location = locate(node);
    location.element = node.name();
    m_out.warning("format.unknown-element",
                  "<" + std::string(node.name()) + "> inside <" + parent +
                      "> is skipped by the runtimes, with everything in it",
                  location);
  }

  std::string_view m_text;
  LineIndex m_lines;
  Diagnostics& m_out;
  pugi::xml_document m_document;
};

} // namespace

bool ReadResult::hasErrors() const
{
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

ReadResult readMscclXml(std::string_view text)
{
  Diagnostics diagnostics;
  DocumentReader reader(text, diagnostics);
  ReadResult result;
  result.program = reader.read();
  result.diagnostics = diagnostics.take();
  return result;
}

ReadResult readMscclXmlFile(const std::filesystem::path& path)
{
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    ReadResult result;
    result.unreadable = true;
    result.diagnostics.push_back(
        {Severity::Error, "format.io", path.string() + " is a directory, not an XML file", {}, {}});
    return result;
  }
  std::string contents;
  std::ifstream file(path, std::ios::binary);
  if (file) {
    file.seekg(0, std::ios::end);
    const std::streamoff size = file.tellg();
    file.seekg(0, std::ios::beg);
    if (size > 0) {
      contents.resize(static_cast<std::size_t>(size));
      file.read(contents.data(), size);
    }
  }
  if (!file) {
    ReadResult result;
    result.unreadable = true;
    result.diagnostics.push_back(
        {Severity::Error,
         "format.io",
         "cannot read " + path.string() + ": " + std::generic_category().message(errno),
         {},
         {}});
    return result;
  }
  return readMscclXml(contents);
}

} // namespace cs
