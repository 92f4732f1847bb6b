#include "tracecollector_p.h"

#include "jsontext_p.h"
#include "traceevent_p.h"

#include <cmath>
#include <cstring>
#include <utility>

namespace cs::tracejson {

namespace {

/// Whether `text` is the literal: a comparison of known length, which the compiler inlines.
template <std::size_t N> bool is(std::string_view text, const char (&literal)[N])
{
  return text.size() == N - 1 && std::memcmp(text.data(), literal, N - 1) == 0;
}

// Deeper than any trace needs; a hostile file of a million '[' is refused, not followed.
constexpr std::size_t kMaxNesting = 64;

} // namespace

std::string Field::shown() const
{
  switch (kind) {
  case Kind::Integer:
    return std::to_string(integer);
  case Kind::Number:
    return jsonText(number);
  case Kind::String:
    return jsonText(text);
  case Kind::Other:
    return text;
  case Kind::Absent:
    break;
  }
  return "nothing";
}

void Field::set(Kind valueKind, std::int64_t integerValue, double numberValue,
                std::string_view textValue)
{
  kind = valueKind;
  integer = integerValue;
  number = numberValue;
  if (kind == Kind::String || kind == Kind::Other)
    text.assign(textValue);
}

void EventFields::clear()
{
  for (Field* field : {&name, &phase, &pid, &tid, &ts, &dur, &step, &slice, &channel, &peer,
                       &recvPeer, &bytes, &utilisation})
    field->kind = Field::Kind::Absent;
  linksPresent = false;
  linksIsList = false;
  linkCount = 0;
  links.clear();
  badLink.clear();
}

TraceCollector::TraceCollector(std::string source, Diagnostics& out)
    : m_source(std::move(source)), m_out(out)
{
}

void TraceCollector::append(TraceCollector&& rest)
{
  m_trace.events.insert(m_trace.events.end(), std::make_move_iterator(rest.m_trace.events.begin()),
                        std::make_move_iterator(rest.m_trace.events.end()));
  for (auto& [id, usage] : rest.m_links) {
    LinkUsage& mine = m_links[id];
    mine.link = id;
    if (mine.utilisation.empty())
      mine.utilisation = std::move(usage.utilisation);
    else
      mine.utilisation.insert(mine.utilisation.end(), usage.utilisation.begin(),
                              usage.utilisation.end());
  }
}

bool TraceCollector::startObject()
{
  return open(true);
}

bool TraceCollector::startArray()
{
  return open(false);
}

bool TraceCollector::endObject()
{
  return close();
}

bool TraceCollector::endArray()
{
  return close();
}

bool TraceCollector::open(bool isObject)
{
  if (m_where.size() >= kMaxNesting) {
    m_out.error("trace.malformed", m_source + ": values nested more than " +
                                       std::to_string(kMaxNesting) + " deep: not a Chrome trace");
    m_failed = true;
    return false;
  }
  if (m_where.empty()) {
    if (!isObject)
      m_sawEvents = true; // the older format: a bare list of events
    m_where.push_back(isObject ? Where::Root : Where::Events);
    return true;
  }
  Where next = Where::Skip;
  switch (m_where.back()) {
  case Where::Root:
    if (m_key == Key::TraceEvents && !isObject) {
      m_sawEvents = true;
      next = Where::Events;
    } else if (m_key == Key::OtherData) {
      m_otherData = nullptr;
      m_otherOpen.clear();
      otherOpen(isObject);
      next = Where::Other;
    }
    break;
  case Where::Events:
    if (isObject) {
      m_fields.clear();
      next = Where::Event;
    }
    break;
  case Where::Event:
    if (isObject && m_key == Key::Args)
      next = Where::Args;
    else if (Field* field = eventField(m_key))
      field->set(Field::Kind::Other, 0, 0, isObject ? "{...}" : "[...]");
    break;
  case Where::Args:
    if (m_key == Key::Links) {
      m_fields.linksPresent = true;
      m_fields.linksIsList = !isObject;
      if (!isObject)
        next = Where::Links;
    } else if (Field* field = argsField(m_key)) {
      field->set(Field::Kind::Other, 0, 0, isObject ? "{...}" : "[...]");
    }
    break;
  case Where::Links:
    linkEntry(Field::Kind::Other, 0, 0, isObject ? "{...}" : "[...]");
    break;
  case Where::Other:
    otherOpen(isObject);
    next = Where::Other;
    break;
  case Where::Skip:
    break;
  }
  m_where.push_back(next);
  return true;
}

bool TraceCollector::close()
{
  if (m_where.empty())
    return true;
  const Where closed = m_where.back();
  m_where.pop_back();
  if (closed == Where::Other && !m_otherOpen.empty())
    m_otherOpen.pop_back();
  if (!m_where.empty() && m_where.back() == Where::Events)
    return closed == Where::Event ? judgeElement() : elementDone();
  return true;
}

bool TraceCollector::key(std::string_view name)
{
  if (m_where.empty())
    return true;
  if (m_where.back() == Where::Other)
    m_otherKey.assign(name);
  else
    m_key = keyOf(name);
  return true;
}

bool TraceCollector::string(std::string_view text)
{
  return scalar(Field::Kind::String, 0, 0, text);
}

bool TraceCollector::integer(std::int64_t value)
{
  return scalar(Field::Kind::Integer, value, 0, {});
}

bool TraceCollector::unsignedInteger(std::uint64_t value)
{
  if (value <= static_cast<std::uint64_t>(INT64_MAX))
    return integer(static_cast<std::int64_t>(value));
  // Past every bound below; kept as a number so that a message can still show it.
  return number(static_cast<double>(value));
}

bool TraceCollector::number(double value)
{
  return scalar(Field::Kind::Number, 0, value, {});
}

bool TraceCollector::boolean(bool value)
{
  return scalar(Field::Kind::Other, 0, 0, value ? "true" : "false");
}

bool TraceCollector::null()
{
  return scalar(Field::Kind::Other, 0, 0, "null");
}

bool TraceCollector::scalar(Field::Kind kind, std::int64_t integer, double number,
                            std::string_view text)
{
  if (m_where.empty())
    return true; // a bare scalar document: no events, said by the reader
  switch (m_where.back()) {
  case Where::Events:
    return elementDone();
  case Where::Event:
    if (Field* field = eventField(m_key))
      field->set(kind, integer, number, text);
    break;
  case Where::Args:
    if (m_key == Key::Links) {
      m_fields.linksPresent = true;
      m_fields.linksIsList = false;
    } else if (Field* field = argsField(m_key)) {
      field->set(kind, integer, number, text);
    }
    break;
  case Where::Links:
    linkEntry(kind, integer, number, text);
    break;
  case Where::Other:
    if (kind == Field::Kind::Integer)
      otherValue(integer);
    else if (kind == Field::Kind::Number)
      otherValue(number);
    else if (kind == Field::Kind::String)
      otherValue(std::string(text));
    else
      otherValue(is(text, "null") ? nlohmann::json() : nlohmann::json(is(text, "true")));
    break;
  case Where::Root:
  case Where::Skip:
    break;
  }
  return true;
}

TraceCollector::Key TraceCollector::keyOf(std::string_view name)
{
  // Every key of every event comes here: by length first, then at most three comparisons.
  switch (name.size()) {
  case 2:
    return is(name, "ph") ? Key::Phase : is(name, "ts") ? Key::Ts : Key::Unknown;
  case 3:
    return is(name, "pid")   ? Key::Pid
           : is(name, "tid") ? Key::Tid
           : is(name, "dur") ? Key::Dur
                             : Key::Unknown;
  case 4:
    return is(name, "name")   ? Key::Name
           : is(name, "args") ? Key::Args
           : is(name, "step") ? Key::Step
           : is(name, "peer") ? Key::Peer
                              : Key::Unknown;
  case 5:
    return is(name, "slice")   ? Key::Slice
           : is(name, "bytes") ? Key::Bytes
           : is(name, "links") ? Key::Links
                               : Key::Unknown;
  case 7:
    return is(name, "channel") ? Key::Channel : Key::Unknown;
  case 9:
    return is(name, "recv_peer")   ? Key::RecvPeer
           : is(name, "otherData") ? Key::OtherData
                                   : Key::Unknown;
  case 11:
    return is(name, "utilisation")   ? Key::Utilisation
           : is(name, "traceEvents") ? Key::TraceEvents
                                     : Key::Unknown;
  default:
    return Key::Unknown;
  }
}

Field* TraceCollector::eventField(Key key)
{
  switch (key) {
  case Key::Name:
    return &m_fields.name;
  case Key::Phase:
    return &m_fields.phase;
  case Key::Pid:
    return &m_fields.pid;
  case Key::Tid:
    return &m_fields.tid;
  case Key::Ts:
    return &m_fields.ts;
  case Key::Dur:
    return &m_fields.dur;
  default:
    return nullptr;
  }
}

Field* TraceCollector::argsField(Key key)
{
  switch (key) {
  case Key::Step:
    return &m_fields.step;
  case Key::Slice:
    return &m_fields.slice;
  case Key::Channel:
    return &m_fields.channel;
  case Key::Peer:
    return &m_fields.peer;
  case Key::RecvPeer:
    return &m_fields.recvPeer;
  case Key::Bytes:
    return &m_fields.bytes;
  case Key::Utilisation:
    return &m_fields.utilisation;
  default:
    return nullptr;
  }
}

void TraceCollector::linkEntry(Field::Kind kind, std::int64_t integer, double number,
                               std::string_view text)
{
  ++m_fields.linkCount;
  if (m_fields.linkCount > kMaxLinkPath)
    return; // refused when the event closes; not worth keeping
  if (kind == Field::Kind::Integer) {
    m_fields.links.push_back(integer);
  } else if (m_fields.badLink.empty()) {
    Field shown;
    shown.set(kind, integer, number, text);
    m_fields.badLink = shown.shown();
  }
}

bool TraceCollector::elementDone()
{
  ++m_index;
  return true;
}

bool TraceCollector::judgeElement()
{
  const Field& phase = m_fields.phase;
  if (phase.kind == Field::Kind::String && is(phase.text, "X")) {
    std::string why;
    std::optional<TraceEvent> event = stepEvent(m_fields, why);
    if (!event)
      return fail(why);
    m_trace.events.push_back(std::move(*event));
  } else if (phase.kind == Field::Kind::String && is(phase.text, "C")) {
    addCounterSample(m_fields, m_links);
  }
  return elementDone(); // other phases (metadata, flows, other tools' events): not ours to judge
}

bool TraceCollector::fail(const std::string& why)
{
  m_out.error("trace.invalid", m_source + ": traceEvents[" + std::to_string(m_index) + "]: " + why);
  m_failed = true;
  return false;
}

void TraceCollector::otherValue(nlohmann::json value)
{
  if (m_otherOpen.empty())
    return;
  nlohmann::json& container = *m_otherOpen.back();
  if (container.is_object())
    container[m_otherKey] = std::move(value);
  else
    container.push_back(std::move(value));
}

void TraceCollector::otherOpen(bool isObject)
{
  nlohmann::json fresh = isObject ? nlohmann::json::object() : nlohmann::json::array();
  if (m_otherOpen.empty()) {
    m_otherData = std::move(fresh);
    m_otherOpen.push_back(&m_otherData);
    return;
  }
  nlohmann::json& container = *m_otherOpen.back();
  // An object's members and an array's last element stay where they are while they are filled:
  // nothing is added to their container until they close.
  if (container.is_object()) {
    container[m_otherKey] = std::move(fresh);
    m_otherOpen.push_back(&container[m_otherKey]);
  } else {
    container.push_back(std::move(fresh));
    m_otherOpen.push_back(&container.back());
  }
}

} // namespace cs::tracejson
