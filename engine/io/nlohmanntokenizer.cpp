// The Chrome trace reader's fallback tokenizer: nlohmann's SAX parser feeding a TraceCollector
// (tracetokenizers_p.h). RapidJSON's, where it was built, lives in rapidjsontokenizer.cpp.

#include "tracetokenizers_p.h"

#include <fstream>

namespace cs::tracejson {

namespace {

using Json = nlohmann::json;

/// nlohmann's SAX interface, forwarded.
class NlohmannEvents
{
public:
  explicit NlohmannEvents(TraceCollector& out) : m_out(out) {}

  bool null() { return m_out.null(); }
  bool boolean(bool value) { return m_out.boolean(value); }
  bool number_integer(Json::number_integer_t value) { return m_out.integer(value); }
  bool number_unsigned(Json::number_unsigned_t value) { return m_out.unsignedInteger(value); }
  bool number_float(Json::number_float_t value, const std::string&) { return m_out.number(value); }
  bool string(std::string& text) { return m_out.string(text); }
  bool binary(Json::binary_t&) { return false; } // JSON text has none
  bool start_object(std::size_t) { return m_out.startObject(); }
  bool key(std::string& name) { return m_out.key(name); }
  bool end_object() { return m_out.endObject(); }
  bool start_array(std::size_t) { return m_out.startArray(); }
  bool end_array() { return m_out.endArray(); }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&)
  {
    m_errorOffset = position;
    return false;
  }

  std::size_t errorOffset() const { return m_errorOffset; }

private:
  TraceCollector& m_out;
  std::size_t m_errorOffset = 0;
};

template <typename Input> TokenizeOutcome parse(Input&& input, TraceCollector& out)
{
  NlohmannEvents events(out);
  TokenizeOutcome outcome;
  outcome.complete = Json::sax_parse(std::forward<Input>(input), &events);
  outcome.errorOffset = events.errorOffset();
  return outcome;
}

} // namespace

TokenizeOutcome nlohmannTokenizeText(std::string_view text, TraceCollector& out)
{
  return parse(text, out);
}

TokenizeOutcome nlohmannTokenizeFile(const std::string& path, TraceCollector& out)
{
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    TokenizeOutcome outcome;
    outcome.opened = false;
    return outcome;
  }
  return parse(file, out);
}

} // namespace cs::tracejson
