#pragma once

// Instruction-level edits as pure functions on a Program: each returns the whole new Program,
// which the program view pushes as one ReplaceProgramCommand (so undo restores the exact state).
// Invariant kept by every function here: in each edited threadblock, Step::s equals the step's
// index, and `deps` that point into an edited threadblock still name the same instruction.
// Also the text forms the program view shows and parses ("i[3]", "tb 1 s 4"), so a cell's
// display and what setData() accepts are one format.

#include "document/selection.h"
#include "model/program.h"

#include <QString>

#include <optional>

namespace cs::editor {

/// The instruction at `at`, or nullptr when the position does not exist.
const Step* stepAt(const Program& program, const InstructionRef& at);
/// `program` with the instruction at `at` replaced by `step` (its `s` forced to the index).
/// Returns nullopt when `at` does not exist.
std::optional<Program> withStep(const Program& program, const InstructionRef& at, Step step);

/// Inserts a `nop` after `at` (cnt 0, no dependency, offsets -1 as lowering writes them),
/// renumbers the threadblock and shifts the `deps` of every waiter on the same rank that point
/// behind the insertion. The new nop is at step at.step + 1.
std::optional<Program> insertNopAfter(const Program& program, const InstructionRef& at);

/// Deletes the instruction at `at` and renumbers its threadblock. Waiters on later steps keep
/// waiting for the same instructions; waiters on the deleted step now wait for the step before
/// it (which then publishes with hasdep), or for nothing when it was the first.
std::optional<Program> deleteInstruction(const Program& program, const InstructionRef& at);

/// Swaps the instruction at `at` with its neighbour `delta` (-1: up, +1: down) in the same
/// threadblock, e.g. to send before receiving and so break a deadlock. `deps` that named either
/// instruction still name it at its new position. Returns nullopt at either end.
std::optional<Program> moveInstruction(const Program& program, const InstructionRef& at, int delta);

/// A type change that keeps the instruction sensible: offsets the new type reads or writes
/// are set to 0 when they were unset (-1), offsets it no longer uses become -1.
Step withType(Step step, OpType type);

/// "i[3]"; an empty string when `offset` is negative (the operand is unused).
QString slotText(Buffer buffer, int offset);
/// Parses "i[3]", "o[0]", "s[12]" (spaces allowed); an empty string means offset -1 with
/// `keepBuffer`. Returns nullopt for anything else.
std::optional<std::pair<Buffer, int>> parseSlot(const QString& text, Buffer keepBuffer);

/// "tb 1 s 4"; empty without a dependency.
QString dependencyText(int depid, int deps);
/// Parses "tb 1 s 4" (also "1 4", "1:4"); an empty string clears the dependency (-1, -1).
std::optional<std::pair<int, int>> parseDependency(const QString& text);

/// One line for people: "recv-copy-send: receives from r3, stores o[2], forwards to r1".
QString describeStep(const Step& step, const ThreadBlock& tb);

} // namespace cs::editor
