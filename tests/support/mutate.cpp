#include "mutate.h"

#include <QTest>

#include <utility>

namespace cs::test {

Step makeStep(OpType type, Buffer srcBuf, int srcOff, Buffer dstBuf, int dstOff, int cnt, int depid,
              int deps, bool hasdep)
{
  Step step;
  step.type = type;
  step.srcBuf = srcBuf;
  step.srcOff = srcOff;
  step.dstBuf = dstBuf;
  step.dstOff = dstOff;
  step.cnt = cnt;
  step.depid = depid;
  step.deps = deps;
  step.hasdep = hasdep;
  return step;
}

ThreadBlock& threadblockAt(Program& program, int rank, int tbId)
{
  static ThreadBlock dummy;
  if (rank >= 0 && rank < static_cast<int>(program.gpus.size())) {
    for (ThreadBlock& tb : program.gpus[static_cast<std::size_t>(rank)].threadblocks) {
      if (tb.id == tbId)
        return tb;
    }
  }
  QTest::qFail(qPrintable(QString("no tb %1 on rank %2").arg(tbId).arg(rank)), __FILE__, __LINE__);
  dummy = {};
  return dummy;
}

Step& stepAt(Program& program, int rank, int tbId, int position)
{
  static Step dummy;
  ThreadBlock& tb = threadblockAt(program, rank, tbId);
  if (position >= 0 && position < static_cast<int>(tb.steps.size()))
    return tb.steps[static_cast<std::size_t>(position)];
  QTest::qFail(qPrintable(QString("no step %1 in rank %2 tb %3").arg(position).arg(rank).arg(tbId)),
               __FILE__, __LINE__);
  dummy = {};
  return dummy;
}

static void renumber(ThreadBlock& tb)
{
  for (std::size_t i = 0; i < tb.steps.size(); ++i)
    tb.steps[i].s = static_cast<int>(i);
}

void eraseStep(Program& program, int rank, int tbId, int position)
{
  ThreadBlock& tb = threadblockAt(program, rank, tbId);
  if (position < 0 || position >= static_cast<int>(tb.steps.size()))
    return;
  tb.steps.erase(tb.steps.begin() + position);
  renumber(tb);
}

void insertStep(Program& program, int rank, int tbId, int position, Step step)
{
  ThreadBlock& tb = threadblockAt(program, rank, tbId);
  const auto at = position < 0 || position > static_cast<int>(tb.steps.size())
                      ? tb.steps.end()
                      : tb.steps.begin() + position;
  tb.steps.insert(at, std::move(step));
  renumber(tb);
}

void swapSteps(Program& program, int rank, int tbId, int a, int b)
{
  ThreadBlock& tb = threadblockAt(program, rank, tbId);
  std::swap(tb.steps.at(static_cast<std::size_t>(a)), tb.steps.at(static_cast<std::size_t>(b)));
  renumber(tb);
}

void renumberSteps(Program& program)
{
  for (Gpu& gpu : program.gpus) {
    for (ThreadBlock& tb : gpu.threadblocks)
      renumber(tb);
  }
}

} // namespace cs::test
