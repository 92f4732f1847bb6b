#pragma once

// A TransferGroup (transfergroup.h) on the system clipboard, so transfers can be pasted into
// another step, another rank, or another window. The private MIME type holds a design document
// (io/designdocument.h) whose Schedule is the group: the source's rank count and buffers, and the
// transfers relative to the group's origin. A text/plain description goes along for other
// programs; a paste reads only the private type, so foreign text never becomes transfers.

#include "transfergroup.h"

#include <QString>

#include <optional>

class QMimeData;

namespace cs::editor {

/// The clipboard format of copied transfers.
inline constexpr char kTransfersMimeType[] = "application/x-collective-studio-transfers+json";

/// `group`, copied from `source`, as clipboard data: the private type and text/plain.
QMimeData* transfersToMimeData(const TransferGroup& group, const Schedule& source);

/// What a paste found on the clipboard.
struct ClipboardTransfers {
  std::optional<TransferGroup> group; ///< set when the clipboard holds readable transfers
  /// Why there is no group: no transfers of ours on the clipboard, or what is wrong with them.
  QString error;
};

/// Reads the private type of `data` (null: an empty clipboard). Refuses what no copy writes:
/// negative steps, chunk indices or counts, ranks outside the group's rank count.
ClipboardTransfers transfersFromMimeData(const QMimeData* data);

/// The text/plain form: one line per transfer, steps and ranks relative to the origin.
QString describeGroup(const TransferGroup& group);

} // namespace cs::editor
