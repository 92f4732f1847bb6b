#include "emulatedexecutor.h"

#include "exec/block/blockinterpreter.h"
#include "exec/plan/elementtypes.h"
#include "exec/plan/reference.h"
#include "hostplatform_p.h"

#include <algorithm>
#include <chrono>
#include <cstring>

namespace cs::gpu {

using BlockFunction = void (*)(const BlockProgram&, int);

struct EmulatedGpuExecutor::State {
  plan::HostMemory* mirror = nullptr;
  int replicas = 1;
  /// Per rank and allocation, the initial contents (inputs, sentinel elsewhere).
  std::vector<std::array<std::vector<std::byte>, kBufferCount>> initial;
  std::vector<ConnectionView> connections;
  std::vector<Counter> published;
  std::vector<Counter> consumed;
  std::vector<std::vector<Message>> messages;
  std::vector<std::vector<std::byte>> staging; ///< 16-byte aligned through `stagingBase`
  std::vector<Counter> flagStorage;
  std::vector<Counter*> flags;
  std::vector<std::byte*> memory;
  std::vector<BlockStatus> status;
  std::uint32_t abortWord = 0;
  std::vector<std::uint64_t> trace;
  BlockProgram program;
  BlockFunction function = nullptr;
  std::vector<std::thread> threads;
  std::atomic<int> running{0};
  std::chrono::steady_clock::time_point started;
  std::vector<std::chrono::steady_clock::time_point> ended;

  void join()
  {
    for (std::thread& thread : threads)
      thread.join();
    threads.clear();
  }
};

namespace {

BlockFunction selectBlockFunction(DataType type, ReduceOp op)
{
  return plan::withStorageType(type, [op]<typename T>() {
    return plan::withReduceOp(
        op, []<ReduceOp Op>() -> BlockFunction { return &runBlock<HostPlatform, T, Op>; });
  });
}

std::byte* alignedStorage(std::vector<std::byte>& storage)
{
  auto address = reinterpret_cast<std::uintptr_t>(storage.data());
  return storage.data() + ((16 - address % 16) % 16);
}

} // namespace

EmulatedGpuExecutor::EmulatedGpuExecutor() = default;

EmulatedGpuExecutor::~EmulatedGpuExecutor()
{
  release();
}

bool EmulatedGpuExecutor::prepare(const Setup& setup, Diagnostics& /*out*/)
{
  m_layout = setup.layout;
  m_state = std::make_unique<State>();
  State& s = *m_state;
  const plan::RunPlan& plan = setup.plan;
  s.mirror = &setup.mirror;
  s.initial = setup.mirror.memory;
  s.replicas = std::max(1, setup.options.blocksPerThreadblock.value_or(1));
  const std::size_t replicas = static_cast<std::size_t>(s.replicas);
  const std::size_t connections = m_layout.connections.size() * replicas;
  s.published.resize(connections);
  s.consumed.resize(connections);
  s.messages.resize(connections);
  s.staging.resize(connections);
  for (std::size_t c = 0; c < connections; ++c) {
    const ConnectionLayout& layout = m_layout.connections[c % m_layout.connections.size()];
    s.messages[c].resize(static_cast<std::size_t>(layout.slotCount));
    ConnectionView view;
    view.published = &s.published[c];
    view.consumed = &s.consumed[c];
    view.messages = s.messages[c].data();
    view.slotCount = layout.slotCount;
    view.stagingBytes = stagingSlotBytes(layout, plan, s.replicas);
    if (view.stagingBytes > 0) {
      s.staging[c].resize(static_cast<std::size_t>(view.stagingBytes * layout.slotCount + 16));
      view.staging = alignedStorage(s.staging[c]);
    }
    s.connections.push_back(view);
  }
  const std::size_t runners = m_layout.blocks.size() * replicas;
  s.flagStorage.resize(runners);
  for (Counter& flag : s.flagStorage)
    s.flags.push_back(&flag);
  s.status.resize(runners);
  s.ended.resize(runners);
  for (int r = 0; r < plan.ranks; ++r) {
    for (auto& allocation : setup.mirror.memory[static_cast<std::size_t>(r)])
      s.memory.push_back(allocation.empty() ? nullptr : allocation.data());
  }
  BlockProgram& program = s.program;
  program.blocks = m_layout.blocks.data();
  program.steps = m_layout.steps.data();
  program.connections = s.connections.data();
  program.flags = s.flags.data();
  program.memory = s.memory.data();
  program.status = s.status.data();
  program.abort = &s.abortWord;
  program.chunkElements = plan.chunkElements;
  program.sliceElements = plan.sliceElements;
  program.recordsPerReplica = m_layout.traceRecords;
  const ReplicaGeometry geometry = replicaGeometry(plan, s.replicas);
  program.shareElements = geometry.shareElements;
  program.slices = geometry.slices;
  program.maxSteps = plan.maxSteps;
  program.blockCount = static_cast<std::int32_t>(m_layout.blocks.size());
  program.connectionCount = static_cast<std::int32_t>(m_layout.connections.size());
  program.replicas = s.replicas;
  program.alignElements = std::max(1, 16 / plan.elementSize);
  program.lowLatency = lowLatencyMessages(plan) ? 1 : 0;
  s.function = selectBlockFunction(setup.options.dtype, setup.options.op);
  return true;
}

int EmulatedGpuExecutor::replicas() const
{
  return m_state ? m_state->replicas : 1;
}

bool EmulatedGpuExecutor::restore(Diagnostics& /*out*/)
{
  State& s = *m_state;
  for (std::size_t r = 0; r < s.initial.size(); ++r) {
    for (std::size_t m = 0; m < kBufferCount; ++m) {
      std::vector<std::byte>& memory = s.mirror->memory[r][m];
      if (!memory.empty())
        std::memcpy(memory.data(), s.initial[r][m].data(), memory.size());
    }
  }
  return true;
}

bool EmulatedGpuExecutor::start(bool trace, Diagnostics& out)
{
  State& s = *m_state;
  std::fill(s.published.begin(), s.published.end(), Counter{});
  std::fill(s.consumed.begin(), s.consumed.end(), Counter{});
  for (Counter& flag : s.flagStorage)
    flag.value = 0;
  std::fill(s.status.begin(), s.status.end(), BlockStatus{});
  // LL lines of the previous run carry the flags this one expects again.
  if (s.program.lowLatency) {
    for (std::vector<std::byte>& staging : s.staging)
      std::fill(staging.begin(), staging.end(), std::byte{0});
  }
  s.abortWord = 0;
  s.trace.assign(trace ? static_cast<std::size_t>(2 * m_layout.traceRecords * s.replicas) : 0, 0);
  s.program.trace = trace ? s.trace.data() : nullptr;
  const int blocks = static_cast<int>(m_layout.blocks.size()) * s.replicas;
  s.running = blocks;
  s.started = std::chrono::steady_clock::now();
  try {
    for (int b = 0; b < blocks; ++b) {
      s.threads.emplace_back([&s, b] {
        s.function(s.program, b);
        s.ended[static_cast<std::size_t>(b)] = std::chrono::steady_clock::now();
        s.running.fetch_sub(1, std::memory_order_acq_rel);
      });
    }
  } catch (const std::system_error& error) {
    s.running.fetch_sub(blocks - static_cast<int>(s.threads.size()));
    HostPlatform::publish(&s.abortWord, 1, true);
    s.join();
    out.error("exec.threads", "could not start " + std::to_string(blocks) +
                                  " threads to emulate the blocks: " + error.what());
    return false;
  }
  return true;
}

bool EmulatedGpuExecutor::finished()
{
  if (m_state->running.load(std::memory_order_acquire) != 0)
    return false;
  m_state->join();
  return true;
}

void EmulatedGpuExecutor::abort()
{
  HostPlatform::publish(&m_state->abortWord, 1, true);
}

const BlockStatus* EmulatedGpuExecutor::statuses()
{
  return m_state->status.data();
}

std::optional<double> EmulatedGpuExecutor::elapsedUs(Diagnostics& /*out*/)
{
  const State& s = *m_state;
  auto end = s.started;
  for (const auto& ended : s.ended)
    end = std::max(end, ended);
  return std::chrono::duration<double, std::micro>(end - s.started).count();
}

bool EmulatedGpuExecutor::download(plan::HostMemory& /*mirror*/, std::vector<std::uint64_t>* trace,
                                   Diagnostics& /*out*/)
{
  // The blocks worked in the mirror itself.
  if (trace)
    *trace = m_state->trace;
  return true;
}

std::string EmulatedGpuExecutor::deviceDescription() const
{
  return "CUDA kernel logic emulated on " + std::to_string(m_layout.blocks.size()) +
         " host threads";
}

void EmulatedGpuExecutor::release()
{
  if (!m_state)
    return;
  if (!m_state->threads.empty()) {
    HostPlatform::publish(&m_state->abortWord, 1, true);
    m_state->join();
  }
  m_state.reset();
}

} // namespace cs::gpu
