#pragma once

// What the checker says about a document, recomputed after every edit: the Schedule checks, the
// lowering (or the lifting of an imported Program) and the full Program checker for the target
// dialect, merged into one list of problems that point at transfers, instructions or links.
// Qt-free so tests and benchmarks can call it directly.

#include "documentstate.h"

#include "compile/lower.h"
#include "model/diagnostic.h"
#include "model/program.h"
#include "model/schedule.h"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace cs::editor {

/// Which stage reported a problem.
enum class ProblemStage { Schedule, Lowering, Lifting, Program };

/// One row of the Problems dock.
struct Problem {
  Diagnostic diagnostic;
  ProblemStage stage = ProblemStage::Schedule;
  int transferId = -1; ///< the timeline transfer it is about, or -1
  /// The instruction it is about (Program-stage problems with a full location), or none.
  std::optional<int> rank, tb, step;
};

struct Analysis {
  /// The Schedule the timeline shows: the document's, or the Program lifted (absent when the
  /// imported Program cannot be lifted; liftProblems then says why).
  std::optional<Schedule> schedule;
  /// The Program the program view shows: the document's, or the lowered Schedule (absent when
  /// lowering failed).
  std::optional<Program> program;
  /// Which transfer each instruction came from (lowered Schedule) or carries (lifted Program).
  std::vector<InstructionOrigin> origins;
  std::vector<Problem> problems; ///< errors first, then warnings, then infos
  int errors = 0;
  int warnings = 0;
  /// Problem indices per transfer id, for marking bad transfers on the timeline.
  std::map<int, std::vector<int>> problemsByTransfer;
  /// True while the Program level (lowering and the Program checker) is still being computed in
  /// the background for a large Schedule: `program` and `origins` are then the previous ones and
  /// `problems` holds only the Schedule checks.
  bool programPending = false;

  bool correct() const { return errors == 0 && (schedule || program); }
  /// The transfer an instruction came from or carries, or -1.
  int transferAt(int rank, int tb, int step) const;
  /// The instructions of a transfer, in program order.
  std::vector<InstructionOrigin> instructionsOf(int transferId) const;

  /// Builds the lookup tables behind transferAt and instructionsOf (analyse() calls it; call it
  /// again after changing `origins` by hand).
  void indexOrigins();

private:
  /// origins indices sorted by (rank, tb, step), and by (transferId, rank, tb, step).
  std::vector<std::uint32_t> m_byPosition;
  std::vector<std::uint32_t> m_byTransfer;
};

/// Runs every check on `state`. Never throws.
Analysis analyse(const DocumentState& state);

/// Only the Schedule checks of a Schedule-source state (milliseconds even at 64 ranks × 128
/// steps), with `program` and `origins` carried over from `previous` and programPending set.
Analysis analyseScheduleOnly(const DocumentState& state, const Analysis& previous);

/// Whether analysing `state` fully may take longer than a frame, so the Program level should
/// run in the background (Schedule source with many transfers).
bool analysisIsExpensive(const DocumentState& state);

} // namespace cs::editor
