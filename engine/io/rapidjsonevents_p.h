#pragma once

// RapidJSON's handler concept forwarded to a TraceCollector, for the reader's RapidJSON
// tokenizer (rapidjsontokenizer.cpp) and its two-thread variant (rapidjsonhalves.cpp). Built only
// where RapidJSON was found.

#include "tracecollector_p.h"

#include <rapidjson/reader.h>

#include <cstdint>
#include <string_view>

namespace cs::tracejson {

/// Iterative parsing, so that no nesting depth can exhaust the stack; UTF-8 checked, as
/// nlohmann's tokenizer does; numbers handed over as text and converted by std::from_chars, which
/// is exact (times read back as the writer printed them) and, unlike RapidJSON 1.1.0's
/// full-precision path, defined for every input (its DiyFp normalisation counts the leading
/// zeros of a zero significand, so "0E47" is undefined behaviour there).
constexpr unsigned kRapidJsonFlags = rapidjson::kParseIterativeFlag |
                                     rapidjson::kParseNumbersAsStringsFlag |
                                     rapidjson::kParseValidateEncodingFlag;

/// Hands one JSON number, as written, to the collector: an integer when it has neither fraction nor
/// exponent and fits 64 bits, else a double. False (a parse error) for a magnitude past the
/// largest double, as RapidJSON's own conversion would say.
bool forwardNumber(TraceCollector& out, std::string_view text);

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
  bool RawNumber(const char* text, rapidjson::SizeType length, bool)
  {
    return forwardNumber(m_out, std::string_view(text, length));
  }
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
