#include "cudaexecutor.h"

#include "blockkernel.h"
#include "cudacheck.h"
#include "devicebuffers.h"
#include "exec/gpu/blockexecutor.h"
#include "watchchannel.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <thread>

namespace cs {

namespace {

using cuda::check;

constexpr std::size_t kLine = 128; // counters and staging slots start on their own line

std::size_t roundUp(std::size_t value, std::size_t to)
{
  return (value + to - 1) / to * to;
}

/// Everything one GPU holds for a run beside the ranks' buffers.
struct DeviceRun {
  int device = 0;
  int threads = 0;
  bool cooperative = false;
  cuda::DeviceQueue queue;
  std::vector<std::int32_t> runners; ///< launch order: runner of each GPU block
  cuda::DeviceBuffer sync;    ///< counters and descriptors of connections received here; flags
  cuda::DeviceBuffer staging; ///< staging slots of connections sent from here
  cuda::DeviceBuffer tables;  ///< the block program's arrays, copied for this device
  gpu::BlockProgram program;
};

class CudaExecutor final : public gpu::BlockExecutor
{
public:
  std::string_view name() const override { return "cuda"; }
  /// A device-to-device copy on GPU 0 (the roofline of `cstudio bench --backend cuda`).
  std::optional<double> copyBandwidth(std::int64_t bytes) override
  {
    return measureCudaCopyBandwidth(0, bytes);
  }

private:
  bool prepare(const Setup& setup, Diagnostics& out) override;
  int replicas() const override { return m_replicas; }
  bool restore(Diagnostics& out) override;
  bool start(bool trace, Diagnostics& out) override;
  bool finished() override;
  bool launchSucceeded(Diagnostics& out) override;
  void abort() override;
  const gpu::BlockStatus* statuses() override;
  double elapsedUs() override;
  bool download(plan::HostMemory& mirror, std::vector<std::uint64_t>* trace,
                Diagnostics& out) override;
  std::string traceSource() const override { return "cuda"; }
  std::string deviceDescription() const override { return m_description; }
  void release() override;

  bool mapRanks(const Setup& setup, int visible, Diagnostics& out);
  bool enablePeerAccess(Diagnostics& out);
  bool allocateBuffers(const Setup& setup, Diagnostics& out);
  bool chooseGeometry(const Setup& setup, Diagnostics& out);
  bool buildSync(const plan::RunPlan& plan, Diagnostics& out);
  bool buildTables(const Setup& setup, Diagnostics& out);
  DeviceRun& runOf(int rank);
  bool synchronizeAll(const char* after, Diagnostics& out);

  gpu::BlockLayout m_layout;
  std::vector<int> m_deviceOfRank;
  std::vector<DeviceRun> m_devices;
  std::vector<std::array<cuda::DeviceBuffer, kBufferCount>> m_memory;
  std::vector<std::array<cuda::DeviceBuffer, kBufferCount>> m_pristine;
  cuda::WatchChannel m_watch;
  cuda::LaunchGate m_gate;
  cuda::DeviceBuffer m_trace;
  std::vector<gpu::ConnectionView> m_views; ///< replicas × connections
  std::vector<gpu::Counter*> m_flags;       ///< replicas × blocks
  std::vector<std::byte*> m_memoryTable;    ///< ranks × 3
  const void* m_kernel = nullptr;
  int m_replicas = 1;
  bool m_traced = false;
  std::string m_failure;
  std::string m_description;
};

DeviceRun& CudaExecutor::runOf(int rank)
{
  const int device = m_deviceOfRank[static_cast<std::size_t>(rank)];
  for (DeviceRun& run : m_devices) {
    if (run.device == device)
      return run;
  }
  return m_devices.front();
}

bool CudaExecutor::mapRanks(const Setup& setup, int visible, Diagnostics& out)
{
  const int ranks = setup.plan.ranks;
  const std::vector<int>& asked = setup.options.deviceOfRank;
  if (!asked.empty()) {
    if (static_cast<int>(asked.size()) != ranks) {
      out.error("exec.devices", "the device map names " + std::to_string(asked.size()) +
                                    " ranks but the program has " + std::to_string(ranks));
      return false;
    }
    for (int r = 0; r < ranks; ++r) {
      const int device = asked[static_cast<std::size_t>(r)];
      if (device < 0 || device >= visible) {
        out.error("exec.devices", "rank " + std::to_string(r) + " is mapped to GPU " +
                                      std::to_string(device) + " but " + std::to_string(visible) +
                                      " GPUs are visible");
        return false;
      }
    }
    m_deviceOfRank = asked;
  } else {
    // Consecutive ranks share a GPU: ring neighbours then mostly talk inside one device.
    for (int r = 0; r < ranks; ++r)
      m_deviceOfRank.push_back(static_cast<int>(std::int64_t{r} * visible / ranks));
  }
  std::vector<int> used = m_deviceOfRank;
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  m_devices.resize(used.size());
  for (std::size_t i = 0; i < used.size(); ++i) {
    m_devices[i].device = used[i];
    if (!m_devices[i].queue.create(used[i], out))
      return false;
  }
  return true;
}

bool CudaExecutor::enablePeerAccess(Diagnostics& out)
{
  for (const DeviceRun& a : m_devices) {
    for (const DeviceRun& b : m_devices) {
      if (a.device == b.device)
        continue;
      int possible = 0;
      if (!check(cudaDeviceCanAccessPeer(&possible, a.device, b.device), "cudaDeviceCanAccessPeer",
                 a.device, out))
        return false;
      if (!possible) {
        out.error("exec.peer-access",
                  "GPU " + std::to_string(a.device) + " cannot access the memory of GPU " +
                      std::to_string(b.device) +
                      " (no peer access): map ranks that exchange data onto one GPU");
        return false;
      }
      cudaSetDevice(a.device);
      const cudaError_t enabled = cudaDeviceEnablePeerAccess(b.device, 0);
      if (enabled == cudaErrorPeerAccessAlreadyEnabled)
        cudaGetLastError(); // not an error: a previous run enabled it
      else if (!check(enabled, "cudaDeviceEnablePeerAccess", a.device, out))
        return false;
    }
  }
  return true;
}

bool CudaExecutor::allocateBuffers(const Setup& setup, Diagnostics& out)
{
  const plan::RunPlan& plan = setup.plan;
  m_memory.resize(static_cast<std::size_t>(plan.ranks));
  m_pristine.resize(static_cast<std::size_t>(plan.ranks));
  for (int r = 0; r < plan.ranks; ++r) {
    const int device = m_deviceOfRank[static_cast<std::size_t>(r)];
    for (int m = 0; m < kBufferCount; ++m) {
      const auto& host =
          setup.mirror.memory[static_cast<std::size_t>(r)][static_cast<std::size_t>(m)];
      if (host.empty())
        continue;
      const std::string what = "rank " + std::to_string(r) + "'s " +
                               std::string(bufferName(static_cast<Buffer>(m))) + " buffer";
      cuda::DeviceBuffer& memory =
          m_memory[static_cast<std::size_t>(r)][static_cast<std::size_t>(m)];
      cuda::DeviceBuffer& pristine =
          m_pristine[static_cast<std::size_t>(r)][static_cast<std::size_t>(m)];
      if (!memory.allocate(device, host.size(), what, out) ||
          !pristine.allocate(device, host.size(), what + " (initial copy)", out) ||
          !check(cudaMemcpy(pristine.data(), host.data(), host.size(), cudaMemcpyHostToDevice),
                 "cudaMemcpy of " + what, device, out) ||
          !check(cudaMemcpy(memory.data(), host.data(), host.size(), cudaMemcpyHostToDevice),
                 "cudaMemcpy of " + what, device, out))
        return false;
      m_memoryTable.resize(static_cast<std::size_t>(plan.ranks) * kBufferCount, nullptr);
      m_memoryTable[static_cast<std::size_t>(r * kBufferCount + m)] = memory.data();
    }
  }
  m_memoryTable.resize(static_cast<std::size_t>(plan.ranks) * kBufferCount, nullptr);
  return true;
}

bool CudaExecutor::chooseGeometry(const Setup& setup, Diagnostics& out)
{
  const void* kernel = cuda::blockKernel(setup.options.dtype, setup.options.op);
  m_kernel = kernel;
  std::map<int, int> blocksOn;
  for (const gpu::BlockInfo& block : m_layout.blocks)
    ++blocksOn[m_deviceOfRank[static_cast<std::size_t>(block.rank)]];
  int fewestSms = 1 << 30;
  int mostBlocks = 1;
  for (DeviceRun& run : m_devices) {
    int sms = 0;
    int cooperative = 0;
    if (!check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, run.device),
               "cudaDeviceGetAttribute", run.device, out) ||
        !check(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, run.device),
               "cudaDeviceGetAttribute", run.device, out))
      return false;
    run.cooperative = cooperative != 0;
    fewestSms = std::min(fewestSms, sms);
    mostBlocks = std::max(mostBlocks, blocksOn[run.device]);
  }
  // Every block of a launch waits for others, so all must be resident at once: per device,
  // blocks × replicas ≤ (blocks per SM at that size) × SMs.
  const auto fits = [&](DeviceRun& run, int replicas) {
    for (int threads = cuda::kMaxThreadsPerBlock; threads >= 32; threads /= 2) {
      int perSm = 0;
      int sms = 0;
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, run.device);
      cudaSetDevice(run.device);
      if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, threads, 0) != cudaSuccess)
        return false;
      // Below 64 threads only when nothing else fits: small blocks move data slowly.
      if (std::int64_t{perSm} * sms >= std::int64_t{blocksOn[run.device]} * replicas &&
          (threads >= 64 || replicas == 1)) {
        run.threads = threads;
        return true;
      }
    }
    return false;
  };
  const auto fitsEverywhere = [&](int replicas) {
    return std::all_of(m_devices.begin(), m_devices.end(),
                       [&](DeviceRun& run) { return fits(run, replicas); });
  };
  if (setup.options.blocksPerThreadblock) {
    m_replicas = *setup.options.blocksPerThreadblock;
    if (m_replicas < 1 || !fitsEverywhere(m_replicas)) {
      out.error("exec.resident", std::to_string(m_replicas) +
                                     " blocks per threadblock cannot all be resident at once "
                                     "on the GPU (at most " +
                                     std::to_string(mostBlocks) + " threadblocks share one GPU)");
      return false;
    }
    return true;
  }
  // About one block per SM reaches the memory's speed; but a replica whose share of a chunk is
  // under 16 KiB spends its time on flags, so small messages use fewer blocks.
  const std::int64_t chunkBytes = setup.plan.chunkElements * setup.plan.elementSize;
  const int useful = static_cast<int>(std::clamp<std::int64_t>(chunkBytes >> 14, 1, 1 << 12));
  for (m_replicas = std::clamp(fewestSms / mostBlocks, 1, useful); m_replicas > 1;
       m_replicas /= 2) {
    if (fitsEverywhere(m_replicas))
      return true;
  }
  if (fitsEverywhere(1))
    return true;
  int perSm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, 32, 0);
  out.error("exec.resident", "the kernel needs every (rank, threadblock) resident at once, but " +
                                 std::to_string(mostBlocks) +
                                 " threadblocks share one GPU that holds at most " +
                                 std::to_string(std::int64_t{perSm} * fewestSms) +
                                 " blocks: map the ranks onto more GPUs or use fewer threadblocks");
  return false;
}

bool CudaExecutor::buildSync(const plan::RunPlan& plan, Diagnostics& out)
{
  const std::size_t connections = m_layout.connections.size();
  const std::size_t blocks = m_layout.blocks.size();
  const std::size_t replicas = static_cast<std::size_t>(m_replicas);
  // Offsets first, then one allocation per device for each kind.
  std::map<int, std::size_t> syncBytes;
  std::map<int, std::size_t> stagingBytes;
  std::vector<std::size_t> connectionOffset(connections * replicas);
  std::vector<std::size_t> stagingOffset(connections * replicas);
  std::vector<std::int64_t> slotBytes(connections * replicas);
  std::vector<std::size_t> flagOffset(blocks * replicas);
  for (std::size_t i = 0; i < connections * replicas; ++i) {
    const gpu::ConnectionLayout& connection = m_layout.connections[i % connections];
    const int receiver = m_deviceOfRank[static_cast<std::size_t>(connection.key.to)];
    const int sender = m_deviceOfRank[static_cast<std::size_t>(connection.key.from)];
    connectionOffset[i] = syncBytes[receiver];
    syncBytes[receiver] +=
        roundUp(2 * sizeof(gpu::Counter) +
                    static_cast<std::size_t>(connection.slotCount) * sizeof(gpu::Message),
                kLine);
    slotBytes[i] = gpu::stagingSlotBytes(connection, plan, m_replicas);
    stagingOffset[i] = stagingBytes[sender];
    stagingBytes[sender] += roundUp(static_cast<std::size_t>(slotBytes[i]) *
                                        static_cast<std::size_t>(connection.slotCount),
                                    kLine);
  }
  for (std::size_t i = 0; i < blocks * replicas; ++i) {
    const int device = m_deviceOfRank[static_cast<std::size_t>(m_layout.blocks[i % blocks].rank)];
    flagOffset[i] = syncBytes[device];
    syncBytes[device] += sizeof(gpu::Counter);
  }
  for (DeviceRun& run : m_devices) {
    if (!run.sync.allocate(run.device, syncBytes[run.device], "counters", out) ||
        !run.staging.allocate(run.device, stagingBytes[run.device], "staging slots", out))
      return false;
  }
  m_views.resize(connections * replicas);
  for (std::size_t i = 0; i < connections * replicas; ++i) {
    const gpu::ConnectionLayout& connection = m_layout.connections[i % connections];
    std::byte* base = runOf(connection.key.to).sync.data() + connectionOffset[i];
    gpu::ConnectionView& view = m_views[i];
    view.published = reinterpret_cast<gpu::Counter*>(base);
    view.consumed = reinterpret_cast<gpu::Counter*>(base + sizeof(gpu::Counter));
    view.messages = reinterpret_cast<gpu::Message*>(base + 2 * sizeof(gpu::Counter));
    view.slotCount = connection.slotCount;
    view.stagingBytes = slotBytes[i];
    if (slotBytes[i] > 0)
      view.staging = runOf(connection.key.from).staging.data() + stagingOffset[i];
  }
  m_flags.resize(blocks * replicas);
  for (std::size_t i = 0; i < blocks * replicas; ++i) {
    m_flags[i] = reinterpret_cast<gpu::Counter*>(
        runOf(m_layout.blocks[i % blocks].rank).sync.data() + flagOffset[i]);
  }
  return true;
}

/// Appends `items` to a table image at an aligned offset and returns that offset.
template <typename T>
std::size_t appendTable(std::vector<std::byte>& image, const std::vector<T>& items)
{
  const std::size_t offset = roundUp(image.size(), kLine);
  image.resize(offset + items.size() * sizeof(T));
  if (!items.empty())
    std::memcpy(image.data() + offset, items.data(), items.size() * sizeof(T));
  return offset;
}

bool CudaExecutor::buildTables(const Setup& setup, Diagnostics& out)
{
  const plan::RunPlan& plan = setup.plan;
  const std::size_t blocks = m_layout.blocks.size();
  for (DeviceRun& run : m_devices) {
    for (int replica = 0; replica < m_replicas; ++replica) {
      for (std::size_t b = 0; b < blocks; ++b) {
        if (m_deviceOfRank[static_cast<std::size_t>(m_layout.blocks[b].rank)] == run.device)
          run.runners.push_back(static_cast<std::int32_t>(replica * blocks + b));
      }
    }
    std::vector<std::byte> image;
    const std::size_t blockAt = appendTable(image, m_layout.blocks);
    const std::size_t stepAt = appendTable(image, m_layout.steps);
    const std::size_t viewAt = appendTable(image, m_views);
    const std::size_t flagAt = appendTable(image, m_flags);
    const std::size_t memoryAt = appendTable(image, m_memoryTable);
    const std::size_t orderAt = appendTable(image, run.runners);
    if (!run.tables.allocate(run.device, image.size(), "the block program", out) ||
        !check(cudaMemcpy(run.tables.data(), image.data(), image.size(), cudaMemcpyHostToDevice),
               "cudaMemcpy of the block program", run.device, out))
      return false;
    std::byte* base = run.tables.data();
    gpu::BlockProgram& program = run.program;
    program.blocks = reinterpret_cast<const gpu::BlockInfo*>(base + blockAt);
    program.steps = reinterpret_cast<const gpu::BlockStep*>(base + stepAt);
    program.connections = reinterpret_cast<const gpu::ConnectionView*>(base + viewAt);
    program.flags = reinterpret_cast<gpu::Counter* const*>(base + flagAt);
    program.memory = reinterpret_cast<std::byte* const*>(base + memoryAt);
    program.launchOrder = reinterpret_cast<const std::int32_t*>(base + orderAt);
    program.status = m_watch.deviceStatuses();
    program.abort = m_watch.deviceAbort();
    program.chunkElements = plan.chunkElements;
    program.sliceElements = plan.sliceElements;
    program.recordsPerReplica = m_layout.traceRecords;
    const gpu::ReplicaGeometry geometry = gpu::replicaGeometry(plan, m_replicas);
    program.shareElements = geometry.shareElements;
    program.slices = geometry.slices;
    program.maxSteps = plan.maxSteps;
    program.blockCount = static_cast<std::int32_t>(blocks);
    program.connectionCount = static_cast<std::int32_t>(m_layout.connections.size());
    program.replicas = m_replicas;
    program.alignElements = std::max(1, 16 / plan.elementSize);
    program.systemScope = m_devices.size() > 1 ? 1 : 0;
    program.lowLatency = gpu::lowLatencyMessages(plan) ? 1 : 0;
  }
  return true;
}

bool CudaExecutor::prepare(const Setup& setup, Diagnostics& out)
{
  m_layout = setup.layout;
  std::string why;
  const std::optional<int> visible = visibleCudaDevices(&why);
  if (!visible) {
    out.error("exec.cuda-device", "no CUDA device is visible (" + why +
                                      "): the CUDA executor needs a GPU; --backend cpu runs "
                                      "the same program on the CPU");
    return false;
  }
  const std::size_t runners = m_layout.blocks.size();
  if (!mapRanks(setup, *visible, out) || !enablePeerAccess(out) || !allocateBuffers(setup, out) ||
      !chooseGeometry(setup, out))
    return false;
  if (!m_watch.allocate(m_devices.front().device, runners * static_cast<std::size_t>(m_replicas),
                        out) ||
      !m_gate.allocate(out) || !buildSync(setup.plan, out) || !buildTables(setup, out))
    return false;
  if (setup.options.trace &&
      !m_trace.allocate(m_devices.front().device,
                        static_cast<std::size_t>(2 * m_layout.traceRecords * m_replicas) *
                            sizeof(std::uint64_t),
                        "the trace", out))
    return false;
  cudaDeviceProp properties{};
  cudaGetDeviceProperties(&properties, m_devices.front().device);
  m_description = std::string(properties.name) + " (" + std::to_string(m_devices.size()) +
                  (m_devices.size() == 1 ? " GPU, " : " GPUs, ") +
                  std::to_string(setup.plan.ranks) + " ranks, " + std::to_string(runners) +
                  " threadblocks × " + std::to_string(m_replicas) + " blocks of " +
                  std::to_string(m_devices.front().threads) + " threads)";
  return true;
}

bool CudaExecutor::synchronizeAll(const char* after, Diagnostics& out)
{
  for (DeviceRun& run : m_devices) {
    if (!check(cudaStreamSynchronize(run.queue.stream()),
               std::string("cudaStreamSynchronize after ") + after, run.device, out))
      return false;
  }
  return true;
}

bool CudaExecutor::restore(Diagnostics& out)
{
  for (std::size_t r = 0; r < m_memory.size(); ++r) {
    DeviceRun& run = runOf(static_cast<int>(r));
    for (std::size_t m = 0; m < kBufferCount; ++m) {
      const cuda::DeviceBuffer& memory = m_memory[r][m];
      if (memory.size() == 0)
        continue;
      cudaSetDevice(run.device);
      if (!check(cudaMemcpyAsync(memory.data(), m_pristine[r][m].data(), memory.size(),
                                 cudaMemcpyDeviceToDevice, run.queue.stream()),
                 "cudaMemcpyAsync restoring the inputs", run.device, out))
        return false;
    }
  }
  return synchronizeAll("restoring the inputs", out);
}

bool CudaExecutor::start(bool trace, Diagnostics& out)
{
  m_failure.clear();
  m_traced = trace;
  if (!m_watch.clear(m_devices.front().queue.stream(), out))
    return false;
  // Counters must be zero on every device before any block starts: blocks of one device
  // poll counters on another. LL lines of the previous run carry the flags this one expects.
  for (DeviceRun& run : m_devices) {
    cudaSetDevice(run.device);
    if (!check(cudaMemsetAsync(run.sync.data(), 0, run.sync.size(), run.queue.stream()),
               "cudaMemsetAsync of the counters", run.device, out) ||
        (run.program.lowLatency && run.staging.size() > 0 &&
         !check(cudaMemsetAsync(run.staging.data(), 0, run.staging.size(), run.queue.stream()),
                "cudaMemsetAsync of the LL staging slots", run.device, out)))
      return false;
  }
  if (trace) {
    DeviceRun& owner = m_devices.front(); // the trace lies on the first GPU
    cudaSetDevice(owner.device);
    if (!check(cudaMemsetAsync(m_trace.data(), 0, m_trace.size(), owner.queue.stream()),
               "cudaMemsetAsync of the trace", owner.device, out))
      return false;
  }
  if (!synchronizeAll("clearing the counters", out))
    return false;
  for (DeviceRun& run : m_devices) {
    run.program.trace = trace ? reinterpret_cast<std::uint64_t*>(m_trace.data()) : nullptr;
    if (!m_gate.hold(run.queue.stream(), run.device, out)) {
      m_gate.open();
      return false;
    }
    cudaEventRecord(run.queue.started(), run.queue.stream());
    const int blocks = static_cast<int>(run.runners.size());
    const cudaError_t launched = cuda::launchBlockKernel(
        m_kernel, blocks, run.threads, run.queue.stream(), run.program, run.cooperative);
    if (!check(launched,
               "launching " + std::to_string(blocks) + " blocks of " + std::to_string(run.threads) +
                   " threads",
               run.device, out)) {
      // Blocks queued on other GPUs wait for each other: make them leave at once before
      // anything they use is freed.
      abort();
      m_gate.open();
      for (DeviceRun& queued : m_devices) {
        cudaSetDevice(queued.device);
        cudaStreamSynchronize(queued.queue.stream());
      }
      return false;
    }
    cudaEventRecord(run.queue.stopped(), run.queue.stream());
  }
  m_gate.open();
  return true;
}

bool CudaExecutor::finished()
{
  for (DeviceRun& run : m_devices) {
    cudaSetDevice(run.device);
    const cudaError_t state = cudaEventQuery(run.queue.stopped());
    if (state == cudaErrorNotReady)
      return false;
    if (state != cudaSuccess && m_failure.empty())
      m_failure = cuda::describeError(state, "the block kernel", run.device);
  }
  return true;
}

bool CudaExecutor::launchSucceeded(Diagnostics& out)
{
  if (m_failure.empty())
    return true;
  out.error("exec.cuda", m_failure);
  return false;
}

void CudaExecutor::abort()
{
  m_watch.raiseAbort();
}

const gpu::BlockStatus* CudaExecutor::statuses()
{
  return m_watch.read();
}

double CudaExecutor::elapsedUs()
{
  float longest = 0;
  for (DeviceRun& run : m_devices) {
    float ms = 0;
    cudaSetDevice(run.device);
    if (cudaEventElapsedTime(&ms, run.queue.started(), run.queue.stopped()) == cudaSuccess)
      longest = std::max(longest, ms);
  }
  return static_cast<double>(longest) * 1e3;
}

bool CudaExecutor::download(plan::HostMemory& mirror, std::vector<std::uint64_t>* trace,
                            Diagnostics& out)
{
  for (std::size_t r = 0; r < m_memory.size(); ++r) {
    for (std::size_t m = 0; m < kBufferCount; ++m) {
      const cuda::DeviceBuffer& memory = m_memory[r][m];
      if (memory.size() == 0)
        continue;
      cudaSetDevice(memory.device());
      if (!check(cudaMemcpy(mirror.memory[r][m].data(), memory.data(), memory.size(),
                            cudaMemcpyDeviceToHost),
                 "cudaMemcpy of the results", memory.device(), out))
        return false;
    }
  }
  if (trace && m_traced) {
    trace->resize(m_trace.size() / sizeof(std::uint64_t));
    cudaSetDevice(m_trace.device());
    if (!check(cudaMemcpy(trace->data(), m_trace.data(), m_trace.size(), cudaMemcpyDeviceToHost),
               "cudaMemcpy of the trace", m_trace.device(), out))
      return false;
  }
  return true;
}

void CudaExecutor::release()
{
  if (!m_devices.empty() && !finished()) {
    // A kernel that ignored the abort still uses this memory, and freeing it would wait for the
    // kernel forever: leave it to the process's end (the diagnostic says the device needs a reset).
    for (DeviceRun& run : m_devices) {
      run.sync.abandon();
      run.staging.abandon();
      run.tables.abandon();
    }
    for (auto& buffers : m_memory) {
      for (cuda::DeviceBuffer& buffer : buffers)
        buffer.abandon();
    }
    m_trace.abandon();
    m_watch.abandon();
    m_gate.abandon();
  }
  m_devices.clear();
  m_memory.clear();
  m_pristine.clear();
  m_trace = {};
  m_watch.reset();
  m_gate.reset();
  m_views.clear();
  m_flags.clear();
  m_memoryTable.clear();
  m_deviceOfRank.clear();
}

} // namespace

std::unique_ptr<Executor> makeCudaExecutor()
{
  return std::make_unique<CudaExecutor>();
}

std::optional<int> visibleCudaDevices(std::string* why)
{
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    if (why)
      *why = std::string(cudaGetErrorString(error)) + ", " + cudaGetErrorName(error);
    return std::nullopt;
  }
  if (count == 0) {
    if (why)
      *why = "the CUDA runtime reports 0 devices";
    return std::nullopt;
  }
  return count;
}

std::optional<double> measureCudaCopyBandwidth(int device, std::int64_t bytes)
{
  Diagnostics ignored;
  cuda::DeviceBuffer source;
  cuda::DeviceBuffer target;
  cuda::DeviceQueue queue;
  const std::size_t half = static_cast<std::size_t>(std::max<std::int64_t>(bytes / 2, 1 << 20));
  if (!visibleCudaDevices() || !source.allocate(device, half, "the copy benchmark", ignored) ||
      !target.allocate(device, half, "the copy benchmark", ignored) ||
      !queue.create(device, ignored))
    return std::nullopt;
  const auto copyFor = [&](int repeats) -> std::optional<double> {
    cudaEventRecord(queue.started(), queue.stream());
    for (int i = 0; i < repeats; ++i)
      cudaMemcpyAsync(target.data(), source.data(), half, cudaMemcpyDeviceToDevice, queue.stream());
    cudaEventRecord(queue.stopped(), queue.stream());
    float ms = 0;
    if (cudaEventSynchronize(queue.stopped()) != cudaSuccess ||
        cudaEventElapsedTime(&ms, queue.started(), queue.stopped()) != cudaSuccess || ms <= 0)
      return std::nullopt;
    return static_cast<double>(ms) / 1e3;
  };
  const std::optional<double> once = copyFor(1); // also warms up
  if (!once)
    return std::nullopt;
  const int repeats = static_cast<int>(std::clamp(0.02 / *once, 1.0, 10000.0));
  const std::optional<double> seconds = copyFor(repeats);
  if (!seconds)
    return std::nullopt;
  return 2.0 * static_cast<double>(half) * repeats / *seconds;
}

} // namespace cs
