#pragma once

// The rendezvous of a run started once per rank by a launcher (docs/launchers.md): rank 0 listens
// at MASTER_ADDR:MASTER_PORT, every other rank connects and says hello (protocol, rank, world, a
// fingerprint of its program file); rank 0 checks the hellos and sends every rank the same opaque
// id (NCCL's unique id), or a Stop naming what is wrong. The connections stay open for the run:
// while the collective runs a watcher (watch(), runwatcher.h) cancels every survivor's run as
// soon as a rank's connection drops; after its share of the collective every rank sends a
// RankReport, rank 0 gathers them and answers Done; a rank that disconnects makes rank 0 send Stop
// to the others, so every process exits with a clear message instead of hanging. Every wait is
// bounded by the configured timeout.
//
// Where to start when changing it: exchangeId(), watch() and gather() are the three meeting
// points; the wire format is wiremessages.h, the sockets tcpchannel.h.

#include "rendezvousfile.h"
#include "runwatcher.h"
#include "tcpchannel.h"
#include "wiremessages.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cs::launch {

struct RendezvousConfig {
  std::string host; ///< MASTER_ADDR
  int port = 0;     ///< MASTER_PORT; 0 lets rank 0's system pick one (tests; see port())
  /// Non-empty: meet through this file instead of host and port (rendezvousfile.h): rank 0
  /// listens on its host name's address and publishes it there, the others read it.
  std::string file;
  int rank = 0;
  int world = 1;
  std::uint64_t program = 0; ///< programFingerprint() of the program file
  /// Seconds rank 0 waits for every rank to arrive and every rank waits for rank 0 (connecting,
  /// the id); also how long rank 0 waits for the reports after its own.
  double timeoutSeconds = 60;
};

/// One process's side of the rendezvous; make one per run with start().
class Rendezvous
{
public:
  /// Rank 0 starts listening at once (so that the others' retries find it); other ranks only
  /// remember the configuration. nullptr with `error` when rank 0 cannot listen.
  static std::unique_ptr<Rendezvous> start(const RendezvousConfig& config, std::string* error);

  /// Rank 0 removes the rendezvous file it published, if the file still names it.
  ~Rendezvous();
  Rendezvous(const Rendezvous&) = delete;
  Rendezvous& operator=(const Rendezvous&) = delete;

  /// The port rank 0 listens on (the system's pick when the configuration said 0).
  int port() const { return m_port; }

  /// Rank 0: waits for every rank's hello, checks them, sends `id` to all and returns it. Other
  /// ranks: connect, say hello and return the id rank 0 sent. nullopt with `error` when a rank
  /// is missing at the timeout (the message names who arrived and who did not), a hello
  /// disagrees (duplicate rank, other world size, other program, other protocol), or rank 0
  /// sent Stop; rank 0 sends its error to every connected rank before returning.
  std::optional<std::vector<std::byte>> exchangeId(const std::vector<std::byte>& id,
                                                   std::string* error);

  /// After the run. Rank 0: gathers every rank's report (its own is `mine`), answers Done and
  /// returns them in rank order. Other ranks: send `mine`, wait for Done and return {mine}.
  /// nullopt with `error` ("rank 3 disconnected during the run") when a rank goes away or sends
  /// something else; rank 0 then sends Stop with that reason to the others.
  std::optional<std::vector<RankReport>> gather(const RankReport& mine, std::string* error);

  /// After exchangeId() succeeded, while this process runs its rank: watches the connections on
  /// a thread (runwatcher.h) and sets `cancel` when a rank goes away, rank 0 stops the run or
  /// (on rank 0) a rank disconnects before its report. stop() the watcher before gather().
  /// nullptr with `error` when there is nothing to watch or the thread cannot start.
  std::unique_ptr<RunWatcher> watch(std::atomic<bool>& cancel, std::string* error);

  /// Other ranks, when they failed before the id exchange: join with a hello that says why, so
  /// that rank 0 stops every rank (none waits for this one inside NCCL). Returns rank 0's answer
  /// ("rank 0 stopped the run: rank 2 could not start: …") or why it could not be reached.
  std::string cannotStart(const std::string& reason);

  /// Rank 0, when it failed before it had an id to share: waits for the ranks as exchangeId()
  /// does and sends each of them Stop with `reason` instead of the id, so that none waits for
  /// its timeout. Other ranks: nothing.
  void turnAway(const std::string& reason);

private:
  explicit Rendezvous(const RendezvousConfig& config) : m_config(config) {}
  /// Rank 0: listens where the configuration says (or, with a file, on its host name's address
  /// and publishes it); false with `error`.
  bool listen(std::string* error);
  Clock::time_point deadline() const;
  std::optional<std::vector<std::byte>> serveId(const std::vector<std::byte>& id,
                                                std::string* error);
  /// Rank 0: accepts connections until every rank said a valid hello (true) or the timeout, a
  /// refused hello (false with `error`, every connected rank told).
  bool awaitRanks(std::string* error);
  std::optional<std::vector<std::byte>> joinId(const std::string& cannotStart, std::string* error);
  std::optional<std::vector<RankReport>> gatherAtRoot(const RankReport& mine, std::string* error);
  std::optional<std::vector<RankReport>> reportToRoot(const RankReport& mine, std::string* error);
  /// The first problem with `hello` from `peer`, or empty.
  std::string checkHello(const Hello& hello, const std::string& peer) const;
  std::string missingRanks() const;
  /// How awaitRoot() words what it waits for: "the id" (the article is dropped in "sent no id"),
  /// a hint after a timeout, and what a closed connection means.
  struct Awaited {
    std::string what;
    std::string hint;
    std::string closed;
  };
  /// Other ranks: rank 0's next message, which must be of kind `expected`; Stop, another kind, a
  /// closed connection, a malformed message or the deadline give nullopt and `error`.
  std::optional<Message> awaitRoot(MessageKind expected, Clock::time_point until,
                                   const Awaited& awaited, std::string* error);
  void stopAll(const std::string& reason);

  RendezvousConfig m_config;
  std::optional<Listener> m_listener;
  int m_port = 0;
  /// Rank 0: what it wrote to the rendezvous file (to remove only its own at the end).
  std::optional<FileEndpoint> m_published;
  /// Rank 0: the connection of each rank (index = rank; null for rank 0 and the absent).
  std::vector<std::unique_ptr<Connection>> m_ranks;
  /// Rank 0: connections accepted whose hello has not arrived yet.
  std::vector<std::unique_ptr<Connection>> m_pending;
  /// Other ranks: the connection to rank 0.
  std::unique_ptr<Connection> m_root;
};

} // namespace cs::launch
