#include "corpus.h"

#include "io/mscclxmlreader.h"

#include <QDir>
#include <QFile>
#include <QTest>
#include <QTextStream>

namespace cs::test {

QString corpusDir()
{
  const QString dir = qEnvironmentVariable("CSTUDIO_CORPUS_DIR");
  if (dir.isEmpty() || !QDir(dir).exists())
    return {};
  return QDir(dir).absolutePath();
}

QString corpusProblem()
{
  const QString dir = qEnvironmentVariable("CSTUDIO_CORPUS_DIR");
  if (dir.isEmpty())
    return {};
  if (!QDir(dir).exists())
    return "CSTUDIO_CORPUS_DIR is set to " + dir + ", which is not a folder";
  if (QDir(dir).entryList({"*.xml"}, QDir::Files).isEmpty())
    return "CSTUDIO_CORPUS_DIR is set to " + dir + ", which holds no *.xml file";
  return {};
}

QStringList corpusFiles()
{
  const QString dir = corpusDir();
  if (dir.isEmpty())
    return {};
  QStringList files;
  for (const QString& name : QDir(dir).entryList({"*.xml"}, QDir::Files, QDir::Name))
    files << QDir(dir).filePath(name);
  return files;
}

QString corpusPath(const QString& name)
{
  return QDir(corpusDir()).filePath(name);
}

QMap<QString, ManifestRow> readManifest()
{
  QMap<QString, ManifestRow> rows;
  QFile file(QDir(corpusDir()).filePath("MANIFEST.md"));
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
    return rows;
  QStringList header;
  QTextStream stream(&file);
  while (!stream.atEnd()) {
    const QString line = stream.readLine().trimmed();
    if (!line.startsWith('|')) {
      header.clear();
      continue;
    }
    QStringList cells = line.split('|');
    cells.removeFirst();
    cells.removeLast();
    for (QString& cell : cells)
      cell = cell.trimmed();
    if (header.isEmpty()) {
      header = cells;
      continue;
    }
    if (cells.value(0).startsWith("---"))
      continue;
    // A cell may itself contain '|' (two runtimes' notes in one cell): the surplus cells belong
    // to the last column.
    while (cells.size() > header.size() && header.size() > 0) {
      cells[header.size() - 1] += " | " + cells.takeAt(header.size());
    }
    ManifestRow row;
    for (int i = 0; i < header.size() && i < cells.size(); ++i)
      row.insert(header[i], cells[i]);
    rows.insert(cells.value(0), row);
  }
  return rows;
}

Program loadProgram(const QString& path)
{
  ReadResult result = readMscclXmlFile(path.toStdString());
  if (!result.program || result.hasErrors()) {
    QTest::qFail(
        qPrintable("cannot read " + path + ":\n" + describeDiagnostics(result.diagnostics)),
        __FILE__, __LINE__);
    return {};
  }
  return std::move(*result.program);
}

QString describeDiagnostics(const std::vector<Diagnostic>& diagnostics)
{
  QString text;
  for (const Diagnostic& d : diagnostics) {
    text += QString::fromStdString(std::string(severityName(d.severity))) + ' ' +
            QString::fromStdString(d.code) + " [" + QString::fromStdString(describe(d.location)) +
            " line " + QString::number(d.location.line) + "] " + QString::fromStdString(d.message) +
            '\n';
  }
  return text;
}

bool hasCode(const std::vector<Diagnostic>& diagnostics, const char* code, Severity minimum)
{
  for (const Diagnostic& d : diagnostics) {
    if (d.severity >= minimum && codeInCategory(d.code, code))
      return true;
  }
  return false;
}

} // namespace cs::test
