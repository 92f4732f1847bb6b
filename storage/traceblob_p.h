#pragma once

// The stored form of a Trace: compact JSON (events and links as arrays, not objects) compressed
// with zlib. Versioned twice: the traces.format column says how the blob is encoded, and the
// JSON carries "format" and "version" so a blob stays self-describing when exported.
//
// Format 1: zlib(deflate) of {"format":"collective-studio-trace","version":1,"source","device",
//   "ranks","bytes","totalUs","events":[[rank,tb,step,slice,op,peer,recvPeer,channel,bytes,
//   start,end,[links…]],…],"links":[[link,bytesAtoB,bytesBtoA,[[t,u],…]],…]}; op is the XML
//   spelling. Optional "verification": the run's verification as a Chrome trace's
//   otherData.verification (io/chrometrace.h writeTraceVerification()).

#include "model/trace.h"
#include "result.h"

#include <cstdint>
#include <span>
#include <vector>

namespace cs::storage {

inline constexpr int kTraceFormat = 1;

struct EncodedTrace {
  int format = kTraceFormat;
  std::int64_t rawSize = 0; ///< bytes of the JSON before compression
  std::vector<std::uint8_t> data;
};

/// Serialises and compresses; fails only when zlib does.
Result<EncodedTrace> encodeTrace(const Trace& trace);
/// Decompresses and parses; bad or foreign data gives an Invalid error, never a crash.
Result<Trace> decodeTrace(int format, std::int64_t rawSize, std::span<const std::uint8_t> data);

} // namespace cs::storage
