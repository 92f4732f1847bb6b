#pragma once

// A calibration (issue 15, item 3): the simulator's figures fitted to a measured backend. A sweep
// (engine/analysis/calibrationsweep.h) times simple probe programs over a range of sizes; each
// probe is fitted by least squares to time = α + bytes/β: a one-hop copy per link kind of the
// topology (α, β of that kind) and a local copy and a local reduce (their bandwidths). The result
// is a small JSON document, stored in the library or a file, that the simulator applies by
// overriding every link's latency and bandwidth by its kind and the local op bandwidths.
// docs/simulator.md §5 says how the figures are applied and what is simplified.

#include "model/topology.h"
#include "simulator.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cs {

/// A least-squares fit of time = α + bytes/β, weighted to minimise the relative residuals.
struct AlphaBeta {
  double alphaUs = 0;
  double betaGBps = 0;
  double rmsResidualUs = 0;       ///< root mean square of measured − fitted
  double maxRelativeResidual = 0; ///< largest |measured − fitted| / measured
};

/// (bytes, µs) pairs of one probe.
using SweepSamples = std::vector<std::pair<std::int64_t, double>>;

/// Fits `samples`. nullopt with `error` set when the sweep cannot determine both figures: fewer
/// than two distinct positive sizes, a non-positive or non-finite time, or a fit whose time does
/// not grow with size (β not positive). With `heldAlphaUs`, α is that (measured apart, at a size
/// where the time is all latency) and only β is fitted; one size is then enough.
std::optional<AlphaBeta> fitAlphaBeta(const SweepSamples& samples, std::string& error,
                                      std::optional<double> heldAlphaUs = std::nullopt);

/// One measured point of the sweep, with what the fit says of it.
struct CalibrationPoint {
  std::string probe; ///< a link kind name ("nvlink", …), "copy", "reduce" or "host"
  std::int64_t bytes = 0;
  double measuredUs = 0;
  double fittedUs = 0;
};

/// α and β of one link kind, measured over a route of `hops` links (α is split over them).
struct LinkCalibration {
  LinkKind kind = LinkKind::NvLink;
  double alphaUs = 0;  ///< per message over the probed route
  double betaGBps = 0; ///< payload bytes per second of one connection
  int hops = 1;        ///< links of the probed route
  bool operator==(const LinkCalibration&) const = default;
};

struct Calibration {
  std::string backend;  ///< "cpu", …
  std::string host;     ///< the machine measured
  std::string date;     ///< ISO 8601, UTC
  std::string topology; ///< the topology the probes were placed on
  int pairs = 1;        ///< pairs of the CPU host probe at once (the load it measured)
  std::vector<LinkCalibration> links;
  double copyGBps = 0;   ///< local cpy; 0: not measured
  double reduceGBps = 0; ///< local re; 0: not measured
  /// Ranks that share one host (the CPU executor's threads): the payload the host probe's pairs
  /// moved per second together (pairs × their β), which every transfer and local op shares in
  /// the simulation, counted in copy passes (SimOptions::hostGBps). 0: the ranks do not share
  /// one (GPUs).
  double hostGBps = 0;
  /// The reduction inside rrs / rrc / rrcs, on top of the transfer (SimOptions::fusedReduceGBps).
  /// 0: free, as on a GPU. A CPU sweep derives it from the two local probes: the executor's
  /// fused step makes a reduce pass where a plain receive makes a copy pass, and the transfer
  /// already costs the copy, so what the reduction adds per byte is 1/reduce − 1/copy.
  double fusedReduceGBps = 0;
  /// The host's last-level cache (with hostGBps): whether the slots of the executor's copied
  /// sends stay in it, read back by the receiver from the cache rather than memory
  /// (plan::calibratedExecutorCosts). 0: not known, every copied send costs a pass.
  std::int64_t hostCacheBytes = 0;
  std::vector<CalibrationPoint> points;

  const LinkCalibration* link(LinkKind kind) const;
};

/// The calibration as a JSON document (format "collective-studio-calibration", version 1).
std::string writeCalibrationJson(const Calibration& calibration);

struct CalibrationReadResult {
  std::optional<Calibration> calibration;
  std::string error; ///< what is wrong and where ("$.links[1].beta_GBps must be positive")
};
CalibrationReadResult readCalibrationJson(std::string_view text);

/// Applies `calibration` to a simulation of `topology`: every link takes its kind's β and α/hops
/// (the protocol's own per-hop latencies are zeroed: the measured α includes them), and the local
/// cpy/re bandwidths replace options.localGBps / localReduceGBps where measured. Returns an error
/// naming the link kinds the topology has and the calibration lacks (and one link of each);
/// nothing is changed then.
std::optional<std::string> applyCalibration(const Calibration& calibration, Topology& topology,
                                            SimOptions& options, Protocol protocol);

} // namespace cs
