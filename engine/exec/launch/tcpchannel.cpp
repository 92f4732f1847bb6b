#include "tcpchannel.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <utility>

namespace cs::launch {

namespace {

std::string systemError(int code)
{
  return std::strerror(code);
}

std::string endpointText(const std::string& host, int port)
{
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" +
         std::to_string(port);
}

struct AddressList {
  addrinfo* first = nullptr;
  ~AddressList()
  {
    if (first)
      freeaddrinfo(first);
  }
};

bool resolve(const std::string& host, int port, AddressList& list, std::string* error)
{
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  const std::string service = std::to_string(port);
  const int code = getaddrinfo(host.c_str(), service.c_str(), &hints, &list.first);
  if (code != 0) {
    *error = "cannot resolve '" + host + "': " + gai_strerror(code);
    return false;
  }
  return true;
}

bool makeNonBlocking(int fd)
{
  const int flags = fcntl(fd, F_GETFL, 0);
  return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

/// The numeric address and port of `address` ({"", 0} for a family other than IPv4 and IPv6).
std::pair<std::string, int> numericEndpoint(const sockaddr_storage& address)
{
  char text[INET6_ADDRSTRLEN] = {};
  if (address.ss_family == AF_INET) {
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(&address);
    inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
    return {text, ntohs(v4->sin_port)};
  }
  if (address.ss_family == AF_INET6) {
    const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&address);
    inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
    return {text, ntohs(v6->sin6_port)};
  }
  return {{}, 0};
}

std::string peerName(const sockaddr_storage& address)
{
  const auto [host, port] = numericEndpoint(address);
  return endpointText(host, port);
}

/// The numeric address and the port `fd` is bound to ({"", 0} when the system cannot say).
std::pair<std::string, int> boundEndpoint(int fd)
{
  sockaddr_storage address{};
  socklen_t size = sizeof address;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) != 0)
    return {{}, 0};
  return numericEndpoint(address);
}

/// One connection attempt to one resolved address; the socket, or an invalid handle and errno.
SocketHandle tryConnect(const addrinfo& address, Clock::time_point deadline, int& code)
{
  SocketHandle socket(::socket(address.ai_family, address.ai_socktype, address.ai_protocol));
  if (socket.fd() < 0) {
    code = errno;
    return {};
  }
  // Linux bounds connect() by the send timeout: an address that drops SYNs must not hold this
  // rank for the kernel's two minutes when its deadline is sooner.
  const int ms = std::max(millisecondsUntil(deadline, 5000), 100);
  const timeval limit{ms / 1000, (ms % 1000) * 1000};
  setsockopt(socket.fd(), SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
  if (::connect(socket.fd(), address.ai_addr, address.ai_addrlen) != 0) {
    code = errno;
    return {};
  }
  return socket;
}

} // namespace

SocketHandle::~SocketHandle()
{
  if (m_fd >= 0)
    ::close(m_fd);
}

SocketHandle& SocketHandle::operator=(SocketHandle&& other) noexcept
{
  if (this != &other) {
    if (m_fd >= 0)
      ::close(m_fd);
    m_fd = other.release();
  }
  return *this;
}

int SocketHandle::release()
{
  const int fd = m_fd;
  m_fd = -1;
  return fd;
}

std::optional<Listener> listenOn(const std::string& host, int port, std::string* error)
{
  // The listener binds to the address MASTER_ADDR names, not to every interface: the project
  // opens no listening socket except where a launcher needs one, and then only where the user
  // said. A user who wants every interface says 0.0.0.0 (or ::) explicitly.
  AddressList list;
  if (!resolve(host, port, list, error))
    return std::nullopt;
  int code = 0;
  for (const addrinfo* address = list.first; address; address = address->ai_next) {
    SocketHandle socket(::socket(address->ai_family, address->ai_socktype, address->ai_protocol));
    if (socket.fd() < 0) {
      code = errno;
      continue;
    }
    // A job restarted on the same port must not wait for the last one's TIME_WAIT sockets.
    const int on = 1;
    setsockopt(socket.fd(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (::bind(socket.fd(), address->ai_addr, address->ai_addrlen) != 0 ||
        ::listen(socket.fd(), 128) != 0 || !makeNonBlocking(socket.fd())) {
      code = errno;
      continue;
    }
    auto [boundHost, boundPort] = boundEndpoint(socket.fd());
    return Listener{std::move(socket), boundPort, std::move(boundHost)};
  }
  *error = "rank 0 cannot listen on " + endpointText(host, port) + ": " + systemError(code);
  return std::nullopt;
}

std::unique_ptr<Connection> acceptOne(const Listener& listener, std::string* error)
{
  sockaddr_storage address{};
  socklen_t size = sizeof address;
  const int fd = ::accept(listener.socket.fd(), reinterpret_cast<sockaddr*>(&address), &size);
  if (fd < 0) {
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED)
      *error = "accepting a rank's connection failed: " + systemError(errno);
    return nullptr;
  }
  SocketHandle socket(fd);
  if (!makeNonBlocking(fd)) {
    *error = "accepting a rank's connection failed: " + systemError(errno);
    return nullptr;
  }
  return std::make_unique<Connection>(std::move(socket), peerName(address));
}

std::unique_ptr<Connection> connectWithRetry(const std::string& host, int port,
                                             Clock::time_point deadline, std::string* error)
{
  int code = 0;
  for (int attempt = 0;; ++attempt) {
    AddressList list;
    if (!resolve(host, port, list, error))
      return nullptr;
    for (const addrinfo* address = list.first; address; address = address->ai_next) {
      SocketHandle socket = tryConnect(*address, deadline, code);
      if (socket.fd() < 0 || !makeNonBlocking(socket.fd()))
        continue;
      const int on = 1;
      setsockopt(socket.fd(), IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
      return std::make_unique<Connection>(std::move(socket), endpointText(host, port));
    }
    if (Clock::now() >= deadline)
      break;
    // Rank 0 may start later than this rank: wait a little longer after each refusal.
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min(20 * (attempt + 1), 250)));
  }
  *error = "could not reach rank 0 at " + endpointText(host, port) +
           " before the timeout: " + systemError(code);
  return nullptr;
}

int millisecondsUntil(Clock::time_point deadline, int cap)
{
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, cap));
}

Connection::Connection(SocketHandle socket, std::string peer)
    : m_socket(std::move(socket)), m_peer(std::move(peer))
{
}

Connection::Read Connection::buffered(Message& message)
{
  std::optional<std::vector<std::byte>> payload = m_frames.next();
  if (!m_frames.error().empty()) {
    m_error = m_frames.error();
    return Read::Failed;
  }
  if (!payload)
    return Read::Nothing;
  std::optional<Message> decoded = decodePayload(payload->data(), payload->size(), &m_error);
  if (!decoded)
    return Read::Failed;
  message = std::move(*decoded);
  return Read::Message;
}

Connection::Read Connection::read(Message& message)
{
  if (const Read ready = buffered(message); ready != Read::Nothing)
    return ready;
  std::byte chunk[4096];
  const ssize_t got = ::recv(m_socket.fd(), chunk, sizeof chunk, MSG_DONTWAIT);
  if (got == 0)
    return Read::Closed;
  if (got < 0) {
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
      return Read::Nothing;
    // A reset is the peer going away, like an orderly close.
    if (errno == ECONNRESET)
      return Read::Closed;
    m_error = systemError(errno);
    return Read::Failed;
  }
  if (!m_frames.append(chunk, static_cast<std::size_t>(got))) {
    m_error = m_frames.error();
    return Read::Failed;
  }
  return buffered(message);
}

Connection::Read Connection::receive(Message& message, Clock::time_point deadline)
{
  for (;;) {
    const Read ready = read(message);
    if (ready != Read::Nothing)
      return ready;
    if (Clock::now() >= deadline)
      return Read::Nothing;
    pollfd entry{m_socket.fd(), POLLIN, 0};
    ::poll(&entry, 1, millisecondsUntil(deadline));
  }
}

bool Connection::send(const Message& message, Clock::time_point deadline)
{
  const std::vector<std::byte> frame = encodeMessage(message);
  std::size_t sent = 0;
  while (sent < frame.size()) {
    // MSG_NOSIGNAL: a peer that went away is an error here, not a SIGPIPE that kills this rank.
    const ssize_t n = ::send(m_socket.fd(), frame.data() + sent, frame.size() - sent,
                             MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
      m_error = systemError(errno);
      return false;
    }
    if (Clock::now() >= deadline) {
      m_error = "the peer does not read (send timed out)";
      return false;
    }
    pollfd entry{m_socket.fd(), POLLOUT, 0};
    ::poll(&entry, 1, millisecondsUntil(deadline));
  }
  return true;
}

} // namespace cs::launch
