#include "watchchannel.h"

#include "blockkernel.h"
#include "cudacheck.h"

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
         check(cudaSetDevice(device), "cudaSetDevice", device, out) &&
         check(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking),
               "cudaStreamCreate for the watchdog", device, out);
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
  cudaSetDevice(m_device.device());
  return check(cudaMemsetAsync(m_device.data(), 0, m_device.size(), stream),
               "cudaMemsetAsync of the block statuses", m_device.device(), out);
}

const gpu::BlockStatus* WatchChannel::read()
{
  cudaSetDevice(m_device.device());
  if (cudaMemcpyAsync(m_mirror.host(), m_device.data(), m_statusBytes, cudaMemcpyDeviceToHost,
                      m_stream) == cudaSuccess)
    cudaStreamSynchronize(m_stream);
  return reinterpret_cast<const gpu::BlockStatus*>(m_mirror.host());
}

void WatchChannel::raiseAbort()
{
  if (!m_device.data() || !m_mirror.host())
    return;
  const std::size_t at = m_device.size() - kLine;
  hostWord(m_mirror, at).store(1, std::memory_order_relaxed);
  cudaSetDevice(m_device.device());
  if (cudaMemcpyAsync(deviceAbort(), m_mirror.host() + at, sizeof(std::uint32_t),
                      cudaMemcpyHostToDevice, m_stream) == cudaSuccess)
    cudaStreamSynchronize(m_stream);
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
    cudaSetDevice(m_device.device());
    cudaStreamDestroy(m_stream);
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
  cudaSetDevice(device);
  return check(launchGateKernel(reinterpret_cast<const std::uint32_t*>(m_word.device()), stream),
               "launching the launch gate", device, out);
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
