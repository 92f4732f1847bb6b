#pragma once

// Buffer geometry of msccl-format.md §4.1: how many chunks each user buffer really holds, and
// which memory `i` and `o` share when a collective is called in place. Every semantic check, the
// executors and the timeline use this one definition of aliasing.

#include "program.h"

#include <optional>

namespace cs {

/// How the collective is called: with distinct send and receive buffers, or in place.
enum class CallMode : std::uint8_t { OutOfPlace, InPlace };
std::string_view callModeName(CallMode mode); ///< "out-of-place" or "in-place"

/// The modes an algorithm declares it supports (`inplace`, `outofplace`), in-place first.
std::vector<CallMode> declaredModes(const Program& program);

/// `mult` of §4.1: ngpus for all-gather, reduce-scatter and all-to-all, else 1. The runtime
/// handles count × mult elements, split into nchunksperloop chunks.
int sizeMultiplier(Collective collective, int ngpus);

/// How many chunks the user's buffer really holds on a rank: nchunksperloop for the "big" side of
/// a collective, nchunksperloop / ngpus for the small side (all-gather input, reduce-scatter
/// output). nullopt when the collective's shape is unknown (custom and friends) or for scratch,
/// whose size the runtime derives from s_chunks.
std::optional<int> userBufferChunks(const Program& program, Buffer buffer);

/// A chunk of real memory on one rank after aliasing: which allocation and which chunk in it.
/// In place, `o` (or the all-gather `i`) is folded onto the other buffer.
struct MemorySlot {
  Buffer memory = Buffer::Input; ///< the allocation the chunk lives in
  int index = 0;
  bool operator==(const MemorySlot&) const = default;
};

/// Maps (buffer, chunk) on `rank` to the memory it occupies in `mode`:
/// - out of place: every buffer is its own allocation;
/// - in place, all-gather: i[k] is o[rank·K + k] (K = nchunksperloop / ngpus);
/// - in place, reduce-scatter: o[k] is i[rank·K + k];
/// - in place, everything else: o is i.
MemorySlot memorySlot(const Program& program, int rank, Buffer buffer, int index, CallMode mode);

/// memorySlot()'s rules for callers without a Program (Schedules): `share` is
/// K = nchunksperloop / ngpus.
MemorySlot aliasedSlot(Collective collective, int share, int rank, Buffer buffer, int index,
                       CallMode mode);

} // namespace cs
