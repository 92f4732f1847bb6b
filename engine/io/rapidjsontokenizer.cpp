// The Chrome trace reader's fast tokenizer (built where RapidJSON was found): RapidJSON's SAX
// reader feeding a TraceCollector (tracetokenizers_p.h). Iterative parsing, so that no nesting
// depth can exhaust the stack; full-precision numbers, so that times read back exactly as the
// writer printed them; UTF-8 checked, as nlohmann's tokenizer does.

#include "tracetokenizers_p.h"

#include <rapidjson/filereadstream.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <cstdio>
#include <memory>

namespace cs::tracejson {

namespace {

/// RapidJSON's handler concept, forwarded.
class RapidJsonEvents
{
public:
  explicit RapidJsonEvents(TraceCollector& out) : m_out(out) {}

  bool Null() { return m_out.null(); }
  bool Bool(bool value) { return m_out.boolean(value); }
  bool Int(int value) { return m_out.integer(value); }
  bool Uint(unsigned value) { return m_out.integer(value); }
  bool Int64(std::int64_t value) { return m_out.integer(value); }
  bool Uint64(std::uint64_t value) { return m_out.unsignedInteger(value); }
  bool Double(double value) { return m_out.number(value); }
  bool RawNumber(const char*, rapidjson::SizeType, bool) { return false; } // not asked for
  bool String(const char* text, rapidjson::SizeType length, bool)
  {
    return m_out.string(std::string_view(text, length));
  }
  bool StartObject() { return m_out.startObject(); }
  bool Key(const char* text, rapidjson::SizeType length, bool)
  {
    return m_out.key(std::string_view(text, length));
  }
  bool EndObject(rapidjson::SizeType) { return m_out.endObject(); }
  bool StartArray() { return m_out.startArray(); }
  bool EndArray(rapidjson::SizeType) { return m_out.endArray(); }

private:
  TraceCollector& m_out;
};

constexpr unsigned kFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseFullPrecisionFlag |
                            rapidjson::kParseValidateEncodingFlag;

template <typename Stream> TokenizeOutcome parse(Stream& stream, TraceCollector& out)
{
  RapidJsonEvents events(out);
  rapidjson::Reader reader;
  const rapidjson::ParseResult result = reader.Parse<kFlags>(stream, events);
  TokenizeOutcome outcome;
  outcome.complete = !result.IsError();
  outcome.errorOffset = result.Offset();
  return outcome;
}

} // namespace

TokenizeOutcome rapidJsonTokenizeText(std::string_view text, TraceCollector& out)
{
  rapidjson::MemoryStream stream(text.data(), text.size());
  return parse(stream, out);
}

TokenizeOutcome rapidJsonTokenizeFile(const std::string& path, TraceCollector& out)
{
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                       &std::fclose);
  if (!file) {
    TokenizeOutcome outcome;
    outcome.opened = false;
    return outcome;
  }
  std::vector<char> buffer(1 << 16);
  rapidjson::FileReadStream stream(file.get(), buffer.data(), buffer.size());
  return parse(stream, out);
}

} // namespace cs::tracejson
