#include "buffergeometry.h"

namespace cs {

std::string_view callModeName(CallMode mode)
{
  return mode == CallMode::InPlace ? "in-place" : "out-of-place";
}

std::vector<CallMode> declaredModes(const Program& program)
{
  std::vector<CallMode> modes;
  if (program.usableInPlace())
    modes.push_back(CallMode::InPlace);
  if (program.usableOutOfPlace())
    modes.push_back(CallMode::OutOfPlace);
  return modes;
}

int sizeMultiplier(Collective collective, int ngpus)
{
  switch (collective) {
  case Collective::AllGather:
  case Collective::ReduceScatter:
  case Collective::AllToAll:
    return ngpus;
  default:
    return 1;
  }
}

std::optional<int> userBufferChunks(const Program& program, Buffer buffer)
{
  if (buffer == Buffer::Scratch || program.ngpus <= 0)
    return std::nullopt;
  const int whole = program.nchunksperloop;
  const int share = whole / program.ngpus;
  switch (program.collective) {
  case Collective::AllReduce:
  case Collective::AllToAll:
  case Collective::Broadcast:
  case Collective::Reduce:
    return whole;
  case Collective::AllGather:
    return buffer == Buffer::Input ? share : whole;
  case Collective::ReduceScatter:
    return buffer == Buffer::Output ? share : whole;
  default:
    return std::nullopt;
  }
}

MemorySlot memorySlot(const Program& program, int rank, Buffer buffer, int index, CallMode mode)
{
  const int share = program.ngpus > 0 ? program.nchunksperloop / program.ngpus : 0;
  return aliasedSlot(program.collective, share, rank, buffer, index, mode);
}

MemorySlot aliasedSlot(Collective collective, int share, int rank, Buffer buffer, int index,
                       CallMode mode)
{
  if (mode == CallMode::OutOfPlace || buffer == Buffer::Scratch)
    return {buffer, index};
  switch (collective) {
  case Collective::AllGather:
    if (buffer == Buffer::Input)
      return {Buffer::Output, rank * share + index};
    return {Buffer::Output, index};
  case Collective::ReduceScatter:
    if (buffer == Buffer::Output)
      return {Buffer::Input, rank * share + index};
    return {Buffer::Input, index};
  default:
    return {Buffer::Input, index};
  }
}

} // namespace cs
