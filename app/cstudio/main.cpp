// cstudio: the headless command line of Collective Studio. It links the engine only (no Qt), so
// the same checks run in CI pipelines and on GPU nodes.

#include "commands.h"

#include <iostream>
#include <map>

int main(int argc, char** argv)
{
  CLI::App app("cstudio: design, check and convert GPU collective algorithms (MSCCL XML)",
               "cstudio");
  app.set_version_flag("--version", &cs::cli::versionText,
                       "Print the version and the execution backends found, then exit");
  app.require_subcommand(1);
  app.fallthrough(false);

  std::map<CLI::App*, cs::cli::Runner> runners;
  const auto add = [&app, &runners](cs::cli::Runner (*adder)(CLI::App&)) {
    cs::cli::Runner runner = adder(app);
    runners[app.get_subcommands({}).back()] = std::move(runner);
  };
  add(cs::cli::addValidateCommand);
  add(cs::cli::addInfoCommand);
  add(cs::cli::addExportCommand);
  add(cs::cli::addGenerateCommand);
  add(cs::cli::addBenchCommand);
  add(cs::cli::addRunCommand);
  add(cs::cli::addSimulateCommand);
  add(cs::cli::addCalibrateCommand);
  add(cs::cli::addTopologyCommand);
  add(cs::cli::addLibraryCommand);
  add(cs::cli::addReplayCommand);
  add(cs::cli::addNarrateCommand);
  add(cs::cli::addExercisesCommand);
  add(cs::cli::addCompletionsCommand); // last: it walks the commands added before it

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    // CLI11 returns 0 for --help and --version; every real parse error is a usage error.
    return code == 0 ? 0 : cs::cli::UsageError;
  }
  for (CLI::App* command : app.get_subcommands()) {
    const auto runner = runners.find(command);
    if (runner != runners.end())
      return runner->second();
  }
  return cs::cli::UsageError;
}
