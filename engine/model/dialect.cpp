#include "dialect.h"

#include <array>
#include <limits>

namespace cs {

namespace {

constexpr std::int64_t kClassicDefaultMaxBytes = std::int64_t{1} << 27;

// Limits from msccl-format.md §5; spellings from §2.1.
const std::array<Dialect, 3> kDialects = {{
    {.id = DialectId::Classic,
     .key = "classic",
     .title = "the classic microsoft/msccl runtime",
     .maxStepsPerThreadblock = 256,
     .maxThreadblocksPerRank = 216,
     .maxChannels = 32,
     .requiresName = true,
     .requiresSizeBounds = false,
     .requiresOutOfPlace = false,
     .maxBytesZeroIsUnlimited = false,
     .maxBytesInclusive = false,
     .defaultMaxBytes = kClassicDefaultMaxBytes,
     .checksChunkConsistency = true,
     .inplaceIsExclusive = true},
    {.id = DialectId::Executor,
     .key = "executor",
     .title = "the msccl-executor-nccl runtime",
     .maxStepsPerThreadblock = 64,
     .maxThreadblocksPerRank = 1024,
     .maxChannels = 32,
     .requiresName = false,
     .requiresSizeBounds = true,
     .requiresOutOfPlace = true,
     .maxBytesZeroIsUnlimited = true,
     .maxBytesInclusive = true,
     .defaultMaxBytes = 0,
     .checksChunkConsistency = false,
     .inplaceIsExclusive = false},
    {.id = DialectId::Rccl,
     .key = "rccl",
     .title = "RCCL's MSCCL runtime",
     .maxStepsPerThreadblock = 64,
     .maxThreadblocksPerRank = 64,
     .maxChannels = 128,
     .requiresName = false,
     .requiresSizeBounds = true,
     .requiresOutOfPlace = true,
     .maxBytesZeroIsUnlimited = true,
     .maxBytesInclusive = true,
     .defaultMaxBytes = 0,
     .checksChunkConsistency = false,
     .inplaceIsExclusive = false},
}};

constexpr std::array<DialectId, 3> kDialectIds = {DialectId::Classic, DialectId::Executor,
                                                  DialectId::Rccl};

} // namespace

std::optional<std::string_view> Dialect::collSpelling(Collective collective) const
{
  const bool classic = id == DialectId::Classic;
  switch (collective) {
  case Collective::AllReduce:
    return "allreduce";
  case Collective::AllGather:
    return "allgather";
  case Collective::ReduceScatter:
    return classic ? "reduce_scatter" : "reducescatter";
  case Collective::AllToAll:
    return "alltoall";
  case Collective::Broadcast:
    return "broadcast";
  case Collective::Reduce:
    return "reduce";
  case Collective::Custom:
    return classic ? std::optional<std::string_view>("custom") : std::nullopt;
  case Collective::Send:
    return classic ? std::nullopt : std::optional<std::string_view>("send");
  case Collective::Recv:
    return classic ? std::nullopt : std::optional<std::string_view>("recv");
  case Collective::Gather:
    return classic ? std::nullopt : std::optional<std::string_view>("gather");
  case Collective::Scatter:
    return classic ? std::nullopt : std::optional<std::string_view>("scatter");
  case Collective::AllToAllV:
    return classic ? std::nullopt : std::optional<std::string_view>("alltoallv");
  }
  return std::nullopt;
}

bool Dialect::acceptsCollSpelling(std::string_view spelling) const
{
  const std::optional<Collective> collective = parseCollective(spelling);
  if (!collective)
    return false;
  const std::optional<std::string_view> own = collSpelling(*collective);
  return own && *own == spelling;
}

std::optional<std::int64_t>
Dialect::largestSelectedBytes(const std::optional<std::int64_t>& maxBytes) const
{
  if (!maxBytes) {
    if (defaultMaxBytes <= 0)
      return std::nullopt;
    return defaultMaxBytes - (maxBytesInclusive ? 0 : 1);
  }
  if (*maxBytes == 0)
    return maxBytesZeroIsUnlimited ? std::nullopt : std::optional<std::int64_t>(-1);
  if (maxBytesInclusive || *maxBytes == std::numeric_limits<std::int64_t>::min())
    return *maxBytes;
  return *maxBytes - 1;
}

const Dialect& dialect(DialectId id)
{
  return kDialects[static_cast<std::size_t>(id)];
}

std::span<const DialectId> allDialects()
{
  return kDialectIds;
}

std::optional<DialectId> parseDialect(std::string_view key)
{
  for (const Dialect& d : kDialects) {
    if (d.key == key)
      return d.id;
  }
  return std::nullopt;
}

DialectId detectDialect(const Program& program)
{
  if (!program.outofplace)
    return DialectId::Classic;
  if (!dialect(DialectId::Executor).acceptsCollSpelling(program.collSpelling) &&
      dialect(DialectId::Classic).acceptsCollSpelling(program.collSpelling))
    return DialectId::Classic;
  return DialectId::Executor;
}

} // namespace cs
