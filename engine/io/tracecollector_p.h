#pragma once

// The Chrome trace reader's format half: it receives the JSON as a stream of SAX events (from
// whichever tokenizer chrometracereader.cpp drives: RapidJSON's where it was found at build time,
// else nlohmann's) and keeps only what a Trace needs. No document is ever built for the events: a
// 1,000,000-event trace is over 400 MB of JSON, and each event is judged and turned into a
// TraceEvent as soon as its object closes. otherData, small and read by key, is kept whole.
//
// Keys come in any order (nlohmann writes them sorted, so "args" precedes "ph"): an event's fields
// are held in an EventFields until its object closes, then judged with the same bounds and
// messages for every tokenizer.

#include "model/diagnostic.h"
#include "model/trace.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace cs::tracejson {

/// The longest link path an event may give; longer lists are refused, not kept.
constexpr std::size_t kMaxLinkPath = 64;

/// One scalar field of an event as written.
struct Field {
  enum class Kind : std::uint8_t { Absent, Integer, Number, String, Other };
  Kind kind = Kind::Absent;
  std::int64_t integer = 0;
  double number = 0;
  std::string text; ///< a String's text; for Other the value's JSON shape ("null", "[...]")

  bool present() const { return kind != Kind::Absent; }
  /// Takes a value; its text (strings and the shape of others) only where there is one.
  void set(Kind valueKind, std::int64_t integerValue, double numberValue,
           std::string_view textValue);
  bool isNumber() const { return kind == Kind::Integer || kind == Kind::Number; }
  double asDouble() const { return kind == Kind::Integer ? static_cast<double>(integer) : number; }
  /// The value as the file wrote it, for messages: 7, 1.5, "NaN", null, [...].
  std::string shown() const;
};

/// The fields of one traceEvents element that a Trace uses; the rest are skipped unread.
struct EventFields {
  Field name, phase, pid, tid, ts, dur;
  Field step, slice, channel, peer, recvPeer, bytes, utilisation; ///< from "args"
  bool linksPresent = false;
  bool linksIsList = false;
  std::size_t linkCount = 0;       ///< entries of "links", whatever they hold
  std::vector<std::int64_t> links; ///< its integer entries, the first kMaxLinkPath of them
  std::string badLink; ///< the first entry of "links" that is not an integer, as written

  void clear();
};

/// The SAX events of one JSON document, in order. Each returns false to stop the parse: the
/// first invalid event ends reading (failed() then says so, before any tokenizer error).
class TraceCollector
{
public:
  TraceCollector(std::string source, Diagnostics& out);

  bool startObject();
  bool endObject();
  bool startArray();
  bool endArray();
  bool key(std::string_view name);
  bool string(std::string_view text);
  bool integer(std::int64_t value);
  bool unsignedInteger(std::uint64_t value);
  bool number(double value);
  bool boolean(bool value);
  bool null();

  /// Whether the value that just closed was an element of the events list (where a reader may
  /// split the file: rapidjsonhalves.cpp).
  bool betweenEvents() const { return !m_where.empty() && m_where.back() == Where::Events; }
  /// Takes the events and samples another collector read from the rest of the events list.
  void append(TraceCollector&& rest);
  /// Forgets where it is, keeping what it read, so that the text after the events list can be
  /// read as the members of a new root object.
  void resumeAtRoot() { m_where.clear(); }

  /// Whether a list of events was found (traceEvents, or a bare root list).
  bool sawEvents() const { return m_sawEvents; }
  /// Whether reading stopped at an invalid event or an absurd nesting (the diagnostic is in out).
  bool failed() const { return m_failed; }
  Trace& trace() { return m_trace; }
  std::map<int, LinkUsage>& links() { return m_links; }
  /// otherData as written (null when the file has none).
  const nlohmann::json& otherData() const { return m_otherData; }

private:
  /// Where in the document the next event lands.
  enum class Where : std::uint8_t { Root, Events, Event, Args, Links, Other, Skip };
  /// The keys a trace is read by, recognised once when the tokenizer reports them.
  enum class Key : std::uint8_t {
    Unknown,
    TraceEvents,
    OtherData,
    Name,
    Phase,
    Pid,
    Tid,
    Ts,
    Dur,
    Args,
    Step,
    Slice,
    Channel,
    Peer,
    RecvPeer,
    Bytes,
    Utilisation,
    Links
  };
  static Key keyOf(std::string_view name);

  bool open(bool isObject);
  bool close();
  bool scalar(Field::Kind kind, std::int64_t integer, double number, std::string_view text);
  Field* eventField(Key key);
  Field* argsField(Key key);
  void linkEntry(Field::Kind kind, std::int64_t integer, double number, std::string_view text);
  bool elementDone();
  bool judgeElement();
  bool fail(const std::string& why);

  // otherData is rebuilt as a document; these add to it.
  void otherValue(nlohmann::json value);
  void otherOpen(bool isObject);

  std::string m_source;
  Diagnostics& m_out;
  std::vector<Where> m_where; ///< one entry per open container
  Key m_key = Key::Unknown;   ///< the last key read in Root, Event or Args
  EventFields m_fields;
  std::size_t m_index = 0; ///< the element of the events list being read
  bool m_sawEvents = false;
  bool m_failed = false;
  Trace m_trace;
  std::map<int, LinkUsage> m_links;
  nlohmann::json m_otherData;
  std::vector<nlohmann::json*> m_otherOpen; ///< containers of otherData being filled
  std::string m_otherKey;
};

} // namespace cs::tracejson
