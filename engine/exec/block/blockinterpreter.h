#pragma once

// What one block (one (rank, threadblock) of the program) does, written once for the CUDA kernel
// and its host emulation. `Platform` supplies the parts that differ: the block's threads and
// barriers, loads, stores and fences on counters, pausing while spinning, and the clock (see
// hostplatform.h and cuda/deviceplatform.cuh).
//
// The flow follows the runtime (msccl-format.md §4): for each slice of the slicing loop, each step
// in order: thread 0 waits for the dependency flag, the incoming message and room on the outgoing
// connection; then every thread moves its share of the data; then thread 0 frees the incoming
// message, publishes the outgoing one and the step's flag. The incoming message is freed before
// the outgoing one is published, so anything that learns of this step through a message also
// knows the sender's data was read (what makes pulling from the sender's buffers safe).
//
// Each step pays for one fence on each side: the waits poll with relaxed loads and are followed by
// one acquire fence, and the step's counters are stored relaxed after one release fence. A fence
// costs about as much as a flag hand-off between blocks; an acquire or release on every counter
// would cost up to six a step, most of a small message's time.

#include "../../model/program.h"
#include "blockprogram.h"
#include "exec/plan/elementops.h"
#include "lowlatency.h"

namespace cs::gpu {

template <typename Platform, typename T, ReduceOp Op> class BlockRunner
{
public:
  CS_HD BlockRunner(const BlockProgram& program, int runner)
      : m_program(program), m_replica(runner / program.blockCount),
        m_block(program.blocks[runner % program.blockCount]), m_status(program.status[runner]),
        m_flag(program.flags[runner]), m_lanes(Platform::lanes()), m_leader(m_lanes.index == 0)
  {
    // Kept in registers rather than looked up per step: after an acquire fence (which empties
    // the SM's L1) every lookup in the program's tables is a round trip to L2, and a step cannot
    // start before its addresses are known. With the next step read ahead (run()), this took
    // the 8-rank ring at 8 KiB on an H200 from 71 to 43 µs (Simple) and 36 to 28 µs (LL). Kept
    // out of arrays and unaddressed: the compiler would place those in local memory, which cost
    // more than it saved.
    if (m_block.sendConnection >= 0)
      m_send = connection(m_block.sendConnection);
    if (m_block.recvConnection >= 0)
      m_recv = connection(m_block.recvConnection);
    m_input = program.memory[m_block.rank * 3];
    m_output = program.memory[m_block.rank * 3 + 1];
    m_scratch = program.memory[m_block.rank * 3 + 2];
  }

  CS_HD void run()
  {
    if (m_leader)
      Platform::store(&m_status.started, 1);
    const BlockStep* steps = m_program.steps + m_block.firstStep;
    BlockStep step = m_block.stepCount > 0 ? steps[0] : BlockStep{};
    for (int slice = 0; slice < m_program.slices; ++slice) {
      const SlicePiece piece = replicaSlice(m_program.chunkElements, m_program.shareElements,
                                            m_program.sliceElements, m_replica, slice);
      for (int position = 0; position < m_block.stepCount; ++position) {
        // The next step is read while this one runs, so its round trip to memory overlaps
        // this step's waits instead of delaying the next step's start.
        const BlockStep next = steps[position + 1 < m_block.stepCount ? position + 1 : 0];
        if (!runStep(step, slice, position, piece.offset, piece.elements))
          return;
        step = next;
      }
    }
    if (m_leader) {
      Platform::store(&m_status.progress, m_done);
      Platform::store(&m_status.finished, 1);
    }
  }

private:
  CS_HD bool runStep(const BlockStep& step, int slice, int position, std::int64_t offset,
                     std::int64_t n)
  {
    const auto type = static_cast<OpType>(step.type);
    const OpTraits traits = opTraits(type);
    const std::int64_t elements = std::int64_t{step.cnt} * n;
    const bool lowLatency = m_program.lowLatency != 0;
    Message& incoming = Platform::sharedMessage();
    bool ready = true;
    if (m_leader) {
      m_step = static_cast<std::uint32_t>(position);
      m_slice = static_cast<std::uint32_t>(slice);
      ready = waitBeforeStep(step, traits, slice, elements, incoming);
      m_start = m_program.trace ? Platform::now() : 0;
    }
    if (!Platform::barrierAnd(ready))
      return false;

    std::byte* staging = nullptr;
    if (traits.sends && step.sendMode == SendMode::Stage)
      staging = m_send.staging + (m_sent % m_send.slotCount) * m_send.stagingBytes;
    if (lowLatency && (traits.sends || traits.receives)) {
      const bool moved =
          moveLines(step, traits, offset, n, elements, reinterpret_cast<LlLine*>(staging));
      if (!Platform::barrierAnd(moved))
        return false;
    } else {
      for (int j = 0; j < step.cnt; ++j)
        movePiece(step, type, j, offset, n, incoming, reinterpret_cast<T*>(staging));
      Platform::barrier();
    }

    if (m_leader)
      finishStep(step, traits, slice, position, offset, elements, reinterpret_cast<T*>(staging));
    // Every thread keeps its own copies of the message counters.
    if (traits.receives)
      ++m_received;
    if (traits.sends)
      ++m_sent;
    return true;
  }

  // Thread 0: the dependency flag, the incoming message and room on the outgoing connection,
  // then one acquire fence for whatever of them was a counter. An LL message is not waited for
  // here (its lines are, by every thread); the header of an outgoing one is written as soon as
  // there is room.
  CS_HD bool waitBeforeStep(const BlockStep& step, OpTraits traits, int slice,
                            std::int64_t elements, Message& incoming)
  {
    const bool lowLatency = m_program.lowLatency != 0;
    if (step.depBlock >= 0 && !waitForFlag(step, slice))
      return false;
    if (traits.receives && !lowLatency && !waitForMessage())
      return false;
    bool countedRoom = false;
    if (traits.sends && !waitForRoom(countedRoom))
      return false;
    // Acquire: what the other blocks released before is visible. An LL receiver frees a slot
    // without a release (see finishStep), so room on an LL connection needs no acquire either.
    if (step.depBlock >= 0 || (traits.receives && !lowLatency) || (countedRoom && !lowLatency))
      Platform::fence(system());
    if (traits.receives && !lowLatency && !checkSize(takeMessage(incoming), elements))
      return false;
    if (traits.sends && lowLatency) {
      const ConnectionView& out = m_send;
      auto* header =
          reinterpret_cast<LlLine*>(out.staging + (m_sent % out.slotCount) * out.stagingBytes);
      Platform::storeLine(header, llLine(static_cast<std::uint64_t>(elements), m_sent + 1));
    }
    return true;
  }

  // LL: every thread takes every lanes.count-th data line of the message; element e of a message
  // is element e mod n of piece e / n, as in a staged one. Thread 0 first waits for the header
  // (the position the watchdog reports) and checks its size; every thread loads its own operands
  // before it waits for its line, so the two latencies overlap. False when the run stopped.
  CS_HD bool moveLines(const BlockStep& step, OpTraits traits, std::int64_t offset, std::int64_t n,
                       std::int64_t elements, LlLine* out)
  {
    constexpr int kPerLine = kLlPayloadBytes / static_cast<int>(sizeof(T));
    static_assert(kPerLine >= 1 && kPerLine * sizeof(T) == kLlPayloadBytes);
    const LlLine* in = traits.receives ? incomingLines() : nullptr;
    const std::uint32_t inFlag = m_received + 1;
    if (in && m_leader) {
      LlLine header;
      if (!waitUntil(kWaitMessage,
                     [&] {
                       header = Platform::loadLine(in);
                       return llArrived(header, inFlag);
                     }) ||
          !checkSize(static_cast<std::int64_t>(llPayload(header)), elements))
        return false;
    }
    const std::int64_t total = std::int64_t{step.cnt} * n;
    const std::int64_t lines = llDataLines(total, static_cast<int>(sizeof(T)));
    for (std::int64_t line = m_lanes.index; line < lines; line += m_lanes.count) {
      T own[kPerLine] = {};
      for (int q = 0; q < kPerLine && traits.readsSrc && line * kPerLine + q < total; ++q) {
        const std::int64_t e = line * kPerLine + q;
        own[q] = *element(step.srcMemory, step.srcChunk + static_cast<int>(e / n), offset + e % n);
      }
      T received[kPerLine] = {};
      if (in) {
        LlLine arrived;
        if (!waitForLine(in + 1 + line, inFlag, arrived))
          return false;
        const std::uint64_t payload = llPayload(arrived);
        __builtin_memcpy(static_cast<void*>(received), &payload, kLlPayloadBytes);
      }
      T sent[kPerLine] = {};
      for (int q = 0; q < kPerLine && line * kPerLine + q < total; ++q) {
        const std::int64_t e = line * kPerLine + q;
        T value = received[q];
        if (traits.readsSrc)
          value = in ? plan::combineValues<Op>(received[q], own[q]) : own[q];
        if (traits.writesDst)
          *element(step.dstMemory, step.dstChunk + static_cast<int>(e / n), offset + e % n) = value;
        sent[q] = value;
      }
      if (out) {
        std::uint64_t payload = 0;
        __builtin_memcpy(&payload, static_cast<const void*>(sent), kLlPayloadBytes);
        Platform::storeLine(out + 1 + line, llLine(payload, m_sent + 1));
      }
    }
    return true;
  }

  CS_HD const LlLine* incomingLines() const
  {
    const ConnectionView& in = m_recv;
    return reinterpret_cast<const LlLine*>(in.staging +
                                           (m_received % in.slotCount) * in.stagingBytes);
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
        plan::copyElements(m_lanes, stage, src, n);
      break;
    case OpType::Recv:
      plan::copyElements(m_lanes, dst, in, n);
      break;
    case OpType::RecvCopySend:
      plan::copyElements(m_lanes, dst, in, n);
      if (stage)
        plan::copyElements(m_lanes, stage, in, n);
      break;
    case OpType::RecvReduceSend:
      plan::reduceElements<Op>(m_lanes, stage, static_cast<T*>(nullptr), in, src, n);
      break;
    case OpType::RecvReduceCopy:
      plan::reduceElements<Op>(m_lanes, dst, static_cast<T*>(nullptr), in, src, n);
      break;
    case OpType::RecvReduceCopySend:
      plan::reduceElements<Op>(m_lanes, dst, stage, in, src, n);
      break;
    case OpType::Copy:
      if (dst != src)
        plan::copyElements(m_lanes, dst, src, n);
      break;
    case OpType::Reduce:
      plan::reduceElements<Op>(m_lanes, dst, static_cast<T*>(nullptr), dst, src, n);
      break;
    case OpType::Nop:
      break;
    }
  }

  CS_HD void finishStep(const BlockStep& step, OpTraits traits, int slice, int position,
                        std::int64_t offset, std::int64_t elements, T* staging)
  {
    // An LL message announced itself with its header and lines.
    const bool lowLatency = m_program.lowLatency != 0;
    const bool publishesMessage = traits.sends && !lowLatency;
    if (publishesMessage) {
      const ConnectionView& out = m_send;
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
    }
    if (traits.receives || publishesMessage || step.publishes) {
      // Release: the whole block's reads and writes of this step (ordered before this thread by
      // the last barrier) and the message above happen before every store below. An LL receive
      // alone needs none: its count only frees the lines, whose values every thread has used
      // before the barrier (NCCL's LL protocol posts it the same way).
      if (publishesMessage || step.publishes || !lowLatency)
        Platform::fence(system());
      if (traits.receives)
        Platform::publish(&m_recv.consumed->value, m_received + 1, system());
      if (publishesMessage)
        Platform::publish(&m_send.published->value, m_sent + 1, system());
      if (step.publishes)
        Platform::publish(&m_flag->value, m_program.flagValue(slice, position), system());
    }
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
    // Not an array: one indexed at run time would live in local memory, not in registers.
    std::byte* base = memory == 0 ? m_input : memory == 1 ? m_output : m_scratch;
    return reinterpret_cast<T*>(base) + chunk * m_program.chunkElements + offset;
  }

  // The waits: thread 0 only. Each returns false when the run was aborted.
  CS_HD bool waitForFlag(const BlockStep& step, int slice)
  {
    const std::uint32_t needed = m_program.flagValue(slice, step.depStep);
    const std::uint32_t* flag =
        &m_program.flags[m_replica * m_program.blockCount + step.depBlock]->value;
    return waitUntil(kWaitFlag, [&] { return load(flag) >= needed; });
  }

  CS_HD bool waitForMessage()
  {
    const ConnectionView& in = m_recv;
    const std::uint32_t wanted = m_received + 1;
    return waitUntil(kWaitMessage, [&] { return load(&in.published->value) >= wanted; });
  }

  /// After the acquire fence: the message's descriptor; returns its element count.
  CS_HD std::int64_t takeMessage(Message& incoming)
  {
    const ConnectionView& in = m_recv;
    incoming = in.messages[m_received % in.slotCount];
    return incoming.elements;
  }

  /// A message whose size differs from the receive's stops the run (cnt differs between ends).
  CS_HD bool checkSize(std::int64_t arrived, std::int64_t expected)
  {
    if (arrived == expected)
      return true;
    Platform::storeWide(&m_status.errorArrived, arrived);
    Platform::storeWide(&m_status.errorExpected, expected);
    Platform::store(&m_status.step, m_step);
    Platform::store(&m_status.slice, m_slice);
    Platform::store(&m_status.error, kErrorMessageSize);
    Platform::fence(true);
    Platform::publish(m_program.abort, 1, true);
    return false;
  }

  /// Any thread: until an LL line carries `flag` (false when the run was aborted meanwhile).
  CS_HD bool waitForLine(const LlLine* line, std::uint32_t flag, LlLine& arrived)
  {
    for (std::uint32_t spins = 1;; ++spins) {
      arrived = Platform::loadLine(line);
      if (llArrived(arrived, flag))
        return true;
      if (spins % 1024 == 0 && Platform::load(m_program.abort, true) != 0)
        return false;
      Platform::pause(spins);
    }
  }

  /// `counted`: whether the room was seen through the receiver's counter (which needs the fence).
  /// The count read last time is remembered: it frees every slot up to it, so a steady stream
  /// looks at the counter (a round trip to L2) once per `slots` messages rather than every time.
  CS_HD bool waitForRoom(bool& counted)
  {
    const ConnectionView& out = m_send;
    const std::uint32_t slots = static_cast<std::uint32_t>(out.slotCount);
    if (m_sent < m_consumedSeen + slots)
      return true;
    counted = true;
    const std::uint32_t needed = m_sent - slots + 1;
    return waitUntil(kWaitRoom, [&] {
      m_consumedSeen = load(&out.consumed->value);
      return m_consumedSeen >= needed;
    });
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
      if (spins % 256 == 0 && Platform::load(m_program.abort, true) != 0)
        return false;
      Platform::pause(spins);
    }
    Platform::store(&m_status.waiting, kNotWaiting);
    return true;
  }

  CS_HD bool system() const { return m_program.systemScope != 0; }

  /// A relaxed load: the acquire fence after the waits orders what follows.
  CS_HD std::uint32_t load(const std::uint32_t* counter) const
  {
    return Platform::load(counter, system());
  }

  const BlockProgram& m_program;
  int m_replica;
  const BlockInfo m_block; ///< a copy: see the constructor
  BlockStatus& m_status;
  Counter* m_flag;
  plan::Lanes m_lanes;
  bool m_leader;
  ConnectionView m_send; ///< this replica's connections (copies: see the constructor)
  ConnectionView m_recv;
  std::byte* m_input = nullptr; ///< the rank's allocations, in Buffer order
  std::byte* m_output = nullptr;
  std::byte* m_scratch = nullptr;
  std::uint32_t m_sent = 0;
  std::uint32_t m_received = 0;
  std::uint32_t m_consumedSeen = 0; ///< thread 0: the send connection's consumed count, last read
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
