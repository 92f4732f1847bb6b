#pragma once

// What a benchmark sweep runs and what each of its points measured. A sweep runs the program at
// sizes MIN, 2·MIN, … MAX (nccl-tests' -b/-e/-f 2) on each chosen backend in turn; every point
// is one RunRequest (run/runjob.h), so a point runs, is judged and is stored exactly like a run
// from the Run panel. A point becomes one row per series: the backend's own ("ring v3 · cpu",
// "ring v3 · simulated") and, where the NCCL backend also timed NCCL's own collective, one of
// that call ("ncclAllReduce").

#include "run/runjob.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace cs::visualizer {

/// A sweep: one program, several backends, sizes doubling from minBytes to maxBytes.
struct SweepRequest {
  QString label; ///< the algorithm in series names: "ring v3", "ring-allreduce"
  Program program;
  std::optional<Topology> topology; ///< the simulator's machine (required for "simulate")
  QStringList backends;             ///< "simulate", "cpu", "cuda", "nccl", run in this order
  std::int64_t minBytes = 1 << 10;
  std::int64_t maxBytes = 1 << 20;
  ExecOptions options; ///< dtype, op, mode, iterations, warmup, timeout; bytes is per point
};

/// minBytes, 2·minBytes, … up to maxBytes (empty when min is not positive or exceeds max).
std::vector<std::int64_t> sweepSizes(std::int64_t minBytes, std::int64_t maxBytes);

/// One point of the plan: a backend at a size.
struct SweepPlanPoint {
  QString backend;
  std::int64_t bytes = 0;
};
/// Every point in run order: each backend in turn over every size.
std::vector<SweepPlanPoint> sweepPlan(const SweepRequest& request);
/// The run of one point.
RunRequest pointRequest(const SweepRequest& request, const SweepPlanPoint& point);
/// "cpu 4 MiB", "simulate 1 KiB": the point in progress, for people.
QString pointLabel(const SweepPlanPoint& point);

/// Which curve a point belongs to.
enum class SweepKind : std::uint8_t {
  Measured,  ///< an executor's run of the program
  Simulated, ///< the simulator's prediction
  Library,   ///< the communication library's own collective (NCCL), timed in the same run
};

/// One row of the results: a series at a size.
struct SweepPoint {
  QString series;  ///< "ring v3 · cpu", "ring v3 · simulated", "ncclAllReduce"
  QString backend; ///< as stored: "cpu", "simulator", "nccl"
  SweepKind kind = SweepKind::Measured;
  std::int64_t bytes = 0;
  std::int64_t count = 0; ///< elements per rank of the API call, as nccl-tests prints it
  QString dtype;          ///< "float"
  QString op;             ///< "sum"
  double timeUs = 0;      ///< per iteration; 0 when nothing was timed (failed, hung)
  double algbwGBps = 0;
  double busbwGBps = 0;
  std::optional<std::int64_t> wrong; ///< nccl-tests' #wrong; absent where nothing is verified
  QString verdict;                   ///< "verified", "2 wrong of 4096", "hung: …", "simulated"

  /// Whether the point has a time to draw.
  bool timed() const { return timeUs > 0; }
};

/// The rows of one finished point: its backend's, then NCCL's own call where it was timed.
std::vector<SweepPoint> sweepPoints(const SweepRequest& request, const RunRequest& run,
                                    const RunOutcome& outcome);

} // namespace cs::visualizer
