#include "problemtargets.h"

#include "document/document.h"
#include "model/diagnosticgroups.h"

#include <set>

namespace cs::editor {

namespace {

QString slotText(const ChunkRef& slot)
{
  return QStringLiteral("rank %1 %2[%3]")
      .arg(slot.rank)
      .arg(QLatin1Char(bufferLetter(slot.buffer)))
      .arg(slot.index);
}

/// A wrong result: the first result row that does not hold what it should, in the last column,
/// and every rank with such a row.
bool targetWrongResult(const Analysis& analysis, ProblemTarget& target)
{
  if (!analysis.states || !analysis.schedule)
    return false;
  const ChunkStates& states = *analysis.states;
  std::set<int> ranks;
  std::optional<ChunkRef> first;
  for (const ChunkRow& row : states.rows()) {
    if (!row.result || row.resultCorrect)
      continue;
    ranks.insert(row.ref.rank);
    if (!first)
      first = row.ref;
  }
  if (!first)
    return false;
  const int last = states.columnCount() - 1;
  target.selection.cell = CellRef{*first, last};
  target.view = ProblemTarget::View::Timeline;
  target.ranks.assign(ranks.begin(), ranks.end());
  target.where =
      slotText(*first) +
      (last == 0 ? QStringLiteral(" · ") + ProblemTarget::tr("at the start")
                 : QStringLiteral(" · ") + ProblemTarget::tr("after step %1").arg(last - 1));
  return true;
}

/// Topology problems about GPUs: the GPUs without a rank (a rank that is on none) or those whose
/// rank the algorithm does not have (idle GPUs).
bool targetGpus(const Problem& problem, const Document& document, ProblemTarget& target)
{
  const std::string& code = problem.diagnostic.code;
  if (!code.starts_with("topology."))
    return false;
  target.view = ProblemTarget::View::Topology;
  target.where = ProblemTarget::tr("the topology");
  const std::optional<Topology>& topology = document.topology();
  if (!topology)
    return true;
  const int ranks = document.shownSchedule()  ? document.shownSchedule()->ranks
                    : document.shownProgram() ? document.shownProgram()->ngpus
                                              : 0;
  for (const TopologyNode& node : topology->nodes) {
    if (node.kind != NodeKind::Gpu)
      continue;
    const bool unmapped = code == "topology.rank-unmapped" && node.rank < 0;
    const bool idle = code == "topology.idle-gpus" && node.rank >= ranks;
    if (unmapped || idle)
      target.selection.nodes.insert(node.id);
  }
  const int rank = problem.diagnostic.location.rank;
  if (rank >= 0)
    target.ranks = {rank};
  if (!target.selection.nodes.empty())
    target.where = target.selection.nodes.size() == 1
                       ? ProblemTarget::tr("1 GPU")
                       : ProblemTarget::tr("%1 GPUs").arg(target.selection.nodes.size());
  return true;
}

/// A problem about a link of the topology (a route through a link without bandwidth): the link,
/// named by the nodes it joins.
bool targetLink(const Problem& problem, const Document& document, ProblemTarget& target)
{
  const int id = problem.diagnostic.location.link;
  const std::optional<Topology>& topology = document.topology();
  const TopologyLink* link = id >= 0 && topology ? topology->link(id) : nullptr;
  if (!link)
    return false;
  const auto nodeName = [&topology](int node) {
    const TopologyNode* found = topology->node(node);
    return found ? QString::fromStdString(found->name) : QStringLiteral("?");
  };
  target.selection.links.insert(id);
  target.view = ProblemTarget::View::Topology;
  target.where = ProblemTarget::tr("link %1\u2013%2").arg(nodeName(link->a), nodeName(link->b));
  return true;
}

} // namespace

QString ranksText(const std::vector<int>& ranks)
{
  if (ranks.empty())
    return {};
  QString list = QString::fromStdString(describeRanges(ranks));
  list.replace(QLatin1Char('-'), QChar(0x2013));
  return ranks.size() == 1 ? ProblemTarget::tr("rank %1").arg(list)
                           : ProblemTarget::tr("ranks %1").arg(list);
}

ProblemTarget problemTarget(const Problem& problem, const Document& document)
{
  ProblemTarget target;
  const Analysis& analysis = document.analysis();
  const Location& at = problem.diagnostic.location;
  const std::optional<Schedule>& shown = document.shownSchedule();
  const bool transferShown =
      problem.transferId >= 0 && shown && shown->transfer(problem.transferId);
  const bool atInstruction = problem.rank && problem.tb;

  // A wrong result is about cells, unless the Program checker named the instruction.
  if (!atInstruction && (problem.diagnostic.code == "schedule.postcondition" ||
                         problem.diagnostic.code == "postcondition")) {
    if (targetWrongResult(analysis, target))
      return target;
  }
  // The link where it is fixed before the transfer that needs it (which has the badge).
  if (targetLink(problem, document, target))
    return target;
  if (targetGpus(problem, document, target) && !transferShown && !atInstruction)
    return target;
  target = {};
  // A full instruction location wins (a blocked position, the Program checker's finding); the
  // transfer alone otherwise.
  if (transferShown && !(atInstruction && problem.step)) {
    target.selection.transfers.insert(problem.transferId);
    const std::vector<InstructionOrigin> instructions = analysis.instructionsOf(problem.transferId);
    if (!instructions.empty())
      target.selection.instruction = InstructionRef{
          instructions.front().rank, instructions.front().tb, instructions.front().step};
    target.view = ProblemTarget::View::Timeline;
    target.where = ProblemTarget::tr("transfer #%1").arg(problem.transferId);
    return target;
  }
  if (atInstruction) {
    target.selection.instruction =
        InstructionRef{*problem.rank, *problem.tb, problem.step.value_or(0)};
    if (problem.transferId >= 0)
      target.selection.transfers.insert(problem.transferId);
    // The Program for what the Program checker found (a deadlock is about the order of
    // instructions), the timeline for a drawn transfer's instruction.
    target.view = problem.stage == ProblemStage::Program || !transferShown
                      ? ProblemTarget::View::Program
                      : ProblemTarget::View::Timeline;
    target.where = problem.step
                       ? ProblemTarget::tr("rank %1 tb %2 step %3")
                             .arg(*problem.rank)
                             .arg(*problem.tb)
                             .arg(*problem.step)
                       : ProblemTarget::tr("rank %1 tb %2").arg(*problem.rank).arg(*problem.tb);
    target.ranks = {*problem.rank};
    return target;
  }
  const int rank = problem.rank.value_or(at.rank);
  if (rank >= 0 && shown && rank < shown->ranks && analysis.states) {
    // A problem about a rank as a whole (its root, its buffers): the rank's first chunk.
    const ChunkRef first{rank, Buffer::Input, 0};
    if (analysis.states->rowOf(first) >= 0) {
      target.selection.cell = CellRef{first, 0};
      target.view = ProblemTarget::View::Timeline;
      target.where = ProblemTarget::tr("rank %1").arg(rank);
      target.ranks = {rank};
      return target;
    }
  }
  target.where = ProblemTarget::tr("the algorithm");
  return target;
}

} // namespace cs::editor
