#pragma once

// The NCCL executor (DESIGN.md §5): one rank per GPU (two or more GPUs), one host thread per
// rank, communicators from ncclCommInitAll. The program is turned into rounds (ncclrounds.h):
// per round each rank posts one group of ncclSend/ncclRecv and then one kernel with the round's
// local copies and reductions. There is no slicing loop: a step moves its cnt chunks as one
// message. Every run verifies against the host reference like the other executors, and NCCL's
// own collective for the same call is measured after the program (ExecResult::libraryCall and
// libraryUs). Programs that deadlock under MSCCL are reported as hung without running; a run that
// stops progressing is aborted by a watchdog. This header includes no CUDA or NCCL header; the
// target it belongs to (cs_exec_nccl) exists only where CUDA and NCCL were found.
//
// Where to start when changing it: ncclexecutor.cpp holds the flow, ncclrounds.cpp the schedule,
// ncclsession.cpp the GPUs and threads.

#include "exec/executor.h"

#include <memory>

namespace cs {

/// A new NCCL executor (runs fail with exec.nccl-devices unless one GPU per rank, and at least
/// two, are visible).
std::unique_ptr<Executor> makeNcclExecutor();

} // namespace cs
