#include "commands.h"
#include "output.h"

#include "io/mscclxmlwriter.h"
#include "library/ringallreduce.h"

#include <iostream>
#include <memory>

namespace cs::cli {

namespace {

struct GenerateOptions {
  std::string algorithm;
  bool list = false;
  int ranks = 4;
  int channels = 1;
  std::string protocol = "Simple";
  std::string dialect = "executor";
  std::string output;
};

struct Generator {
  const char* name;
  const char* summary;
};

// The Schedule-level generators of the classic-algorithm library join this list as they land.
constexpr Generator kGenerators[] = {
    {"ring-allreduce", "ring all-reduce: n-1 reduce-scatter steps, then n-1 all-gather steps"},
};

int runGenerate(const GenerateOptions& options)
{
  if (options.list) {
    for (const Generator& generator : kGenerators)
      std::cout << generator.name << "  " << generator.summary << '\n';
    return Ok;
  }
  if (options.algorithm.empty() || options.output.empty()) {
    std::cerr << "cstudio generate: give an algorithm (see --list) and -o FILE\n";
    return UsageError;
  }
  if (options.algorithm != "ring-allreduce") {
    std::cerr << "cstudio generate: unknown algorithm \"" << options.algorithm
              << "\" (see cstudio generate --list)\n";
    return UsageError;
  }
  if (!options.output.ends_with(".xml")) {
    std::cerr << "cstudio generate: -o must name an .xml file\n";
    return UsageError;
  }
  RingAllReduceOptions ring;
  ring.ranks = options.ranks;
  ring.channels = options.channels;
  ring.protocol = *parseProtocol(options.protocol);
  const Program program = makeRingAllReduce(ring);
  const WriteResult written = writeMscclXml(program, {*parseDialect(options.dialect)});
  if (const std::string failure = writeTextFileAtomically(options.output, written.text);
      !failure.empty()) {
    std::cerr << "cstudio generate: " << failure << '\n';
    return UsageError;
  }
  printDiagnostics(std::cerr, options.output, written.notes);
  std::cout << "wrote " << options.output << ": " << program.name << '\n';
  return Ok;
}

} // namespace

Runner addGenerateCommand(CLI::App& app)
{
  auto options = std::make_shared<GenerateOptions>();
  CLI::App* command = app.add_subcommand("generate", "Generate a classic algorithm as MSCCL XML");
  command->add_option("algorithm", options->algorithm, "Algorithm name (see --list)");
  command->add_flag("--list", options->list, "List the algorithms");
  command->add_option("--ranks", options->ranks, "Number of ranks")
      ->check(CLI::Range(2, 1024))
      ->capture_default_str();
  command->add_option("--channels", options->channels, "Independent rings on separate channels")
      ->check(CLI::Range(1, 32))
      ->capture_default_str();
  command->add_option("--proto", options->protocol, "Protocol")
      ->check(CLI::IsMember({"Simple", "LL", "LL128"}))
      ->capture_default_str();
  command->add_option("--dialect", options->dialect, "Target runtime")
      ->check(CLI::IsMember({"classic", "executor", "rccl"}))
      ->capture_default_str();
  command->add_option("-o,--output", options->output, "File to write (.xml)")->type_name("FILE");
  return [options] { return runGenerate(*options); };
}

} // namespace cs::cli
