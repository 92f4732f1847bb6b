#include "simengine_p.h"

#include "model/buffergeometry.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace cs::sim {

void Engine::advance(int t)
{
  TbState& state = m_states[t];
  const TbInfo& info = m_index.tbs[t];
  while (!state.done && !state.busy) {
    if (state.slice >= m_slices || info.stepCount == 0) {
      state.done = true;
      return;
    }
    const SimStep& step = m_index.steps[info.firstStep + state.position];
    const OpTraits traits = opTraits(step.type);
    if (!state.dependencyMet) {
      const int target = step.depTarget;
      if (target >= 0 && m_states[target].published < flagKey(state.slice, step.deps)) {
        m_dependents[target].push_back(t);
        return;
      }
      state.dependencyMet = true;
      state.issued = m_now;
    }
    if (traits.receives || traits.sends) {
      if (!movePieces(t, step, traits))
        return;
      finishStep(t);
      continue;
    }
    if (step.type == OpType::Copy && skippedCopy(t, state.position)) {
      finishStep(t);
      continue;
    }
    if (step.type == OpType::Copy || step.type == OpType::Reduce) {
      const double bytes = std::max(0, step.cnt) * sliceBytes(state.slice);
      startLocalWork(t, bytes, step.type == OpType::Reduce ? LocalWork::Reduce : LocalWork::Copy);
      return;
    }
    finishStep(t);
  }
}

int Engine::dataPieces(int cnt, int slice) const
{
  const double message = std::max(0, cnt) * sliceBytes(slice);
  const double nominal =
      (m_protocol.sliceBytes > 0 ? static_cast<double>(m_protocol.sliceBytes) : m_chunkBytes) /
      m_grain.piecesPerMessage;
  if (!(nominal > 0))
    return 1;
  // The tolerance keeps a message of exactly k pieces from counting rounding dust as one more.
  const int pieces = static_cast<int>(std::ceil(message / nominal - 1e-9));
  return std::clamp(pieces, 1, m_grain.piecesPerMessage);
}

bool Engine::movePieces(int t, const SimStep& step, OpTraits traits)
{
  TbState& state = m_states[t];
  const TbInfo& info = m_index.tbs[t];
  // Worked out once per step and slice: movePieces runs again after every piece.
  if (state.stepPieces < 0)
    state.stepPieces = dataPieces(step.cnt, state.slice);
  const int pieces = state.stepPieces;
  const double pieceBytes = std::max(0, step.cnt) * sliceBytes(state.slice) / pieces;
  while (state.piece < pieces) {
    Connection* in = traits.receives ? &m_connections[info.receiveConnection] : nullptr;
    if (in && !frontArrived(info.receiveConnection)) {
      in->receivers.push_back(t);
      return false;
    }
    // The reduction of a fused receive step, where it is not free (SimOptions::fusedReduceGBps).
    if (in && traits.reduces && m_options.fusedReduceGBps && !state.pieceReduced) {
      startLocalWork(t, pieceBytes, LocalWork::FusedReduce);
      return false;
    }
    if (traits.sends) {
      Connection& out = m_connections[info.sendConnection];
      // The last piece also holds the slots of the steps the message leaves empty.
      const int slots = state.piece + 1 < pieces ? 1 : m_grain.piecesPerMessage - pieces + 1;
      if (out.held + slots > m_grain.pieceCapacity) {
        out.senders.push_back(t);
        return false;
      }
      // The executor copies the piece into the slot it waited for, then publishes it.
      const double copies = sendCopyPasses(t, state.position);
      if (copies > 0 && !state.pieceCopied) {
        startLocalWork(t, copies * pieceBytes, LocalWork::SendCopy);
        return false;
      }
      // A fused step keeps its upstream slot until the forwarded piece has left (pieceLeft).
      startPiece(t, pieceBytes, slots);
      return false;
    }
    consume(info.receiveConnection);
    ++state.piece;
    state.pieceReduced = false;
  }
  return true;
}

void Engine::consume(int c)
{
  Connection& connection = m_connections[c];
  const int piece = frontPiece(c);
  connection.held -= m_pieces[piece].slots;
  connection.head = (connection.head + 1) % m_grain.pieceCapacity;
  --connection.count;
  m_freePieces.push_back(piece); // left and arrived: nothing refers to it any more
  wake(connection.senders);
}

void Engine::startPiece(int t, double bytes, int slots)
{
  const TbInfo& info = m_index.tbs[t];
  const Path& path = m_paths[info.sendConnection];
  int piece = static_cast<int>(m_pieces.size());
  if (m_freePieces.empty()) {
    m_pieces.emplace_back();
  } else {
    piece = m_freePieces.back();
    m_freePieces.pop_back();
  }
  m_pieces[piece] = {info.sendConnection, t, false, slots, m_now};
  pushPiece(info.sendConnection, piece);
  m_connections[info.sendConnection].held += slots;
  m_states[t].busy = true;
  const double wire = bytes / m_protocol.efficiency;
  const auto payload = static_cast<std::int64_t>(std::llround(bytes));
  for (int hop = path.firstHop; hop < path.firstHop + path.hopCount; ++hop) {
    const auto [link, aToB] = m_hops[hop];
    (aToB ? m_usage[link].bytesAtoB : m_usage[link].bytesBtoA) += payload;
    m_wireBytes[link] += wire;
  }
  m_states[t].pieceCopied = false;
  const int flow = m_network.addOnRoute(path.route, wire, m_now);
  if (flow >= static_cast<int>(m_flowPiece.size()))
    m_flowPiece.resize(flow + 1);
  m_flowPiece[flow] = piece;
}

void Engine::pieceLeft(int piece)
{
  const int t = m_pieces[piece].senderTb;
  TbState& state = m_states[t];
  const TbInfo& info = m_index.tbs[t];
  state.busy = false;
  if (opTraits(m_index.steps[info.firstStep + state.position].type).receives)
    consume(info.receiveConnection);
  ++state.piece;
  state.pieceReduced = false;
  m_ready.push_back(t);
}

void Engine::buildPaths()
{
  m_paths.reserve(m_index.connections.size());
  for (const ConnectionInfo& connection : m_index.connections) {
    std::vector<int> resources = connection.resources;
    if (m_host.host >= 0)
      resources.push_back(m_host.host);
    Path path;
    path.latencyUs = connection.latencyUs;
    path.hopLatencyUs = m_protocol.hopLatencyUs(connection.hopClass);
    path.route = m_network.addRoute(resources);
    path.firstHop = static_cast<int>(m_hops.size());
    path.hopCount = static_cast<int>(connection.hops.size());
    m_hops.insert(m_hops.end(), connection.hops.begin(), connection.hops.end());
    m_paths.push_back(path);
  }
}

std::vector<double> hostCapacities(const SimIndex& index, const SimOptions& options,
                                   HostResources& resources)
{
  std::vector<double> capacities = index.capacities;
  if (!options.hostGBps)
    return capacities;
  resources.host = static_cast<int>(capacities.size());
  capacities.push_back(*options.hostGBps * 1e3);
  resources.firstLocal = static_cast<int>(capacities.size());
  capacities.insert(capacities.end(), index.tbs.size(), options.localGBps * 1e3);
  return capacities;
}

void Engine::indexExecutorCosts()
{
  const ExecutorCosts& costs = m_options.executor;
  if (costs.sendCopies.empty() && costs.skippedCopies.empty())
    return;
  // The index of the threadblock at `site` when it has a step there, else -1.
  const auto tbAt = [&](int rank, int tb, int step) {
    const auto found = m_index.tbOf.find({rank, tb});
    if (found == m_index.tbOf.end())
      return -1;
    const int t = found->second;
    const auto steps = static_cast<int>(m_index.tbs[static_cast<std::size_t>(t)].tb->steps.size());
    return step >= 0 && step < steps ? t : -1;
  };
  for (const StepSite& site : costs.skippedCopies) {
    if (const int t = tbAt(site.rank, site.tb, site.step); t >= 0)
      m_skippedCopies.emplace_back(t, site.step);
  }
  std::sort(m_skippedCopies.begin(), m_skippedCopies.end());
  if (costs.sendCopies.empty() || m_host.host < 0)
    return;
  m_sendCopies.resize(m_index.tbs.size());
  for (std::size_t t = 0; t < m_index.tbs.size(); ++t)
    m_sendCopies[t].assign(m_index.tbs[t].tb->steps.size(), 0.0);
  for (const SendCopy& copy : costs.sendCopies) {
    if (const int t = tbAt(copy.rank, copy.tb, copy.step); t >= 0)
      m_sendCopies[static_cast<std::size_t>(t)][static_cast<std::size_t>(copy.step)] =
          std::max(0.0, copy.passes);
  }
}

void Engine::startLocalWork(int t, double bytes, LocalWork kind)
{
  m_states[t].busy = true;
  const int work = kLocalWorkKinds * t + static_cast<int>(kind);
  const double copy = m_options.localGBps;
  const double gbps = kind == LocalWork::Reduce        ? m_options.localReduceGBps.value_or(copy)
                      : kind == LocalWork::FusedReduce ? m_options.fusedReduceGBps.value_or(1)
                                                       : copy;
  if (m_host.host < 0) {
    m_timers.push({m_now + bytes / (gbps * 1e3), m_sequence++, kLocalWorkDone, work});
    return;
  }
  // The host counts copy passes (its GB/s were measured on transfers, one copy each): work of
  // another speed is that many copy passes' worth, on the threadblock's own resource at the copy
  // rate, so alone it still takes bytes / gbps and it takes its true share of the host.
  const int flow = m_network.add({m_host.firstLocal + t, m_host.host}, bytes * copy / gbps, m_now);
  if (flow >= static_cast<int>(m_flowPiece.size()))
    m_flowPiece.resize(flow + 1);
  m_flowPiece[flow] = -1 - work;
}

void Engine::localWorkDone(int work)
{
  const int t = work / kLocalWorkKinds;
  const auto kind = static_cast<LocalWork>(work % kLocalWorkKinds);
  if (kind == LocalWork::Copy || kind == LocalWork::Reduce) {
    finishStep(t);
    return;
  }
  m_states[t].busy = false;
  (kind == LocalWork::FusedReduce ? m_states[t].pieceReduced : m_states[t].pieceCopied) = true;
  m_ready.push_back(t);
}

void Engine::arrive(int piece)
{
  m_pieces[piece].arrived = true;
  wake(m_connections[m_pieces[piece].connection].receivers);
}

void Engine::finishStep(int t)
{
  TbState& state = m_states[t];
  const TbInfo& info = m_index.tbs[t];
  const ThreadBlock& tb = *info.tb;
  const SimStep& step = m_index.steps[info.firstStep + state.position];
  const OpTraits traits = opTraits(step.type);
  if (m_options.recordEvents) {
    TraceEvent event;
    event.rank = info.rank;
    event.tb = tb.id;
    event.step = state.position;
    event.slice = state.slice;
    event.op = step.type;
    event.peer = traits.sends ? tb.send : traits.receives ? tb.recv : -1;
    event.recvPeer = traits.receives ? tb.recv : -1;
    event.channel = tb.chan;
    event.bytes = step.type == OpType::Nop ? 0
                                           : static_cast<std::int64_t>(std::llround(
                                                 std::max(0, step.cnt) * sliceBytes(state.slice)));
    event.start = state.issued;
    event.end = m_now;
    if (traits.sends)
      event.linkPath = m_index.connections[info.sendConnection].linkPath;
    else if (traits.receives)
      event.linkPath = m_index.connections[info.receiveConnection].linkPath;
    m_events.push_back(std::move(event));
  }
  m_end = std::max(m_end, m_now);
  if (step.hasdep && step.type != OpType::Nop) {
    state.published = flagKey(state.slice, state.position);
    wake(m_dependents[t]);
  }
  state.busy = false;
  state.dependencyMet = false;
  state.piece = 0;
  state.stepPieces = -1;
  state.pieceReduced = false;
  state.pieceCopied = false;
  if (++state.position == info.stepCount) {
    state.position = 0;
    ++state.slice;
  }
  m_ready.push_back(t);
}

void Engine::sampleUtilisation()
{
  const std::vector<int> changed = m_network.takeChangedResources();
  if (!m_options.recordUtilisation)
    return;
  for (const int resource : changed) {
    const int link = resource / 2;
    if (link >= static_cast<int>(m_topology.links.size()))
      continue; // the host and local work (SimOptions::hostGBps) are not links
    const TopologyLink& topologyLink = m_topology.links[link];
    double load = m_network.load(2 * link);
    if (topologyLink.duplex)
      load += m_network.load(2 * link + 1);
    const double capacity = m_index.capacities[2 * link] * (topologyLink.duplex ? 2 : 1);
    const double fraction = std::min(1.0, load / capacity);
    auto& samples = m_usage[link].utilisation;
    if (!samples.empty() && samples.back().first == m_now)
      samples.back().second = fraction;
    else if (samples.empty() || samples.back().second != fraction)
      samples.emplace_back(m_now, fraction);
  }
}

void Engine::reportDeadlock(Diagnostics& diagnostics) const
{
  std::string waits;
  std::vector<Location> blocked;
  for (std::size_t t = 0; t < m_states.size(); ++t) {
    const TbState& state = m_states[t];
    if (state.done)
      continue;
    const TbInfo& info = m_index.tbs[t];
    const Step& step = info.tb->steps[state.position];
    Location location;
    location.rank = info.rank;
    location.tb = info.tb->id;
    location.step = state.position;
    location.line = step.line;
    std::string why;
    if (!state.dependencyMet && m_index.steps[info.firstStep + state.position].depTarget >= 0)
      why = "waits for tb " + std::to_string(step.depid) + " to publish step " +
            std::to_string(step.deps);
    else if (opTraits(step.type).receives && waitsToReceive(info))
      why = "waits to receive from rank " + std::to_string(info.tb->recv);
    else
      why = "waits for a free slot to rank " + std::to_string(info.tb->send);
    if (blocked.size() < 8)
      waits += (waits.empty() ? "" : "; ") + describe(location) + " (slice " +
               std::to_string(state.slice) + ") " + why;
    blocked.push_back(location);
  }
  Diagnostic& diagnostic = diagnostics.error(
      "sim.deadlock",
      "the run stops at " + std::to_string(m_now) + " µs with " + std::to_string(blocked.size()) +
          " of " + std::to_string(m_states.size()) + " threadblocks unfinished: " + waits +
          (blocked.size() > 8 ? "; …" : ""),
      blocked.front());
  diagnostic.related = blocked;
}

void Engine::fillTrace(Trace& trace, std::vector<LinkTotal>& totals) const
{
  trace.links = m_usage;
  for (std::size_t i = 0; i < m_usage.size(); ++i) {
    const TopologyLink& link = m_topology.links[i];
    const double capacity = m_index.capacities[2 * i] * (link.duplex ? 2 : 1);
    LinkTotal total;
    total.link = link.id;
    total.bytes = m_usage[i].bytesAtoB + m_usage[i].bytesBtoA;
    total.busyFraction = m_end > 0 ? std::min(1.0, m_wireBytes[i] / (capacity * m_end)) : 0;
    totals.push_back(total);
  }
  std::stable_sort(totals.begin(), totals.end(),
                   [](const LinkTotal& a, const LinkTotal& b) { return a.bytes > b.bytes; });
}

} // namespace cs::sim
