// Calibrations of the simulator: named JSON documents (engine/sim/calibration.h), schema 4.

#include "libraryimpl_p.h"

namespace cs::storage {

namespace {

constexpr const char* kCalibrationColumns = "id, name, topology, backend, json, created";

CalibrationRecord calibrationFromRow(const sql::Statement& row)
{
  return {row.int64At(0), row.textAt(1), row.textAt(2),
          row.textAt(3),  row.textAt(4), row.textAt(5)};
}

} // namespace

Result<std::int64_t> Library::saveCalibration(const CalibrationRecord& record)
{
  if (auto refused = m_impl->refuseWrite())
    return *refused;
  if (record.name.empty())
    return Error{ErrorKind::Invalid, m_impl->file + ": a calibration needs a name"};
  sql::Statement upsert(
      m_impl->db, "INSERT INTO calibrations(name, topology, backend, json, created) "
                  "VALUES (?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) "
                  "ON CONFLICT(name) DO UPDATE SET topology = excluded.topology, "
                  "backend = excluded.backend, json = excluded.json, created = excluded.created "
                  "RETURNING id");
  upsert.bind(1, record.name).bind(2, record.topology).bind(3, record.backend).bind(4, record.json);
  if (upsert.step() != sql::StepResult::Row)
    return m_impl->fail("saving calibration " + record.name);
  const std::int64_t id = upsert.int64At(0);
  // Step to the end so the statement completes (and commits) before it is finalised.
  if (upsert.step() != sql::StepResult::Done)
    return m_impl->fail("saving calibration " + record.name);
  return id;
}

Result<std::vector<CalibrationRecord>> Library::calibrations() const
{
  sql::Statement query(m_impl->db, std::string("SELECT ") + kCalibrationColumns +
                                       " FROM calibrations ORDER BY name");
  std::vector<CalibrationRecord> records;
  sql::StepResult step;
  while ((step = query.step()) == sql::StepResult::Row)
    records.push_back(calibrationFromRow(query));
  if (step == sql::StepResult::Failed)
    return m_impl->fail("listing calibrations");
  return records;
}

Result<CalibrationRecord> Library::calibration(const std::string& name) const
{
  sql::Statement query(m_impl->db, std::string("SELECT ") + kCalibrationColumns +
                                       " FROM calibrations WHERE name = ?");
  query.bind(1, name);
  const sql::StepResult step = query.step();
  if (step == sql::StepResult::Row)
    return calibrationFromRow(query);
  if (step == sql::StepResult::Failed)
    return m_impl->fail("reading calibration " + name);
  return Error{ErrorKind::NotFound, m_impl->file + ": no calibration named \"" + name + "\""};
}

} // namespace cs::storage
