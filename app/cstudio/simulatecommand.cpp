#include "calibrationinput.h"
#include "commands.h"
#include "output.h"
#include "programinput.h"

#include "simbench.h"

#include "exec/plan/executorcosts.h"
#include "io/bytesize.h"
#include "io/chrometrace.h"
#include "io/topologyloader.h"
#include "sim/simulator.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

namespace cs::cli {

namespace {

struct SimulateOptions {
  std::string file;
  std::string topology;
  std::string bytes = "1M";
  std::string sweep;
  std::optional<double> efficiency;
  std::optional<double> protoLatency;
  std::optional<std::string> slice;
  std::optional<double> bandwidth;
  std::optional<double> latency;
  double localGBps = 1500;
  std::optional<int> fifoSlots; ///< absent: the runtime's depth for the protocol
  int top = 5;
  std::string traceFile;
  LoweringChoice lowering; ///< when FILE is a design document
  std::string calibration; ///< NAME in the library or FILE (engine/sim/calibration.h)
  std::string library;     ///< library file to look NAME up in
  bool json = false;
  bool bench = false;
};

std::string linkName(const Topology& topology, int id)
{
  const TopologyLink* link = topology.link(id);
  const TopologyNode* a = link ? topology.node(link->a) : nullptr;
  const TopologyNode* b = link ? topology.node(link->b) : nullptr;
  return (a ? a->name : "?") + " - " + (b ? b->name : "?");
}

nlohmann::json resultJson(const SimResult& result, const Topology& topology, int top)
{
  nlohmann::json links = nlohmann::json::array();
  for (const LinkTotal& total : result.busiestLinks) {
    if (total.bytes == 0 || (top >= 0 && static_cast<int>(links.size()) >= top))
      break;
    links.push_back({{"link", total.link},
                     {"name", linkName(topology, total.link)},
                     {"bytes", total.bytes},
                     {"busy", total.busyFraction}});
  }
  const auto orNull = [](const std::optional<NcclEstimate>& e, double NcclEstimate::*field) {
    return e ? nlohmann::json((*e).*field) : nlohmann::json(nullptr);
  };
  return {{"bytes", result.trace.bytes},
          {"ok", result.ok},
          {"time_us", result.timeUs},
          {"algbw_GBps", result.algbwGBps},
          {"busbw_GBps", result.busbwGBps},
          {"nccl_ring_us", orNull(result.nccl, &NcclEstimate::ringUs)},
          {"nccl_tree_us", orNull(result.nccl, &NcclEstimate::treeUs)},
          {"slices", result.slices},
          {"links", links},
          {"diagnostics", diagnosticsToJson(result.diagnostics)}};
}

void printResult(const SimResult& result, const Topology& topology, int top)
{
  char line[160];
  std::snprintf(line, sizeof line,
                "  time        %12.2f us\n  algbw       %12.2f GB/s\n"
                "  busbw       %12.2f GB/s\n",
                result.timeUs, result.algbwGBps, result.busbwGBps);
  std::cout << line;
  if (result.nccl) {
    std::snprintf(line, sizeof line,
                  "  NCCL ring   %12.2f us  (estimate: alpha %.2f us, beta %.1f GB/s)\n"
                  "  NCCL tree   %12.2f us  (estimate)\n",
                  result.nccl->ringUs, result.nccl->alphaUs, result.nccl->betaGBps,
                  result.nccl->treeUs);
    std::cout << line;
  }
  std::cout << "  busiest links\n";
  int shown = 0;
  for (const LinkTotal& total : result.busiestLinks) {
    if (total.bytes == 0 || shown++ >= top)
      break;
    std::snprintf(line, sizeof line, "    link %-4d %-28s %12s  %5.1f%% busy\n", total.link,
                  linkName(topology, total.link).c_str(), formatByteSize(total.bytes).c_str(),
                  100 * total.busyFraction);
    std::cout << line;
  }
}

/// `calibration`: the one --calibration applied to `sim`, or null.
int runSweep(const Program& program, const Topology& topology, SimOptions sim,
             const Calibration* calibration, const SimulateOptions& options, std::int64_t from,
             std::int64_t to)
{
  nlohmann::json rows = nlohmann::json::array();
  if (!options.json)
    std::cout << "#        size    time(us)  algbw(GB/s)  busbw(GB/s)  nccl ring(us)  "
                 "nccl tree(us)\n";
  sim.recordEvents = false;
  sim.recordUtilisation = false;
  int exitCode = Ok;
  for (std::int64_t size = from; size <= to; size *= 2) {
    sim.bytes = size;
    sim.executor = plan::calibratedExecutorCosts(calibration, program, size);
    const SimResult result = simulateProgram(program, topology, sim);
    if (!result.ok) {
      printDiagnostics(std::cerr, options.file, result.diagnostics);
      exitCode = Problems;
      break;
    }
    if (options.json) {
      rows.push_back(resultJson(result, topology, 0));
      continue;
    }
    char line[160];
    std::snprintf(line, sizeof line, "%13lld  %10.2f  %11.2f  %11.2f  %13.2f  %13.2f\n",
                  static_cast<long long>(size), result.timeUs, result.algbwGBps, result.busbwGBps,
                  result.nccl ? result.nccl->ringUs : NAN, result.nccl ? result.nccl->treeUs : NAN);
    std::cout << line;
  }
  if (options.json)
    std::cout << jsonText(nlohmann::json{{"file", options.file},
                                         {"topology", topology.name},
                                         {"sweep", rows}},
                          2)
              << '\n';
  return exitCode;
}

/// The topology to simulate on: --topology, else the one the design document embeds; absent
/// (with the reason printed) when there is none or it cannot be read.
std::optional<Topology> simulationTopology(const SimulateOptions& options, ProgramInput& input)
{
  if (options.topology.empty() && !input.embeddedTopology) {
    std::cerr << "cstudio simulate: give --topology (" << options.file << " embeds no topology)\n";
    return std::nullopt;
  }
  if (options.topology.empty())
    return std::move(input.embeddedTopology);
  TopologyReadResult loaded = loadTopology(options.topology, {options.bandwidth, options.latency});
  if (!loaded.topology)
    printDiagnostics(std::cerr, options.topology, loaded.diagnostics);
  return std::move(loaded.topology);
}

/// The simulator's options from the command line; absent (with the reason printed) on a bad
/// --slice.
std::optional<SimOptions> simulationOptions(const SimulateOptions& options, const Program& program)
{
  SimOptions sim;
  ProtocolParams protocol = defaultProtocolParams(program.proto);
  if (options.efficiency)
    protocol.efficiency = *options.efficiency;
  if (options.protoLatency)
    protocol.setUniformLatency(*options.protoLatency);
  if (options.slice) {
    const std::optional<std::int64_t> slice = parseByteSize(*options.slice); // 0: one per chunk
    if (!slice) {
      std::cerr << "cstudio simulate: --slice " << *options.slice << " is not a size\n";
      return std::nullopt;
    }
    protocol.sliceBytes = *slice;
  }
  sim.protocol = protocol;
  sim.localGBps = options.localGBps;
  sim.fifoSlots = options.fifoSlots;
  return sim;
}

int runSweepOption(const SimulateOptions& options, const Program& program, const Topology& topology,
                   const SimOptions& sim, const Calibration* calibration)
{
  const std::size_t colon = options.sweep.find(':');
  const auto from = parseByteSize(options.sweep.substr(0, colon));
  const auto to =
      colon == std::string::npos ? std::nullopt : parseByteSize(options.sweep.substr(colon + 1));
  if (!from || !to || *from <= 0 || *from > *to) {
    std::cerr << "cstudio simulate: --sweep expects MIN:MAX sizes such as 1K:1G\n";
    return UsageError;
  }
  return runSweep(program, topology, sim, calibration, options, *from, *to);
}

/// Prints one simulation (text or JSON) and writes its trace when asked.
int reportSimulation(const SimulateOptions& options, const Program& program,
                     const Topology& topology, const SimOptions& sim, const SimResult& result)
{
  if (!options.traceFile.empty() && result.ok) {
    std::ofstream out(options.traceFile, std::ios::binary);
    writeChromeTrace(result.trace, &topology, out);
    if (!out) {
      std::cerr << "cstudio simulate: cannot write " << options.traceFile << '\n';
      return UsageError;
    }
  }
  if (options.json) {
    nlohmann::json object = resultJson(result, topology, options.top);
    object["file"] = options.file;
    object["topology"] = topology.name;
    object["protocol"] = {{"name", std::string(protocolName(program.proto))},
                          {"efficiency", result.protocol.efficiency},
                          {"latency_us", result.protocol.latencyUs},
                          {"pcie_latency_us", result.protocol.hopLatencyUs(HopClass::Pcie)},
                          {"network_latency_us", result.protocol.hopLatencyUs(HopClass::Network)},
                          {"slice_bytes", result.protocol.sliceBytes}};
    std::cout << jsonText(object, 2) << '\n';
  } else {
    printDiagnostics(std::cerr, options.file, result.diagnostics);
    if (result.ok) {
      std::cout << options.file << " on " << topology.name << " (" << program.ngpus << " ranks), "
                << formatByteSize(sim.bytes) << ", " << protocolName(program.proto)
                << ": efficiency " << result.protocol.efficiency << ", +"
                << result.protocol.latencyUs << " us per message (pcie +"
                << result.protocol.hopLatencyUs(HopClass::Pcie) << ", network +"
                << result.protocol.hopLatencyUs(HopClass::Network) << "), " << result.slices
                << (result.slices == 1 ? " slice\n" : " slices\n");
      printResult(result, topology, options.top);
    }
  }
  return result.ok ? Ok : Problems;
}

/// Loads --calibration and applies it to the topology and options; absent after printing why
/// not. The executor's costs are left for each size (plan::calibratedExecutorCosts): whether its
/// copied sends' slots fit the host's cache depends on it.
std::optional<Calibration> applyCalibrationOption(const SimulateOptions& options,
                                                  Topology& topology, SimOptions& sim,
                                                  const Program& program)
{
  std::optional<Calibration> calibration =
      loadCalibration(options.calibration, options.library, "cstudio simulate");
  if (!calibration)
    return std::nullopt;
  if (const std::optional<std::string> error =
          applyCalibration(*calibration, topology, sim, program.proto)) {
    std::cerr << "cstudio simulate: --calibration " << options.calibration << ": " << *error
              << '\n';
    return std::nullopt;
  }
  return calibration;
}

int runSimulate(const SimulateOptions& options)
{
  if (options.bench)
    return bench::runSimBench({}, std::cout) == 0 ? Ok : Problems;
  if (options.file.empty()) {
    std::cerr << "cstudio simulate: give FILE and --topology (or --bench)\n";
    return UsageError;
  }
  // The simulator is runtime-neutral: the executor dialect only bounds threadblocks and channels.
  ProgramInput input =
      readProgramInput(options.file, DialectId::Executor, options.lowering, "simulating");
  if (!input.program)
    return UsageError;
  std::optional<Topology> topology = simulationTopology(options, input);
  if (!topology)
    return UsageError;
  const Program& program = *input.program;
  std::optional<SimOptions> sim = simulationOptions(options, program);
  if (!sim)
    return UsageError;
  std::optional<Calibration> calibration;
  if (!options.calibration.empty()) {
    calibration = applyCalibrationOption(options, *topology, *sim, program);
    if (!calibration)
      return UsageError;
  }
  const Calibration* applied = calibration ? &*calibration : nullptr;
  if (!options.sweep.empty())
    return runSweepOption(options, program, *topology, *sim, applied);
  const std::optional<std::int64_t> bytes = parseByteSize(options.bytes);
  if (!bytes) {
    std::cerr << "cstudio simulate: --bytes " << options.bytes
              << " is not a size (examples: 4096, 64K, 1M, 1G)\n";
    return UsageError;
  }
  sim->bytes = *bytes;
  sim->executor = plan::calibratedExecutorCosts(applied, program, sim->bytes);
  sim->recordEvents = !options.traceFile.empty();
  sim->recordUtilisation = !options.traceFile.empty();
  const SimResult result = simulateProgram(program, *topology, *sim);
  return reportSimulation(options, program, *topology, *sim, result);
}

} // namespace

Runner addSimulateCommand(CLI::App& app)
{
  auto options = std::make_shared<SimulateOptions>();
  CLI::App* command = app.add_subcommand(
      "simulate", "Predict the time, algbw and busbw of an MSCCL XML algorithm on a topology "
                  "(alpha-beta model with max-min fair link sharing), beside NCCL's ring and "
                  "tree estimates");
  command
      ->add_option("file", options->file,
                   "MSCCL XML file, or design document (.json, lowered before simulating)")
      ->type_name("FILE");
  command->add_option("--topology,-t", options->topology,
                      "Preset (cstudio topology --list) or topology file (JSON, NCCL XML dump, "
                      "nvidia-smi topo -m text); default for a design document: the topology "
                      "it embeds");
  addLoweringOptions(command, options->lowering);
  command
      ->add_option("--bytes,-b", options->bytes,
                   "Collective size as nccl-tests counts it (64K, 1M, 1G)")
      ->capture_default_str();
  command->add_option("--sweep", options->sweep, "Sizes MIN:MAX in x2 steps, as a table");
  command
      ->add_option("--efficiency", options->efficiency,
                   "Protocol efficiency: payload fraction of link bandwidth (0, 1]")
      ->check(CLI::Range(1e-6, 1.0));
  command
      ->add_option("--proto-latency", options->protoLatency,
                   "Protocol latency per message over every link type, µs")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--slice", options->slice,
                      "Slice size per chunk and loop iteration (0: one slice per chunk)");
  command
      ->add_option("--bandwidth", options->bandwidth,
                   "GB/s per direction for parametric presets (ring-N, …)")
      ->check(CLI::PositiveNumber);
  command->add_option("--latency", options->latency, "µs per link for parametric presets")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--local-bandwidth", options->localGBps, "GB/s of local cpy/re")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command
      ->add_option(
          "--fifo-slots", options->fifoSlots,
          "Messages a connection holds; default: the runtime's, 2 Simple or 8 LL/LL128 messages")
      ->check(CLI::Range(1, 64));
  command
      ->add_option("--calibration", options->calibration,
                   "Calibration to apply (cstudio calibrate): a JSON file or a name in the "
                   "library; sets every link's latency and bandwidth by kind and the local "
                   "copy/reduce bandwidths")
      ->type_name("NAME|FILE");
  command->add_option("--library", options->library, "Library file to find --calibration NAME in")
      ->type_name("PATH");
  command->add_option("--top", options->top, "Busiest links to list")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  command->add_option("--trace", options->traceFile, "Write a Chrome trace (Perfetto) JSON");
  command->add_flag("--json", options->json, "Print JSON");
  command->add_flag("--bench", options->bench,
                    "Benchmark: a 64-rank ring all-reduce at 1 GiB, against reading its XML");
  return [options] { return runSimulate(*options); };
}

} // namespace cs::cli
