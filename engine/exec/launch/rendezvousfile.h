#pragma once

// The rendezvous through a file on a shared path (`cstudio run --rendezvous file:PATH`,
// docs/launchers.md), for clusters where no launcher sets MASTER_ADDR and MASTER_PORT: rank 0
// listens on a port the system picks, on the address its host name resolves to (never every
// interface), and publishes "HOST PORT" in the file atomically (a temporary file renamed over
// it); the other ranks wait for the file and connect to what it says. A stale file left by an
// earlier job is no trap: a rank whose connection is refused reads the file again, until rank 0
// of this job has replaced it or the timeout passes.

#include "tcpchannel.h"

#include <memory>
#include <optional>
#include <string>

namespace cs::launch {

/// The address rank 0 publishes in a rendezvous file.
struct FileEndpoint {
  std::string host; ///< numeric, as rank 0 bound it
  int port = 0;
};

/// This machine's host name (gethostname), or nullopt with `error`.
std::optional<std::string> localHostName(std::string* error);

/// Writes `endpoint` to `path` atomically; false with `error` naming the path and the reason.
bool publishEndpoint(const std::string& path, const FileEndpoint& endpoint, std::string* error);

/// The endpoint in `path`: nullopt with `error` when the file is absent ("absent": `missing`
/// set), unreadable, too long or not "HOST PORT".
std::optional<FileEndpoint> readEndpoint(const std::string& path, bool* missing,
                                         std::string* error);

/// Other ranks: waits for `path` to name rank 0's endpoint and connects to it, reading the file
/// again after every refused connection, until `deadline`. nullptr with `error` (what the file
/// said last, or that it never appeared).
std::unique_ptr<Connection> connectThroughFile(const std::string& path, Clock::time_point deadline,
                                               std::string* error);

} // namespace cs::launch
