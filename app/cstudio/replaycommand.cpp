// cstudio replay: what a recorded run was doing at one moment, from its Chrome trace (written by
// `cstudio run|simulate --trace`) and the program it ran. The same replay index and buffer replay
// the visualizer draws from (DESIGN.md §9), printed for people or as JSON for tests and scripts.

#include "commands.h"
#include "output.h"
#include "programinput.h"

#include "replaybench.h"
#include "replaycompare.h"
#include "replaystop.h"

#include "io/chrometracereader.h"
#include "io/topologyloader.h"
#include "replay/bufferreplay.h"
#include "replay/replayindex.h"

#include <iostream>

namespace cs::cli {

namespace {

struct ReplayOptions {
  std::string file;
  std::string tracePath;
  std::string comparePath; ///< a second run of the program: compare instead of one moment
  std::string topology;
  std::string calibration; ///< --calibration: the first run is the calibrated simulation
  std::string library;
  double atUs = 0;
  bool atGiven = false; ///< else a stopped run opens at its stop, any other at 0
  bool inplace = false;
  bool outofplace = false;
  LoweringChoice lowering;
  bool json = false;
  bool bench = false;
  bench::ReplayBenchOptions benchOptions;
};

std::string_view waitReasonName(replay::WaitReason reason)
{
  switch (reason) {
  case replay::WaitReason::Message:
    return "data from its receive peer";
  case replay::WaitReason::Room:
    return "room on its send connection";
  case replay::WaitReason::Flag:
    return "a dependency flag";
  case replay::WaitReason::Start:
    return "its turn to start";
  }
  return "?";
}

std::string nodeName(const Topology* topology, int link, bool endA)
{
  const TopologyLink* found = topology ? topology->link(link) : nullptr;
  const TopologyNode* node = found ? topology->node(endA ? found->a : found->b) : nullptr;
  return node ? node->name : "?";
}

nlohmann::json linksJson(const std::vector<replay::LinkState>& links, const Topology* topology)
{
  nlohmann::json out = nlohmann::json::array();
  for (const replay::LinkState& link : links) {
    out.push_back({{"link", link.link},
                   {"a", nodeName(topology, link.link, true)},
                   {"b", nodeName(topology, link.link, false)},
                   {"bytes_in_flight", link.aToB.bytesInFlight + link.bToA.bytesInFlight},
                   {"a_to_b_bytes_in_flight", link.aToB.bytesInFlight},
                   {"b_to_a_bytes_in_flight", link.bToA.bytesInFlight},
                   {"utilisation", link.utilisation}});
  }
  return out;
}

nlohmann::json blockedJson(const std::vector<replay::Waiting>& waiting)
{
  nlohmann::json out = nlohmann::json::array();
  for (const replay::Waiting& w : waiting) {
    out.push_back({{"rank", w.rank},
                   {"tb", w.tb},
                   {"step", w.step},
                   {"slice", w.slice},
                   {"waits_for", std::string(waitReasonName(w.reason))}});
  }
  return out;
}

/// Messages in flight: who sends what to whom, how far it has come, and its contents.
nlohmann::json tokensJson(const std::vector<replay::Token>& tokens,
                          const replay::ReplayIndex& index, const replay::BufferReplay& buffers)
{
  nlohmann::json out = nlohmann::json::array();
  for (const replay::Token& token : tokens) {
    const replay::Message& message = index.messages()[token.message];
    const TraceEvent& send = index.trace().events[message.send];
    nlohmann::json contents = nlohmann::json::array();
    for (const ValueId value : buffers.sentBy(send.rank, send.tb, send.step))
      contents.push_back(buffers.contributingRanks(value));
    nlohmann::json route = nlohmann::json::array();
    for (const Hop& hop : message.route)
      route.push_back(hop.link);
    out.push_back({{"from", message.from},
                   {"to", message.to},
                   {"channel", message.channel},
                   {"bytes", message.bytes},
                   {"progress", token.progress},
                   {"route", std::move(route)},
                   {"contents", std::move(contents)}});
  }
  return out;
}

/// Per rank, per buffer, each chunk's contributing ranks (null for a chunk holding nothing).
nlohmann::json buffersJson(const replay::BufferReplay& buffers, int ranks, double atUs)
{
  nlohmann::json out = nlohmann::json::array();
  for (int rank = 0; rank < ranks; ++rank) {
    nlohmann::json rankJson = {{"rank", rank}};
    for (const Buffer buffer : {Buffer::Input, Buffer::Output, Buffer::Scratch}) {
      nlohmann::json chunks = nlohmann::json::array();
      for (int k = 0; k < buffers.chunks(rank, buffer); ++k) {
        const ValueId value = buffers.valueAt(rank, buffer, k, atUs);
        chunks.push_back(value == kUninitialised
                             ? nlohmann::json(nullptr)
                             : nlohmann::json(buffers.contributingRanks(value)));
      }
      rankJson[std::string(bufferName(buffer))] = std::move(chunks);
    }
    out.push_back(std::move(rankJson));
  }
  return out;
}

void printState(const replay::ReplayState& state, const replay::ReplayIndex& index,
                const replay::BufferReplay& buffers, double atUs)
{
  std::cout << "at " << atUs << " us of " << index.endUs() << " us: " << state.counts.done
            << " events done, " << state.counts.running << " running, " << state.counts.pending
            << " pending\n";
  if (index.linksInferred())
    std::cout << "links inferred from the topology\n";
  for (const replay::LinkState& link : state.links) {
    if (link.utilisation > 0)
      std::cout << "  link " << link.link << ": " << link.utilisation * 100 << "% busy\n";
  }
  for (const replay::Waiting& w : state.waiting) {
    std::cout << "  rank " << w.rank << " tb " << w.tb << " step " << w.step << " waits for "
              << waitReasonName(w.reason) << '\n';
  }
  for (int rank = 0; rank < index.program().ngpus; ++rank) {
    for (const Buffer buffer : {Buffer::Input, Buffer::Output, Buffer::Scratch}) {
      if (buffers.chunks(rank, buffer) == 0)
        continue;
      std::cout << "  rank " << rank << ' ' << bufferName(buffer) << ':';
      for (int k = 0; k < buffers.chunks(rank, buffer); ++k)
        std::cout << ' ' << buffers.format(buffers.valueAt(rank, buffer, k, atUs));
      std::cout << '\n';
    }
  }
}

/// The index of the trace at `path`, a run of `program`; absent (reason printed) when the file
/// cannot be read or does not fit the program.
std::optional<replay::ReplayIndex> indexTrace(const std::string& path, const Program& program,
                                              const Topology* routes)
{
  TraceReadResult read = readChromeTraceFile(path);
  if (!read.trace) {
    printDiagnostics(std::cerr, path, read.diagnostics);
    return std::nullopt;
  }
  replay::ReplayBuild built = replay::ReplayIndex::build(program, std::move(*read.trace), routes);
  if (!built.index)
    printDiagnostics(std::cerr, path, built.diagnostics);
  return std::move(built.index);
}

/// The state at --at (for a stopped run without --at: at the stop), for people or as JSON.
int printAt(ReplayOptions& options, const replay::ReplayIndex& index, const Topology* routes)
{
  const Program& program = index.program();
  const Trace& trace = index.trace();
  CallMode mode = trace.mode.value_or(declaredModes(program).front());
  if (options.inplace)
    mode = CallMode::InPlace;
  if (options.outofplace)
    mode = CallMode::OutOfPlace;
  const replay::BufferReplay buffers(program, trace, mode);
  if (!options.atGiven && trace.stoppedUs)
    options.atUs = *trace.stoppedUs;
  const replay::ReplayState state = index.at(options.atUs);
  if (!options.json) {
    printStop(std::cout, program, trace);
    printVerification(std::cout, trace);
    printState(state, index, buffers, options.atUs);
    return Ok;
  }
  nlohmann::json out = {{"time_us", options.atUs},
                        {"end_us", index.endUs()},
                        {"events_done", state.counts.done},
                        {"events_running", state.counts.running},
                        {"events_pending", state.counts.pending},
                        {"links_inferred", index.linksInferred()},
                        {"mode", std::string(callModeName(mode))},
                        {"links", linksJson(state.links, routes)},
                        {"blocked", blockedJson(state.waiting)},
                        {"tokens", tokensJson(state.tokens, index, buffers)},
                        {"buffers", buffersJson(buffers, program.ngpus, options.atUs)}};
  if (trace.stoppedUs)
    out.update(stopJson(program, trace));
  out.update(verificationJson(trace));
  std::cout << jsonText(out, 2) << '\n';
  return Ok;
}

int runReplay(ReplayOptions& options)
{
  if (options.bench)
    return bench::runReplayBench(options.benchOptions, std::cout) == 0 ? Ok : Problems;
  const bool designed = !options.calibration.empty();
  if (options.file.empty() || options.tracePath.empty() == !designed) {
    std::cerr << "cstudio replay: give FILE and --trace (or --bench), or FILE, --compare and "
                 "--calibration (the designed run is then the calibrated simulation)\n";
    return UsageError;
  }
  if (designed && options.comparePath.empty()) {
    std::cerr << "cstudio replay: --calibration needs --compare MEASURED.json\n";
    return UsageError;
  }
  ProgramInput input =
      readProgramInput(options.file, DialectId::Executor, options.lowering, "replaying");
  if (!input.program)
    return UsageError;
  std::optional<Topology> topology = std::move(input.embeddedTopology);
  if (!loadTopologyOption(options.topology, topology))
    return UsageError;
  const Topology* routes = topology ? &*topology : nullptr;
  if (designed) {
    const std::optional<replay::ReplayIndex> measured =
        indexTrace(options.comparePath, *input.program, routes);
    const std::optional<replay::ReplayIndex> simulated =
        measured ? designedIndex(*input.program, routes, measured->trace().bytes,
                                 options.calibration, options.library)
                 : std::nullopt;
    if (!simulated)
      return UsageError;
    return printComparison(*simulated, *measured, routes, options.json);
  }
  const std::optional<replay::ReplayIndex> index =
      indexTrace(options.tracePath, *input.program, routes);
  if (!index)
    return UsageError;
  if (options.comparePath.empty())
    return printAt(options, *index, routes);
  const std::optional<replay::ReplayIndex> second =
      indexTrace(options.comparePath, *input.program, routes);
  if (!second)
    return UsageError;
  return printComparison(*index, *second, routes, options.json);
}

} // namespace

Runner addReplayCommand(CLI::App& app)
{
  auto options = std::make_shared<ReplayOptions>();
  CLI::App* command = app.add_subcommand(
      "replay", "What a recorded run was doing at one moment: events, links, blocked "
                "threadblocks and every rank's buffers");
  command->add_option("FILE", options->file, "The program that ran (MSCCL XML or design document)");
  command->add_option("--trace", options->tracePath,
                      "Chrome trace JSON written by cstudio run|simulate --trace");
  command->add_option_function<double>(
      "--at",
      [options](double at) {
        options->atUs = at;
        options->atGiven = true;
      },
      "Time in microseconds from the start of the run (default: 0, or the stop of a run the "
      "watchdog stopped)");
  command->add_option("--compare", options->comparePath,
                      "A second trace of the same program (B.json): compare the two step by step "
                      "and link by link instead of showing one moment");
  command
      ->add_option("--calibration", options->calibration,
                   "With --compare and no --trace: the designed run is the simulation calibrated "
                   "by NAME (library) or FILE (cstudio calibrate), at the measured run's size")
      ->type_name("NAME|FILE");
  command->add_option("--library", options->library, "Library file to find --calibration NAME in")
      ->type_name("PATH");
  command->add_option("--topology", options->topology,
                      "Preset or file giving routes to a measured trace's messages (default: the "
                      "design document's)");
  command->add_flag("--inplace", options->inplace,
                    "Buffers as called in place (default: as the run was called, which the "
                    "trace of an executor run records, else the program's first mode)");
  command->add_flag("--outofplace", options->outofplace, "Buffers as called out of place");
  addLoweringOptions(command, options->lowering);
  command->add_flag("--json", options->json, "Print JSON");
  command->add_flag("--bench", options->bench,
                    "Benchmark indexing and seeking a simulated trace (ratios against baselines "
                    "measured in the same run)");
  command
      ->add_option("--bench-events", options->benchOptions.events,
                   "Events of the benchmark's trace (default 100000)")
      ->check(CLI::Range(1000LL, 100000000LL));
  return [options] { return runReplay(*options); };
}

} // namespace cs::cli
