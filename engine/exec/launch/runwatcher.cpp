#include "runwatcher.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <system_error>
#include <unistd.h>

namespace cs::launch {

namespace {

enum class Peek { Nothing, Data, Closed };

/// Whether `fd` has bytes (a report on its way), was closed (orderly or reset), or neither; the
/// bytes stay in the socket for gather().
Peek peekAt(int fd)
{
  std::byte first{};
  const ssize_t got = ::recv(fd, &first, 1, MSG_PEEK | MSG_DONTWAIT);
  if (got > 0)
    return Peek::Data;
  if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
    return Peek::Nothing;
  return Peek::Closed; // 0: an orderly close; any other error (a reset): the peer is gone too
}

std::string disconnected(int rank)
{
  return "rank " + std::to_string(rank) + " disconnected during the run";
}

} // namespace

std::string lostRankText(const Message& lost, int world)
{
  if (lost.lostRank <= 0 || lost.lostRank >= world)
    return "rank 0 announced that rank " + std::to_string(lost.lostRank) +
           " went away, but this run has ranks 1 to " + std::to_string(world - 1);
  return disconnected(lost.lostRank);
}

RunWatcher::RunWatcher(std::vector<Connection*> connections, int world, std::atomic<bool>& cancel)
    : m_connections(std::move(connections)), m_world(world), m_cancel(cancel)
{
}

RunWatcher::~RunWatcher()
{
  stop();
}

std::unique_ptr<RunWatcher> RunWatcher::watchRanks(std::vector<Connection*> ranks,
                                                   std::atomic<bool>& cancel, std::string* error)
{
  const int world = static_cast<int>(ranks.size());
  std::unique_ptr<RunWatcher> watcher(new RunWatcher(std::move(ranks), world, cancel));
  if (!watcher->startThread(true, error))
    return nullptr;
  return watcher;
}

std::unique_ptr<RunWatcher> RunWatcher::watchRoot(Connection& root, int world,
                                                  std::atomic<bool>& cancel, std::string* error)
{
  std::unique_ptr<RunWatcher> watcher(new RunWatcher({&root}, world, cancel));
  if (!watcher->startThread(false, error))
    return nullptr;
  return watcher;
}

bool RunWatcher::startThread(bool atRoot, std::string* error)
{
  int pipeEnds[2] = {-1, -1};
  if (::pipe2(pipeEnds, O_CLOEXEC) != 0) {
    *error = std::string("cannot watch the other ranks during the run: ") + std::strerror(errno);
    return false;
  }
  m_wakeRead = SocketHandle(pipeEnds[0]);
  m_wakeWrite = SocketHandle(pipeEnds[1]);
  try {
    m_thread = std::thread([this, atRoot] { atRoot ? watchRanksLoop() : watchRootLoop(); });
  } catch (const std::system_error& failure) {
    *error = std::string("cannot watch the other ranks during the run: ") + failure.what();
    return false;
  }
  return true;
}

std::string RunWatcher::stop()
{
  if (m_thread.joinable()) {
    const char wake = 1;
    // One byte into an empty pipe this object owns: only a signal can interrupt it.
    while (::write(m_wakeWrite.fd(), &wake, 1) < 0 && errno == EINTR) {
    }
    m_thread.join();
  }
  return m_lost;
}

int RunWatcher::waitForEvent(const std::vector<int>& fds)
{
  std::vector<pollfd> entries{{m_wakeRead.fd(), POLLIN, 0}};
  for (const int fd : fds)
    entries.push_back({fd, POLLIN, 0});
  for (;;) {
    // No deadline: the run's own watchdog bounds the run, and stop() wakes this thread.
    if (::poll(entries.data(), entries.size(), -1) < 0) {
      if (errno == EINTR)
        continue;
      return -1;
    }
    if (entries[0].revents != 0)
      return -1;
    for (std::size_t i = 1; i < entries.size(); ++i) {
      if (entries[i].revents != 0)
        return static_cast<int>(i - 1);
    }
  }
}

void RunWatcher::lose(std::string reason)
{
  m_lost = std::move(reason);
  m_cancel.store(true, std::memory_order_relaxed);
}

void RunWatcher::watchRanksLoop()
{
  std::vector<int> ranks;
  for (int r = 1; r < m_world; ++r) {
    if (m_connections[static_cast<std::size_t>(r)])
      ranks.push_back(r);
  }
  while (!ranks.empty()) {
    std::vector<int> fds;
    for (const int r : ranks)
      fds.push_back(m_connections[static_cast<std::size_t>(r)]->fd());
    const int ready = waitForEvent(fds);
    if (ready < 0)
      return;
    const int rank = ranks[static_cast<std::size_t>(ready)];
    const Peek peek = peekAt(fds[static_cast<std::size_t>(ready)]);
    if (peek == Peek::Nothing)
      continue;
    ranks.erase(ranks.begin() + ready);
    if (peek == Peek::Data)
      continue; // its verdict is arriving: gather() takes it from here
    lose(disconnected(rank));
    Message lost;
    lost.kind = MessageKind::Lost;
    lost.lostRank = rank;
    // Short: a rank that does not read within a second is gone or stuck itself.
    const Clock::time_point until = Clock::now() + std::chrono::seconds(1);
    for (int r = 1; r < m_world; ++r) {
      if (r != rank && m_connections[static_cast<std::size_t>(r)])
        m_connections[static_cast<std::size_t>(r)]->send(lost, until);
    }
    return;
  }
}

void RunWatcher::watchRootLoop()
{
  Connection& root = *m_connections.front();
  for (;;) {
    if (waitForEvent({root.fd()}) < 0)
      return;
    Message message;
    switch (root.read(message)) {
    case Connection::Read::Nothing:
      continue;
    case Connection::Read::Closed:
      lose(disconnected(0));
      return;
    case Connection::Read::Failed:
      lose("rank 0 sent a malformed message during the run: " + root.error());
      return;
    case Connection::Read::Message:
      break;
    }
    if (message.kind == MessageKind::Lost)
      lose(lostRankText(message, m_world));
    else if (message.kind == MessageKind::Stop)
      lose("rank 0 stopped the run: " + message.text);
    else
      lose("rank 0 sent message kind " + std::to_string(static_cast<int>(message.kind)) +
           " during the run");
    return;
  }
}

} // namespace cs::launch
