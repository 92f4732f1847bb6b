#include "traceevent_p.h"

#include <charconv>
#include <cmath>
#include <string_view>

namespace cs::tracejson {

namespace {

/// A field the event does not have: its fallback, or (required) the sentence saying so.
template <typename T>
bool absent(const char* key, T& value, std::string& why, const std::optional<T>& fallback)
{
  if (fallback) {
    value = *fallback;
    return true;
  }
  why = std::string("it has no \"") + key + "\"";
  return false;
}

/// An integer field within [low, high]; `fallback` when absent (required when none is given).
bool integerField(const Field& field, const char* key, int low, int high, int& value,
                  std::string& why, std::optional<int> fallback = std::nullopt)
{
  if (!field.present())
    return absent(key, value, why, fallback);
  if (field.kind != Field::Kind::Integer || field.integer < low || field.integer > high) {
    why = std::string("\"") + key + "\" is " + field.shown() + ", not an integer from " +
          std::to_string(low) + " to " + std::to_string(high);
    return false;
  }
  value = static_cast<int>(field.integer);
  return true;
}

/// A finite, non-negative number; `fallback` when absent (required when none is given).
bool numberField(const Field& field, const char* key, double& value, std::string& why,
                 std::optional<double> fallback = std::nullopt)
{
  if (!field.present())
    return absent(key, value, why, fallback);
  if (!field.isNumber() || !std::isfinite(field.asDouble()) || field.asDouble() < 0) {
    why =
        std::string("\"") + key + "\" is " + field.shown() + ", not a finite number of at least 0";
    return false;
  }
  value = field.asDouble();
  return true;
}

bool linkPath(const EventFields& fields, std::vector<int>& path, std::string& why)
{
  if (!fields.linksIsList || fields.linkCount > kMaxLinkPath) {
    why = "\"links\" is not a list of at most " + std::to_string(kMaxLinkPath) + " link ids";
    return false;
  }
  if (!fields.badLink.empty()) {
    why = "\"links\" holds " + fields.badLink + ", not a link id";
    return false;
  }
  path.reserve(fields.links.size());
  for (const std::int64_t link : fields.links) {
    if (link < 0 || link >= kMaxLinks) {
      why = "\"links\" holds " + std::to_string(link) + ", not a link id";
      return false;
    }
    path.push_back(static_cast<int>(link));
  }
  return true;
}

/// The link id in a counter track's name: "link 3 GPU0 - NVSwitch".
std::optional<int> linkIdOfTrack(std::string_view name)
{
  constexpr std::string_view kPrefix = "link ";
  if (name.substr(0, kPrefix.size()) != kPrefix)
    return std::nullopt;
  const char* first = name.data() + kPrefix.size();
  const char* last = name.data() + name.size();
  int id = -1;
  const auto [end, error] = std::from_chars(first, last, id);
  if (error != std::errc() || end == first || (end != last && *end != ' ') || id < 0 ||
      id >= kMaxLinks)
    return std::nullopt;
  return id;
}

} // namespace

std::optional<TraceEvent> stepEvent(const EventFields& fields, std::string& why)
{
  TraceEvent event;
  const std::optional<OpType> op =
      fields.name.kind == Field::Kind::String ? parseOpType(fields.name.text) : std::nullopt;
  if (!op) {
    why = "its name is not an instruction type (s, r, rrc, cpy, ...)";
    return std::nullopt;
  }
  event.op = *op;
  if (!integerField(fields.pid, "pid", 0, kMaxRanks - 1, event.rank, why) ||
      !integerField(fields.tid, "tid", 0, kMaxThreadblocks - 1, event.tb, why) ||
      !integerField(fields.step, "step", 0, kMaxSteps - 1, event.step, why) ||
      !integerField(fields.slice, "slice", 0, kMaxSlices - 1, event.slice, why, 0) ||
      !integerField(fields.channel, "channel", 0, kMaxThreadblocks - 1, event.channel, why, 0) ||
      !integerField(fields.peer, "peer", -1, kMaxRanks - 1, event.peer, why, -1) ||
      !integerField(fields.recvPeer, "recv_peer", -1, kMaxRanks - 1, event.recvPeer, why, -1))
    return std::nullopt;
  double bytes = 0;
  double duration = 0;
  if (!numberField(fields.bytes, "bytes", bytes, why, 0) ||
      !numberField(fields.ts, "ts", event.start, why) ||
      !numberField(fields.dur, "dur", duration, why, 0))
    return std::nullopt;
  if (bytes > 9.0e18) {
    why = "its byte count " + std::to_string(bytes) + " is absurd";
    return std::nullopt;
  }
  event.bytes = static_cast<std::int64_t>(bytes);
  event.end = event.start + duration;
  if (fields.linksPresent && !linkPath(fields, event.linkPath, why))
    return std::nullopt;
  return event;
}

void addCounterSample(const EventFields& fields, std::map<int, LinkUsage>& links)
{
  if (fields.name.kind != Field::Kind::String || !fields.ts.isNumber() ||
      !fields.utilisation.isNumber())
    return;
  const std::optional<int> id = linkIdOfTrack(fields.name.text);
  const double time = fields.ts.asDouble();
  const double fraction = fields.utilisation.asDouble();
  if (!id || !std::isfinite(time) || !std::isfinite(fraction) || time < 0 || fraction < 0)
    return;
  LinkUsage& usage = links[*id];
  usage.link = *id;
  usage.utilisation.emplace_back(time, fraction);
}

} // namespace cs::tracejson
