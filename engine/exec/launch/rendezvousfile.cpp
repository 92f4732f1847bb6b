#include "rendezvousfile.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace cs::launch {

namespace {

/// "HOST PORT\n" is short; anything longer is not a rendezvous file.
constexpr std::size_t kMaxFileBytes = 512;

/// How long one connection attempt to what the file says lasts before the file is read again.
constexpr auto kAttempt = std::chrono::milliseconds(500);

std::string systemError()
{
  return std::strerror(errno);
}

bool writeAll(int fd, const std::string& text)
{
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    written += static_cast<std::size_t>(n);
  }
  return true;
}

std::optional<FileEndpoint> parseEndpoint(const std::string& text, const std::string& path,
                                          std::string* error)
{
  std::string line = text.substr(0, text.find('\n'));
  const std::size_t space = line.rfind(' ');
  if (space == std::string::npos || space == 0 || text.find('\n') == std::string::npos) {
    *error = path + " does not say \"HOST PORT\" on one line";
    return std::nullopt;
  }
  const std::string portText = line.substr(space + 1);
  const bool digits =
      !portText.empty() && portText.size() <= 5 &&
      std::all_of(portText.begin(), portText.end(), [](char c) { return c >= '0' && c <= '9'; });
  const int port = digits ? std::stoi(portText) : 0;
  if (port < 1 || port > 65535) {
    *error = path + " names port '" + portText + "', not a number from 1 to 65535";
    return std::nullopt;
  }
  return FileEndpoint{line.substr(0, space), port};
}

} // namespace

std::optional<std::string> localHostName(std::string* error)
{
  char name[HOST_NAME_MAX + 1] = {};
  if (::gethostname(name, sizeof name - 1) != 0) {
    *error = "cannot read this machine's host name: " + systemError();
    return std::nullopt;
  }
  return std::string(name);
}

bool publishEndpoint(const std::string& path, const FileEndpoint& endpoint, std::string* error)
{
  // The temporary file lies beside the target (a rename within one file system is atomic) and
  // carries this process's id, so that two jobs writing the same path never share one.
  const std::string temporary = path + ".tmp" + std::to_string(::getpid());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    *error = "cannot write the rendezvous file " + temporary + ": " + systemError();
    return false;
  }
  const bool written = writeAll(fd, endpoint.host + " " + std::to_string(endpoint.port) + "\n");
  const std::string writeError = written ? std::string() : systemError();
  ::close(fd);
  if (!written || ::rename(temporary.c_str(), path.c_str()) != 0) {
    *error = "cannot publish the rendezvous file " + path + ": " +
             (written ? systemError() : writeError);
    ::unlink(temporary.c_str());
    return false;
  }
  return true;
}

std::optional<FileEndpoint> readEndpoint(const std::string& path, bool* missing, std::string* error)
{
  *missing = false;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *missing = errno == ENOENT;
    *error = "cannot read the rendezvous file " + path + ": " + systemError();
    return std::nullopt;
  }
  std::string text(kMaxFileBytes + 1, '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (got > kMaxFileBytes) {
    *error =
        path + " is longer than " + std::to_string(kMaxFileBytes) + " bytes: not a rendezvous file";
    return std::nullopt;
  }
  text.resize(got);
  return parseEndpoint(text, path, error);
}

std::unique_ptr<Connection> connectThroughFile(const std::string& path, Clock::time_point deadline,
                                               std::string* error)
{
  std::string last = "the rendezvous file " + path + " never appeared";
  for (int attempt = 0;; ++attempt) {
    bool missing = false;
    std::string problem;
    if (const std::optional<FileEndpoint> endpoint = readEndpoint(path, &missing, &problem)) {
      // Briefly: a refusal may mean a stale file from an earlier job, so the file is read again.
      const Clock::time_point until = std::min(deadline, Clock::now() + kAttempt);
      if (std::unique_ptr<Connection> connection =
              connectWithRetry(endpoint->host, endpoint->port, until, &problem))
        return connection;
      last = problem + " (as " + path + " says; a file left by an earlier job?)";
    } else if (!missing) {
      last = problem; // rank 0 renames the file into place whole: a bad one is not in progress
    }
    if (Clock::now() >= deadline)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min(20 * (attempt + 1), 200)));
  }
  *error = "timed out waiting for rank 0 through the rendezvous file: " + last;
  return nullptr;
}

} // namespace cs::launch
