#include "mscclxmlwriter.h"

#include <cstdio>
#include <fstream>
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
  }
  void attribute(std::string_view name, std::string_view value)
  {
    m_out += ' ';
    m_out += name;
    m_out += "=\"";
    m_out += value;
    m_out += '"';
  }
  void attribute(std::string_view name, std::int64_t value)
  {
    char digits[24];
    const int length = std::snprintf(digits, sizeof digits, "%lld", static_cast<long long>(value));
    attribute(name, std::string_view(digits, static_cast<std::size_t>(length)));
  }
  void endOpen() { m_out += ">\n"; }
  void endEmpty() { m_out += "/>\n"; }
  void close(int indent, std::string_view element)
  {
    m_out.append(static_cast<std::size_t>(indent), ' ');
    m_out += "</";
    m_out += element;
    m_out += ">\n";
  }

private:
  std::string& m_out;
};

struct SizeBounds {
  std::optional<std::int64_t> minBytes;
  std::optional<std::int64_t> maxBytes;
};

// minBytes/maxBytes mean different things per runtime (msccl-format.md §2.1, pitfall P2): the
// classic runtime's bound is exclusive and 0 means "never", the executor's is inclusive and 0
// means "unlimited". Values are read in the semantics of the dialect the file was written for.
SizeBounds convertSizeBounds(const Program& program, const Dialect& target, Diagnostics& notes)
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
    const std::int64_t max = program.maxBytes.value_or(0);
    if (max == 0) {
      bounds.maxBytes = kClassicUnboundedMaxBytes;
      notes.info("export.max-bytes",
                 "maxBytes 0 (unlimited in the executor) is written as " +
                     std::to_string(kClassicUnboundedMaxBytes) +
                     " because 0 means \"never selected\" in the classic runtime");
    } else {
      bounds.maxBytes = max + 1; // inclusive → exclusive
    }
    return bounds;
  }
  bounds.minBytes = program.minBytes.value_or(0);
  if (!program.maxBytes) {
    bounds.maxBytes = 0;
    notes.info("export.max-bytes",
               "the classic runtime capped this algorithm at 128 MiB (no maxBytes); it is written "
               "with maxBytes=\"0\", unlimited in the executor");
  } else if (*program.maxBytes == 0) {
    bounds.maxBytes = 0;
    notes.warning("export.max-bytes",
                  "maxBytes=\"0\" meant \"never selected\" in the classic runtime; in the executor "
                  "it means unlimited");
  } else if (*program.maxBytes >= kClassicUnboundedMaxBytes) {
    bounds.maxBytes = 0; // our own stand-in for "unlimited" (see above) goes back to 0
  } else {
    bounds.maxBytes = *program.maxBytes - 1; // exclusive → inclusive
  }
  return bounds;
}

void writeAlgoAttributes(const Program& program, const Dialect& target, Emitter& emit,
                         Diagnostics& notes)
{
  bool changed = false;
  std::string name = sanitisedValue(program.name, changed);
  if (changed)
    notes.warning("export.name", "characters the runtimes cannot read in a value were replaced "
                                 "by '_' in the algorithm name");
  if (name.empty() && target.requiresName) {
    name = std::string(program.collSpelling.empty() ? "algorithm" : program.collSpelling) + "_" +
           std::to_string(program.ngpus) + "r";
    notes.info("export.name", std::string(target.title) + " requires a name; the program has none, "
                                                          "so it was written as "
                                                          " + name + "
                                                          "");
  }
  if (!name.empty() || target.requiresName)
    emit.attribute("name", name);
  emit.attribute("proto", protocolName(program.proto));
  emit.attribute("nchannels", program.nchannels);
  emit.attribute("nchunksperloop", program.nchunksperloop);
  emit.attribute("ngpus", program.ngpus);

  std::string coll = program.collSpelling;
  if (const auto spelling = target.collSpelling(program.collective)) {
    coll = std::string(*spelling);
    if (!program.collSpelling.empty() && program.collSpelling != coll)
      notes.info("export.coll", "coll=\"" + program.collSpelling + "\" is written as \"" + coll +
                                    "\", the spelling " + std::string(target.title) + " reads");
  } else {
    notes.error("export.coll", "the " + std::string(collectiveTitle(program.collective)) +
                                   " collective has no coll spelling in " +
                                   std::string(target.title) + "; \"" + coll +
                                   "\" is written and that runtime will reject the file");
  }
  emit.attribute("coll", sanitisedValue(coll, changed));

  const bool inPlace = program.usableInPlace();
  const bool outOfPlace = program.usableOutOfPlace();
  if (target.inplaceIsExclusive) {
    if (inPlace && outOfPlace)
      notes.info("export.inplace", std::string(target.title) +
                                       " reads only inplace: the file serves in-place calls only");
    emit.attribute("inplace", inPlace ? 1 : 0);
    // Kept only to reproduce a classic file that carried it; the classic runtime ignores it.
    if (program.outofplace && detectDialect(program) == DialectId::Classic)
      emit.attribute("outofplace", *program.outofplace ? 1 : 0);
  } else {
    emit.attribute("inplace", inPlace ? 1 : 0);
    emit.attribute("outofplace", outOfPlace ? 1 : 0);
    if (!program.outofplace)
      notes.info("export.filled", "outofplace was absent; written as " +
                                      std::to_string(outOfPlace ? 1 : 0) +
                                      " (inplace=" + std::to_string(inPlace ? 1 : 0) +
                                      " in a classic file means that) because " +
                                      std::string(target.title) + " requires it");
  }

  const SizeBounds bounds = convertSizeBounds(program, target, notes);
  const auto emitBound = [&](const char* attribute, std::optional<std::int64_t> written,
                             std::optional<std::int64_t> given) {
    if (!written)
      return;
    emit.attribute(attribute, *written);
    if (!given)
      notes.info("export.filled", std::string(attribute) + " was absent; written as " +
                                      std::to_string(*written) + " for " +
                                      std::string(target.title));
  };
  emitBound("minBytes", bounds.minBytes, program.minBytes);
  emitBound("maxBytes", bounds.maxBytes, program.maxBytes);
  if (program.nthreads)
    emit.attribute("nthreads", *program.nthreads);
  for (const Attribute& extra : program.extraAttributes) {
    if (!isXmlName(extra.name)) {
      notes.warning("export.attribute",
                    "attribute \"" + extra.name + "\" is not a valid XML name and was not written");
      continue;
    }
    emit.attribute(extra.name, sanitisedValue(extra.value, changed));
  }
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

WriteResult writeMscclXml(const Program& program, const WriteOptions& options)
{
  const Dialect& target = dialect(options.dialect);
  WriteResult result;
  Diagnostics notes;
  std::string& out = result.text;
  out.reserve(static_cast<std::size_t>(program.stepCount()) * 128 + 4096);
  Emitter emit(out);

  emit.open(0, "algo");
  writeAlgoAttributes(program, target, emit, notes);
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
    }
    emit.close(2, "gpu");
  }
  emit.close(0, "algo");
  result.notes = notes.take();
  return result;
}

std::string writeTextFileAtomically(const std::filesystem::path& path, std::string_view text)
{
  const std::filesystem::path temporary =
      path.parent_path() / ("." + path.filename().string() + ".tmp" + std::to_string(::getpid()));
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file)
      return "cannot create " + temporary.string() + ": " + std::generic_category().message(errno);
    file.write(text.data(), static_cast<std::streamsize>(text.size()));
    file.flush();
    if (!file) {
      const std::string reason = std::generic_category().message(errno);
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      return "cannot write " + temporary.string() + ": " + reason;
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

} // namespace cs
