// A stand-in NCCL module (cs-backend-nccl.so) for tst_launchedrun: where the real executor would
// create NCCL's unique id, hand it through ExecOptions::rankGroup and run its rank on a GPU, this
// one hands 128 made-up bytes through the same interface, checks that every rank received rank 0's
// bytes, and reports a verdict for its rank. So the whole `cstudio run --backend nccl` launcher
// path (environment, rendezvous, gather, table, exit codes) runs in real processes without a GPU.
// Plain C++, links nothing (like fakebackend.cpp). Environment, for the test:
//   CS_FAKE_WRONG_RANK=r   rank r reports 3 wrong elements
//   CS_FAKE_EXIT_RANK=r    rank r exits abruptly after the id exchange (a rank that dies mid-run)
//   CS_FAKE_FAIL_RANK=r    rank r fails before the id exchange (as without a usable GPU)
//   CS_FAKE_BLOCK=1        every rank, after the id exchange, says "rank r is running" on stderr
//                          and runs until ExecOptions::cancel is set (a collective whose peer
//                          died: only the rendezvous watcher can stop it)

#include "exec/backendmodule.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include <cstdlib>
#include <string>

namespace {

std::vector<std::byte> madeUpId()
{
  std::vector<std::byte> id(128);
  for (std::size_t i = 0; i < id.size(); ++i)
    id[i] = static_cast<std::byte>((i * 29 + 7) & 0xff);
  return id;
}

bool rankNamedBy(const char* variable, int rank)
{
  const char* value = std::getenv(variable);
  return value && std::to_string(rank) == value;
}

cs::ExecResult failed(std::string message)
{
  cs::ExecResult result;
  cs::Diagnostic diagnostic;
  diagnostic.code = "exec.nccl-rendezvous";
  diagnostic.message = std::move(message);
  result.diagnostics.push_back(std::move(diagnostic));
  return result;
}

/// Blocks like a collective waiting for a peer that is gone, until the run is cancelled; returns
/// what the run loop returns for a cancelled run.
cs::ExecResult runUntilCancelled(int rank, const std::atomic<bool>* cancel)
{
  if (!cancel)
    return failed("CS_FAKE_BLOCK needs ExecOptions::cancel, and the run has none");
  std::fprintf(stderr, "rank %d is running\n", rank);
  std::fflush(stderr);
  while (!cancel->load())
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  cs::ExecResult result = failed("the run was cancelled after 0 finished launches");
  result.diagnostics.front().code = "exec.cancelled";
  result.cancelled = true;
  return result;
}

class FakeLaunchExecutor : public cs::Executor
{
public:
  std::string_view name() const override { return "nccl"; }
  cs::ExecResult run(const cs::Program& /*program*/, const cs::ExecOptions& options) override
  {
    cs::RankGroup* group = options.rankGroup;
    if (!group)
      return failed("the fake NCCL module runs launcher runs only");
    const int rank = group->rank();
    if (rankNamedBy("CS_FAKE_FAIL_RANK", rank))
      return failed("rank " + std::to_string(rank) + " (local rank " +
                    std::to_string(group->localRank()) + ") needs a GPU, but none is visible");
    std::string error;
    const std::optional<std::vector<std::byte>> id =
        group->shareId(rank == 0 ? madeUpId() : std::vector<std::byte>{}, &error);
    if (!id)
      return failed(error);
    if (*id != madeUpId())
      return failed("rank " + std::to_string(rank) + " received another id than rank 0 sent");
    if (rankNamedBy("CS_FAKE_EXIT_RANK", rank))
      _exit(9);
    if (const char* block = std::getenv("CS_FAKE_BLOCK"); block && std::string(block) == "1")
      return runUntilCancelled(rank, options.cancel);
    cs::ExecResult result;
    result.status = cs::ExecStatus::Verified;
    result.checked = 1024;
    result.iterationUs = {10.0 + rank};
    if (rankNamedBy("CS_FAKE_WRONG_RANK", rank)) {
      result.status = cs::ExecStatus::Wrong;
      result.wrong = 3;
      result.firstWrong = cs::WrongElement{rank, cs::Buffer::Output, 1, 0, 6.0, 0.0};
    }
    return result;
  }
};

std::optional<int> oneDevice(std::string* /*why*/)
{
  return 1;
}

std::unique_ptr<cs::Executor> makeFakeLaunchExecutor()
{
  return std::make_unique<FakeLaunchExecutor>();
}

const cs::BackendModule kFakeLaunchModule{cs::kBackendInterfaceVersion,
                                          cs::backendLayoutFingerprint(), "nccl", &oneDevice,
                                          &makeFakeLaunchExecutor};

} // namespace

extern "C" __attribute__((visibility("default"))) const cs::BackendModule* cstudio_backend_module()
{
  return &kFakeLaunchModule;
}
