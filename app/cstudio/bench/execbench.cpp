#include "execbench.h"

#include "io/bytesize.h"
#include "sim/estimates.h"

#include "io/mscclxmlreader.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <ostream>
#include <thread>
#include <vector>

namespace cs::bench {

namespace {

using Clock = std::chrono::steady_clock;

/// Local reads and writes per element of each chunk an instruction processes (see
/// requiredTrafficBytes()).
int trafficPerElement(OpType type)
{
  switch (type) {
  case OpType::Send:
    return 0; // the receiver reads the source in place
  case OpType::Recv:
    return 2; // read the sender's data, write dst
  case OpType::RecvCopySend:
    return 2; // the next hop reads dst
  case OpType::RecvReduceSend:
    return 3; // read in, read src, write the forwarded value
  case OpType::RecvReduceCopy:
    return 3;
  case OpType::RecvReduceCopySend:
    return 3; // the next hop reads dst
  case OpType::Copy:
    return 2;
  case OpType::Reduce:
    return 3;
  case OpType::Nop:
    return 0;
  }
  return 0;
}

/// Bytes per second a plain memcpy reaches with every core, copying `bytes` in all (read + write
/// counted, as in the traffic it is compared with). Each thread copies its share repeatedly in
/// one go (no thread start-up inside the measurement), for about 20 ms.
double measureCopyBandwidth(std::int64_t bytes)
{
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t share = static_cast<std::size_t>(std::max<std::int64_t>(bytes / threads, 4096));
  std::vector<std::vector<std::byte>> sources(threads, std::vector<std::byte>(share, std::byte{1}));
  std::vector<std::vector<std::byte>> targets(threads, std::vector<std::byte>(share, std::byte{0}));
  const auto copyAll = [&](int repeats) {
    const auto start = Clock::now();
    std::vector<std::thread> workers;
    for (unsigned t = 0; t < threads; ++t) {
      workers.emplace_back([&, t] {
        for (int r = 0; r < repeats; ++r)
          std::memcpy(targets[t].data(), sources[t].data(), share);
      });
    }
    for (std::thread& worker : workers)
      worker.join();
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  const double once = copyAll(1); // also touches every page
  const int repeats = static_cast<int>(std::clamp(0.02 / std::max(once, 1e-9), 1.0, 100000.0));
  const double seconds = copyAll(repeats);
  return 2.0 * static_cast<double>(share) * threads * repeats / seconds;
}

/// Sizes the runtime would accept: N elements divisible by nchunksperloop and by mult.
std::int64_t sizeGranularity(const Program& program, DataType type)
{
  const std::int64_t mult = sizeMultiplier(program.collective, program.ngpus);
  return std::lcm<std::int64_t>(std::max(1, program.nchunksperloop), mult) * dataTypeSize(type);
}

int exitCodeOf(ExecStatus status)
{
  switch (status) {
  case ExecStatus::Verified:
  case ExecStatus::NotVerified:
    return 0;
  case ExecStatus::Wrong:
    return 1;
  case ExecStatus::Hung:
    return 3;
  case ExecStatus::Failed:
    return 2;
  }
  return 2;
}

} // namespace

std::int64_t requiredTrafficBytes(const Program& program, std::int64_t chunkBytes)
{
  std::int64_t total = 0;
  for (const Gpu& gpu : program.gpus) {
    for (const ThreadBlock& tb : gpu.threadblocks) {
      for (const Step& step : tb.steps)
        total += std::int64_t{trafficPerElement(step.type)} * std::max(0, step.cnt) * chunkBytes;
    }
  }
  return total;
}

namespace {

/// MIN, MIN·F, … up to MAX, each rounded up to a size the runtime would accept.
std::vector<std::int64_t> sweepSizes(const ExecBenchOptions& options, const Program& program)
{
  const std::int64_t granularity = sizeGranularity(program, options.exec.dtype);
  std::vector<std::int64_t> sizes;
  const double factor = std::max(options.factor, 1.01);
  for (double size = static_cast<double>(std::max<std::int64_t>(options.minBytes, 1));
       size <= static_cast<double>(options.maxBytes) * 1.000001; size *= factor) {
    const std::int64_t rounded =
        (static_cast<std::int64_t>(size) + granularity - 1) / granularity * granularity;
    if (sizes.empty() || sizes.back() != rounded)
      sizes.push_back(rounded);
  }
  return sizes;
}

void printHeader(std::ostream& out, const Program& program, const Executor& executor)
{
  char line[256];
  std::snprintf(line, sizeof line, "# %s on %s, %d ranks, %s, %s\n", program.name.c_str(),
                std::string(executor.name()).c_str(), program.ngpus,
                std::string(collectiveTitle(program.collective)).c_str(),
                std::string(protocolName(program.proto)).c_str());
  out << line;
  std::snprintf(line, sizeof line, "#%12s %12s %8s %6s %5s %10s %8s %8s %7s %9s\n", "size", "count",
                "type", "redop", "mode", "time", "algbw", "busbw", "#wrong", "roofline");
  out << line;
  std::snprintf(line, sizeof line, "#%12s %12s %8s %6s %5s %10s %8s %8s %7s %9s\n", "(B)",
                "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "");
  out << line;
}

/// The row of a finished run; returns its roofline ratio.
double printRow(std::ostream& out, const Program& program, Executor& executor,
                const ExecOptions& run, const ExecResult& result)
{
  const double us = result.meanUs();
  const double algbw = static_cast<double>(run.bytes) / (us * 1e3);
  const std::int64_t chunkBytes = result.chunkElements * dataTypeSize(run.dtype);
  // The yardstick copies as many bytes as the ranks' buffers hold (at most 512 MiB).
  const std::int64_t copyBytes = std::min<std::int64_t>(2 * run.bytes * program.ngpus, 512 << 20);
  const double bandwidth =
      executor.copyBandwidth(copyBytes).value_or(measureCopyBandwidth(copyBytes));
  const double rooflineUs =
      static_cast<double>(requiredTrafficBytes(program, chunkBytes)) / bandwidth * 1e6;
  const double roofline = us > 0 ? rooflineUs / us : 0;
  const std::string wrong =
      result.status == ExecStatus::NotVerified ? "n/a" : std::to_string(result.wrong);
  char line[256];
  std::snprintf(
      line, sizeof line, " %12lld %12lld %8s %6s %5s %10.1f %8.3f %8.3f %7s %9.2f\n",
      static_cast<long long>(run.bytes), static_cast<long long>(result.count),
      std::string(dataTypeName(run.dtype)).c_str(), std::string(reduceOpName(run.op)).c_str(),
      result.mode == CallMode::InPlace ? "in" : "out", us, algbw,
      algbw * busBandwidthFactor(program.collective, program.ngpus), wrong.c_str(), roofline);
  out << line;
  return roofline;
}

/// The row of a run that failed or hung; true when no size can run (the hardware is missing).
bool printFailure(std::ostream& out, std::int64_t bytes, const ExecResult& result)
{
  char line[256];
  std::snprintf(line, sizeof line, " %12lld  %s: %s\n", static_cast<long long>(bytes),
                std::string(execStatusName(result.status)).c_str(),
                result.diagnostics.empty() ? "" : result.diagnostics.front().message.c_str());
  out << line;
  // Without its hardware a backend fails every size alike: one line says it.
  return !result.diagnostics.empty() && (result.diagnostics.front().code == "exec.cuda-device" ||
                                         result.diagnostics.front().code == "exec.nccl-devices");
}

void printFooter(std::ostream& out, const ExecBenchOptions& options,
                 std::optional<double> rooflineAtLargest)
{
  out << "# time: mean of " << options.exec.iterations << " runs after " << options.exec.warmup
      << " warm-up; roofline = (bytes the program must read+write / copy bandwidth measured "
         "now on the same hardware) / time\n";
  char line[256];
  if (rooflineAtLargest && options.backend == "cuda") {
    std::snprintf(line, sizeof line,
                  "# largest size: %.0f%% of device copy bandwidth (goal for 8-rank ring "
                  "all-reduce at >= 256 MiB on an H100: >= 85%%)\n",
                  *rooflineAtLargest * 100);
    out << line;
  }
  if (rooflineAtLargest && options.backend == "cpu") {
    std::snprintf(
        line, sizeof line,
        "# largest size: %.0f%% of memcpy bandwidth (goal at 64 MiB on 2 cores: >= 50%%)\n",
        *rooflineAtLargest * 100);
    out << line;
  }
}

} // namespace

int runExecBench(const ExecBenchOptions& options, std::ostream& out, std::ostream& progress)
{
  const ReadResult read = readMscclXmlFile(options.file);
  if (!read.program || read.hasErrors()) {
    out << options.file << ": cannot be read as MSCCL XML\n";
    return 2;
  }
  const Program& program = *read.program;
  std::string error;
  std::unique_ptr<Executor> executor = makeExecutor(options.backend, &error);
  if (!executor) {
    out << "backend " << options.backend << ": " << error << '\n';
    return 2;
  }
  const std::vector<std::int64_t> sizes = sweepSizes(options, program);
  printHeader(out, program, *executor);
  int status = 0;
  std::optional<double> rooflineAtLargest;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    ExecOptions run = options.exec;
    run.bytes = sizes[i];
    progress << "[bench " << (i + 1) << "/" << sizes.size() << "] " << sizes[i] << " bytes…"
             << std::endl;
    const ExecResult result = executor->run(program, run);
    status = std::max(status, exitCodeOf(result.status));
    if (result.status == ExecStatus::Failed || result.status == ExecStatus::Hung) {
      if (printFailure(out, sizes[i], result))
        break;
      continue;
    }
    rooflineAtLargest = printRow(out, program, *executor, run, result);
  }
  printFooter(out, options, rooflineAtLargest);
  return status;
}

int runExecBenchFromArgs(ExecBenchOptions options, const std::vector<std::string>& files,
                         const std::array<std::string, 4>& texts, std::ostream& out,
                         std::ostream& progress)
{
  const std::optional<std::int64_t> minBytes = parseByteSize(texts[0]);
  const std::optional<std::int64_t> maxBytes = parseByteSize(texts[1]);
  const std::optional<DataType> type = parseDataType(texts[2]);
  const std::optional<ReduceOp> op = parseReduceOp(texts[3]);
  std::string problem;
  if (files.size() != 1)
    problem = "--backend benchmarks exactly one file";
  else if (!minBytes || !maxBytes || *minBytes <= 0 || *maxBytes < *minBytes)
    problem = "--min-bytes/--max-bytes must be sizes with min <= max";
  else if (!type)
    problem = "--dtype " + texts[2] + " is unknown (f32, f16, bf16, f64, i32, u8)";
  else if (!op)
    problem = "--op " + texts[3] + " is unknown (sum, prod, min, max)";
  else if (options.factor <= 1.0)
    problem = "--factor must be greater than 1";
  if (!problem.empty()) {
    progress << "cstudio bench: " << problem << '\n';
    return 2;
  }
  options.file = files.front();
  options.minBytes = *minBytes;
  options.maxBytes = *maxBytes;
  options.exec.dtype = *type;
  options.exec.op = *op;
  options.exec.iterations = 5;
  options.exec.warmup = 1;
  return runExecBench(options, out, progress);
}

} // namespace cs::bench
