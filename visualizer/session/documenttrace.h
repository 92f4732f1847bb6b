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
/// Whether `path` holds a Chrome trace rather than a design document (both are .json): decided
/// from the file's first bytes, so a large trace is not read twice.
bool looksLikeChromeTrace(const QString& path);
/// Opens a trace already read (a run stored in the library) against `document`; `name` ("run
/// 12") is what an error names. Never throws.
DocumentReplay openDocumentRun(const editor::Document& document, const Trace& trace,
                               const QString& name);

} // namespace cs::visualizer
