#pragma once

// What a problem points at (issue 17 item 2): the item a double click in the Problems dock
// selects and the tab that shows it, resolved against the open document. Every problem points at
// a transfer, an instruction, a timeline cell, GPUs or links of the topology, or, for the few
// that are about the algorithm as a whole (no postcondition known, a check that did not run),
// the document itself.
//
// Start here when a problem's Where column is empty or a double click selects the wrong thing.

#include "document/selection.h"

#include "analysis/analysis.h"

#include <QCoreApplication>
#include <QString>

#include <vector>

namespace cs::editor {

class Document;

/// The item a problem is about and where it is shown.
struct ProblemTarget {
  Q_DECLARE_TR_FUNCTIONS(ProblemTarget)

public:
  enum class View { Document, Topology, Timeline, Program };
  Selection selection; ///< what activating the problem selects (empty: the document itself)
  View view = View::Document;
  /// "rank 1 o[0] · after step 5", "transfer #4", "GPU 2", "link GPU0–GPU1", "the algorithm"
  QString where;
  std::vector<int> ranks; ///< every rank the problem concerns (a wrong result on ranks 1–3)
};

/// Resolves `problem` against `document`'s analysis, Schedule and topology.
ProblemTarget problemTarget(const Problem& problem, const Document& document);

/// "rank 2", "ranks 1–3", "ranks 0, 2, 4–7"; empty for no ranks.
QString ranksText(const std::vector<int>& ranks);

} // namespace cs::editor
