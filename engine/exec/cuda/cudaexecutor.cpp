#include "cudaexecutor.h"

#include "blockkernel_p.h"
#include "cudarun_p.h"
#include "exec/cudart/cudastatus.h"

#include <algorithm>

namespace cs {

namespace cuda {

bool CudaExecutor::synchronizeAll(const char* after, Diagnostics& out)
{
  for (DeviceRun& run : m_devices) {
    const std::string what = std::string("the stream after ") + after;
    if (!CS_CHECK(cudaSetDevice(run.device), plan::onDevice(run.device), out) ||
        !CS_CHECK(cudaStreamSynchronize(run.queue.stream()), plan::onDevice(run.device, what), out))
      return false;
  }
  return true;
}

bool CudaExecutor::restore(Diagnostics& out)
{
  for (std::size_t r = 0; r < m_memory.size(); ++r) {
    DeviceRun& run = runOf(static_cast<int>(r));
    for (std::size_t m = 0; m < kBufferCount; ++m) {
      const DeviceBuffer& memory = m_memory[r][m];
      if (memory.size() == 0)
        continue;
      const plan::CallSite site = plan::onDevice(run.device, "restoring the inputs");
      if (!CS_CHECK(cudaSetDevice(run.device), site, out) ||
          !CS_CHECK(cudaMemcpyAsync(memory.data(), m_pristine[r][m].data(), memory.size(),
                                    cudaMemcpyDeviceToDevice, run.queue.stream()),
                    site, out))
        return false;
    }
  }
  return synchronizeAll("restoring the inputs", out);
}

bool CudaExecutor::start(bool trace, Diagnostics& out)
{
  m_failure.take();
  m_traced = trace;
  if (!m_watch.clear(m_devices.front().queue.stream(), out))
    return false;
  // Counters must be zero on every device before any block starts: blocks of one device
  // poll counters on another. LL lines of the previous run carry the flags this one expects.
  for (DeviceRun& run : m_devices) {
    if (!CS_CHECK(cudaSetDevice(run.device), plan::onDevice(run.device), out) ||
        !CS_CHECK(cudaMemsetAsync(run.sync.data(), 0, run.sync.size(), run.queue.stream()),
                  plan::onDevice(run.device, "the counters"), out) ||
        (run.program.lowLatency && run.staging.size() > 0 &&
         !CS_CHECK(cudaMemsetAsync(run.staging.data(), 0, run.staging.size(), run.queue.stream()),
                   plan::onDevice(run.device, "the LL staging slots"), out)))
      return false;
  }
  if (trace) {
    DeviceRun& owner = m_devices.front(); // the trace lies on the first GPU
    const plan::CallSite site = plan::onDevice(owner.device, "the trace");
    if (!CS_CHECK(cudaSetDevice(owner.device), site, out) ||
        !CS_CHECK(cudaMemsetAsync(m_trace.data(), 0, m_trace.size(), owner.queue.stream()), site,
                  out))
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
    const int blocks = static_cast<int>(run.runners.size());
    const std::string what =
        std::to_string(blocks) + " blocks of " + std::to_string(run.threads) + " threads";
    const plan::CallSite site = plan::onDevice(run.device, what);
    if (!CS_CHECK(cudaEventRecord(run.queue.started(), run.queue.stream()), site, out) ||
        !CS_CHECK(launchBlockKernel(m_kernel, blocks, run.threads, run.queue.stream(), run.program,
                                    run.cooperative),
                  site, out) ||
        !CS_CHECK(cudaEventRecord(run.queue.stopped(), run.queue.stream()), site, out)) {
      stopQueued();
      return false;
    }
  }
  m_gate.open();
  return true;
}

void CudaExecutor::stopQueued()
{
  // Blocks queued on other GPUs wait for each other: make them leave at once.
  abort();
  m_gate.open();
  for (DeviceRun& queued : m_devices) {
    const plan::CallSite site = plan::onDevice(queued.device, "blocks stopped after a failure");
    if (CS_CHECK_RECORD(cudaSetDevice(queued.device), site))
      CS_CHECK_RECORD(cudaStreamSynchronize(queued.queue.stream()), site);
  }
}

bool CudaExecutor::finished()
{
  for (DeviceRun& run : m_devices) {
    // A failure ends the launch; the first one found is what launchSucceeded() reports.
    Diagnostics& failure = m_failure.empty() ? m_failure : m_laterFailures;
    const plan::CallSite site = plan::onDevice(run.device, "the block kernel");
    if (!CS_CHECK(cudaSetDevice(run.device), site, failure))
      continue;
    const cudaError_t state = cudaEventQuery(run.queue.stopped());
    if (state == cudaErrorNotReady)
      return false;
    CS_CHECK(state, site, failure);
  }
  m_laterFailures.take();
  return true;
}

bool CudaExecutor::launchSucceeded(Diagnostics& out)
{
  if (m_failure.empty())
    return true;
  out.append(m_failure.take());
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

std::optional<double> CudaExecutor::elapsedUs(Diagnostics& out)
{
  float longest = 0;
  for (DeviceRun& run : m_devices) {
    float ms = 0;
    const plan::CallSite site = plan::onDevice(run.device, "the launch's events");
    if (!CS_CHECK(cudaSetDevice(run.device), site, out) ||
        !CS_CHECK(cudaEventElapsedTime(&ms, run.queue.started(), run.queue.stopped()), site, out))
      return std::nullopt;
    longest = std::max(longest, ms);
  }
  return static_cast<double>(longest) * 1e3;
}

bool CudaExecutor::download(plan::HostMemory& mirror, std::vector<std::uint64_t>* trace,
                            Diagnostics& out)
{
  for (std::size_t r = 0; r < m_memory.size(); ++r) {
    for (std::size_t m = 0; m < kBufferCount; ++m) {
      const DeviceBuffer& memory = m_memory[r][m];
      if (memory.size() == 0)
        continue;
      const plan::CallSite site = plan::onDevice(memory.device(), "the results");
      if (!CS_CHECK(cudaSetDevice(memory.device()), site, out) ||
          !CS_CHECK(cudaMemcpy(mirror.memory[r][m].data(), memory.data(), memory.size(),
                               cudaMemcpyDeviceToHost),
                    site, out))
        return false;
    }
  }
  if (trace && m_traced) {
    trace->resize(m_trace.size() / sizeof(std::uint64_t));
    const plan::CallSite site = plan::onDevice(m_trace.device(), "the trace");
    if (!CS_CHECK(cudaSetDevice(m_trace.device()), site, out) ||
        !CS_CHECK(cudaMemcpy(trace->data(), m_trace.data(), m_trace.size(), cudaMemcpyDeviceToHost),
                  site, out))
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
      for (DeviceBuffer& buffer : buffers)
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

} // namespace cuda

std::unique_ptr<Executor> makeCudaExecutor()
{
  return std::make_unique<cuda::CudaExecutor>();
}

std::optional<int> visibleCudaDevices(std::string* why)
{
  return plan::countCudaDevices(why);
}

std::optional<double> measureCudaCopyBandwidth(int device, std::int64_t bytes)
{
  // Any failure means "no figure": the caller falls back to the host's yardstick.
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
    const plan::CallSite site = plan::onDevice(device, "the copy benchmark");
    bool ok = CS_CHECK(cudaEventRecord(queue.started(), queue.stream()), site, ignored);
    for (int i = 0; ok && i < repeats; ++i) {
      ok = CS_CHECK(cudaMemcpyAsync(target.data(), source.data(), half, cudaMemcpyDeviceToDevice,
                                    queue.stream()),
                    site, ignored);
    }
    float ms = 0;
    if (!ok || !CS_CHECK(cudaEventRecord(queue.stopped(), queue.stream()), site, ignored) ||
        !CS_CHECK(cudaEventSynchronize(queue.stopped()), site, ignored) ||
        !CS_CHECK(cudaEventElapsedTime(&ms, queue.started(), queue.stopped()), site, ignored) ||
        ms <= 0)
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
