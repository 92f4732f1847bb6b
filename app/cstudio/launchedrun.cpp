#include "launchedrun.h"

#include "commands.h"
#include "output.h"

#include "exec/launch/rendezvous.h"
#include "sim/estimates.h"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>

namespace cs::cli {

namespace {

/// The executor's side of the rendezvous: NCCL's id goes through it.
class RendezvousGroup final : public RankGroup
{
public:
  RendezvousGroup(const launch::LaunchPlace& place, launch::Rendezvous& rendezvous)
      : m_place(place), m_rendezvous(rendezvous)
  {
  }
  int rank() const override { return m_place.rank; }
  int world() const override { return m_place.world; }
  int localRank() const override { return m_place.localRank; }
  std::optional<std::vector<std::byte>> shareId(const std::vector<std::byte>& id,
                                                std::string* error) override
  {
    m_shared = true;
    std::optional<std::vector<std::byte>> shared = m_rendezvous.exchangeId(id, error);
    if (!shared) {
      m_failure = *error;
      return shared;
    }
    // From here to the end of the run a rank that goes away cancels this one's run at once.
    std::string problem;
    m_watcher = m_rendezvous.watch(m_cancel, &problem);
    if (!m_watcher)
      m_watchProblem = problem;
    return shared;
  }
  bool idShared() const override { return m_shared; }
  /// Why the id exchange failed (the rendezvous's message), or empty.
  const std::string& failure() const { return m_failure; }
  /// The flag the watcher sets, for ExecOptions::cancel.
  const std::atomic<bool>* cancelFlag() const { return &m_cancel; }
  /// Why the ranks could not be watched during the run (then only --timeout stops a run whose
  /// peer died), or empty.
  const std::string& watchProblem() const { return m_watchProblem; }
  /// Ends the watch (before the gather): why the run was lost, or empty.
  std::string stopWatching() { return m_watcher ? m_watcher->stop() : std::string(); }

private:
  launch::LaunchPlace m_place;
  launch::Rendezvous& m_rendezvous;
  bool m_shared = false;
  std::string m_failure;
  std::atomic<bool> m_cancel{false};
  std::unique_ptr<launch::RunWatcher> m_watcher;
  std::string m_watchProblem;
};

int failure(const launch::LaunchPlace& place, const std::string& message)
{
  std::cerr << "cstudio run: rank " << place.rank << ": " << message << '\n';
  return UsageError;
}

std::optional<std::string> fileBytes(const std::string& path)
{
  std::ifstream stream(path, std::ios::binary);
  if (!stream)
    return std::nullopt;
  std::ostringstream bytes;
  bytes << stream.rdbuf();
  return bytes.str();
}

/// This rank's share of the result, for rank 0's table.
launch::RankReport reportOf(int rank, const ExecResult& result)
{
  launch::RankReport report;
  report.rank = rank;
  report.status = std::string(execStatusName(result.status));
  report.wrong = result.wrong;
  report.checked = result.checked;
  report.meanUs = result.meanUs();
  if (result.firstWrong) {
    const WrongElement& w = *result.firstWrong;
    std::ostringstream text; // a stream writes 6, not std::to_string's 6.000000
    text << "first wrong: rank " << w.rank << " " << bufferLetter(w.buffer) << "[" << w.chunk
         << "] element " << w.element << ": expected " << w.expected << ", got " << w.actual;
    report.detail = text.str();
  } else {
    const auto error =
        std::find_if(result.diagnostics.begin(), result.diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; });
    if (error != result.diagnostics.end())
      report.detail = error->message;
  }
  return report;
}

ExecStatus statusOf(const std::string& name)
{
  for (const ExecStatus status : {ExecStatus::Verified, ExecStatus::Wrong, ExecStatus::NotVerified,
                                  ExecStatus::Hung, ExecStatus::Failed}) {
    if (execStatusName(status) == name)
      return status;
  }
  return ExecStatus::Failed;
}

/// The run's verdict from every rank's: a hang first, then a failure, then wrong results.
ExecStatus worstOf(const std::vector<launch::RankReport>& reports)
{
  std::vector<ExecStatus> statuses;
  for (const launch::RankReport& report : reports)
    statuses.push_back(statusOf(report.status));
  for (const ExecStatus worst :
       {ExecStatus::Hung, ExecStatus::Failed, ExecStatus::Wrong, ExecStatus::NotVerified}) {
    if (std::find(statuses.begin(), statuses.end(), worst) != statuses.end())
      return worst;
  }
  return ExecStatus::Verified;
}

struct Totals {
  ExecStatus status = ExecStatus::Verified;
  double slowestUs = 0; ///< a collective ends when its slowest rank does
  std::int64_t wrong = 0;
  std::int64_t checked = 0;
  double algbw = 0;
  double busbw = 0;
};

Totals totalsOf(const Program& program, const ExecOptions& exec,
                const std::vector<launch::RankReport>& reports)
{
  Totals totals;
  totals.status = worstOf(reports);
  for (const launch::RankReport& report : reports) {
    totals.slowestUs = std::max(totals.slowestUs, report.meanUs);
    totals.wrong += report.wrong;
    totals.checked += report.checked;
  }
  totals.algbw =
      totals.slowestUs > 0 ? static_cast<double>(exec.bytes) / (totals.slowestUs * 1e3) : 0;
  totals.busbw = totals.algbw * busBandwidthFactor(program.collective, program.ngpus);
  return totals;
}

void printJson(const LaunchedRun& run, const launch::LaunchPlace& place, const ExecOptions& exec,
               const std::vector<launch::RankReport>& reports, const Totals& totals)
{
  nlohmann::json ranks = nlohmann::json::array();
  for (const launch::RankReport& report : reports) {
    ranks.push_back({{"rank", report.rank},
                     {"status", report.status},
                     {"wrong", report.wrong},
                     {"checked", report.checked},
                     {"meanUs", report.meanUs},
                     {"detail", report.detail}});
  }
  const nlohmann::json object = {{"file", run.file},
                                 {"backend", run.backend},
                                 {"launcher", place.source},
                                 {"world", place.world},
                                 {"status", std::string(execStatusName(totals.status))},
                                 {"bytes", exec.bytes},
                                 {"type", std::string(dataTypeName(exec.dtype))},
                                 {"redop", std::string(reduceOpName(exec.op))},
                                 {"meanUs", totals.slowestUs},
                                 {"algbwGBs", totals.algbw},
                                 {"busbwGBs", totals.busbw},
                                 {"wrong", totals.wrong},
                                 {"checked", totals.checked},
                                 {"ranks", ranks}};
  std::cout << jsonText(object) << '\n';
}

void printText(const LaunchedRun& run, const launch::LaunchPlace& place, const Program& program,
               const ExecOptions& exec, const std::vector<launch::RankReport>& reports,
               const Totals& totals)
{
  std::cout << run.file << ": " << collectiveTitle(program.collective) << ", " << place.world
            << " ranks on " << run.backend << ", one process per rank (" << place.source << "), "
            << exec.bytes << " bytes, " << dataTypeName(exec.dtype) << ", " << reduceOpName(exec.op)
            << '\n';
  for (const launch::RankReport& report : reports) {
    std::cout << "  rank " << report.rank << ": " << report.status << ", " << report.wrong
              << " wrong of " << report.checked << " elements, " << report.meanUs << " us"
              << (report.detail.empty() ? "" : " (" + report.detail + ")") << '\n';
  }
  std::cout << "  time " << totals.slowestUs << " us (slowest rank), algbw " << totals.algbw
            << " GB/s, busbw " << totals.busbw << " GB/s\n";
  std::cout << "  " << execStatusName(totals.status) << ": " << totals.wrong << " wrong of "
            << totals.checked << " elements on " << reports.size() << " ranks\n";
}

/// Where and how this rank meets the others: MASTER_ADDR:MASTER_PORT, or the file
/// `--rendezvous file:PATH` names; nullopt with `error` naming what is missing.
std::optional<launch::RendezvousConfig>
rendezvousConfigOf(const launch::LaunchPlace& place, const LaunchedRun& run, std::string* error)
{
  launch::RendezvousConfig config;
  if (run.rendezvousFile.empty()) {
    const launch::MasterParse master = launch::parseMasterEndpoint(launch::processEnvironment());
    if (!master.endpoint) {
      *error = master.error;
      return std::nullopt;
    }
    config.host = master.endpoint->host;
    config.port = master.endpoint->port;
  }
  config.file = run.rendezvousFile;
  const std::optional<std::string> bytes = fileBytes(run.file);
  if (!bytes) {
    *error = "cannot read " + run.file;
    return std::nullopt;
  }
  config.rank = place.rank;
  config.world = place.world;
  config.program = launch::programFingerprint(*bytes);
  config.timeoutSeconds = run.rendezvousTimeout;
  return config;
}

} // namespace

int exitCodeOf(ExecStatus status)
{
  switch (status) {
  case ExecStatus::Verified:
  case ExecStatus::NotVerified:
    return Ok;
  case ExecStatus::Wrong:
    return Problems;
  case ExecStatus::Hung:
    return Hang;
  case ExecStatus::Failed:
    break;
  }
  return UsageError;
}

std::string rendezvousFileOf(const std::string& value, std::string* error)
{
  const std::string prefix = "file:";
  if (value.empty())
    return {};
  if (value.rfind(prefix, 0) != 0 || value.size() == prefix.size()) {
    *error = "--rendezvous takes file:PATH (a file every rank can read, on a shared path), not '" +
             value + "'; without it the ranks meet at MASTER_ADDR:MASTER_PORT";
    return {};
  }
  return value.substr(prefix.size());
}

launch::LaunchParse launchPlaceOf(const LaunchFlags& flags)
{
  launch::LaunchOverrides overrides;
  if (flags.rank >= 0)
    overrides.rank = flags.rank;
  if (flags.world >= 0)
    overrides.world = flags.world;
  if (flags.localRank >= 0)
    overrides.localRank = flags.localRank;
  return launch::parseLaunchPlace(launch::processEnvironment(), overrides);
}

int runLaunched(const launch::LaunchPlace& place, const LaunchedRun& run, const Program& program,
                Executor& executor, ExecOptions exec)
{
  if (const std::string problem = launch::checkWorldMatchesProgram(place, program.ngpus);
      !problem.empty())
    return failure(place, problem);
  std::string error;
  const std::optional<launch::RendezvousConfig> config = rendezvousConfigOf(place, run, &error);
  if (!config)
    return failure(place, error);
  const std::unique_ptr<launch::Rendezvous> rendezvous = launch::Rendezvous::start(*config, &error);
  if (!rendezvous)
    return failure(place, error);
  RendezvousGroup group(place, *rendezvous);
  exec.rankGroup = &group;
  exec.cancel = group.cancelFlag(); // the CLI has no other cancel
  const ExecResult result = executor.run(program, exec);
  // Whatever this rank's own verdict, a peer that went away during the run ends it here: every
  // process names that rank, and rank 0 has already told the others.
  if (const std::string lost = group.stopWatching(); !lost.empty())
    return failure(place, lost);
  if (!group.watchProblem().empty())
    std::cerr << "cstudio run: rank " << place.rank << ": warning: " << group.watchProblem()
              << "; a rank that died during the run would only be noticed by --timeout\n";
  // A rank that failed before the id exchange (no GPU, a bad device map) still meets the others,
  // so that every rank hears why and none waits inside NCCL for it.
  if (!group.idShared()) {
    const std::string reason = "could not start: " + reportOf(place.rank, result).detail;
    printDiagnostics(std::cerr, run.file, result.diagnostics);
    if (place.rank != 0)
      return failure(place, rendezvous->cannotStart(reportOf(place.rank, result).detail));
    rendezvous->turnAway(reason);
    return failure(place, reason);
  }
  if (!group.failure().empty())
    return failure(place, group.failure());
  if (place.rank != 0) {
    // Rank 0 prints the run's notes once; every other rank only its own warnings and errors.
    std::vector<Diagnostic> serious;
    std::copy_if(result.diagnostics.begin(), result.diagnostics.end(), std::back_inserter(serious),
                 [](const Diagnostic& d) { return d.severity != Severity::Info; });
    printDiagnostics(std::cerr, run.file, serious);
  }
  const std::optional<std::vector<launch::RankReport>> reports =
      rendezvous->gather(reportOf(place.rank, result), &error);
  if (!reports)
    return failure(place, error);
  if (place.rank != 0)
    return exitCodeOf(result.status);
  const Totals totals = totalsOf(program, exec, *reports);
  if (run.json) {
    printJson(run, place, exec, *reports, totals);
  } else {
    printDiagnostics(std::cerr, run.file, result.diagnostics);
    printText(run, place, program, exec, *reports, totals);
  }
  return exitCodeOf(totals.status);
}

} // namespace cs::cli
