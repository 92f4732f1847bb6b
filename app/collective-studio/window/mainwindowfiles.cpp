// MainWindow: New, Open, Save, Export, the library, recent files and crash recovery (see
// mainwindow.h for the map). The public functions never show a dialog; the *FromDialog ones are
// the menu paths that ask, then call them.

#include "mainwindow.h"
#include "mainwindowactions.h"

#include "autosave.h"
#include "exportdialog.h"
#include "librarydocuments.h"
#include "librarypanel.h"
#include "newdocumentdialog.h"
#include "newdocuments.h"
#include "recentfiles.h"
#include "savetolibrarydialog.h"
#include "windowicons.h"

#include "document/document.h"
#include "document/documentfiles.h"
#include "document/documentnames.h"
#include "topology/topologyview.h"

#include "io/dotwriter.h"
#include "io/mscclxmlwriter.h"
#include "library.h"

#include <QDialog>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>

namespace cs::editor {

namespace {

constexpr const char* kLastDirectoryKey = "paths/lastDirectory";
constexpr int kStatusMessageMs = 5000;

QString lastDirectory()
{
  return QSettings().value(kLastDirectoryKey, QDir::homePath()).toString();
}

void rememberDirectory(const QString& path)
{
  QSettings().setValue(kLastDirectoryKey, QFileInfo(path).absolutePath());
}

} // namespace

// Dialog-free API.

QString MainWindow::openFile(const QString& path)
{
  LoadResult loaded = loadDocumentFile(path);
  if (!loaded.state)
    return loaded.error;
  DocumentOrigin origin;
  origin.filePath = QFileInfo(path).absoluteFilePath();
  m_document->reset(std::move(*loaded.state), origin);
  if (m_options.recordRecentFiles)
    m_recentFiles->add(path);
  statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(origin.filePath)),
                           kStatusMessageMs);
  return {};
}

QString MainWindow::newFromAlgorithm(const QString& key, int ranks, const QString& presetName)
{
  GeneratorOptions options;
  options.ranks = ranks;
  QString error;
  std::optional<DocumentState> state = algorithmDocumentState(key, options, presetName, &error);
  if (!state)
    return error;
  newDocument(std::move(*state));
  return {};
}

void MainWindow::newDocument(DocumentState state)
{
  m_document->reset(std::move(state), DocumentOrigin{});
}

QString MainWindow::openFromLibrary(qint64 algorithmId, int number)
{
  storage::Library* library = m_libraryPanel->library();
  if (!library)
    return tr("No library is open.");
  const storage::Result<storage::AlgorithmRecord> algorithm = library->algorithm(algorithmId);
  if (!algorithm)
    return QString::fromStdString(algorithm.error().message);
  const storage::Result<storage::VersionRecord> version = library->version(algorithmId, number);
  if (!version)
    return QString::fromStdString(version.error().message);
  LoadResult loaded = loadLibraryVersion(*library, algorithmId, version->number);
  if (!loaded.state)
    return loaded.error;
  DocumentOrigin origin;
  origin.libraryName = QString::fromStdString(algorithm->name);
  origin.libraryVersion = version->number;
  m_document->reset(std::move(*loaded.state), origin);
  statusBar()->showMessage(
      tr("Opened %1 version %2 from the library").arg(origin.libraryName).arg(version->number),
      kStatusMessageMs);
  return {};
}

QString MainWindow::exportXmlTo(const QString& path, DialectId dialect)
{
  m_document->waitForAnalysis(); // a large Schedule's Program may still be lowering
  const std::optional<Program>& program = m_document->shownProgram();
  if (!program)
    return tr("Nothing to export: the timeline cannot be lowered to a program (see Problems).");
  const XmlExport xml = exportXml(*program, dialect);
  const std::string reason = writeTextFileAtomically(path.toStdString(), xml.text);
  if (!reason.empty())
    return tr("Cannot write %1: %2").arg(path, QString::fromStdString(reason));
  return {};
}

QString MainWindow::saveDesignTo(const QString& path)
{
  // Save As names an untitled (or still file- or generator-named) document after its file.
  const bool saveAs = QFileInfo(path).absoluteFilePath() != m_document->origin().filePath;
  if (saveAs && !nameWasTyped(*m_document))
    renameDocument(*m_document, documentBaseName(path).toStdString(), tr("Rename algorithm"));
  m_document->waitForAnalysis(); // an imported Program is saved lifted
  const QString reason = saveDesignFile(m_document->state(), m_document->shownSchedule(), path);
  if (!reason.isEmpty())
    return tr("Cannot write %1: %2").arg(path, reason);
  DocumentOrigin origin;
  origin.filePath = QFileInfo(path).absoluteFilePath();
  m_document->setOrigin(origin);
  m_document->markSaved();
  if (m_options.recordRecentFiles)
    m_recentFiles->add(path);
  return {};
}

QString MainWindow::exportDotTo(const QString& path)
{
  if (!m_document->topology())
    return tr("The document has no topology.");
  const std::string reason =
      writeTextFileAtomically(path.toStdString(), writeTopologyDot(*m_document->topology()));
  if (!reason.empty())
    return tr("Cannot write %1: %2").arg(path, QString::fromStdString(reason));
  return {};
}

QString MainWindow::exportTopologyImageTo(const QString& path)
{
  if (!m_document->topology())
    return tr("The document has no topology.");
  return path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)
             ? m_topologyView->exportSvg(path)
             : m_topologyView->exportPng(path);
}

QString MainWindow::recoverFrom(const QString& path)
{
  QString error;
  std::optional<RecoveredDocument> recovered = Autosave::loadRecoveryFile(path, &error);
  if (!recovered)
    return error;
  m_document->reset(std::move(recovered->state), recovered->origin, true);
  Autosave::discardRecoveryFile(path);
  // The recovered work is this instance's to protect now, under its own file.
  if (m_autosave)
    m_autosave->saveNow();
  statusBar()->showMessage(tr("Recovered %1").arg(m_document->displayName()), kStatusMessageMs);
  return {};
}

// Menu paths.

void MainWindow::showError(const QString& title, const QString& message)
{
  QMessageBox::warning(this, title, message);
}

QString MainWindow::suggestedPath(const QString& extension) const
{
  const DocumentOrigin& origin = m_document->origin();
  const QString directory =
      origin.filePath.isEmpty() ? lastDirectory() : QFileInfo(origin.filePath).absolutePath();
  QString base = m_document->displayName();
  if (!origin.filePath.isEmpty())
    base = documentBaseName(origin.filePath);
  return QDir(directory).filePath(base + QLatin1Char('.') + extension);
}

void MainWindow::newFromDialog()
{
  if (!confirmDiscard())
    return;
  NewDocumentDialog dialog(this);
  if (dialog.exec() != QDialog::Accepted)
    return;
  QString error;
  std::optional<DocumentState> state = dialog.state(&error);
  if (!state) {
    showError(tr("New Document"), error);
    return;
  }
  newDocument(std::move(*state));
}

void MainWindow::openFromDialog()
{
  if (!confirmDiscard())
    return;
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Open"), lastDirectory(),
                                   tr("Algorithms (*.xml *.json);;MSCCL XML (*.xml);;"
                                      "Design documents (*.csdesign.json *.json);;All files (*)"));
  if (path.isEmpty())
    return;
  rememberDirectory(path);
  if (const QString error = openFile(path); !error.isEmpty())
    showError(tr("Open"), error);
}

void MainWindow::openRecent(const QString& path)
{
  if (!confirmDiscard())
    return;
  if (const QString error = openFile(path); !error.isEmpty()) {
    m_recentFiles->remove(path);
    showError(tr("Open Recent"), error);
  }
}

bool MainWindow::save()
{
  const DocumentOrigin& origin = m_document->origin();
  if (origin.filePath.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
    if (const QString error = saveDesignTo(origin.filePath); !error.isEmpty()) {
      showError(tr("Save"), error);
      return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(origin.filePath), kStatusMessageMs);
    return true;
  }
  if (!origin.libraryName.isEmpty() && m_libraryPanel->library()) {
    saveToLibraryFromDialog();
    return !m_document->isModified();
  }
  return saveDesignAsFromDialog();
}

bool MainWindow::saveDesignAsFromDialog()
{
  // Saved as *.csdesign.json (the desktop's MIME type for design documents) unless the user
  // names a plain .json file.
  QString path = QFileDialog::getSaveFileName(
      this, tr("Save Design As"), suggestedPath(QString::fromLatin1(kDesignDocumentSuffix).mid(1)),
      tr("Design documents (*.csdesign.json);;JSON design documents (*.json)"));
  if (path.isEmpty())
    return false;
  path = designDocumentSavePath(path);
  rememberDirectory(path);
  if (const QString error = saveDesignTo(path); !error.isEmpty()) {
    showError(tr("Save Design As"), error);
    return false;
  }
  statusBar()->showMessage(tr("Saved %1").arg(path), kStatusMessageMs);
  return true;
}

void MainWindow::saveToLibraryFromDialog()
{
  SaveToLibraryDialog dialog(m_document, m_libraryPanel->library(), m_libraryPanel->message(),
                             this);
  connect(&dialog, &SaveToLibraryDialog::librarySaved, m_libraryPanel, &LibraryPanel::refresh);
  dialog.exec();
}

void MainWindow::exportXmlFromDialog()
{
  m_document->waitForAnalysis();
  const std::optional<Program>& program = m_document->shownProgram();
  if (!program) {
    showError(tr("Export MSCCL XML"),
              tr("Nothing to export: the timeline cannot be lowered to a program (see Problems)."));
    return;
  }
  ExportDialog dialog(*program, m_document->lowering().dialect,
                      suggestedPath(QStringLiteral("xml")), this);
  if (dialog.exec() == QDialog::Accepted) {
    rememberDirectory(dialog.path());
    statusBar()->showMessage(tr("Exported %1").arg(dialog.path()), kStatusMessageMs);
  }
}

void MainWindow::exportDotFromDialog()
{
  const QString path = QFileDialog::getSaveFileName(this, tr("Export Topology DOT"),
                                                    suggestedPath(QStringLiteral("dot")),
                                                    tr("Graphviz DOT (*.dot *.gv)"));
  if (path.isEmpty())
    return;
  rememberDirectory(path);
  if (const QString error = exportDotTo(path); !error.isEmpty())
    showError(tr("Export Topology DOT"), error);
  else
    statusBar()->showMessage(tr("Exported %1").arg(path), kStatusMessageMs);
}

void MainWindow::exportTopologyFromDialog(const QString& format)
{
  const bool svg = format == QLatin1String("svg");
  const QString title = svg ? tr("Export Topology SVG") : tr("Export Topology PNG");
  QString path =
      QFileDialog::getSaveFileName(this, title, suggestedPath(format),
                                   svg ? tr("SVG images (*.svg)") : tr("PNG images (*.png)"));
  if (path.isEmpty())
    return;
  if (!path.endsWith(QLatin1Char('.') + format, Qt::CaseInsensitive))
    path += QLatin1Char('.') + format;
  rememberDirectory(path);
  if (const QString error = exportTopologyImageTo(path); !error.isEmpty())
    showError(title, error);
  else
    statusBar()->showMessage(tr("Exported %1").arg(path), kStatusMessageMs);
}

void MainWindow::openLibraryVersion(qint64 algorithmId, int number)
{
  if (!confirmDiscard())
    return;
  if (const QString error = openFromLibrary(algorithmId, number); !error.isEmpty())
    showError(tr("Open from Library"), error);
}

void MainWindow::offerRecovery()
{
  if (!m_autosave)
    return;
  const QList<RecoverableDocument> found = Autosave::findRecoverable(m_autosave->directory());
  for (const RecoverableDocument& candidate : found) {
    const QString when = candidate.savedAt.date() == QDate::currentDate()
                             ? candidate.savedAt.toString(QStringLiteral("HH:mm"))
                             : candidate.savedAt.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    QMessageBox box(this);
    box.setWindowTitle(tr("Recover Unsaved Work"));
    box.setIconPixmap(drawnIcon(WindowIcon::Recover).pixmap(QSize(48, 48), devicePixelRatioF()));
    box.setText(tr("Recover unsaved document '%1' from %2?").arg(candidate.name, when));
    box.setInformativeText(
        tr("Collective Studio ended without saving it (process %1).").arg(candidate.pid));
    QPushButton* recover = box.addButton(tr("Recover"), QMessageBox::AcceptRole);
    QPushButton* discard = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
    box.addButton(tr("Later"), QMessageBox::RejectRole);
    box.setDefaultButton(recover);
    box.exec();
    if (box.clickedButton() == recover) {
      if (!confirmDiscard())
        return;
      if (const QString error = recoverFrom(candidate.path); !error.isEmpty())
        showError(tr("Recover Unsaved Work"), error);
      // One recovered document at a time; the others are offered at the next start.
      return;
    }
    if (box.clickedButton() == discard)
      Autosave::discardRecoveryFile(candidate.path);
  }
}

} // namespace cs::editor
