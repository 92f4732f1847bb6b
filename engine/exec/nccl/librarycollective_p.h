#pragma once

// NCCL's own collective for the call a program implements (ExecResult::libraryCall): same count,
// data type, reduction and call mode, measured in the same run as the program. Custom and other
// collectives NCCL has no call for get none.

#include "exec/executor.h"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstdint>
#include <optional>
#include <string>

namespace cs::nccl {

struct LibraryCall {
  std::string name; ///< "ncclAllReduce", for people and ExecResult::libraryCall
  Collective collective = Collective::AllReduce;
  bool inPlace = false;   ///< all-to-all always runs out of place (NCCL has no in-place one)
  std::int64_t count = 0; ///< elements per rank of the API call (RunPlan::count)
  std::int64_t sendElements = 0;
  std::int64_t recvElements = 0;
  int root = 0; ///< broadcast and reduce
};

/// The call for `collective` on `ranks` ranks, or nullopt when NCCL has none.
std::optional<LibraryCall> libraryCallFor(Collective collective, CallMode mode, int ranks,
                                          std::int64_t count, int root);

/// Elements one allocation must hold on each rank (in place: the larger side; out of place:
/// each side gets its own allocation of sendElements and recvElements).
std::int64_t libraryAllocationElements(const LibraryCall& call);

/// Where a rank's send and receive sides lie, given its allocations (`recvBase` is ignored in
/// place: both sides lie in `sendBase`).
struct LibraryBuffers {
  const void* send = nullptr;
  void* recv = nullptr;
};
LibraryBuffers libraryBuffers(const LibraryCall& call, void* sendBase, void* recvBase, int rank,
                              int elementSize);

ncclDataType_t ncclTypeOf(DataType type);
ncclRedOp_t ncclOpOf(ReduceOp op);

/// Posts one rank's part of the call on `stream`; all-to-all is a group of ncclSend/ncclRecv
/// to every rank, itself included, like nccl-tests.
ncclResult_t postLibraryCall(const LibraryCall& call, const LibraryBuffers& buffers, int ranks,
                             int elementSize, DataType type, ReduceOp op, ncclComm_t comm,
                             cudaStream_t stream);

} // namespace cs::nccl
