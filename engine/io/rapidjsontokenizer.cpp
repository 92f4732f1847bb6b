// The Chrome trace reader's fast tokenizer (built where RapidJSON was found): RapidJSON's SAX
// reader feeding a TraceCollector (tracetokenizers_p.h), one pass from the first byte to the last.

#include "rapidjsonevents_p.h"
#include "tracetokenizers_p.h"

#include <rapidjson/filereadstream.h>
#include <rapidjson/memorystream.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace cs::tracejson {

namespace {

template <typename Stream> TokenizeOutcome parse(Stream& stream, TraceCollector& out)
{
  RapidJsonEvents events(out);
  rapidjson::Reader reader;
  const rapidjson::ParseResult result = reader.Parse<kRapidJsonFlags>(stream, events);
  TokenizeOutcome outcome;
  outcome.complete = !result.IsError();
  outcome.errorOffset = result.Offset();
  return outcome;
}

/// The slow path for a double std::from_chars calls out of range: strtod rounds an underflow to
/// zero or the nearest subnormal, and says HUGE_VAL for an overflow.
bool forwardOutOfRangeDouble(TraceCollector& out, std::string_view text)
{
  const std::string terminated(text);
  const double value = std::strtod(terminated.c_str(), nullptr);
  if (std::isinf(value))
    return false;
  return out.number(value);
}

} // namespace

bool forwardNumber(TraceCollector& out, std::string_view text)
{
  const char* const first = text.data();
  const char* const last = first + text.size();
  if (text.find_first_of(".eE") == std::string_view::npos) {
    std::int64_t signedValue = 0;
    if (std::from_chars(first, last, signedValue).ec == std::errc())
      return out.integer(signedValue);
    std::uint64_t unsignedValue = 0;
    if (text.front() != '-' && std::from_chars(first, last, unsignedValue).ec == std::errc())
      return out.unsignedInteger(unsignedValue);
  }
  double value = 0;
  const std::from_chars_result result = std::from_chars(first, last, value);
  if (result.ec == std::errc::result_out_of_range)
    return forwardOutOfRangeDouble(out, text);
  return result.ec == std::errc() && out.number(value);
}

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
