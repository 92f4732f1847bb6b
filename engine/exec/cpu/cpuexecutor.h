#pragma once

// The CPU reference executor (DESIGN.md §5): one thread per (rank, threadblock) on real data,
// connections with a bounded number of message slots, dependency flags published only by hasdep
// steps, the runtime's slicing loop, and a watchdog that stops a run in which nothing progresses
// and names every blocked (rank, tb, step). It is slow next to a GPU but has the runtime's
// semantics, so what verifies here verifies on a cluster (given the same slots and slicing).
//
// Files: runplan (geometry, validation), connection + waiting (bounded FIFOs, abortable waits),
// interpreter (the per-threadblock loop), kernels + elementtypes (typed element loops),
// reference (inputs and the host reference), watchdog; this class ties them together.

#include "../executor.h"

namespace cs {

class CpuExecutor final : public Executor
{
public:
  std::string_view name() const override { return "cpu"; }
  ExecResult run(const Program& program, const ExecOptions& options) override;

private:
  ExecResult runChecked(const Program& program, const ExecOptions& options);
};

} // namespace cs
