#pragma once

// The sockets under the launcher rendezvous (rendezvous.h): a listener for rank 0, a connection
// with retries for the others, and a connection that reads whole messages (wiremessages.h) without
// ever blocking past a deadline. POSIX sockets, IPv4 and IPv6; no Qt (cstudio runs on GPU nodes
// without it). Every function reports failure as text naming the address and the system's reason.

#include "wiremessages.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cs::launch {

using Clock = std::chrono::steady_clock;

/// Owns a file descriptor.
class SocketHandle
{
public:
  SocketHandle() = default;
  explicit SocketHandle(int fd) : m_fd(fd) {}
  ~SocketHandle();
  SocketHandle(SocketHandle&& other) noexcept : m_fd(other.release()) {}
  SocketHandle& operator=(SocketHandle&& other) noexcept;
  SocketHandle(const SocketHandle&) = delete;
  SocketHandle& operator=(const SocketHandle&) = delete;
  int fd() const { return m_fd; }
  int release();

private:
  int m_fd = -1;
};

/// Rank 0's listening socket.
struct Listener {
  SocketHandle socket;
  int port = 0;        ///< the bound port (the one asked for, or the system's pick for port 0)
  std::string address; ///< the bound address, numeric ("10.0.0.5", "fd00::5")
};

/// Listens on the address `host` resolves to (never the wildcard unless `host` is 0.0.0.0 or ::
/// itself); port 0 lets the system pick (tests). nullopt with `error` on failure.
std::optional<Listener> listenOn(const std::string& host, int port, std::string* error);

/// One peer: a non-blocking socket and the bytes received from it so far.
class Connection
{
public:
  enum class Read { Message, Nothing, Closed, Failed };

  Connection(SocketHandle socket, std::string peer);
  int fd() const { return m_socket.fd(); }
  const std::string& peer() const { return m_peer; }

  /// Reads what has arrived (after poll said readable) and decodes the next message if complete:
  /// Message (in `message`), Nothing yet, Closed by the peer, or Failed (`error()`: a malformed
  /// message or a socket error).
  Read read(Message& message);
  /// A message already received and decoded, without touching the socket.
  Read buffered(Message& message);
  /// Sends all of `message` before `deadline`; false with error() when the peer is gone.
  bool send(const Message& message, Clock::time_point deadline);
  /// Waits for the next message until `deadline` (Nothing when it passes).
  Read receive(Message& message, Clock::time_point deadline);
  const std::string& error() const { return m_error; }

private:
  SocketHandle m_socket;
  std::string m_peer;
  FrameReader m_frames;
  std::string m_error;
};

/// Accepts one pending connection on `listener` (after poll said readable), or nullptr.
std::unique_ptr<Connection> acceptOne(const Listener& listener, std::string* error);

/// Connects to `host:port`, retrying while rank 0 is not listening yet, until `deadline`.
std::unique_ptr<Connection> connectWithRetry(const std::string& host, int port,
                                             Clock::time_point deadline, std::string* error);

/// Milliseconds from now to `deadline` for poll(), at least 0, at most `cap`.
int millisecondsUntil(Clock::time_point deadline, int cap = 200);

} // namespace cs::launch
