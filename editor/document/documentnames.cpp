#include "documentnames.h"

#include "commands/statecommands.h"
#include "document.h"

namespace cs::editor {

namespace {

constexpr const char* kPlaceholderName = "untitled";

} // namespace

std::string documentName(const DocumentState& state)
{
  return state.program ? state.program->name : state.design.schedule.name;
}

bool nameWasTyped(const Document& document)
{
  const std::string name = documentName(document.state());
  return !name.empty() && name != kPlaceholderName && name != document.givenName();
}

void renameDocument(Document& document, const std::string& name, const QString& text)
{
  if (documentName(document.state()) != name) {
    if (const std::optional<Program>& program = document.state().program) {
      Program renamed = *program;
      renamed.name = name;
      document.undoStack()->push(new ReplaceProgramCommand(&document, std::move(renamed), text));
    } else {
      // The Schedule the timeline shows, as the Inspector's Name field renames it.
      Schedule renamed = document.shownSchedule().value_or(document.schedule());
      renamed.name = name;
      document.undoStack()->push(new ReplaceScheduleCommand(&document, std::move(renamed), text));
    }
  }
  document.setGivenName(name);
}

} // namespace cs::editor
