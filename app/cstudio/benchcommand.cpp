#include "commands.h"

#include "checkerbench.h"

#include <iostream>
#include <memory>

namespace cs::cli {

Runner addBenchCommand(CLI::App& app)
{
  auto options = std::make_shared<bench::CheckerBenchOptions>();
  CLI::App* command = app.add_subcommand(
      "bench", "Benchmark reading and fully checking MSCCL XML files (medians, with ratios "
               "against a bare XML parse measured in the same run)");
  command->add_option("files", options->files, "MSCCL XML files")->required()->type_name("FILE");
  command->add_option("--repeat", options->repeats, "Runs per measurement")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  return [options] { return bench::runCheckerBench(*options, std::cout); };
}

} // namespace cs::cli
