#pragma once

// Opening a recorded run of what the editor shows: the trace is read as a run of the document's
// analysed Program, its messages routed over the document's topology, in the first call mode the
// program declares. Used by the app's Replay menu and its --trace command line.

#include "replaysession.h"

#include <QString>

#include <memory>

namespace cs::editor {
class Document;
}

namespace cs::visualizer {

struct DocumentReplay {
  std::unique_ptr<ReplaySession> session;
  QString error; ///< "Cannot replay FILE: reason", when there is no session
};

/// Opens `tracePath` against `document`; never throws.
DocumentReplay openDocumentTrace(const editor::Document& document, const QString& tracePath);

} // namespace cs::visualizer
