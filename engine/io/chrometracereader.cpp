#include "chrometracereader.h"

#include "chrometrace.h"
#include "chrometraceverification_p.h"
#include "traceevent_p.h"
#include "tracetokenizers_p.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>

// The events are read by a TraceCollector (tracecollector_p.h) from a SAX tokenizer
// (tracetokenizers_p.h); this file drives them and reads otherData's run facts.

namespace cs::tracejson {

namespace {

using Json = nlohmann::json;

/// The per-direction byte counts the writer keeps in otherData.links.
void readLinkBytes(const Json& other, std::map<int, LinkUsage>& links)
{
  if (!other.contains("links") || !other["links"].is_array())
    return;
  for (const Json& entry : other["links"]) {
    if (!entry.is_object() || !entry.contains("link") || !entry["link"].is_number_integer())
      continue;
    const std::int64_t id = entry["link"].get<std::int64_t>();
    if (id < 0 || id >= kMaxLinks)
      continue;
    LinkUsage& usage = links[static_cast<int>(id)];
    usage.link = static_cast<int>(id);
    for (const auto& [key, field] :
         {std::pair{"a_to_b", &usage.bytesAtoB}, std::pair{"b_to_a", &usage.bytesBtoA}}) {
      if (entry.contains(key) && entry[key].is_number_integer() &&
          entry[key].get<std::int64_t>() >= 0)
        *field = entry[key].get<std::int64_t>();
    }
  }
}

void readRunFacts(const Json& other, Trace& trace)
{
  if (other.contains("source") && other["source"].is_string())
    trace.source = other["source"].get<std::string>();
  if (other.contains("device") && other["device"].is_string())
    trace.device = other["device"].get<std::string>();
  if (other.contains("call_mode") && other["call_mode"].is_string()) {
    for (const CallMode mode : {CallMode::InPlace, CallMode::OutOfPlace}) {
      if (other["call_mode"].get_ref<const std::string&>() == callModeName(mode))
        trace.mode = mode;
    }
  }
  if (other.contains("ranks") && other["ranks"].is_number_integer()) {
    const std::int64_t ranks = other["ranks"].get<std::int64_t>();
    if (ranks > 0 && ranks <= kMaxRanks)
      trace.ranks = static_cast<int>(ranks);
  }
  if (other.contains("bytes") && other["bytes"].is_number_integer() &&
      other["bytes"].get<std::int64_t>() >= 0)
    trace.bytes = other["bytes"].get<std::int64_t>();
  if (other.contains("total_us") && other["total_us"].is_number() &&
      std::isfinite(other["total_us"].get<double>()) && other["total_us"].get<double>() >= 0)
    trace.totalUs = other["total_us"].get<double>();
}

/// An integer field in [low, high], or `fallback` when it is absent or out of range.
int boundedInt(const Json& object, const char* key, int low, int high, int fallback)
{
  if (!object.contains(key) || !object[key].is_number_integer())
    return fallback;
  const std::int64_t value = object[key].get<std::int64_t>();
  return value >= low && value <= high ? static_cast<int>(value) : fallback;
}

/// One entry of otherData.blocked; absent when it does not name a position.
std::optional<BlockedPosition> readBlocked(const Json& entry)
{
  if (!entry.is_object() || !entry.contains("waits_for") || !entry["waits_for"].is_string())
    return std::nullopt;
  const std::optional<BlockedOn> on = parseBlockedOn(entry["waits_for"].get<std::string>());
  BlockedPosition p;
  p.rank = boundedInt(entry, "rank", 0, kMaxRanks - 1, -1);
  p.tb = boundedInt(entry, "tb", 0, kMaxThreadblocks - 1, -1);
  p.step = boundedInt(entry, "step", 0, kMaxSteps - 1, -1);
  p.slice = boundedInt(entry, "slice", 0, kMaxSlices - 1, -1);
  if (!on || p.rank < 0 || p.tb < 0 || p.step < 0)
    return std::nullopt;
  p.waitsFor = *on;
  p.peer = boundedInt(entry, "peer", -1, kMaxRanks - 1, -1);
  p.channel = boundedInt(entry, "channel", -1, kMaxThreadblocks - 1, -1);
  p.depTb = boundedInt(entry, "dep_tb", -1, kMaxThreadblocks - 1, -1);
  p.depStep = boundedInt(entry, "dep_step", -1, kMaxSteps - 1, -1);
  return p;
}

/// What a run the watchdog stopped keeps: its connection slots, the stop and the blocked.
void readStop(const Json& other, Trace& trace)
{
  const int slots = boundedInt(other, "connection_slots", 1, kMaxSteps, 0);
  if (slots > 0)
    trace.connectionSlots = slots;
  if (other.contains("stopped_us") && other["stopped_us"].is_number() &&
      std::isfinite(other["stopped_us"].get<double>()) && other["stopped_us"].get<double>() >= 0)
    trace.stoppedUs = other["stopped_us"].get<double>();
  if (!other.contains("blocked") || !other["blocked"].is_array())
    return;
  for (const Json& entry : other["blocked"]) {
    if (std::optional<BlockedPosition> position = readBlocked(entry))
      trace.blocked.push_back(*position);
  }
}

/// The diagnostics alone: nothing was read.
TraceReadResult refused(Diagnostics& out)
{
  TraceReadResult result;
  result.diagnostics = out.take();
  return result;
}

} // namespace

/// Everything after the events: the run's facts, links, stop and the totals.
TraceReadResult finishTrace(const TokenizeOutcome& outcome, TraceCollector& collector,
                            const std::string& source, Diagnostics& out)
{
  if (collector.failed())
    return refused(out);
  if (!outcome.complete) {
    out.error("trace.malformed", source + ": not JSON at byte " +
                                     std::to_string(outcome.errorOffset) +
                                     " (truncated, or not a Chrome trace)");
    return refused(out);
  }
  if (!collector.sawEvents()) {
    out.error("trace.malformed", source + ": no \"traceEvents\" list");
    return refused(out);
  }
  Trace& trace = collector.trace();
  const Json& other = collector.otherData();
  const bool hasOther = other.is_object();
  if (trace.events.empty() && !(hasOther && other.contains("stopped_us"))) {
    out.error("trace.empty", source + ": the trace has no step events (\"ph\": \"X\")");
    return refused(out);
  }
  std::map<int, LinkUsage>& links = collector.links();
  if (hasOther) {
    readRunFacts(other, trace);
    readLinkBytes(other, links);
    readStop(other, trace);
    if (other.contains("verification") &&
        !readChromeVerification(other["verification"], source, trace, out))
      return refused(out);
  }
  for (const TraceEvent& event : trace.events) {
    trace.ranks = std::max(trace.ranks, event.rank + 1);
    trace.totalUs = std::max(trace.totalUs, event.end);
  }
  for (auto& [id, usage] : links) {
    std::stable_sort(usage.utilisation.begin(), usage.utilisation.end());
    trace.links.push_back(std::move(usage));
  }
  TraceReadResult result;
  result.trace = std::move(trace);
  result.diagnostics = out.take();
  return result;
}

std::vector<Tokenizer> availableTokenizers()
{
#ifdef CSTUDIO_HAVE_RAPIDJSON
  return {Tokenizer::RapidJson, Tokenizer::Nlohmann};
#else
  return {Tokenizer::Nlohmann};
#endif
}

TokenizeOutcome tokenizeText(Tokenizer tokenizer, std::string_view text, TraceCollector& out)
{
#ifdef CSTUDIO_HAVE_RAPIDJSON
  if (tokenizer == Tokenizer::RapidJson)
    return rapidJsonTokenizeText(text, out);
#endif
  (void)tokenizer;
  return nlohmannTokenizeText(text, out);
}

TokenizeOutcome tokenizeFile(Tokenizer tokenizer, const std::string& path, TraceCollector& out)
{
#ifdef CSTUDIO_HAVE_RAPIDJSON
  if (tokenizer == Tokenizer::RapidJson)
    return rapidJsonTokenizeFile(path, out);
#endif
  (void)tokenizer;
  return nlohmannTokenizeFile(path, out);
}

TraceReadResult readChromeTraceWith(Tokenizer tokenizer, std::string_view json,
                                    const std::string& source)
{
  Diagnostics out;
  TraceCollector collector(source, out);
  const TokenizeOutcome outcome = tokenizeText(tokenizer, json, collector);
  return finishTrace(outcome, collector, source, out);
}

} // namespace cs::tracejson

namespace cs {

TraceReadResult readChromeTrace(std::string_view json, const std::string& source)
{
  return tracejson::readChromeTraceWith(tracejson::availableTokenizers().front(), json, source);
}

TraceReadResult readChromeTraceFile(const std::string& path)
{
#ifdef CSTUDIO_HAVE_RAPIDJSON
  if (std::optional<TraceReadResult> halves =
          tracejson::readFileInHalves(path, tracejson::kHalvesFromBytes))
    return std::move(*halves);
#endif
  Diagnostics out;
  tracejson::TraceCollector collector(path, out);
  const tracejson::TokenizeOutcome outcome =
      tracejson::tokenizeFile(tracejson::availableTokenizers().front(), path, collector);
  if (!outcome.opened) {
    out.error("trace.unreadable", path + ": cannot open the file");
    return tracejson::refused(out);
  }
  return tracejson::finishTrace(outcome, collector, path, out);
}

} // namespace cs
