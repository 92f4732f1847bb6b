#pragma once

// Icons drawn with QPainter at whatever size and device pixel ratio they are asked for (there is
// no icon theme to rely on): the severities of the Problems dock, the "no problems" check, and
// the row verbs of the program view. The Problems dock, the program view and the inspector use
// the same functions, so an error looks the same everywhere. Colours come from
// style/rankpalette.h. Add a new icon as one more painter function in paintedicons.cpp.

#include "model/diagnostic.h"
#include "style/paintedicon.h"

#include <QIcon>
#include <QPainter>

#include <functional>

namespace cs::editor {

/// Red circle with a cross, amber triangle with "!", blue circle with "i".
QIcon severityIcon(Severity severity);
/// Green circle with a check mark: "no problems", "correct".
QIcon okIcon();

/// Row verbs of the program view: insert a row below, delete a row, expand and collapse a tree.
QIcon insertRowIcon();
QIcon deleteRowIcon();
QIcon expandAllIcon();
QIcon collapseAllIcon();
/// An arrow up or down: move the selected row.
QIcon moveRowIcon(bool down);
/// An arrow bent back to a row: "go to the instruction this one waits for".
QIcon jumpIcon();

/// A small rounded square filled with `color` (rank swatches in trees and forms).
QIcon swatchIcon(const QColor& color);

} // namespace cs::editor
