// The command tree the completion scripts are written from, read off the CLI11 app.

#include "completions.h"

namespace cs::cli {

namespace {

/// The text up to the end of its first sentence or clause, on one line: shells show one short
/// line per candidate.
std::string firstSentence(const std::string& text)
{
  std::string line = text.substr(0, text.find_first_of("\n"));
  for (const char* end : {". ", "; ", ": "}) {
    const std::size_t at = line.find(end);
    if (at != std::string::npos)
      line.resize(at);
  }
  // "Target runtime (default: …)" cut at its colon keeps no half of the parenthesis.
  const std::size_t open = line.rfind(" (");
  if (open != std::string::npos && line.find(')', open) == std::string::npos)
    line.resize(open);
  return line;
}

/// The values a CLI11 type name lists between braces ("TEXT:{classic,executor,rccl}").
std::vector<std::string> choicesOf(const std::string& typeName)
{
  const std::size_t open = typeName.find('{');
  const std::size_t close = typeName.find('}', open);
  if (open == std::string::npos || close == std::string::npos)
    return {};
  std::vector<std::string> choices;
  std::string list = typeName.substr(open + 1, close - open - 1);
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    if (comma > start)
      choices.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return choices;
}

CompletionOption optionOf(const CLI::Option& option)
{
  CompletionOption result;
  result.longNames = option.get_lnames();
  result.shortNames = option.get_snames();
  result.description = firstSentence(option.get_description());
  result.takesValue = option.get_type_size() > 0;
  if (result.takesValue)
    result.choices = choicesOf(option.get_type_name());
  return result;
}

void collect(const CLI::App& app, const std::string& path, std::vector<CompletionCommand>& out)
{
  CompletionCommand command;
  command.path = path;
  command.description = firstSentence(app.get_description());
  for (const CLI::Option* option : app.get_options()) {
    if (!option->nonpositional())
      command.takesArguments = true;
    else if (!option->get_group().empty())
      command.options.push_back(optionOf(*option));
  }
  // get_subcommands(filter) is not const in CLI11; the walk only reads.
  std::vector<CLI::App*> subcommands = const_cast<CLI::App&>(app).get_subcommands(
      [](CLI::App* sub) { return !sub->get_group().empty(); });
  for (const CLI::App* sub : subcommands)
    command.subcommands.push_back(sub->get_name());
  out.push_back(std::move(command));
  for (const CLI::App* sub : subcommands)
    collect(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), out);
}

} // namespace

std::vector<CompletionCommand> completionCommands(const CLI::App& app)
{
  std::vector<CompletionCommand> commands;
  collect(app, "", commands);
  return commands;
}

} // namespace cs::cli
