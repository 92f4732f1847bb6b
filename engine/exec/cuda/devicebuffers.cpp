#include "devicebuffers_p.h"

#include "exec/cudart/cudastatus.h"

#include <utility>

namespace cs::cuda {

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : m_data(std::exchange(other.m_data, nullptr)), m_size(std::exchange(other.m_size, 0)),
      m_device(std::exchange(other.m_device, -1))
{
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept
{
  if (this != &other) {
    reset();
    m_data = std::exchange(other.m_data, nullptr);
    m_size = std::exchange(other.m_size, 0);
    m_device = std::exchange(other.m_device, -1);
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer()
{
  reset();
}

void DeviceBuffer::reset()
{
  if (m_data) {
    CS_CHECK_RECORD(cudaSetDevice(m_device), plan::onDevice(m_device));
    CS_CHECK_RECORD(cudaFree(m_data), plan::onDevice(m_device));
  }
  m_data = nullptr;
  m_size = 0;
}

bool DeviceBuffer::allocate(int device, std::size_t bytes, const std::string& what,
                            Diagnostics& out)
{
  reset();
  m_device = device;
  if (bytes == 0)
    return true;
  if (!CS_CHECK(cudaSetDevice(device), plan::onDevice(device), out))
    return false;
  void* data = nullptr;
  const std::string site = std::to_string(bytes) + " bytes of " + what;
  if (!CS_CHECK(cudaMalloc(&data, bytes), plan::onDevice(device, site), out))
    return false;
  m_data = static_cast<std::byte*>(data);
  m_size = bytes;
  return true;
}

MappedHostBuffer::~MappedHostBuffer()
{
  reset();
}

void MappedHostBuffer::reset()
{
  if (m_host)
    CS_CHECK_RECORD(cudaFreeHost(m_host), plan::CallSite{});
  m_host = nullptr;
  m_device = nullptr;
}

bool MappedHostBuffer::allocate(std::size_t bytes, const std::string& what, Diagnostics& out)
{
  reset();
  void* host = nullptr;
  const std::string site = std::to_string(bytes) + " bytes of " + what;
  if (!CS_CHECK(cudaHostAlloc(&host, bytes, cudaHostAllocMapped | cudaHostAllocPortable),
                plan::onDevice(-1, site), out))
    return false;
  m_host = static_cast<std::byte*>(host);
  void* device = nullptr;
  if (!CS_CHECK(cudaHostGetDevicePointer(&device, host, 0), plan::onDevice(-1, what), out))
    return false;
  m_device = static_cast<std::byte*>(device);
  return true;
}

DeviceQueue::DeviceQueue(DeviceQueue&& other) noexcept
    : m_stream(std::exchange(other.m_stream, nullptr)),
      m_started(std::exchange(other.m_started, nullptr)),
      m_stopped(std::exchange(other.m_stopped, nullptr)),
      m_device(std::exchange(other.m_device, -1))
{
}

DeviceQueue::~DeviceQueue()
{
  if (m_device < 0)
    return;
  const plan::CallSite site = plan::onDevice(m_device);
  CS_CHECK_RECORD(cudaSetDevice(m_device), site);
  if (m_started)
    CS_CHECK_RECORD(cudaEventDestroy(m_started), site);
  if (m_stopped)
    CS_CHECK_RECORD(cudaEventDestroy(m_stopped), site);
  if (m_stream)
    CS_CHECK_RECORD(cudaStreamDestroy(m_stream), site);
}

bool DeviceQueue::create(int device, Diagnostics& out)
{
  m_device = device;
  const plan::CallSite site = plan::onDevice(device);
  return CS_CHECK(cudaSetDevice(device), site, out) &&
         CS_CHECK(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking), site, out) &&
         CS_CHECK(cudaEventCreate(&m_started), site, out) &&
         CS_CHECK(cudaEventCreate(&m_stopped), site, out);
}

} // namespace cs::cuda
