#include "generatepipeline.h"

#include "benchtiming.h"

#include "check/checker.h"
#include "check/schedulecheck.h"
#include "compile/lower.h"
#include "io/mscclxmlwriter.h"

#include <algorithm>
#include <chrono>
#include <ostream>
#include <streambuf>
#include <thread>

namespace cs::bench {

namespace {

/// Discards what is written and counts it.
class CountingBuffer : public std::streambuf
{
public:
  long long count() const { return m_count; }

protected:
  int_type overflow(int_type c) override
  {
    ++m_count;
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char_type*, std::streamsize n) override
  {
    m_count += n;
    return n;
  }

private:
  long long m_count = 0;
};

bool anyError(const std::vector<Diagnostic>& diagnostics)
{
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

double msSince(std::chrono::steady_clock::time_point start)
{
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace

PipelineTimes timeGeneratePipeline(const Schedule& schedule)
{
  PipelineTimes times;
  std::optional<LowerResult> lowered;
  ScheduleCheckResult checked;
  const auto start = std::chrono::steady_clock::now();
  {
    std::jthread lowerer(
        [&] { times.lowerMs = medianMs(1, [&] { lowered = lowerSchedule(schedule, {}); }); });
    times.scheduleCheckMs = medianMs(1, [&] { checked = checkSchedule(schedule); });
  }
  if (checked.hasErrors() || !lowered->program || anyError(lowered->diagnostics))
    return times;
  std::vector<Diagnostic> findings;
  CountingBuffer counter;
  std::ostream sink(&counter);
  {
    std::jthread checker([&] {
      times.programCheckMs = medianMs(1, [&] { findings = checkProgram(*lowered->program, {}); });
    });
    times.writeMs = medianMs(1, [&] { writeMscclXml(*lowered->program, {}, sink); });
  }
  times.overlappedMs = msSince(start);
  times.bytes = counter.count();
  times.ok = !anyError(findings);
  return times;
}

} // namespace cs::bench
