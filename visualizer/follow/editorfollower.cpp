#include "editorfollower.h"

#include "runproblems.h"

#include "document/document.h"
#include "panels/problemspanel.h"
#include "program/programview.h"
#include "session/replaysession.h"
#include "timeline/timelineview.h"

#include <QScopedValueRollback>

namespace cs::visualizer {

EditorFollower::EditorFollower(ReplaySession* session, editor::Document* document,
                               FollowTargets targets, QObject* parent)
    : QObject(parent), m_session(session), m_document(document), m_timeline(targets.timeline),
      m_program(targets.program), m_problems(targets.problems)
{
  connect(session, &ReplaySession::cursorChanged, this, &EditorFollower::follow);
  connect(session, &ReplaySession::selectionChanged, this, &EditorFollower::selectionFromSession);
  connect(document, &editor::Document::analysisChanged, this, &EditorFollower::rebuild);
  connect(document, &editor::Document::selectionChanged, this,
          &EditorFollower::selectionFromDocument);
  rebuild();
}

EditorFollower::~EditorFollower()
{
  // The views outlive the replay: take the marks off them.
  if (m_timeline)
    m_timeline->setPlaybackMarks({});
  if (m_program)
    m_program->setPlaybackMarks({});
  if (m_problems)
    m_problems->setRunProblems({});
}

void EditorFollower::rebuild()
{
  // An edit renumbers transfers and instructions: map the run onto the new analysis.
  const Analysis& analysis = m_document->analysis();
  m_index = std::make_unique<FollowIndex>(m_session->program(), m_session->trace(), analysis);
  if (m_problems)
    m_problems->setRunProblems(runProblems(m_session->program(), m_session->trace(), analysis));
  follow();
}

void EditorFollower::follow()
{
  m_marks = m_index->marksAt(m_session->cursorUs());
  // The views compare and repaint only what changed.
  if (m_timeline)
    m_timeline->setPlaybackMarks(m_marks);
  if (m_program)
    m_program->setPlaybackMarks(m_marks);
}

void EditorFollower::selectionFromDocument()
{
  if (m_syncing)
    return;
  const editor::Selection& selection = m_document->selection();
  std::optional<editor::InstructionRef> at = selection.instruction;
  if (!at && !selection.transfers.empty()) {
    const std::vector<InstructionOrigin> origins =
        m_document->analysis().instructionsOf(*selection.transfers.begin());
    if (!origins.empty())
      at = editor::InstructionRef{origins.front().rank, origins.front().tb, origins.front().step};
  }
  if (!at)
    return;
  const std::optional<std::size_t> event =
      m_index->eventOf(at->rank, at->tb, at->step, m_session->cursorUs());
  QScopedValueRollback guard(m_syncing, true);
  m_session->setSelection({.rank = at->rank,
                           .tb = at->tb,
                           .event = event ? static_cast<long>(*event) : -1,
                           .link = -1});
}

void EditorFollower::selectionFromSession()
{
  if (m_syncing)
    return;
  const ReplaySelection& selection = m_session->selection();
  const std::vector<TraceEvent>& events = m_session->trace().events;
  if (selection.event < 0 || selection.event >= static_cast<long>(events.size()))
    return;
  const TraceEvent& event = events[static_cast<std::size_t>(selection.event)];
  editor::Selection next;
  next.instruction = editor::InstructionRef{event.rank, event.tb, event.step};
  if (const int transfer = m_document->analysis().transferAt(event.rank, event.tb, event.step);
      transfer >= 0)
    next.transfers.insert(transfer);
  QScopedValueRollback guard(m_syncing, true);
  m_document->setSelection(next);
}

} // namespace cs::visualizer
