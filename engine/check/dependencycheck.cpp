#include "passes_p.h"

#include "../model/connections.h"
#include "staticcheckutil_p.h"

#include <algorithm>
#include <utility>

namespace cs::passes {

namespace {

constexpr int kMaxCycleSegmentsInMessage = 12;
constexpr std::size_t kMaxCycleRelated = 100;

// The happens-before graph over every step of the program (global step numbers of
// ProgramIndex), in compressed sparse rows.
struct Graph {
  std::vector<int> offsets; ///< node v's successors are targets[offsets[v] .. offsets[v+1])
  std::vector<int> targets;
};

// One run of a cycle inside one threadblock: positions first..last in program order.
struct Segment {
  int gpu = 0;
  int tb = 0;
  int first = 0;
  int last = 0;
};

/// Where a step's wait leads: a threadblock index on its rank, or why it leads nowhere.
struct WaitTarget {
  enum Kind { None, BadId, NoThreadblock, NoStep, Found };
  Kind kind = None;
  int target = -1; ///< Found, NoStep: the threadblock's index on the rank
};

/// The one definition of dep.target-missing, shared by the pass and dependencyTargetsExist.
WaitTarget resolveWait(const ProgramIndex& index, const Gpu& gpu, int g, const Step& step)
{
  if (step.depid == -1)
    return {WaitTarget::None};
  if (step.depid < -1)
    return {WaitTarget::BadId};
  const int target = index.threadblocks[static_cast<std::size_t>(g)].find(step.depid);
  if (target < 0)
    return {WaitTarget::NoThreadblock};
  const auto targetSteps = gpu.threadblocks[static_cast<std::size_t>(target)].steps.size();
  if (step.deps < 0 || static_cast<std::size_t>(step.deps) >= targetSteps)
    return {WaitTarget::NoStep, target};
  return {WaitTarget::Found, target};
}

class DependencyPass
{
public:
  DependencyPass(const Program& program, Reporter& report)
      : m_program(program), m_report(report), m_index(program)
  {
  }

  void run()
  {
    computePublishing();
    m_used.assign(static_cast<std::size_t>(m_index.stepCount), 0);
    for (std::size_t g = 0; g < m_program.gpus.size(); ++g) {
      const Gpu& gpu = m_program.gpus[g];
      for (std::size_t t = 0; t < gpu.threadblocks.size(); ++t)
        checkThreadblock(static_cast<int>(g), static_cast<int>(t));
    }
    reportUnusedPublications();
    addMessageEdges();
    findCycles();
  }

private:
  const Gpu& gpuAt(int g) const { return m_program.gpus[static_cast<std::size_t>(g)]; }
  const ThreadBlock& tbAt(int g, int t) const
  {
    return gpuAt(g).threadblocks[static_cast<std::size_t>(t)];
  }
  int node(int g, int t, int position) const
  {
    return m_index.firstStep[static_cast<std::size_t>(m_index.firstTb[static_cast<std::size_t>(g)] +
                                                      t)] +
           position;
  }

  // For every step, the first step at or after it in its threadblock that publishes its
  // position (a non-nop with hasdep=1; hasdep on a nop has no effect, msccl-format §3), and the
  // first non-nop at or after it (the step that absorbs a nop's dependency). -1 when none.
  void computePublishing()
  {
    m_publisher.assign(static_cast<std::size_t>(m_index.stepCount), -1);
    m_real.assign(static_cast<std::size_t>(m_index.stepCount), -1);
    for (std::size_t g = 0; g < m_program.gpus.size(); ++g) {
      const Gpu& gpu = m_program.gpus[g];
      for (std::size_t t = 0; t < gpu.threadblocks.size(); ++t) {
        const ThreadBlock& tb = gpu.threadblocks[t];
        const int base = node(static_cast<int>(g), static_cast<int>(t), 0);
        int publisher = -1;
        int real = -1;
        for (int position = static_cast<int>(tb.steps.size()) - 1; position >= 0; --position) {
          const Step& step = tb.steps[static_cast<std::size_t>(position)];
          if (step.type != OpType::Nop) {
            real = position;
            if (step.hasdep)
              publisher = position;
          }
          m_publisher[static_cast<std::size_t>(base + position)] = publisher;
          m_real[static_cast<std::size_t>(base + position)] = real;
        }
      }
    }
  }

  void checkThreadblock(int g, int t)
  {
    const Gpu& gpu = gpuAt(g);
    const ThreadBlock& tb = tbAt(g, t);
    // Nops with a dependency that the parser has accumulated and attaches to the next real
    // step, which must carry a dependency itself (msccl-format §3, "chain of dependencies").
    int pendingNops = 0;
    int firstPendingNop = -1;
    for (int position = 0; position < static_cast<int>(tb.steps.size()); ++position) {
      const Step& step = tb.steps[static_cast<std::size_t>(position)];
      if (step.type == OpType::Nop) {
        if (step.depid == -1) {
          m_report.error("dep.nop-without-dependency", stepLocation(gpu, tb, position, "depid"),
                         [&] {
                           return cat(stepName(gpu, tb, position),
                                      " has no dependency (depid=-1): the runtime drops such a "
                                      "nop, so every later step of the threadblock shifts by one "
                                      "position and waits on it target the wrong steps "
                                      "(msccl-format §4.4, pitfall P9); remove it or give it a "
                                      "dependency");
                         });
        } else if (step.hasDependency() && pendingNops++ == 0) {
          firstPendingNop = position;
        }
      } else {
        if (pendingNops > 0 && !step.hasDependency()) {
          if (Diagnostic* d = m_report.error(
                  "dep.nop-chain-end", stepLocation(gpu, tb, position, "depid"), [&] {
                    return cat(stepName(gpu, tb, position), " follows ", pendingNops, " nop",
                               pendingNops == 1 ? "" : "s",
                               " carrying dependencies (from "
                               "step ",
                               firstPendingNop,
                               ") but has no dependency of its own; the "
                               "runtime rejects the file (\"when there is a chain of "
                               "dependencies, the last reduction must be a part of the first "
                               "immediate instruction\", msccl-format §3)");
                  }))
            d->related.push_back(stepLocation(gpu, tb, firstPendingNop, "depid"));
        }
        pendingNops = 0;
      }
      checkWait(g, t, position);
    }
    if (pendingNops > 0) {
      m_report.warning("dep.nop-chain-end", stepLocation(gpu, tb, firstPendingNop, "depid"), [&] {
        return cat(tbName(gpu, tb), " ends with ", pendingNops, " nop", pendingNops == 1 ? "" : "s",
                   " carrying dependencies (from step ", firstPendingNop,
                   "); no later step absorbs them, so their waits have no "
                   "effect (msccl-format §3)");
      });
    }
  }

  void checkWait(int g, int t, int position)
  {
    const Gpu& gpu = gpuAt(g);
    const ThreadBlock& tb = tbAt(g, t);
    const Step& step = tb.steps[static_cast<std::size_t>(position)];
    const WaitTarget wait = resolveWait(m_index, gpu, g, step);
    if (wait.kind == WaitTarget::None)
      return;
    auto missing = [&](auto makeMessage) {
      m_report.error("dep.target-missing", stepLocation(gpu, tb, position, "depid"), makeMessage);
    };
    if (wait.kind == WaitTarget::BadId) {
      missing([&] {
        return cat(stepName(gpu, tb, position), " has depid=", step.depid,
                   "; depid must be -1 or the id of a threadblock on rank ", gpu.id);
      });
      return;
    }
    const int target = wait.target;
    if (wait.kind == WaitTarget::NoThreadblock) {
      missing([&] {
        return cat(stepName(gpu, tb, position), " waits on threadblock ", step.depid, " but rank ",
                   gpu.id,
                   " has no threadblock with that id (dependencies only "
                   "reach threadblocks of the same rank, msccl-format §2.4)");
      });
      return;
    }
    const ThreadBlock& targetTb = tbAt(g, target);
    const int targetSteps = static_cast<int>(targetTb.steps.size());
    if (wait.kind == WaitTarget::NoStep) {
      missing([&] {
        return cat(stepName(gpu, tb, position), " waits on step ", step.deps, " of tb ", step.depid,
                   ", which has ",
                   targetSteps == 0 ? std::string("no steps") : cat("steps 0..", targetSteps - 1),
                   "; deps must name one of them");
      });
      return;
    }

    const int targetBase = node(g, target, 0);
    const int publisher = m_publisher[static_cast<std::size_t>(targetBase + step.deps)];
    if (target == t) {
      checkSelfWait(g, t, position, publisher);
      return;
    }
    if (publisher < 0) {
      if (Diagnostic* d =
              m_report.error("dep.unpublished", stepLocation(gpu, tb, position, "deps"), [&] {
                return cat(stepName(gpu, tb, position), " waits on rank ", gpu.id, " tb ",
                           step.depid, " step ", step.deps,
                           ", but neither that step nor any "
                           "later step of tb ",
                           step.depid, " has hasdep=1, so tb ", step.depid,
                           " never publishes its progress and tb ", tb.id,
                           " spins forever (msccl-format §4.4, pitfall P9); set hasdep=1 on "
                           "step ",
                           step.deps);
              }))
        d->related.push_back(stepLocation(gpu, targetTb, step.deps, "hasdep"));
      return;
    }
    m_used[static_cast<std::size_t>(targetBase + publisher)] = 1;
    m_edges.emplace_back(targetBase + publisher, node(g, t, position));
    const int real = m_real[static_cast<std::size_t>(targetBase + step.deps)];
    if (publisher != real) {
      if (Diagnostic* d =
              m_report.warning("dep.late-publish", stepLocation(gpu, tb, position, "deps"), [&] {
                return cat(stepName(gpu, tb, position), " waits on rank ", gpu.id, " tb ",
                           step.depid, " step ", real,
                           ", which has hasdep=0; the first later "
                           "step that publishes is step ",
                           publisher, ", so tb ", tb.id,
                           " waits longer than intended (msccl-format §4.4); set hasdep=1 on "
                           "step ",
                           real);
              }))
        d->related.push_back(stepLocation(gpu, targetTb, real, "hasdep"));
    }
  }

  // depid names the waiting step's own threadblock (msccl-format §4.4): harmless when an
  // earlier step already published, a hang otherwise.
  void checkSelfWait(int g, int t, int position, int publisher)
  {
    const Gpu& gpu = gpuAt(g);
    const ThreadBlock& tb = tbAt(g, t);
    const Step& step = tb.steps[static_cast<std::size_t>(position)];
    if (step.deps >= position) {
      m_report.error("dep.cycle", stepLocation(gpu, tb, position, "deps"), [&] {
        return cat(stepName(gpu, tb, position), " waits on step ", step.deps,
                   " of its own threadblock, which runs ",
                   step.deps == position ? "only after this wait" : "later",
                   "; the threadblock spins forever");
      });
      return;
    }
    if (publisher < 0 || publisher >= position) {
      m_report.error("dep.unpublished", stepLocation(gpu, tb, position, "deps"), [&] {
        return cat(stepName(gpu, tb, position), " waits on step ", step.deps,
                   " of its own threadblock, but no step from ", step.deps, " to ", position - 1,
                   " has hasdep=1, so the flag it waits for is never written "
                   "and the threadblock spins forever (msccl-format §4.4, pitfall P9)");
      });
      return;
    }
    m_used[static_cast<std::size_t>(node(g, t, publisher))] = 1;
    m_report.warning("dep.self", stepLocation(gpu, tb, position, "depid"), [&] {
      return cat(stepName(gpu, tb, position), " waits on step ", step.deps,
                 " of its own threadblock, which program order already guarantees; the wait "
                 "is a no-op and can be removed (depid=-1 deps=-1)");
    });
  }

  // dep.unused-hasdep: at most one per threadblock.
  void reportUnusedPublications()
  {
    for (std::size_t g = 0; g < m_program.gpus.size(); ++g) {
      const Gpu& gpu = m_program.gpus[g];
      for (std::size_t t = 0; t < gpu.threadblocks.size(); ++t) {
        const ThreadBlock& tb = gpu.threadblocks[t];
        const int base = node(static_cast<int>(g), static_cast<int>(t), 0);
        for (int position = 0; position < static_cast<int>(tb.steps.size()); ++position) {
          const Step& step = tb.steps[static_cast<std::size_t>(position)];
          if (!step.hasdep || step.type == OpType::Nop ||
              m_used[static_cast<std::size_t>(base + position)])
            continue;
          m_report.info("dep.unused-hasdep", stepLocation(gpu, tb, position, "hasdep"), [&] {
            return cat(stepName(gpu, tb, position), " has hasdep=1 but no step on rank ", gpu.id,
                       " waits on it; the threadblock writes its progress flag after "
                       "it for nothing (one flag write per slice)");
          });
          break;
        }
      }
    }
  }

  // The k-th send-type step of a connection's sending tb happens before the k-th receive-type
  // step of its receiving tb (msccl-format §4.5). Connections whose ends are not unique are
  // structure errors and carry no order.
  void addMessageEdges()
  {
    for (const auto& [key, ends] : buildConnections(m_program)) {
      if (key.from == key.to || ends.senders.size() != 1 || ends.receivers.size() != 1)
        continue;
      const int fromGpu = m_index.uniqueGpu(key.from);
      const int toGpu = m_index.uniqueGpu(key.to);
      if (fromGpu < 0 || toGpu < 0)
        continue;
      const int fromTb = m_index.uniqueThreadblock(fromGpu, ends.senders.front());
      const int toTb = m_index.uniqueThreadblock(toGpu, ends.receivers.front());
      if (fromTb < 0 || toTb < 0)
        continue;
      const std::vector<int> sends = sendPositions(tbAt(fromGpu, fromTb));
      const std::vector<int> receives = receivePositions(tbAt(toGpu, toTb));
      const std::size_t common = std::min(sends.size(), receives.size());
      for (std::size_t k = 0; k < common; ++k)
        m_edges.emplace_back(node(fromGpu, fromTb, sends[k]), node(toGpu, toTb, receives[k]));
    }
  }

  Graph buildGraph() const
  {
    const std::size_t n = static_cast<std::size_t>(m_index.stepCount);
    Graph graph;
    graph.offsets.assign(n + 1, 0);
    const std::size_t tbs = m_index.tbGpu.size();
    for (std::size_t tb = 0; tb < tbs; ++tb) {
      for (int v = m_index.firstStep[tb]; v + 1 < m_index.firstStep[tb + 1]; ++v)
        ++graph.offsets[static_cast<std::size_t>(v) + 1];
    }
    for (const auto& [from, to] : m_edges)
      ++graph.offsets[static_cast<std::size_t>(from) + 1];
    for (std::size_t v = 0; v < n; ++v)
      graph.offsets[v + 1] += graph.offsets[v];
    graph.targets.assign(static_cast<std::size_t>(graph.offsets[n]), 0);
    std::vector<int> fill(graph.offsets.begin(), graph.offsets.end() - 1);
    for (std::size_t tb = 0; tb < tbs; ++tb) {
      for (int v = m_index.firstStep[tb]; v + 1 < m_index.firstStep[tb + 1]; ++v)
        graph.targets[static_cast<std::size_t>(fill[static_cast<std::size_t>(v)]++)] = v + 1;
    }
    for (const auto& [from, to] : m_edges)
      graph.targets[static_cast<std::size_t>(fill[static_cast<std::size_t>(from)]++)] = to;
    return graph;
  }

  // Tarjan's strongly connected components, iteratively (no recursion depth on 10k+ steps),
  // then one shortest cycle per non-trivial component: linear in steps and edges.
  void findCycles()
  {
    const int n = m_index.stepCount;
    if (n == 0 || m_edges.empty())
      return; // without cross-threadblock edges only program order remains: acyclic
    const Graph graph = buildGraph();
    std::vector<int> order(static_cast<std::size_t>(n), -1);
    std::vector<int> low(static_cast<std::size_t>(n), 0);
    std::vector<int> component(static_cast<std::size_t>(n), -1);
    std::vector<int> stack;
    std::vector<std::pair<int, int>> calls; // (node, next edge)
    std::vector<int> roots;                 // root of each non-trivial component
    int counter = 0;
    int components = 0;
    auto at = [](std::vector<int>& v, int i) -> int& { return v[static_cast<std::size_t>(i)]; };

    for (int start = 0; start < n; ++start) {
      if (at(order, start) >= 0)
        continue;
      at(order, start) = at(low, start) = counter++;
      stack.push_back(start);
      calls.emplace_back(start, graph.offsets[static_cast<std::size_t>(start)]);
      while (!calls.empty()) {
        const int v = calls.back().first;
        const int edge = calls.back().second;
        if (edge < graph.offsets[static_cast<std::size_t>(v) + 1]) {
          ++calls.back().second;
          const int w = graph.targets[static_cast<std::size_t>(edge)];
          if (at(order, w) < 0) {
            at(order, w) = at(low, w) = counter++;
            stack.push_back(w);
            calls.emplace_back(w, graph.offsets[static_cast<std::size_t>(w)]);
          } else if (at(component, w) < 0) {
            at(low, v) = std::min(at(low, v), at(order, w));
          }
          continue;
        }
        calls.pop_back();
        if (!calls.empty()) {
          const int parent = calls.back().first;
          at(low, parent) = std::min(at(low, parent), at(low, v));
        }
        if (at(low, v) != at(order, v))
          continue;
        int size = 0;
        int w = -1;
        do {
          w = stack.back();
          stack.pop_back();
          at(component, w) = components;
          ++size;
        } while (w != v);
        if (size > 1)
          roots.push_back(v);
        ++components;
      }
    }

    std::vector<int> parent(static_cast<std::size_t>(n), -1);
    for (const int root : roots)
      reportCycle(graph, component, parent, root);
  }

  // Breadth-first search inside the root's component for the shortest way back to the root.
  void reportCycle(const Graph& graph, const std::vector<int>& component, std::vector<int>& parent,
                   int root)
  {
    const int c = component[static_cast<std::size_t>(root)];
    std::vector<int> queue{root};
    parent[static_cast<std::size_t>(root)] = root;
    int last = -1;
    for (std::size_t head = 0; head < queue.size() && last < 0; ++head) {
      const int u = queue[head];
      for (int e = graph.offsets[static_cast<std::size_t>(u)];
           e < graph.offsets[static_cast<std::size_t>(u) + 1]; ++e) {
        const int w = graph.targets[static_cast<std::size_t>(e)];
        if (component[static_cast<std::size_t>(w)] != c)
          continue;
        if (w == root) {
          last = u;
          break;
        }
        if (parent[static_cast<std::size_t>(w)] < 0) {
          parent[static_cast<std::size_t>(w)] = u;
          queue.push_back(w);
        }
      }
    }
    std::vector<int> cycle;
    for (int v = last; v >= 0 && v != root; v = parent[static_cast<std::size_t>(v)])
      cycle.push_back(v);
    if (last >= 0)
      cycle.push_back(root);
    std::reverse(cycle.begin(), cycle.end());
    for (const int v : queue)
      parent[static_cast<std::size_t>(v)] = -1;
    if (cycle.size() < 2)
      return;
    describeCycle(cycle);
  }

  // Global tb number of a global step.
  int tbOfNode(int v) const
  {
    const auto it = std::upper_bound(m_index.firstStep.begin(), m_index.firstStep.end(), v);
    return static_cast<int>(it - m_index.firstStep.begin()) - 1;
  }

  void describeCycle(std::vector<int> cycle)
  {
    const std::size_t size = cycle.size();
    std::vector<int> tbOf(size);
    for (std::size_t i = 0; i < size; ++i)
      tbOf[i] = tbOfNode(cycle[i]);
    // Start at a step that a dependency edge enters (where a fix usually goes), else at any
    // step entered from another threadblock; program order alone cannot close a cycle.
    std::size_t start = size;
    for (std::size_t i = 0; i < size && start == size; ++i) {
      const std::size_t prev = (i + size - 1) % size;
      if (tbOf[prev] != tbOf[i] && m_index.tbGpu[static_cast<std::size_t>(tbOf[prev])] ==
                                       m_index.tbGpu[static_cast<std::size_t>(tbOf[i])])
        start = i;
    }
    for (std::size_t i = 0; i < size && start == size; ++i) {
      if (tbOf[(i + size - 1) % size] != tbOf[i])
        start = i;
    }
    if (start == size)
      return;
    std::rotate(cycle.begin(), cycle.begin() + static_cast<std::ptrdiff_t>(start), cycle.end());
    std::rotate(tbOf.begin(), tbOf.begin() + static_cast<std::ptrdiff_t>(start), tbOf.end());

    std::vector<Segment> segments;
    for (std::size_t i = 0; i < size; ++i) {
      const int globalTb = tbOf[i];
      const int position = cycle[i] - m_index.firstStep[static_cast<std::size_t>(globalTb)];
      if (!segments.empty() && i > 0 && tbOf[i - 1] == globalTb) {
        segments.back().last = position;
        continue;
      }
      segments.push_back({m_index.tbGpu[static_cast<std::size_t>(globalTb)],
                          m_index.tbIndex[static_cast<std::size_t>(globalTb)], position, position});
    }

    const Segment& first = segments.front();
    const bool entersByDependency = segments.back().gpu == first.gpu;
    const Gpu& firstGpu = gpuAt(first.gpu);
    const ThreadBlock& firstTb = tbAt(first.gpu, first.tb);
    Location location =
        stepLocation(firstGpu, firstTb, first.first, entersByDependency ? "depid" : "");

    if (Diagnostic* d = m_report.error("dep.cycle", std::move(location),
                                       [&] { return cycleMessage(segments); })) {
      for (const Segment& segment : segments) {
        const Gpu& gpu = gpuAt(segment.gpu);
        const ThreadBlock& tb = tbAt(segment.gpu, segment.tb);
        if (d->related.size() >= kMaxCycleRelated)
          break;
        d->related.push_back(stepLocation(gpu, tb, segment.first));
        if (segment.last != segment.first && d->related.size() < kMaxCycleRelated)
          d->related.push_back(stepLocation(gpu, tb, segment.last));
      }
    }
  }

  std::string segmentText(const Segment& segment) const
  {
    const Gpu& gpu = gpuAt(segment.gpu);
    const ThreadBlock& tb = tbAt(segment.gpu, segment.tb);
    if (segment.first == segment.last)
      return stepName(gpu, tb, segment.first);
    return cat(tbName(gpu, tb), " steps ", segment.first, "..", segment.last);
  }

  std::string cycleMessage(const std::vector<Segment>& segments) const
  {
    std::vector<int> ranks;
    for (const Segment& segment : segments)
      ranks.push_back(gpuAt(segment.gpu).id);
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());

    std::string text =
        cat("happens-before cycle across ", ranks.size(), ranks.size() == 1 ? " rank" : " ranks",
            ": every step in it must wait for the one before it, so none of them "
            "ever runs: ");
    const std::size_t shown =
        std::min(segments.size(), static_cast<std::size_t>(kMaxCycleSegmentsInMessage));
    for (std::size_t i = 0; i < shown; ++i) {
      if (i > 0) {
        const bool message = segments[i - 1].gpu != segments[i].gpu;
        text += message ? " -(message)-> " : " -(dependency)-> ";
      }
      text += segmentText(segments[i]);
    }
    if (shown < segments.size())
      text += cat(" … (", segments.size() - shown, " more)");
    const bool closesByMessage = segments.back().gpu != segments.front().gpu;
    text += closesByMessage ? " -(message)-> " : " -(dependency)-> ";
    text += cat("back to ", segmentText(segments.front()));
    return text;
  }

  const Program& m_program;
  Reporter& m_report;
  ProgramIndex m_index;
  std::vector<int> m_publisher;             ///< per global step: local position or -1
  std::vector<int> m_real;                  ///< per global step: local position or -1
  std::vector<char> m_used;                 ///< per global step: some wait resolves to it
  std::vector<std::pair<int, int>> m_edges; ///< cross-threadblock happens-before edges
};

} // namespace

void checkDependencies(const Program& program, Diagnostics& out)
{
  Reporter report(out);
  DependencyPass(program, report).run();
}

bool dependencyTargetsExist(const Program& program)
{
  const ProgramIndex index(program);
  for (std::size_t g = 0; g < program.gpus.size(); ++g)
    for (const ThreadBlock& tb : program.gpus[g].threadblocks)
      for (const Step& step : tb.steps) {
        const WaitTarget::Kind kind =
            resolveWait(index, program.gpus[g], static_cast<int>(g), step).kind;
        if (kind != WaitTarget::None && kind != WaitTarget::Found)
          return false;
      }
  return true;
}

} // namespace cs::passes
