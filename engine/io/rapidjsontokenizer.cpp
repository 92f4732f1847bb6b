// The Chrome trace reader's fast tokenizer (built where RapidJSON was found): RapidJSON's SAX
// reader feeding a TraceCollector (tracetokenizers_p.h), one pass from the first byte to the last.

#include "rapidjsonevents_p.h"
#include "tracetokenizers_p.h"

#include <rapidjson/filereadstream.h>
#include <rapidjson/memorystream.h>

#include <cstdio>
#include <memory>

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
