// Autosave and crash recovery: an edited document is written, a crash (destroying the window
// without its clean close) leaves the file, the next window offers it and recovers exactly the
// edited state as unsaved work; a clean close, a save or undoing to the saved state removes it;
// a live instance's file is never offered.

#include "support/corpus.h"

#include "window/autosave.h"
#include "window/mainwindow.h"
#include "window/newdocuments.h"

#include "document/commands/statecommands.h"
#include "document/commands/transfercommands.h"
#include "document/document.h"
#include "panels/gpuchoice.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>

using namespace cs;
using namespace cs::editor;

namespace {

DocumentState ringAllReduce()
{
  GeneratorOptions options;
  options.ranks = 4;
  std::optional<DocumentState> state = algorithmDocumentState("ring-allreduce", options, "ring-4");
  return std::move(*state);
}

MainWindowOptions windowOptions(const QString& autosaveDirectory)
{
  MainWindowOptions options;
  options.openLibrary = false;
  options.restoreLayout = false;
  options.recordRecentFiles = false;
  options.autosaveDirectory = autosaveDirectory;
  return options;
}

QStringList filesIn(const QString& directory)
{
  return QDir(directory).entryList(QDir::Files);
}

/// A process id that no running process has: one of a child that has exited.
qint64 deadPid()
{
  QProcess process;
  process.start("true", {});
  process.waitForFinished();
  return process.processId() > 0 ? process.processId() : 999999;
}

} // namespace

class Test_autosave : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void crashedDocumentIsRecoveredExactly();
  void recoveryIsOfferedAndAnswered();
  void writesAfterTheDebounceAndRemovesWhenClean();
  void savingRemovesTheFile();
  void liveInstanceFileIsNotOffered();
  void deadProcessFileIsOfferedAndDiscarded();
  void importedProgramRoundTrips_data();
  void importedProgramRoundTrips();

private:
  QString freshDirectory(const QString& name) { return m_dir.filePath(name); }
  QTemporaryDir m_dir;
};

void Test_autosave::initTestCase()
{
  QVERIFY(m_dir.isValid());
  qputenv("XDG_CONFIG_HOME", m_dir.filePath("config").toUtf8());
  qputenv("XDG_DATA_HOME", m_dir.filePath("data").toUtf8());
  QCoreApplication::setOrganizationName("CollectiveStudioTest");
  QCoreApplication::setApplicationName("tst_autosave");
}

void Test_autosave::crashedDocumentIsRecoveredExactly()
{
  const QString directory = freshDirectory("crash");
  DocumentState edited;
  QString crashedFile;
  {
    auto window = std::make_unique<MainWindow>(windowOptions(directory));
    Document* document = window->document();
    window->newDocument(ringAllReduce());
    QVERIFY(!window->autosave()->hasFile()); // nothing unsaved yet
    document->undoStack()->push(new RemoveTransfersCommand(document, {0, 5}));
    document->undoStack()->push(new ChangeNotesCommand(document, "two transfers removed"));
    document->undoStack()->push(makeChooseGpuCommand(document, GpuModelId::B200));
    QCOMPARE(window->autosave()->saveNow(), QString());
    QVERIFY(window->autosave()->hasFile());
    edited = document->state();
    crashedFile = window->autosave()->filePath();
    QCOMPARE(QFileInfo(crashedFile).fileName().section('.', 0, 0).section('-', 0, 0),
             QString::number(QCoreApplication::applicationPid()));
    // The crash: the window goes away without closing, as after a kill.
  }
  QVERIFY(QFileInfo::exists(crashedFile));

  const QList<RecoverableDocument> found = Autosave::findRecoverable(directory);
  QCOMPARE(found.size(), 1);
  QCOMPARE(found[0].path, crashedFile);
  QCOMPARE(found[0].name, QString("ring-allreduce-4"));
  QCOMPARE(found[0].pid, QCoreApplication::applicationPid());
  QVERIFY(found[0].savedAt.secsTo(QDateTime::currentDateTime()) < 60);

  MainWindow window(windowOptions(directory));
  QCOMPARE(window.recoverFrom(found[0].path), QString());
  Document* document = window.document();
  QVERIFY(document->state() == edited);
  QCOMPARE(document->schedule().transfers.size(), std::size_t{22});
  QVERIFY(document->isModified());
  QCOMPARE(window.windowTitle(), QString("ring-allreduce-4* — Collective Studio"));
  // The recovered work now lives in this window's own file; the crashed one is gone.
  QVERIFY(!QFileInfo::exists(crashedFile));
  QVERIFY(window.autosave()->hasFile());
  QVERIFY(Autosave::findRecoverable(directory).isEmpty());

  // A clean close (the user discards) leaves nothing behind.
  window.setUnsavedChangesPrompt([] { return MainWindow::UnsavedAnswer::Discard; });
  QVERIFY(window.close());
  QCOMPARE(filesIn(directory), QStringList());
}

void Test_autosave::recoveryIsOfferedAndAnswered()
{
  const QString directory = freshDirectory("offer");
  {
    MainWindow crashed(windowOptions(directory));
    crashed.newDocument(ringAllReduce());
    Document* document = crashed.document();
    document->undoStack()->push(new ChangeNotesCommand(document, "offered"));
    QCOMPARE(crashed.autosave()->saveNow(), QString());
  }
  MainWindow window(windowOptions(directory));
  window.show();
  QString asked;
  // Answer the message box as a user would: read it, click Recover.
  QTimer::singleShot(0, &window, [&asked] {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    QVERIFY(box);
    asked = box->text();
    for (QAbstractButton* button : box->buttons()) {
      if (button->text() == "Recover")
        QTest::mouseClick(button, Qt::LeftButton);
    }
  });
  window.offerRecovery();
  QVERIFY2(asked.startsWith("Recover unsaved document 'ring-allreduce-4' from "),
           qPrintable(asked));
  QCOMPARE(window.document()->state().design.notes, std::string("offered"));
  QVERIFY(window.document()->isModified());
}

void Test_autosave::writesAfterTheDebounceAndRemovesWhenClean()
{
  const QString directory = freshDirectory("debounce");
  Document document;
  document.reset(ringAllReduce(), {});
  Autosave autosave(&document, directory);
  autosave.setIntervals(50, 10000);
  document.undoStack()->push(new ChangeNotesCommand(&document, "soon written"));
  QVERIFY(!autosave.hasFile()); // debounced, not written on the edit itself
  QTRY_VERIFY_WITH_TIMEOUT(autosave.hasFile(), 5000);
  const std::optional<RecoveredDocument> written = Autosave::loadRecoveryFile(autosave.filePath());
  QVERIFY(written.has_value());
  QCOMPARE(written->state.design.notes, std::string("soon written"));
  // Undoing to the saved state leaves nothing unsaved, so nothing to recover.
  document.undoStack()->undo();
  QVERIFY(!autosave.hasFile());
  QCOMPARE(filesIn(directory), QStringList());
}

void Test_autosave::savingRemovesTheFile()
{
  const QString directory = freshDirectory("save");
  MainWindow window(windowOptions(directory));
  window.newDocument(ringAllReduce());
  Document* document = window.document();
  document->undoStack()->push(new ChangeNotesCommand(document, "to be saved"));
  QCOMPARE(window.autosave()->saveNow(), QString());
  QVERIFY(window.autosave()->hasFile());
  QCOMPARE(window.saveDesignTo(m_dir.filePath("saved.json")), QString());
  QVERIFY(!window.autosave()->hasFile());
  QCOMPARE(filesIn(directory), QStringList());
}

void Test_autosave::liveInstanceFileIsNotOffered()
{
  const QString directory = freshDirectory("live");
  Document running;
  running.reset(ringAllReduce(), {});
  Autosave runningAutosave(&running, directory);
  running.undoStack()->push(new ChangeNotesCommand(&running, "still running"));
  QCOMPARE(runningAutosave.saveNow(), QString());
  // Its lock is held by a live process (this one), so another instance leaves it alone.
  QVERIFY(Autosave::findRecoverable(directory).isEmpty());
  Autosave::discardRecoveryFile(runningAutosave.filePath());
  QVERIFY(runningAutosave.hasFile());
}

void Test_autosave::deadProcessFileIsOfferedAndDiscarded()
{
  const QString directory = freshDirectory("dead");
  QString written;
  {
    Document document;
    document.reset(ringAllReduce(), {});
    Autosave autosave(&document, directory);
    document.undoStack()->push(new ChangeNotesCommand(&document, "from a killed process"));
    QCOMPARE(autosave.saveNow(), QString());
    written = autosave.filePath();
  }
  // The same file as a killed process would leave it: named after its dead pid, its lock stale.
  const qint64 pid = deadPid();
  const QString orphan = QDir(directory).filePath(QString("%1.autosave.json").arg(pid));
  QVERIFY(QFile::rename(written, orphan));
  QFile lock(QDir(directory).filePath(QString("%1.autosave.lock").arg(pid)));
  QVERIFY(lock.open(QIODevice::WriteOnly));
  lock.write(QByteArray::number(pid) + "\ncollective-studio\n" +
             QSysInfo::machineHostName().toUtf8() + "\n");
  lock.close();

  const QList<RecoverableDocument> found = Autosave::findRecoverable(directory);
  QCOMPARE(found.size(), 1);
  QCOMPARE(found[0].path, orphan);
  QString error;
  const std::optional<RecoveredDocument> recovered = Autosave::loadRecoveryFile(orphan, &error);
  QVERIFY2(recovered.has_value(), qPrintable(error));
  QCOMPARE(recovered->state.design.notes, std::string("from a killed process"));
  Autosave::discardRecoveryFile(orphan);
  QCOMPARE(filesIn(directory), QStringList());
}

void Test_autosave::importedProgramRoundTrips_data()
{
  CS_REQUIRE_CORPUS();
  QTest::addColumn<QString>("path");
  for (const QString& path : test::corpusFiles())
    QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
}

void Test_autosave::importedProgramRoundTrips()
{
  // An imported Program stays the source: the autosave keeps it as MSCCL XML in its own
  // dialect, which must read back as the very same Program.
  QFETCH(QString, path);
  const QString directory = freshDirectory("imported");
  MainWindow window(windowOptions(directory));
  QCOMPARE(window.openFile(path), QString());
  Document* document = window.document();
  document->undoStack()->push(new ChangeNotesCommand(document, "imported and noted"));
  QCOMPARE(document->source(), Source::Program);
  QCOMPARE(window.autosave()->saveNow(), QString());
  QString error;
  const std::optional<RecoveredDocument> recovered =
      Autosave::loadRecoveryFile(window.autosave()->filePath(), &error);
  QVERIFY2(recovered.has_value(), qPrintable(error));
  QVERIFY(recovered->state.program.has_value());
  QVERIFY(*recovered->state.program == *document->state().program);
  QVERIFY(recovered->state == document->state());
  QCOMPARE(recovered->origin.filePath, document->origin().filePath);
  window.autosave()->removeFile();
}

QTEST_MAIN(Test_autosave)
#include "tst_autosave.moc"
