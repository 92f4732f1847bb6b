// The design document in JSON. Reading never throws: nlohmann's exceptions are caught here and
// every problem becomes a design.* diagnostic whose message names the JSON path.

#include "designdocument.h"

#include "jsontext_p.h"
#include "topologyjson.h"

#include "../model/dialect.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

namespace cs {

namespace {

using nlohmann::json;

constexpr const char* kFormat = "collective-studio-design";

std::string collectiveSpelling(Collective c)
{
  // The executor's spelling where it has one (reducescatter), else the classic one (custom).
  if (const auto s = dialect(DialectId::Executor).collSpelling(c))
    return std::string(*s);
  if (const auto s = dialect(DialectId::Classic).collSpelling(c))
    return std::string(*s);
  return "custom";
}

json chunkJson(const ChunkRef& ref)
{
  return {{"rank", ref.rank},
          {"buffer", std::string(1, bufferLetter(ref.buffer))},
          {"index", ref.index}};
}

json scheduleJson(const Schedule& s)
{
  json buffers = json::array();
  for (const RankBuffers& b : s.buffers)
    buffers.push_back({{"input", b.input}, {"output", b.output}, {"scratch", b.scratch}});
  json transfers = json::array();
  for (const Transfer& t : s.transfers) {
    json item = {{"id", t.id},
                 {"step", t.step},
                 {"src", chunkJson(t.src)},
                 {"dst", chunkJson(t.dst)},
                 {"count", t.count},
                 {"op", std::string(transferOpName(t.op))}};
    json pins = json::object();
    if (t.pins.channel)
      pins["channel"] = *t.pins.channel;
    if (t.pins.threadblock)
      pins["threadblock"] = *t.pins.threadblock;
    if (!t.pins.route.empty())
      pins["route"] = t.pins.route;
    if (!pins.empty())
      item["pins"] = std::move(pins);
    transfers.push_back(std::move(item));
  }
  json out = {{"name", s.name},       {"collective", collectiveSpelling(s.collective)},
              {"ranks", s.ranks},     {"buffers", std::move(buffers)},
              {"inplace", s.inplace}, {"outofplace", s.outofplace}};
  if (s.root)
    out["root"] = *s.root;
  out["transfers"] = std::move(transfers);
  return out;
}

/// Reads typed fields and reports what is wrong where; stops at nothing, so one pass names
/// every problem.
class FieldReader
{
public:
  explicit FieldReader(Diagnostics& out) : m_out(out) {}

  const json* member(const json& object, const std::string& path, const char* key, bool required)
  {
    const std::string at = join(path, key);
    const auto found = object.find(key);
    if (found == object.end()) {
      if (required)
        m_out.error("design.missing-field", at + ": required field is missing");
      return nullptr;
    }
    return &*found;
  }

  template <typename Check>
  const json* typed(const json& object, const std::string& path, const char* key, bool required,
                    Check check, const char* expected)
  {
    const json* value = member(object, path, key, required);
    if (value && !check(*value)) {
      m_out.error("design.wrong-type",
                  join(path, key) + ": expected " + expected + ", found " + value->type_name());
      return nullptr;
    }
    return value;
  }

  std::optional<int> integer(const json& object, const std::string& path, const char* key,
                             bool required = true)
  {
    const json* v = typed(
        object, path, key, required, [](const json& j) { return j.is_number_integer(); },
        "an integer");
    if (!v)
      return std::nullopt;
    const auto value = v->get<long long>();
    if (value < -(1LL << 31) || value >= (1LL << 31)) {
      m_out.error("design.value", join(path, key) + ": " + std::to_string(value) + " is too large");
      return std::nullopt;
    }
    return static_cast<int>(value);
  }

  std::optional<bool> boolean(const json& object, const std::string& path, const char* key)
  {
    const json* v = typed(
        object, path, key, true, [](const json& j) { return j.is_boolean(); }, "true or false");
    return v ? std::optional<bool>(v->get<bool>()) : std::nullopt;
  }

  std::optional<std::string> string(const json& object, const std::string& path, const char* key,
                                    bool required = true)
  {
    const json* v = typed(
        object, path, key, required, [](const json& j) { return j.is_string(); }, "a string");
    return v ? std::optional<std::string>(v->get<std::string>()) : std::nullopt;
  }

  const json* object(const json& parent, const std::string& path, const char* key,
                     bool required = true)
  {
    return typed(
        parent, path, key, required, [](const json& j) { return j.is_object(); }, "an object");
  }

  const json* array(const json& parent, const std::string& path, const char* key,
                    bool required = true)
  {
    return typed(
        parent, path, key, required, [](const json& j) { return j.is_array(); }, "an array");
  }

  void badValue(const std::string& path, const std::string& message)
  {
    m_out.error("design.value", path + ": " + message);
  }

  static std::string join(const std::string& path, const char* key)
  {
    return path.empty() ? std::string(key) : path + "." + key;
  }
  static std::string index(const std::string& path, std::size_t i)
  {
    return path + "[" + std::to_string(i) + "]";
  }

private:
  Diagnostics& m_out;
};

std::optional<ChunkRef> readChunk(FieldReader& in, const json& parent, const std::string& path,
                                  const char* key)
{
  const json* object = in.object(parent, path, key);
  if (!object)
    return std::nullopt;
  const std::string at = FieldReader::join(path, key);
  const auto rank = in.integer(*object, at, "rank");
  const auto letter = in.string(*object, at, "buffer");
  const auto index = in.integer(*object, at, "index");
  std::optional<Buffer> buffer;
  if (letter) {
    buffer = parseBuffer(*letter);
    if (!buffer)
      in.badValue(at + ".buffer", "\"" + *letter + "\" is not a buffer; use \"i\", \"o\" or \"s\"");
  }
  if (!rank || !buffer || !index)
    return std::nullopt;
  return ChunkRef{*rank, *buffer, *index};
}

std::optional<Transfer> readTransfer(FieldReader& in, const json& item, const std::string& at)
{
  if (!item.is_object()) {
    in.badValue(at, "expected an object");
    return std::nullopt;
  }
  Transfer t;
  const auto id = in.integer(item, at, "id");
  const auto step = in.integer(item, at, "step");
  const auto src = readChunk(in, item, at, "src");
  const auto dst = readChunk(in, item, at, "dst");
  const auto count = in.integer(item, at, "count");
  const auto opText = in.string(item, at, "op");
  std::optional<TransferOp> op;
  if (opText) {
    op = parseTransferOp(*opText);
    if (!op)
      in.badValue(at + ".op",
                  "\"" + *opText + "\" is not an operation; use \"copy\" or \"reduce\"");
  }
  if (const json* pins = in.object(item, at, "pins", false)) {
    const std::string p = at + ".pins";
    if (in.member(*pins, p, "channel", false))
      t.pins.channel = in.integer(*pins, p, "channel");
    if (in.member(*pins, p, "threadblock", false))
      t.pins.threadblock = in.integer(*pins, p, "threadblock");
    if (const json* route = in.array(*pins, p, "route", false)) {
      for (std::size_t k = 0; k < route->size(); ++k) {
        if (!(*route)[k].is_number_integer())
          in.badValue(FieldReader::index(p + ".route", k), "expected a link id");
        else
          t.pins.route.push_back((*route)[k].get<int>());
      }
    }
  }
  if (!id || !step || !src || !dst || !count || !op)
    return std::nullopt;
  t.id = *id;
  t.step = *step;
  t.src = *src;
  t.dst = *dst;
  t.count = *count;
  t.op = *op;
  return t;
}

std::optional<Schedule> readSchedule(FieldReader& in, const json& object)
{
  const std::string at = "schedule";
  Schedule s;
  s.name = in.string(object, at, "name", false).value_or("");
  const auto collectiveText = in.string(object, at, "collective");
  std::optional<Collective> collective;
  if (collectiveText) {
    collective = parseCollective(*collectiveText);
    if (!collective)
      in.badValue(at + ".collective", "\"" + *collectiveText + "\" is not a collective");
  }
  const auto ranks = in.integer(object, at, "ranks");
  const auto inplace = in.boolean(object, at, "inplace");
  const auto outofplace = in.boolean(object, at, "outofplace");
  if (in.member(object, at, "root", false))
    s.root = in.integer(object, at, "root");
  bool ok = collective && ranks && inplace && outofplace;
  if (const json* buffers = in.array(object, at, "buffers")) {
    for (std::size_t r = 0; r < buffers->size(); ++r) {
      const std::string b = FieldReader::index(at + ".buffers", r);
      if (!(*buffers)[r].is_object()) {
        in.badValue(b, "expected an object");
        ok = false;
        continue;
      }
      const auto input = in.integer((*buffers)[r], b, "input");
      const auto output = in.integer((*buffers)[r], b, "output");
      const auto scratch = in.integer((*buffers)[r], b, "scratch");
      ok = ok && input && output && scratch;
      if (input && output && scratch)
        s.buffers.push_back({*input, *output, *scratch});
    }
    if (ranks && static_cast<int>(buffers->size()) != *ranks) {
      in.badValue(at + ".buffers", "has " + std::to_string(buffers->size()) + " entries for " +
                                       std::to_string(*ranks) + " ranks");
      ok = false;
    }
  } else {
    ok = false;
  }
  if (const json* transfers = in.array(object, at, "transfers")) {
    for (std::size_t k = 0; k < transfers->size(); ++k) {
      const auto t = readTransfer(in, (*transfers)[k], FieldReader::index("transfers", k));
      ok = ok && t.has_value();
      if (t)
        s.transfers.push_back(*t);
    }
  } else {
    ok = false;
  }
  if (!ok)
    return std::nullopt;
  s.collective = *collective;
  s.ranks = *ranks;
  s.inplace = *inplace;
  s.outofplace = *outofplace;
  return s;
}

// Older documents are brought to the current version here, one version at a time. Version 1 is
// the first, so there is nothing to upgrade yet; the hook keeps readers of old files working.
void upgrade(json& /*document*/, int /*fromVersion*/)
{
}

// "gpu": optional; an unknown model is a design.value error naming the known ones.
std::optional<GpuModelId> readGpu(FieldReader& in, const json& root)
{
  const std::optional<std::string> key = in.string(root, "", "gpu", false);
  if (!key)
    return std::nullopt;
  const std::optional<GpuModelId> gpu = parseGpuModel(*key);
  if (!gpu)
    in.badValue("gpu", "\"" + *key + "\" is not a known GPU model (known: " + gpuModelKeys() + ")");
  return gpu;
}

DesignReadResult readParsed(json& root)
{
  DesignReadResult result;
  Diagnostics out;
  FieldReader in(out);
  if (!root.is_object()) {
    out.error("design.malformed",
              std::string("the document must be a JSON object, found ") + root.type_name());
    result.diagnostics = out.take();
    return result;
  }
  const auto format = in.string(root, "", "format");
  if (format && *format != kFormat) {
    out.error("design.format", "format: \"" + *format + "\" is not a design document (expected \"" +
                                   kFormat + "\")");
  }
  const auto version = in.integer(root, "", "version");
  if (version && (*version > kDesignDocumentVersion || *version < 1)) {
    out.error("design.version",
              "version: the document is version " + std::to_string(*version) +
                  ", this program reads versions 1.." + std::to_string(kDesignDocumentVersion) +
                  (*version > kDesignDocumentVersion ? "; it was written by a newer release" : ""));
  }
  if (out.hasErrors()) {
    result.diagnostics = out.take();
    return result;
  }
  if (version && *version < kDesignDocumentVersion)
    upgrade(root, *version);

  DesignDocument document;
  std::optional<Schedule> schedule;
  if (const json* object = in.object(root, "", "schedule"))
    schedule = readSchedule(in, *object);
  document.notes = in.string(root, "", "notes", false).value_or("");
  document.gpu = readGpu(in, root);
  if (const json* topology = in.object(root, "", "topology", false)) {
    TopologyReadResult read = readTopologyJson(jsonText(*topology));
    for (Diagnostic& d : read.diagnostics) {
      d.message = "topology: " + d.message;
      out.append({d});
    }
    document.topology = std::move(read.topology);
  }
  if (schedule && !out.hasErrors()) {
    document.schedule = std::move(*schedule);
    result.document = std::move(document);
  }
  result.diagnostics = out.take();
  return result;
}

} // namespace

std::string writeDesignDocument(const DesignDocument& document)
{
  json root = {{"format", kFormat},
               {"version", kDesignDocumentVersion},
               {"schedule", scheduleJson(document.schedule)}};
  if (document.topology)
    root["topology"] = json::parse(writeTopologyJson(*document.topology), nullptr, false);
  root["notes"] = document.notes;
  if (document.gpu)
    root["gpu"] = std::string(gpuModel(*document.gpu).key);
  return jsonText(root, 2) + "\n";
}

DesignReadResult readDesignDocument(std::string_view text)
{
  DesignReadResult result;
  try {
    json root = json::parse(text.begin(), text.end());
    return readParsed(root);
  } catch (const json::parse_error& e) {
    Diagnostics out;
    out.error("design.malformed", text.find_first_not_of(" \t\r\n") == std::string_view::npos
                                      ? std::string("the document is empty")
                                      : std::string("not valid JSON: ") + e.what());
    result.diagnostics = out.take();
  } catch (const json::exception& e) {
    Diagnostics out;
    out.error("design.malformed", std::string("unreadable document: ") + e.what());
    result.diagnostics = out.take();
  }
  return result;
}

DesignReadResult readDesignDocumentFile(const std::string& path)
{
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  if (file)
    text << file.rdbuf();
  if (!file) {
    DesignReadResult result;
    result.diagnostics.push_back(
        {Severity::Error,
         "design.io",
         "cannot read " + path + ": " + std::generic_category().message(errno),
         {},
         {}});
    return result;
  }
  return readDesignDocument(text.str());
}

} // namespace cs
