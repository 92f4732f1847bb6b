#pragma once

// What the executor tests share: hand-written steps, the skeleton of a two-rank program with one
// threadblock per rank talking to the other rank, and the rows of a type × reduction matrix.

#include "exec/executor.h"
#include "model/program.h"

#include <QTest>

#include <string>
#include <vector>

namespace cs::test {

/// A step reading buffer[srcOff] and writing buffer[dstOff] (cnt 1).
inline Step bufferStep(int position, OpType type, Buffer buffer, int srcOff, int dstOff)
{
  Step step;
  step.s = position;
  step.type = type;
  step.srcBuf = buffer;
  step.srcOff = srcOff;
  step.dstBuf = buffer;
  step.dstOff = dstOff;
  step.cnt = 1;
  return step;
}

/// A step reading i[srcOff] and writing i[dstOff] (cnt 1).
inline Step inPlaceStep(int position, OpType type, int srcOff, int dstOff)
{
  return bufferStep(position, type, Buffer::Input, srcOff, dstOff);
}

/// Rows "type", "op" for every data type × reduction ("float sum", …).
inline void addTypeAndOpRows()
{
  QTest::addColumn<int>("type");
  QTest::addColumn<int>("op");
  for (int t = 0; t < kDataTypeCount; ++t) {
    for (int o = 0; o < kReduceOpCount; ++o) {
      const std::string name = std::string(dataTypeName(static_cast<DataType>(t))) + " " +
                               std::string(reduceOpName(static_cast<ReduceOp>(o)));
      QTest::newRow(name.c_str()) << t << o;
    }
  }
}

/// Two ranks with `chunks` input chunks and one scratch chunk each, used in place; rank r's
/// single threadblock sends to and receives from rank 1 - r and runs `stepsOf(r)`.
template <typename StepsOf>
Program twoRankProgram(const std::string& name, Collective collective, int chunks, StepsOf stepsOf)
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
    gpu.scratchChunks = 1;
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
