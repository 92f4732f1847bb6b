#include "mscclxmlwriter.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <system_error>

#include <unistd.h>

namespace cs {

namespace {

// The classic runtime has no "unlimited" maxBytes (0 means never); this is the largest bound
// that any of its integer parsers reads safely.
constexpr std::int64_t kClassicUnboundedMaxBytes = std::numeric_limits<std::int32_t>::max();

// The runtimes copy attribute values raw up to the next double quote (no entities), so a quote,
// or a line break that would split the tag, cannot be written at all; replace them. '<', '>'
// and '&' pass through the runtimes' parser (and ours) unchanged.
std::string sanitisedValue(std::string_view value, bool& changed)
{
  std::string clean(value);
  for (char& c : clean) {
    if (c == '"' || c == '\n' || c == '\r' || c == '\t') {
      c = '_';
      changed = true;
    }
  }
  return clean;
}

bool isXmlName(std::string_view name)
{
  if (name.empty())
    return false;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.';
    if (!ok)
      return false;
  }
  return !(name[0] >= '0' && name[0] <= '9');
}

class Emitter
{
public:
  explicit Emitter(std::string& out) : m_out(out) {}

  void open(int indent, std::string_view element)
  {
    m_out.append(static_cast<std::size_t>(indent), ' ');
    m_out += '<';
    m_out += element;
    m_attributes = 0;
  }
  void attribute(std::string_view name, std::string_view value)
  {
    // Composed on the stack and appended once: five appends (a capacity check and a terminator
    // each) per attribute were a sixth of generating a 1,024-rank program.
    char text[96];
    const std::size_t length = name.size() + value.size() + 4;
    if (length > sizeof text) {
      m_out.append(" ").append(name).append("=\"").append(value).append("\"");
    } else {
      char* at = text;
      *at++ = ' ';
      at = std::copy(name.begin(), name.end(), at);
      *at++ = '=';
      *at++ = '"';
      at = std::copy(value.begin(), value.end(), at);
      *at = '"';
      m_out.append(text, length);
    }
    ++m_attributes;
  }
  void attribute(std::string_view name, std::int64_t value)
  {
    // to_chars, not a std::string from snprintf: a 1,024-rank program has millions of numbers.
    char digits[24];
    const char* end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    attribute(name, std::string_view(digits, static_cast<std::size_t>(end - digits)));
  }
  /// Attributes written since the last open().
  int attributes() const { return m_attributes; }
  void endOpen() { m_out += ">\n"; }
  void endEmpty() { m_out += "/>\n"; }
  void close(int indent, std::string_view element)
  {
    m_out.append(static_cast<std::size_t>(indent), ' ');
    m_out += "</";
    m_out += element;
    m_out += ">\n";
  }

  static std::string decimal(std::int64_t value)
  {
    char digits[24];
    const int length = std::snprintf(digits, sizeof digits, "%lld", static_cast<long long>(value));
    return {digits, static_cast<std::size_t>(length)};
  }

private:
  std::string& m_out;
  int m_attributes = 0;
};

// The writer's decisions: each change of an <algo> value is a ValueChange and a note saying it.
class ChangeLog
{
public:
  ChangeLog(Diagnostics& notes, std::vector<ValueChange>& changes)
      : m_notes(notes), m_changes(changes)
  {
  }

  void change(std::string_view code, ValueChange change)
  {
    m_notes.add(change.severity, std::string(code), describeChange(change) + ": " + change.why);
    m_changes.push_back(std::move(change));
  }
  Diagnostics& notes() { return m_notes; }

private:
  Diagnostics& m_notes;
  std::vector<ValueChange>& m_changes;
};

std::optional<std::string> bytesText(const std::optional<std::int64_t>& bytes)
{
  return bytes ? std::optional<std::string>(Emitter::decimal(*bytes)) : std::nullopt;
}

struct SizeBounds {
  std::optional<std::int64_t> minBytes;
  std::optional<std::int64_t> maxBytes;
};

// maxBytes from an executor file (inclusive, 0 = unlimited) for the classic runtime (exclusive,
// 0 = never selected).
std::int64_t classicMaxBytes(std::int64_t max, ChangeLog& log)
{
  if (max == 0) {
    log.change("export.max-bytes",
               {"maxBytes", "0", Emitter::decimal(kClassicUnboundedMaxBytes), Severity::Info,
                "0 (unlimited in the executor) means \"never selected\" in the classic runtime"});
    return kClassicUnboundedMaxBytes;
  }
  if (max == std::numeric_limits<std::int64_t>::max())
    return max;
  log.change("export.max-bytes",
             {"maxBytes", Emitter::decimal(max), Emitter::decimal(max + 1), Severity::Info,
              "the executor's bound is inclusive, the classic runtime's exclusive"});
  return max + 1;
}

// maxBytes from a classic file (exclusive, absent = 128 MiB, 0 = never) for the executors.
std::int64_t executorMaxBytes(const std::optional<std::int64_t>& max, ChangeLog& log)
{
  if (!max) { // the filled-in value is a change of its own (export.filled)
    log.notes().info("export.max-bytes",
                     "the classic runtime capped this algorithm at 128 MiB (no maxBytes); it is "
                     "written with maxBytes=\"0\", unlimited in the executor");
    return 0;
  }
  if (*max == 0) {
    log.change("export.max-bytes", {"maxBytes", "0", "0", Severity::Warning,
                                    "\"never selected\" in the classic runtime, unlimited in "
                                    "the executor"});
    return 0;
  }
  if (*max >= kClassicUnboundedMaxBytes) { // our own stand-in for "unlimited" goes back to 0
    log.change("export.max-bytes", {"maxBytes", Emitter::decimal(*max), "0", Severity::Info,
                                    "the classic file's largest bound is unlimited (0) in the "
                                    "executor"});
    return 0;
  }
  if (*max == std::numeric_limits<std::int64_t>::min())
    return *max;
  log.change("export.max-bytes",
             {"maxBytes", Emitter::decimal(*max), Emitter::decimal(*max - 1), Severity::Info,
              "the classic runtime's bound is exclusive, the executor's inclusive"});
  return *max - 1;
}

// minBytes/maxBytes mean different things per runtime (msccl-format.md §2.1, pitfall P2): the
// classic runtime's bound is exclusive and 0 means "never", the executor's is inclusive and 0
// means "unlimited". Values are read in the semantics of the dialect the file was written for.
SizeBounds convertSizeBounds(const Program& program, const Dialect& target, ChangeLog& log)
{
  const bool sourceClassic = detectDialect(program) == DialectId::Classic;
  const bool targetClassic = target.id == DialectId::Classic;
  SizeBounds bounds{program.minBytes, program.maxBytes};
  if (sourceClassic == targetClassic) {
    if (!targetClassic) {
      bounds.minBytes = bounds.minBytes.value_or(0);
      bounds.maxBytes = bounds.maxBytes.value_or(0);
    }
    return bounds;
  }
  if (targetClassic) {
    bounds.maxBytes = classicMaxBytes(program.maxBytes.value_or(0), log);
    return bounds;
  }
  bounds.minBytes = program.minBytes.value_or(0);
  bounds.maxBytes = executorMaxBytes(program.maxBytes, log);
  return bounds;
}

void writeName(const Program& program, const Dialect& target, Emitter& emit, ChangeLog& log)
{
  bool changed = false;
  std::string name = sanitisedValue(program.name, changed);
  if (changed)
    log.change("export.name", {"name", program.name, name, Severity::Warning,
                               "characters the runtimes cannot read in a value were replaced by "
                               "'_'"});
  if (name.empty() && target.requiresName) {
    name = std::string(program.collSpelling.empty() ? "algorithm" : program.collSpelling) + "_" +
           std::to_string(program.ngpus) + "r";
    log.change("export.name", {"name", std::nullopt, name, Severity::Info,
                               std::string(target.title) + " requires a name"});
  }
  if (!name.empty() || target.requiresName)
    emit.attribute("name", name);
}

void writeColl(const Program& program, const Dialect& target, Emitter& emit, ChangeLog& log)
{
  std::string coll = program.collSpelling;
  if (const auto spelling = target.collSpelling(program.collective)) {
    coll = std::string(*spelling);
    if (!program.collSpelling.empty() && program.collSpelling != coll)
      log.change("export.coll", {"coll", program.collSpelling, coll, Severity::Info,
                                 "the spelling " + std::string(target.title) + " reads"});
  } else {
    log.notes().error("export.coll", "the " + std::string(collectiveTitle(program.collective)) +
                                         " collective has no coll spelling in " +
                                         std::string(target.title) + "; \"" + coll +
                                         "\" is written and that runtime will reject the file");
  }
  bool changed = false;
  emit.attribute("coll", sanitisedValue(coll, changed));
}

void writeModes(const Program& program, const Dialect& target, Emitter& emit, ChangeLog& log)
{
  const bool inPlace = program.usableInPlace();
  const bool outOfPlace = program.usableOutOfPlace();
  const std::string given = program.outofplace ? (*program.outofplace ? "1" : "0") : "";
  emit.attribute("inplace", inPlace ? 1 : 0);
  if (!target.inplaceIsExclusive) {
    emit.attribute("outofplace", outOfPlace ? 1 : 0);
    if (!program.outofplace)
      log.change("export.filled",
                 {"outofplace", std::nullopt, outOfPlace ? "1" : "0", Severity::Info,
                  std::string("inplace=") + (inPlace ? "1" : "0") +
                      " in a classic file means that, and " + std::string(target.title) +
                      " requires it"});
    return;
  }
  // Kept only to reproduce a classic file that carried it; the classic runtime ignores it.
  if (program.outofplace && detectDialect(program) == DialectId::Classic) {
    emit.attribute("outofplace", *program.outofplace ? 1 : 0);
    return;
  }
  if (program.outofplace)
    log.change("export.inplace",
               {"outofplace", given, std::nullopt, Severity::Info,
                inPlace && outOfPlace
                    ? std::string(target.title) + " reads only inplace: the file serves in-place "
                                                  "calls only"
                    : std::string(target.title) + " reads only inplace, which says the call mode"});
}

// Attributes no runtime reads, kept verbatim while the runtime's parser keeps them all.
void writeExtraAttributes(const Program& program, const Dialect& target, Emitter& emit,
                          ChangeLog& log)
{
  for (const Attribute& extra : program.extraAttributes) {
    if (!isXmlName(extra.name)) {
      log.change("export.attribute", {extra.name, extra.value, std::nullopt, Severity::Warning,
                                      "no runtime reads it and its name is not valid XML"});
      continue;
    }
    if (emit.attributes() >= target.maxAttributes) {
      log.change("export.attribute",
                 {extra.name, extra.value, std::nullopt, Severity::Warning,
                  "no runtime reads it, and " + std::string(target.title) +
                      "'s parser keeps only the first " + std::to_string(target.maxAttributes) +
                      " attributes of <algo>"});
      continue;
    }
    bool changed = false;
    emit.attribute(extra.name, sanitisedValue(extra.value, changed));
  }
}

// The cap of WriteOptions::maxCallBytes, where the target would select larger calls.
void capMaxBytes(const Dialect& target, std::optional<std::int64_t> cap, SizeBounds& bounds,
                 ChangeLog& log)
{
  if (!cap || *cap < 0 || *cap == std::numeric_limits<std::int64_t>::max())
    return;
  const std::optional<std::int64_t> upper = target.largestSelectedBytes(bounds.maxBytes);
  if (upper && *upper <= *cap)
    return;
  const std::int64_t written = target.maxBytesInclusive ? *cap : *cap + 1;
  log.change("export.max-bytes",
             {"maxBytes", bytesText(bounds.maxBytes), Emitter::decimal(written), Severity::Info,
              "capped so that " + std::string(target.title) + " selects it for calls of at most " +
                  Emitter::decimal(*cap) + " bytes"});
  bounds.maxBytes = written;
}

void writeAlgoAttributes(const Program& program, const WriteOptions& options, Emitter& emit,
                         ChangeLog& log)
{
  const Dialect& target = dialect(options.dialect);
  writeName(program, target, emit, log);
  emit.attribute("proto", protocolName(program.proto));
  emit.attribute("nchannels", program.nchannels);
  emit.attribute("nchunksperloop", program.nchunksperloop);
  emit.attribute("ngpus", program.ngpus);
  writeColl(program, target, emit, log);
  writeModes(program, target, emit, log);

  SizeBounds bounds = convertSizeBounds(program, target, log);
  capMaxBytes(target, options.maxCallBytes, bounds, log);
  const auto emitBound = [&](const char* attribute, std::optional<std::int64_t> written,
                             std::optional<std::int64_t> given) {
    if (!written)
      return;
    emit.attribute(attribute, *written);
    if (!given)
      log.change("export.filled", {attribute, std::nullopt, bytesText(written), Severity::Info,
                                   std::string(target.title) + " requires it"});
  };
  emitBound("minBytes", bounds.minBytes, program.minBytes);
  // An absent classic maxBytes already has its change (the 128 MiB cap lifted).
  emitBound("maxBytes", bounds.maxBytes, program.maxBytes);
  if (program.nthreads)
    emit.attribute("nthreads", *program.nthreads);
  writeExtraAttributes(program, target, emit, log);
}

void writeStep(const Step& step, Emitter& emit)
{
  emit.open(6, "step");
  emit.attribute("s", step.s);
  emit.attribute("type", opTypeName(step.type));
  const char src[2] = {bufferLetter(step.srcBuf), '\0'};
  const char dst[2] = {bufferLetter(step.dstBuf), '\0'};
  emit.attribute("srcbuf", src);
  emit.attribute("srcoff", step.srcOff);
  emit.attribute("dstbuf", dst);
  emit.attribute("dstoff", step.dstOff);
  emit.attribute("cnt", step.cnt);
  emit.attribute("depid", step.depid);
  emit.attribute("deps", step.deps);
  emit.attribute("hasdep", step.hasdep ? 1 : 0);
  emit.endEmpty();
}

} // namespace

std::string describeChange(const ValueChange& change)
{
  return change.attribute + " " + change.from.value_or("(absent)") + " -> " +
         change.to.value_or("(dropped)");
}

namespace {

// A 1,024-rank program is 250 MB of text: streamed, it is written out a megabyte at a time
// instead of being held whole (its pages faulted in, then copied to the file).
constexpr std::size_t kStreamChunkBytes = std::size_t{1} << 20;

/// The text of `program` appended to `out`; `flush`, when given, is called whenever `out` holds
/// more than a chunk, and takes (and empties) it.
WriteResult writeInto(const Program& program, const WriteOptions& options, std::string& out,
                      const std::function<void(std::string&)>& flush)
{
  WriteResult result;
  Diagnostics notes;
  ChangeLog log(notes, result.changes);
  Emitter emit(out);

  emit.open(0, "algo");
  writeAlgoAttributes(program, options, emit, log);
  emit.endOpen();
  for (const Gpu& gpu : program.gpus) {
    emit.open(2, "gpu");
    emit.attribute("id", gpu.id);
    emit.attribute("i_chunks", gpu.inputChunks);
    emit.attribute("o_chunks", gpu.outputChunks);
    emit.attribute("s_chunks", gpu.scratchChunks);
    emit.endOpen();
    for (const ThreadBlock& tb : gpu.threadblocks) {
      emit.open(4, "tb");
      emit.attribute("id", tb.id);
      emit.attribute("send", tb.send);
      emit.attribute("recv", tb.recv);
      emit.attribute("chan", tb.chan);
      emit.endOpen();
      for (const Step& step : tb.steps)
        writeStep(step, emit);
      emit.close(4, "tb");
      if (flush && out.size() >= kStreamChunkBytes)
        flush(out);
    }
    emit.close(2, "gpu");
  }
  emit.close(0, "algo");
  if (flush)
    flush(out);
  result.notes = notes.take();
  return result;
}

} // namespace

WriteResult writeMscclXml(const Program& program, const WriteOptions& options)
{
  std::string text;
  text.reserve(static_cast<std::size_t>(program.stepCount()) * 128 + 4096);
  WriteResult result = writeInto(program, options, text, {});
  result.text = std::move(text);
  return result;
}

WriteResult writeMscclXml(const Program& program, const WriteOptions& options, std::ostream& sink)
{
  std::string chunk;
  chunk.reserve(kStreamChunkBytes * 2);
  return writeInto(program, options, chunk, [&sink](std::string& text) {
    sink.write(text.data(), static_cast<std::streamsize>(text.size()));
    text.clear();
  });
}

std::string writeFileAtomically(const std::filesystem::path& path,
                                const std::function<std::string(std::ostream&)>& produce)
{
  const std::filesystem::path temporary =
      path.parent_path() / ("." + path.filename().string() + ".tmp" + std::to_string(::getpid()));
  std::string declined;
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file)
      return "cannot create " + temporary.string() + ": " + std::generic_category().message(errno);
    declined = produce(file);
    file.flush();
    if (!file || !declined.empty()) {
      const std::string reason = declined.empty() ? "cannot write " + temporary.string() + ": " +
                                                        std::generic_category().message(errno)
                                                  : declined;
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      return reason;
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    return "cannot replace " + path.string() + ": " + error.message();
  }
  return {};
}

std::string writeTextFileAtomically(const std::filesystem::path& path, std::string_view text)
{
  return writeFileAtomically(path, [text](std::ostream& file) {
    file.write(text.data(), static_cast<std::streamsize>(text.size()));
    return std::string();
  });
}

} // namespace cs
