#pragma once

// Hand-written programs the executor tests share: steps on the input buffer (in place) and the
// skeleton of a two-rank program with one threadblock per rank talking to the other rank.

#include "model/program.h"

#include <string>
#include <vector>

namespace cs::test {

/// A step reading i[srcOff] and writing i[dstOff] (cnt 1).
inline Step inPlaceStep(int position, OpType type, int srcOff, int dstOff)
{
  Step step;
  step.s = position;
  step.type = type;
  step.srcBuf = Buffer::Input;
  step.srcOff = srcOff;
  step.dstBuf = Buffer::Input;
  step.dstOff = dstOff;
  step.cnt = 1;
  return step;
}

/// Two ranks with `chunks` input chunks each, used in place; rank r's single threadblock sends
/// to and receives from rank 1 - r and runs `stepsOf(r)`.
template <typename StepsOf>
Program twoRankProgram(const std::string& name, Collective collective, int chunks,
                       StepsOf stepsOf)
{
  Program program;
  program.name = name;
  program.nchunksperloop = chunks;
  program.ngpus = 2;
  program.collective = collective;
  program.collSpelling = collective == Collective::AllReduce ? "allreduce" : "custom";
  program.inplace = true;
  program.outofplace = false;
  for (int r = 0; r < 2; ++r) {
    Gpu gpu;
    gpu.id = r;
    gpu.inputChunks = chunks;
    ThreadBlock tb;
    tb.send = 1 - r;
    tb.recv = 1 - r;
    tb.steps = stepsOf(r);
    gpu.threadblocks.push_back(tb);
    program.gpus.push_back(gpu);
  }
  return program;
}

} // namespace cs::test
