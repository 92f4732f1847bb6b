#pragma once

// Shell completions generated from cstudio's own CLI11 definition (`cstudio completions
// bash|zsh|fish`), so that they name every subcommand and option the program has and cannot
// drift from it. The package installs what the build generates (packaging/completions.cmake).

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace cs::cli {

/// One option of a command, as a shell offers it.
struct CompletionOption {
  std::vector<std::string> longNames;  ///< without the leading "--"
  std::vector<std::string> shortNames; ///< without the leading "-"
  std::string description;             ///< its first sentence, on one line
  bool takesValue = false;
  std::vector<std::string> choices; ///< the only values it accepts; empty: any (often a file)
};

/// One command: the program itself (empty path) or a subcommand path such as "library list".
struct CompletionCommand {
  std::string path;
  std::string description;
  std::vector<std::string> subcommands; ///< the names of its visible subcommands
  std::vector<CompletionOption> options;
  bool takesArguments = false; ///< has positional arguments (files, names)
};

/// Every visible command of `app`, depth first, the program itself first. Hidden subcommands and
/// options (CLI11's empty group) are left out.
std::vector<CompletionCommand> completionCommands(const CLI::App& app);

std::string bashCompletion(const std::vector<CompletionCommand>& commands);
std::string zshCompletion(const std::vector<CompletionCommand>& commands);
std::string fishCompletion(const std::vector<CompletionCommand>& commands);

} // namespace cs::cli
