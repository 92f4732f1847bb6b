#pragma once

// Programs built in code for the semantic pass's tests (tst_semantics, tst_postconditions): each
// differs from a correct one by one edit, and the helpers that run the pass and pick its findings.

#include "check/passes_p.h"
#include "support/corpus.h"
#include "support/mutate.h"

#include <QString>

#include <string>
#include <vector>

namespace cs::test::semantic {

using test::makeStep;

inline Step send(Buffer buffer, int index)
{
  return makeStep(OpType::Send, buffer, index, buffer, index);
}

inline Step recv(Buffer buffer, int index, bool hasdep = false)
{
  return makeStep(OpType::Recv, buffer, index, buffer, index, 1, -1, -1, hasdep);
}

inline Program makeProgram(Collective collective, const char* spelling, int ranks, int chunks,
                           bool inplace, bool outofplace)
{
  Program program = programOfRanks(ranks, {chunks, chunks, chunks});
  program.name = "test";
  program.nchannels = 1;
  program.nchunksperloop = chunks;
  program.collective = collective;
  program.collSpelling = spelling;
  program.inplace = inplace;
  program.outofplace = outofplace;
  return program;
}

inline ThreadBlock& addTb(Program& program, int rank, int sendPeer, int recvPeer, int chan = 0)
{
  return appendThreadblock(program, rank, sendPeer, recvPeer, chan);
}

inline void add(ThreadBlock& tb, Step step)
{
  step.s = static_cast<int>(tb.steps.size());
  step.line = 100 * (tb.id + 1) + step.s; // distinct, recognisable lines
  tb.steps.push_back(step);
}

/// A two-rank out-of-place all-reduce of one chunk: tb 0 exchanges i[0] with the peer into s[0]
/// (publishing step 1); tb 1 copies i[0] to o[0] and, after tb 0's step 1, adds s[0].
inline Program exchangeAllReduce()
{
  Program program = makeProgram(Collective::AllReduce, "allreduce", 2, 1, false, true);
  for (int r = 0; r < 2; ++r) {
    ThreadBlock& net = addTb(program, r, 1 - r, 1 - r);
    add(net, send(Buffer::Input, 0));
    add(net, recv(Buffer::Scratch, 0, true));
    ThreadBlock& local = addTb(program, r, -1, -1);
    add(local, makeStep(OpType::Copy, Buffer::Input, 0, Buffer::Output, 0));
    add(local, makeStep(OpType::Reduce, Buffer::Scratch, 0, Buffer::Output, 0, 1, 0, 1));
  }
  return program;
}

/// Broadcast of one chunk from rank 0 along 0 → 1 → 2, out of place.
inline Program chainBroadcast()
{
  Program program = makeProgram(Collective::Broadcast, "broadcast", 3, 1, false, true);
  ThreadBlock& root = addTb(program, 0, 1, -1);
  add(root, send(Buffer::Input, 0));
  ThreadBlock& copy = addTb(program, 0, -1, -1);
  add(copy, makeStep(OpType::Copy, Buffer::Input, 0, Buffer::Output, 0));
  ThreadBlock& middle = addTb(program, 1, 2, 0);
  add(middle, makeStep(OpType::RecvCopySend, Buffer::Output, 0, Buffer::Output, 0));
  ThreadBlock& last = addTb(program, 2, -1, 1);
  add(last, recv(Buffer::Output, 0));
  return program;
}

inline Diagnostics runSemantics(const Program& program, CheckOptions options = {})
{
  Diagnostics out;
  passes::checkSemantics(program, options, out);
  return out;
}

inline std::vector<Diagnostic> withCode(const Diagnostics& diagnostics, const char* code)
{
  std::vector<Diagnostic> found;
  for (const Diagnostic& d : diagnostics.items()) {
    if (d.code == code)
      found.push_back(d);
  }
  return found;
}

inline QString dump(const Diagnostics& diagnostics)
{
  return test::describeDiagnostics(diagnostics.items());
}

inline bool sameStep(const Location& location, int rank, int tb, int step)
{
  return location.rank == rank && location.tb == tb && location.step == step;
}

} // namespace cs::test::semantic
