// MainWindow: the timeline's Cut, Copy, Paste and Duplicate (issue 17, item 6) in the Edit menu,
// and what they did, or why they did nothing, in the status bar. The verbs themselves are the
// view's (editor/timeline/timelineclipboard.cpp); this file only shows them.

#include "mainwindow.h"

#include "timeline/timelineview.h"

#include <QStatusBar>

namespace cs::editor {

namespace {

constexpr int kClipboardMessageMs = 6000;

} // namespace

void MainWindow::connectClipboard()
{
  connect(m_timelineView, &TimelineView::statusMessage, this, [this](const QString& message) {
    statusBar()->showMessage(message, kClipboardMessageMs);
  });
}

QList<QAction*> MainWindow::clipboardActions(View view) const
{
  return view == View::Timeline ? m_timelineView->clipboardActions() : QList<QAction*>();
}

} // namespace cs::editor
