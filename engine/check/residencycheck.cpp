#include "passes_p.h"

#include "staticcheckutil_p.h"

#include "model/residencytext.h"

namespace cs::passes {

// limit.residency: the runtime launches all threadblocks of a rank as one kernel and they
// spin-wait on each other (msccl-format.md §4.5), so every one must be resident at once. A rank
// with more than the GPU keeps resident waits forever for blocks that never start. Figures and
// their sources: engine/model/gpumodel.cpp.

namespace {

/// The rank with the most threadblocks, and how many ranks have more than `limit`.
struct Widest {
  const Gpu* gpu = nullptr;
  int tbs = 0;
  int ranksOver = 0;
};

Widest widestRank(const Program& program, int limit)
{
  Widest widest;
  for (const Gpu& gpu : program.gpus) {
    const int tbs = static_cast<int>(gpu.threadblocks.size());
    if (tbs > limit)
      ++widest.ranksOver;
    if (!widest.gpu || tbs > widest.tbs) {
      widest.gpu = &gpu;
      widest.tbs = tbs;
    }
  }
  return widest;
}

std::string otherRanks(int ranksOver)
{
  if (ranksOver <= 1)
    return {};
  return cat(" (", ranksOver - 1, ranksOver == 2 ? " other rank has" : " other ranks have",
             " too many as well)");
}

void reportOverLimit(const Widest& widest, const GpuModel& model, bool chosen, DialectId id,
                     Reporter& report)
{
  const int limit = residentThreadblocks(model, id);
  report.error("limit.residency", gpuLocation(*widest.gpu), [&] {
    return cat("rank ", widest.gpu->id, " has ", widest.tbs, " threadblocks",
               otherRanks(widest.ranksOver), "; ", residencySubject(model, chosen),
               " keeps at most ", residencyFigure(model, id), kResidencyHang, "; at most ", limit,
               " threadblocks per rank fit: use fewer channels or instances, give one threadblock "
               "both a send and a receive peer, or ",
               kFewerPeers);
  });
}

/// No GPU chosen and the program fits the largest known model but not the smallest: say which
/// models it would hang on.
void reportUnchosen(const Widest& widest, DialectId id, Reporter& report)
{
  const GpuModel& assumed = mostPermissiveGpu(dialectVendor(id));
  std::string hangsOn;
  for (const GpuModel& model : allGpuModels()) {
    if (model.vendor != assumed.vendor || residentThreadblocks(model, id) >= widest.tbs)
      continue;
    hangsOn +=
        cat(hangsOn.empty() ? "" : ", ", model.title, " (", residentThreadblocks(model, id), ")");
  }
  report.info("limit.residency-gpu", gpuLocation(*widest.gpu), [&] {
    return cat("rank ", widest.gpu->id, " has ", widest.tbs,
               " threadblocks: no GPU was chosen, so residency was checked for a ", assumed.title,
               " (", residentThreadblocks(assumed, id), "); the program would hang on ", hangsOn,
               "; choose the GPU with --gpu");
  });
}

} // namespace

void checkResidency(const Program& program, const CheckOptions& options, Diagnostics& out)
{
  if (program.gpus.empty())
    return;
  const DialectId id = options.dialect;
  const bool chosen = options.gpu.has_value();
  const GpuModel& model = chosen ? gpuModel(*options.gpu) : mostPermissiveGpu(dialectVendor(id));
  const int limit = residentThreadblocks(model, id);
  const Widest widest = widestRank(program, limit);
  Reporter report(out);
  if (widest.tbs > limit)
    reportOverLimit(widest, model, chosen, id, report);
  else if (!chosen && widest.tbs > residentThreadblocks(leastPermissiveGpu(dialectVendor(id)), id))
    reportUnchosen(widest, id, report);
}

} // namespace cs::passes
