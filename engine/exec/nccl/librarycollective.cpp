#include "librarycollective_p.h"

#include <algorithm>

namespace cs::nccl {

namespace {

const void* offsetBy(const void* base, std::int64_t elements, int elementSize)
{
  return static_cast<const std::byte*>(base) + elements * elementSize;
}

void* offsetBy(void* base, std::int64_t elements, int elementSize)
{
  return static_cast<std::byte*>(base) + elements * elementSize;
}

} // namespace

std::optional<LibraryCall> libraryCallFor(Collective collective, CallMode mode, int ranks,
                                          std::int64_t count, int root)
{
  LibraryCall call;
  call.collective = collective;
  call.inPlace = mode == CallMode::InPlace;
  call.count = count;
  call.sendElements = count;
  call.recvElements = count;
  switch (collective) {
  case Collective::AllReduce:
    call.name = "ncclAllReduce";
    break;
  case Collective::AllGather:
    call.name = "ncclAllGather";
    call.recvElements = count * ranks;
    break;
  case Collective::ReduceScatter:
    call.name = "ncclReduceScatter";
    call.sendElements = count * ranks;
    break;
  case Collective::AllToAll:
    call.name = "ncclSend/ncclRecv all-to-all";
    call.inPlace = false;
    call.sendElements = count * ranks;
    call.recvElements = count * ranks;
    break;
  case Collective::Broadcast:
    call.name = "ncclBroadcast";
    call.root = root;
    break;
  case Collective::Reduce:
    call.name = "ncclReduce";
    call.root = root;
    break;
  default:
    return std::nullopt;
  }
  return call;
}

std::int64_t libraryAllocationElements(const LibraryCall& call)
{
  return std::max(call.sendElements, call.recvElements);
}

LibraryBuffers libraryBuffers(const LibraryCall& call, void* sendBase, void* recvBase, int rank,
                              int elementSize)
{
  if (!call.inPlace)
    return {sendBase, recvBase};
  // NCCL recognises in-place calls by these exact pointers (its in-place rules for all-gather
  // and reduce-scatter are msccl-format.md §4.1's).
  if (call.collective == Collective::AllGather)
    return {offsetBy(sendBase, call.count * rank, elementSize), sendBase};
  if (call.collective == Collective::ReduceScatter)
    return {sendBase, offsetBy(sendBase, call.count * rank, elementSize)};
  return {sendBase, sendBase};
}

ncclDataType_t ncclTypeOf(DataType type)
{
  switch (type) {
  case DataType::F32:
    return ncclFloat32;
  case DataType::F16:
    return ncclFloat16;
  case DataType::BF16:
    return ncclBfloat16;
  case DataType::F64:
    return ncclFloat64;
  case DataType::I32:
    return ncclInt32;
  case DataType::U8:
    return ncclUint8;
  }
  return ncclFloat32;
}

ncclRedOp_t ncclOpOf(ReduceOp op)
{
  switch (op) {
  case ReduceOp::Sum:
    return ncclSum;
  case ReduceOp::Prod:
    return ncclProd;
  case ReduceOp::Min:
    return ncclMin;
  case ReduceOp::Max:
    return ncclMax;
  }
  return ncclSum;
}

ncclResult_t postLibraryCall(const LibraryCall& call, const LibraryBuffers& buffers, int ranks,
                             int elementSize, DataType type, ReduceOp op, ncclComm_t comm,
                             cudaStream_t stream)
{
  const ncclDataType_t nt = ncclTypeOf(type);
  const ncclRedOp_t no = ncclOpOf(op);
  const auto count = static_cast<std::size_t>(call.count);
  switch (call.collective) {
  case Collective::AllReduce:
    return ncclAllReduce(buffers.send, buffers.recv, count, nt, no, comm, stream);
  case Collective::AllGather:
    return ncclAllGather(buffers.send, buffers.recv, count, nt, comm, stream);
  case Collective::ReduceScatter:
    return ncclReduceScatter(buffers.send, buffers.recv, count, nt, no, comm, stream);
  case Collective::Broadcast:
    return ncclBroadcast(buffers.send, buffers.recv, count, nt, call.root, comm, stream);
  case Collective::Reduce:
    return ncclReduce(buffers.send, buffers.recv, count, nt, no, call.root, comm, stream);
  case Collective::AllToAll: {
    ncclResult_t result = ncclGroupStart();
    if (result != ncclSuccess)
      return result;
    for (int peer = 0; peer < ranks && result == ncclSuccess; ++peer) {
      const std::int64_t at = call.count * peer;
      result = ncclSend(offsetBy(buffers.send, at, elementSize), count, nt, peer, comm, stream);
      if (result == ncclSuccess)
        result = ncclRecv(offsetBy(buffers.recv, at, elementSize), count, nt, peer, comm, stream);
    }
    // The group is closed even after a failed call, or this thread's next group would nest.
    const ncclResult_t ended = ncclGroupEnd();
    return result != ncclSuccess ? result : ended;
  }
  default:
    break;
  }
  return ncclInvalidUsage;
}

} // namespace cs::nccl
