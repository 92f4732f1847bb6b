#include "librarydocuments.h"

#include "document/documentnames.h"
#include "io/designdocument.h"
#include "io/mscclxmlreader.h"

namespace cs::editor {

namespace {

QString toQString(const std::string& text)
{
  return QString::fromStdString(text);
}

} // namespace

storage::SaveRequest makeSaveRequest(const Document& document, const QString& name,
                                     const QString& message)
{
  storage::SaveRequest request;
  request.name = name.trimmed().toStdString();
  request.message = message.trimmed().toStdString();
  request.provenance = document.source() == Source::Program ? storage::Provenance::Imported
                                                            : storage::Provenance::Drawn;
  request.sourceFile = document.origin().filePath.toStdString();

  DesignDocument design = document.state().design;
  if (document.shownSchedule())
    design.schedule = *document.shownSchedule();
  request.content.designJson = writeDesignDocument(design);
  if (document.shownProgram())
    request.content.xml = exportXml(*document.shownProgram(), document.lowering().dialect).text;
  if (document.shownSchedule())
    request.schedule = *document.shownSchedule();
  return request;
}

storage::Result<storage::SaveOutcome> saveToLibrary(Document& document, storage::Library& library,
                                                    const QString& name, const QString& message)
{
  // One name: the version stored under `name` is named so, and so is the document.
  renameDocument(document, name.trimmed().toStdString(), QObject::tr("Rename algorithm"));
  document.waitForAnalysis(); // the XML comes from the lowered Program
  storage::Result<storage::SaveOutcome> outcome =
      library.save(makeSaveRequest(document, name, message));
  if (outcome) {
    DocumentOrigin origin = document.origin();
    origin.libraryName = name.trimmed();
    origin.libraryVersion = outcome->number;
    document.setOrigin(origin);
    document.markSaved();
  }
  return outcome;
}

namespace {

LoadResult loadVersionContent(const storage::Library& library, std::int64_t algorithmId, int number)
{
  LoadResult result;
  const storage::Result<storage::VersionRecord> version = library.version(algorithmId, number);
  if (!version) {
    result.error = toQString(version.error().message);
    return result;
  }
  const storage::Result<storage::VersionContent> content = library.content(version->id);
  if (!content) {
    result.error = toQString(content.error().message);
    return result;
  }
  if (!content->designJson.empty()) {
    DesignReadResult design = readDesignDocument(content->designJson);
    result.diagnostics = design.diagnostics;
    if (design.document) {
      DocumentState state;
      state.design = std::move(*design.document);
      state.lowering.gpu = state.design.gpu; // residency is judged for the GPU it was saved for
      // A saved version remembers the dialect it was exported for through its XML.
      if (!content->xml.empty()) {
        const ReadResult xml = readMscclXml(content->xml);
        if (xml.program) {
          state.lowering.dialect = detectDialect(*xml.program);
          state.lowering.protocol = xml.program->proto;
        }
      }
      result.state = std::move(state);
      return result;
    }
  }
  if (content->xml.empty()) {
    result.error =
        QObject::tr("Version %1 stores neither a design nor MSCCL XML").arg(version->number);
    return result;
  }
  ReadResult xml = readMscclXml(content->xml);
  result.diagnostics = xml.diagnostics;
  if (!xml.program) {
    result.error = QObject::tr("Version %1 holds unreadable MSCCL XML").arg(version->number);
    return result;
  }
  DocumentState state;
  state.lowering.dialect = detectDialect(*xml.program);
  state.lowering.protocol = xml.program->proto;
  state.design.schedule.name = xml.program->name;
  state.program = std::move(xml.program);
  result.state = std::move(state);
  return result;
}

} // namespace

LoadResult loadLibraryVersion(const storage::Library& library, std::int64_t algorithmId, int number)
{
  LoadResult result = loadVersionContent(library, algorithmId, number);
  const storage::Result<storage::AlgorithmRecord> algorithm = library.algorithm(algorithmId);
  if (!result.state || !algorithm)
    return result;
  // One name: versions saved before the name was kept in one place (the shipped examples were
  // "ring_allreduce_4r" inside "ring-allreduce-4") open under the library's name.
  if (result.state->program)
    result.state->program->name = algorithm->name;
  result.state->design.schedule.name = algorithm->name;
  return result;
}

} // namespace cs::editor
