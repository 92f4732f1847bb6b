#include "traceblob_p.h"

#include "io/chrometrace.h"

#include <nlohmann/json.hpp>
#include <zlib.h>

namespace cs::storage {

namespace {

using nlohmann::json;

constexpr const char* kFormatName = "collective-studio-trace";
// A trace's JSON larger than this is refused on reading: a damaged raw_size must not make us
// allocate gigabytes.
constexpr std::int64_t kMaxRawSize = std::int64_t{4} << 30;

json eventToJson(const TraceEvent& event)
{
  return json::array({event.rank, event.tb, event.step, event.slice,
                      std::string(opTypeName(event.op)), event.peer, event.recvPeer, event.channel,
                      event.bytes, event.start, event.end, event.linkPath});
}

TraceEvent eventFromJson(const json& row)
{
  TraceEvent event;
  event.rank = row.at(0).get<int>();
  event.tb = row.at(1).get<int>();
  event.step = row.at(2).get<int>();
  event.slice = row.at(3).get<int>();
  const std::optional<OpType> op = parseOpType(row.at(4).get<std::string>());
  if (!op)
    throw std::invalid_argument("unknown op " + row.at(4).get<std::string>());
  event.op = *op;
  event.peer = row.at(5).get<int>();
  event.recvPeer = row.at(6).get<int>();
  event.channel = row.at(7).get<int>();
  event.bytes = row.at(8).get<std::int64_t>();
  event.start = row.at(9).get<double>();
  event.end = row.at(10).get<double>();
  event.linkPath = row.at(11).get<std::vector<int>>();
  return event;
}

json blockedToJson(const BlockedPosition& at)
{
  return json::array({at.rank, at.tb, at.step, at.slice, static_cast<int>(at.waitsFor), at.peer,
                      at.channel, at.depTb, at.depStep});
}

BlockedPosition blockedFromJson(const json& row)
{
  BlockedPosition at;
  at.rank = row.at(0).get<int>();
  at.tb = row.at(1).get<int>();
  at.step = row.at(2).get<int>();
  at.slice = row.at(3).get<int>();
  const int waitsFor = row.at(4).get<int>();
  if (waitsFor < 0 || waitsFor > static_cast<int>(BlockedOn::Flag))
    throw std::invalid_argument("unknown wait " + std::to_string(waitsFor));
  at.waitsFor = static_cast<BlockedOn>(waitsFor);
  at.peer = row.at(5).get<int>();
  at.channel = row.at(6).get<int>();
  at.depTb = row.at(7).get<int>();
  at.depStep = row.at(8).get<int>();
  return at;
}

/// A run the watchdog stopped: when, where every threadblock stood; an executor run's connection
/// slots and call mode (keys absent where unknown; older readers ignore them).
void readStop(const json& object, Trace& trace)
{
  if (object.contains("stoppedUs"))
    trace.stoppedUs = object.at("stoppedUs").get<double>();
  if (object.contains("connectionSlots"))
    trace.connectionSlots = object.at("connectionSlots").get<int>();
  if (object.contains("callMode"))
    trace.mode = object.at("callMode").get<bool>() ? CallMode::InPlace : CallMode::OutOfPlace;
  if (object.contains("blocked")) {
    for (const json& row : object.at("blocked"))
      trace.blocked.push_back(blockedFromJson(row));
  }
}

void writeStop(const Trace& trace, json& object)
{
  if (trace.stoppedUs)
    object["stoppedUs"] = *trace.stoppedUs;
  if (trace.connectionSlots)
    object["connectionSlots"] = *trace.connectionSlots;
  if (trace.mode)
    object["callMode"] = *trace.mode == CallMode::InPlace; // true: in place
  if (!trace.blocked.empty()) {
    json blocked = json::array();
    for (const BlockedPosition& at : trace.blocked)
      blocked.push_back(blockedToJson(at));
    object["blocked"] = std::move(blocked);
  }
}

Trace traceFromJson(const json& object)
{
  if (object.at("format").get<std::string>() != kFormatName)
    throw std::invalid_argument("not a trace");
  if (const int version = object.at("version").get<int>(); version != 1)
    throw std::invalid_argument("trace version " + std::to_string(version) +
                                " is newer than this program reads (1)");
  Trace trace;
  trace.source = object.at("source").get<std::string>();
  trace.device = object.at("device").get<std::string>();
  trace.ranks = object.at("ranks").get<int>();
  trace.bytes = object.at("bytes").get<std::int64_t>();
  trace.totalUs = object.at("totalUs").get<double>();
  for (const json& row : object.at("events"))
    trace.events.push_back(eventFromJson(row));
  for (const json& row : object.at("links")) {
    LinkUsage usage;
    usage.link = row.at(0).get<int>();
    usage.bytesAtoB = row.at(1).get<std::int64_t>();
    usage.bytesBtoA = row.at(2).get<std::int64_t>();
    usage.utilisation = row.at(3).get<std::vector<std::pair<double, double>>>();
    trace.links.push_back(std::move(usage));
  }
  readStop(object, trace);
  if (object.contains("verification")) {
    Diagnostics out;
    trace.verification =
        readTraceVerification(object.at("verification").dump(), "the stored trace", out);
    if (!trace.verification)
      throw std::invalid_argument(out.take().front().message);
  }
  return trace;
}

} // namespace

Result<EncodedTrace> encodeTrace(const Trace& trace)
{
  json events = json::array();
  for (const TraceEvent& event : trace.events)
    events.push_back(eventToJson(event));
  json links = json::array();
  for (const LinkUsage& usage : trace.links)
    links.push_back(json::array({usage.link, usage.bytesAtoB, usage.bytesBtoA, usage.utilisation}));
  json object = {{"format", kFormatName},    {"version", 1},
                 {"source", trace.source},   {"device", trace.device},
                 {"ranks", trace.ranks},     {"bytes", trace.bytes},
                 {"totalUs", trace.totalUs}, {"events", std::move(events)},
                 {"links", std::move(links)}};
  // The run's verification as its Chrome trace spells it; older readers ignore the key.
  if (trace.verification)
    object["verification"] = json::parse(writeTraceVerification(*trace.verification));
  writeStop(trace, object);
  // Replace invalid UTF-8 in names instead of throwing: a trace is never lost over a device name.
  const std::string text = object.dump(-1, ' ', false, json::error_handler_t::replace);

  EncodedTrace encoded;
  encoded.rawSize = static_cast<std::int64_t>(text.size());
  uLongf size = compressBound(static_cast<uLong>(text.size()));
  encoded.data.resize(size);
  const int code =
      compress2(encoded.data.data(), &size, reinterpret_cast<const Bytef*>(text.data()),
                static_cast<uLong>(text.size()), Z_DEFAULT_COMPRESSION);
  if (code != Z_OK)
    return Error{ErrorKind::Io,
                 "compressing the trace failed (zlib error " + std::to_string(code) + ")"};
  encoded.data.resize(size);
  return encoded;
}

Result<Trace> decodeTrace(int format, std::int64_t rawSize, std::span<const std::uint8_t> data)
{
  if (format != kTraceFormat)
    return Error{ErrorKind::TooNew, "trace format " + std::to_string(format) +
                                        " is not one this program reads (" +
                                        std::to_string(kTraceFormat) + ")"};
  if (rawSize < 0 || rawSize > kMaxRawSize)
    return Error{ErrorKind::Corrupt,
                 "the stored trace is damaged (size " + std::to_string(rawSize) + ")"};
  std::string text(static_cast<std::size_t>(rawSize), '\0');
  uLongf size = static_cast<uLongf>(rawSize);
  const int code = uncompress(reinterpret_cast<Bytef*>(text.data()), &size, data.data(),
                              static_cast<uLong>(data.size()));
  if (code != Z_OK || size != static_cast<uLongf>(rawSize))
    return Error{ErrorKind::Corrupt,
                 "the stored trace is damaged (zlib error " + std::to_string(code) + ")"};
  // nlohmann reports bad input by throwing; nothing may escape storage (STYLE.md 11).
  try {
    return traceFromJson(json::parse(text));
  } catch (const std::exception& error) {
    return Error{ErrorKind::Corrupt, std::string("the stored trace is damaged: ") + error.what()};
  }
}

} // namespace cs::storage
