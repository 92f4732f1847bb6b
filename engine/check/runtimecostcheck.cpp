#include "passes_p.h"

#include "staticcheckutil_p.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

namespace cs::passes {

namespace {

// Scratch the classic runtime reserves per rank that is worth a warning: a quarter of a
// 4 GiB-per-rank figure, still more than most jobs expect a collective library to take.
constexpr std::int64_t kLargeScratchBytes = std::int64_t{1} << 30;

// "4.00 GiB": the scale a scratch buffer worth a warning is counted in.
std::string gibibytes(long double bytes)
{
  char text[48];
  std::snprintf(text, sizeof text, "%.2Lf GiB", bytes / static_cast<long double>(1 << 30));
  return text;
}

// limit.scratch-size: the classic runtime sizes the scratch buffer once, when it loads the file,
// for the largest size the algorithm may be selected for: maxBytes × s_chunks / nchunksperloop
// (msccl-format §2.2; init.cc 809-835). The executors grow it per call instead (msccl_setup.cc
// 66-75), so only the classic runtime pays for a large maxBytes up front.
void checkClassicScratch(const Program& program, const Dialect& dialect, Reporter& report)
{
  if (dialect.id != DialectId::Classic || program.nchunksperloop < 1)
    return;
  const std::int64_t maxBytes = program.maxBytes.value_or(dialect.defaultMaxBytes);
  if (maxBytes <= 0 || program.minBytes.value_or(0) > maxBytes)
    return; // never selected or refused: nothing is reserved
  const auto largest =
      std::max_element(program.gpus.begin(), program.gpus.end(), [](const Gpu& a, const Gpu& b) {
        return a.scratchChunks < b.scratchChunks;
      });
  if (largest == program.gpus.end() || largest->scratchChunks <= 0)
    return;
  const long double bytes =
      static_cast<long double>(maxBytes) * largest->scratchChunks / program.nchunksperloop;
  if (bytes < static_cast<long double>(kLargeScratchBytes))
    return;
  report.warning("limit.scratch-size", gpuLocation(*largest, "s_chunks"), [&] {
    return cat(dialect.title,
               " reserves scratch for the largest size it may select the algorithm "
               "for, when it loads the file: maxBytes=",
               maxBytes, program.maxBytes ? "" : " (the default)",
               " × s_chunks=", largest->scratchChunks, " / nchunksperloop=", program.nchunksperloop,
               " = ", gibibytes(bytes), " on rank ", largest->id,
               ". Cap the call sizes it serves with a smaller maxBytes (cstudio export "
               "--dialect classic --max-bytes SIZE)");
  });
}

// limit.protocol: RCCL has LL128 only on the AMD GPUs its build enables it for; elsewhere the
// protocol the file forces is not there to run. The other runtimes build every protocol.
void checkProtocolBuild(const Program& program, const Dialect& dialect, Reporter& report)
{
  if (dialect.id != DialectId::Rccl || program.proto != Protocol::LL128)
    return;
  report.warning("limit.protocol", algoLocation(program, "proto"), [&] {
    return cat("proto=\"LL128\": ", dialect.title,
               " has LL128 only on the GPUs its build enables it for; on other GPUs the "
               "algorithm cannot run with the protocol it forces. "
               "Write proto=\"LL\" or \"Simple\" unless every target GPU has it");
  });
}

} // namespace

void checkRunTimeCosts(const Program& program, const Dialect& dialect, Diagnostics& out)
{
  Reporter report(out);
  checkClassicScratch(program, dialect, report);
  checkProtocolBuild(program, dialect, report);
}

} // namespace cs::passes
