#include "passes_p.h"

#include "../model/connections.h"
#include "staticcheckutil_p.h"

#include <algorithm>

namespace cs::passes {

namespace {

struct End {
  const Gpu* gpu = nullptr;
  const ThreadBlock* tb = nullptr;
};

// The one threadblock on an end of a connection, or nothing when the end is empty, not unique
// (structure.duplicate-connection) or on a rank that does not exist or is duplicated
// (structure.ngpus, structure.peer).
End uniqueEnd(const Program& program, const ProgramIndex& index, int rank,
              const std::vector<int>& tbIds)
{
  if (tbIds.size() != 1)
    return {};
  const int g = index.uniqueGpu(rank);
  if (g < 0)
    return {};
  const int t = index.uniqueThreadblock(g, tbIds.front());
  if (t < 0)
    return {};
  const Gpu& gpu = program.gpus[static_cast<std::size_t>(g)];
  return {&gpu, &gpu.threadblocks[static_cast<std::size_t>(t)]};
}

void checkConnection(const ConnectionKey& key, const End& sender, const End& receiver,
                     Reporter& report)
{
  const std::vector<int> sends = sendPositions(*sender.tb);
  const std::vector<int> receives = receivePositions(*receiver.tb);
  const std::size_t common = std::min(sends.size(), receives.size());

  for (std::size_t k = 0; k < common; ++k) {
    const int sendAt = sends[k];
    const int receiveAt = receives[k];
    const Step& send = sender.tb->steps[static_cast<std::size_t>(sendAt)];
    const Step& receive = receiver.tb->steps[static_cast<std::size_t>(receiveAt)];
    if (send.cnt == receive.cnt)
      continue;
    if (Diagnostic* d = report.error(
            "match.count-mismatch", stepLocation(*sender.gpu, *sender.tb, sendAt, "cnt"), [&] {
              return cat(stepName(*sender.gpu, *sender.tb, sendAt), " sends its message number ",
                         k + 1, " on channel ", key.chan, " with cnt=", send.cnt, " but ",
                         stepName(*receiver.gpu, *receiver.tb, receiveAt),
                         " receives it with cnt=", receive.cnt,
                         "; sizes must agree message by message (msccl-format §4.5)");
            }))
      d->related.push_back(stepLocation(*receiver.gpu, *receiver.tb, receiveAt, "cnt"));
  }

  if (sends.size() > receives.size()) {
    const int at = sends[common];
    if (Diagnostic* d =
            report.error("match.missing-recv", stepLocation(*sender.gpu, *sender.tb, at), [&] {
              return cat(tbName(*sender.gpu, *sender.tb), " sends ", sends.size(),
                         " messages to rank ", key.to, " on channel ", key.chan, " but ",
                         tbName(*receiver.gpu, *receiver.tb), " receives only ", receives.size(),
                         "; the send at step ", at,
                         " has no matching receive and the sender blocks once the connection "
                         "is full (msccl-format §4.5)");
            }))
      d->related.push_back(tbLocation(*receiver.gpu, *receiver.tb, "recv"));
  } else if (receives.size() > sends.size()) {
    const int at = receives[common];
    if (Diagnostic* d =
            report.error("match.missing-send", stepLocation(*receiver.gpu, *receiver.tb, at), [&] {
              return cat(tbName(*receiver.gpu, *receiver.tb), " receives ", receives.size(),
                         " messages from rank ", key.from, " on channel ", key.chan, " but ",
                         tbName(*sender.gpu, *sender.tb), " sends only ", sends.size(),
                         "; the receive at step ", at, " waits forever (msccl-format §4.5)");
            }))
      d->related.push_back(tbLocation(*sender.gpu, *sender.tb, "send"));
  }
}

// A declared connection with nobody on the other end: report it when the declaring
// threadblock really uses it (a peer without any message is harmless).
void checkOneSided(const ConnectionKey& key, const End& end, bool sending, Reporter& report)
{
  const std::vector<int> positions = sending ? sendPositions(*end.tb) : receivePositions(*end.tb);
  if (positions.empty())
    return;
  const int at = positions.front();
  if (sending) {
    report.error("match.no-receiver", stepLocation(*end.gpu, *end.tb, at), [&] {
      return cat(tbName(*end.gpu, *end.tb), " sends ", positions.size(), " message",
                 positions.size() == 1 ? "" : "s", " to rank ", key.to, " on channel ", key.chan,
                 " (first at step ", at, ") but no threadblock on rank ", key.to,
                 " has recv=", key.from, " chan=", key.chan,
                 "; the messages are never received (msccl-format §4.5)");
    });
  } else {
    report.error("match.no-sender", stepLocation(*end.gpu, *end.tb, at), [&] {
      return cat(tbName(*end.gpu, *end.tb), " receives ", positions.size(), " message",
                 positions.size() == 1 ? "" : "s", " from rank ", key.from, " on channel ",
                 key.chan, " (first at step ", at, ") but no threadblock on rank ", key.from,
                 " has send=", key.to, " chan=", key.chan,
                 "; the receive waits forever (msccl-format §4.5)");
    });
  }
}

} // namespace

void checkMatching(const Program& program, Diagnostics& out)
{
  Reporter report(out);
  const ProgramIndex index(program);
  for (const auto& [key, ends] : buildConnections(program)) {
    // A threadblock "connected" to its own rank or to a rank that does not exist is a
    // structure.peer error; matching it would only repeat that.
    if (key.from == key.to || key.from < 0 || key.to < 0 || key.from >= program.ngpus ||
        key.to >= program.ngpus)
      continue;
    if (ends.senders.size() > 1 || ends.receivers.size() > 1)
      continue;
    const End sender = uniqueEnd(program, index, key.from, ends.senders);
    const End receiver = uniqueEnd(program, index, key.to, ends.receivers);
    if (sender.tb && receiver.tb) {
      checkConnection(key, sender, receiver, report);
    } else if (sender.tb && ends.receivers.empty() && index.uniqueGpu(key.to) >= 0) {
      checkOneSided(key, sender, true, report);
    } else if (receiver.tb && ends.senders.empty() && index.uniqueGpu(key.from) >= 0) {
      checkOneSided(key, receiver, false, report);
    }
  }
}

} // namespace cs::passes
