// NcclSession's rank threads and the watchdog that waits for them (ncclsession.h): what each
// thread posts for a launch, and how the calling thread watches events and aborts.

#include "ncclsession_p.h"

#include "exec/polling.h"

#include <algorithm>
#include <chrono>
#include <system_error>

namespace cs::nccl {

namespace {

using Clock = std::chrono::steady_clock;

} // namespace

const std::vector<cudaEvent_t>* NcclSession::eventsOf(const Rank& rank, Work work) const
{
  switch (work) {
  case Work::Iteration:
    return &rank.iterationEvents;
  case Work::Library:
    return &rank.libraryEvents;
  case Work::Teardown:
    break;
  }
  return nullptr;
}

bool NcclSession::record(Rank& rank, const std::vector<cudaEvent_t>& events, int index)
{
  if (!CS_CHECK(cudaEventRecord(events[static_cast<std::size_t>(index)], rank.stream), siteOf(rank),
                rank.errors))
    return false;
  rank.recorded.store(index + 1, std::memory_order_release);
  return true;
}

bool NcclSession::postGroup(Rank& rank, const RoundWork& round)
{
  if (round.recvs.empty() && round.sends.empty())
    return true;
  // The call text names the peer (op.peer); the round is short enough to need no allocation.
  const std::string what = "round " + std::to_string(round.round);
  const plan::CallSite site = plan::withWhat(siteOf(rank), what);
  const ncclDataType_t type = ncclTypeOf(m_config.dtype);
  if (!CS_CHECK(ncclGroupStart(), site, rank.errors))
    return false;
  bool ok = true;
  for (const PostedOp& op : round.recvs) {
    ok = ok && CS_CHECK(ncclRecv(op.data, op.count, type, op.peer, rank.comm, rank.stream), site,
                        rank.errors);
  }
  for (const PostedOp& op : round.sends) {
    ok = ok && CS_CHECK(ncclSend(op.data, op.count, type, op.peer, rank.comm, rank.stream), site,
                        rank.errors);
  }
  // Closed even after a failed call, or the thread's next group would nest inside this one.
  const bool ended = CS_CHECK(ncclGroupEnd(), site, rank.errors);
  return ok && ended;
}

bool NcclSession::postIteration(Rank& rank, bool restoreFirst)
{
  const plan::CallSite site = siteOf(rank);
  if (restoreFirst) {
    const plan::CallSite restoring = plan::withWhat(site, "restoring the inputs");
    for (std::size_t m = 0; m < kBufferCount; ++m) {
      if (!rank.memory[m])
        continue;
      const bool restored =
          rank.pristine[m]
              ? CS_CHECK(cudaMemcpyAsync(rank.memory[m], rank.pristine[m], rank.bytes[m],
                                         cudaMemcpyDeviceToDevice, rank.stream),
                         restoring, rank.errors)
              : CS_CHECK(cudaMemsetAsync(rank.memory[m], 0xff, rank.bytes[m], rank.stream),
                         restoring, rank.errors);
      if (!restored)
        return false;
    }
  }
  const std::vector<cudaEvent_t>& events = rank.iterationEvents;
  if (!record(rank, events, 0))
    return false;
  for (std::size_t i = 0; i < rank.rounds.size(); ++i) {
    // Stop between calls once the run is being aborted: the communicator is about to go.
    if (m_aborted.load(std::memory_order_acquire))
      return false;
    const RoundWork& round = rank.rounds[i];
    if (!postGroup(rank, round))
      return false;
    for (int first = 0; first < round.locals; first += kMaxLocalOpsPerLaunch) {
      const int count = std::min(kMaxLocalOpsPerLaunch, round.locals - first);
      if (!CS_CHECK(
              launchLocalOps(m_config.dtype, m_config.op, rank.localOps + round.firstLocal + first,
                             count, round.largestLocal, rank.stream),
              plan::withWhat(site, "the local kernel of round " + std::to_string(round.round)),
              rank.errors))
        return false;
    }
    if (!record(rank, events, static_cast<int>(i) + 1))
      return false;
  }
  return record(rank, events, static_cast<int>(rank.rounds.size()) + 1);
}

bool NcclSession::postLibrary(Rank& rank)
{
  const int ranks = static_cast<int>(m_ranks.size());
  for (int i = 0; i < m_config.libraryRuns; ++i) {
    if (m_aborted.load(std::memory_order_acquire))
      return false;
    if (!record(rank, rank.libraryEvents, 2 * i) ||
        !CS_CHECK(postLibraryCall(m_library, rank.library, ranks, m_config.elementSize,
                                  m_config.dtype, m_config.op, rank.comm, rank.stream),
                  plan::withWhat(siteOf(rank), m_library.name), rank.errors) ||
        !record(rank, rank.libraryEvents, 2 * i + 1))
      return false;
  }
  return true;
}

void NcclSession::runThread(int index, Work work, bool restoreFirst)
{
  Rank& rank = *m_ranks[static_cast<std::size_t>(index)];
  bool ok = false;
  // Nothing may escape a thread (std::terminate); the only throw left is running out of memory
  // while describing an error.
  try {
    ok = CS_CHECK(cudaSetDevice(rank.device), siteOf(rank), rank.errors);
    if (ok) {
      switch (work) {
      case Work::Iteration:
        ok = postIteration(rank, restoreFirst);
        break;
      case Work::Library:
        ok = postLibrary(rank);
        break;
      case Work::Teardown:
        ok = CS_CHECK(ncclCommDestroy(rank.comm), siteOf(rank), rank.errors);
        break;
      }
    }
  } catch (...) {
    ok = false;
  }
  if (!ok)
    rank.failed.store(true, std::memory_order_release);
  rank.finished.store(true, std::memory_order_release);
}

NcclSession::Poll NcclSession::poll(Work work, bool& progressed, Diagnostics& out)
{
  bool done = true;
  for (const std::unique_ptr<Rank>& owned : m_ranks) {
    Rank& rank = *owned;
    if (rank.failed.load(std::memory_order_acquire))
      return Poll::Failed;
    const bool finished = rank.finished.load(std::memory_order_acquire);
    done &= finished;
    const std::vector<cudaEvent_t>* events = eventsOf(rank, work);
    if (!events)
      continue;
    ncclResult_t state = ncclSuccess;
    if (!CS_CHECK(ncclCommGetAsyncError(rank.comm, &state), siteOf(rank), out))
      return Poll::Failed;
    // In progress is not a failure: nonblocking communicators report it while they work.
    if (state != ncclInProgress &&
        !CS_CHECK(state, plan::withWhat(siteOf(rank), "an asynchronous NCCL operation"), out))
      return Poll::Failed;
    const int recorded = rank.recorded.load(std::memory_order_acquire);
    if (rank.completed < recorded && !CS_CHECK(cudaSetDevice(rank.device), siteOf(rank), out))
      return Poll::Failed;
    while (rank.completed < recorded) {
      const cudaError_t query = cudaEventQuery((*events)[static_cast<std::size_t>(rank.completed)]);
      if (query == cudaErrorNotReady)
        break;
      if (!CS_CHECK(query, plan::withWhat(siteOf(rank), "the GPU work this rank was given"), out))
        return Poll::Failed;
      ++rank.completed;
      progressed = true;
    }
    // A rank whose thread is still posting makes progress too (recording its events).
    progressed |= recorded != rank.seenRecorded;
    rank.seenRecorded = recorded;
    done &= rank.completed == static_cast<int>(events->size());
  }
  return done ? Poll::Done : Poll::Running;
}

void NcclSession::abortAll()
{
  m_aborted.store(true, std::memory_order_release);
  // Threads that are only posting notice the flag between calls and leave; give them a moment
  // so no thread is inside a call on a communicator the abort frees.
  const auto deadline = Clock::now() + seconds(1.0);
  for (int polls = 0; Clock::now() < deadline; ++polls) {
    const bool left = std::all_of(m_ranks.begin(), m_ranks.end(), [](const auto& rank) {
      return rank->finished.load(std::memory_order_acquire) || !rank->thread.joinable();
    });
    if (left)
      break;
    pauseBeforePoll(polls);
  }
  for (const std::unique_ptr<Rank>& rank : m_ranks) {
    if (rank->comm) // also stops threads blocked inside NCCL
      CS_CHECK_RECORD(ncclCommAbort(rank->comm), siteOf(*rank));
  }
}

bool NcclSession::joinThreads(double timeoutSeconds, Diagnostics& out)
{
  const auto deadline = Clock::now() + seconds(timeoutSeconds);
  bool joined = true;
  for (const std::unique_ptr<Rank>& rank : m_ranks) {
    if (!rank->thread.joinable())
      continue;
    for (int polls = 0; !rank->finished.load(std::memory_order_acquire) && Clock::now() < deadline;
         ++polls)
      pauseBeforePoll(polls);
    if (rank->finished.load(std::memory_order_acquire)) {
      rank->thread.join();
      continue;
    }
    rank->thread.detach(); // it keeps the session alive through its own reference
    m_threadsDetached = true;
    joined = false;
    out.warning("exec.abort", "the thread of rank " + std::to_string(rank->rank) +
                                  " did not leave NCCL after the abort; it was left running and "
                                  "its GPU memory stays allocated until the process ends");
  }
  return joined;
}

void NcclSession::collectThreadErrors(Diagnostics& out)
{
  for (const std::unique_ptr<Rank>& rank : m_ranks) {
    if (rank->finished.load(std::memory_order_acquire))
      out.append(rank->errors.take());
  }
}

LaunchOutcome NcclSession::launch(Work work, bool restoreFirst, double timeoutSeconds,
                                  Diagnostics& out, const std::atomic<bool>* cancel)
{
  if (m_aborted.load()) {
    out.error("exec.nccl", "the communicators were aborted; nothing more can run");
    return LaunchOutcome::Failed;
  }
  for (const std::unique_ptr<Rank>& rank : m_ranks) {
    rank->recorded.store(0, std::memory_order_relaxed);
    rank->finished.store(false, std::memory_order_relaxed);
    rank->failed.store(false, std::memory_order_relaxed);
    rank->completed = 0;
    rank->seenRecorded = 0;
    rank->errors = Diagnostics();
  }
  const double grace = std::max(2.0, timeoutSeconds);
  try {
    for (int i = 0; i < static_cast<int>(m_ranks.size()); ++i) {
      m_ranks[static_cast<std::size_t>(i)]->thread =
          std::thread([self = shared_from_this(), i, work, restoreFirst] {
            self->runThread(i, work, restoreFirst);
          });
    }
  } catch (const std::exception& error) { // system_error, or bad_alloc of a thread's state
    out.error("exec.threads", std::string("could not start a thread per rank: ") + error.what());
    // Ranks already started may wait inside NCCL for the missing one.
    for (const std::unique_ptr<Rank>& rank : m_ranks) {
      if (!rank->thread.joinable())
        rank->finished.store(true, std::memory_order_release);
    }
    if (work == Work::Teardown)
      m_aborted.store(true); // some communicators may be destroyed already
    else
      abortAll();
    joinThreads(grace, out);
    return LaunchOutcome::Failed;
  }
  Clock::time_point lastChange = Clock::now();
  for (int polls = 0;; ++polls) {
    bool progressed = false;
    const Poll state = poll(work, progressed, out);
    if (state == Poll::Done) {
      joinThreads(grace, out);
      collectThreadErrors(out);
      return LaunchOutcome::Finished;
    }
    if (state == Poll::Failed && work == Work::Teardown) {
      // Some communicators may be destroyed already: none is touched again.
      m_aborted.store(true);
      joinThreads(grace, out);
      collectThreadErrors(out);
      return LaunchOutcome::Failed;
    }
    if (state == Poll::Failed) {
      abortAll();
      joinThreads(grace, out);
      collectThreadErrors(out);
      return LaunchOutcome::Failed;
    }
    // The teardown is never cancelled: it is what releases the GPUs after a cancel.
    const bool cancelled =
        work != Work::Teardown && cancel && cancel->load(std::memory_order_relaxed);
    if (progressed && !cancelled) {
      lastChange = Clock::now();
    } else if (cancelled || Clock::now() - lastChange > seconds(timeoutSeconds)) {
      if (work == Work::Teardown)
        m_aborted.store(true);
      else
        abortAll();
      // What the threads report after the abort is its echo, not the cause: left out.
      joinThreads(grace, out);
      return LaunchOutcome::Hung;
    }
    pauseBeforePoll(polls);
  }
}

} // namespace cs::nccl
