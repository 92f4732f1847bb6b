#include "devicebuffers.h"

#include "cudacheck.h"

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
    cudaSetDevice(m_device);
    cudaFree(m_data);
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
  if (!check(cudaSetDevice(device), "cudaSetDevice", device, out))
    return false;
  void* data = nullptr;
  if (!check(cudaMalloc(&data, bytes),
             "cudaMalloc of " + std::to_string(bytes) + " bytes for " + what, device, out))
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
    cudaFreeHost(m_host);
  m_host = nullptr;
  m_device = nullptr;
}

bool MappedHostBuffer::allocate(std::size_t bytes, const std::string& what, Diagnostics& out)
{
  reset();
  void* host = nullptr;
  if (!check(cudaHostAlloc(&host, bytes, cudaHostAllocMapped | cudaHostAllocPortable),
             "cudaHostAlloc of " + std::to_string(bytes) + " bytes for " + what, -1, out))
    return false;
  m_host = static_cast<std::byte*>(host);
  void* device = nullptr;
  if (!check(cudaHostGetDevicePointer(&device, host, 0), "cudaHostGetDevicePointer for " + what, -1,
             out))
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
  cudaSetDevice(m_device);
  if (m_started)
    cudaEventDestroy(m_started);
  if (m_stopped)
    cudaEventDestroy(m_stopped);
  if (m_stream)
    cudaStreamDestroy(m_stream);
}

bool DeviceQueue::create(int device, Diagnostics& out)
{
  m_device = device;
  return check(cudaSetDevice(device), "cudaSetDevice", device, out) &&
         check(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking), "cudaStreamCreate",
               device, out) &&
         check(cudaEventCreate(&m_started), "cudaEventCreate", device, out) &&
         check(cudaEventCreate(&m_stopped), "cudaEventCreate", device, out);
}

} // namespace cs::cuda
