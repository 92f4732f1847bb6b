#pragma once

// How a protocol turns link bandwidth into payload bandwidth and adds latency, and how the
// runtime slices chunks (msccl-format.md §4.2). Defaults, per protocol:
//
// - efficiency: the fraction of link bandwidth carrying payload. LL sends 8-byte lines of 4 data
//   bytes and a 4-byte flag: 0.5. LL128 sends 128-byte lines of 120 data bytes and an 8-byte
//   flag: 120/128. Simple moves raw data: 1.
// - latencyUs: fixed cost per message on top of the links' own latency. NCCL's tuning model
//   (src/graph/tuning.cc, hwLat for NVLink, ring) charges 0.6 µs for LL, 1.9 µs for LL128 and
//   3.4 µs for Simple per hop; these are taken as they are.
// - sliceBytes: the payload one iteration of the slicing loop moves per chunk. NCCL's default
//   buffers are 4 MiB (Simple), 512 KiB of LL lines and ~4.7 MB of LL128 lines, split into
//   NCCL_STEPS = 8 FIFO steps; MSCCL's Simple loop takes MSCCL_CHUNKSTEPS = 4 steps per
//   iteration (512 KiB × 4 = 2 MiB), LL and LL128 one step of payload (32 KiB, 576000 bytes).

#include "model/program.h"

#include <cstdint>

namespace cs {

struct ProtocolParams {
  double efficiency = 1;       ///< payload fraction of link bandwidth, in (0, 1]
  double latencyUs = 0;        ///< added to every message
  std::int64_t sliceBytes = 0; ///< payload per chunk and loop iteration; 0: one slice per chunk
};

/// The defaults above for `protocol`.
ProtocolParams defaultProtocolParams(Protocol protocol);

} // namespace cs
