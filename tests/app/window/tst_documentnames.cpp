// One name per algorithm (issue 17 item 7): the start document, its XML and the library's copy
// are all "ring-allreduce-4" (and `cstudio library` lists that name); Save As names an untitled
// or still file-named document after its file, but keeps a name the user typed; Save to Library
// names the document after the library entry; the library's example carries the start document's
// topology; and double-clicking a topology in the Library asks before it replaces the document's.

#include "support/cli.h"

#include "window/librarydocuments.h"
#include "window/librarypanel.h"
#include "window/librarypanel_p.h"
#include "window/mainwindow.h"

#include "document/commands/statecommands.h"
#include "document/document.h"
#include "document/documentnames.h"
#include "panels/documentinspector.h"

#include "check/topologyfit.h"
#include "io/designdocument.h"
#include "io/mscclxmlreader.h"
#include "library.h"
#include "model/topologypresets.h"

#include <QApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>

#include <memory>

using namespace cs;
using namespace cs::editor;

namespace {

/// The Library's item for the built-in topology `name`, or nullptr.
QTreeWidgetItem* presetItem(const LibraryPanel* panel, const QString& name)
{
  QTreeWidgetItemIterator it(panel->tree());
  for (; *it; ++it)
    if (librarytree::kindOf(*it) == LibraryPanel::ItemKind::PresetTopology &&
        (*it)->text(0) == name)
      return *it;
  return nullptr;
}

/// Answers the next modal message box with the button whose text is `button`, remembering the
/// question it asked.
void answerNextQuestion(const QString& button, QString* asked)
{
  QTimer::singleShot(0, [button, asked] {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (!box)
      return;
    *asked = box->text();
    for (QAbstractButton* candidate : box->buttons())
      if (candidate->text().remove(QLatin1Char('&')) == button)
        candidate->click();
  });
}

} // namespace

class Test_documentnames : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void init();
  void startDocumentAndLibraryShareOneName();
  void theLibraryExampleHasTheStartTopology();
  void everySeededExampleFitsItsTopology();
  void saveAsNamesTheDocumentAfterItsFile();
  void saveAsKeepsATypedName();
  void saveToLibraryNamesTheDocument();
  void libraryTopologyAsksBeforeReplacing();

private:
  QTemporaryDir m_dir;
  std::unique_ptr<MainWindow> m_window;
};

void Test_documentnames::initTestCase()
{
  QVERIFY(m_dir.isValid());
  qputenv("XDG_CONFIG_HOME", m_dir.filePath("config").toUtf8());
  qputenv("XDG_DATA_HOME", m_dir.filePath("data").toUtf8());
  QCoreApplication::setOrganizationName("CollectiveStudioTest");
  QCoreApplication::setApplicationName("tst_documentnames");
  MainWindowOptions options;
  options.libraryPath = m_dir.filePath("library.sqlite");
  options.autosave = false;
  options.recordRecentFiles = false;
  m_window = std::make_unique<MainWindow>(options);
  m_window->resize(1400, 900);
  m_window->show();
}

void Test_documentnames::init()
{
  m_window->setUnsavedChangesPrompt([] { return MainWindow::UnsavedAnswer::Discard; });
  // The start document, as main.cpp opens it.
  QCOMPARE(m_window->newFromAlgorithm(
               "ring-allreduce", 4,
               QString::fromStdString(storage::exampleTopologyPreset("ring-allreduce", 4))),
           QString());
}

void Test_documentnames::startDocumentAndLibraryShareOneName()
{
  Document* document = m_window->document();
  const std::string started = documentName(document->state());
  QCOMPARE(started, std::string("ring-allreduce-4"));
  document->waitForAnalysis();
  QCOMPARE(document->shownProgram()->name, started); // the XML's name attribute

  storage::Library* library = m_window->libraryPanel()->library();
  QVERIFY(library);
  const storage::Result<storage::AlgorithmRecord> stored = library->algorithm(started);
  QVERIFY(stored);
  QCOMPARE(m_window->openFromLibrary(stored->id, 0), QString());
  QCOMPARE(documentName(document->state()), started);
  QCOMPARE(document->displayName(), QString::fromStdString(started));
  const storage::Result<storage::VersionRecord> head = library->version(stored->id, 0);
  QVERIFY(head);
  const storage::Result<storage::VersionContent> content = library->content(head->id);
  QVERIFY(content);
  QCOMPARE(readMscclXml(content->xml).program->name, started);

  const test::CliRun listed =
      test::cstudio({"library", "list", "--json", "--library", m_dir.filePath("library.sqlite")});
  QCOMPARE(listed.exitCode, 0);
  QStringList names;
  for (const QJsonValue& entry : QJsonDocument::fromJson(listed.out.toUtf8()).array())
    names << entry.toObject()["name"].toString();
  QVERIFY2(names.contains(QString::fromStdString(started)), qPrintable(names.join(", ")));
}

void Test_documentnames::theLibraryExampleHasTheStartTopology()
{
  const std::optional<Topology> start = m_window->document()->topology();
  QVERIFY(start);
  QCOMPARE(start->name, std::string("ring-4"));
  storage::Library* library = m_window->libraryPanel()->library();
  QCOMPARE(m_window->openFromLibrary(library->algorithm("ring-allreduce-4")->id, 0), QString());
  const std::optional<Topology>& opened = m_window->document()->topology();
  QVERIFY(opened);
  QVERIFY(*opened == *start);
}

void Test_documentnames::everySeededExampleFitsItsTopology()
{
  const std::vector<storage::SaveRequest> examples = storage::exampleRequests();
  QVERIFY(!examples.empty());
  for (const storage::SaveRequest& example : examples) {
    const DesignReadResult design = readDesignDocument(example.content.designJson);
    QVERIFY2(design.document, example.name.c_str());
    QCOMPARE(design.document->schedule.name, example.name);
    QVERIFY2(design.document->topology, example.name.c_str());
    Diagnostics found;
    checkTopologyFit(*design.document->topology, design.document->schedule.ranks,
                     scheduleExchanges(design.document->schedule), found);
    QVERIFY2(!found.hasErrors(), example.name.c_str());
  }
}

void Test_documentnames::saveAsNamesTheDocumentAfterItsFile()
{
  Document* document = m_window->document();
  m_window->newDocument(DocumentState{}); // "untitled"
  QCOMPARE(documentName(document->state()), std::string());
  Document fresh;
  QCOMPARE(documentName(fresh.state()), std::string("untitled"));
  m_window->newDocument(fresh.state());
  const QString path = m_dir.filePath("my-ring.csdesign.json");
  QCOMPARE(m_window->saveDesignTo(path), QString());
  QCOMPARE(documentName(document->state()), std::string("my-ring"));
  QVERIFY(!document->isModified());
  QVERIFY2(m_window->windowTitle().startsWith("my-ring"), qPrintable(m_window->windowTitle()));
  auto* inspector = m_window->findChild<DocumentInspector*>();
  QVERIFY(inspector);
  auto* nameField = inspector->findChild<QLineEdit*>("name");
  QVERIFY(nameField);
  QCOMPARE(nameField->text(), QString("my-ring"));
  // The rename is an edit like any other: undo gives the old name back.
  document->undoStack()->undo();
  QCOMPARE(documentName(document->state()), std::string("untitled"));

  // A generated name is not typed either: the next Save As renames it.
  QVERIFY(m_window->newFromAlgorithm("ring-allgather", 4, {}).isEmpty());
  QCOMPARE(m_window->saveDesignTo(m_dir.filePath("gather.csdesign.json")), QString());
  QCOMPARE(documentName(document->state()), std::string("gather"));
  QCOMPARE(m_window->saveDesignTo(m_dir.filePath("gather2.csdesign.json")), QString());
  QCOMPARE(documentName(document->state()), std::string("gather2"));
}

void Test_documentnames::saveAsKeepsATypedName()
{
  Document* document = m_window->document();
  Schedule renamed = document->schedule();
  renamed.name = "mine";
  document->undoStack()->push(new ReplaceScheduleCommand(document, renamed, "Rename algorithm"));
  QVERIFY(nameWasTyped(*document));
  QCOMPARE(m_window->saveDesignTo(m_dir.filePath("other.csdesign.json")), QString());
  QCOMPARE(documentName(document->state()), std::string("mine"));
}

void Test_documentnames::saveToLibraryNamesTheDocument()
{
  Document* document = m_window->document();
  storage::Library* library = m_window->libraryPanel()->library();
  const storage::Result<storage::SaveOutcome> saved =
      saveToLibrary(*document, *library, " my library ring ", "first");
  QVERIFY(saved);
  QCOMPARE(documentName(document->state()), std::string("my library ring"));
  QCOMPARE(document->displayName(), QString("my library ring"));
  QVERIFY(!document->isModified());
  const storage::Result<storage::VersionContent> content =
      library->content(library->version(saved->algorithmId, 0)->id);
  QCOMPARE(readMscclXml(content->xml).program->name, std::string("my library ring"));
  QCOMPARE(readDesignDocument(content->designJson).document->schedule.name,
           std::string("my library ring"));
}

void Test_documentnames::libraryTopologyAsksBeforeReplacing()
{
  Document* document = m_window->document();
  LibraryPanel* panel = m_window->libraryPanel();
  panel->setSearchText({});
  QTreeWidgetItem* dgx = presetItem(panel, "dgx-h100");
  QVERIFY(dgx);
  const std::optional<Topology> before = document->topology();
  QVERIFY(before);
  const int undoSteps = document->undoStack()->count();

  QString asked;
  answerNextQuestion("Cancel", &asked);
  emit panel->tree()->itemActivated(dgx, 0);
  QCOMPARE(asked, QString("Replace the document's topology 'ring-4' with 'dgx-h100'?"));
  QVERIFY(document->topology() == before);
  QCOMPARE(document->undoStack()->count(), undoSteps);

  asked.clear();
  answerNextQuestion("Replace", &asked);
  emit panel->tree()->itemActivated(dgx, 0);
  QVERIFY(!asked.isEmpty());
  QCOMPARE(document->topology()->name, std::string("dgx-h100"));
  QCOMPARE(document->undoStack()->count(), undoSteps + 1); // one undo command
  document->undoStack()->undo();
  QVERIFY(document->topology() == before);

  // No topology yet: nothing to replace, nothing asked.
  DocumentState bare = document->state();
  bare.design.topology.reset();
  m_window->newDocument(bare);
  asked.clear();
  answerNextQuestion("Cancel", &asked);
  emit panel->tree()->itemActivated(dgx, 0);
  QCOMPARE(document->topology()->name, std::string("dgx-h100"));
  QVERIFY(asked.isEmpty());
  QCoreApplication::processEvents(); // the pending answer finds no question
}

QTEST_MAIN(Test_documentnames)
#include "tst_documentnames.moc"
