#pragma once

// What a user of docs/editor.md does, for the tests that follow the guide step by step: pick a
// menu entry by its menu and text, fill in the modal dialog it opens through the dialog's own
// widgets (found by their labels, as a user finds them), and drag with the mouse. Header-only:
// only tests that link the application layer include it.

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QFormLayout>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QTest>
#include <QTimer>

#include <functional>

namespace cs::test {

/// A menu or action text as shown: without the mnemonic's '&' and a trailing "…".
inline QString shownText(QString text)
{
  text.remove(QLatin1Char('&'));
  if (text.endsWith(QChar(0x2026)))
    text.chop(1);
  return text;
}

/// The entry `entry` of the menu bar's menu `menu` (texts as shown, e.g. "File", "New"), or null.
inline QAction* menuEntry(QMainWindow* window, const QString& menu, const QString& entry)
{
  for (QAction* top : window->menuBar()->actions()) {
    if (!top->menu() || shownText(top->text()) != menu)
      continue;
    for (QAction* action : top->menu()->actions())
      if (shownText(action->text()) == entry)
        return action;
  }
  return nullptr;
}

/// Triggers `open`, which runs a modal dialog, and calls `fill` on that dialog once it is shown;
/// `fill` accepts or rejects it. Returns whether a dialog came up (it is rejected when `fill`
/// leaves it open, so a failed step never hangs the test).
inline bool withModalDialog(const std::function<void()>& open,
                            const std::function<void(QDialog*)>& fill)
{
  bool shown = false;
  QTimer::singleShot(0, [&] {
    auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
    if (!dialog)
      return;
    shown = true;
    fill(dialog);
    if (dialog->isVisible())
      dialog->reject();
  });
  open();
  return shown;
}

/// The field a form in `parent` labels `label` (as written, with its '&'), or null.
template <typename Field> Field* fieldLabelled(QWidget* parent, const QString& label)
{
  for (QLabel* candidate : parent->findChildren<QLabel*>())
    if (candidate->text() == label)
      return qobject_cast<Field*>(candidate->buddy());
  return nullptr;
}

/// The button (push button, check box) in `parent` whose text starts with `text`, or null.
template <typename Button> Button* buttonStarting(QWidget* parent, const QString& text)
{
  for (Button* button : parent->findChildren<Button*>())
    if (shownText(button->text()).startsWith(text))
      return button;
  return nullptr;
}

/// A user's drag: press, move past the drag distance, move to the target, release.
inline void dragMouse(QWidget* widget, QPoint from, QPoint to, Qt::KeyboardModifiers release = {})
{
  QTest::mousePress(widget, Qt::LeftButton, {}, from);
  QTest::mouseMove(widget, from + QPoint(6, 3));
  QTest::mouseMove(widget, (from + to) / 2);
  QTest::mouseMove(widget, to);
  QTest::mouseRelease(widget, Qt::LeftButton, release, to);
}

} // namespace cs::test
