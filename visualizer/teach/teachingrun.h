#pragma once

// The run teaching mode steps through (issue 19 item 3): the document's program simulated on its
// topology (a ring of its ranks when it has none), opened as a replay session, with the time by
// which each Schedule step has finished, so "next step" moves the cursor to the end of the next
// step of the algorithm the teacher drew, not of a threadblock's program.

#include "session/replaysession.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace cs::editor {
class Document;
}

namespace cs::visualizer {

struct TeachingRun {
  std::unique_ptr<ReplaySession> session;
  /// Per Schedule step (index = step): the earliest time every transfer of that step and the
  /// steps before it has finished. Ascending.
  std::vector<double> stepEnds;
  QString topologyName; ///< what it was simulated on: "the document's topology", "ring-4"
  QString error;        ///< why there is no session
};

/// Simulates `document`'s shown program at `bytes` and opens the run. Never throws.
TeachingRun simulateForTeaching(const editor::Document& document, std::int64_t bytes = 1 << 20);

} // namespace cs::visualizer
