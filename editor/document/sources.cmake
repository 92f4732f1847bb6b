list(APPEND cs_editor_area_sources
  document/documentstate.h
  document/changeevent.h
  document/selection.h
  document/playbackmarks.h
  document/analysis.h document/analysis.cpp
  document/nodegroups.h document/nodegroups.cpp
  document/document.h document/document.cpp
  document/documentfiles.h document/documentfiles.cpp
  document/documentnames.h document/documentnames.cpp
  document/commands/undocommands.h
  document/commands/documentcommand.h document/commands/documentcommand.cpp
  document/commands/transfercommands.h document/commands/transfercommands.cpp
  document/commands/statecommands.h document/commands/statecommands.cpp
)
