#include "document.h"
#include "documentnames.h"

#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <unordered_set>

namespace cs::editor {

namespace {

bool byId(const Transfer& a, const Transfer& b)
{
  return a.id < b.id;
}

/// Transfers are kept sorted by id, so that undoing a removal restores the exact same state.
void sortTransfers(Schedule& schedule)
{
  std::stable_sort(schedule.transfers.begin(), schedule.transfers.end(), byId);
}

} // namespace

bool DocumentState::operator==(const DocumentState& other) const
{
  return design == other.design && program == other.program &&
         lowering.dialect == other.lowering.dialect &&
         lowering.protocol == other.lowering.protocol &&
         lowering.instances == other.lowering.instances && lowering.gpu == other.lowering.gpu;
}

Document::Document(QObject* parent) : QObject(parent)
{
  m_state.design.schedule.name = "untitled";
  m_state.design.schedule.ranks = 4;
  m_state.design.schedule.setUniformBuffers({.input = 4, .output = 4, .scratch = 0});
  m_analysis = analyse(m_state);
  connect(&m_undoStack, &QUndoStack::cleanChanged, this,
          [this](bool clean) { emit modifiedChanged(!clean); });
  connect(&m_background, &QFutureWatcher<Analysis>::finished, this,
          &Document::applyBackgroundAnalysis);
}

Document::~Document()
{
  // The undo stack announces its clean state once more while it is destroyed; by then the
  // window listening to modifiedChanged may be half destroyed itself.
  m_undoStack.blockSignals(true);
  m_background.blockSignals(true);
  m_background.waitForFinished();
}

void Document::setOrigin(const DocumentOrigin& origin)
{
  m_origin = origin;
  emit originChanged();
}

QString Document::displayName() const
{
  if (!m_origin.libraryName.isEmpty())
    return m_origin.libraryName;
  if (!m_origin.filePath.isEmpty())
    return QFileInfo(m_origin.filePath).fileName();
  const std::string& name = m_state.design.schedule.name;
  return name.empty() || name == "untitled" ? tr("Untitled") : QString::fromStdString(name);
}

void Document::setSelection(const Selection& selection)
{
  if (selection == m_selection)
    return;
  m_selection = selection;
  emit selectionChanged();
}

void Document::selectTransfer(int transferId)
{
  Selection selection;
  selection.transfers.insert(transferId);
  const std::vector<InstructionOrigin> instructions = m_analysis.instructionsOf(transferId);
  if (!instructions.empty())
    selection.instruction = InstructionRef{instructions.front().rank, instructions.front().tb,
                                           instructions.front().step};
  setSelection(selection);
}

void Document::reset(DocumentState state, const DocumentOrigin& origin, bool modified)
{
  m_undoStack.clear();
  m_state = std::move(state);
  sortTransfers(m_state.design.schedule);
  m_origin = origin;
  m_givenName = documentName(m_state);
  m_selection = {};
  commit({ChangeEvent::Kind::Reset, {}});
  if (modified) {
    // A recovered document is unsaved work: an obsolete clean index makes the stack dirty.
    m_undoStack.resetClean();
  } else {
    m_undoStack.setClean();
  }
  emit modifiedChanged(isModified());
  emit replaced();
  emit originChanged();
  emit selectionChanged();
}

void Document::markSaved()
{
  m_undoStack.setClean();
}

void Document::adoptScheduleAsSource()
{
  if (!m_state.program)
    return;
  if (m_analysis.schedule)
    m_state.design.schedule = *m_analysis.schedule;
  sortTransfers(m_state.design.schedule);
  m_state.program.reset();
}

void Document::putTransfers(const std::vector<Transfer>& transfers)
{
  adoptScheduleAsSource();
  Schedule& schedule = m_state.design.schedule;
  std::vector<int> ids;
  for (const Transfer& transfer : transfers) {
    ids.push_back(transfer.id);
    const auto at =
        std::lower_bound(schedule.transfers.begin(), schedule.transfers.end(), transfer, byId);
    if (at != schedule.transfers.end() && at->id == transfer.id)
      *at = transfer;
    else
      schedule.transfers.insert(at, transfer);
  }
  commit({ChangeEvent::Kind::Transfers, std::move(ids)});
}

void Document::removeTransfers(const std::vector<int>& ids)
{
  adoptScheduleAsSource();
  const std::unordered_set<int> doomed(ids.begin(), ids.end());
  std::erase_if(m_state.design.schedule.transfers,
                [&](const Transfer& transfer) { return doomed.contains(transfer.id); });
  Selection selection = m_selection;
  for (int id : ids) {
    // The instruction shown with a removed transfer goes with it.
    if (selection.transfers.erase(id) > 0)
      selection.instruction.reset();
  }
  setSelection(selection);
  commit({ChangeEvent::Kind::Transfers, ids});
}

void Document::setSchedule(Schedule schedule)
{
  m_state.program.reset();
  m_state.design.schedule = std::move(schedule);
  sortTransfers(m_state.design.schedule);
  commit({ChangeEvent::Kind::Schedule, {}});
}

void Document::setTopology(std::optional<Topology> topology, std::vector<int> changedNodes)
{
  m_state.design.topology = std::move(topology);
  // Topology edits change neither level of the algorithm, so the analysis stays valid.
  emit changed({ChangeEvent::Kind::Topology, std::move(changedNodes)});
}

void Document::setProgram(std::optional<Program> program)
{
  if (!program && m_state.program && m_analysis.schedule) {
    m_state.design.schedule = *m_analysis.schedule;
    sortTransfers(m_state.design.schedule);
  }
  m_state.program = std::move(program);
  commit({ChangeEvent::Kind::Program, {}});
}

void Document::setLowering(const LowerOptions& options)
{
  m_state.lowering = options;
  // The design document carries the GPU, so saving, autosave and the library keep the choice.
  m_state.design.gpu = options.gpu;
  commit({ChangeEvent::Kind::Lowering, {}});
}

void Document::setNotes(std::string notes)
{
  m_state.design.notes = std::move(notes);
  emit changed({ChangeEvent::Kind::Notes, {}});
}

void Document::setState(DocumentState state)
{
  m_state = std::move(state);
  commit({ChangeEvent::Kind::Reset, {}});
}

void Document::commit(const ChangeEvent& event)
{
  ++m_generation;
  if (!analysisIsExpensive(m_state)) {
    m_analysis = analyse(m_state);
  } else {
    // The Schedule checks (what the timeline marks) now; lowering and the Program checker in
    // the background, so editing a 64-rank schedule never waits for them.
    m_analysis = analyseScheduleOnly(m_state, m_analysis);
    m_backgroundGeneration = m_generation;
    m_backgroundApplied = false;
    m_background.setFuture(QtConcurrent::run([scheduleOnly = m_analysis, state = m_state] {
      return finishAnalysis(scheduleOnly, state);
    }));
  }
  emit changed(event);
  emit analysisChanged();
  pruneSelection();
}

void Document::pruneSelection()
{
  Selection kept = m_selection;
  const std::optional<Schedule>& shown = shownSchedule();
  std::erase_if(kept.transfers, [&](int id) { return !shown || !shown->transfer(id); });
  const std::optional<Topology>& machine = topology();
  std::erase_if(kept.nodes, [&](int id) { return !machine || !machine->node(id); });
  std::erase_if(kept.links, [&](int id) { return !machine || !machine->link(id); });
  if (kept.instruction && !m_analysis.programPending) {
    const InstructionRef at = *kept.instruction;
    const std::optional<Program>& program = shownProgram();
    const bool exists =
        program && program->threadblock(at.rank, at.tb) &&
        at.step < static_cast<int>(program->threadblock(at.rank, at.tb)->steps.size());
    // An instruction selected with its transfer follows that transfer: lowering again may have
    // put another transfer's instruction at the same position.
    const bool ownerGone = !m_selection.transfers.empty() &&
                           !kept.transfers.contains(m_analysis.transferAt(at.rank, at.tb, at.step));
    if (!exists || ownerGone) {
      kept.instruction.reset();
      if (!kept.transfers.empty()) {
        const std::vector<InstructionOrigin> first =
            m_analysis.instructionsOf(*kept.transfers.begin());
        if (!first.empty())
          kept.instruction =
              InstructionRef{first.front().rank, first.front().tb, first.front().step};
      }
    }
  }
  if (kept.cell && (!shown || !m_analysis.states || m_analysis.states->rowOf(kept.cell->slot) < 0 ||
                    kept.cell->column >= m_analysis.states->columnCount()))
    kept.cell.reset();
  setSelection(kept);
}

Selection selectionShownBy(const Selection& selection, SelectionScope scope)
{
  Selection shown;
  if (scope == SelectionScope::Topology) {
    shown.nodes = selection.nodes;
    shown.links = selection.links;
  } else {
    shown.transfers = selection.transfers;
    shown.instruction = selection.instruction;
    shown.cell = selection.cell;
  }
  return shown;
}

void Document::applyBackgroundAnalysis()
{
  if (m_backgroundApplied || m_backgroundGeneration != m_generation ||
      !m_background.future().isValid() || m_background.isCanceled())
    return;
  m_backgroundApplied = true;
  m_analysis = m_background.result();
  emit analysisChanged();
  // The instruction rule of pruneSelection waited for the Program level.
  pruneSelection();
}

void Document::waitForAnalysis()
{
  if (m_backgroundApplied)
    return;
  m_background.waitForFinished();
  applyBackgroundAnalysis();
}

} // namespace cs::editor
