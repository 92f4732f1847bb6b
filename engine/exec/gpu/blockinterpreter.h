#pragma once

// What one block (one (rank, threadblock) of the program) does, written once for the CUDA kernel
// and its host emulation. `Platform` supplies the parts that differ: the block's threads and
// barriers, acquire/release on counters, pausing while spinning, and the clock (see
// hostplatform.h and cuda/deviceplatform.cuh).
//
// The flow follows the runtime (msccl-format.md §4): for each slice of the slicing loop, each step
// in order: thread 0 waits for the dependency flag, the incoming message and room on the outgoing
// connection; then every thread moves its share of the data; then thread 0 frees the incoming
// message, publishes the outgoing one and the step's flag. The incoming message is freed before
// the outgoing one is published, so anything that learns of this step through a message also
// knows the sender's data was read (what makes pulling from the sender's buffers safe).

#include "../../model/program.h"
#include "blockprogram.h"
#include "elementops.h"

namespace cs::gpu {

template <typename Platform, typename T, ReduceOp Op> class BlockRunner
{
public:
  CS_HD BlockRunner(const BlockProgram& program, int runner)
      : m_program(program), m_replica(runner / program.blockCount),
        m_block(program.blocks[runner % program.blockCount]), m_status(program.status[runner]),
        m_flag(program.flags[runner]), m_lanes(Platform::lanes()), m_leader(m_lanes.index == 0)
  {
  }

  CS_HD void run()
  {
    if (m_leader)
      Platform::store(&m_status.started, 1);
    for (int slice = 0; slice < m_program.slices; ++slice) {
      // This replica's part of the slice: parts of equal, vector-aligned length, the last ones
      // shorter or empty (an empty part still exchanges its messages).
      const std::int64_t base = std::int64_t{slice} * m_program.sliceElements;
      const std::int64_t rest = m_program.chunkElements - base;
      const std::int64_t length = rest < m_program.sliceElements ? rest : m_program.sliceElements;
      const std::int64_t part = replicaPart(length, m_program.replicas, m_program.alignElements);
      const std::int64_t skip = std::int64_t{m_replica} * part;
      const std::int64_t left = length > skip ? length - skip : 0;
      const std::int64_t offset = base + skip;
      const std::int64_t n = left < part ? left : part;
      for (int position = 0; position < m_block.stepCount; ++position) {
        if (!runStep(slice, position, offset, n))
          return;
      }
    }
    if (m_leader) {
      Platform::store(&m_status.progress, m_done);
      Platform::store(&m_status.finished, 1);
    }
  }

private:
  CS_HD bool runStep(int slice, int position, std::int64_t offset, std::int64_t n)
  {
    const BlockStep& step = m_program.steps[m_block.firstStep + position];
    const auto type = static_cast<OpType>(step.type);
    const OpTraits traits = opTraits(type);
    const std::int64_t elements = std::int64_t{step.cnt} * n;
    Message& incoming = Platform::sharedMessage();
    bool ready = true;
    if (m_leader) {
      m_step = static_cast<std::uint32_t>(position);
      m_slice = static_cast<std::uint32_t>(slice);
      if (step.depBlock >= 0)
        ready = waitForFlag(step, slice);
      if (ready && traits.receives)
        ready = receive(elements, incoming);
      if (ready && traits.sends)
        ready = waitForRoom();
      m_start = m_program.trace ? Platform::now() : 0;
    }
    if (!Platform::barrierAnd(ready))
      return false;

    const ConnectionView* out = traits.sends ? &connection(m_block.sendConnection) : nullptr;
    T* staging = nullptr;
    if (out && step.sendMode == SendMode::Stage)
      staging = reinterpret_cast<T*>(out->staging + (m_sent % out->slotCount) * out->stagingBytes);
    for (int j = 0; j < step.cnt; ++j)
      movePiece(step, type, j, offset, n, incoming, staging);
    Platform::barrier();

    if (m_leader)
      finishStep(step, traits, slice, position, offset, elements, staging);
    // Every thread keeps its own copies of the message counters.
    if (traits.receives)
      ++m_received;
    if (traits.sends)
      ++m_sent;
    return true;
  }

  // Piece j of each operand: chunk j after the first, the same `offset` into it; piece j of a
  // pulled message at j·pieceStride, of a staged one at j·n. Operands a step does not use stay
  // null: their allocation may not exist.
  CS_HD void movePiece(const BlockStep& step, OpType type, int j, std::int64_t offset,
                       std::int64_t n, const Message& incoming, T* staging)
  {
    const OpTraits traits = opTraits(type);
    T* dst = traits.writesDst ? element(step.dstMemory, step.dstChunk + j, offset) : nullptr;
    const T* src = traits.readsSrc ? element(step.srcMemory, step.srcChunk + j, offset) : nullptr;
    // A staged message is contiguous and cut by the receiver's slice, as the runtime's FIFO.
    const std::int64_t stride = incoming.pieceStride > 0 ? incoming.pieceStride : n;
    const T* in =
        traits.receives ? reinterpret_cast<const T*>(incoming.address) + j * stride : nullptr;
    T* stage = staging ? staging + j * n : nullptr;
    switch (type) {
    case OpType::Send:
      if (stage)
        copyElements(m_lanes, stage, src, n);
      break;
    case OpType::Recv:
      copyElements(m_lanes, dst, in, n);
      break;
    case OpType::RecvCopySend:
      copyElements(m_lanes, dst, in, n);
      if (stage)
        copyElements(m_lanes, stage, in, n);
      break;
    case OpType::RecvReduceSend:
      reduceElements<Op>(m_lanes, stage, static_cast<T*>(nullptr), in, src, n);
      break;
    case OpType::RecvReduceCopy:
      reduceElements<Op>(m_lanes, dst, static_cast<T*>(nullptr), in, src, n);
      break;
    case OpType::RecvReduceCopySend:
      reduceElements<Op>(m_lanes, dst, stage, in, src, n);
      break;
    case OpType::Copy:
      if (dst != src)
        copyElements(m_lanes, dst, src, n);
      break;
    case OpType::Reduce:
      reduceElements<Op>(m_lanes, dst, static_cast<T*>(nullptr), dst, src, n);
      break;
    case OpType::Nop:
      break;
    }
  }

  CS_HD void finishStep(const BlockStep& step, OpTraits traits, int slice, int position,
                        std::int64_t offset, std::int64_t elements, T* staging)
  {
    const bool system = m_program.systemScope != 0;
    if (traits.receives) {
      const ConnectionView& in = connection(m_block.recvConnection);
      Platform::release(&in.consumed->value, m_received + 1, system);
    }
    if (traits.sends) {
      const ConnectionView& out = connection(m_block.sendConnection);
      Message message;
      message.elements = elements;
      if (step.sendMode == SendMode::Stage) {
        message.address = reinterpret_cast<std::uint64_t>(staging);
        message.pieceStride = 0; // contiguous
      } else {
        const bool fromSource = step.sendMode == SendMode::PullSource;
        message.address = reinterpret_cast<std::uint64_t>(
            element(fromSource ? step.srcMemory : step.dstMemory,
                    fromSource ? step.srcChunk : step.dstChunk, offset));
        message.pieceStride = m_program.chunkElements;
      }
      out.messages[m_sent % out.slotCount] = message;
      Platform::release(&out.published->value, m_sent + 1, system);
    }
    if (step.publishes)
      Platform::release(&m_flag->value, m_program.flagValue(slice, position), system);
    ++m_done;
    if (m_done % kProgressEvery == 0)
      Platform::store(&m_status.progress, m_done);
    if (m_program.trace) {
      std::uint64_t* record =
          m_program.trace + 2 * (m_replica * m_program.recordsPerReplica + m_block.firstRecord +
                                 std::int64_t{slice} * m_block.stepCount + position);
      record[0] = m_start;
      record[1] = Platform::now();
    }
  }

  CS_HD const ConnectionView& connection(int index) const
  {
    return m_program.connections[m_replica * m_program.connectionCount + index];
  }

  CS_HD T* element(std::uint8_t memory, std::int64_t chunk, std::int64_t offset) const
  {
    std::byte* base = m_program.memory[m_block.rank * 3 + memory];
    return reinterpret_cast<T*>(base) + chunk * m_program.chunkElements + offset;
  }

  // The waits: thread 0 only. Each returns false when the run was aborted.
  CS_HD bool waitForFlag(const BlockStep& step, int slice)
  {
    const std::uint32_t needed = m_program.flagValue(slice, step.depStep);
    const std::uint32_t* flag =
        &m_program.flags[m_replica * m_program.blockCount + step.depBlock]->value;
    return waitUntil(kWaitFlag, [&] { return acquire(flag) >= needed; });
  }

  CS_HD bool receive(std::int64_t elements, Message& incoming)
  {
    const ConnectionView& in = connection(m_block.recvConnection);
    const std::uint32_t wanted = m_received + 1;
    if (!waitUntil(kWaitMessage, [&] { return acquire(&in.published->value) >= wanted; }))
      return false;
    incoming = in.messages[m_received % in.slotCount];
    if (incoming.elements != elements) {
      Platform::storeWide(&m_status.errorArrived, incoming.elements);
      Platform::storeWide(&m_status.errorExpected, elements);
      Platform::store(&m_status.step, m_step);
      Platform::store(&m_status.slice, m_slice);
      Platform::store(&m_status.error, kErrorMessageSize);
      Platform::release(m_program.abort, 1, true);
      return false;
    }
    return true;
  }

  CS_HD bool waitForRoom()
  {
    const ConnectionView& out = connection(m_block.sendConnection);
    const std::uint32_t slots = static_cast<std::uint32_t>(out.slotCount);
    if (m_sent < slots)
      return true;
    const std::uint32_t needed = m_sent - slots + 1;
    return waitUntil(kWaitRoom, [&] { return acquire(&out.consumed->value) >= needed; });
  }

  // Spins until ready(); the first miss publishes the position for the watchdog, and the abort
  // flag is looked at every 256 misses (on a GPU it lies in host memory, a bus read away).
  template <typename Ready> CS_HD bool waitUntil(std::uint32_t kind, Ready ready)
  {
    if (ready())
      return true;
    Platform::store(&m_status.step, m_step);
    Platform::store(&m_status.slice, m_slice);
    Platform::store(&m_status.progress, m_done);
    Platform::store(&m_status.waiting, kind);
    for (std::uint32_t spins = 1;; ++spins) {
      if (ready())
        break;
      if (spins % 256 == 0 && Platform::acquire(m_program.abort, true) != 0)
        return false;
      Platform::pause(spins);
    }
    Platform::store(&m_status.waiting, kNotWaiting);
    return true;
  }

  CS_HD std::uint32_t acquire(const std::uint32_t* counter) const
  {
    return Platform::acquire(counter, m_program.systemScope != 0);
  }

  const BlockProgram& m_program;
  int m_replica;
  const BlockInfo& m_block;
  BlockStatus& m_status;
  Counter* m_flag;
  Lanes m_lanes;
  bool m_leader;
  std::uint32_t m_sent = 0;
  std::uint32_t m_received = 0;
  std::uint32_t m_done = 0;
  std::uint32_t m_step = 0;
  std::uint32_t m_slice = 0;
  std::uint64_t m_start = 0;
};

/// Runs runner `runner` (replica × blockCount + block) to its end, or until the run is aborted.
template <typename Platform, typename T, ReduceOp Op>
CS_HD void runBlock(const BlockProgram& program, int runner)
{
  BlockRunner<Platform, T, Op>(program, runner).run();
}

} // namespace cs::gpu
