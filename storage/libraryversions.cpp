// Algorithms and their versions: save (de-duplicated), history, diff, restore, delete.

#include "libraryimpl_p.h"
#include "versionsummary.h"

#include <map>

namespace cs::storage {

namespace {

constexpr const char* kNow = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

constexpr const char* kVersionColumns =
    "v.id, v.algorithm_id, v.number, v.created, v.message, v.restored_from, c.collective, "
    "c.ranks, c.threadblocks, c.steps, c.transfers, c.verdict, c.errors, c.warnings, "
    "c.first_error, length(CAST(c.xml AS BLOB)), length(CAST(c.design_json AS BLOB))";

VersionRecord versionFromRow(const sql::Statement& row)
{
  VersionRecord record;
  record.id = row.int64At(0);
  record.algorithmId = row.int64At(1);
  record.number = row.intAt(2);
  record.created = row.textAt(3);
  record.message = row.textAt(4);
  if (!row.isNull(5))
    record.restoredFrom = row.intAt(5);
  record.shape = {row.textAt(6), row.intAt(7), row.intAt(8), row.intAt(9), row.intAt(10)};
  record.verdict = {row.textAt(11), row.intAt(12), row.intAt(13), row.textAt(14)};
  record.xmlBytes = row.int64At(15);
  record.designBytes = row.int64At(16);
  return record;
}

/// The algorithm's id and head version number, adding the algorithm when it is new.
Status findOrAddAlgorithm(Library::Impl& impl, const SaveRequest& request,
                          const ContentSummary& summary, SaveOutcome& outcome, int& head)
{
  {
    sql::Statement find(impl.db, "SELECT id, head_version FROM algorithms WHERE name = ?");
    find.bind(1, request.name);
    switch (find.step()) {
    case sql::StepResult::Row:
      outcome.algorithmId = find.int64At(0);
      head = find.intAt(1);
      return Status::success();
    case sql::StepResult::Done:
      break;
    case sql::StepResult::Failed:
      return impl.fail("looking up " + request.name);
    }
  }
  sql::Statement insert(impl.db, std::string("INSERT INTO algorithms(name, collective, ranks, "
                                             "provenance, source_file, created, updated) "
                                             "VALUES (?, ?, ?, ?, ?, ") +
                                     kNow + ", " + kNow + ")");
  insert.bind(1, request.name)
      .bind(2, summary.shape.collective)
      .bind(3, summary.shape.ranks)
      .bind(4, provenanceName(request.provenance))
      .bind(5, request.sourceFile);
  if (!insert.run())
    return impl.fail("adding algorithm " + request.name);
  outcome.algorithmId = impl.db.lastInsertId();
  return Status::success();
}

/// Tags, notes, topology and source file: they apply even when the content is unchanged.
Status applyMetadata(Library::Impl& impl, const SaveRequest& request, std::int64_t algorithmId)
{
  const auto setColumn = [&](const char* column, const auto& value) -> Status {
    sql::Statement update(impl.db,
                          std::string("UPDATE algorithms SET ") + column + " = ? WHERE id = ?");
    update.bind(1, value).bind(2, algorithmId);
    if (!update.run())
      return impl.fail(std::string("updating the ") + column + " of " + request.name);
    return Status::success();
  };
  Status status;
  if (status.ok() && request.tags)
    status = setColumn("tags", joinTags(*request.tags));
  if (status.ok() && request.notes)
    status = setColumn("notes", *request.notes);
  if (status.ok() && request.topologyId)
    status = setColumn("topology_id", *request.topologyId);
  if (status.ok() && !request.sourceFile.empty())
    status = setColumn("source_file", request.sourceFile);
  return status;
}

/// The id of content already stored (for this or any algorithm) with these bytes, or 0. The
/// hash only narrows the search; equality is decided on the bytes.
Result<std::int64_t> findContent(Library::Impl& impl, const SaveRequest& request,
                                 const ContentSummary& summary)
{
  sql::Statement find(impl.db, "SELECT id FROM contents WHERE hash = ? AND xml = ? AND "
                               "design_json = ? LIMIT 1");
  find.bind(1, summary.hash).bind(2, request.content.xml).bind(3, request.content.designJson);
  const sql::StepResult step = find.step();
  if (step == sql::StepResult::Failed)
    return impl.fail("looking up stored content");
  return step == sql::StepResult::Row ? find.int64At(0) : std::int64_t{0};
}

Result<std::int64_t> storeContent(Library::Impl& impl, const SaveRequest& request,
                                  const ContentSummary& summary)
{
  sql::Statement insert(impl.db,
                        "INSERT INTO contents(hash, xml, design_json, collective, ranks, "
                        "threadblocks, steps, transfers, transfer_list, verdict, errors, "
                        "warnings, first_error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  insert.bind(1, summary.hash)
      .bind(2, request.content.xml)
      .bind(3, request.content.designJson)
      .bind(4, summary.shape.collective)
      .bind(5, summary.shape.ranks)
      .bind(6, summary.shape.threadblocks)
      .bind(7, summary.shape.steps)
      .bind(8, summary.shape.transfers)
      .bind(9, joinLines(summary.transfers))
      .bind(10, summary.verdict.verdict)
      .bind(11, summary.verdict.errors)
      .bind(12, summary.verdict.warnings)
      .bind(13, summary.verdict.firstError);
  if (!insert.run())
    return impl.fail("storing the content of " + request.name);
  return impl.db.lastInsertId();
}

/// Adds version head + 1 with `contentId` and makes it the head.
Status addVersion(Library::Impl& impl, const SaveRequest& request, const ContentSummary& summary,
                  std::int64_t contentId, std::optional<int> restoredFrom, SaveOutcome& outcome)
{
  {
    sql::Statement insert(impl.db, std::string("INSERT INTO versions(algorithm_id, number, "
                                               "content_id, message, restored_from, created) "
                                               "VALUES (?, ?, ?, ?, ?, ") +
                                       kNow + ")");
    insert.bind(1, outcome.algorithmId)
        .bind(2, outcome.number)
        .bind(3, contentId)
        .bind(4, request.message);
    if (restoredFrom)
      insert.bind(5, *restoredFrom);
    else
      insert.bindNull(5);
    if (!insert.run())
      return impl.fail("adding version " + std::to_string(outcome.number) + " of " + request.name);
    outcome.versionId = impl.db.lastInsertId();
  }
  sql::Statement update(impl.db, std::string("UPDATE algorithms SET head_version = ?, "
                                             "collective = ?, ranks = ?, updated = ") +
                                     kNow + " WHERE id = ?");
  update.bind(1, outcome.number)
      .bind(2, summary.shape.collective)
      .bind(3, summary.shape.ranks)
      .bind(4, outcome.algorithmId);
  if (!update.run())
    return impl.fail("updating " + request.name);
  return Status::success();
}

// One save inside the caller's transaction. `restoredFrom` marks a restore.
Result<SaveOutcome> saveLocked(Library::Impl& impl, const SaveRequest& request,
                               const ContentSummary& summary, std::optional<int> restoredFrom)
{
  SaveOutcome outcome;
  int head = 0;
  if (Status found = findOrAddAlgorithm(impl, request, summary, outcome, head); !found.ok())
    return *found.failure;
  if (Status applied = applyMetadata(impl, request, outcome.algorithmId); !applied.ok())
    return *applied.failure;
  Result<std::int64_t> contentId = findContent(impl, request, summary);
  if (!contentId)
    return contentId.error();
  if (*contentId != 0 && head > 0) {
    // The same content as the head: nothing new to record.
    sql::Statement headContent(impl.db, "SELECT id, content_id FROM versions "
                                        "WHERE algorithm_id = ? AND number = ?");
    headContent.bind(1, outcome.algorithmId).bind(2, head);
    if (headContent.step() != sql::StepResult::Row)
      return impl.fail("reading the head version of " + request.name);
    if (headContent.int64At(1) == *contentId) {
      outcome.versionId = headContent.int64At(0);
      outcome.number = head;
      outcome.created = false;
      return outcome;
    }
  }
  if (*contentId == 0) {
    contentId = storeContent(impl, request, summary);
    if (!contentId)
      return contentId.error();
  }
  outcome.number = head + 1;
  if (Status added = addVersion(impl, request, summary, *contentId, restoredFrom, outcome);
      !added.ok())
    return *added.failure;
  outcome.created = true;
  return outcome;
}

std::optional<Error> checkRequest(const Library::Impl& impl, const SaveRequest& request)
{
  if (request.name.empty())
    return Error{ErrorKind::Invalid, impl.file + ": an algorithm needs a name"};
  if (request.content.xml.empty() && request.content.designJson.empty())
    return Error{ErrorKind::Invalid,
                 impl.file + ": " + request.name + ": a version needs MSCCL XML or a design"};
  return std::nullopt;
}

} // namespace

Result<SaveOutcome> Library::save(const SaveRequest& request)
{
  Result<std::vector<SaveOutcome>> saved = saveAll({request});
  if (!saved)
    return saved.error();
  return saved->front();
}

Result<std::vector<SaveOutcome>> Library::saveAll(const std::vector<SaveRequest>& requests)
{
  Impl& impl = *m_impl;
  if (auto refused = impl.refuseWrite())
    return *refused;
  // Parse and check before taking the write lock: other processes keep writing meanwhile.
  std::vector<ContentSummary> summaries;
  summaries.reserve(requests.size());
  std::map<std::int64_t, std::size_t> byHash; // identical content is checked once per batch
  for (const SaveRequest& request : requests) {
    if (auto invalid = checkRequest(impl, request))
      return *invalid;
    const std::int64_t hash = contentHash(request.content);
    const auto seen = byHash.find(hash);
    if (!request.schedule && seen != byHash.end() &&
        requests[seen->second].content.xml == request.content.xml &&
        requests[seen->second].content.designJson == request.content.designJson &&
        !requests[seen->second].schedule) {
      summaries.push_back(summaries[seen->second]);
      continue;
    }
    byHash.emplace(hash, summaries.size());
    summaries.push_back(
        summariseContent(request.content, request.schedule ? &*request.schedule : nullptr));
  }

  sql::Transaction transaction(impl.db);
  if (!transaction.begun())
    return impl.fail("starting the save");
  std::vector<SaveOutcome> outcomes;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    Result<SaveOutcome> outcome = saveLocked(impl, requests[i], summaries[i], std::nullopt);
    if (!outcome)
      return outcome.error();
    outcomes.push_back(*outcome);
  }
  if (!transaction.commit())
    return impl.fail("committing the save");
  return outcomes;
}

Result<AlgorithmRecord> Library::algorithm(const std::string& name) const
{
  sql::Statement query(m_impl->db, std::string("SELECT ") + kAlgorithmColumns +
                                       " FROM algorithms a WHERE a.name = ?");
  query.bind(1, name);
  switch (query.step()) {
  case sql::StepResult::Row:
    return algorithmFromRow(query);
  case sql::StepResult::Done:
    return Error{ErrorKind::NotFound, m_impl->file + ": no algorithm named \"" + name + "\""};
  case sql::StepResult::Failed:
    break;
  }
  return m_impl->fail("looking up " + name);
}

Result<AlgorithmRecord> Library::algorithm(std::int64_t id) const
{
  sql::Statement query(m_impl->db, std::string("SELECT ") + kAlgorithmColumns +
                                       " FROM algorithms a WHERE a.id = ?");
  query.bind(1, id);
  switch (query.step()) {
  case sql::StepResult::Row:
    return algorithmFromRow(query);
  case sql::StepResult::Done:
    return Error{ErrorKind::NotFound,
                 m_impl->file + ": no algorithm with id " + std::to_string(id)};
  case sql::StepResult::Failed:
    break;
  }
  return m_impl->fail("looking up algorithm " + std::to_string(id));
}

Result<std::vector<VersionRecord>> Library::history(std::int64_t algorithmId) const
{
  sql::Statement query(m_impl->db, std::string("SELECT ") + kVersionColumns +
                                       " FROM versions v JOIN contents c ON c.id = v.content_id "
                                       "WHERE v.algorithm_id = ? ORDER BY v.number");
  query.bind(1, algorithmId);
  std::vector<VersionRecord> versions;
  sql::StepResult step;
  while ((step = query.step()) == sql::StepResult::Row)
    versions.push_back(versionFromRow(query));
  if (step == sql::StepResult::Failed)
    return m_impl->fail("reading the history");
  return versions;
}

Result<VersionRecord> Library::version(std::int64_t algorithmId, int number) const
{
  sql::Statement query(m_impl->db,
                       std::string("SELECT ") + kVersionColumns +
                           " FROM versions v JOIN contents c ON c.id = v.content_id "
                           "WHERE v.algorithm_id = ?1 AND v.number = CASE WHEN ?2 > 0 THEN ?2 "
                           "ELSE (SELECT head_version FROM algorithms WHERE id = ?1) END");
  query.bind(1, algorithmId).bind(2, number);
  switch (query.step()) {
  case sql::StepResult::Row:
    return versionFromRow(query);
  case sql::StepResult::Done:
    return Error{ErrorKind::NotFound, m_impl->file + ": no version " + std::to_string(number) +
                                          " of algorithm " + std::to_string(algorithmId)};
  case sql::StepResult::Failed:
    break;
  }
  return m_impl->fail("reading a version");
}

Result<VersionContent> Library::content(std::int64_t versionId) const
{
  sql::Statement query(m_impl->db, "SELECT c.xml, c.design_json FROM versions v "
                                   "JOIN contents c ON c.id = v.content_id WHERE v.id = ?");
  query.bind(1, versionId);
  switch (query.step()) {
  case sql::StepResult::Row:
    return VersionContent{query.textAt(0), query.textAt(1)};
  case sql::StepResult::Done:
    return Error{ErrorKind::NotFound,
                 m_impl->file + ": no version with id " + std::to_string(versionId)};
  case sql::StepResult::Failed:
    break;
  }
  return m_impl->fail("reading a version's content");
}

Result<VersionDiff> Library::diff(std::int64_t fromVersionId, std::int64_t toVersionId) const
{
  VersionDiff diff;
  std::vector<std::string> transfers[2];
  std::int64_t contentIds[2] = {0, 0};
  const std::int64_t ids[2] = {fromVersionId, toVersionId};
  for (int side = 0; side < 2; ++side) {
    sql::Statement query(
        m_impl->db, "SELECT c.id, c.collective, c.ranks, c.threadblocks, c.steps, c.transfers, "
                    "c.verdict, c.errors, c.warnings, c.first_error, c.transfer_list "
                    "FROM versions v JOIN contents c ON c.id = v.content_id WHERE v.id = ?");
    query.bind(1, ids[side]);
    const sql::StepResult step = query.step();
    if (step == sql::StepResult::Failed)
      return m_impl->fail("reading versions to compare");
    if (step == sql::StepResult::Done)
      return Error{ErrorKind::NotFound,
                   m_impl->file + ": no version with id " + std::to_string(ids[side])};
    contentIds[side] = query.int64At(0);
    ShapeSummary& shape = side == 0 ? diff.from : diff.to;
    shape = {query.textAt(1), query.intAt(2), query.intAt(3), query.intAt(4), query.intAt(5)};
    (side == 0 ? diff.fromVerdict : diff.toVerdict) =
        VerdictSummary{query.textAt(6), query.intAt(7), query.intAt(8), query.textAt(9)};
    transfers[side] = splitLines(query.textAt(10));
  }
  diff.sameContent = contentIds[0] == contentIds[1];
  diff.transfersCompared = diff.from.transfers >= 0 && diff.to.transfers >= 0;
  if (diff.transfersCompared)
    diffTransfers(transfers[0], transfers[1], diff.transfersAdded, diff.transfersRemoved);
  return diff;
}

Result<SaveOutcome> Library::restore(std::int64_t algorithmId, int number,
                                     const std::string& message)
{
  Impl& impl = *m_impl;
  if (auto refused = impl.refuseWrite())
    return *refused;
  Result<AlgorithmRecord> algorithm = this->algorithm(algorithmId);
  if (!algorithm)
    return algorithm.error();
  Result<VersionRecord> old = version(algorithmId, number);
  if (!old)
    return old.error();
  Result<VersionContent> content = this->content(old->id);
  if (!content)
    return content.error();
  // The stored summary is reused: the content is the same bytes that were checked then.
  ContentSummary summary;
  summary.shape = old->shape;
  summary.verdict = old->verdict;
  summary.hash = contentHash(*content);
  SaveRequest request;
  request.name = algorithm->name;
  request.content = std::move(*content);
  request.message = message.empty() ? "restored version " + std::to_string(number) : message;

  sql::Transaction transaction(impl.db);
  if (!transaction.begun())
    return impl.fail("starting the restore");
  Result<SaveOutcome> outcome = saveLocked(impl, request, summary, number);
  if (!outcome)
    return outcome.error();
  if (!transaction.commit())
    return impl.fail("committing the restore");
  return outcome;
}

Status Library::describe(std::int64_t algorithmId, const std::vector<std::string>& tags,
                         const std::string& notes)
{
  if (auto refused = m_impl->refuseWrite())
    return *refused;
  sql::Statement update(m_impl->db, std::string("UPDATE algorithms SET tags = ?, notes = ?, "
                                                "updated = ") +
                                        kNow + " WHERE id = ?");
  update.bind(1, joinTags(tags)).bind(2, notes).bind(3, algorithmId);
  if (!update.run())
    return m_impl->fail("updating tags and notes");
  if (m_impl->db.changes() == 0)
    return Error{ErrorKind::NotFound,
                 m_impl->file + ": no algorithm with id " + std::to_string(algorithmId)};
  return {};
}

Status Library::remove(std::int64_t algorithmId)
{
  Impl& impl = *m_impl;
  if (auto refused = impl.refuseWrite())
    return *refused;
  sql::Transaction transaction(impl.db);
  if (!transaction.begun())
    return impl.fail("starting the delete");
  sql::Statement erase(impl.db, "DELETE FROM algorithms WHERE id = ?");
  erase.bind(1, algorithmId);
  if (!erase.run())
    return impl.fail("deleting algorithm " + std::to_string(algorithmId));
  if (impl.db.changes() == 0)
    return Error{ErrorKind::NotFound,
                 impl.file + ": no algorithm with id " + std::to_string(algorithmId)};
  // Versions, runs and traces went with it (ON DELETE CASCADE); content no version uses goes too.
  if (!impl.db.exec("DELETE FROM contents WHERE id NOT IN (SELECT content_id FROM versions)"))
    return impl.fail("deleting unused content");
  if (!transaction.commit())
    return impl.fail("committing the delete");
  return {};
}

} // namespace cs::storage
