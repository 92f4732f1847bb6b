#pragma once

// The rendezvous connections watched while the collective runs (docs/launchers.md), so that a
// rank that dies mid-run stops the others at once rather than when their watchdog (--timeout)
// fires. Rank 0 watches every other rank's connection until that rank's report begins to arrive
// (it only peeks: gather() reads the report); a connection that closes first is a lost rank, which
// rank 0 announces to every other rank (MessageKind::Lost). The other ranks watch their connection
// to rank 0: it closing, a Lost or a Stop ends the run. Either way the watcher sets the run's
// cancel flag (ExecOptions::cancel, which every executor polls) and remembers why.
//
// While a watcher runs it owns the connections it watches: stop() it before gather().

#include "tcpchannel.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace cs::launch {

/// What a rank says on receiving Lost from rank 0; the rank is checked against the world size
/// here (decoding cannot know it), so a bad announcement is named rather than trusted.
std::string lostRankText(const Message& lost, int world);

class RunWatcher
{
public:
  /// Rank 0: `ranks[r]` is rank r's connection (null for rank 0). nullptr with `error` when the
  /// thread cannot start.
  static std::unique_ptr<RunWatcher> watchRanks(std::vector<Connection*> ranks,
                                                std::atomic<bool>& cancel, std::string* error);
  /// The other ranks: their connection to rank 0, in a run of `world` ranks.
  static std::unique_ptr<RunWatcher> watchRoot(Connection& root, int world,
                                               std::atomic<bool>& cancel, std::string* error);
  ~RunWatcher();
  RunWatcher(const RunWatcher&) = delete;
  RunWatcher& operator=(const RunWatcher&) = delete;

  /// Stops watching and returns why the run was lost ("rank 3 disconnected during the run"), or
  /// empty when nothing happened. Returns the same again when called twice.
  std::string stop();

private:
  RunWatcher(std::vector<Connection*> connections, int world, std::atomic<bool>& cancel);
  bool startThread(bool atRoot, std::string* error);
  /// Waits until one of `fds` (after the wake pipe) is readable: its index, or -1 once stopped.
  int waitForEvent(const std::vector<int>& fds);
  void watchRanksLoop();
  void watchRootLoop();
  /// Records `reason` and cancels this process's run.
  void lose(std::string reason);

  std::vector<Connection*> m_connections; ///< rank 0: index = rank; others: {root}
  int m_world = 1;
  std::atomic<bool>& m_cancel;
  SocketHandle m_wakeRead;
  SocketHandle m_wakeWrite;
  std::thread m_thread;
  std::string m_lost; ///< written by the thread, read after it joined
};

} // namespace cs::launch
