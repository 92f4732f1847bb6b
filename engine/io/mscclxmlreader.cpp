#include "mscclxmlreader.h"

#include "elementreader_p.h"
#include "runtimexmlscanner_p.h"

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

// The runtimes' reader stores the <algo>, every <gpu>, and the loading rank's <tb> and <step>
// elements, at most MSCCL_MAX_NODES = 4096 of them, and fails before reading past the last slot
// ("XML parser is limited to 1024 nodes", mscclXmlLoadSub; msccl-format §1).
constexpr std::size_t kRuntimeMaxNodes = 4096;

class DocumentReader
{
public:
  DocumentReader(std::string_view text, Diagnostics& out)
      : m_text(text), m_scanner(text), m_out(out)
  {
  }

  std::optional<Program> read()
  {
    if (m_text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
      m_out.error("format.empty", "the file is empty; expected an <algo> element");
      return std::nullopt;
    }
    std::optional<Program> program = readDocument();
    Diagnostics lexical;
    m_scanner.report(lexical);
    // The runtimes' reading problems first: they explain what follows.
    std::vector<Diagnostic> model = m_out.take();
    m_out.append(lexical.take());
    m_out.append(model);
    if (m_scanner.malformed())
      return std::nullopt;
    if (program)
      checkNodeCount(*program);
    return program;
  }

private:
  std::optional<Program> readDocument()
  {
    m_scanner.next(m_tag);
    if (m_tag.kind == TagKind::End) {
      if (!m_scanner.malformed())
        m_out.error("format.root", "the document has no element; expected <algo>");
      return std::nullopt;
    }
    if (m_tag.name != "algo") {
      m_out.error("format.root",
                  "the root element is <" + std::string(m_tag.name) +
                      ">; the runtimes expect <algo>",
                  locate(m_tag));
      return std::nullopt;
    }
    Program program = readAlgo();
    int roots = 1;
    for (m_scanner.next(m_tag); m_tag.kind != TagKind::End; m_scanner.next(m_tag)) {
      if (m_scanner.depth() == (m_tag.kind == TagKind::Open ? 1U : 0U) &&
          m_tag.kind != TagKind::Close)
        ++roots;
    }
    if (roots > 1)
      m_out.warning("format.root", "the document has " + std::to_string(roots) +
                                       " top-level elements; only the first <algo> is read");
    return program;
  }

  static Location locate(const ScannedTag& tag)
  {
    Location location;
    location.line = tag.line;
    location.column = tag.column;
    return location;
  }

  Program readAlgo()
  {
    const Location location = locate(m_tag);
    const bool hasChildren = m_tag.kind == TagKind::Open;
    ElementReader reader(m_tag, location, m_out);
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
    forEachChild(hasChildren, "algo", [&] {
      if (m_tag.name != "gpu")
        return false;
      program.gpus.push_back(readGpu());
      return true;
    });
    std::stable_sort(program.gpus.begin(), program.gpus.end(),
                     [](const Gpu& a, const Gpu& b) { return a.id < b.id; });
    return program;
  }

  // Reads the children of the element just read up to its closing tag: `known` takes the
  // children it models (with m_tag holding each), the rest are skipped with a warning.
  template <typename Known> void forEachChild(bool hasChildren, const char* parent, Known known)
  {
    if (!hasChildren)
      return;
    for (m_scanner.next(m_tag); m_tag.kind != TagKind::End; m_scanner.next(m_tag)) {
      if (m_tag.kind == TagKind::Close)
        return;
      if (!known())
        unknownElement(parent);
    }
  }

  Gpu readGpu()
  {
    const Location location = locate(m_tag);
    const bool hasChildren = m_tag.kind == TagKind::Open;
    ElementReader reader(m_tag, location, m_out);
    Gpu gpu;
    gpu.line = reader.location().line;
    gpu.id = reader.required<int>("id", -1);
    gpu.inputChunks = reader.required<int>("i_chunks", 0);
    gpu.outputChunks = reader.required<int>("o_chunks", 0);
    gpu.scratchChunks = reader.required<int>("s_chunks", 0);
    reportUnknown(reader);
    // Ranks and threadblocks of one file tend to look alike: start from the last one's size
    // rather than growing every vector from one element.
    gpu.threadblocks.reserve(m_threadblocksHint);
    forEachChild(hasChildren, "gpu", [&] {
      if (m_tag.name != "tb")
        return false;
      gpu.threadblocks.push_back(readThreadBlock(gpu.id));
      return true;
    });
    m_threadblocksHint = gpu.threadblocks.size();
    std::stable_sort(gpu.threadblocks.begin(), gpu.threadblocks.end(),
                     [](const ThreadBlock& a, const ThreadBlock& b) { return a.id < b.id; });
    return gpu;
  }

  ThreadBlock readThreadBlock(int rank)
  {
    Location location = locate(m_tag);
    location.rank = rank;
    const bool hasChildren = m_tag.kind == TagKind::Open;
    ElementReader reader(m_tag, location, m_out);
    ThreadBlock tb;
    tb.line = reader.location().line;
    tb.id = reader.required<int>("id", -1);
    tb.send = reader.required<int>("send", -1);
    tb.recv = reader.required<int>("recv", -1);
    tb.chan = reader.required<int>("chan", 0);
    reportUnknown(reader);
    tb.steps.reserve(m_stepsHint);
    forEachChild(hasChildren, "tb", [&] {
      if (m_tag.name != "step")
        return false;
      tb.steps.push_back(readStep(rank, tb.id, static_cast<int>(tb.steps.size())));
      return true;
    });
    m_stepsHint = tb.steps.size();
    return tb;
  }

  Step readStep(int rank, int tbId, int position)
  {
    Location location = locate(m_tag);
    location.rank = rank;
    location.tb = tbId;
    location.step = position;
    const bool hasChildren = m_tag.kind == TagKind::Open;
    ElementReader reader(m_tag, location, m_out);
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
    // The runtime refuses any other value on an instruction ("hasDependence needs to be 0 or
    // 1"); it checks it only inside `if (transferType != -1)`, so a nop's is not checked.
    step.hasdep =
        reader.flag("hasdep", true, step.type == OpType::Nop ? Severity::Warning : Severity::Error)
            .value_or(false);
    reportUnknown(reader);
    forEachChild(hasChildren, "step", [] { return false; });
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

  // The tag in m_tag opens an element the runtimes skip, with everything in it.
  void unknownElement(const char* parent)
  {
    Location location = locate(m_tag);
    location.element = std::string(m_tag.name);
    m_out.warning("format.unknown-element",
                  "<" + location.element + "> inside <" + parent +
                      "> is skipped by the runtimes, with everything in it",
                  location);
    if (m_tag.kind != TagKind::Open)
      return;
    const std::size_t depth = m_scanner.depth();
    for (m_scanner.next(m_tag); m_tag.kind != TagKind::End; m_scanner.next(m_tag)) {
      if (m_tag.kind == TagKind::Close && m_scanner.depth() < depth)
        return;
    }
  }

  // Each rank loads the <algo>, every <gpu> and its own <tb> and <step> elements.
  void checkNodeCount(const Program& program)
  {
    for (const Gpu& gpu : program.gpus) {
      std::size_t nodes = 1 + program.gpus.size() + gpu.threadblocks.size();
      for (const ThreadBlock& tb : gpu.threadblocks)
        nodes += tb.steps.size();
      if (nodes < kRuntimeMaxNodes)
        continue;
      Location location;
      location.line = gpu.line;
      location.rank = gpu.id;
      location.element = "gpu";
      m_out.error("format.lexical.node-count",
                  "rank " + std::to_string(gpu.id) + " loads " + std::to_string(nodes) +
                      " elements (the <algo>, every <gpu>, its own <tb> and <step> elements); "
                      "the runtimes' reader stores fewer than " +
                      std::to_string(kRuntimeMaxNodes) +
                      " and fails on this rank (\"XML parser is limited to 1024 nodes\")",
                  location);
      return;
    }
  }

  std::string_view m_text;
  RuntimeXmlScanner m_scanner;
  ScannedTag m_tag;
  Diagnostics& m_out;
  std::size_t m_threadblocksHint = 0;
  std::size_t m_stepsHint = 0;
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
