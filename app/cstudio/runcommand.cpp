// `cstudio run FILE --backend cpu|cuda|nccl --bytes N …`: runs an algorithm on real data,
// verifies the result and prints times, like one row of nccl-tests.

#include "commands.h"
#include "launchedrun.h"
#include "output.h"
#include "programinput.h"

#include "exec/executor.h"
#include "execbench.h"
#include "io/bytesize.h"
#include "io/chrometrace.h"
#include "io/mscclxmlwriter.h"
#include "sim/estimates.h"

#include <cstdlib>
#include <iostream>
#include <memory>
#include <vector>

namespace cs::cli {

namespace {

struct RunOptions {
  std::string file;
  std::string backend = "cpu";
  std::string bytes = "1M";
  std::string dtype = "f32";
  std::string op = "sum";
  bool inplace = false;
  bool outofplace = false;
  int iterations = 5;
  int warmup = 1;
  double timeout = 10;
  int root = -1;
  int slots = 0;
  int blocksPerThreadblock = 0;
  int threadsPerBlock = 0;
  std::vector<int> deviceMap;
  std::string sliceBytes;
  std::string tracePath;
  bool json = false;
  LoweringChoice lowering;
  LaunchFlags launch;
};

nlohmann::json blockedToJson(const BlockedPosition& position)
{
  static const char* const kinds[] = {"message", "room", "flag"};
  nlohmann::json object = {{"rank", position.rank},
                           {"tb", position.tb},
                           {"step", position.step},
                           {"slice", position.slice},
                           {"waitsFor", kinds[static_cast<int>(position.waitsFor)]},
                           {"description", describe(position)}};
  if (position.waitsFor == WaitKind::Flag) {
    object["depTb"] = position.depTb;
    object["depStep"] = position.depStep;
  } else {
    object["peer"] = position.peer;
    object["channel"] = position.channel;
  }
  return object;
}

int usage(const std::string& message)
{
  std::cerr << "cstudio run: " << message << '\n';
  return UsageError;
}

/// Fills `exec` from the command line; an empty string, or why an option is unusable.
std::string execOptionsFrom(const RunOptions& options, ExecOptions& exec)
{
  const std::optional<std::int64_t> bytes = parseByteSize(options.bytes);
  const std::optional<DataType> dtype = parseDataType(options.dtype);
  const std::optional<ReduceOp> op = parseReduceOp(options.op);
  if (!bytes)
    return "--bytes " + options.bytes + " is not a size (e.g. 1048576, 64K, 1M)";
  if (!dtype)
    return "--dtype " + options.dtype + " is unknown (f32, f16, bf16, f64, i32, u8)";
  if (!op)
    return "--op " + options.op + " is unknown (sum, prod, min, max)";
  exec.bytes = *bytes;
  exec.dtype = *dtype;
  exec.op = *op;
  if (options.inplace)
    exec.mode = CallMode::InPlace;
  if (options.outofplace)
    exec.mode = CallMode::OutOfPlace;
  exec.iterations = options.iterations;
  exec.warmup = options.warmup;
  exec.timeoutSeconds = options.timeout;
  exec.trace = !options.tracePath.empty();
  if (options.root >= 0)
    exec.root = options.root;
  if (options.slots > 0)
    exec.connectionSlots = options.slots;
  if (options.blocksPerThreadblock > 0)
    exec.blocksPerThreadblock = options.blocksPerThreadblock;
  if (options.threadsPerBlock > 0)
    exec.threadsPerBlock = options.threadsPerBlock;
  exec.deviceOfRank = options.deviceMap;
  if (!options.sliceBytes.empty()) {
    exec.sliceBytes = parseByteSize(options.sliceBytes);
    if (!exec.sliceBytes || *exec.sliceBytes <= 0)
      return "--slice-bytes " + options.sliceBytes + " is not a size";
  }
  return {};
}

/// What one run measured, in nccl-tests' terms.
struct Figures {
  double us = 0;
  double algbw = 0;
  double busbw = 0;
};

Figures figuresOf(const Program& program, const ExecOptions& exec, const ExecResult& result)
{
  Figures figures;
  figures.us = result.meanUs();
  figures.algbw = figures.us > 0 ? static_cast<double>(exec.bytes) / (figures.us * 1e3) : 0;
  figures.busbw = figures.algbw * busBandwidthFactor(program.collective, program.ngpus);
  return figures;
}

void printRunJson(const RunOptions& options, const ExecOptions& exec, const ExecResult& result,
                  const Figures& figures)
{
  nlohmann::json object = {{"file", options.file},
                           {"backend", options.backend},
                           {"status", std::string(execStatusName(result.status))},
                           {"bytes", exec.bytes},
                           {"count", result.count},
                           {"type", std::string(dataTypeName(exec.dtype))},
                           {"redop", std::string(reduceOpName(exec.op))},
                           {"mode", std::string(callModeName(result.mode))},
                           {"chunkElements", result.chunkElements},
                           {"slices", result.slices},
                           {"timesUs", result.iterationUs},
                           {"meanUs", figures.us},
                           {"algbwGBs", figures.algbw},
                           {"busbwGBs", figures.busbw},
                           {"wrong", result.wrong},
                           {"checked", result.checked},
                           {"verification", result.verification},
                           {"diagnostics", diagnosticsToJson(result.diagnostics)}};
  if (!result.libraryCall.empty()) {
    object["library"] = {{"call", result.libraryCall}, {"timesUs", result.libraryUs}};
  }
  object["firstWrong"] = nullptr;
  if (result.firstWrong) {
    const WrongElement& w = *result.firstWrong;
    object["firstWrong"] = {
        {"rank", w.rank},         {"buffer", std::string(1, bufferLetter(w.buffer))},
        {"chunk", w.chunk},       {"element", w.element},
        {"expected", w.expected}, {"actual", w.actual}};
  }
  nlohmann::json blocked = nlohmann::json::array();
  for (const BlockedPosition& position : result.blocked)
    blocked.push_back(blockedToJson(position));
  object["blocked"] = blocked;
  std::cout << jsonText(object) << '\n';
}

void printRunText(const RunOptions& options, const Program& program, const ExecOptions& exec,
                  const ExecResult& result, const Figures& figures)
{
  std::cout << options.file << ": " << collectiveTitle(program.collective) << ", " << program.ngpus
            << " ranks on " << options.backend << ", " << exec.bytes << " bytes (" << result.count
            << " " << dataTypeName(exec.dtype) << " per rank), " << callModeName(result.mode)
            << ", " << reduceOpName(exec.op) << ", " << result.slices << " slices of "
            << result.chunkElements << "-element chunks\n";
  std::cout << "  time " << figures.us << " us (mean of " << result.iterationUs.size()
            << "), algbw " << figures.algbw << " GB/s, busbw " << figures.busbw << " GB/s\n";
  if (!result.libraryCall.empty() && !result.libraryUs.empty()) {
    double libraryUs = 0;
    for (const double time : result.libraryUs)
      libraryUs += time / static_cast<double>(result.libraryUs.size());
    std::cout << "  " << result.libraryCall << " on the same data: " << libraryUs
              << " us (this algorithm takes " << figures.us / libraryUs << "x its time)\n";
  }
  if (result.status == ExecStatus::NotVerified) {
    std::cout << "  " << result.verification << '\n';
  } else if (result.firstWrong) {
    const WrongElement& w = *result.firstWrong;
    std::cout << "  WRONG: " << result.wrong << " of " << result.checked
              << " elements; first at rank " << w.rank << " " << bufferLetter(w.buffer) << "["
              << w.chunk << "] element " << w.element << ": expected " << w.expected << ", got "
              << w.actual << '\n';
  } else {
    std::cout << "  verified: 0 wrong of " << result.checked << " elements (" << result.verification
              << ")\n";
  }
}

/// Whether this process is one rank of a launcher run (docs/launchers.md): `place` set, or left
/// empty for the usual run of every rank in one process; an error names what is inconsistent.
std::string launchPlaceFrom(const RunOptions& options, const ExecOptions& exec,
                            std::optional<launch::LaunchPlace>& place)
{
  const LaunchFlags& flags = options.launch;
  const bool anyFlag = flags.rank >= 0 || flags.world >= 0 || flags.localRank >= 0;
  if (options.backend != "nccl")
    return anyFlag || !flags.rendezvous.empty()
               ? "--rank, --world, --local-rank and --rendezvous apply to --backend nccl only"
               : "";
  const launch::LaunchParse parse = launchPlaceOf(flags);
  if (!parse.error.empty())
    return parse.error;
  // A launcher's one-process job (srun inside a one-task allocation) runs every rank here as
  // before; flags always ask for the launcher path.
  if (parse.place && (parse.place->world > 1 || anyFlag))
    place = parse.place;
  if (place && exec.trace)
    return "--trace is not available when each rank runs in its own process";
  if (!place && !flags.rendezvous.empty())
    return "--rendezvous applies when a launcher (or --rank and --world) starts one process per "
           "rank";
  std::string error;
  rendezvousFileOf(flags.rendezvous, &error);
  return error;
}

int runRun(const RunOptions& options)
{
  ExecOptions exec;
  if (const std::string problem = execOptionsFrom(options, exec); !problem.empty())
    return usage(problem);
  std::optional<launch::LaunchPlace> place;
  if (const std::string problem = launchPlaceFrom(options, exec, place); !problem.empty())
    return usage(problem);
  std::string error;
  // A launcher run reads the program first: a wrong world size is reported on any machine.
  std::unique_ptr<Executor> executor = place ? nullptr : makeExecutor(options.backend, &error);
  if (!place && !executor)
    return usage(error);
  const ProgramInput input =
      readProgramInput(options.file, DialectId::Executor, options.lowering, "running");
  if (!input.program)
    return UsageError;
  const Program& program = *input.program;
  if (place) {
    if (const std::string problem = launch::checkWorldMatchesProgram(*place, program.ngpus);
        !problem.empty())
      return usage(problem);
    if (!(executor = makeExecutor(options.backend, &error)))
      return usage(error);
    std::string ignored; // checked by launchPlaceFrom()
    return runLaunched(*place,
                       {options.file, options.backend, options.json,
                        options.launch.rendezvousTimeout,
                        rendezvousFileOf(options.launch.rendezvous, &ignored)},
                       program, *executor, exec);
  }
  const ExecResult result = executor->run(program, exec);

  const int exitCode = exitCodeOf(result.status);
  if (result.status == ExecStatus::Hung) {
    for (const BlockedPosition& position : result.blocked)
      std::cerr << options.file << ": blocked: " << describe(position) << '\n';
  }
  // A hung run's trace holds what completed up to the stop, for `cstudio replay`.
  const bool hungWithTrace = result.status == ExecStatus::Hung && result.trace.stoppedUs;
  if (exec.trace && (result.status == ExecStatus::Verified || result.status == ExecStatus::Wrong ||
                     result.status == ExecStatus::NotVerified || hungWithTrace)) {
    if (const std::string failure =
            writeTextFileAtomically(options.tracePath, writeChromeTrace(result.trace));
        !failure.empty())
      return usage("cannot write the trace: " + failure);
  }
  const Figures figures = figuresOf(program, exec, result);
  if (options.json) {
    printRunJson(options, exec, result, figures);
    return exitCode;
  }
  printDiagnostics(std::cerr, options.file, result.diagnostics);
  if (result.status == ExecStatus::Failed || result.status == ExecStatus::Hung) {
    std::cout << options.file << ": " << execStatusName(result.status) << '\n';
    return exitCode;
  }
  printRunText(options, program, exec, result, figures);
  return exitCode;
}

/// The options of a run started once per rank by mpirun, srun or torchrun (docs/launchers.md).
void addLaunchOptions(CLI::App* command, LaunchFlags& flags)
{
  const char* const group = "Launcher runs (--backend nccl, one process per rank)";
  command
      ->add_option("--rank", flags.rank,
                   "This process's rank (default: from OMPI_COMM_WORLD_RANK, SLURM_PROCID or RANK)")
      ->check(CLI::NonNegativeNumber)
      ->group(group);
  command
      ->add_option("--world", flags.world,
                   "Processes in the run (default: OMPI_COMM_WORLD_SIZE, SLURM_NTASKS, WORLD_SIZE)")
      ->check(CLI::Range(1, 1 << 20))
      ->group(group);
  command
      ->add_option("--local-rank", flags.localRank,
                   "This process's GPU on its node (default: the launcher's local rank)")
      ->check(CLI::NonNegativeNumber)
      ->group(group);
  command
      ->add_option("--rendezvous", flags.rendezvous,
                   "file:PATH: meet through a file on a shared path (rank 0 writes its address "
                   "there) instead of at MASTER_ADDR:MASTER_PORT")
      ->group(group);
  command
      ->add_option("--rendezvous-timeout", flags.rendezvousTimeout,
                   "Seconds for every rank to reach rank 0 (MASTER_ADDR:MASTER_PORT or the file)")
      ->check(CLI::Range(0.1, 86400.0))
      ->capture_default_str()
      ->group(group);
}

} // namespace

Runner addRunCommand(CLI::App& app)
{
  auto options = std::make_shared<RunOptions>();
  CLI::App* command = app.add_subcommand(
      "run", "Run an MSCCL algorithm on real data with an executor, verify the result against a "
             "host reference and report times (like one row of nccl-tests)");
  command->add_option("file", options->file, "MSCCL XML file or design document (.json)")
      ->required()
      ->type_name("FILE");
  addLoweringOptions(command, options->lowering);
  command->add_option("--backend", options->backend, "Executor")
      ->check(CLI::IsMember({"cpu", "cuda", "nccl"}))
      ->capture_default_str();
  command
      ->add_option("--bytes", options->bytes,
                   "Size as nccl-tests counts it (count x mult x element size); K/M/G suffixes")
      ->capture_default_str();
  command->add_option("--dtype", options->dtype, "f32, f16, bf16, f64, i32 or u8")
      ->capture_default_str();
  command->add_option("--op", options->op, "sum, prod, min or max")->capture_default_str();
  CLI::Option* inplace =
      command->add_flag("--inplace", options->inplace, "Call in place (default: first declared)");
  command->add_flag("--outofplace", options->outofplace, "Call out of place")->excludes(inplace);
  command->add_option("--iters", options->iterations, "Timed runs (the last is verified)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  command->add_option("--warmup", options->warmup, "Untimed runs first")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  command
      ->add_option("--timeout", options->timeout,
                   "Seconds without progress before the watchdog stops the run")
      ->check(CLI::Range(0.001, 86400.0))
      ->capture_default_str();
  command->add_option("--root", options->root, "Root of a broadcast or reduce (default: inferred)")
      ->check(CLI::NonNegativeNumber);
  command
      ->add_option("--slots", options->slots,
                   "Messages a connection holds (default: 2 for Simple, 8 for LL/LL128)")
      ->check(CLI::Range(1, 1024));
  command
      ->add_option("--blocks-per-tb", options->blocksPerThreadblock,
                   "CUDA: GPU blocks sharing each threadblock's elements (default: fill the GPU)")
      ->check(CLI::Range(1, 4096));
  command
      ->add_option("--threads-per-block", options->threadsPerBlock,
                   "CUDA: threads of each GPU block, a multiple of 32 (default: the most that "
                   "stay resident, up to 512)")
      ->check(CLI::Range(32, 512))
      ->check(CLI::Validator(
          [](const std::string& text) {
            return std::strtol(text.c_str(), nullptr, 10) % 32 == 0
                       ? std::string()
                       : text + " is not a multiple of 32 (a GPU warp)";
          },
          "MULTIPLE OF 32"));
  command
      ->add_option("--device-map", options->deviceMap,
                   "CUDA/NCCL: the GPU of each rank, e.g. 0,0,0,0,1,1,1,1 (default: consecutive "
                   "ranks share the visible GPUs evenly)")
      ->delimiter(',')
      ->type_name("D0,D1,...");
  command->add_option("--slice-bytes", options->sliceBytes,
                      "Slice of the slicing loop (default: the runtime's: 2M Simple, 32K LL, "
                      "576000 bytes LL128)");
  command
      ->add_option("--trace", options->tracePath,
                   "Write a Chrome trace of the last run (of a hung run: up to the stop)")
      ->type_name("OUT.json");
  command->add_flag("--json", options->json, "Print one JSON object");
  addLaunchOptions(command, options->launch);
  command->footer("Exit status: 0 verified (or nothing to verify), 1 wrong results, 2 usage error "
                  "or unreadable input, 3 hang stopped by the watchdog (blocked positions on "
                  "stderr and in the JSON).");
  return [options] { return runRun(*options); };
}

} // namespace cs::cli
