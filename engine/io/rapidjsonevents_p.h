#pragma once

// RapidJSON's handler concept forwarded to a TraceCollector, for the reader's RapidJSON
// tokenizer (rapidjsontokenizer.cpp) and its two-thread variant (rapidjsonhalves.cpp). Built only
// where RapidJSON was found.

#include "tracecollector_p.h"

#include <rapidjson/reader.h>

#include <cstdint>
#include <string_view>

namespace cs::tracejson {

/// Iterative parsing, so that no nesting depth can exhaust the stack; full-precision numbers, so
/// that times read back exactly as the writer printed them; UTF-8 checked, as nlohmann's
/// tokenizer does.
constexpr unsigned kRapidJsonFlags = rapidjson::kParseIterativeFlag |
                                     rapidjson::kParseFullPrecisionFlag |
                                     rapidjson::kParseValidateEncodingFlag;

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

protected:
  TraceCollector& m_out;
};

} // namespace cs::tracejson
