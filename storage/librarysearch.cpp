// Listing, full-text search (FTS5) with filters, and topologies.

#include "libraryimpl_p.h"

#include <cctype>

namespace cs::storage {

namespace {

// Turns what a user typed into an FTS5 query: every word must match as a prefix. Each word is a
// quoted string, so FTS5 operators and syntax characters in the input are plain text.
std::string ftsQuery(const std::string& text)
{
  std::string query;
  std::string word;
  const auto flush = [&] {
    bool hasToken = false;
    for (unsigned char c : word)
      hasToken = hasToken || std::isalnum(c) || c >= 0x80;
    if (hasToken) {
      std::string quoted = "\"";
      for (char c : word) {
        quoted += c;
        if (c == '"')
          quoted += '"';
      }
      query += (query.empty() ? "" : " ") + quoted + "\"*";
    }
    word.clear();
  };
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)))
      flush();
    else
      word += c;
  }
  flush();
  return query;
}

Result<std::vector<AlgorithmRecord>> collect(const Library::Impl& impl, sql::Statement& query)
{
  std::vector<AlgorithmRecord> records;
  sql::StepResult step;
  while ((step = query.step()) == sql::StepResult::Row)
    records.push_back(algorithmFromRow(query));
  if (step == sql::StepResult::Failed)
    return impl.fail("listing algorithms");
  return records;
}

} // namespace

Result<std::vector<AlgorithmRecord>> Library::list() const
{
  sql::Statement query(m_impl->db, std::string("SELECT ") + kAlgorithmColumns +
                                       " FROM algorithms a ORDER BY a.name");
  return collect(*m_impl, query);
}

Result<std::vector<AlgorithmRecord>> Library::search(const SearchQuery& search) const
{
  std::optional<std::string> collective;
  if (search.collective) {
    const std::optional<Collective> parsed = parseCollective(*search.collective);
    if (!parsed)
      return Error{ErrorKind::Invalid, "unknown collective \"" + *search.collective + "\""};
    collective = std::string(collectiveTitle(*parsed));
  }
  const std::string match = ftsQuery(search.text);
  const std::string filters = " (?2 IS NULL OR a.collective = ?2) AND (?3 IS NULL OR a.ranks = ?3)";
  const std::string sql =
      match.empty() ? std::string("SELECT ") + kAlgorithmColumns + " FROM algorithms a WHERE" +
                          filters + " ORDER BY a.name LIMIT ?4"
                    : std::string("SELECT ") + kAlgorithmColumns +
                          " FROM algorithms_fts JOIN algorithms a ON a.id = algorithms_fts.rowid "
                          "WHERE algorithms_fts MATCH ?1 AND" +
                          filters + " ORDER BY rank, a.name LIMIT ?4";
  sql::Statement query(m_impl->db, sql);
  if (!match.empty())
    query.bind(1, match);
  if (collective)
    query.bind(2, *collective);
  else
    query.bindNull(2);
  if (search.ranks)
    query.bind(3, *search.ranks);
  else
    query.bindNull(3);
  query.bind(4, search.limit > 0 ? search.limit : -1);
  return collect(*m_impl, query);
}

Result<std::int64_t> Library::saveTopology(const std::string& name, const std::string& json)
{
  if (auto refused = m_impl->refuseWrite())
    return *refused;
  if (name.empty())
    return Error{ErrorKind::Invalid, m_impl->file + ": a topology needs a name"};
  sql::Statement upsert(m_impl->db,
                        "INSERT INTO topologies(name, json, created) "
                        "VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) "
                        "ON CONFLICT(name) DO UPDATE SET json = excluded.json RETURNING id");
  upsert.bind(1, name).bind(2, json);
  if (upsert.step() != sql::StepResult::Row)
    return m_impl->fail("saving topology " + name);
  const std::int64_t id = upsert.int64At(0);
  // Step to the end so the statement completes (and commits) before it is finalised.
  if (upsert.step() != sql::StepResult::Done)
    return m_impl->fail("saving topology " + name);
  return id;
}

Result<std::vector<TopologyRecord>> Library::topologies() const
{
  sql::Statement query(m_impl->db, "SELECT id, name, json, created FROM topologies ORDER BY name");
  std::vector<TopologyRecord> records;
  sql::StepResult step;
  while ((step = query.step()) == sql::StepResult::Row)
    records.push_back({query.int64At(0), query.textAt(1), query.textAt(2), query.textAt(3)});
  if (step == sql::StepResult::Failed)
    return m_impl->fail("listing topologies");
  return records;
}

} // namespace cs::storage
