#include "scheduledetail_p.h"
#include "schedulestates.h"

#include <algorithm>
#include <cstdint>
#include <unordered_set>
#include <vector>

namespace cs {

namespace detail {

void ScheduleReport::add(Severity severity, const std::string& code, const std::string& message,
                         const Transfer* transfer, int rank)
{
  const int id = transfer ? transfer->id : -1;
  if (transfer && !m_seen.insert({code, id}).second)
    return;
  if (++m_perCode[code] > kMaxPerCode)
    return;
  Diagnostic diagnostic;
  diagnostic.severity = severity;
  diagnostic.code = code;
  diagnostic.message = message;
  if (transfer) {
    diagnostic.location.rank = rank >= 0 ? rank : transfer->src.rank;
    diagnostic.location.step = transfer->step;
    diagnostic.location.transfer = id;
    diagnostic.location.element = "transfer";
  } else {
    diagnostic.location.rank = rank;
  }
  m_result.diagnostics.push_back(std::move(diagnostic));
}

void ScheduleReport::finish()
{
  for (const auto& [code, count] : m_perCode) {
    if (count <= kMaxPerCode)
      continue;
    Diagnostic more;
    more.severity = Severity::Info;
    more.code = code;
    more.message = std::to_string(count - kMaxPerCode) + " more " + code + " diagnostics omitted";
    m_result.diagnostics.push_back(std::move(more));
  }
}

std::string chunkRefName(const ChunkRef& ref)
{
  return "rank " + std::to_string(ref.rank) + " " + std::string(1, bufferLetter(ref.buffer)) + '[' +
         std::to_string(ref.index) + ']';
}

} // namespace detail

namespace {

using detail::chunkRefName;
using detail::ScheduleReport;
using detail::transferName;

/// Whether `ref`'s chunks index .. index+count-1 exist, directly or (in place) through aliasing.
bool inRange(const Schedule& schedule, const ScheduleGeometry& geometry, const ChunkRef& ref,
             int count)
{
  auto fits = [&](const ChunkRef& r) {
    const int chunks = schedule.buffers[static_cast<std::size_t>(r.rank)].chunks(r.buffer);
    return r.index >= 0 && std::int64_t{r.index} + count <= chunks;
  };
  if (fits(ref))
    return true;
  if (!schedule.inplace || ref.index < 0)
    return false;
  const ChunkRef memory = aliasedChunk(geometry, ref, CallMode::InPlace);
  return memory != ref && fits(memory);
}

/// Per-transfer checks that need no execution; returns whether the transfer can be executed.
bool checkTransfer(const Schedule& schedule, const ScheduleGeometry& geometry, const Transfer& t,
                   ScheduleReport& report)
{
  bool valid = true;
  if (t.step < 0) {
    report.add(Severity::Error, "schedule.step",
               transferName(t) + " has step " + std::to_string(t.step) + "; steps start at 0", &t);
    valid = false;
  }
  if (t.count < 1) {
    report.add(Severity::Error, "schedule.count",
               transferName(t) + " moves " + std::to_string(t.count) +
                   " chunks; a transfer moves at least one",
               &t);
    valid = false;
  }
  for (const ChunkRef* ref : {&t.src, &t.dst}) {
    const char* side = ref == &t.src ? "source" : "destination";
    if (ref->rank < 0 || ref->rank >= schedule.ranks) {
      report.add(Severity::Error, "schedule.rank",
                 transferName(t) + " has " + side + " rank " + std::to_string(ref->rank) +
                     " but the schedule has ranks 0.." + std::to_string(schedule.ranks - 1),
                 &t, -1);
      valid = false;
      continue;
    }
    if (t.count >= 1 && !inRange(schedule, geometry, *ref, t.count)) {
      const int chunks = schedule.buffers[static_cast<std::size_t>(ref->rank)].chunks(ref->buffer);
      report.add(Severity::Error, "schedule.index",
                 transferName(t) + " " + (ref == &t.src ? "reads" : "writes") + " " +
                     chunkRefName(*ref) +
                     (t.count > 1 ? " .. [" + std::to_string(ref->index + t.count - 1) + "]" : "") +
                     " but " + std::string(bufferName(ref->buffer)) + " on rank " +
                     std::to_string(ref->rank) + " has " + std::to_string(chunks) + " chunks",
                 &t, ref->rank);
      valid = false;
    }
  }
  return valid;
}

/// Broadcast and reduce need a root rank.
void checkRoot(const Schedule& schedule, ScheduleReport& report)
{
  const bool rooted =
      schedule.collective == Collective::Broadcast || schedule.collective == Collective::Reduce;
  if (rooted && (!schedule.root || *schedule.root < 0 || *schedule.root >= schedule.ranks)) {
    report.add(Severity::Error, "schedule.root",
               "a " + std::string(collectiveTitle(schedule.collective)) +
                   " needs a root rank in 0.." + std::to_string(schedule.ranks - 1) +
                   (schedule.root ? " but has " + std::to_string(*schedule.root) : ""),
               nullptr);
  }
}

} // namespace

namespace detail {

namespace {

/// Transfer ids seen so far: a flag per id where ids are dense (generators number them 0, 1,
/// …), a hash set otherwise. A node per id was a tenth of checking a 1,024-rank schedule.
class IdSet
{
public:
  explicit IdSet(const std::vector<Transfer>& transfers)
  {
    int largest = -1;
    for (const Transfer& t : transfers)
      largest = std::max(largest, t.id);
    const std::size_t denseLimit = 4 * transfers.size() + 1024;
    if (largest >= 0 && static_cast<std::size_t>(largest) < denseLimit)
      m_dense.assign(static_cast<std::size_t>(largest) + 1, 0);
    else
      m_sparse.reserve(transfers.size());
  }
  /// False when `id` was inserted before. Ids are non-negative.
  bool insert(int id)
  {
    const auto index = static_cast<std::size_t>(id);
    if (index < m_dense.size()) {
      const bool fresh = m_dense[index] == 0;
      m_dense[index] = 1;
      return fresh;
    }
    return m_sparse.insert(id).second;
  }

private:
  std::vector<std::uint8_t> m_dense;
  std::unordered_set<int> m_sparse;
};

} // namespace

std::vector<std::size_t> executableTransfers(const Schedule& schedule,
                                             const ScheduleGeometry& geometry,
                                             ScheduleReport& report)
{
  IdSet ids(schedule.transfers);
  std::vector<std::size_t> order;
  order.reserve(schedule.transfers.size());
  for (std::size_t i = 0; i < schedule.transfers.size(); ++i) {
    const Transfer& t = schedule.transfers[i];
    if (t.id < 0 || !ids.insert(t.id)) {
      report.add(Severity::Error, "schedule.duplicate-id",
                 t.id < 0 ? "a transfer has the negative id " + std::to_string(t.id)
                          : "two transfers have the id #" + std::to_string(t.id),
                 &t);
    }
    if (checkTransfer(schedule, geometry, t, report))
      order.push_back(i);
  }
  // By step, then id, then place in the list (a total order, so a list that generators already
  // wrote in that order, the usual case, needs no sort).
  const auto before = [&](std::size_t a, std::size_t b) {
    const Transfer& x = schedule.transfers[a];
    const Transfer& y = schedule.transfers[b];
    if (x.step != y.step)
      return x.step < y.step;
    return x.id != y.id ? x.id < y.id : a < b;
  };
  if (!std::is_sorted(order.begin(), order.end(), before))
    std::sort(order.begin(), order.end(), before);
  return order;
}

} // namespace detail

bool ScheduleCheckResult::hasErrors() const
{
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

ScheduleCheckResult checkSchedule(const Schedule& schedule, const ScheduleCheckOptions& options)
{
  ScheduleCheckResult result;
  ScheduleReport report(result);
  if (!detail::usableShape(schedule)) {
    report.add(Severity::Error, "schedule.shape",
               "the schedule has " + std::to_string(schedule.ranks) + " ranks and " +
                   std::to_string(schedule.buffers.size()) +
                   " buffer descriptions; it needs at least one rank and one description each",
               nullptr);
    report.finish();
    return result;
  }
  const ScheduleGeometry geometry = scheduleGeometry(schedule);
  const std::vector<std::size_t> order = detail::executableTransfers(schedule, geometry, report);
  checkRoot(schedule, report);

  std::vector<CallMode> modes;
  if (schedule.inplace)
    modes.push_back(CallMode::InPlace);
  if (schedule.outofplace)
    modes.push_back(CallMode::OutOfPlace);
  if (modes.empty()) {
    report.add(Severity::Warning, "schedule.mode",
               "the schedule declares neither in-place nor out-of-place use; checked out of place",
               nullptr);
    modes.push_back(CallMode::OutOfPlace);
  }
  std::shared_ptr<ScheduleStates> states;
  if (options.recordStates)
    states = std::make_shared<ScheduleStates>(detail::unrecordedStates(schedule, geometry));
  for (const CallMode mode : modes) {
    const std::string prefix =
        modes.size() > 1 ? std::string(callModeName(mode)) + ": " : std::string();
    // The first mode is the shown one (schedulestates.h).
    detail::PlaneRecording recording;
    if (mode == modes.front() && states) {
      recording.states = states.get();
      recording.budget =
          options.stateBudget > 0 ? options.stateBudget : ScheduleStates::kDefaultBudget;
    }
    detail::runSchedulePlane(schedule, geometry, mode, order, prefix, report, recording);
  }
  report.finish();
  result.states = std::move(states);
  return result;
}

} // namespace cs
