#include "watchchannel_p.h"

#include "blockkernel_p.h"
#include "exec/cudart/cudastatus.h"

#include <atomic>
#include <cstring>

namespace cs::cuda {

namespace {

constexpr std::size_t kLine = 128;

std::atomic_ref<std::uint32_t> hostWord(const MappedHostBuffer& buffer, std::size_t at = 0)
{
  return std::atomic_ref<std::uint32_t>(*reinterpret_cast<std::uint32_t*>(buffer.host() + at));
}

} // namespace

bool WatchChannel::allocate(int device, std::size_t runners, Diagnostics& out)
{
  m_statusBytes = runners * sizeof(gpu::BlockStatus);
  const std::size_t bytes = (m_statusBytes + kLine - 1) / kLine * kLine + kLine;
  return m_device.allocate(device, bytes, "block statuses", out) &&
         m_mirror.allocate(bytes, "block statuses (host copy)", out) &&
         CS_CHECK(cudaSetDevice(device), plan::onDevice(device), out) &&
         CS_CHECK(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking),
                  plan::onDevice(device, "the watchdog"), out);
}

gpu::BlockStatus* WatchChannel::deviceStatuses() const
{
  return reinterpret_cast<gpu::BlockStatus*>(m_device.data());
}

std::uint32_t* WatchChannel::deviceAbort() const
{
  return reinterpret_cast<std::uint32_t*>(m_device.data() + m_device.size() - kLine);
}

bool WatchChannel::clear(cudaStream_t stream, Diagnostics& out)
{
  std::memset(m_mirror.host(), 0, m_statusBytes);
  const plan::CallSite site = plan::onDevice(m_device.device(), "the block statuses");
  return CS_CHECK(cudaSetDevice(m_device.device()), site, out) &&
         CS_CHECK(cudaMemsetAsync(m_device.data(), 0, m_device.size(), stream), site, out);
}

const gpu::BlockStatus* WatchChannel::read()
{
  // The watchdog polls this while the run goes on: a failed copy leaves the last statuses, and
  // is recorded for the run (the kernel's own failure ends it through finished()).
  const plan::CallSite site = plan::onDevice(m_device.device(), "the block statuses");
  if (CS_CHECK_RECORD(cudaSetDevice(m_device.device()), site) &&
      CS_CHECK_RECORD(cudaMemcpyAsync(m_mirror.host(), m_device.data(), m_statusBytes,
                                      cudaMemcpyDeviceToHost, m_stream),
                      site))
    CS_CHECK_RECORD(cudaStreamSynchronize(m_stream), site);
  return reinterpret_cast<const gpu::BlockStatus*>(m_mirror.host());
}

void WatchChannel::raiseAbort()
{
  if (!m_device.data() || !m_mirror.host())
    return;
  const std::size_t at = m_device.size() - kLine;
  hostWord(m_mirror, at).store(1, std::memory_order_relaxed);
  const plan::CallSite site = plan::onDevice(m_device.device(), "the abort flag");
  if (CS_CHECK_RECORD(cudaSetDevice(m_device.device()), site) &&
      CS_CHECK_RECORD(cudaMemcpyAsync(deviceAbort(), m_mirror.host() + at, sizeof(std::uint32_t),
                                      cudaMemcpyHostToDevice, m_stream),
                      site))
    CS_CHECK_RECORD(cudaStreamSynchronize(m_stream), site);
}

void WatchChannel::abandon()
{
  // Freeing either would wait for the kernel.
  m_device.abandon();
  m_mirror.abandon();
}

void WatchChannel::reset()
{
  if (m_stream) {
    const plan::CallSite site = plan::onDevice(m_device.device(), "the watchdog");
    CS_CHECK_RECORD(cudaSetDevice(m_device.device()), site);
    CS_CHECK_RECORD(cudaStreamDestroy(m_stream), site);
  }
  m_stream = nullptr;
  m_device = {};
  m_mirror.reset();
}

bool LaunchGate::allocate(Diagnostics& out)
{
  return m_word.allocate(sizeof(std::uint32_t), "the launch gate", out);
}

bool LaunchGate::hold(cudaStream_t stream, int device, Diagnostics& out)
{
  hostWord(m_word).store(0, std::memory_order_release);
  m_closed = true;
  return CS_CHECK(cudaSetDevice(device), plan::onDevice(device), out) &&
         CS_CHECK(launchGateKernel(reinterpret_cast<const std::uint32_t*>(m_word.device()), stream),
                  plan::onDevice(device, "the launch gate"), out);
}

void LaunchGate::open()
{
  if (m_closed)
    hostWord(m_word).store(1, std::memory_order_release);
  m_closed = false;
}

void LaunchGate::abandon()
{
  open();
  m_word.abandon();
}

void LaunchGate::reset()
{
  open();
  m_word.reset();
}

} // namespace cs::cuda
