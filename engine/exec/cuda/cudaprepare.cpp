#include "cudarun_p.h"

#include "blockkernel_p.h"
#include "cudaexecutor.h"
#include "exec/block/lowlatency.h"
#include "exec/cudart/cudastatus.h"

#include <algorithm>
#include <cstring>

namespace cs::cuda {

namespace {

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

} // namespace

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
      if (!CS_CHECK(cudaDeviceCanAccessPeer(&possible, a.device, b.device),
                    plan::onDevice(a.device), out))
        return false;
      if (!possible) {
        out.error("exec.peer-access",
                  "GPU " + std::to_string(a.device) + " cannot access the memory of GPU " +
                      std::to_string(b.device) +
                      " (no peer access): map ranks that exchange data onto one GPU");
        return false;
      }
      if (!CS_CHECK(cudaSetDevice(a.device), plan::onDevice(a.device), out))
        return false;
      const cudaError_t enabled = cudaDeviceEnablePeerAccess(b.device, 0);
      if (enabled == cudaErrorPeerAccessAlreadyEnabled)
        static_cast<void>(cudaGetLastError()); // not an error: a previous run enabled it
      else if (!CS_CHECK(enabled, plan::onDevice(a.device, "cudaDeviceEnablePeerAccess"), out))
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
      DeviceBuffer& memory = m_memory[static_cast<std::size_t>(r)][static_cast<std::size_t>(m)];
      DeviceBuffer& pristine = m_pristine[static_cast<std::size_t>(r)][static_cast<std::size_t>(m)];
      if (!memory.allocate(device, host.size(), what, out) ||
          !pristine.allocate(device, host.size(), what + " (initial copy)", out) ||
          !CS_CHECK(cudaMemcpy(pristine.data(), host.data(), host.size(), cudaMemcpyHostToDevice),
                    plan::onDevice(device, what), out) ||
          !CS_CHECK(cudaMemcpy(memory.data(), host.data(), host.size(), cudaMemcpyHostToDevice),
                    plan::onDevice(device, what), out))
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
  const void* kernel = blockKernel(setup.options.dtype, setup.options.op);
  m_kernel = kernel;
  m_blocksOn.clear();
  for (const gpu::BlockInfo& block : m_layout.blocks)
    ++m_blocksOn[m_deviceOfRank[static_cast<std::size_t>(block.rank)]];
  int fewestSms = 1 << 30;
  int mostBlocks = 1;
  for (DeviceRun& run : m_devices) {
    int cooperative = 0;
    const plan::CallSite site = plan::onDevice(run.device);
    if (!CS_CHECK(cudaDeviceGetAttribute(&run.sms, cudaDevAttrMultiProcessorCount, run.device),
                  site, out) ||
        !CS_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, run.device),
                  site, out))
      return false;
    run.cooperative = cooperative != 0;
    fewestSms = std::min(fewestSms, run.sms);
    mostBlocks = std::max(mostBlocks, m_blocksOn[run.device]);
  }
  const ThreadRange threads = threadRange(setup);
  const auto fitsEverywhere = [&](int replicas) {
    return std::all_of(m_devices.begin(), m_devices.end(), [&](DeviceRun& run) {
      return fits(run, m_blocksOn[run.device], replicas, threads, out);
    });
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
  if (!CS_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, 32, 0),
                plan::onDevice(m_devices.back().device), out))
    return false;
  out.error("exec.resident", "the kernel needs every (rank, threadblock) resident at once, but " +
                                 std::to_string(mostBlocks) +
                                 " threadblocks share one GPU that holds at most " +
                                 std::to_string(std::int64_t{perSm} * fewestSms) +
                                 " blocks: map the ranks onto more GPUs or use fewer threadblocks");
  return false;
}

CudaExecutor::ThreadRange CudaExecutor::threadRange(const Setup& setup)
{
  if (setup.options.threadsPerBlock)
    return {*setup.options.threadsPerBlock, *setup.options.threadsPerBlock};
  if (setup.plan.protocol != Protocol::LL)
    return {kMaxThreadsPerBlock, 32};
  // An LL thread waits for its lines one after another, so a block needs a thread per line of
  // its messages; more threads only make each step's two barriers slower (measured on an H200:
  // 8-rank ring at 8 KiB, 1 KiB messages of 128 lines: 35 µs with 128 threads, 37 µs with 512,
  // 45 µs with 64).
  const std::int64_t pieceBytes =
      std::min(setup.plan.sliceElements, setup.plan.chunkElements) * setup.plan.elementSize;
  const std::int64_t lines = gpu::llDataLines(pieceBytes, 1);
  int most = 128;
  while (most < kMaxThreadsPerBlock && most < lines)
    most *= 2;
  return {most, 32};
}

bool CudaExecutor::fits(DeviceRun& run, int blocks, int replicas, ThreadRange threads,
                        Diagnostics& out)
{
  // Every block of a launch waits for others, so all must be resident at once: per device,
  // blocks × replicas ≤ (blocks per SM at that size) × SMs.
  const plan::CallSite site = plan::onDevice(run.device, "the block kernel's occupancy");
  if (!CS_CHECK(cudaSetDevice(run.device), site, out))
    return false;
  for (int size = threads.most; size >= threads.fewest; size /= 2) {
    int perSm = 0;
    if (!CS_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, m_kernel, size, 0), site,
                  out))
      return false;
    // Below 64 threads only when nothing else fits: small blocks move data slowly.
    if (std::int64_t{perSm} * run.sms >= std::int64_t{blocks} * replicas &&
        (size >= 64 || replicas == 1 || threads.fewest == threads.most)) {
      run.threads = size;
      return true;
    }
  }
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
        !CS_CHECK(cudaMemcpy(run.tables.data(), image.data(), image.size(), cudaMemcpyHostToDevice),
                  plan::onDevice(run.device, "the block program"), out))
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
  if (!CS_CHECK(cudaGetDeviceProperties(&properties, m_devices.front().device),
                plan::onDevice(m_devices.front().device), out))
    return false;
  m_description = std::string(properties.name) + " (" + std::to_string(m_devices.size()) +
                  (m_devices.size() == 1 ? " GPU, " : " GPUs, ") +
                  std::to_string(setup.plan.ranks) + " ranks, " + std::to_string(runners) +
                  " threadblocks × " + std::to_string(m_replicas) + " blocks of " +
                  std::to_string(m_devices.front().threads) + " threads)";
  return true;
}

} // namespace cs::cuda
