// `cstudio calibrate`: fit the simulator's α/β per link kind and local copy/reduce bandwidths
// to a measured backend (engine/analysis/calibrationsweep.h), print the fit and its residuals,
// write it as JSON and store it in the library.

#include "calibrationinput.h"
#include "commands.h"
#include "output.h"

#include "analysis/calibrationsweep.h"
#include "io/bytesize.h"
#include "io/topologyloader.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

namespace cs::cli {

namespace {

struct CalibrateOptions {
  std::string backend = "cpu";
  std::string topology;
  std::string output;
  std::string sizes; ///< empty: the backend's defaultSweepOptions()
  int pairs = 0;
  int iterations = 3;
  std::string save;
  std::string library;
  bool json = false;
};

std::string hostName()
{
  char name[256] = {};
  return gethostname(name, sizeof name - 1) == 0 ? std::string(name) : std::string("unknown");
}

std::string utcNow()
{
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

/// "MIN..MAX" (or MIN:MAX) as sizes; false after printing why not.
bool parseSizes(const std::string& text, CalibrationSweepOptions& sweep)
{
  std::size_t split = text.find("..");
  const std::size_t width = split == std::string::npos ? 1 : 2;
  if (split == std::string::npos)
    split = text.find(':');
  const auto from =
      split == std::string::npos ? std::nullopt : parseByteSize(text.substr(0, split));
  const auto to =
      split == std::string::npos ? std::nullopt : parseByteSize(text.substr(split + width));
  if (!from || !to || *from <= 0 || *to < 2 * *from) {
    std::cerr << "cstudio calibrate: --sizes " << text
              << " must be MIN..MAX with MAX at least twice MIN (example: 256K..16M)\n";
    return false;
  }
  sweep.minBytes = *from;
  sweep.maxBytes = *to;
  return true;
}

void printFit(const Calibration& calibration)
{
  std::cout << "calibration of " << calibration.backend << " for " << calibration.topology;
  if (calibration.hostGBps > 0)
    std::cout << " (host probe: " << calibration.pairs << " pairs at once)";
  std::cout << " on " << calibration.host << ", " << calibration.date << "\n\n";
  char line[160];
  std::snprintf(line, sizeof line, "  %-8s  %10s  %10s  %4s\n", "probe", "alpha_us", "beta_GBps",
                "hops");
  std::cout << line;
  for (const LinkCalibration& link : calibration.links) {
    std::snprintf(line, sizeof line, "  %-8s  %10.2f  %10.3f  %4d\n",
                  std::string(linkKindName(link.kind)).c_str(), link.alphaUs, link.betaGBps,
                  link.hops);
    std::cout << line;
  }
  std::snprintf(line, sizeof line, "  %-8s  %10s  %10.3f\n  %-8s  %10s  %10.3f\n", "copy", "",
                calibration.copyGBps, "reduce", "", calibration.reduceGBps);
  std::cout << line;
  if (calibration.hostGBps > 0) {
    std::snprintf(line, sizeof line,
                  "\nshared host: %.3f GB/s for all ranks together; fused reduction %.3f GB/s%s\n",
                  calibration.hostGBps, calibration.fusedReduceGBps,
                  calibration.fusedReduceGBps > 0 ? "" : " (free: reduce is not slower than copy)");
    std::cout << line;
    if (calibration.hostCacheBytes > 0)
      std::cout << "last-level cache: " << formatByteSize(calibration.hostCacheBytes)
                << " (copied sends whose slots fit it cost no extra pass)\n";
  }
  std::cout << "\nresiduals (measured - fitted)\n";
  std::snprintf(line, sizeof line, "  %-8s  %12s  %12s  %12s  %10s  %7s\n", "probe", "bytes",
                "measured_us", "fitted_us", "residual", "rel");
  std::cout << line;
  for (const CalibrationPoint& point : calibration.points) {
    const double residual = point.measuredUs - point.fittedUs;
    std::snprintf(line, sizeof line, "  %-8s  %12lld  %12.2f  %12.2f  %10.2f  %6.1f%%\n",
                  point.probe.c_str(), static_cast<long long>(point.bytes), point.measuredUs,
                  point.fittedUs, residual, 100 * residual / point.measuredUs);
    std::cout << line;
  }
}

int runCalibrate(const CalibrateOptions& options)
{
  CalibrationSweepOptions sweep = defaultSweepOptions(options.backend);
  if (!options.sizes.empty() && !parseSizes(options.sizes, sweep))
    return UsageError;
  sweep.pairs = options.pairs;
  sweep.iterations = options.iterations;
  sweep.progress = [](const std::string& step) { std::cerr << "calibrating: " << step << '\n'; };
  TopologyReadResult loaded = loadTopology(options.topology);
  if (!loaded.topology) {
    printDiagnostics(std::cerr, options.topology, loaded.diagnostics);
    return UsageError;
  }
  std::string error;
  std::unique_ptr<Executor> executor = makeExecutor(options.backend, &error);
  if (!executor) {
    std::cerr << "cstudio calibrate: " << error << '\n';
    return UsageError;
  }
  CalibrationSweepResult result = runCalibrationSweep(*executor, *loaded.topology, sweep);
  if (!result.calibration) {
    std::cerr << "cstudio calibrate: " << result.error << '\n';
    return Problems;
  }
  Calibration& calibration = *result.calibration;
  calibration.host = hostName();
  calibration.date = utcNow();
  const std::string json = writeCalibrationJson(calibration);
  if (!options.output.empty()) {
    std::ofstream out(options.output, std::ios::binary);
    out << json;
    if (!out.flush()) {
      std::cerr << "cstudio calibrate: cannot write " << options.output << '\n';
      return UsageError;
    }
  }
  if (!options.save.empty() &&
      !saveCalibration(calibration, options.save, options.library, "cstudio calibrate"))
    return UsageError;
  if (options.json)
    std::cout << json;
  else
    printFit(calibration);
  return Ok;
}

} // namespace

Runner addCalibrateCommand(CLI::App& app)
{
  auto options = std::make_shared<CalibrateOptions>();
  CLI::App* command = app.add_subcommand(
      "calibrate", "Fit the simulator's latency and bandwidth per link kind, and its local copy "
                   "and reduce bandwidths, to a sweep of probe programs on an executor; print "
                   "the fit and its residuals (progress on stderr)");
  command->add_option("--backend", options->backend, "Executor measured")
      ->check(CLI::IsMember({"cpu", "cuda", "nccl"}))
      ->capture_default_str();
  command
      ->add_option("--topology,-t", options->topology,
                   "Preset or topology file the calibration is for: one probe per link kind")
      ->required();
  command->add_option("-o,--output", options->output, "Write the calibration JSON to FILE")
      ->type_name("FILE");
  command->add_option("--sizes", options->sizes,
                      "Probe sizes MIN..MAX in x2 steps (default: 256K..16M; cpu: from the "
                      "last-level cache's size to 4 times it, where a collective's buffers lie, "
                      "and the links' latency apart at 4K)");
  command
      ->add_option("--pairs", options->pairs,
                   "CPU only: pairs of the host probe run at once (default: half the "
                   "topology's ranks, all busy)")
      ->check(CLI::Range(1, 512));
  command->add_option("--iters", options->iterations, "Timed runs per point (the fastest counts)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  command->add_option("--save", options->save, "Store it in the library under NAME")
      ->type_name("NAME");
  command->add_option("--library", options->library, "Library file for --save")->type_name("PATH");
  command->add_flag("--json", options->json, "Print the calibration JSON instead of the table");
  command->footer("Memory: the CPU host probe holds about three buffers of MAX for each rank of "
                  "its pairs at once (3 GB for 4 pairs at 128M); --pairs or --sizes lower it.\n"
                  "Exit status: 0 fitted, 1 a probe failed or the sweep cannot be fitted, 2 bad "
                  "arguments or an unwritable output.");
  return [options] { return runCalibrate(*options); };
}

} // namespace cs::cli
