#include "schedules.h"

namespace cs::test {

namespace {

Transfer make(int step, ChunkRef src, ChunkRef dst, TransferOp op, int count = 1)
{
  Transfer t;
  t.step = step;
  t.src = src;
  t.dst = dst;
  t.op = op;
  t.count = count;
  return t;
}

Schedule empty(const char* name, Collective collective, int n, RankBuffers buffers, bool inplace)
{
  Schedule s;
  s.name = std::string(name) + "-" + std::to_string(n);
  s.collective = collective;
  s.ranks = n;
  s.inplace = inplace;
  s.outofplace = !inplace;
  s.setUniformBuffers(buffers);
  return s;
}

} // namespace

Schedule ringAllReduceSchedule(int n)
{
  Schedule s = empty("ring-allreduce", Collective::AllReduce, n, {n, 0, 0}, true);
  for (int step = 0; step < n - 1; ++step) {
    for (int r = 0; r < n; ++r) {
      const int c = ((r - step) % n + n) % n;
      s.add(make(step, {r, Buffer::Input, c}, {(r + 1) % n, Buffer::Input, c}, TransferOp::Reduce));
    }
  }
  for (int step = 0; step < n - 1; ++step) {
    for (int r = 0; r < n; ++r) {
      const int c = ((r + 1 - step) % n + n) % n;
      s.add(make(n - 1 + step, {r, Buffer::Input, c}, {(r + 1) % n, Buffer::Input, c},
                 TransferOp::Copy));
    }
  }
  return s;
}

Schedule ringAllGatherSchedule(int n)
{
  Schedule s = empty("ring-allgather", Collective::AllGather, n, {1, n, 0}, false);
  for (int r = 0; r < n; ++r) {
    s.add(make(0, {r, Buffer::Input, 0}, {r, Buffer::Output, r}, TransferOp::Copy));
    s.add(make(0, {r, Buffer::Input, 0}, {(r + 1) % n, Buffer::Output, r}, TransferOp::Copy));
  }
  for (int step = 1; step < n - 1; ++step) {
    for (int r = 0; r < n; ++r) {
      const int c = ((r - step) % n + n) % n;
      s.add(make(step, {r, Buffer::Output, c}, {(r + 1) % n, Buffer::Output, c}, TransferOp::Copy));
    }
  }
  return s;
}

Schedule directAllToAllSchedule(int n)
{
  Schedule s = empty("direct-alltoall", Collective::AllToAll, n, {n, n, 0}, false);
  for (int r = 0; r < n; ++r)
    for (int p = 0; p < n; ++p)
      s.add(make(0, {r, Buffer::Input, p}, {p, Buffer::Output, r}, TransferOp::Copy));
  return s;
}

Schedule scratchAllReduceSchedule(int n)
{
  Schedule s = empty("scratch-allreduce", Collective::AllReduce, n, {1, 0, 0}, true);
  s.buffers[0].scratch = n;
  s.add(make(0, {0, Buffer::Input, 0}, {0, Buffer::Scratch, 0}, TransferOp::Copy));
  for (int r = 1; r < n; ++r)
    s.add(make(0, {r, Buffer::Input, 0}, {0, Buffer::Scratch, r}, TransferOp::Copy));
  for (int r = 1; r < n; ++r)
    s.add(make(r, {0, Buffer::Scratch, r}, {0, Buffer::Scratch, 0}, TransferOp::Reduce));
  s.add(make(n, {0, Buffer::Scratch, 0}, {0, Buffer::Input, 0}, TransferOp::Copy));
  for (int r = 1; r < n; ++r)
    s.add(make(n + 1, {0, Buffer::Input, 0}, {r, Buffer::Input, 0}, TransferOp::Copy));
  return s;
}

} // namespace cs::test
