#pragma once

// The three runtime generations that load MSCCL XML (msccl-format.md §1, §2 and §5). They share
// the file format but differ in which attributes are required, how `coll` is spelled, what
// `maxBytes="0"` means and in their limits. Everything dialect-specific lives in this table so
// that the checker, the writer and the GUI's export dialog agree.

#include "program.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace cs {

enum class DialectId : std::uint8_t {
  Classic,  ///< microsoft/msccl master (NCCL 2.12 based), reads MSCCL_XML_FILES
  Executor, ///< Azure/msccl-executor-nccl, reads MSCCL_ALGO_DIR
  Rccl,     ///< ROCm/rccl's port of the executor: same parser, other limits
};

/// One runtime generation's rules.
struct Dialect {
  DialectId id;
  std::string_view key;   ///< command-line spelling: "classic", "executor", "rccl"
  std::string_view title; ///< for messages: "the classic microsoft/msccl runtime"

  int maxStepsPerThreadblock; ///< bound on `s` + 1 (MSCCL_MAX_NUM_STEPS)
  int maxThreadblocksPerRank;
  int maxChannels;
  int maxPeersPerChannel = 32; ///< distinct send (and recv) peers per channel
  int maxCount = 71;           ///< cnt must be < 72 (MSCCL_MAX_COUNT)
  int maxReduceFusion = 16;    ///< sources of one fused chain of `re`
  int maxOffset = 32767;       ///< offsets are stored as int16
  int maxAttributes = 16;      ///< the runtime's XML parser keeps at most 16 per element

  bool requiresName;            ///< `name` on <algo>
  bool requiresSizeBounds;      ///< `minBytes` and `maxBytes` on <algo>
  bool requiresOutOfPlace;      ///< `outofplace` on <algo>
  bool maxBytesZeroIsUnlimited; ///< executor: 0 = no bound; classic: 0 = never selected
  bool maxBytesInclusive;       ///< executor: nBytes <= maxBytes; classic: nBytes < maxBytes
  std::int64_t defaultMaxBytes; ///< bound used when `maxBytes` is absent (classic: 128 MiB)
  bool checksChunkConsistency;  ///< classic rejects i_chunks/o_chunks not matching nchunksperloop
  bool inplaceIsExclusive;      ///< classic: an algorithm serves in-place OR out-of-place calls

  /// The `coll` spelling this runtime accepts for a collective, or nullopt when it has none.
  std::optional<std::string_view> collSpelling(Collective collective) const;
  /// Whether this runtime accepts `spelling` as a `coll` value.
  bool acceptsCollSpelling(std::string_view spelling) const;
  /// The largest call size in bytes (inclusive) that the size rule selects for this `maxBytes`
  /// (absent: the runtime's default): nullopt when unbounded, -1 when no size is (classic "0").
  std::optional<std::int64_t>
  largestSelectedBytes(const std::optional<std::int64_t>& maxBytes) const;
};

const Dialect& dialect(DialectId id);
std::span<const DialectId> allDialects();
std::optional<DialectId> parseDialect(std::string_view key);

/// Which dialect a file was written for: files without `outofplace`, or spelling `coll` as only
/// the classic runtime does (`reduce_scatter`, `custom`), are classic; the rest target the
/// current executor (RCCL files are indistinguishable from executor files).
DialectId detectDialect(const Program& program);

} // namespace cs
