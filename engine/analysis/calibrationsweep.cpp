#include "calibrationsweep.h"

#include "io/bytesize.h"
#include "model/routing.h"

#include <algorithm>
#include <fstream>
#include <set>

namespace cs {

namespace {

Program probeSkeleton(int ranks, const std::string& name)
{
  Program program = programOfRanks(ranks, {1, 1, 0});
  program.name = name;
  program.proto = Protocol::Simple;
  program.collective = Collective::Custom;
  program.collSpelling = "custom";
  program.nchunksperloop = 1;
  program.inplace = false;
  program.outofplace = true;
  return program;
}

Step probeStep(OpType type)
{
  Step step;
  step.type = type;
  step.srcBuf = Buffer::Input;
  step.srcOff = 0;
  step.dstBuf = Buffer::Output;
  step.dstOff = 0;
  step.cnt = 1;
  return step;
}

/// The slowest kind first: the order in which a route's kind is named.
int kindRank(LinkKind kind)
{
  switch (kind) {
  case LinkKind::NvLink:
    return 0;
  case LinkKind::Pcie:
    return 1;
  case LinkKind::Smp:
    return 2;
  case LinkKind::Network:
    return 3;
  }
  return 0;
}

/// Links of the route a probe of `kind` stands for: a route whose slowest link is `kind`, else
/// the shortest route crossing it; 0 when no GPU route crosses it.
int probeHops(const Topology& topology, const RouteTable& routes, LinkKind kind)
{
  int best = 0;
  for (int a = 0; a < routes.ranks(); ++a)
    for (int b = 0; b < routes.ranks(); ++b) {
      const Route* route = a == b ? nullptr : routes.route(a, b);
      if (!route || route->hops.empty())
        continue;
      int slowest = 0;
      bool crosses = false;
      for (const Hop& hop : route->hops) {
        const LinkKind linkKind = topology.link(hop.link)->kind;
        slowest = std::max(slowest, kindRank(linkKind));
        crosses = crosses || linkKind == kind;
      }
      const int hops = static_cast<int>(route->hops.size());
      if (crosses && slowest == kindRank(kind))
        return hops;
      if (crosses && (best == 0 || hops < best))
        best = hops;
    }
  return best;
}

/// The fastest of the timed runs of one probe at `bytes` (the one least disturbed by whatever
/// else the machine runs), or an error.
std::optional<double> measure(Executor& executor, const Program& program, std::int64_t bytes,
                              const CalibrationSweepOptions& options, std::string& error)
{
  ExecOptions exec;
  exec.bytes = bytes;
  exec.iterations = std::max(1, options.iterations);
  exec.warmup = std::max(0, options.warmup);
  exec.mode = CallMode::OutOfPlace;
  const ExecResult result = executor.run(program, exec);
  if (result.status == ExecStatus::Failed || result.status == ExecStatus::Hung ||
      result.iterationUs.empty()) {
    error = "the " + program.name + " probe at " + formatByteSize(bytes) + " did not run (" +
            std::string(execStatusName(result.status)) +
            (result.diagnostics.empty() ? "" : ": " + result.diagnostics.front().message) + ")";
    return std::nullopt;
  }
  return *std::min_element(result.iterationUs.begin(), result.iterationUs.end());
}

/// Sweeps one probe and fits it; appends its points to `calibration`. With `measureLatency` and
/// options.latencyBytes, α is the probe's time at that size and only β is fitted.
std::optional<AlphaBeta> sweepProbe(Executor& executor, const Program& program,
                                    const std::string& probe,
                                    const CalibrationSweepOptions& options,
                                    Calibration& calibration, std::string& error,
                                    bool measureLatency = false)
{
  std::optional<double> latencyUs;
  if (measureLatency && options.latencyBytes > 0) {
    if (options.progress)
      options.progress(probe + " " + formatByteSize(options.latencyBytes) + " (latency)");
    // Runs this small cost microseconds, so many are cheap; the fastest of many is the one no
    // other thread of a busy machine delayed.
    CalibrationSweepOptions many = options;
    many.iterations = std::max(options.iterations, 20);
    latencyUs = measure(executor, program, options.latencyBytes, many, error);
    if (!latencyUs)
      return std::nullopt;
  }
  SweepSamples samples;
  for (std::int64_t bytes = options.minBytes; bytes <= options.maxBytes; bytes *= 2) {
    if (options.progress)
      options.progress(probe + " " + formatByteSize(bytes));
    const std::optional<double> us = measure(executor, program, bytes, options, error);
    if (!us)
      return std::nullopt;
    samples.emplace_back(bytes, *us);
    if (bytes > options.maxBytes / 2)
      break;
  }
  std::string fitError;
  std::optional<AlphaBeta> fit = fitAlphaBeta(samples, fitError, latencyUs);
  // A latency run still delayed beyond the sweep's own times leaves no positive β: fit both
  // then, and let the residuals show the latency point off the line.
  if (!fit && latencyUs)
    fit = fitAlphaBeta(samples, fitError);
  if (!fit) {
    error = "the " + probe + " probe: " + fitError;
    return std::nullopt;
  }
  if (latencyUs)
    samples.insert(samples.begin(), {options.latencyBytes, *latencyUs});
  for (const auto& [bytes, us] : samples)
    calibration.points.push_back(
        {probe, bytes, us, fit->alphaUs + static_cast<double>(bytes) / (fit->betaGBps * 1e3)});
  return fit;
}

/// The CPU executor's ranks are threads of one process on the host's cores: what all ranks move
/// together (the busy probe: `pairs` one-hop copies at once) is the host's capacity, and the
/// reduction inside a fused step costs what a reduce pass adds to a copy pass, measured on one
/// thread (Calibration::hostGBps, fusedReduceGBps; docs/simulator.md §5.1).
void describeSharedHost(Calibration& calibration, const AlphaBeta& busy)
{
  calibration.hostGBps = calibration.pairs * busy.betaGBps;
  const double extraPerByte = 1 / calibration.reduceGBps - 1 / calibration.copyGBps;
  calibration.fusedReduceGBps = extraPerByte > 0 ? 1 / extraPerByte : 0;
}

} // namespace

Program oneHopProbe(int pairs)
{
  Program program = probeSkeleton(2 * pairs, "one-hop copy");
  for (int p = 0; p < pairs; ++p) {
    ThreadBlock sender;
    sender.send = 2 * p + 1;
    sender.steps.push_back(probeStep(OpType::Send));
    program.gpus[2 * p].threadblocks.push_back(sender);
    ThreadBlock receiver;
    receiver.recv = 2 * p;
    receiver.steps.push_back(probeStep(OpType::Recv));
    program.gpus[2 * p + 1].threadblocks.push_back(receiver);
  }
  return program;
}

Program localProbe(int ranks, OpType type)
{
  Program program = probeSkeleton(ranks, type == OpType::Reduce ? "local reduce" : "local copy");
  for (Gpu& gpu : program.gpus) {
    ThreadBlock tb;
    tb.steps.push_back(probeStep(type));
    gpu.threadblocks.push_back(tb);
  }
  return program;
}

std::int64_t lastLevelCacheBytes(std::int64_t fallback, std::string_view cacheDir)
{
  std::int64_t largest = 0;
  for (int index = 0; index < 8; ++index) {
    const std::string dir = std::string(cacheDir) + "/index" + std::to_string(index);
    std::ifstream typeFile(dir + "/type");
    std::ifstream sizeFile(dir + "/size");
    std::string type;
    std::string size;
    if (!(typeFile >> type) || !(sizeFile >> size))
      continue;
    if (type == "Instruction")
      continue;
    // "32768K" (the kernel writes K), or a plain or M-suffixed number.
    const std::optional<std::int64_t> bytes = parseByteSize(size);
    if (bytes && *bytes > largest)
      largest = *bytes;
  }
  return largest > 0 ? largest : fallback;
}

CalibrationSweepOptions defaultSweepOptions(std::string_view backend)
{
  return defaultSweepOptions(backend, backend == "cpu" ? lastLevelCacheBytes() : 0);
}

CalibrationSweepOptions defaultSweepOptions(std::string_view backend, std::int64_t cacheBytes)
{
  constexpr std::int64_t kMiB = std::int64_t{1} << 20;
  CalibrationSweepOptions options;
  if (backend != "cpu")
    return options;
  // Powers of two, so that the sizes divide evenly among the probes' elements.
  std::int64_t from = 4 * kMiB;
  while (from < cacheBytes && from < 64 * kMiB)
    from *= 2;
  options.minBytes = from;
  options.maxBytes = 4 * from;
  options.latencyBytes = 4 << 10;
  options.hostCacheBytes = cacheBytes;
  return options;
}

CalibrationSweepResult runCalibrationSweep(Executor& executor, const Topology& topology,
                                           const CalibrationSweepOptions& options)
{
  CalibrationSweepResult result;
  const RouteTable routes(topology);
  const int pairs = options.pairs > 0 ? options.pairs : std::max(1, routes.ranks() / 2);
  if (options.minBytes <= 0 || options.maxBytes < 2 * options.minBytes) {
    result.error = "the sweep needs sizes MIN..MAX with MIN > 0 and MAX ≥ 2·MIN to fit α and β";
    return result;
  }
  Calibration calibration;
  calibration.backend = std::string(executor.name());
  calibration.topology = topology.name;
  calibration.pairs = pairs;
  std::set<LinkKind> kinds;
  for (const TopologyLink& link : topology.links)
    kinds.insert(link.kind);
  // A link's own figures come from one connection alone: the simulator shares links (and the
  // host) among concurrent transfers itself, so a probe already slowed by its neighbours would
  // count the sharing twice.
  const Program alone = oneHopProbe(1);
  for (const LinkKind kind : kinds) {
    // A kind no GPU route crosses is still measured (one hop), so the calibration covers every
    // link of the topology it was made for.
    const int hops = std::max(1, probeHops(topology, routes, kind));
    const std::string probe(linkKindName(kind));
    const auto fit = sweepProbe(executor, alone, probe, options, calibration, result.error, true);
    if (!fit)
      return result;
    calibration.links.push_back({kind, fit->alphaUs, fit->betaGBps, hops});
  }
  if (calibration.links.empty()) {
    result.error = "topology \"" + topology.name + "\" has no route between two ranks to probe";
    return result;
  }
  const auto copy =
      sweepProbe(executor, localProbe(1, OpType::Copy), "copy", options, calibration, result.error);
  const auto reduce = copy ? sweepProbe(executor, localProbe(1, OpType::Reduce), "reduce", options,
                                        calibration, result.error)
                           : std::nullopt;
  if (!reduce)
    return result;
  calibration.copyGBps = copy->betaGBps;
  calibration.reduceGBps = reduce->betaGBps;
  if (calibration.backend == "cpu") {
    const auto busy =
        sweepProbe(executor, oneHopProbe(pairs), "host", options, calibration, result.error);
    if (!busy)
      return result;
    describeSharedHost(calibration, *busy);
    calibration.hostCacheBytes = options.hostCacheBytes;
  }
  result.calibration = std::move(calibration);
  return result;
}

} // namespace cs
