#include "symbolicreports_p.h"

#include <algorithm>

namespace cs::detail {

namespace {

constexpr std::size_t kMaxReported = 5;

struct Group {
  bool cycle = false;
  std::vector<int> chain; ///< blocked threadblocks in wait-for order
};

std::string tbName(const SymbolicRun& run, int g)
{
  return "rank " + std::to_string(run.rankOf(g)) + " tb " + std::to_string(run.idOf(g));
}

std::string blockedName(const SymbolicRun& run, int g)
{
  return stepName(run.program(), run.rankOf(g), run.idOf(g), run.position(g));
}

// What one blocked threadblock waits for, as the link to the next element of the chain.
std::string describeWait(const SymbolicRun& run, int g, const WaitFor& wait)
{
  const std::string self = blockedName(run, g) + " waits for ";
  switch (wait.kind) {
  case WaitKind::Dependency:
    return self + "rank " + std::to_string(wait.peer) + " tb " + std::to_string(wait.depTb) +
           " to publish step " + std::to_string(wait.deps);
  case WaitKind::Message:
    if (wait.peer < 0)
      return self + "a message although its threadblock has no receive peer";
    return self + "a message from rank " + std::to_string(wait.peer) + " on channel " +
           std::to_string(wait.channel);
  case WaitKind::Room:
    if (wait.peer < 0)
      return self + "a connection although its threadblock has no send peer";
    return self + "room on the connection to rank " + std::to_string(wait.peer) + " on channel " +
           std::to_string(wait.channel);
  case WaitKind::None:
    break;
  }
  return blockedName(run, g) + " cannot proceed";
}

// Why a chain stops: the threadblock waited for has finished, or does not exist at all.
std::string describeEnd(const SymbolicRun& run, int g, const WaitFor& wait)
{
  const int rank = run.rankOf(g);
  const int ranks = static_cast<int>(run.program().gpus.size());
  if (wait.target >= 0) {
    switch (wait.kind) {
    case WaitKind::Dependency:
      return tbName(run, wait.target) + " has finished without publishing step " +
             std::to_string(wait.deps) + " (no step at or after it has hasdep=1)";
    case WaitKind::Message:
      return tbName(run, wait.target) + " has finished without sending";
    case WaitKind::Room:
      return tbName(run, wait.target) + " has finished without receiving";
    case WaitKind::None:
      break;
    }
    return tbName(run, wait.target) + " has finished";
  }
  switch (wait.kind) {
  case WaitKind::Dependency:
    return "rank " + std::to_string(rank) + " has no tb " + std::to_string(wait.depTb);
  case WaitKind::Message:
  case WaitKind::Room: {
    if (wait.peer < 0)
      return "nothing can ever satisfy it";
    if (wait.peer >= ranks)
      return "rank " + std::to_string(wait.peer) + " does not exist";
    const bool message = wait.kind == WaitKind::Message;
    return "rank " + std::to_string(wait.peer) + " has no threadblock " +
           (message ? "sending to" : "receiving from") + " rank " + std::to_string(rank) +
           " on channel " + std::to_string(wait.channel);
  }
  case WaitKind::None:
    break;
  }
  return "nothing can ever satisfy it";
}

/// Every blocked threadblock waits for exactly one other, so the wait-for graph is a functional
/// graph: each component ends in one cycle or at one threadblock whose wait nobody can satisfy.
/// `next[g]` is the threadblock g waits for (-1: none, or finished).
std::vector<Group> waitForGroups(const SymbolicRun& run, const std::vector<int>& next)
{
  const int count = run.threadblockCount();
  std::vector<Group> groups;
  std::vector<int> groupOf(static_cast<std::size_t>(count), -1);
  std::vector<std::uint8_t> state(static_cast<std::size_t>(count), 0); // 1: on path, 2: done
  for (int g = 0; g < count; ++g) {
    if (run.finished(g) || state[static_cast<std::size_t>(g)] != 0)
      continue;
    std::vector<int> path;
    int x = g;
    while (x >= 0 && state[static_cast<std::size_t>(x)] == 0) {
      state[static_cast<std::size_t>(x)] = 1;
      path.push_back(x);
      x = next[static_cast<std::size_t>(x)];
    }
    int group = 0;
    if (x >= 0 && state[static_cast<std::size_t>(x)] == 1) {
      Group cycle{true, {}};
      const auto start = std::find(path.begin(), path.end(), x);
      cycle.chain.assign(start, path.end());
      // Start the cycle at its lowest threadblock so the report does not depend on entry.
      std::rotate(cycle.chain.begin(), std::min_element(cycle.chain.begin(), cycle.chain.end()),
                  cycle.chain.end());
      group = static_cast<int>(groups.size());
      groups.push_back(std::move(cycle));
    } else if (x >= 0) {
      group = groupOf[static_cast<std::size_t>(x)];
    } else {
      group = static_cast<int>(groups.size());
      groups.push_back(Group{false, path});
    }
    for (int member : path) {
      state[static_cast<std::size_t>(member)] = 2;
      groupOf[static_cast<std::size_t>(member)] = group;
    }
  }
  return groups;
}

/// One deadlock error for one cycle or chain; `total` says how many threadblocks are blocked.
void reportGroup(const SymbolicRun& run, const Group& group, const std::vector<WaitFor>& waits,
                 const std::string& total, std::size_t groupCount, Diagnostics& out)
{
  std::string text = "the program deadlocks: ";
  bool capacity = false;
  std::vector<Location> chain;
  for (std::size_t i = 0; i < group.chain.size(); ++i) {
    const int g = group.chain[i];
    const WaitFor& wait = waits[static_cast<std::size_t>(g)];
    capacity = capacity || (wait.kind == WaitKind::Room && wait.peer >= 0);
    if (i > 0)
      text += " \u2192 ";
    text += describeWait(run, g, wait);
    chain.push_back(stepLocation(run.program(), run.rankOf(g), run.idOf(g), run.position(g)));
  }
  if (group.cycle) {
    const int first = group.chain.front();
    text +=
        " \u2192 back to " + tbName(run, first) + " step " + std::to_string(run.position(first));
  } else {
    const int last = group.chain.back();
    text += " \u2192 " + describeEnd(run, last, waits[static_cast<std::size_t>(last)]);
  }
  text += "; " + total;
  if (groupCount > kMaxReported)
    text += " (" + std::to_string(groupCount) + " independent wait-for cycles or chains; " +
            "the first " + std::to_string(kMaxReported) + " are reported)";
  if (capacity && run.fifoSlots() > 0)
    text += "; connections hold " + std::to_string(run.fifoSlots()) +
            " message(s); the runtime's hold about 2 Simple / 8 LL messages";
  Diagnostic& d = out.error("deadlock", text, chain.front());
  d.related = std::move(chain);
}

} // namespace

void reportDeadlock(const SymbolicRun& run, Diagnostics& out)
{
  const int count = run.threadblockCount();
  std::vector<WaitFor> waits(static_cast<std::size_t>(count));
  std::vector<int> next(static_cast<std::size_t>(count), -1);
  int blocked = 0;
  for (int g = 0; g < count; ++g) {
    if (run.finished(g))
      continue;
    ++blocked;
    const std::size_t i = static_cast<std::size_t>(g);
    waits[i] = run.waitFor(g);
    if (waits[i].target >= 0 && !run.finished(waits[i].target))
      next[i] = waits[i].target;
  }
  if (blocked == 0)
    return;
  const std::vector<Group> groups = waitForGroups(run, next);
  const std::string total =
      std::to_string(blocked) + " of " + std::to_string(count) + " threadblocks are blocked";
  const std::size_t reported = std::min(groups.size(), kMaxReported);
  for (std::size_t k = 0; k < reported; ++k)
    reportGroup(run, groups[k], waits, total, groups.size(), out);
}

} // namespace cs::detail
