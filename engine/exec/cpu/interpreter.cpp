#include "interpreter_p.h"

#include <cstring>

namespace cs::cpu {

namespace {

class ThreadblockRunner
{
public:
  ThreadblockRunner(RunState& state, int index)
      : m_state(state), m_plan(state.plan),
        m_tb(state.plan.threadblocks[static_cast<std::size_t>(index)]),
        m_status(state.status[static_cast<std::size_t>(index)]),
        m_flag(state.flags[static_cast<std::size_t>(index)]),
        m_send(m_tb.sendConnection >= 0
                   ? m_state.connections[static_cast<std::size_t>(m_tb.sendConnection)].get()
                   : nullptr),
        m_recv(m_tb.recvConnection >= 0
                   ? m_state.connections[static_cast<std::size_t>(m_tb.recvConnection)].get()
                   : nullptr)
  {
  }

  void run()
  {
    for (int slice = 0; slice < m_plan.slices; ++slice) {
      const std::int64_t offset = std::int64_t{slice} * m_plan.sliceElements;
      const std::int64_t n = std::min(m_plan.sliceElements, m_plan.chunkElements - offset);
      for (int position = 0; position < static_cast<int>(m_tb.steps.size()); ++position) {
        if (!runStep(slice, position, offset, n))
          return;
      }
    }
    m_status.finished = true;
    m_status.end = Clock::now();
  }

private:
  bool runStep(int slice, int position, std::int64_t offset, std::int64_t n)
  {
    const plan::PlannedStep& step = m_tb.steps[static_cast<std::size_t>(position)];
    m_status.step = position;
    m_status.slice = slice;
    if (m_state.aborted.load(std::memory_order_relaxed))
      return false;
    if (step.depTb >= 0 && !waitForFlag(step, slice))
      return false;
    const OpTraits traits = opTraits(step.type);
    const std::int64_t elements = std::int64_t{step.cnt} * n;
    Message in;
    std::byte* out = nullptr;
    if (traits.receives && !receive(step, elements, in))
      return false;
    if (traits.sends) {
      // Also for a message sent in place: the slot count bounds the messages in flight.
      out = waitForRoom();
      if (!out)
        return false;
    }
    const double start = m_state.trace ? sinceStart() : 0.0;
    execute(step, offset, n, in, out);
    if (traits.receives) {
      m_recv->release();
      ++m_received;
    }
    if (traits.sends) {
      m_send->publish(m_sent, outgoing(step, offset, n, out));
      ++m_sent;
    }
    if (step.publishes) {
      const std::uint32_t value = m_plan.flagValue(slice, position);
      cpu::advance(m_flag, value - m_published);
      m_published = value;
    }
    m_state.progress.fetch_add(1, std::memory_order_relaxed);
    if (m_state.trace)
      record(step, position, slice, elements, start);
    return true;
  }

  bool waitForFlag(const plan::PlannedStep& step, int slice)
  {
    const std::size_t target = static_cast<std::size_t>(
        m_plan.firstThreadblock[static_cast<std::size_t>(m_tb.rank)] + step.depTb);
    const std::uint32_t needed = m_plan.flagValue(slice, step.depStep);
    setWait(WaitKind::Flag);
    m_status.wait.depTb = step.depTb;
    m_status.wait.depStep = step.depStep;
    const bool ok =
        waitUntil(m_state.flags[target], [needed](std::uint32_t value) { return value >= needed; });
    m_status.waiting = !ok;
    return ok;
  }

  bool receive(const plan::PlannedStep& step, std::int64_t elements, Message& message)
  {
    setWait(WaitKind::Message);
    m_status.wait.peer = m_tb.recv;
    const std::optional<Message> arrived = m_recv->waitForMessage(m_received);
    m_status.waiting = !arrived;
    if (!arrived)
      return false;
    if (arrived->elements != elements) {
      Location where;
      where.rank = m_tb.rank;
      where.tb = m_tb.tb;
      where.step = m_status.step;
      m_state.fail({Severity::Error,
                    "exec.message-size",
                    describe(where) + ": " + std::string(opTypeName(step.type)) + " expects " +
                        std::to_string(elements) + " elements but message " +
                        std::to_string(m_received) + " from rank " + std::to_string(m_tb.recv) +
                        " on channel " + std::to_string(m_tb.chan) + " has " +
                        std::to_string(arrived->elements) +
                        " (cnt differs between send and receive)",
                    where,
                    {}});
      return false;
    }
    message = *arrived;
    return true;
  }

  std::byte* waitForRoom()
  {
    setWait(WaitKind::Room);
    m_status.wait.peer = m_tb.send;
    std::byte* slot = m_send->waitForRoom(m_sent);
    m_status.waiting = slot == nullptr;
    return slot;
  }

  void setWait(WaitKind kind)
  {
    m_status.wait = BlockedPosition{
        m_tb.rank, m_tb.tb, m_status.step, m_status.slice, kind, -1, m_tb.chan, -1, -1};
  }

  // The message a sending step publishes: its slot, holding piece j at j·n, or the elements in
  // this rank's memory, where piece j is in chunk j of the operand.
  Message outgoing(const plan::PlannedStep& step, std::int64_t offset, std::int64_t n,
                   const std::byte* slot) const
  {
    const std::int64_t elements = std::int64_t{step.cnt} * n;
    if (!step.sendsInPlace)
      return {slot, n * m_plan.elementSize, elements};
    const plan::OperandRef& data = step.type == OpType::Send ? step.src : step.dst;
    return {m_state.address(m_tb.rank, data.memory, data.index, offset),
            m_plan.chunkElements * m_plan.elementSize, elements};
  }

  // Moves the data of one step on one slice: chunk j of each operand is at its first chunk + j,
  // piece j of an incoming message where the message says, piece j of an outgoing one at j·n of
  // the slot (unused when the step sends in place).
  void execute(const plan::PlannedStep& step, std::int64_t offset, std::int64_t n,
               const Message& in, std::byte* slot)
  {
    const std::int64_t bytes = n * m_plan.elementSize;
    const Kernels& k = m_state.kernels;
    const OpTraits traits = opTraits(step.type);
    for (int j = 0; j < step.cnt; ++j) {
      const std::byte* received = traits.receives ? in.data + j * in.pieceStride : nullptr;
      std::byte* out = traits.sends ? slot + j * bytes : nullptr;
      // Unused operands stay null: their buffer may not even be allocated.
      std::byte* dst = traits.writesDst
                           ? m_state.address(m_tb.rank, step.dst.memory, step.dst.index + j, offset)
                           : nullptr;
      const std::byte* src =
          traits.readsSrc ? m_state.address(m_tb.rank, step.src.memory, step.src.index + j, offset)
                          : nullptr;
      switch (step.type) {
      case OpType::Send:
        if (!step.sendsInPlace)
          std::memcpy(out, src, static_cast<std::size_t>(bytes));
        break;
      case OpType::Recv:
        std::memcpy(dst, received, static_cast<std::size_t>(bytes));
        break;
      case OpType::RecvCopySend:
        if (step.sendsInPlace)
          std::memcpy(dst, received, static_cast<std::size_t>(bytes));
        else
          copyTwice(dst, out, received, static_cast<std::size_t>(bytes));
        break;
      case OpType::RecvReduceSend:
        k.reduce(out, received, src, n);
        break;
      case OpType::RecvReduceCopy:
        k.reduce(dst, received, src, n);
        break;
      case OpType::RecvReduceCopySend:
        if (step.sendsInPlace)
          k.reduce(dst, received, src, n);
        else
          k.reduceTwice(dst, out, received, src, n);
        break;
      case OpType::Copy:
        if (dst != src)
          std::memmove(dst, src, static_cast<std::size_t>(bytes));
        break;
      case OpType::Reduce:
        k.reduce(dst, dst, src, n);
        break;
      case OpType::Nop:
        break;
      }
    }
  }

  double sinceStart() const
  {
    return std::chrono::duration<double, std::micro>(Clock::now() - m_state.start).count();
  }

  void record(const plan::PlannedStep& step, int position, int slice, std::int64_t elements,
              double start)
  {
    const OpTraits traits = opTraits(step.type);
    TraceEvent event;
    event.rank = m_tb.rank;
    event.tb = m_tb.tb;
    event.step = position;
    event.slice = slice;
    event.op = step.type;
    event.peer = traits.sends ? m_tb.send : traits.receives ? m_tb.recv : -1;
    event.recvPeer = traits.receives ? m_tb.recv : -1;
    event.channel = m_tb.chan;
    event.bytes = elements * m_plan.elementSize;
    event.start = start;
    event.end = sinceStart();
    m_status.events.push_back(std::move(event));
  }

  RunState& m_state;
  const plan::RunPlan& m_plan;
  const plan::PlannedThreadblock& m_tb;
  ThreadStatus& m_status;
  Counter& m_flag;
  Connection* m_send;
  Connection* m_recv;
  std::uint32_t m_sent = 0;
  std::uint32_t m_received = 0;
  std::uint32_t m_published = 0;
};

} // namespace

void runThreadblock(RunState& state, int index)
{
  ThreadblockRunner(state, index).run();
}

} // namespace cs::cpu
