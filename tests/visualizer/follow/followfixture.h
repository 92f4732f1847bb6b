#pragma once

// The editor's catalogue ring all-reduce on 4 ranks as a document, and runs of its own lowered
// Program opened as replay sessions: simulated on ring-4, or on the CPU with one slot per
// connection so that the watchdog stops it in the ring's wait-for cycle.

#include "catalogue/catalogue.h"
#include "document/document.h"
#include "exec/executor.h"
#include "model/topologypresets.h"
#include "session/replaysession.h"
#include "sim/simulator.h"

#include <QtGlobal>

#include <memory>

namespace cs::visualizer::test {

/// Opens the generated 4-rank ring all-reduce in `document` and waits for its analysis.
inline void openRingDocument(editor::Document& document)
{
  GenerateResult generated = generateAlgorithm("ring-allreduce", {.ranks = 4});
  if (!generated.schedule)
    qFatal("the catalogue has no ring all-reduce");
  editor::DocumentState state;
  state.design.schedule = *generated.schedule;
  document.reset(std::move(state), {});
  document.waitForAnalysis();
  if (!document.shownProgram())
    qFatal("the ring all-reduce did not lower");
}

inline std::unique_ptr<ReplaySession> openRun(const editor::Document& document, const Trace& trace)
{
  ReplayOpen opened =
      ReplaySession::open(*document.shownProgram(), trace, *makePresetTopology("ring-4"),
                          declaredModes(*document.shownProgram()).front());
  if (!opened.session)
    qFatal("replay refused a run of the document's program");
  return std::move(opened.session);
}

/// The document's Program simulated on ring-4.
inline std::unique_ptr<ReplaySession> simulatedRun(const editor::Document& document)
{
  SimOptions options;
  options.bytes = 1 << 20;
  return openRun(
      document,
      simulateProgram(*document.shownProgram(), *makePresetTopology("ring-4"), options).trace);
}

/// The document's Program on the CPU with one slot per connection: the watchdog stops it.
inline std::unique_ptr<ReplaySession> deadlockedRun(const editor::Document& document)
{
  ExecOptions options;
  options.bytes = 4 * 64 * 4;
  options.trace = true;
  options.timeoutSeconds = 0.5;
  options.connectionSlots = 1;
  return openRun(document, makeExecutor("cpu")->run(*document.shownProgram(), options).trace);
}

} // namespace cs::visualizer::test
