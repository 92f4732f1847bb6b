#pragma once

// A gallery card's picture (issue 19 item 1): the algorithm's whole step timeline, drawn by the
// editor's own TimelineView so the card looks like what opens, then scaled down.

#include "document/documentstate.h"

#include <QImage>
#include <QSize>

namespace cs::editor {

/// `state`'s timeline, every step and rank, scaled to fit `size` (aspect kept, transparent
/// margins). A null image when the state has no transfers to show.
QImage timelineThumbnail(const DocumentState& state, QSize size);

} // namespace cs::editor
