#pragma once

// Merge ids of the commands that combine repeated edits (QUndoCommand::id), kept in one enum so
// no two commands claim the same id (STYLE.md 4, as Tiled's undocommands.h).

namespace cs::editor {

enum class UndoCommandId {
  ChangeTransfers = 1,
  MoveNodes,
  ChangeTopology,
  ChangeLowering,
  ChangeNotes,
  EditInstruction,
};

} // namespace cs::editor
