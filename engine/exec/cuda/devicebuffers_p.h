#pragma once

// Owning handles for what a CUDA run allocates: device memory, mapped pinned host memory (which
// kernels and the host read while the kernel runs), streams and events. Each remembers its device
// so it is freed there, whatever device is current.

#include "model/diagnostic.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace cs::cuda {

class DeviceBuffer
{
public:
  DeviceBuffer() = default;
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer();

  /// Allocates `bytes` on `device`; false with "cudaMalloc of N bytes for WHAT …" in `out`.
  bool allocate(int device, std::size_t bytes, const std::string& what, Diagnostics& out);
  std::byte* data() const { return m_data; }
  std::size_t size() const { return m_size; }
  int device() const { return m_device; }
  /// Forgets the memory without freeing it (a kernel that cannot be stopped still uses it).
  void abandon() { m_data = nullptr; }

private:
  void reset();
  std::byte* m_data = nullptr;
  std::size_t m_size = 0;
  int m_device = -1;
};

/// Pinned host memory mapped into every device's address space.
class MappedHostBuffer
{
public:
  MappedHostBuffer() = default;
  MappedHostBuffer(const MappedHostBuffer&) = delete;
  MappedHostBuffer& operator=(const MappedHostBuffer&) = delete;
  ~MappedHostBuffer();

  /// Frees what it held, then allocates `bytes`.
  bool allocate(std::size_t bytes, const std::string& what, Diagnostics& out);
  void reset();
  std::byte* host() const { return m_host; }
  std::byte* device() const { return m_device; }
  void abandon() { m_host = nullptr; }

private:
  std::byte* m_host = nullptr;
  std::byte* m_device = nullptr;
};

/// A stream and the two events that time one launch on it.
class DeviceQueue
{
public:
  DeviceQueue() = default;
  DeviceQueue(DeviceQueue&& other) noexcept;
  DeviceQueue(const DeviceQueue&) = delete;
  DeviceQueue& operator=(const DeviceQueue&) = delete;
  ~DeviceQueue();

  bool create(int device, Diagnostics& out);
  cudaStream_t stream() const { return m_stream; }
  cudaEvent_t started() const { return m_started; }
  cudaEvent_t stopped() const { return m_stopped; }
  int device() const { return m_device; }

private:
  cudaStream_t m_stream = nullptr;
  cudaEvent_t m_started = nullptr;
  cudaEvent_t m_stopped = nullptr;
  int m_device = -1;
};

} // namespace cs::cuda
