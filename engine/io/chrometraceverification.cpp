#include "chrometraceverification_p.h"

#include "chrometrace.h"
#include "jsontext_p.h"

#include <cmath>
#include <limits>

namespace cs {

namespace {

using Json = nlohmann::json;

// As the event reader's bounds (chrometracereader.cpp): far beyond any real run.
constexpr std::int64_t kMaxRanks = 1 << 16;
constexpr std::int64_t kMaxChunks = std::int64_t{1} << 30;
constexpr std::int64_t kMaxCount = std::int64_t{1} << 62;

Json valueJson(double value)
{
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  return value;
}

/// Reads one field and says which one is wrong when it cannot.
class FieldReader
{
public:
  FieldReader(const std::string& source, Diagnostics& out) : m_source(source), m_out(out) {}

  bool integer(const Json& object, const std::string& path, const char* key, std::int64_t high,
               std::int64_t& value)
  {
    if (!object.contains(key))
      return fail(path + "." + key, "is missing");
    const Json& field = object[key];
    if (!field.is_number_integer() || field.get<std::int64_t>() < 0 ||
        field.get<std::int64_t>() > high)
      return fail(path + "." + key,
                  "is " + jsonText(field) + ", not an integer from 0 to " + std::to_string(high));
    value = field.get<std::int64_t>();
    return true;
  }

  bool value(const Json& object, const std::string& path, const char* key, double& value)
  {
    if (!object.contains(key))
      return fail(path + "." + key, "is missing");
    const Json& field = object[key];
    if (field.is_number()) {
      value = field.get<double>();
      return true;
    }
    const std::string text = field.is_string() ? field.get<std::string>() : std::string();
    constexpr double kInf = std::numeric_limits<double>::infinity();
    if (text == "nan")
      value = std::numeric_limits<double>::quiet_NaN();
    else if (text == "inf" || text == "-inf")
      value = text == "inf" ? kInf : -kInf;
    else
      return fail(path + "." + key,
                  "is " + jsonText(field) + ", not a number (or \"nan\", \"inf\", \"-inf\")");
    return true;
  }

  bool buffer(const Json& object, const std::string& path, Buffer& buffer)
  {
    const std::optional<Buffer> parsed = object.contains("buffer") && object["buffer"].is_string()
                                             ? parseBuffer(object["buffer"].get<std::string>())
                                             : std::nullopt;
    if (!parsed)
      return fail(path + ".buffer", "is " +
                                        (object.contains("buffer") ? jsonText(object["buffer"])
                                                                   : std::string("missing")) +
                                        ", not \"i\", \"o\" or \"s\"");
    buffer = *parsed;
    return true;
  }

  bool fail(const std::string& field, const std::string& why)
  {
    m_out.error("trace.invalid", m_source + ": otherData.verification" + field + " " + why);
    return false;
  }

private:
  const std::string& m_source;
  Diagnostics& m_out;
};

bool readWrongChunk(const Json& entry, const std::string& path, FieldReader& reader,
                    WrongChunk& chunk)
{
  if (!entry.is_object())
    return reader.fail(path, "is " + jsonText(entry) + ", not an object");
  std::int64_t rank = 0;
  std::int64_t index = 0;
  if (!reader.integer(entry, path, "rank", kMaxRanks - 1, rank) ||
      !reader.buffer(entry, path, chunk.buffer) ||
      !reader.integer(entry, path, "chunk", kMaxChunks, index) ||
      !reader.integer(entry, path, "element", kMaxCount, chunk.element) ||
      !reader.value(entry, path, "expected", chunk.expected) ||
      !reader.value(entry, path, "actual", chunk.actual))
    return false;
  chunk.rank = static_cast<int>(rank);
  chunk.chunk = static_cast<int>(index);
  return true;
}

} // namespace

Json chromeVerificationJson(const TraceVerification& verification)
{
  Json wrong = Json::array();
  for (const WrongChunk& chunk : verification.wrongChunks) {
    wrong.push_back({{"rank", chunk.rank},
                     {"buffer", std::string(1, bufferLetter(chunk.buffer))},
                     {"chunk", chunk.chunk},
                     {"element", chunk.element},
                     {"expected", valueJson(chunk.expected)},
                     {"actual", valueJson(chunk.actual)}});
  }
  return {{"checked", verification.checked},
          {"wrong_elements", verification.wrongElements},
          {"wrong_chunks", verification.wrongChunkCount},
          {"wrong", std::move(wrong)}};
}

bool readChromeVerification(const Json& json, const std::string& source, Trace& trace,
                            Diagnostics& out)
{
  FieldReader reader(source, out);
  if (!json.is_object())
    return reader.fail("", "is " + jsonText(json) + ", not an object");
  TraceVerification verification;
  if (!reader.integer(json, "", "checked", kMaxCount, verification.checked) ||
      !reader.integer(json, "", "wrong_elements", kMaxCount, verification.wrongElements) ||
      !reader.integer(json, "", "wrong_chunks", kMaxCount, verification.wrongChunkCount))
    return false;
  const Json empty = Json::array();
  const Json& wrong = json.contains("wrong") ? json["wrong"] : empty;
  if (!wrong.is_array() || wrong.size() > TraceVerification::kChunkLimit ||
      static_cast<std::int64_t>(wrong.size()) > verification.wrongChunkCount)
    return reader.fail(".wrong",
                       "is not a list of at most " +
                           std::to_string(std::min<std::int64_t>(TraceVerification::kChunkLimit,
                                                                 verification.wrongChunkCount)) +
                           " wrong chunks (wrong_chunks)");
  for (std::size_t i = 0; i < wrong.size(); ++i) {
    WrongChunk chunk;
    if (!readWrongChunk(wrong[i], ".wrong[" + std::to_string(i) + "]", reader, chunk))
      return false;
    verification.wrongChunks.push_back(chunk);
  }
  trace.verification = std::move(verification);
  return true;
}

std::string writeTraceVerification(const TraceVerification& verification)
{
  return jsonText(chromeVerificationJson(verification));
}

std::optional<TraceVerification> readTraceVerification(std::string_view json,
                                                       const std::string& source, Diagnostics& out)
{
  const Json parsed = Json::parse(json, nullptr, false);
  if (parsed.is_discarded()) {
    out.error("trace.invalid", source + ": otherData.verification is not JSON");
    return std::nullopt;
  }
  Trace trace;
  if (!readChromeVerification(parsed, source, trace, out))
    return std::nullopt;
  return trace.verification;
}

} // namespace cs
