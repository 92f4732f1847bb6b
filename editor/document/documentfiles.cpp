#include "documentfiles.h"

#include "io/mscclxmlreader.h"
#include "io/mscclxmlwriter.h"

#include <QFile>
#include <QFileInfo>

namespace cs::editor {

namespace {

QString firstError(const std::vector<Diagnostic>& diagnostics)
{
  for (const Diagnostic& d : diagnostics)
    if (d.severity == Severity::Error) {
      QString where =
          d.location.line > 0 ? QObject::tr("line %1: ").arg(d.location.line) : QString();
      return where + QString::fromStdString(d.message);
    }
  return QObject::tr("unknown error");
}

LoadResult loadDesign(const QString& path, const QByteArray& bytes)
{
  LoadResult result;
  DesignReadResult read = readDesignDocument(
      std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
  result.diagnostics = read.diagnostics;
  if (!read.document) {
    result.error = QObject::tr("%1 is not a readable design document: %2")
                       .arg(QFileInfo(path).fileName(), firstError(read.diagnostics));
    return result;
  }
  DocumentState state;
  state.design = std::move(*read.document);
  // The Problems list judges residency for the GPU the document names, as `cstudio validate`.
  state.lowering.gpu = state.design.gpu;
  result.state = std::move(state);
  return result;
}

LoadResult loadXml(const QString& path, const QByteArray& bytes)
{
  LoadResult result;
  ReadResult read =
      readMscclXml(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
  result.diagnostics = read.diagnostics;
  if (!read.program) {
    result.error = QObject::tr("%1 is not readable MSCCL XML: %2")
                       .arg(QFileInfo(path).fileName(), firstError(read.diagnostics));
    return result;
  }
  DocumentState state;
  state.lowering.dialect = detectDialect(*read.program);
  state.lowering.protocol = read.program->proto;
  state.design.schedule.name = read.program->name.empty()
                                   ? QFileInfo(path).completeBaseName().toStdString()
                                   : read.program->name;
  state.program = std::move(read.program);
  result.state = std::move(state);
  return result;
}

} // namespace

QString documentBaseName(const QString& path)
{
  const QFileInfo info(path);
  const QString name = info.fileName();
  const QLatin1String designSuffix(kDesignDocumentSuffix);
  if (name.endsWith(designSuffix, Qt::CaseInsensitive) && name.size() > designSuffix.size())
    return name.chopped(designSuffix.size());
  return info.completeBaseName();
}

QString designDocumentSavePath(const QString& chosen)
{
  if (chosen.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
    return chosen;
  return chosen + QLatin1String(kDesignDocumentSuffix);
}

LoadResult loadDocumentFile(const QString& path)
{
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    LoadResult result;
    result.error = QObject::tr("Cannot open %1: %2").arg(path, file.errorString());
    return result;
  }
  const QByteArray bytes = file.readAll();
  if (path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
    return loadDesign(path, bytes);
  return loadXml(path, bytes);
}

QString saveDesignFile(const DocumentState& state, const std::optional<Schedule>& shownSchedule,
                       const QString& path)
{
  DesignDocument design = state.design;
  // The GPU is edited as a lowering option; a document opened from MSCCL XML saves it too.
  design.gpu = state.lowering.gpu;
  if (state.program && shownSchedule)
    design.schedule = *shownSchedule;
  const std::string reason =
      writeTextFileAtomically(path.toStdString(), writeDesignDocument(design));
  return QString::fromStdString(reason);
}

XmlExport exportXml(const Program& program, DialectId dialect)
{
  WriteResult written = writeMscclXml(program, {.dialect = dialect});
  return {std::move(written.text), std::move(written.notes)};
}

} // namespace cs::editor
