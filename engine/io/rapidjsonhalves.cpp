// A large trace file read by two threads (where RapidJSON was built): the tokenizer is most of the
// time it takes to open a recorded run, and a machine has more than one core.
//
// The file is cut where an element of the events list ends, "},{" near its middle. The second
// thread reads from there as a list of its own ("[" + the elements after the cut) and stops where
// that list closes. The first thread reads from the start and stops where an element of the
// events list ends exactly at the cut, so both halves read what one pass would. The rest of the
// file (otherData, when it follows the events) is then read as the members of an object. Anything
// else (no such element at the cut, because the bytes were inside a string; an error in the
// second half) and the caller reads the file again in one pass: its messages and byte offsets are
// then exactly the one pass's.

#include "rapidjsonevents_p.h"
#include "tracetokenizers_p.h"

#include <rapidjson/filereadstream.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

namespace cs::tracejson {

namespace {

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;
constexpr std::size_t kBufferBytes = 1 << 16;
constexpr std::size_t kSearchBytes = 1 << 20; ///< how far past the middle a cut is looked for

File openAt(const std::string& path, std::size_t offset)
{
  File file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (file && std::fseek(file.get(), static_cast<long>(offset), SEEK_SET) != 0)
    file.reset();
  return file;
}

std::optional<std::size_t> fileSize(std::FILE* file)
{
  if (std::fseek(file, 0, SEEK_END) != 0)
    return std::nullopt;
  const long size = std::ftell(file);
  return size < 0 ? std::nullopt : std::optional(static_cast<std::size_t>(size));
}

/// The offset of the '}' of the first "},{" at or after `from`, within kSearchBytes.
std::optional<std::size_t> findCut(std::FILE* file, std::size_t from)
{
  std::vector<char> window(kSearchBytes);
  if (std::fseek(file, static_cast<long>(from), SEEK_SET) != 0)
    return std::nullopt;
  const std::size_t got = std::fread(window.data(), 1, window.size(), file);
  for (std::size_t i = 0; i + 2 < got; ++i) {
    if (window[i] == '}' && window[i + 1] == ',' && window[i + 2] == '{')
      return from + i;
  }
  return std::nullopt;
}

/// A few bytes of our own, then a file from where it stands.
class SplicedStream
{
public:
  using Ch = char;

  SplicedStream(std::string_view prefix, std::FILE* file, std::vector<char>& buffer)
      : m_prefix(prefix), m_file(file, buffer.data(), buffer.size())
  {
  }

  Ch Peek() const { return m_at < m_prefix.size() ? m_prefix[m_at] : m_file.Peek(); }
  Ch Take() { return m_at < m_prefix.size() ? m_prefix[m_at++] : m_file.Take(); }
  std::size_t Tell() const { return m_at + m_file.Tell(); }
  // Read only: RapidJSON asks for these with in-situ parsing, which is not used.
  Ch* PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  std::size_t PutEnd(Ch*) { return 0; }

private:
  std::string_view m_prefix;
  std::size_t m_at = 0;
  rapidjson::FileReadStream m_file;
};

/// The first half: stops where an element of the events list ends at the cut.
class FirstHalfEvents : public RapidJsonEvents
{
public:
  FirstHalfEvents(TraceCollector& out, const rapidjson::FileReadStream& stream, std::size_t cut)
      : RapidJsonEvents(out), m_stream(stream), m_cut(cut)
  {
  }

  bool EndObject(rapidjson::SizeType members)
  {
    if (!RapidJsonEvents::EndObject(members))
      return false;
    // RapidJSON calls this before it takes the '}': the stream stands on it.
    m_reachedCut = m_stream.Tell() == m_cut && m_out.betweenEvents();
    return !m_reachedCut;
  }

  bool reachedCut() const { return m_reachedCut; }

private:
  const rapidjson::FileReadStream& m_stream;
  std::size_t m_cut;
  bool m_reachedCut = false;
};

/// The second half: stops early when the first half no longer needs it.
class SecondHalfEvents : public RapidJsonEvents
{
public:
  SecondHalfEvents(TraceCollector& out, const std::atomic<bool>& cancelled)
      : RapidJsonEvents(out), m_cancelled(cancelled)
  {
  }

  bool EndObject(rapidjson::SizeType members)
  {
    return !m_cancelled.load(std::memory_order_relaxed) && RapidJsonEvents::EndObject(members);
  }

private:
  const std::atomic<bool>& m_cancelled;
};

/// What the second thread read: the elements after the cut, and where their list closed.
struct SecondHalf {
  bool complete = false;
  std::size_t listEnd = 0; ///< file offset just past the list's ']'
};

SecondHalf readSecondHalf(const std::string& path, std::size_t cut, TraceCollector& out,
                          const std::atomic<bool>& cancelled)
{
  SecondHalf half;
  const std::size_t first = cut + 2; // the '{' after "},"
  File file = openAt(path, first);
  if (!file)
    return half;
  std::vector<char> buffer(kBufferBytes);
  SplicedStream stream("[", file.get(), buffer);
  SecondHalfEvents events(out, cancelled);
  rapidjson::Reader reader;
  const rapidjson::ParseResult result =
      reader.Parse<kRapidJsonFlags | rapidjson::kParseStopWhenDoneFlag>(stream, events);
  half.complete = !result.IsError() && !out.failed();
  half.listEnd = first + stream.Tell() - 1;
  return half;
}

/// Reads what follows the events list into `out` as the members of an object.
bool readRest(const std::string& path, std::size_t from, TraceCollector& out)
{
  File file = openAt(path, from);
  if (!file)
    return false;
  std::vector<char> buffer(kBufferBytes);
  SplicedStream stream(R"({"_":0)", file.get(), buffer);
  RapidJsonEvents events(out);
  out.resumeAtRoot();
  rapidjson::Reader reader;
  return !reader.Parse<kRapidJsonFlags>(stream, events).IsError() && !out.failed();
}

} // namespace

std::optional<TraceReadResult> readFileInHalves(const std::string& path, std::size_t minBytes)
{
  File probe = openAt(path, 0);
  const std::optional<std::size_t> size = probe ? fileSize(probe.get()) : std::nullopt;
  if (!size || *size < minBytes || std::thread::hardware_concurrency() < 2)
    return std::nullopt;
  const std::optional<std::size_t> cut = findCut(probe.get(), *size / 2);
  if (!cut)
    return std::nullopt;

  Diagnostics secondOut; // discarded: an error there is read again in one pass
  TraceCollector second(path, secondOut);
  std::atomic<bool> cancelled = false;
  SecondHalf secondHalf;
  std::thread worker([&] { secondHalf = readSecondHalf(path, *cut, second, cancelled); });

  Diagnostics out;
  TraceCollector first(path, out);
  File file = openAt(path, 0);
  std::vector<char> buffer(kBufferBytes);
  rapidjson::FileReadStream stream(file.get(), buffer.data(), buffer.size());
  FirstHalfEvents events(first, stream, *cut);
  rapidjson::Reader reader;
  const rapidjson::ParseResult result = reader.Parse<kRapidJsonFlags>(stream, events);
  if (!events.reachedCut()) {
    // One pass after all: the cut was not between two events, or the first half failed first.
    cancelled = true;
    worker.join();
    TokenizeOutcome outcome;
    outcome.complete = !result.IsError();
    outcome.errorOffset = result.Offset();
    return finishTrace(outcome, first, path, out);
  }
  worker.join();
  if (!secondHalf.complete)
    return std::nullopt;
  first.append(std::move(second));
  if (!readRest(path, secondHalf.listEnd, first))
    return std::nullopt;
  TokenizeOutcome outcome;
  outcome.complete = true;
  return finishTrace(outcome, first, path, out);
}

} // namespace cs::tracejson
