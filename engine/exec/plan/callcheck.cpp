#include "callcheck.h"

#include <mutex>
#include <utility>
#include <vector>

namespace cs::plan {

namespace {

std::mutex& recordMutex()
{
  static std::mutex mutex;
  return mutex;
}

std::vector<Diagnostic>& recordedFailures()
{
  static std::vector<Diagnostic> failures;
  return failures;
}

/// A call that keeps failing in a polling loop would grow the record without bound.
constexpr std::size_t kMostRecorded = 32;
std::size_t dropped = 0; // guarded by recordMutex()

/// The file from engine/ on ("exec/cuda/devicebuffers.cpp"): enough to find it, and the same
/// on every machine.
std::string_view shortPath(std::string_view file)
{
  const std::size_t at = file.rfind("exec/");
  return at == std::string_view::npos ? file : file.substr(at);
}

} // namespace

std::string describeFailedCall(std::string_view call, const CallSite& site, SourcePlace place,
                               std::string_view said)
{
  std::string text(call);
  if (!site.what.empty())
    text += " for " + std::string(site.what);
  if (site.rank >= 0)
    text += (site.what.empty() ? " for rank " : " of rank ") + std::to_string(site.rank);
  if (site.device >= 0)
    text += " on device " + std::to_string(site.device);
  text += " (" + std::string(shortPath(place.file)) + ":" + std::to_string(place.line) + "): ";
  return text + std::string(said);
}

void recordFailure(Diagnostic diagnostic)
{
  const std::lock_guard lock(recordMutex());
  if (recordedFailures().size() < kMostRecorded)
    recordedFailures().push_back(std::move(diagnostic));
  else
    ++dropped;
}

void takeRecordedFailures(Diagnostics& out)
{
  std::vector<Diagnostic> failures;
  std::size_t more = 0;
  {
    const std::lock_guard lock(recordMutex());
    failures.swap(recordedFailures());
    more = std::exchange(dropped, 0);
  }
  out.append(failures);
  if (more > 0) {
    out.warning(failures.back().code,
                "and " + std::to_string(more) + " more failed calls like the ones above");
  }
}

} // namespace cs::plan
