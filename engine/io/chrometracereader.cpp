#include "chrometracereader.h"

#include "chrometrace.h"
#include "chrometraceverification_p.h"
#include "jsontext_p.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>

namespace cs {

namespace {

using Json = nlohmann::json;

// Bounds past which a trace is refused as absurd rather than half-loaded: far beyond any real
// run (the CLI and the editor handle 1,024 ranks), small enough that a hostile file cannot make
// the replay index allocate per rank or per threadblock without end.
constexpr int kMaxRanks = 1 << 16;
constexpr int kMaxThreadblocks = 1 << 12;
constexpr int kMaxSteps = 1 << 20;
constexpr int kMaxSlices = 1 << 24;
constexpr int kMaxLinks = 1 << 20;

/// Reads one complete ("X") event, or says what is wrong with it.
class EventReader
{
public:
  EventReader(const std::string& source, Diagnostics& out) : m_source(source), m_out(out) {}

  std::optional<TraceEvent> read(const Json& item, std::size_t index)
  {
    m_index = index;
    TraceEvent event;
    const std::optional<OpType> op = item.contains("name") && item["name"].is_string()
                                         ? parseOpType(item["name"].get<std::string>())
                                         : std::nullopt;
    if (!op)
      return fail("its name is not an instruction type (s, r, rrc, cpy, ...)");
    event.op = *op;
    const Json empty = Json::object();
    const Json& args = item.contains("args") && item["args"].is_object() ? item["args"] : empty;
    if (!integer(item, "pid", 0, kMaxRanks - 1, event.rank) ||
        !integer(item, "tid", 0, kMaxThreadblocks - 1, event.tb) ||
        !integer(args, "step", 0, kMaxSteps - 1, event.step) ||
        !integer(args, "slice", 0, kMaxSlices - 1, event.slice, 0) ||
        !integer(args, "channel", 0, kMaxThreadblocks - 1, event.channel, 0) ||
        !integer(args, "peer", -1, kMaxRanks - 1, event.peer, -1) ||
        !integer(args, "recv_peer", -1, kMaxRanks - 1, event.recvPeer, -1))
      return std::nullopt;
    double bytes = 0;
    double duration = 0;
    if (!number(args, "bytes", bytes, 0) || !number(item, "ts", event.start) ||
        !number(item, "dur", duration, 0))
      return std::nullopt;
    if (bytes > 9.0e18)
      return fail("its byte count " + std::to_string(bytes) + " is absurd");
    event.bytes = static_cast<std::int64_t>(bytes);
    event.end = event.start + duration;
    if (args.contains("links") && !readLinks(args["links"], event.linkPath))
      return std::nullopt;
    return event;
  }

private:
  std::nullopt_t fail(const std::string& why)
  {
    m_out.error("trace.invalid",
                m_source + ": traceEvents[" + std::to_string(m_index) + "]: " + why);
    return std::nullopt;
  }

  /// An integer field within [low, high]; `fallback` when absent (required when none is given).
  bool integer(const Json& object, const char* key, int low, int high, int& value,
               std::optional<int> fallback = std::nullopt)
  {
    if (!object.contains(key)) {
      if (fallback) {
        value = *fallback;
        return true;
      }
      fail(std::string("it has no \"") + key + "\"");
      return false;
    }
    const Json& field = object[key];
    if (!field.is_number_integer() || field.get<std::int64_t>() < low ||
        field.get<std::int64_t>() > high) {
      fail(std::string("\"") + key + "\" is " + jsonText(field) + ", not an integer from " +
           std::to_string(low) + " to " + std::to_string(high));
      return false;
    }
    value = field.get<int>();
    return true;
  }

  /// A finite, non-negative number; `fallback` when absent (required when none is given).
  bool number(const Json& object, const char* key, double& value,
              std::optional<double> fallback = std::nullopt)
  {
    if (!object.contains(key)) {
      if (fallback) {
        value = *fallback;
        return true;
      }
      fail(std::string("it has no \"") + key + "\"");
      return false;
    }
    const Json& field = object[key];
    if (!field.is_number() || !std::isfinite(field.get<double>()) || field.get<double>() < 0) {
      fail(std::string("\"") + key + "\" is " + jsonText(field) +
           ", not a finite number of at least 0");
      return false;
    }
    value = field.get<double>();
    return true;
  }

  bool readLinks(const Json& links, std::vector<int>& path)
  {
    if (!links.is_array() || links.size() > 64) {
      fail("\"links\" is not a list of at most 64 link ids");
      return false;
    }
    for (const Json& link : links) {
      if (!link.is_number_integer() || link.get<std::int64_t>() < 0 ||
          link.get<std::int64_t>() >= kMaxLinks) {
        fail("\"links\" holds " + jsonText(link) + ", not a link id");
        return false;
      }
      path.push_back(link.get<int>());
    }
    return true;
  }

  const std::string& m_source;
  Diagnostics& m_out;
  std::size_t m_index = 0;
};

/// The link id in a counter track's name: "link 3 GPU0 - NVSwitch".
std::optional<int> linkIdOfTrack(const std::string& name)
{
  int id = -1;
  std::istringstream stream(name);
  std::string word;
  if (!(stream >> word) || word != "link" || !(stream >> id) || id < 0 || id >= kMaxLinks)
    return std::nullopt;
  return id;
}

/// Utilisation samples ("C" events) into their link's usage; malformed samples are skipped
/// (they only colour a chart), but a sample must never make the trace unreadable.
void readCounter(const Json& item, std::map<int, LinkUsage>& links)
{
  if (!item.contains("name") || !item["name"].is_string() || !item.contains("ts") ||
      !item["ts"].is_number() || !item.contains("args") || !item["args"].is_object())
    return;
  const std::optional<int> id = linkIdOfTrack(item["name"].get<std::string>());
  const Json& args = item["args"];
  if (!id || !args.contains("utilisation") || !args["utilisation"].is_number())
    return;
  const double time = item["ts"].get<double>();
  const double fraction = args["utilisation"].get<double>();
  if (!std::isfinite(time) || !std::isfinite(fraction) || time < 0 || fraction < 0)
    return;
  LinkUsage& usage = links[*id];
  usage.link = *id;
  usage.utilisation.emplace_back(time, fraction);
}

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

/// Whether otherData says the run was stopped (its trace may then hold no event at all).
/// Collects a trace while the parser streams through the text: each element of traceEvents is
/// judged and dropped as soon as it is complete, so memory holds the Trace and never the whole
/// file as a DOM (a 1,000,000-event trace is over 600 MB of JSON). Only otherData is kept whole.
class StreamingReader
{
public:
  StreamingReader(const std::string& source, Diagnostics& out) : m_out(out), m_events(source, out)
  {
  }

  /// The parser callback: false drops the value it was called for from the parsed document.
  bool operator()(int depth, Json::parse_event_t event, Json& parsed)
  {
    using Event = Json::parse_event_t;
    if (depth == 0 && (event == Event::object_start || event == Event::array_start)) {
      m_inEvents = event == Event::array_start; // the older format: a bare list of events
      m_sawEvents = m_inEvents;
      m_elementDepth = 1;
      return true;
    }
    if (depth == 1 && event == Event::key) {
      m_rootKey = parsed.get<std::string>();
      return m_rootKey == "traceEvents" || m_rootKey == "otherData";
    }
    if (depth == 1 && m_rootKey == "traceEvents" &&
        (event == Event::array_start || event == Event::array_end)) {
      m_inEvents = event == Event::array_start;
      m_sawEvents = true;
      m_elementDepth = 2;
      return true;
    }
    if (!m_inEvents || depth != m_elementDepth ||
        (event != Event::object_end && event != Event::array_end && event != Event::value))
      return true;
    if (!m_out.hasErrors() && event == Event::object_end)
      element(parsed);
    ++m_index;
    return false;
  }

  bool sawEvents() const { return m_sawEvents; }
  Trace& trace() { return m_trace; }
  std::map<int, LinkUsage>& links() { return m_links; }

private:
  void element(const Json& item)
  {
    if (!item.contains("ph") || !item["ph"].is_string())
      return; // metadata of other tools: not ours to judge
    const std::string& phase = item["ph"].get_ref<const std::string&>();
    if (phase == "X") {
      if (std::optional<TraceEvent> event = m_events.read(item, m_index))
        m_trace.events.push_back(std::move(*event));
    } else if (phase == "C") {
      readCounter(item, m_links);
    }
  }

  Diagnostics& m_out;
  EventReader m_events;
  Trace m_trace;
  std::map<int, LinkUsage> m_links;
  bool m_inEvents = false;  ///< inside the list of events (traceEvents, or a bare root list)
  bool m_sawEvents = false; ///< a list of events was found
  int m_elementDepth = 2;   ///< the parser's depth of one event
  std::string m_rootKey;
  std::size_t m_index = 0;
};

/// Everything after the events: the run's facts, links, stop and the totals.
TraceReadResult finish(const Json& root, StreamingReader& reader, const std::string& source,
                       Diagnostics& out)
{
  TraceReadResult result;
  Trace& trace = reader.trace();
  const bool stopped = root.is_object() && root.contains("otherData") &&
                       root["otherData"].is_object() && root["otherData"].contains("stopped_us");
  if (!out.hasErrors() && trace.events.empty() && !stopped)
    out.error("trace.empty", source + ": the trace has no step events (\"ph\": \"X\")");
  if (out.hasErrors()) {
    result.diagnostics = out.take();
    return result;
  }
  std::map<int, LinkUsage>& links = reader.links();
  if (root.is_object() && root.contains("otherData") && root["otherData"].is_object()) {
    readRunFacts(root["otherData"], trace);
    readLinkBytes(root["otherData"], links);
    readStop(root["otherData"], trace);
    const Json& other = root["otherData"];
    if (other.contains("verification") &&
        !readChromeVerification(other["verification"], source, trace, out)) {
      result.diagnostics = out.take();
      return result;
    }
  }
  for (const TraceEvent& event : trace.events) {
    trace.ranks = std::max(trace.ranks, event.rank + 1);
    trace.totalUs = std::max(trace.totalUs, event.end);
  }
  for (auto& [id, usage] : links) {
    std::stable_sort(usage.utilisation.begin(), usage.utilisation.end());
    trace.links.push_back(std::move(usage));
  }
  result.trace = std::move(trace);
  result.diagnostics = out.take();
  return result;
}

/// Parses `input` (text or a FILE*) through a StreamingReader.
template <typename Input> TraceReadResult readStreaming(Input&& input, const std::string& source)
{
  Diagnostics out;
  StreamingReader reader(source, out);
  const Json root = Json::parse(
      std::forward<Input>(input),
      [&reader](int depth, Json::parse_event_t event, Json& parsed) {
        return reader(depth, event, parsed);
      },
      false);
  if (root.is_discarded()) {
    TraceReadResult result;
    out.error("trace.malformed", source + ": not JSON (truncated, or not a Chrome trace)");
    result.diagnostics = out.take();
    return result;
  }
  if (!reader.sawEvents()) {
    TraceReadResult result;
    out.error("trace.malformed", source + ": no \"traceEvents\" list");
    result.diagnostics = out.take();
    return result;
  }
  return finish(root, reader, source, out);
}

} // namespace

TraceReadResult readChromeTrace(std::string_view json, const std::string& source)
{
  return readStreaming(json, source);
}

TraceReadResult readChromeTraceFile(const std::string& path)
{
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                       &std::fclose);
  if (!file) {
    TraceReadResult result;
    Diagnostics out;
    out.error("trace.unreadable", path + ": cannot open the file");
    result.diagnostics = out.take();
    return result;
  }
  return readStreaming(file.get(), path);
}

} // namespace cs
