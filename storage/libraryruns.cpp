// Runs (nccl-tests' measurements of a version) and their compressed traces.

#include "libraryimpl_p.h"
#include "traceblob_p.h"

namespace cs::storage {

Result<std::int64_t> Library::addRun(const RunRecord& run, const Trace* trace)
{
  Impl& impl = *m_impl;
  if (auto refused = impl.refuseWrite())
    return *refused;
  // Compress before taking the write lock.
  std::optional<EncodedTrace> encoded;
  if (trace) {
    Result<EncodedTrace> result = encodeTrace(*trace);
    if (!result)
      return Error{result.error().kind, impl.file + ": " + result.error().message};
    encoded = std::move(*result);
  }
  sql::Transaction transaction(impl.db);
  if (!transaction.begun())
    return impl.fail("starting to record a run");
  sql::Statement insert(
      impl.db, "INSERT INTO runs(version_id, backend, device, dtype, op, bytes, time_us, "
               "algbw, busbw, wrong, status, verdict, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, "
               "?, ?, ?, "
               "strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))");
  insert.bind(1, run.versionId)
      .bind(2, run.backend)
      .bind(3, run.device)
      .bind(4, run.dtype)
      .bind(5, run.op)
      .bind(6, run.bytes)
      .bind(7, run.timeUs)
      .bind(8, run.algbwGBps)
      .bind(9, run.busbwGBps)
      .bind(10, run.wrong)
      .bind(11, run.status)
      .bind(12, run.verdict);
  if (!insert.run()) {
    Error error = impl.fail("recording a run");
    if (error.kind == ErrorKind::Invalid)
      error.message = impl.file + ": no version with id " + std::to_string(run.versionId);
    return error;
  }
  const std::int64_t runId = impl.db.lastInsertId();
  if (encoded) {
    sql::Statement blob(impl.db,
                        "INSERT INTO traces(run_id, format, raw_size, data) VALUES (?, ?, ?, ?)");
    blob.bind(1, runId)
        .bind(2, encoded->format)
        .bind(3, encoded->rawSize)
        .bindBlob(4, encoded->data);
    if (!blob.run())
      return impl.fail("storing the trace");
  }
  if (!transaction.commit())
    return impl.fail("committing the run");
  return runId;
}

Result<std::vector<RunRecord>> Library::runs(std::int64_t algorithmId) const
{
  sql::Statement query(
      m_impl->db, "SELECT r.id, r.version_id, v.number, r.backend, r.device, r.dtype, r.op, "
                  "r.bytes, r.time_us, r.algbw, r.busbw, r.wrong, r.status, r.verdict, r.created, "
                  "EXISTS (SELECT 1 FROM traces t WHERE t.run_id = r.id) "
                  "FROM runs r JOIN versions v ON v.id = r.version_id "
                  "WHERE v.algorithm_id = ? ORDER BY r.id");
  query.bind(1, algorithmId);
  std::vector<RunRecord> runs;
  sql::StepResult step;
  while ((step = query.step()) == sql::StepResult::Row) {
    RunRecord run;
    run.id = query.int64At(0);
    run.versionId = query.int64At(1);
    run.versionNumber = query.intAt(2);
    run.backend = query.textAt(3);
    run.device = query.textAt(4);
    run.dtype = query.textAt(5);
    run.op = query.textAt(6);
    run.bytes = query.int64At(7);
    run.timeUs = query.doubleAt(8);
    run.algbwGBps = query.doubleAt(9);
    run.busbwGBps = query.doubleAt(10);
    run.wrong = query.int64At(11);
    run.status = query.textAt(12);
    run.verdict = query.textAt(13);
    run.created = query.textAt(14);
    run.hasTrace = query.int64At(15) != 0;
    runs.push_back(std::move(run));
  }
  if (step == sql::StepResult::Failed)
    return m_impl->fail("reading runs");
  return runs;
}

Result<Trace> Library::trace(std::int64_t runId) const
{
  sql::Statement query(m_impl->db, "SELECT format, raw_size, data FROM traces WHERE run_id = ?");
  query.bind(1, runId);
  switch (query.step()) {
  case sql::StepResult::Row: {
    Result<Trace> trace = decodeTrace(query.intAt(0), query.int64At(1), query.blobAt(2));
    if (!trace)
      return Error{trace.error().kind,
                   m_impl->file + ": run " + std::to_string(runId) + ": " + trace.error().message};
    return trace;
  }
  case sql::StepResult::Done:
    return Error{ErrorKind::NotFound,
                 m_impl->file + ": run " + std::to_string(runId) + " has no trace"};
  case sql::StepResult::Failed:
    break;
  }
  return m_impl->fail("reading a trace");
}

} // namespace cs::storage
