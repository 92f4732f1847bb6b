// Help › User Guide (issue 17 item 8): the menu entry (F1) opens docs/editor.md with its pictures,
// and the guide's chapters have their example files, generated at build time from the catalogue:
// the "Fixing a deadlock" ring, which the editor opens with the deadlock the chapter describes, and
// a simulated run that replays against its design.

#include "support/isolatedwindow.h"
#include "window/mainwindow.h"

#include "document/document.h"

#include <QAction>
#include <QDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

#include <memory>

using namespace cs;
using namespace cs::editor;

class TestUserGuide : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void helpMenuOpensTheGuide();
  void deadlockChapterHasItsExample();

private:
  QTemporaryDir m_dir;
  std::unique_ptr<MainWindow> m_window;
};

void TestUserGuide::initTestCase()
{
  QVERIFY(m_dir.isValid());
  m_window = cs::test::openIsolatedWindow(m_dir, "tst_userguide");
}

void TestUserGuide::helpMenuOpensTheGuide()
{
  QAction* guide = m_window->findChild<QAction*>(QStringLiteral("userGuideAction"));
  QVERIFY(guide);
  QCOMPARE(guide->shortcut(), QKeySequence(QKeySequence::HelpContents));
  bool inHelp = false;
  for (QAction* menu : m_window->menuBar()->actions())
    if (menu->menu() && menu->text() == QStringLiteral("&Help"))
      inHelp = menu->menu()->actions().contains(guide);
  QVERIFY(inHelp);

  QCOMPARE(QFileInfo(MainWindow::userGuidePath()).fileName(), QStringLiteral("editor.md"));
  guide->trigger();
  auto* dialog = m_window->findChild<QDialog*>(QStringLiteral("userGuide"));
  QVERIFY(dialog);
  QVERIFY(dialog->isVisible());
  auto* browser = dialog->findChild<QTextBrowser*>();
  QVERIFY(browser);
  const QString text = browser->toPlainText();
  QVERIFY2(text.contains(QStringLiteral("Drawing a ring all-reduce")), qPrintable(text.left(200)));
  QVERIFY(text.contains(QStringLiteral("Fixing a deadlock")));
  // The pictures resolve beside the guide.
  QCOMPARE(browser->source(), QUrl::fromLocalFile(MainWindow::userGuidePath()));
  QVERIFY(QFileInfo::exists(QFileInfo(MainWindow::userGuidePath())
                                .dir()
                                .filePath(QStringLiteral("images/guide-deadlock.png"))));
  dialog->close();
}

void TestUserGuide::deadlockChapterHasItsExample()
{
#ifndef CSTUDIO_EXAMPLES_DIR
  QSKIP("this build writes no examples (sanitizer and fuzzing builds)");
#else
  const QString example = QStringLiteral(CSTUDIO_EXAMPLES_DIR "/ring-allreduce-4-deadlock.xml");
  QVERIFY2(QFileInfo::exists(example), qPrintable(example));
  QVERIFY(m_window->openFile(example).isEmpty());
  QStringList codes;
  for (const Problem& problem : m_window->document()->analysis().problems)
    codes << QString::fromStdString(problem.diagnostic.code);
  QVERIFY2(codes.contains(QStringLiteral("dep.cycle")), qPrintable(codes.join(", ")));

  // The chapters name their files, and the replay chapter's run is a run of its design.
  QFile guide(MainWindow::userGuidePath());
  QVERIFY(guide.open(QIODevice::ReadOnly));
  const QString text = QString::fromUtf8(guide.readAll());
  const QString examples = QStringLiteral(CSTUDIO_EXAMPLES_DIR "/");
  for (const QString name : {"ring-allreduce-4-deadlock.xml", "ring-allreduce-4.csdesign.json",
                             "ring-allreduce-4.trace.json"}) {
    QVERIFY2(text.contains(name), qPrintable(name));
    QVERIFY2(QFileInfo::exists(examples + name), qPrintable(name));
  }
  QVERIFY(m_window->openFile(examples + "ring-allreduce-4.csdesign.json").isEmpty());
  const QString replayed = m_window->openTrace(examples + "ring-allreduce-4.trace.json");
  QVERIFY2(replayed.isEmpty(), qPrintable(replayed));
  QVERIFY(m_window->replayWindow());
  m_window->replayWindow()->close();
#endif
}

QTEST_MAIN(TestUserGuide)
#include "tst_userguide.moc"
