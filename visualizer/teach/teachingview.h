#pragma once

// Teaching mode's dock content (issue 19 item 3): the open algorithm simulated on its topology,
// the run's topology animation above the Teaching panel, and the editor's timeline and program
// view following the same cursor, so each step shows on the drawing, the links and the cells
// at once. An edit to the algorithm re-simulates it (after a short pause, as typing goes on) and
// goes back to the start; the view owns the run, everything else only follows it.

#include "teachingpanel.h"
#include "teachingrun.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QTimer;

namespace cs::editor {
class Document;
class ProblemsPanel;
class ProgramView;
class TimelineView;
} // namespace cs::editor

namespace cs::visualizer {

class BreakItPanel;
class EditorFollower;
class PredictPanel;
class TopologyPlaybackView;

class TeachingView : public QWidget
{
  Q_OBJECT

public:
  /// Follows `document`; the views in `timeline`/`program` (either may be null) mark the run.
  TeachingView(editor::Document* document, editor::TimelineView* timeline,
               editor::ProgramView* program, QWidget* parent = nullptr);
  ~TeachingView() override;

  TeachingPanel* panel() const { return m_panel; }
  /// The Break it tab (the window sets where its CPU runs open their replay).
  BreakItPanel* breakItPanel() const { return m_breakIt; }
  /// The run stepped through, or null when the algorithm cannot be simulated (panel says why).
  ReplaySession* session() const { return m_run.session.get(); }
  TopologyPlaybackView* topologyView() const { return m_topology; }
  /// Simulates the document now instead of after the pause.
  void rebuildNow();
  /// The topology beside the panel instead of above it (presentation mode, wide screens).
  void setSideBySide(bool sideBySide);
  /// Adds a timeline that follows the run too (presentation mode's own); null removes it.
  void setSecondTimeline(editor::TimelineView* timeline);

private:
  void rebuild();
  /// Hides the predicted step's answers on the timelines while a Predict round is open.
  void updateConcealment();
  TeachingText describe() const;

  editor::Document* m_document;
  QPointer<editor::TimelineView> m_timeline;
  QPointer<editor::ProgramView> m_program;
  QPointer<editor::TimelineView> m_secondTimeline;
  TeachingRun m_run;
  TopologyPlaybackView* m_topology = nullptr;
  EditorFollower* m_follower = nullptr;
  EditorFollower* m_secondFollower = nullptr;
  TeachingPanel* m_panel = nullptr;
  PredictPanel* m_predict = nullptr;
  BreakItPanel* m_breakIt = nullptr;
  QLabel* m_topologyNote = nullptr;
  QTimer* m_pause = nullptr;
};

} // namespace cs::visualizer
