#pragma once

// The bridge between the document and the SQLite library (storage/library.h): what a save stores
// and how a stored version becomes a document again. Used by the Save to Library dialog, the
// Library dock and tests; no widgets here.

#include "document/document.h"
#include "document/documentfiles.h"

#include "library.h"

#include <QString>

namespace cs::editor {

/// The save of the current document as a new version of `name` with `message`: the design
/// document (with the Schedule the timeline shows, so imported programs are saved lifted), the
/// MSCCL XML of the Program the program view shows for the target dialect, and the Schedule.
/// Uses the document's current Analysis as it is (see saveToLibrary, which waits for it).
storage::SaveRequest makeSaveRequest(const Document& document, const QString& name,
                                     const QString& message);

/// Saves the document as a new version of `name` once its analysis is complete; on success marks
/// it saved and sets its origin to the library version (unchanged content: the head's number).
storage::Result<storage::SaveOutcome> saveToLibrary(Document& document, storage::Library& library,
                                                    const QString& name, const QString& message);

/// Version `number` (0: the head) of algorithm `algorithmId` as a document state: its design
/// document when it has one (the Schedule is then the source), otherwise its MSCCL XML (the
/// Program is the source, in the dialect the XML was written for). `error` says why not.
LoadResult loadLibraryVersion(const storage::Library& library, std::int64_t algorithmId,
                              int number);

} // namespace cs::editor
