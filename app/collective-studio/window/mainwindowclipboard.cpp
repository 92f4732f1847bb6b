// MainWindow: the timeline's Cut, Copy, Paste and Duplicate (issue 17, item 6) in the Edit menu,
// and what they did, or why they did nothing, in the status bar, with the topology view's own
// sentences (an export's path, a layout). The verbs themselves are the views'
// (editor/timeline/timelineclipboard.cpp); this file only shows them.

#include "mainwindow.h"

#include "timeline/timelineview.h"
#include "topology/topologyview.h"

#include <QStatusBar>

namespace cs::editor {

namespace {

constexpr int kClipboardMessageMs = 6000;

} // namespace

void MainWindow::connectClipboard()
{
  const auto show = [this](const QString& message) {
    statusBar()->showMessage(message, kClipboardMessageMs);
  };
  connect(m_timelineView, &TimelineView::statusMessage, this, show);
  connect(m_topologyView, &TopologyView::statusMessage, this, show);
}

QList<QAction*> MainWindow::clipboardActions(View view) const
{
  return view == View::Timeline ? m_timelineView->clipboardActions() : QList<QAction*>();
}

} // namespace cs::editor
