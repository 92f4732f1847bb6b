#pragma once

// Running a Program on real data (DESIGN.md §5): the interface every executor implements — the
// CPU reference here, CUDA and NCCL on GPU builds — and the registry that finds one by name.
// Options and results follow nccl-tests: a size in bytes, a data type and a reduction, times per
// iteration, #wrong elements after verification against a host reference, and a Trace with one
// event per (rank, tb, step, slice). A run never throws and never hangs: problems come back as
// diagnostics, a hang as the list of blocked positions the watchdog saw.
//
// Where to start when changing it: the options and result structs below are what `cstudio run`,
// `cstudio bench --backend` and the tests read; engine/exec/plan/runloop.h is the run loop every
// backend shares.

#include "../model/buffergeometry.h"
#include "../model/program.h"
#include "../model/trace.h"
#include "model/diagnostic.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs {

/// Element types of the collective call (nccl-tests' names in dataTypeName()).
enum class DataType : std::uint8_t { F32, F16, BF16, F64, I32, U8 };
inline constexpr int kDataTypeCount = 6;
/// nccl-tests' spelling: "float", "half", "bfloat16", "double", "int32", "uint8".
std::string_view dataTypeName(DataType type);
/// Accepts the short names (f32, f16, bf16, f64, i32, u8) and nccl-tests' names.
std::optional<DataType> parseDataType(std::string_view text);
/// Bytes per element.
int dataTypeSize(DataType type);
/// Whether every reduction order gives the same bits (integers wrap, so they are exact).
bool isIntegerType(DataType type);

/// The reduction of the API call; MSCCL runtimes schedule only these four (msccl-format.md §2.1).
enum class ReduceOp : std::uint8_t { Sum, Prod, Min, Max };
inline constexpr int kReduceOpCount = 4;
std::string_view reduceOpName(ReduceOp op); ///< "sum", "prod", "min", "max"
std::optional<ReduceOp> parseReduceOp(std::string_view text);

/// A run started once per rank by a launcher (mpirun, srun, torchrun; docs/launchers.md): this
/// process runs one rank's share of the program and meets the other processes through a
/// rendezvous (engine/exec/launch). The NCCL executor takes its rank, device and communicator id
/// from here (ncclCommInitRank); `cstudio run` passes one to that backend only.
class RankGroup
{
public:
  virtual ~RankGroup() = default;
  virtual int rank() const = 0;
  virtual int world() const = 0;
  virtual int localRank() const = 0; ///< the device of this rank on its node
  /// Rank 0 passes the communicator id it created and gets it back once every rank has it; the
  /// others pass nothing and get rank 0's bytes. nullopt with `error` when a rank is missing or
  /// refused (the rendezvous's message).
  virtual std::optional<std::vector<std::byte>> shareId(const std::vector<std::byte>& id,
                                                        std::string* error) = 0;
  /// Whether shareId() was called (a failure before it must still meet the others).
  virtual bool idShared() const = 0;
};

/// How to run a program. Sizes follow nccl-tests: `bytes` is count × mult × element size, i.e.
/// the whole buffer the runtime splits into nchunksperloop chunks (msccl-format.md §4.1).
struct ExecOptions {
  std::int64_t bytes = 1 << 20;
  DataType dtype = DataType::F32;
  ReduceOp op = ReduceOp::Sum;
  /// In-place or out-of-place; absent: the first mode the program declares (in-place first).
  std::optional<CallMode> mode;
  int iterations = 1; ///< timed runs; the last one is verified and traced
  int warmup = 0;     ///< untimed runs before them
  /// Seconds without any progress after which the watchdog stops the run and reports it as hung.
  double timeoutSeconds = 10.0;
  bool trace = false; ///< fill ExecResult::trace (off costs no clock reads)
  /// Root rank for broadcast and reduce verification; absent: inferred like the checker does.
  std::optional<int> root;
  /// Elements of one chunk processed per iteration of the slicing loop, as bytes; absent: the
  /// protocol's slice (see defaultSliceBytes()). Smaller values pipeline more, cost more syncs.
  std::optional<std::int64_t> sliceBytes;
  /// Messages a connection holds before its sender blocks; absent: the protocol's value
  /// (defaultConnectionSlots()). 1 makes ring algorithms deadlock, as the checker predicts.
  std::optional<int> connectionSlots;
  /// Device of each rank (GPU executors; many ranks may share a device). Empty: the backend's
  /// default mapping. The CPU executor ignores it.
  std::vector<int> deviceOfRank;
  /// CUDA executor: GPU blocks that share the elements of each (rank, tb), each over its own part
  /// of every slice (one block cannot move data at the speed of the GPU's memory). Absent: as
  /// many as keep every SM busy while all blocks stay resident.
  std::optional<int> blocksPerThreadblock;
  /// CUDA executor: threads of each GPU block, a multiple of 32 up to 512. Absent: the most that
  /// keep every block resident. Fewer make a block's barriers cheaper, which small messages feel.
  std::optional<int> threadsPerBlock;
  /// Fill ExecResult::buffers with every rank's memory after the last run (to compare backends
  /// element by element where no postcondition is known, or to show the buffers).
  bool keepBuffers = false;
  /// Set by another thread to stop the run early (the app's Cancel): every backend's watchdog
  /// polls it, stops the launch as it stops a hang, and no later iteration starts; the result is
  /// then Failed with `cancelled` set. Null: never cancelled.
  const std::atomic<bool>* cancel = nullptr;
  /// A launcher run: this process runs only the group's rank (NCCL executor). Null: every rank
  /// in this process.
  RankGroup* rankGroup = nullptr;
  /// Verify only this rank's results (a launcher run holds no other rank's memory). Absent: all.
  std::optional<int> verifyRank;
  /// Where the run loop counts the launches (warm-up and timed) that finished, for a progress
  /// display polling it from another thread. Null: not counted.
  std::atomic<int>* launchesDone = nullptr;
};

/// The slice the runtime's slicing loop uses per protocol (msccl-format.md §4.2):
/// runtimeSliceBytes() of model/fifodepth.h, the simulator's slice too (2 MiB Simple, 32 KiB LL,
/// 576,000 bytes LL128).
std::int64_t defaultSliceBytes(Protocol protocol);
/// connectionSlots() of model/fifodepth.h: 2 Simple messages, 8 LL/LL128 messages.
int defaultConnectionSlots(Protocol protocol);

/// An element of the result that differs from the host reference: the trace's WrongChunk.
using WrongElement = WrongChunk;

/// What a blocked threadblock waits for (BlockedPosition, model/trace.h, is the trace's).
using WaitKind = BlockedOn;
/// "rank 1 tb 0 step 2 slice 0 waits for room on the connection to rank 2 (channel 0)".
std::string describe(const BlockedPosition& position);

enum class ExecStatus : std::uint8_t {
  Verified,    ///< ran to the end and every result element matched the reference
  Wrong,       ///< ran to the end; `wrong` elements differ
  NotVerified, ///< ran to the end; no postcondition is known (custom, or no root)
  Hung,        ///< the watchdog stopped it; `blocked` says where
  Failed,      ///< could not run: bad size, invalid program, backend missing (`diagnostics`)
};
std::string_view execStatusName(ExecStatus status);

struct ExecResult {
  ExecStatus status = ExecStatus::Failed;
  std::vector<Diagnostic> diagnostics; ///< why it could not run, and notes (root inferred, …)
  CallMode mode = CallMode::InPlace;   ///< the mode that ran
  std::int64_t count = 0;              ///< elements per rank of the API call (N / mult)
  std::int64_t chunkElements = 0;      ///< elements of one MSCCL chunk
  int slices = 0;                      ///< iterations of the slicing loop
  std::vector<double> iterationUs;     ///< timed iterations, µs each
  std::int64_t wrong = 0;              ///< result elements that differ (nccl-tests' #wrong)
  std::int64_t checked = 0;            ///< result elements compared
  std::optional<WrongElement> firstWrong;
  /// The first wrong element of every wrong chunk, at most TraceVerification::kChunkLimit of them
  /// in (rank, chunk) order; `wrongChunkCount` counts them all. A traced run's trace carries them
  /// too (Trace::verification).
  std::vector<WrongElement> wrongChunks;
  std::int64_t wrongChunkCount = 0;
  std::string verification; ///< how the result was judged, for people
  std::vector<BlockedPosition> blocked;
  bool cancelled = false; ///< ExecOptions::cancel stopped it (status Failed, exec.cancelled)
  Trace trace; ///< with ExecOptions::trace; of a Hung run: up to the stop (Trace::stoppedUs)
  /// The communication library's own collective for the same call, measured in the same run
  /// (the NCCL executor's ncclAllReduce, …): its name and µs per timed iteration; empty otherwise.
  std::string libraryCall;
  std::vector<double> libraryUs;
  /// With ExecOptions::keepBuffers, after a run that ended: per rank, the allocations behind i, o
  /// and s after in-place aliasing (Buffer order; empty where unused), as the last run left them.
  std::vector<std::array<std::vector<std::byte>, kBufferCount>> buffers;

  /// Mean of iterationUs, 0 when empty.
  double meanUs() const;
};

/// One execution backend. Implementations are stateless between runs.
class Executor
{
public:
  virtual ~Executor() = default;
  /// "cpu", "cuda", "nccl".
  virtual std::string_view name() const = 0;
  /// Runs `program` as the runtime would and verifies the result. Never throws.
  virtual ExecResult run(const Program& program, const ExecOptions& options) = 0;
  /// Bytes per second (read plus write) a plain copy of `bytes` reaches on this backend's
  /// hardware, measured now: the roofline's yardstick. Absent: the host's memcpy is the yardstick.
  virtual std::optional<double> copyBandwidth(std::int64_t /*bytes*/) { return std::nullopt; }
};

/// Why a backend can or cannot run here: the GPU backends are modules loaded at run time
/// (backendmodule.h), so each can miss its module, fail to load it, or find no GPU.
enum class BackendState : std::uint8_t {
  Ready,          ///< can run
  NoModule,       ///< its module file is in none of the search folders
  ModuleUnusable, ///< the file is there but cannot load (a library missing) or is refused
  NoDevice,       ///< the module loaded but sees no GPU (no driver, no device)
};

/// A backend the programs know of, and whether it can run on this machine.
struct BackendInfo {
  std::string name;
  bool available = false;
  std::string reason; ///< why it is unavailable, for people
  BackendState state = BackendState::NoModule;
  std::string module; ///< the module file it comes from; empty for the built-in CPU backend
  int devices = 0;    ///< GPUs a ready GPU backend sees
};
/// Every backend name the CLI accepts, in a fixed order (cpu, cuda, nccl). The modules are
/// looked for once per process (backendloader.h).
std::vector<BackendInfo> executorBackends();

/// Creates a backend by name; nullptr with `error` filled when it is unknown or cannot run here
/// (BackendInfo::reason).
std::unique_ptr<Executor> makeExecutor(std::string_view name, std::string* error = nullptr);

} // namespace cs
