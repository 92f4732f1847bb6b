#include "rendezvous.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace cs::launch {

namespace {

std::string rankList(const std::vector<int>& ranks)
{
  if (ranks.empty())
    return "none";
  std::string text;
  for (const int rank : ranks)
    text += (text.empty() ? "" : ", ") + std::to_string(rank);
  return text;
}

std::string secondsText(double seconds)
{
  const double rounded = std::round(seconds * 10) / 10;
  std::string text = std::to_string(rounded);
  text.erase(text.find_last_not_of('0') + 1);
  if (!text.empty() && text.back() == '.')
    text.pop_back();
  return text + " s";
}

/// The other ranks wait this much longer than rank 0 (for the id, for Done), so that rank 0's
/// message, which names the missing ranks, arrives before their own timeout fires.
constexpr double kReportGrace = 2.0;

/// Connections rank 0 holds, beyond one per rank, while waiting for their hellos.
constexpr std::size_t kMaxPending = 64;

} // namespace

std::unique_ptr<Rendezvous> Rendezvous::start(const RendezvousConfig& config, std::string* error)
{
  std::unique_ptr<Rendezvous> rendezvous(new Rendezvous(config));
  rendezvous->m_port = config.port;
  if (config.rank == 0 && !rendezvous->listen(error))
    return nullptr;
  return rendezvous;
}

bool Rendezvous::listen(std::string* error)
{
  if (m_config.file.empty()) {
    m_listener = listenOn(m_config.host, m_config.port, error);
    if (!m_listener)
      return false;
    m_port = m_listener->port;
    return true;
  }
  // The host name's address, never every interface; the port is the system's pick, so that
  // jobs sharing a node never collide.
  const std::optional<std::string> host = localHostName(error);
  if (!host || !(m_listener = listenOn(*host, 0, error)))
    return false;
  m_port = m_listener->port;
  const FileEndpoint endpoint{m_listener->address, m_port};
  if (!publishEndpoint(m_config.file, endpoint, error))
    return false;
  m_published = endpoint;
  return true;
}

Rendezvous::~Rendezvous()
{
  if (!m_published)
    return;
  bool missing = false;
  std::string ignored;
  // A later job may have published its own in the meantime: only this job's file goes.
  const std::optional<FileEndpoint> current = readEndpoint(m_config.file, &missing, &ignored);
  if (current && current->host == m_published->host && current->port == m_published->port)
    ::unlink(m_config.file.c_str());
}

Clock::time_point Rendezvous::deadline() const
{
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(m_config.timeoutSeconds));
}

std::optional<std::vector<std::byte>> Rendezvous::exchangeId(const std::vector<std::byte>& id,
                                                             std::string* error)
{
  return m_config.rank == 0 ? serveId(id, error) : joinId({}, error);
}

std::string Rendezvous::checkHello(const Hello& hello, const std::string& peer) const
{
  const std::string who = "the rank at " + peer;
  if (hello.protocol != kRendezvousProtocol)
    return who + " speaks rendezvous protocol " + std::to_string(hello.protocol) + ", rank 0 " +
           std::to_string(kRendezvousProtocol) + " (every rank must run the same cstudio)";
  if (hello.rank <= 0 || hello.rank >= m_config.world)
    return who + " says it is rank " + std::to_string(hello.rank) + ", outside 1.." +
           std::to_string(m_config.world - 1) + (hello.rank == 0 ? " (rank 0 twice)" : "");
  const std::string rank = "rank " + std::to_string(hello.rank);
  if (m_ranks[static_cast<std::size_t>(hello.rank)])
    return rank + " arrived twice (from " + m_ranks[static_cast<std::size_t>(hello.rank)]->peer() +
           " and " + peer + ")";
  if (hello.world != m_config.world)
    return rank + " was started with a world size of " + std::to_string(hello.world) +
           ", rank 0 with " + std::to_string(m_config.world);
  if (hello.program != m_config.program)
    return rank + " runs a different program file than rank 0 (their contents differ)";
  return {};
}

std::string Rendezvous::missingRanks() const
{
  std::vector<int> arrived{0};
  std::vector<int> missing;
  for (int r = 1; r < m_config.world; ++r)
    (m_ranks[static_cast<std::size_t>(r)] ? arrived : missing).push_back(r);
  return "arrived: " + rankList(arrived) + "; missing: " + rankList(missing);
}

void Rendezvous::stopAll(const std::string& reason)
{
  // Short: a rank that does not read within a second is gone or stuck, and rank 0 must exit.
  const Clock::time_point until = Clock::now() + std::chrono::seconds(1);
  Message stop;
  stop.kind = MessageKind::Stop;
  stop.text = reason;
  // Those still connecting hear it too: their hello may be on its way.
  for (std::vector<std::unique_ptr<Connection>>* list : {&m_ranks, &m_pending}) {
    for (std::unique_ptr<Connection>& connection : *list) {
      if (connection)
        connection->send(stop, until);
    }
  }
}

void Rendezvous::turnAway(const std::string& reason)
{
  std::string error;
  if (m_config.rank == 0 && awaitRanks(&error))
    stopAll("rank 0 failed: " + reason);
}

bool Rendezvous::awaitRanks(std::string* error)
{
  m_ranks.clear();
  m_ranks.resize(static_cast<std::size_t>(m_config.world));
  std::vector<std::unique_ptr<Connection>>& pending = m_pending;
  pending.clear();
  std::string ignored;
  // The first rank that cannot start: every rank is still awaited, so that all of them hear it.
  std::string refusal;
  int arrived = 1;
  const Clock::time_point until = deadline();
  while (arrived < m_config.world) {
    if (Clock::now() >= until) {
      *error = (refusal.empty() ? "" : refusal + "; then ") + "timed out after " +
               secondsText(m_config.timeoutSeconds) + " waiting for every rank at rank 0 (" +
               missingRanks() + ")" + ignored;
      stopAll(*error);
      return false;
    }
    std::vector<pollfd> fds{{m_listener->socket.fd(), POLLIN, 0}};
    for (const std::unique_ptr<Connection>& connection : pending)
      fds.push_back({connection->fd(), POLLIN, 0});
    ::poll(fds.data(), fds.size(), millisecondsUntil(until));
    if (fds[0].revents != 0) {
      std::string failure;
      while (std::unique_ptr<Connection> connection = acceptOne(*m_listener, &failure)) {
        // Bounded: a flood of connections that never say hello cannot exhaust descriptors.
        if (pending.size() < kMaxPending + static_cast<std::size_t>(m_config.world))
          pending.push_back(std::move(connection));
      }
    }
    for (std::size_t i = 0; i < pending.size();) {
      Message message;
      const Connection::Read read = pending[i]->read(message);
      if (read == Connection::Read::Nothing) {
        ++i;
        continue;
      }
      std::unique_ptr<Connection> connection = std::move(pending[i]);
      pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(i));
      if (read == Connection::Read::Closed)
        continue; // gone before saying who it was: as if it never came
      if (read == Connection::Read::Failed || message.kind != MessageKind::Hello) {
        // Not a rank of this run (a port scanner, another program): ignored, but named if the
        // rendezvous then times out.
        ignored +=
            "; ignored " + connection->peer() + ": " +
            (read == Connection::Read::Failed ? connection->error()
                                              : std::string("its first message is not a hello"));
        continue;
      }
      if (std::string problem = checkHello(message.hello, connection->peer()); !problem.empty()) {
        m_ranks.push_back(std::move(connection)); // told too, then forgotten
        stopAll(problem);
        *error = std::move(problem);
        return false;
      }
      if (refusal.empty() && !message.hello.cannotStart.empty())
        refusal = "rank " + std::to_string(message.hello.rank) +
                  " could not start: " + message.hello.cannotStart;
      m_ranks[static_cast<std::size_t>(message.hello.rank)] = std::move(connection);
      ++arrived;
    }
  }
  if (!refusal.empty()) {
    stopAll(refusal);
    *error = std::move(refusal);
    return false;
  }
  return true;
}

std::optional<std::vector<std::byte>> Rendezvous::serveId(const std::vector<std::byte>& id,
                                                          std::string* error)
{
  if (!awaitRanks(error))
    return std::nullopt;
  Message reply;
  reply.kind = MessageKind::Id;
  reply.id = id;
  const Clock::time_point sendUntil = deadline();
  for (int r = 1; r < m_config.world; ++r) {
    Connection& connection = *m_ranks[static_cast<std::size_t>(r)];
    if (!connection.send(reply, sendUntil)) {
      *error = "rank " + std::to_string(r) + " disconnected before it received the id (" +
               connection.error() + ")";
      stopAll(*error);
      return std::nullopt;
    }
  }
  return id;
}

std::string Rendezvous::cannotStart(const std::string& reason)
{
  std::string error;
  if (m_config.rank != 0 && joinId(reason, &error))
    error = "rank 0 sent the id although this rank cannot start";
  return error;
}

std::optional<std::vector<std::byte>> Rendezvous::joinId(const std::string& cannotStart,
                                                         std::string* error)
{
  const Clock::time_point until = deadline();
  const Clock::time_point idUntil = until + std::chrono::duration_cast<Clock::duration>(
                                                std::chrono::duration<double>(kReportGrace));
  m_root = m_config.file.empty() ? connectWithRetry(m_config.host, m_config.port, until, error)
                                 : connectThroughFile(m_config.file, until, error);
  if (!m_root)
    return std::nullopt;
  Message hello;
  hello.kind = MessageKind::Hello;
  hello.hello = {kRendezvousProtocol, m_config.rank, m_config.world, m_config.program, cannotStart};
  if (!m_root->send(hello, until)) {
    *error = "rank 0 at " + m_root->peer() + " went away during the hello: " + m_root->error();
    return std::nullopt;
  }
  const std::optional<Message> reply =
      awaitRoot(MessageKind::Id, idUntil,
                {"the id", " (are all " + std::to_string(m_config.world) + " ranks started?)",
                 "rank 0 at " + m_root->peer() + " closed the connection before sending the id"},
                error);
  if (!reply)
    return std::nullopt;
  return reply->id;
}

std::optional<Message> Rendezvous::awaitRoot(MessageKind expected, Clock::time_point until,
                                             const Awaited& awaited, std::string* error)
{
  Message reply;
  switch (m_root->receive(reply, until)) {
  case Connection::Read::Message:
    if (reply.kind == expected)
      return reply;
    // Lost: rank 0's watcher saw a rank go away while this one had already finished its run.
    *error = reply.kind == MessageKind::Stop ? "rank 0 stopped the run: " + reply.text
             : reply.kind == MessageKind::Lost
                 ? lostRankText(reply, m_config.world)
                 : "rank 0 sent message kind " + std::to_string(static_cast<int>(reply.kind)) +
                       " instead of " + awaited.what;
    return std::nullopt;
  case Connection::Read::Nothing:
    *error = "rank 0 at " + m_root->peer() + " sent no " + awaited.what.substr(4) + " within " +
             secondsText(m_config.timeoutSeconds + kReportGrace) + awaited.hint;
    return std::nullopt;
  case Connection::Read::Closed:
    *error = awaited.closed;
    return std::nullopt;
  case Connection::Read::Failed:
    break;
  }
  *error = "rank 0 at " + m_root->peer() + " sent a malformed message: " + m_root->error();
  return std::nullopt;
}

std::unique_ptr<RunWatcher> Rendezvous::watch(std::atomic<bool>& cancel, std::string* error)
{
  if (m_config.rank != 0) {
    if (!m_root) {
      *error = "this rank did not receive the id";
      return nullptr;
    }
    return RunWatcher::watchRoot(*m_root, m_config.world, cancel, error);
  }
  if (m_ranks.size() < static_cast<std::size_t>(m_config.world)) {
    *error = "not every rank received the id";
    return nullptr;
  }
  std::vector<Connection*> ranks;
  for (int r = 0; r < m_config.world; ++r)
    ranks.push_back(m_ranks[static_cast<std::size_t>(r)].get());
  return RunWatcher::watchRanks(std::move(ranks), cancel, error);
}

std::optional<std::vector<RankReport>> Rendezvous::gather(const RankReport& mine,
                                                          std::string* error)
{
  return m_config.rank == 0 ? gatherAtRoot(mine, error) : reportToRoot(mine, error);
}

std::optional<std::vector<RankReport>> Rendezvous::gatherAtRoot(const RankReport& mine,
                                                                std::string* error)
{
  const bool everyRankJoined = m_ranks.size() >= static_cast<std::size_t>(m_config.world) &&
                               std::all_of(m_ranks.begin() + 1, m_ranks.begin() + m_config.world,
                                           [](const std::unique_ptr<Connection>& connection) {
                                             return connection != nullptr;
                                           });
  if (!everyRankJoined) {
    *error = "the results cannot be gathered: not every rank received the id";
    return std::nullopt;
  }
  std::vector<std::optional<RankReport>> reports(static_cast<std::size_t>(m_config.world));
  reports[0] = mine;
  reports[0]->rank = 0;
  int received = 1;
  const Clock::time_point until = deadline();
  while (received < m_config.world) {
    std::vector<pollfd> fds;
    std::vector<int> ranks;
    for (int r = 1; r < m_config.world; ++r) {
      if (!reports[static_cast<std::size_t>(r)]) {
        fds.push_back({m_ranks[static_cast<std::size_t>(r)]->fd(), POLLIN, 0});
        ranks.push_back(r);
      }
    }
    if (Clock::now() >= until) {
      std::vector<int> reported;
      for (int r = 0; r < m_config.world; ++r) {
        if (reports[static_cast<std::size_t>(r)])
          reported.push_back(r);
      }
      *error = "timed out after " + secondsText(m_config.timeoutSeconds) +
               " waiting for the results of ranks " + rankList(ranks) +
               " (reported: " + rankList(reported) + ")";
      stopAll(*error);
      return std::nullopt;
    }
    ::poll(fds.data(), fds.size(), millisecondsUntil(until));
    for (const int r : ranks) {
      Connection& connection = *m_ranks[static_cast<std::size_t>(r)];
      Message message;
      const Connection::Read read = connection.read(message);
      if (read == Connection::Read::Nothing)
        continue;
      const std::string rank = "rank " + std::to_string(r);
      if (read == Connection::Read::Message && message.kind == MessageKind::Report &&
          message.report.rank == r) {
        reports[static_cast<std::size_t>(r)] = message.report;
        ++received;
        continue;
      }
      *error = read == Connection::Read::Closed ? rank + " disconnected during the run"
               : read == Connection::Read::Failed
                   ? rank + " sent a malformed message: " + connection.error()
                   : rank + " sent something other than its own result";
      m_ranks[static_cast<std::size_t>(r)].reset();
      stopAll(*error);
      return std::nullopt;
    }
  }
  Message done;
  done.kind = MessageKind::Done;
  const Clock::time_point sendUntil = Clock::now() + std::chrono::seconds(1);
  for (std::unique_ptr<Connection>& connection : m_ranks) {
    if (connection)
      connection->send(done, sendUntil); // one that left after reporting misses nothing
  }
  std::vector<RankReport> all;
  for (std::optional<RankReport>& report : reports)
    all.push_back(std::move(*report));
  return all;
}

std::optional<std::vector<RankReport>> Rendezvous::reportToRoot(const RankReport& mine,
                                                                std::string* error)
{
  if (!m_root) {
    *error = "the result cannot be sent: this rank did not receive the id";
    return std::nullopt;
  }
  RankReport report = mine;
  report.rank = m_config.rank;
  Message message;
  message.kind = MessageKind::Report;
  message.report = report;
  const Clock::time_point until =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(m_config.timeoutSeconds + kReportGrace));
  if (!m_root->send(message, until)) {
    *error = "rank 0 disconnected during the run (" + m_root->error() + ")";
    return std::nullopt;
  }
  if (!awaitRoot(MessageKind::Done, until,
                 {"the confirmation of the results", {}, "rank 0 disconnected during the run"},
                 error))
    return std::nullopt;
  return std::vector<RankReport>{report};
}

} // namespace cs::launch
