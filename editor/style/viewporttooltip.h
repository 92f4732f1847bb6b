#pragma once

// Tooltips of custom-painted scroll areas (the timeline, the Gantt chart): the text depends on
// what lies under the mouse, so each view answers a QEvent::ToolTip from its viewportEvent()
// through this one function.

#include <QEvent>
#include <QPoint>
#include <QString>

#include <functional>

class QWidget;

namespace cs::editor {

/// For a QEvent::ToolTip on `viewport`, shows `textAt(position)` (or hides the tooltip when it is
/// empty) and returns true; returns false for any other event.
bool showViewportToolTip(QEvent* event, QWidget* viewport,
                         const std::function<QString(const QPoint&)>& textAt);

} // namespace cs::editor
