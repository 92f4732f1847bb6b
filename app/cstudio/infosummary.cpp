#include "infosummary.h"
#include "output.h"

#include "check/runtimeverdict.h"
#include "model/buffergeometry.h"
#include "model/untrustedtext.h"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <set>

namespace cs::cli {

namespace {

struct RankSummary {
  int rank = 0;
  int inputChunks = 0, outputChunks = 0, scratchChunks = 0;
  int threadblocks = 0;
  int steps = 0;
  int maxStepsPerThreadblock = 0;
};

std::vector<RankSummary> summariseRanks(const Program& program)
{
  std::vector<RankSummary> ranks;
  for (const Gpu& gpu : program.gpus) {
    RankSummary summary{gpu.id,
                        gpu.inputChunks,
                        gpu.outputChunks,
                        gpu.scratchChunks,
                        static_cast<int>(gpu.threadblocks.size()),
                        0,
                        0};
    for (const ThreadBlock& tb : gpu.threadblocks) {
      summary.steps += static_cast<int>(tb.steps.size());
      summary.maxStepsPerThreadblock =
          std::max(summary.maxStepsPerThreadblock, static_cast<int>(tb.steps.size()));
    }
    ranks.push_back(summary);
  }
  return ranks;
}

std::string sizeRange(const Program& program)
{
  const auto text = [](const std::optional<std::int64_t>& value) {
    return value ? std::to_string(*value) : std::string("absent");
  };
  return "minBytes " + text(program.minBytes) + ", maxBytes " + text(program.maxBytes);
}

int usedChannels(const Program& program)
{
  std::set<int> channels;
  for (const Gpu& gpu : program.gpus) {
    for (const ThreadBlock& tb : gpu.threadblocks)
      channels.insert(tb.chan);
  }
  return static_cast<int>(channels.size());
}

std::vector<RuntimeVerdict> judgeEveryRuntime(const Program& program,
                                              const std::vector<Diagnostic>& readDiagnostics,
                                              std::optional<GpuModelId> gpu)
{
  std::vector<RuntimeVerdict> verdicts;
  for (const DialectId id : allDialects())
    verdicts.push_back(judgeRuntime(program, id, readDiagnostics, gpu));
  return verdicts;
}

nlohmann::json verdictJson(const RuntimeVerdict& verdict)
{
  nlohmann::json modes = nlohmann::json::array();
  for (const CallMode mode : verdict.modes)
    modes.push_back(std::string(callModeName(mode)));
  return {{"loads", verdict.loads()},
          {"selected_sizes",
           verdict.sizes ? nlohmann::json::array({verdict.sizes->first, verdict.sizes->second})
                         : nlohmann::json(nullptr)},
          {"modes", modes},
          {"reasons", verdict.reasons}};
}

} // namespace

nlohmann::json infoJson(const std::string& file, const Program& program,
                        const std::vector<Diagnostic>& readDiagnostics,
                        std::optional<GpuModelId> gpu)
{
  std::vector<std::string> modes;
  for (const CallMode mode : declaredModes(program))
    modes.emplace_back(callModeName(mode));
  nlohmann::json accepted = nlohmann::json::object();
  nlohmann::json runtimes = nlohmann::json::object();
  for (const RuntimeVerdict& verdict : judgeEveryRuntime(program, readDiagnostics, gpu)) {
    const std::string key(dialect(verdict.dialect).key);
    accepted[key] = verdict.loads();
    runtimes[key] = verdictJson(verdict);
  }
  nlohmann::json perRank = nlohmann::json::array();
  for (const RankSummary& r : summariseRanks(program)) {
    perRank.push_back({{"rank", r.rank},
                       {"i_chunks", r.inputChunks},
                       {"o_chunks", r.outputChunks},
                       {"s_chunks", r.scratchChunks},
                       {"threadblocks", r.threadblocks},
                       {"steps", r.steps},
                       {"max_steps_per_tb", r.maxStepsPerThreadblock}});
  }
  nlohmann::json object = {
      {"file", file},
      {"name", program.name},
      {"collective", program.collSpelling},
      {"ngpus", program.ngpus},
      {"protocol", std::string(protocolName(program.proto))},
      {"nchunksperloop", program.nchunksperloop},
      {"nchannels", program.nchannels},
      {"channels_used", usedChannels(program)},
      {"modes", modes},
      {"minBytes", program.minBytes ? nlohmann::json(*program.minBytes) : nlohmann::json(nullptr)},
      {"maxBytes", program.maxBytes ? nlohmann::json(*program.maxBytes) : nlohmann::json(nullptr)},
      {"written_for", std::string(dialect(detectDialect(program)).key)},
      {"threadblocks", program.threadblockCount()},
      {"steps", program.stepCount()},
      {"ranks", perRank},
      {"accepted_by", accepted},
      {"runtimes", runtimes},
      {"gpu", gpu ? nlohmann::json(std::string(gpuModel(*gpu).key)) : nlohmann::json(nullptr)},
      {"read_diagnostics", diagnosticsToJson(readDiagnostics)}};
  return object;
}

void printInfo(std::ostream& out, const std::string& file, const Program& program,
               const std::vector<Diagnostic>& readDiagnostics, std::optional<GpuModelId> gpu)
{
  std::vector<std::string> modes;
  for (const CallMode mode : declaredModes(program))
    modes.emplace_back(callModeName(mode));
  out << file << '\n'
      << "  name          " << printableUtf8(program.name) << '\n'
      << "  collective    " << printableUtf8(program.collSpelling) << " ("
      << collectiveTitle(program.collective) << ")\n"
      << "  ranks         " << program.ngpus << '\n'
      << "  protocol      " << protocolName(program.proto) << '\n'
      << "  chunks/loop   " << program.nchunksperloop << '\n'
      << "  channels      " << program.nchannels << " declared, " << usedChannels(program)
      << " used\n"
      << "  modes         ";
  for (std::size_t i = 0; i < modes.size(); ++i)
    out << (i ? ", " : "") << modes[i];
  out << (modes.empty() ? "none\n" : "\n") << "  sizes         " << sizeRange(program) << '\n'
      << "  written for   " << dialect(detectDialect(program)).key << '\n'
      << "  threadblocks  " << program.threadblockCount() << " (at most "
      << program.maxThreadblocksPerRank() << " per rank)\n"
      << "  steps         " << program.stepCount() << " (at most "
      << program.maxStepsPerThreadblock() << " per threadblock)\n\n"
      << "  rank  i_chunks  o_chunks  s_chunks  tbs  steps  max steps/tb\n";
  for (const RankSummary& r : summariseRanks(program)) {
    char row[96];
    std::snprintf(row, sizeof row, "  %4d  %8d  %8d  %8d  %3d  %5d  %12d\n", r.rank, r.inputChunks,
                  r.outputChunks, r.scratchChunks, r.threadblocks, r.steps,
                  r.maxStepsPerThreadblock);
    out << row;
  }
  out << "\n  runtimes" << (gpu ? " (on " + std::string(gpuModel(*gpu).title) + ")" : std::string())
      << '\n';
  for (const RuntimeVerdict& verdict : judgeEveryRuntime(program, readDiagnostics, gpu)) {
    out << "    " << dialect(verdict.dialect).key << ": " << runtimeStateName(verdict.state)
        << '\n';
    for (const std::string& reason : verdict.reasons)
      out << "      " << printableUtf8(reason) << '\n';
  }
  if (!readDiagnostics.empty()) {
    out << "\n  reader\n";
    printDiagnostics(out, file, readDiagnostics);
  }
}

} // namespace cs::cli
