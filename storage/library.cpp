#include "libraryimpl_p.h"

#include <cstdlib>

namespace cs::storage {

std::filesystem::path defaultLibraryPath()
{
  if (const char* overridden = std::getenv(kLibraryEnvironmentVariable); overridden && *overridden)
    return overridden;
  const std::filesystem::path relative =
      std::filesystem::path("collective-studio") / "library.sqlite";
  // The XDG base directory specification ignores relative values.
  if (const char* data = std::getenv("XDG_DATA_HOME"); data && *data == '/')
    return std::filesystem::path(data) / relative;
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : ".") / ".local" / "share" / relative;
}

std::string_view provenanceName(Provenance provenance)
{
  switch (provenance) {
  case Provenance::Drawn:
    return "drawn";
  case Provenance::Imported:
    return "imported";
  case Provenance::Generated:
    return "generated";
  case Provenance::Synthesized:
    return "synthesized";
  }
  return "drawn";
}

std::optional<Provenance> parseProvenance(std::string_view text)
{
  for (Provenance p :
       {Provenance::Drawn, Provenance::Imported, Provenance::Generated, Provenance::Synthesized})
    if (provenanceName(p) == text)
      return p;
  return std::nullopt;
}

std::optional<Error> Library::Impl::refuseWrite() const
{
  if (!readOnly)
    return std::nullopt;
  if (tooNew)
    return Error{ErrorKind::TooNew, file + ": " + notice};
  return Error{ErrorKind::ReadOnly, file + ": the library is open read-only; nothing was changed"};
}

std::vector<std::string> splitTags(const std::string& text)
{
  std::vector<std::string> tags;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos)
      end = text.size();
    const std::size_t first = text.find_first_not_of(" \t", start);
    if (first < end) {
      const std::size_t last = text.find_last_not_of(" \t", end - 1);
      tags.push_back(text.substr(first, last - first + 1));
    }
    start = end + 1;
  }
  return tags;
}

std::string joinTags(const std::vector<std::string>& tags)
{
  std::string text;
  for (const std::string& tag : tags) {
    for (const std::string& part : splitTags(tag)) {
      if (!text.empty())
        text += ',';
      text += part;
    }
  }
  return text;
}

AlgorithmRecord algorithmFromRow(const sql::Statement& row)
{
  AlgorithmRecord record;
  record.id = row.int64At(0);
  record.name = row.textAt(1);
  record.collective = row.textAt(2);
  record.ranks = row.intAt(3);
  record.provenance = parseProvenance(row.textAt(4)).value_or(Provenance::Imported);
  record.sourceFile = row.textAt(5);
  record.tags = splitTags(row.textAt(6));
  record.notes = row.textAt(7);
  if (!row.isNull(8))
    record.topologyId = row.int64At(8);
  record.headVersion = row.intAt(9);
  record.created = row.textAt(10);
  record.updated = row.textAt(11);
  return record;
}

Library::Library(std::unique_ptr<Impl> impl) : m_impl(std::move(impl))
{
}
Library::Library(Library&&) noexcept = default;
Library& Library::operator=(Library&&) noexcept = default;
Library::~Library() = default;

const std::filesystem::path& Library::path() const
{
  return m_impl->path;
}

bool Library::readOnly() const
{
  return m_impl->readOnly;
}

const std::string& Library::notice() const
{
  return m_impl->notice;
}

int Library::fileSchemaVersion() const
{
  return m_impl->fileSchema;
}

Result<std::string> Library::setting(const std::string& key, const std::string& fallback) const
{
  sql::Statement query(m_impl->db, "SELECT value FROM settings WHERE key = ?");
  query.bind(1, key);
  switch (query.step()) {
  case sql::StepResult::Row:
    return query.textAt(0);
  case sql::StepResult::Done:
    return fallback;
  case sql::StepResult::Failed:
    break;
  }
  return m_impl->fail("reading setting " + key);
}

Status Library::setSetting(const std::string& key, const std::string& value)
{
  if (auto refused = m_impl->refuseWrite())
    return *refused;
  sql::Statement upsert(m_impl->db, "INSERT INTO settings(key, value) VALUES (?, ?) "
                                    "ON CONFLICT(key) DO UPDATE SET value = excluded.value");
  upsert.bind(1, key).bind(2, value);
  if (!upsert.run())
    return m_impl->fail("saving setting " + key);
  return {};
}

Result<std::string> Library::integrityCheck() const
{
  sql::Statement check(m_impl->db, "PRAGMA integrity_check");
  std::string report;
  sql::StepResult step;
  while ((step = check.step()) == sql::StepResult::Row) {
    if (!report.empty())
      report += '\n';
    report += check.textAt(0);
  }
  if (step == sql::StepResult::Failed)
    return m_impl->fail("checking integrity");
  return report;
}

} // namespace cs::storage
