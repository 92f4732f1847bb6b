#include "commands.h"

#include "checkerbench.h"
#include "execbench.h"
#include "scalebench.h"

#include <iostream>
#include <memory>

namespace cs::cli {

Runner addBenchCommand(CLI::App& app)
{
  auto options = std::make_shared<bench::CheckerBenchOptions>();
  CLI::App* command = app.add_subcommand(
      "bench", "Benchmark reading and fully checking MSCCL XML files (medians, with ratios "
               "against a bare XML parse measured in the same run)");
  command->add_option("files", options->files, "MSCCL XML files")->type_name("FILE");
  // With --scale, no files: the checks on generated programs of 512 and 1,024 ranks.
  auto scale = std::make_shared<bool>(false);
  command->add_flag("--scale", *scale,
                    "Benchmark the full check (races included) of a 512-rank direct all-to-all "
                    "and generating, lowering, checking and simulating (1 GiB on a 128 x 8 "
                    "fabric) a 1,024-rank ring all-reduce");
  command->add_option("--repeat", options->repeats, "Runs per measurement")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  // With --backend, benchmark running the (single) file instead: an nccl-tests-style sweep.
  auto exec = std::make_shared<bench::ExecBenchOptions>();
  auto sizes = std::make_shared<std::array<std::string, 4>>(
      std::array<std::string, 4>{"1K", "64M", "f32", "sum"});
  command->add_option("--backend", exec->backend,
                      "Run the file with this executor (cpu, cuda, nccl)");
  command->add_option("--min-bytes", (*sizes)[0], "Sweep start (with --backend)")
      ->capture_default_str();
  command->add_option("--max-bytes", (*sizes)[1], "Sweep end (with --backend)")
      ->capture_default_str();
  command->add_option("--factor", exec->factor, "Size step (with --backend)")
      ->capture_default_str();
  command->add_option("--dtype", (*sizes)[2], "Element type (with --backend)")
      ->capture_default_str();
  command->add_option("--op", (*sizes)[3], "Reduction (with --backend)")->capture_default_str();
  return [options, exec, sizes, command, scale] {
    if (*scale)
      return bench::runScaleBench({}, std::cout);
    if (options->files.empty()) {
      std::cerr << "cstudio bench: give MSCCL XML files to benchmark, or --scale\n";
      return static_cast<int>(UsageError);
    }
    if (command->count("--backend") == 0)
      return bench::runCheckerBench(*options, std::cout);
    return bench::runExecBenchFromArgs(*exec, options->files, *sizes, std::cout, std::cerr);
  };
}

} // namespace cs::cli
