// cstudio completions bash|zsh|fish|commands: a hidden subcommand that prints the completion
// script for a shell, written from the CLI definition itself (completions.h), or the list of
// command paths (one a line) the man page documents. The build runs it; users never need to.

#include "commands.h"
#include "completions.h"

#include <iostream>
#include <memory>

namespace cs::cli {

Runner addCompletionsCommand(CLI::App& app)
{
  CLI::App* command = app.add_subcommand(
      "completions", "Print the shell completion script for bash, zsh or fish (the package "
                     "installs them), or the command paths the man page documents");
  // An empty group hides the subcommand from --help and from the completions themselves.
  command->group("");
  auto shell = std::make_shared<std::string>();
  command->add_option("shell", *shell, "bash, zsh, fish or commands")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "fish", "commands"}));
  return [&app, shell] {
    const std::vector<CompletionCommand> commands = completionCommands(app);
    if (*shell == "bash")
      std::cout << bashCompletion(commands);
    else if (*shell == "zsh")
      std::cout << zshCompletion(commands);
    else if (*shell == "fish")
      std::cout << fishCompletion(commands);
    else
      for (const CompletionCommand& entry : commands)
        if (!entry.path.empty())
          std::cout << entry.path << "\n";
    return std::cout.flush() ? Ok : Problems;
  };
}

} // namespace cs::cli
