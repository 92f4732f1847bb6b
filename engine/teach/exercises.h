#pragma once

// Break-it exercises (issue 19, item 5): for any Schedule, a short list of deliberate mistakes —
// remove a transfer, swap two sends, shrink the connections to one message, drop a dependency,
// send the wrong chunk — each with a question for a student, a hint, the exact edit (so the GUI
// can apply it as an undoable command and undo it as "show the fix") and the announced outcome:
// the checker's error codes and what the CPU executor does (wrong chunks, or the blocked
// positions of a hang).
//
// Announcements are measured, not guessed: generateExercises() applies every candidate, lowers
// it as the editor does, runs the checker and the CPU executor (with a short watchdog), and keeps
// only candidates that change something. Transfer edits work on the Schedule; instruction edits
// and the connection depth work on the Program the Schedule lowers to (dependencies and the order
// of instructions exist only there). Where to start when adding a kind: exercisecandidates.cpp
// proposes the edits, exercisejudge.cpp measures them, exercisetext.cpp words them.

#include "../compile/lower.h"
#include "../exec/executor.h"
#include "../model/program.h"
#include "../model/schedule.h"
#include "model/diagnostic.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs {

enum class ExerciseKind : std::uint8_t {
  RemoveTransfer,    ///< a transfer is deleted from the Schedule
  SwapSends,         ///< two sending instructions of one threadblock change places
  ShrinkConnections, ///< every connection holds one message (FIFO depth 1)
  DropDependency,    ///< an instruction no longer waits for the step it depended on
  WrongChunk,        ///< a transfer reads another chunk of its source buffer
};
inline constexpr int kExerciseKindCount = 5;
/// "remove-transfer", "swap-sends", "shrink-connections", "drop-dependency", "wrong-chunk".
std::string_view exerciseKindName(ExerciseKind kind);

/// A Schedule edit: the transfer `before` (found by its id) becomes `after`, or disappears.
/// Undoing a removal puts it back at `position` in Schedule::transfers.
struct TransferEdit {
  Transfer before;
  std::optional<Transfer> after;
  int position = 0;
  bool operator==(const TransferEdit&) const = default;
};

/// A Program edit: the instructions of threadblock `tb` on `rank` change from `before` to `after`.
struct InstructionEdit {
  int rank = 0;
  int tb = 0;
  std::vector<Step> before;
  std::vector<Step> after;
  bool operator==(const InstructionEdit&) const = default;
};

/// The messages every connection holds before its sender blocks, before and after the edit.
struct ConnectionEdit {
  int beforeSlots = 0;
  int afterSlots = 1;
  bool operator==(const ConnectionEdit&) const = default;
};

/// Exactly one of the three is set, according to the exercise's kind.
struct ExerciseEdit {
  std::optional<TransferEdit> transfer;
  std::optional<InstructionEdit> instructions;
  std::optional<ConnectionEdit> connections;
  bool operator==(const ExerciseEdit&) const = default;
};

/// A position the CPU executor's watchdog found blocked.
struct BlockedStep {
  int rank = 0;
  int tb = 0;
  int step = 0;
  auto operator<=>(const BlockedStep&) const = default;
};

/// What the checker and the CPU executor say about one algorithm.
struct ExerciseOutcome {
  /// Error codes of the checker (lowering's included), sorted and unique. In an exercise: only
  /// the codes the unbroken algorithm does not have.
  std::vector<std::string> checkCodes;
  ExecStatus execStatus = ExecStatus::Failed;
  /// Wrong result chunks (rank, buffer, chunk index), sorted; for ExecStatus::Wrong.
  std::vector<ChunkRef> wrongChunks;
  /// Where every threadblock was stuck, sorted; for ExecStatus::Hung.
  std::vector<BlockedStep> blocked;
  /// The checker found a race: which of the racing accesses comes first is up to the threads, so
  /// the executor's result is one run's (Verified or Wrong, and which chunks), not a promise.
  /// Where it hangs does not depend on data, so a hang is announced exactly even then.
  bool timingDependent = false;
  bool operator==(const ExerciseOutcome&) const = default;
};

struct Exercise {
  ExerciseKind kind = ExerciseKind::RemoveTransfer;
  std::string title;    ///< "Remove a transfer"
  std::string question; ///< "What happens if rank 2 never sends chunk 1 in step 3?"
  std::string hint;     ///< where to look for the answer
  ExerciseEdit edit;
  ExerciseOutcome outcome;
  std::string outcomeText; ///< the outcome in sentences, for the reveal
};

struct ExerciseOptions {
  LowerOptions lowering;     ///< how the Schedule becomes a Program (the editor's defaults)
  int perKind = 3;           ///< exercises kept per kind at most
  int candidatesPerKind = 8; ///< candidates tried per kind at most (bounds the executor runs)
  /// The watchdog's patience: a broken algorithm that hangs costs about this much per run.
  double timeoutSeconds = 0.5;
};

/// The exercises of one Schedule and the unbroken algorithm they start from.
struct ExerciseSet {
  Schedule schedule;
  std::optional<Program> program; ///< the lowering of `schedule`; absent: it does not lower
  int connectionSlots = 0;        ///< the connections' depth the unbroken program runs with
  /// The root of a broadcast or reduce: the Schedule's, else the one rank the unbroken program's
  /// data flow allows (a broken one may allow none, and would then go unverified).
  std::optional<int> root;
  ExerciseOutcome baseline; ///< what the unbroken algorithm gives (all codes)
  std::vector<Exercise> exercises;
  std::vector<Diagnostic> diagnostics; ///< why there are none (teach.* codes)
};

/// An algorithm an exercise broke: the Schedule and the Program with the edit applied, and the
/// connections' depth to run and check it with.
struct BrokenAlgorithm {
  Schedule schedule;
  std::optional<Program> program;
  int connectionSlots = 0;
};

/// Generates the exercises of `schedule`, deterministically (same Schedule, same list).
ExerciseSet generateExercises(const Schedule& schedule, const ExerciseOptions& options = {});

/// `schedule` with `edit` applied, or undone (the inverse edit); unchanged when the transfer
/// named by the edit is missing.
Schedule applyTransferEdit(const Schedule& schedule, const TransferEdit& edit);
Schedule undoTransferEdit(const Schedule& schedule, const TransferEdit& edit);
/// `program` with `edit` applied, or undone; unchanged when the threadblock is missing.
Program applyInstructionEdit(const Program& program, const InstructionEdit& edit);
Program undoInstructionEdit(const Program& program, const InstructionEdit& edit);

/// The algorithm `exercise` breaks, starting from `set`'s unbroken one. A transfer edit is
/// lowered again with `lowering` (pass ExerciseOptions::lowering of the generation).
BrokenAlgorithm applyExercise(const ExerciseSet& set, const Exercise& exercise,
                              const LowerOptions& lowering = {});

/// Runs the checker and the CPU executor on `program` (a short watchdog of `timeoutSeconds`),
/// judging a rooted collective for `root`, adding `lowering`'s error codes: what an exercise
/// announces, before subtracting the baseline.
ExerciseOutcome judgeProgram(const Program& program, std::optional<int> root, int connectionSlots,
                             double timeoutSeconds, const std::vector<Diagnostic>& lowering = {});

/// The outcome in sentences: the codes, then the executor's wrong chunks or blocked positions.
std::string describeOutcome(const ExerciseOutcome& outcome);

} // namespace cs
