#pragma once

// The pipeline every surface shares (DESIGN.md §2): what the checks say about an algorithm,
// recomputed by the editor after every edit and by `cstudio validate` on a design document. The
// Schedule checks (which also record the chunk states the timeline shows, so the Schedule is
// executed once), the lowering (or the lifting of an imported Program) and the full Program
// checker for the target dialect, merged into one list of problems that point at transfers,
// instructions or links. Qt-free.
//
// Start here when a problem appears in one surface and not another: both call analyseSchedule()
// or analyseProgram() below; the editor's adapter is editor/document/analysis.h.

#include "chunkstates.h"

#include "check/checker.h"
#include "compile/lower.h"
#include "model/diagnostic.h"
#include "model/program.h"
#include "model/schedule.h"
#include "model/topology.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace cs {

/// Which stage reported a problem.
enum class ProblemStage { Schedule, Lowering, Lifting, Program };

/// One problem: a row of the editor's Problems dock, a line of `cstudio validate`.
struct Problem {
  Diagnostic diagnostic;
  ProblemStage stage = ProblemStage::Schedule;
  /// The timeline transfer it is about, or -1; also diagnostic.location.transfer.
  int transferId = -1;
  /// The instruction it is about (Program-stage problems with a full location), or none.
  std::optional<int> rank, tb, step;
};

/// Everything the pipeline derives from one state of an algorithm; a value, safe to copy to and
/// from a background thread (the chunk states are shared and immutable).
struct Analysis {
  /// The Schedule the timeline shows: the document's, or the Program lifted (absent when the
  /// imported Program cannot be lifted; the Lifting problems then say why).
  std::optional<Schedule> schedule;
  /// The Program the program view shows: the document's, or the lowered Schedule (absent when
  /// lowering failed).
  std::optional<Program> program;
  /// Which transfer each instruction came from (lowered Schedule) or carries (lifted Program).
  std::vector<InstructionOrigin> origins;
  /// What every chunk of `schedule` holds after each step (an empty table without a Schedule).
  std::shared_ptr<const ChunkStates> states;
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

  /// The diagnostics of every problem, in problem order (what `cstudio validate` prints).
  std::vector<Diagnostic> diagnostics() const;

  /// Builds the lookup tables behind transferAt and instructionsOf (the pipeline calls it; call
  /// it again after changing `origins` by hand).
  void indexOrigins();

private:
  /// Fills m_byTransfer from m_byPosition.
  void sortByTransfer();

  /// origins indices sorted by (rank, tb, step), and by (transferId, rank, tb, step).
  std::vector<std::uint32_t> m_byPosition;
  std::vector<std::uint32_t> m_byTransfer;
};

/// The Program checker's options for what `lowering` produces: the same runtime and GPU.
CheckOptions checkOptionsFor(const LowerOptions& lowering);

/// Every check of a Schedule that is the truth: the Schedule checks, lowering with `lowering`,
/// and the Program checker for lowering.dialect (its semantic passes only when the Schedule
/// checks found no error). Never throws.
Analysis analyseSchedule(const Schedule& schedule, const LowerOptions& lowering);

/// Every check of a Program that is the truth (imported XML), for lowering.dialect, and the
/// Program lifted to a Schedule for display. Never throws.
Analysis analyseProgram(const Program& program, const LowerOptions& lowering);

/// Only the Schedule checks (milliseconds even at 64 ranks × 128 steps), with `program` and
/// `origins` carried over from `previous` and programPending set; finishProgramLevel() later
/// completes it without executing the Schedule again.
Analysis analyseScheduleLevel(const Schedule& schedule, const Analysis& previous);

/// Completes an analyseScheduleLevel() result of `schedule`: lowering and the Program checker.
/// The result equals analyseSchedule(schedule, lowering).
Analysis finishProgramLevel(Analysis scheduleLevel, const Schedule& schedule,
                            const LowerOptions& lowering);

/// The algorithm checked against the topology it is drawn for (check/topologyfit.h): problems at
/// the Schedule's transfers, or at the threadblocks of an imported Program (`programIsSource`).
/// Without a topology, one info says that no such check was made.
void addTopologyProblems(Analysis& analysis, const Topology* topology, bool programIsSource);

/// Whether analysing `schedule` fully may take longer than a frame, so an interactive caller
/// should run the Program level in the background.
bool analysisIsExpensive(const Schedule& schedule);

} // namespace cs
