#pragma once

// The subcommands of cstudio. Each registers its options on the CLI11 app and returns the
// function that runs it; the function's result is the process exit code.

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace cs::cli {

/// Exit codes shared by every command.
enum ExitCode : int {
  Ok = 0,         ///< success, no error found
  Problems = 1,   ///< the input has errors (validate), wrong results (run), …
  UsageError = 2, ///< bad arguments, unreadable or unparsable input files
  Hang = 3,       ///< run: the watchdog stopped a run that made no progress
};

using Runner = std::function<int()>;

Runner addValidateCommand(CLI::App& app);
Runner addInfoCommand(CLI::App& app);
Runner addExportCommand(CLI::App& app);
Runner addGenerateCommand(CLI::App& app);
Runner addBenchCommand(CLI::App& app);
Runner addRunCommand(CLI::App& app);
Runner addSimulateCommand(CLI::App& app);
/// Fits the simulator to a measured backend (engine/analysis/calibrationsweep.h).
Runner addCalibrateCommand(CLI::App& app);
Runner addTopologyCommand(CLI::App& app);
Runner addLibraryCommand(CLI::App& app);
Runner addReplayCommand(CLI::App& app);
Runner addNarrateCommand(CLI::App& app);
/// Break-it exercises of an algorithm (engine/teach/exercises.h).
Runner addExercisesCommand(CLI::App& app);
/// Hidden: the shell completions and the man page's command list, from the CLI definition.
Runner addCompletionsCommand(CLI::App& app);

/// `cstudio --version`: the version, then every execution backend and whether it can run here
/// (the GPU backends are modules loaded at run time; a missing one says why).
std::string versionText();

} // namespace cs::cli
