#pragma once

// Reading and writing documents as files: a design document (.json) or MSCCL XML (opened with its
// Program as the source, lifted onto the timeline). Every failure is a message that names the
// file and says what is wrong; nothing is ever half-loaded.

#include "documentstate.h"

#include "model/diagnostic.h"
#include "model/dialect.h"

#include <QString>

#include <optional>
#include <vector>

namespace cs::editor {

struct LoadResult {
  std::optional<DocumentState> state; ///< absent when the file could not be opened as a document
  QString error;                      ///< why not, naming the file (and line) when absent
  /// Reader diagnostics (format.*, design.*) worth showing even when the file loaded.
  std::vector<Diagnostic> diagnostics;
};

/// The extension design documents are saved with: a MIME type of their own on the desktop
/// (resources/collective-studio-mime.xml). Any `.json` still opens as a design document.
inline constexpr char kDesignDocumentSuffix[] = ".csdesign.json";

/// The file name of `path` without its extension, a design document's two-part one removed whole
/// ("dir/ring.csdesign.json" and "ring.xml" both give "ring").
QString documentBaseName(const QString& path);

/// The path to save a design document at, from what a save dialog returned: kept when it already
/// ends in `.json` (plain `.json` included), else with kDesignDocumentSuffix added.
QString designDocumentSavePath(const QString& chosen);

/// Opens `path`: `.json` as a design document, anything else as MSCCL XML. XML sets the
/// lowering dialect to the one the file was written for.
LoadResult loadDocumentFile(const QString& path);

/// Writes the design document (Schedule, Topology, notes) atomically. An imported Program that
/// is still the source is saved lifted. Returns an empty string or the reason it failed.
QString saveDesignFile(const DocumentState& state, const std::optional<Schedule>& shownSchedule,
                       const QString& path);

/// The MSCCL XML text of `program` for `dialect`, with the writer's notes.
struct XmlExport {
  std::string text;
  std::vector<Diagnostic> notes;
};
XmlExport exportXml(const Program& program, DialectId dialect);

} // namespace cs::editor
