#pragma once

// Everything an edit can change and undo restores: the design (Schedule, Topology, notes), the
// Program when it is the truth rather than derived, and the lowering options. Kept as one value
// type so tests can compare a document before and after undo for exact equality.

#include "compile/lower.h"
#include "io/designdocument.h"
#include "model/program.h"

#include <optional>

namespace cs::editor {

/// Which level holds the truth. Drawing on the timeline makes the Schedule the source (the
/// Program is lowered from it); importing XML or editing instructions makes the Program the
/// source (the timeline shows it lifted).
enum class Source { Schedule, Program };

struct DocumentState {
  DesignDocument design;          ///< schedule, optional topology, notes
  std::optional<Program> program; ///< set exactly when the Program is the source
  LowerOptions lowering;          ///< target dialect, protocol and instances

  Source source() const { return program ? Source::Program : Source::Schedule; }
  bool operator==(const DocumentState& other) const;
};

} // namespace cs::editor
