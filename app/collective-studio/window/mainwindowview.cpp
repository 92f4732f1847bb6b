// MainWindow: room for the timeline and keys wherever the focus is (issue 17, items 4 and 5).
// View › Fit Timeline to Window and Compact Rows, the timeline's zoom and compact rows
// remembered per document (QSettings keyed by its file; the design format holds no view state),
// the current view's tool shortcuts made window-wide, and Undo/Redo left to a text field only
// while the field has something of its own to undo.

#include "mainwindow.h"

#include "document/document.h"
#include "program/programview.h"
#include "timeline/timelineview.h"
#include "topology/topologyview.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QCryptographicHash>
#include <QFileInfo>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalBlocker>
#include <QTextEdit>

#include <algorithm>
#include <optional>

namespace cs::editor {

namespace {

/// Whether the focused text field has an undo (or redo) step of its own; nullopt when the
/// focus is not in an editable text field.
std::optional<bool> fieldCanUndo(bool redo)
{
  QWidget* focus = QApplication::focusWidget();
  if (auto* spin = qobject_cast<QAbstractSpinBox*>(focus))
    focus = spin->findChild<QLineEdit*>();
  if (auto* edit = qobject_cast<QLineEdit*>(focus); edit && !edit->isReadOnly())
    return redo ? edit->isRedoAvailable() : edit->isUndoAvailable();
  if (auto* text = qobject_cast<QPlainTextEdit*>(focus); text && !text->isReadOnly())
    return redo ? text->document()->isRedoAvailable() : text->document()->isUndoAvailable();
  if (auto* text = qobject_cast<QTextEdit*>(focus); text && !text->isReadOnly())
    return redo ? text->document()->isRedoAvailable() : text->document()->isUndoAvailable();
  return std::nullopt;
}

/// A text field claims Ctrl+Z even when it has nothing to undo (a spin box's text is reset
/// whenever the document changes its value), which made Ctrl+Z there do nothing. This filter
/// lets the field keep Undo/Redo only while it has a step of its own; otherwise the window's
/// Undo/Redo act on the document.
class FieldUndoFilter : public QObject
{
public:
  using QObject::QObject;

protected:
  bool eventFilter(QObject* watched, QEvent* event) override
  {
    if (event->type() != QEvent::ShortcutOverride)
      return QObject::eventFilter(watched, event);
    auto* key = static_cast<QKeyEvent*>(event);
    const bool undo = key->matches(QKeySequence::Undo);
    const bool redo = key->matches(QKeySequence::Redo);
    if (!undo && !redo)
      return false;
    const std::optional<bool> own = fieldCanUndo(redo);
    if (!own || *own)
      return false;
    key->ignore();
    return true;
  }
};

/// Whether `key` may act wherever the focus is in the window: a plain letter (a tool or mode)
/// or a Ctrl chord that no focused widget uses for its own editing. Delete, Ctrl+A, the
/// clipboard keys and arrows stay with the focused list, table or field.
bool worksAnywhere(const QKeySequence& key)
{
  if (key.count() != 1)
    return false;
  const QKeyCombination combination = key[0];
  const Qt::Key code = combination.key();
  const Qt::KeyboardModifiers modifiers = combination.keyboardModifiers();
  const bool letter = code >= Qt::Key_A && code <= Qt::Key_Z;
  if (modifiers == Qt::NoModifier)
    return letter;
  if (!modifiers.testFlag(Qt::ControlModifier))
    return false;
  for (const QKeySequence::StandardKey editing :
       {QKeySequence::Copy, QKeySequence::Cut, QKeySequence::Paste, QKeySequence::Undo,
        QKeySequence::Redo, QKeySequence::SelectAll, QKeySequence::Find}) {
    if (QKeySequence::keyBindings(editing).contains(key))
      return false;
  }
  const bool zoom =
      code == Qt::Key_Plus || code == Qt::Key_Minus || code == Qt::Key_Equal || code == Qt::Key_0;
  return letter || zoom;
}

/// Where a document's timeline settings are kept: by its absolute file path, else by its
/// library name; empty for a new document (nothing to remember it by) or when `remember` is off.
QString timelineSettingsKey(const DocumentOrigin& origin, bool remember)
{
  if (!remember)
    return {};
  QString id;
  if (!origin.filePath.isEmpty())
    id = QFileInfo(origin.filePath).absoluteFilePath();
  else if (!origin.libraryName.isEmpty())
    id = QStringLiteral("library:") + origin.libraryName;
  if (id.isEmpty())
    return {};
  // A hash: paths hold '/' and other characters QSettings keys treat specially.
  const QByteArray hash = QCryptographicHash::hash(id.toUtf8(), QCryptographicHash::Sha1);
  return QStringLiteral("timelineView/") + QString::fromLatin1(hash.toHex());
}

} // namespace

void MainWindow::addWindowViewActions(QMenu* view)
{
  qApp->installEventFilter(new FieldUndoFilter(this));

  m_fitTimeline = new QAction(tr("&Fit Timeline to Window"), this);
  m_fitTimeline->setObjectName(QStringLiteral("fitTimeline"));
  m_fitTimeline->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
  m_fitTimeline->setStatusTip(tr("Zoom the timeline so that every step (and, where the rows "
                                 "stay legible, every row) fits the window"));
  connect(m_fitTimeline, &QAction::triggered, this, [this] {
    showView(View::Timeline);
    m_timelineView->fitToWindow();
  });
  m_compactRows = new QAction(tr("&Compact Rows"), this);
  m_compactRows->setObjectName(QStringLiteral("compactRows"));
  m_compactRows->setCheckable(true);
  m_compactRows->setStatusTip(tr("Smaller timeline rows, so that more ranks fit"));
  connect(m_compactRows, &QAction::toggled, m_timelineView, &TimelineView::setCompactRows);
  view->addAction(m_fitTimeline);
  view->addAction(m_compactRows);
  view->addAction(m_timelineView->groupByNodeAction());
  view->addAction(m_topologyView->groupByNodeAction());
  view->addSeparator();

  connect(m_timelineView, &TimelineView::viewSettingsChanged, this,
          &MainWindow::storeTimelineSettings);
  connect(m_document, &Document::replaced, this, &MainWindow::restoreTimelineSettings);
  // Save As: the same view settings, now remembered under the new file too.
  connect(m_document, &Document::originChanged, this, [this] {
    const QString key = timelineSettingsKey(m_document->origin(), m_options.rememberViewSettings);
    if (key == m_timelineSettingsKey)
      return;
    m_timelineSettingsKey = key;
    storeTimelineSettings();
  });
  restoreTimelineSettings();
}

void MainWindow::storeTimelineSettings()
{
  const QSignalBlocker blocker(m_compactRows);
  m_compactRows->setChecked(m_timelineView->compactRows());
  if (m_timelineSettingsKey.isEmpty() || m_restoringTimeline)
    return;
  QSettings settings;
  settings.setValue(m_timelineSettingsKey + QStringLiteral("/zoom"), m_timelineView->zoom());
  settings.setValue(m_timelineSettingsKey + QStringLiteral("/compact"),
                    m_timelineView->compactRows());
}

void MainWindow::restoreTimelineSettings()
{
  m_timelineSettingsKey = timelineSettingsKey(m_document->origin(), m_options.rememberViewSettings);
  QSettings settings;
  double zoom = 1.0;
  bool compact = false;
  if (!m_timelineSettingsKey.isEmpty()) {
    zoom = settings.value(m_timelineSettingsKey + QStringLiteral("/zoom"), zoom).toDouble();
    compact = settings.value(m_timelineSettingsKey + QStringLiteral("/compact"), compact).toBool();
  }
  m_restoringTimeline = true;
  m_timelineView->setCompactRows(compact);
  m_timelineView->setZoom(zoom);
  m_restoringTimeline = false;
  const QSignalBlocker blocker(m_compactRows);
  m_compactRows->setChecked(compact);
}

void MainWindow::promoteViewShortcuts()
{
  // Only the shown view's keys go window-wide: the views bind the same letters to their own
  // verbs, and the hidden ones must not answer.
  const View current = currentView();
  for (const View view : {View::Topology, View::Timeline, View::Program}) {
    for (QAction* action : viewActions(view)) {
      const QList<QKeySequence> keys = action->shortcuts();
      const bool anywhere = view == current && !keys.isEmpty() &&
                            std::all_of(keys.begin(), keys.end(), worksAnywhere);
      action->setShortcutContext(anywhere ? Qt::WindowShortcut : Qt::WidgetWithChildrenShortcut);
    }
  }
}

} // namespace cs::editor
