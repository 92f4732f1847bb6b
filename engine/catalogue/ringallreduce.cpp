#include "ringallreduce.h"

#include <algorithm>
#include <string>

namespace cs {

namespace {

Step ringStep(int position, OpType type, int chunk)
{
  Step step;
  step.s = position;
  step.type = type;
  step.srcBuf = Buffer::Input;
  step.srcOff = chunk;
  step.dstBuf = Buffer::Input;
  step.dstOff = chunk;
  step.cnt = 1;
  return step;
}

} // namespace

Program makeRingAllReduce(const RingAllReduceOptions& options)
{
  const int n = std::max(2, options.ranks);
  const int channels = std::max(1, options.channels);
  auto mod = [n](int x) { return ((x % n) + n) % n; };

  Program program;
  program.name = "ring_allreduce_" + std::to_string(n) + "r_" + std::to_string(channels) + "ch";
  program.proto = options.protocol;
  program.nchannels = channels;
  program.nchunksperloop = n * channels;
  program.ngpus = n;
  program.collective = Collective::AllReduce;
  program.collSpelling = "allreduce";
  program.inplace = true;
  program.outofplace = false;
  program.minBytes = 0;
  program.maxBytes = 0;

  for (int rank = 0; rank < n; ++rank) {
    Gpu gpu;
    gpu.id = rank;
    gpu.inputChunks = n * channels;
    for (int ch = 0; ch < channels; ++ch) {
      ThreadBlock tb;
      tb.id = ch;
      tb.send = mod(rank + 1);
      tb.recv = mod(rank - 1);
      tb.chan = ch;
      const int base = ch * n;
      auto add = [&tb, base](OpType type, int chunk) {
        tb.steps.push_back(ringStep(static_cast<int>(tb.steps.size()), type, base + chunk));
      };
      // Reduce-scatter: pass partial sums around the ring; the last hop completes chunk r+1.
      add(OpType::Send, rank);
      for (int k = 1; k <= n - 2; ++k)
        add(OpType::RecvReduceSend, mod(rank - k));
      add(OpType::RecvReduceCopySend, mod(rank + 1));
      // All-gather: forward each completed chunk until every rank has it.
      for (int k = 0; k < n - 2; ++k)
        add(OpType::RecvCopySend, mod(rank - k));
      add(OpType::Recv, mod(rank + 2));
      gpu.threadblocks.push_back(std::move(tb));
    }
    program.gpus.push_back(std::move(gpu));
  }
  return program;
}

} // namespace cs
