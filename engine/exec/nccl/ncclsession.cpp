#include "ncclsession_p.h"

#include "exec/polling.h"

#include <algorithm>
#include <chrono>
#include <cstring>

namespace cs::nccl {

namespace {

using Clock = std::chrono::steady_clock;

std::string versionText(int code)
{
  // NCCL_VERSION(X,Y,Z) is X*10000 + Y*100 + Z since 2.9; older codes were X*1000 + Y*100 + Z.
  if (code >= 10000) {
    return std::to_string(code / 10000) + "." + std::to_string(code / 100 % 100) + "." +
           std::to_string(code % 100);
  }
  return std::to_string(code / 1000) + "." + std::to_string(code / 100 % 10) + "." +
         std::to_string(code % 100);
}

} // namespace

NcclSession::~NcclSession()
{
  if (m_closed)
    return;
  // close() is the normal way out (an exception skipped it): keep a forgotten session from
  // terminating on a joinable thread or leaking. ncclCommAbort is local, not collective.
  for (const std::unique_ptr<Rank>& rank : m_ranks) {
    if (rank->thread.joinable()) {
      if (rank->thread.get_id() == std::this_thread::get_id())
        rank->thread.detach();
      else
        rank->thread.join();
    }
    if (rank->comm && !m_aborted.load())
      CS_CHECK_RECORD(ncclCommAbort(rank->comm), siteOf(*rank));
  }
  Diagnostics failures;
  if (!m_threadsDetached && streamsIdle(2.0))
    freeResources(failures);
  for (Diagnostic& failure : failures.take())
    plan::recordFailure(std::move(failure));
}

bool NcclSession::open(const std::vector<int>& devices, Diagnostics& out)
{
  const int n = static_cast<int>(devices.size());
  for (int r = 0; r < n; ++r) {
    auto rank = std::make_unique<Rank>();
    rank->rank = r;
    rank->device = devices[static_cast<std::size_t>(r)];
    m_ranks.push_back(std::move(rank));
  }
  std::string list;
  for (const int device : devices)
    list += (list.empty() ? "" : ",") + std::to_string(device);
  std::vector<ncclComm_t> comms(static_cast<std::size_t>(n), nullptr);
  if (!CS_CHECK(ncclCommInitAll(comms.data(), n, devices.data()),
                plan::withWhat(plan::CallSite{}, "devices " + list), out))
    return false;
  for (int r = 0; r < n; ++r)
    m_ranks[static_cast<std::size_t>(r)]->comm = comms[static_cast<std::size_t>(r)];
  if (!createStreams(out))
    return false;
  describe(n, devices.front());
  return true;
}

bool NcclSession::createUniqueId(std::vector<std::byte>& id, Diagnostics& out)
{
  ncclUniqueId unique{};
  if (!CS_CHECK(ncclGetUniqueId(&unique),
                plan::withWhat(plan::CallSite{}, "the communicator id for the other processes"),
                out))
    return false;
  const auto* bytes = reinterpret_cast<const std::byte*>(unique.internal);
  id.assign(bytes, bytes + sizeof(unique.internal));
  return true;
}

bool NcclSession::openRank(int rank, int world, int device, const std::vector<std::byte>& id,
                           Diagnostics& out)
{
  ncclUniqueId unique{};
  if (id.size() != sizeof(unique.internal)) {
    // The rendezvous carries any bytes; only NCCL's own size makes a communicator.
    out.error("exec.nccl-rendezvous", "the communicator id from rank 0 has " +
                                          std::to_string(id.size()) + " bytes, NCCL expects " +
                                          std::to_string(sizeof(unique.internal)));
    return false;
  }
  std::memcpy(unique.internal, id.data(), id.size());
  auto owned = std::make_unique<Rank>();
  owned->rank = rank;
  owned->device = device;
  m_ranks.push_back(std::move(owned));
  Rank& self = *m_ranks.front();
  // ncclCommInitRank binds the communicator to the calling thread's current device.
  if (!CS_CHECK(cudaSetDevice(device), siteOf(self), out) ||
      !CS_CHECK(ncclCommInitRank(&self.comm, world, unique, rank),
                plan::withWhat(siteOf(self), "rank " + std::to_string(rank) + " of " +
                                                 std::to_string(world) + " processes"),
                out) ||
      !createStreams(out))
    return false;
  describe(1, device);
  m_description += ", rank " + std::to_string(rank) + " of " + std::to_string(world);
  return true;
}

bool NcclSession::createStreams(Diagnostics& out)
{
  for (const std::unique_ptr<Rank>& rank : m_ranks) {
    if (!CS_CHECK(cudaSetDevice(rank->device), siteOf(*rank), out) ||
        !CS_CHECK(cudaStreamCreateWithFlags(&rank->stream, cudaStreamNonBlocking), siteOf(*rank),
                  out))
      return false;
  }
  return true;
}

void NcclSession::describe(int ranks, int device)
{
  // Only the description depends on these: a failure is recorded, the run goes on.
  cudaDeviceProp properties{};
  std::string name = "unknown GPU";
  const plan::CallSite site = plan::withWhat(siteOf(*m_ranks.front()), "the run's description");
  if (CS_CHECK_RECORD(cudaGetDeviceProperties(&properties, device), site))
    name = properties.name;
  int version = 0;
  m_description = std::to_string(ranks) + " × " + name;
  if (CS_CHECK_RECORD(ncclGetVersion(&version), site))
    m_description += ", NCCL " + versionText(version);
}

bool NcclSession::allocate(Rank& rank, void** pointer, std::size_t bytes, const char* what,
                           Diagnostics& out)
{
  if (bytes == 0)
    return true;
  return CS_CHECK(cudaMalloc(pointer, bytes),
                  plan::withWhat(siteOf(rank), std::to_string(bytes) + " bytes of " + what), out);
}

bool NcclSession::createEvents(Rank& rank, std::vector<cudaEvent_t>& events, std::size_t count,
                               Diagnostics& out)
{
  events.reserve(count);
  while (events.size() < count) {
    cudaEvent_t event = nullptr;
    if (!CS_CHECK(cudaEventCreate(&event), siteOf(rank), out))
      return false;
    events.push_back(event);
  }
  return true;
}

void* NcclSession::address(Rank& rank, const DataRef& ref) const
{
  void* base = ref.temporary ? rank.temporaries : rank.memory[static_cast<std::size_t>(ref.memory)];
  if (!base)
    return nullptr;
  return static_cast<std::byte*>(base) + ref.chunk * m_config.chunkElements * m_config.elementSize;
}

bool NcclSession::buildRounds(Rank& rank, const std::vector<RankRound>& rounds, Diagnostics& out)
{
  std::vector<DeviceLocalOp> locals;
  const auto elements = [this](int cnt) { return std::int64_t{cnt} * m_config.chunkElements; };
  bool addressed = true;
  const auto addressOf = [&](const DataRef& ref) {
    void* pointer = address(rank, ref);
    addressed &= pointer != nullptr;
    return pointer;
  };
  for (int r = 0; r < static_cast<int>(rounds.size()); ++r) {
    const RankRound& round = rounds[static_cast<std::size_t>(r)];
    RoundWork work;
    work.round = r;
    work.firstLocal = static_cast<int>(locals.size());
    // Zero-chunk messages are skipped on both ends alike (their cnt is equal).
    for (const PeerOp& op : round.recvs) {
      if (op.cnt > 0)
        work.recvs.push_back(
            {addressOf(op.data), static_cast<std::size_t>(elements(op.cnt)), op.peer});
    }
    for (const PeerOp& op : round.sends) {
      if (op.cnt > 0)
        work.sends.push_back(
            {addressOf(op.data), static_cast<std::size_t>(elements(op.cnt)), op.peer});
    }
    for (const LocalOp& op : round.locals) {
      if (op.cnt <= 0)
        continue;
      DeviceLocalOp device;
      device.out = addressOf(op.out);
      device.out2 = op.out2 ? addressOf(*op.out2) : nullptr;
      device.a = addressOf(op.a);
      device.b = op.kind == LocalKind::Reduce ? addressOf(op.b) : nullptr;
      device.elements = elements(op.cnt);
      work.largestLocal = std::max(work.largestLocal, device.elements);
      locals.push_back(device);
    }
    work.locals = static_cast<int>(locals.size()) - work.firstLocal;
    if (!work.recvs.empty() || !work.sends.empty() || work.locals > 0)
      rank.rounds.push_back(std::move(work));
  }
  if (!addressed) {
    // planRun() sized every allocation for the operands it accepted: this is a bug here.
    out.error("exec.nccl-internal", "rank " + std::to_string(rank.rank) +
                                        ": an operation refers to memory that was not allocated");
    return false;
  }
  if (locals.empty())
    return true;
  const std::size_t bytes = locals.size() * sizeof(DeviceLocalOp);
  void* table = nullptr;
  if (!allocate(rank, &table, bytes, "local operations", out))
    return false;
  rank.localOps = static_cast<DeviceLocalOp*>(table);
  return CS_CHECK(cudaMemcpy(table, locals.data(), bytes, cudaMemcpyHostToDevice),
                  plan::withWhat(siteOf(rank), "the local operations"), out);
}

bool NcclSession::upload(const Program& program, const RoundSchedule& schedule,
                         const plan::HostMemory& mirror, Diagnostics& out)
{
  const plan::RunPlan& plan = mirror.plan;
  const std::size_t chunkBytes = static_cast<std::size_t>(m_config.chunkElements) *
                                 static_cast<std::size_t>(m_config.elementSize);
  for (const std::unique_ptr<Rank>& owned : m_ranks) {
    Rank& rank = *owned;
    const auto r = static_cast<std::size_t>(rank.rank);
    if (!CS_CHECK(cudaSetDevice(rank.device), siteOf(rank), out))
      return false;
    for (std::size_t m = 0; m < kBufferCount; ++m) {
      const std::vector<std::byte>& host = mirror.memory[r][m];
      rank.bytes[m] = host.size();
      if (host.empty())
        continue;
      const std::string name(bufferName(static_cast<Buffer>(m)));
      if (!allocate(rank, &rank.memory[m], host.size(), name.c_str(), out) ||
          !CS_CHECK(cudaMemcpy(rank.memory[m], host.data(), host.size(), cudaMemcpyHostToDevice),
                    plan::withWhat(siteOf(rank), "the " + name + " buffer"), out))
        return false;
    }
    // Inputs are restored from a device copy before every iteration but the first (in-place
    // programs overwrite them); other allocations go back to the sentinel.
    if (plan.bufferChunks[r][static_cast<std::size_t>(Buffer::Input)] > 0) {
      const auto m = static_cast<std::size_t>(
          memorySlot(program, rank.rank, Buffer::Input, 0, plan.mode).memory);
      if (!allocate(rank, &rank.pristine[m], rank.bytes[m], "copy of the input", out) ||
          !CS_CHECK(
              cudaMemcpy(rank.pristine[m], rank.memory[m], rank.bytes[m], cudaMemcpyDeviceToDevice),
              plan::withWhat(siteOf(rank), "the input copy"), out))
        return false;
    }
    const std::size_t temporaryBytes =
        static_cast<std::size_t>(schedule.temporaryChunks[r]) * chunkBytes;
    if (!allocate(rank, &rank.temporaries, temporaryBytes, "temporaries", out) ||
        !buildRounds(rank, schedule.ranks[r], out) ||
        !createEvents(rank, rank.iterationEvents, rank.rounds.size() + 2, out))
      return false;
  }
  return true;
}

bool NcclSession::prepareLibrary(const LibraryCall& call, Diagnostics& out)
{
  m_library = call;
  const auto bytes = [this](std::int64_t elements) {
    return static_cast<std::size_t>(elements) * static_cast<std::size_t>(m_config.elementSize);
  };
  for (const std::unique_ptr<Rank>& owned : m_ranks) {
    Rank& rank = *owned;
    const std::size_t sendBytes =
        bytes(call.inPlace ? libraryAllocationElements(call) : call.sendElements);
    const std::size_t recvBytes = call.inPlace ? 0 : bytes(call.recvElements);
    if (!CS_CHECK(cudaSetDevice(rank.device), siteOf(rank), out) ||
        !allocate(rank, &rank.librarySend, sendBytes, "NCCL collective's send buffer", out) ||
        !allocate(rank, &rank.libraryRecv, recvBytes, "NCCL collective's receive buffer", out))
      return false;
    // Zeroed so that no reduction meets a signalling NaN; the result is not checked.
    if (rank.librarySend &&
        !CS_CHECK(cudaMemset(rank.librarySend, 0, sendBytes), siteOf(rank), out))
      return false;
    if (rank.libraryRecv &&
        !CS_CHECK(cudaMemset(rank.libraryRecv, 0, recvBytes), siteOf(rank), out))
      return false;
    rank.library =
        libraryBuffers(call, rank.librarySend, rank.libraryRecv, rank.rank, m_config.elementSize);
    if (!createEvents(rank, rank.libraryEvents, 2 * static_cast<std::size_t>(m_config.libraryRuns),
                      out))
      return false;
  }
  return true;
}

std::optional<double> NcclSession::iterationUs(Diagnostics& out)
{
  double longest = 0;
  for (const std::unique_ptr<Rank>& rank : m_ranks) {
    float ms = 0;
    if (!CS_CHECK(cudaSetDevice(rank->device), siteOf(*rank), out) ||
        !CS_CHECK(
            cudaEventElapsedTime(&ms, rank->iterationEvents.front(), rank->iterationEvents.back()),
            siteOf(*rank), out))
      return std::nullopt;
    longest = std::max(longest, double{ms} * 1e3);
  }
  return longest;
}

std::vector<double> NcclSession::libraryUs(int warmup, Diagnostics& out)
{
  std::vector<double> times;
  for (int i = warmup; i < m_config.libraryRuns; ++i) {
    double longest = 0;
    for (const std::unique_ptr<Rank>& rank : m_ranks) {
      float ms = 0;
      const auto at = static_cast<std::size_t>(2 * i);
      if (!CS_CHECK(cudaSetDevice(rank->device), siteOf(*rank), out) ||
          !CS_CHECK(cudaEventElapsedTime(&ms, rank->libraryEvents[at], rank->libraryEvents[at + 1]),
                    siteOf(*rank), out))
        return {};
      longest = std::max(longest, double{ms} * 1e3);
    }
    times.push_back(longest);
  }
  return times;
}

std::optional<std::vector<std::vector<double>>> NcclSession::roundEndUs(int rounds,
                                                                        Diagnostics& out)
{
  std::vector<std::vector<double>> ends;
  for (const std::unique_ptr<Rank>& rank : m_ranks) {
    std::vector<double> at(static_cast<std::size_t>(rounds), -1.0);
    if (!CS_CHECK(cudaSetDevice(rank->device), siteOf(*rank), out))
      return std::nullopt;
    for (std::size_t i = 0; i < rank->rounds.size(); ++i) {
      float ms = 0;
      if (!CS_CHECK(cudaEventElapsedTime(&ms, rank->iterationEvents.front(),
                                         rank->iterationEvents[i + 1]),
                    siteOf(*rank), out))
        return std::nullopt;
      at[static_cast<std::size_t>(rank->rounds[i].round)] = double{ms} * 1e3;
    }
    double previous = 0;
    for (double& value : at) {
      if (value < 0)
        value = previous;
      previous = value;
    }
    ends.push_back(std::move(at));
  }
  return ends;
}

std::vector<StalledRank> NcclSession::stalledRanks() const
{
  std::vector<StalledRank> stalled;
  for (const std::unique_ptr<Rank>& rank : m_ranks) {
    // Event 0 is the start, event i+1 the end of rounds[i]: the first one pending names the
    // round in progress.
    const int pending = rank->completed;
    int round = -1;
    if (pending <= static_cast<int>(rank->rounds.size()) && !rank->rounds.empty())
      round = rank->rounds[static_cast<std::size_t>(std::max(0, pending - 1))].round;
    stalled.push_back({rank->rank, round});
  }
  return stalled;
}

bool NcclSession::download(plan::HostMemory& mirror, Diagnostics& out)
{
  for (const std::unique_ptr<Rank>& rank : m_ranks) {
    if (!CS_CHECK(cudaSetDevice(rank->device), siteOf(*rank), out))
      return false;
    for (std::size_t m = 0; m < kBufferCount; ++m) {
      if (!rank->memory[m])
        continue;
      std::vector<std::byte>& host = mirror.memory[static_cast<std::size_t>(rank->rank)][m];
      if (!CS_CHECK(cudaMemcpy(host.data(), rank->memory[m], host.size(), cudaMemcpyDeviceToHost),
                    plan::withWhat(siteOf(*rank), "the results"), out))
        return false;
    }
  }
  return true;
}

std::string NcclSession::description() const
{
  return m_description;
}

bool NcclSession::streamsIdle(double timeoutSeconds)
{
  const auto deadline = Clock::now() + seconds(timeoutSeconds);
  for (const std::unique_ptr<Rank>& rank : m_ranks) {
    if (!rank->stream)
      continue;
    CS_CHECK_RECORD(cudaSetDevice(rank->device), siteOf(*rank));
    for (int polls = 0;; ++polls) {
      const cudaError_t state = cudaStreamQuery(rank->stream);
      if (state != cudaErrorNotReady) {
        // A failed stream is idle too: its work will not run, and freeing can go ahead.
        CS_CHECK_RECORD(state, plan::withWhat(siteOf(*rank), "the stream's work"));
        break;
      }
      if (Clock::now() > deadline)
        return false;
      pauseBeforePoll(polls);
    }
  }
  return true;
}

void NcclSession::close(double timeoutSeconds, Diagnostics& out)
{
  Diagnostics teardown;
  const double grace = std::max(2.0, timeoutSeconds);
  const bool haveComms = std::any_of(m_ranks.begin(), m_ranks.end(),
                                     [](const auto& rank) { return rank->comm != nullptr; });
  if (!m_aborted.load() && !m_threadsDetached && haveComms &&
      std::all_of(m_ranks.begin(), m_ranks.end(),
                  [](const auto& rank) { return rank->comm != nullptr; })) {
    // ncclCommDestroy synchronises the ranks of a node: every rank calls it at once.
    if (launch(Work::Teardown, false, grace, teardown) == LaunchOutcome::Finished) {
      for (const std::unique_ptr<Rank>& rank : m_ranks)
        rank->comm = nullptr;
    }
  } else if (haveComms && !m_aborted.load()) {
    abortAll(); // a partial ncclCommInitAll
  }
  if (m_threadsDetached || !streamsIdle(grace)) {
    teardown.warning("exec.abort", "GPU work of the run did not finish after it was stopped; its "
                                   "buffers stay allocated until the process ends");
  } else {
    freeResources(teardown);
  }
  m_closed = true;
  // The run's result is known by now: failures to clean up are reported, not fatal.
  for (Diagnostic diagnostic : teardown.take()) {
    diagnostic.severity = Severity::Warning;
    out.append({diagnostic});
  }
}

void NcclSession::freeResources(Diagnostics& out)
{
  for (const std::unique_ptr<Rank>& owned : m_ranks) {
    Rank& rank = *owned;
    const plan::CallSite site = siteOf(rank);
    CS_CHECK(cudaSetDevice(rank.device), site, out);
    std::vector<void*> pointers{rank.temporaries, rank.localOps, rank.librarySend,
                                rank.libraryRecv};
    pointers.insert(pointers.end(), rank.memory.begin(), rank.memory.end());
    pointers.insert(pointers.end(), rank.pristine.begin(), rank.pristine.end());
    for (void* pointer : pointers) {
      if (pointer)
        CS_CHECK(cudaFree(pointer), site, out);
    }
    for (std::vector<cudaEvent_t>* events : {&rank.iterationEvents, &rank.libraryEvents}) {
      for (cudaEvent_t event : *events)
        CS_CHECK(cudaEventDestroy(event), site, out);
      events->clear();
    }
    if (rank.stream)
      CS_CHECK(cudaStreamDestroy(rank.stream), site, out);
    rank.temporaries = rank.librarySend = rank.libraryRecv = nullptr;
    rank.localOps = nullptr;
    rank.memory = {};
    rank.pristine = {};
    rank.stream = nullptr;
  }
}

} // namespace cs::nccl
