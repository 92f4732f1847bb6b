#pragma once

// The CUDA executor's block program run on host threads, one per block, through the very
// interpreter the kernel runs (blockinterpreter.h with HostPlatform). It is not a backend users
// pick (the CPU executor is the reference); it exists so that the GPU executor's logic — its
// layout, pulled and staged messages, counters, flags, watchdog, trace and error reports — is
// tested on every machine, GPU or not.

#include "exec/block/blockexecutor.h"

#include <atomic>
#include <memory>
#include <thread>

namespace cs::gpu {

class EmulatedGpuExecutor final : public BlockExecutor
{
public:
  EmulatedGpuExecutor();
  ~EmulatedGpuExecutor() override;
  std::string_view name() const override { return "cuda-emulated"; }

  /// The layout of the last run (which messages were pulled, which staged), for tests.
  const BlockLayout& lastLayout() const { return m_layout; }

private:
  bool prepare(const Setup& setup, Diagnostics& out) override;
  int replicas() const override;
  bool restore(Diagnostics& out) override;
  bool start(bool trace, Diagnostics& out) override;
  bool finished() override;
  bool launchSucceeded(Diagnostics& /*out*/) override { return true; }
  void abort() override;
  const BlockStatus* statuses() override;
  std::optional<double> elapsedUs(Diagnostics& out) override;
  bool download(plan::HostMemory& mirror, std::vector<std::uint64_t>* trace,
                Diagnostics& out) override;
  std::string traceSource() const override { return "cuda-emulated"; }
  std::string deviceDescription() const override;
  void release() override;

  struct State;
  std::unique_ptr<State> m_state;
  BlockLayout m_layout;
};

} // namespace cs::gpu
