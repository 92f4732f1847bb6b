#pragma once

// The editor's own views following a replay of its document (issue 14 items 5 and 7, DESIGN.md
// §9: "the timeline and program view mark what has run"). On every cursor move it computes the
// PlaybackMarks at the cursor (FollowIndex) and hands them to the timeline and the program view,
// lists a stopped run's blocked positions and wait-for cycle in the Problems panel, and keeps the
// document's selection and the session's in step: an instruction or transfer selected in the
// editor selects its event in the replay, an event selected in the replay selects its
// instruction and transfer in the editor. Destroying it (with its replay window) clears every
// mark it set. The editor knows nothing of it: it only calls the views' plain-data setters.

#include "followindex.h"

#include "document/playbackmarks.h"

#include <QObject>
#include <QPointer>

#include <memory>

namespace cs::editor {
class Document;
class ProblemsPanel;
class ProgramView;
class TimelineView;
} // namespace cs::editor

namespace cs::visualizer {

class ReplaySession;

/// The views that follow; any may be null.
struct FollowTargets {
  editor::TimelineView* timeline = nullptr;
  editor::ProgramView* program = nullptr;
  editor::ProblemsPanel* problems = nullptr;
};

class EditorFollower : public QObject
{
  Q_OBJECT

public:
  /// `session` must be a run of `document`'s shown Program and outlive this object's signals
  /// (the replay window owning both deletes the session's views first).
  EditorFollower(ReplaySession* session, editor::Document* document, FollowTargets targets,
                 QObject* parent = nullptr);
  ~EditorFollower() override;

  /// The marks at the session's cursor, as last handed to the views.
  const editor::PlaybackMarks& marks() const { return m_marks; }
  const FollowIndex& index() const { return *m_index; }

private:
  void rebuild();
  void follow();
  void selectionFromDocument();
  void selectionFromSession();

  ReplaySession* m_session;
  editor::Document* m_document;
  QPointer<editor::TimelineView> m_timeline;
  QPointer<editor::ProgramView> m_program;
  QPointer<editor::ProblemsPanel> m_problems;
  std::unique_ptr<FollowIndex> m_index;
  editor::PlaybackMarks m_marks;
  bool m_syncing = false;
};

} // namespace cs::visualizer
