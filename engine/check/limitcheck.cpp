#include "passes_p.h"

#include "staticcheckutil_p.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

namespace cs::passes {

namespace {

constexpr int kClassicNameLength = 63; // the classic runtime keeps name in a char[64]
constexpr int kMinOffset = -32768;     // offsets are stored as int16 (msccl-format §5)

// Attributes on <algo> as the runtime's parser counts them: required ones, the optional ones
// the file has, and the ones the model keeps verbatim.
int algoAttributeCount(const Program& program)
{
  int count = 6; // proto, nchannels, nchunksperloop, ngpus, coll, inplace
  count += program.name.empty() ? 0 : 1;
  count += program.outofplace ? 1 : 0;
  count += program.minBytes ? 1 : 0;
  count += program.maxBytes ? 1 : 0;
  count += program.nthreads ? 1 : 0;
  count += static_cast<int>(program.extraAttributes.size());
  return count;
}

void checkAlgoLimits(const Program& program, const Dialect& dialect, Reporter& report)
{
  if (program.nchannels > dialect.maxChannels) {
    report.error("limit.channels", algoLocation(program, "nchannels"), [&] {
      return cat("nchannels=", program.nchannels, " but ", dialect.title, " supports at most ",
                 dialect.maxChannels,
                 " channels; it fails or skips the algorithm "
                 "(msccl-format §2.1, pitfall P4)");
    });
  }

  const int attributes = algoAttributeCount(program);
  if (attributes > dialect.maxAttributes) {
    report.error("limit.attributes", algoLocation(program), [&] {
      return cat("<algo> has ", attributes, " attributes but ", dialect.title,
                 "'s XML parser keeps only the first ", dialect.maxAttributes,
                 " and silently ignores the other ", attributes - dialect.maxAttributes,
                 ", which may drop a required one (msccl-format §1)");
    });
  }

  if (dialect.id == DialectId::Classic &&
      program.name.size() > static_cast<std::size_t>(kClassicNameLength)) {
    report.warning("limit.name-length", algoLocation(program, "name"), [&] {
      return cat("name is ", program.name.size(), " characters long; ", dialect.title,
                 " keeps only the first ", kClassicNameLength, " (msccl-format §2.1)");
    });
  }
}

// The classic runtime's thread-count rules (microsoft/msccl topo.cc, mscclGetAlgoFromXmlFile; and
// enqueue.cc, getAlgoInfo): it refuses a file whose nthreads is not a multiple of WARP_SIZE (C's
// remainder, so -40 is refused and -64 is not); it ignores a value <= 0; it caps a larger one at
// its own thread limit for the protocol (NCCL 2.12: 512 threads for Simple and LL, 640 for LL128).
constexpr int kWarpSize = 32;

int classicThreadLimit(Protocol protocol)
{
  return protocol == Protocol::LL128 ? 640 : 512;
}

// limit.size-bounds: the classic loader's checks on the size bounds, in its order (topo.cc,
// mscclGetAlgoFromXmlFile): minBytes > maxBytes first, with maxBytes absent read as 128 MiB, then
// a negative minBytes. A negative maxBytes with minBytes <= maxBytes implies a negative minBytes,
// so the loader's third check ("maxBytes cannot be negative") never decides alone.
void checkClassicSizeBounds(const Program& program, const Dialect& dialect, Reporter& report)
{
  const std::int64_t minBytes = program.minBytes.value_or(0);
  const std::int64_t maxBytes = program.maxBytes.value_or(dialect.defaultMaxBytes);
  const auto refuse = [&](std::string_view attribute, const std::string& why,
                          std::string_view loaderText) {
    report.error("limit.size-bounds", algoLocation(program, attribute), [&] {
      return cat(why, ": ", dialect.title, " refuses the file (\"MSCCL: ", loaderText,
                 "\") and runs NCCL's own algorithms instead");
    });
  };
  if (minBytes > maxBytes) {
    refuse("minBytes",
           cat("minBytes=", minBytes, " is above maxBytes=", maxBytes,
               program.maxBytes ? "" : " (maxBytes is absent: the classic default)"),
           "minBytes cannot be greater than maxBytes.");
  } else if (minBytes < 0) {
    refuse("minBytes", cat("minBytes=", minBytes, " is negative"), "minBytes cannot be negative.");
  }
}

// limit.nthreads, limit.size-bounds: <algo> values the classic loader refuses or reads otherwise.
void checkClassicAlgoValues(const Program& program, const Dialect& dialect, Reporter& report)
{
  if (dialect.id != DialectId::Classic)
    return;
  if (const std::optional<int> threads = program.nthreads) {
    if (*threads % kWarpSize != 0) {
      report.error("limit.nthreads", algoLocation(program, "nthreads"), [&] {
        return cat("nthreads=", *threads, " is not a multiple of ", kWarpSize, ": ", dialect.title,
                   " refuses the file (\"MSCCL nthreads must be a multiplication of 32\") and "
                   "runs NCCL's own algorithms instead");
      });
    } else if (*threads < 0) {
      report.warning("limit.nthreads", algoLocation(program, "nthreads"), [&] {
        return cat("nthreads=", *threads, " is negative: ", dialect.title,
                   " ignores it and launches its default number of threads; write a positive "
                   "multiple of 32 or leave nthreads out");
      });
    } else if (*threads > classicThreadLimit(program.proto)) {
      report.warning("limit.nthreads", algoLocation(program, "nthreads"), [&] {
        return cat("nthreads=", *threads, " is above the ", classicThreadLimit(program.proto),
                   " threads ", dialect.title, " launches for the ", protocolName(program.proto),
                   " protocol: it caps the block at ", classicThreadLimit(program.proto),
                   " threads");
      });
    }
  }
  checkClassicSizeBounds(program, dialect, report);
}

// limit.chunks-per-loop: the classic parser's consistency rule (msccl-format §2.2).
void checkChunkConsistency(const Program& program, const Dialect& dialect, const Gpu& gpu,
                           Reporter& report)
{
  if (!dialect.checksChunkConsistency)
    return;
  const long long multIn = program.collective == Collective::AllGather ? program.ngpus : 1;
  const long long multOut = program.collective == Collective::ReduceScatter ? program.ngpus : 1;
  auto check = [&](int chunks, long long mult, std::string_view attribute) {
    if (chunks <= 0 || mult < 1 || chunks * mult == program.nchunksperloop)
      return;
    report.error("limit.chunks-per-loop", gpuLocation(gpu, attribute), [&] {
      const std::string expected =
          mult == 1 ? cat("nchunksperloop=", program.nchunksperloop)
          : program.nchunksperloop % mult == 0
              ? cat("nchunksperloop / ngpus = ", program.nchunksperloop / mult)
              : cat("nchunksperloop / ngpus (", program.nchunksperloop, " / ", mult,
                    ", not a whole number)");
      return cat("Inconsistency between i_chunks/o_chunks and nchunksperloop: rank ", gpu.id,
                 " has ", attribute, "=", chunks, " but ", dialect.title, " requires ", attribute,
                 " to be 0 or ", expected, " for the ", collectiveTitle(program.collective),
                 " collective and rejects the file "
                 "(msccl-format §2.2)");
    });
  };
  check(gpu.inputChunks, multIn, "i_chunks");
  check(gpu.outputChunks, multOut, "o_chunks");
}

// limit.peers-per-channel: MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL (msccl-format §4.5).
void checkPeersPerChannel(const Gpu& gpu, const Dialect& dialect, Reporter& report,
                          std::vector<std::pair<int, int>>& scratch)
{
  for (const bool sending : {true, false}) {
    scratch.clear();
    for (const ThreadBlock& tb : gpu.threadblocks) {
      const int peer = sending ? tb.send : tb.recv;
      if (peer >= 0)
        scratch.emplace_back(tb.chan, peer);
    }
    std::sort(scratch.begin(), scratch.end());
    scratch.erase(std::unique(scratch.begin(), scratch.end()), scratch.end());
    for (std::size_t k = 0; k < scratch.size();) {
      std::size_t end = k;
      while (end < scratch.size() && scratch[end].first == scratch[k].first)
        ++end;
      const int peers = static_cast<int>(end - k);
      const int chan = scratch[k].first;
      if (peers > dialect.maxPeersPerChannel) {
        report.error("limit.peers-per-channel", gpuLocation(gpu), [&] {
          return cat("rank ", gpu.id, " ", sending ? "sends to " : "receives from ", peers,
                     " distinct peers on channel ", chan, " but ", dialect.title,
                     " supports at most ", dialect.maxPeersPerChannel, " ",
                     sending ? "send" : "receive",
                     " peers per channel (msccl-format §4.5); spread them over more channels");
        });
      }
      k = end;
    }
  }
}

void checkStepLimits(const Dialect& dialect, const Gpu& gpu, const ThreadBlock& tb,
                     Reporter& report)
{
  const int steps = static_cast<int>(tb.steps.size());
  if (steps > dialect.maxStepsPerThreadblock) {
    report.error("limit.steps-per-tb", stepLocation(gpu, tb, dialect.maxStepsPerThreadblock), [&] {
      return cat(tbName(gpu, tb), " has ", steps, " steps but ", dialect.title, " allows at most ",
                 dialect.maxStepsPerThreadblock,
                 " per threadblock (MSCCL_MAX_NUM_STEPS, msccl-format §5, pitfall "
                 "P5); split the work over more threadblocks");
    });
  }
  for (int position = 0; position < steps; ++position) {
    const Step& step = tb.steps[static_cast<std::size_t>(position)];
    for (const bool source : {true, false}) {
      const int offset = source ? step.srcOff : step.dstOff;
      if (offset >= kMinOffset && offset <= dialect.maxOffset)
        continue;
      report.error("limit.offset", stepLocation(gpu, tb, position, source ? "srcoff" : "dstoff"),
                   [&] {
                     return cat(stepName(gpu, tb, position), " has ",
                                source ? "srcoff=" : "dstoff=", offset, " but ", dialect.title,
                                " stores offsets as 16-bit integers (at most ", dialect.maxOffset,
                                ", msccl-format §5); use fewer, larger "
                                "chunks");
                   });
    }
  }
}

} // namespace

void checkLimits(const Program& program, const Dialect& dialect, Diagnostics& out)
{
  Reporter report(out);
  checkAlgoLimits(program, dialect, report);
  checkClassicAlgoValues(program, dialect, report);
  std::vector<std::pair<int, int>> scratch;
  for (const Gpu& gpu : program.gpus) {
    const int tbs = static_cast<int>(gpu.threadblocks.size());
    if (tbs > dialect.maxThreadblocksPerRank) {
      report.error("limit.tbs-per-rank", gpuLocation(gpu), [&] {
        return cat("rank ", gpu.id, " has ", tbs, " threadblocks but ", dialect.title,
                   " allows at most ", dialect.maxThreadblocksPerRank,
                   " per rank (msccl-format §5, pitfall P5)");
      });
    }
    checkChunkConsistency(program, dialect, gpu, report);
    checkPeersPerChannel(gpu, dialect, report, scratch);
    for (const ThreadBlock& tb : gpu.threadblocks)
      checkStepLimits(dialect, gpu, tb, report);
  }
}

} // namespace cs::passes
