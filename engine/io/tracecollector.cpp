#include "tracecollector_p.h"

#include "jsontext_p.h"
#include "traceevent_p.h"

#include <cmath>
#include <utility>

namespace cs::tracejson {

namespace {

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
    m_sawEvents = !isObject; // the older format: a bare list of events
    m_where.push_back(isObject ? Where::Root : Where::Events);
    return true;
  }
  Where next = Where::Skip;
  switch (m_where.back()) {
  case Where::Root:
    if (m_key == "traceEvents" && !isObject) {
      m_sawEvents = true;
      next = Where::Events;
    } else if (m_key == "otherData") {
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
    if (isObject && m_key == "args")
      next = Where::Args;
    else if (Field* field = eventField(m_key))
      *field = Field{Field::Kind::Other, 0, 0, isObject ? "{...}" : "[...]"};
    break;
  case Where::Args:
    if (m_key == "links") {
      m_fields.linksPresent = true;
      m_fields.linksIsList = !isObject;
      if (!isObject)
        next = Where::Links;
    } else if (Field* field = argsField(m_key)) {
      *field = Field{Field::Kind::Other, 0, 0, isObject ? "{...}" : "[...]"};
    }
    break;
  case Where::Links:
    linkEntry(Field{Field::Kind::Other, 0, 0, isObject ? "{...}" : "[...]"});
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
    m_key.assign(name);
  return true;
}

bool TraceCollector::string(std::string_view text)
{
  m_scratch.kind = Field::Kind::String;
  m_scratch.text.assign(text);
  return scalar(m_scratch);
}

bool TraceCollector::integer(std::int64_t value)
{
  m_scratch.kind = Field::Kind::Integer;
  m_scratch.integer = value;
  return scalar(m_scratch);
}

bool TraceCollector::unsignedInteger(std::uint64_t value)
{
  if (value <= static_cast<std::uint64_t>(INT64_MAX))
    return integer(static_cast<std::int64_t>(value));
  // Past every bound below; kept as a number so that a message can still show it.
  m_scratch.kind = Field::Kind::Number;
  m_scratch.number = static_cast<double>(value);
  return scalar(m_scratch);
}

bool TraceCollector::number(double value)
{
  m_scratch.kind = Field::Kind::Number;
  m_scratch.number = value;
  return scalar(m_scratch);
}

bool TraceCollector::boolean(bool value)
{
  m_scratch.kind = Field::Kind::Other;
  m_scratch.text = value ? "true" : "false";
  return scalar(m_scratch);
}

bool TraceCollector::null()
{
  m_scratch.kind = Field::Kind::Other;
  m_scratch.text = "null";
  return scalar(m_scratch);
}

bool TraceCollector::scalar(const Field& value)
{
  if (m_where.empty())
    return true; // a bare scalar document: no events, said by the reader
  switch (m_where.back()) {
  case Where::Events:
    return elementDone();
  case Where::Event:
    if (Field* field = eventField(m_key))
      *field = value;
    break;
  case Where::Args:
    if (m_key == "links") {
      m_fields.linksPresent = true;
      m_fields.linksIsList = false;
    } else if (Field* field = argsField(m_key)) {
      *field = value;
    }
    break;
  case Where::Links:
    linkEntry(value);
    break;
  case Where::Other:
    switch (value.kind) {
    case Field::Kind::Integer:
      otherValue(value.integer);
      break;
    case Field::Kind::Number:
      otherValue(value.number);
      break;
    case Field::Kind::String:
      otherValue(value.text);
      break;
    default:
      otherValue(value.text == "null" ? nlohmann::json() : nlohmann::json(value.text == "true"));
    }
    break;
  case Where::Root:
  case Where::Skip:
    break;
  }
  return true;
}

Field* TraceCollector::eventField(std::string_view key)
{
  if (key == "name")
    return &m_fields.name;
  if (key == "ph")
    return &m_fields.phase;
  if (key == "pid")
    return &m_fields.pid;
  if (key == "tid")
    return &m_fields.tid;
  if (key == "ts")
    return &m_fields.ts;
  if (key == "dur")
    return &m_fields.dur;
  return nullptr;
}

Field* TraceCollector::argsField(std::string_view key)
{
  if (key == "step")
    return &m_fields.step;
  if (key == "slice")
    return &m_fields.slice;
  if (key == "channel")
    return &m_fields.channel;
  if (key == "peer")
    return &m_fields.peer;
  if (key == "recv_peer")
    return &m_fields.recvPeer;
  if (key == "bytes")
    return &m_fields.bytes;
  if (key == "utilisation")
    return &m_fields.utilisation;
  return nullptr;
}

void TraceCollector::linkEntry(const Field& value)
{
  ++m_fields.linkCount;
  if (m_fields.linkCount > kMaxLinkPath)
    return; // refused when the event closes; not worth keeping
  if (value.kind == Field::Kind::Integer)
    m_fields.links.push_back(value.integer);
  else if (m_fields.badLink.empty())
    m_fields.badLink = value.shown();
}

bool TraceCollector::elementDone()
{
  ++m_index;
  return true;
}

bool TraceCollector::judgeElement()
{
  const Field& phase = m_fields.phase;
  if (phase.kind == Field::Kind::String && phase.text == "X") {
    std::string why;
    std::optional<TraceEvent> event = stepEvent(m_fields, why);
    if (!event)
      return fail(why);
    m_trace.events.push_back(std::move(*event));
  } else if (phase.kind == Field::Kind::String && phase.text == "C") {
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
