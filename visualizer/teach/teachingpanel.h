#pragma once

// The Teaching panel (issue 19 items 2 and 3): steps a simulated run of the open algorithm by
// its own Schedule steps — Previous / Next (also ←/→, PageUp/PageDown as presenter remotes send,
// Home) animate the replay cursor across the step, so the topology's tokens move and the
// timeline marks what has run — and shows the narration of the step reached and the cost.
// The panel owns no run: it drives the session it is given and shows the text it is given.

#include <QStringList>
#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;
class QTabWidget;
class QTextBrowser;
class QVariantAnimation;

namespace cs::visualizer {

class ReplaySession;

/// What the panel says: per Schedule step, its sentences; and the cost, as rich text.
struct TeachingText {
  QString title;                  ///< "Ring all-reduce on ring-4"
  std::vector<QStringList> steps; ///< index = Schedule step
  QString start;                  ///< what holds before the first step
  QString costHtml;
};

class TeachingPanel : public QWidget
{
  Q_OBJECT

public:
  explicit TeachingPanel(QWidget* parent = nullptr);

  /// Drives `session` (null: none) whose Schedule steps end at `stepEnds`; back to the start
  /// (positionChanged(0)).
  void setRun(ReplaySession* session, std::vector<double> stepEnds);
  void setText(TeachingText text);
  /// A message instead of the run (the algorithm cannot be simulated yet, and why).
  void setUnavailable(const QString& reason);

  /// 0: before the first step; k: after Schedule step k-1. Clamped.
  int position() const { return m_position; }
  int positionCount() const { return static_cast<int>(m_stepEnds.size()) + 1; }
  /// Goes to `position`; `animate` moves the cursor across the step instead of jumping.
  void goTo(int position, bool animate = true);
  /// Ends a running animation at its target (tests, and a second key press).
  void finishAnimation();
  /// The tabs below the step controls: Narration first; teaching exercises add theirs.
  QTabWidget* tabs() const { return m_tabs; }
  /// The narration shown, as plain text.
  QString narrationText() const;

public slots:
  void next();
  void previous();

signals:
  void positionChanged(int position);

protected:
  void keyPressEvent(QKeyEvent* event) override;

private:
  void updateControls();
  void showNarration();
  double cursorAt(int position) const;

  ReplaySession* m_session = nullptr;
  std::vector<double> m_stepEnds;
  TeachingText m_text;
  int m_position = 0;
  QLabel* m_title = nullptr;
  QPushButton* m_previous = nullptr;
  QPushButton* m_next = nullptr;
  QLabel* m_stepLabel = nullptr;
  QTextBrowser* m_narration = nullptr;
  QLabel* m_cost = nullptr;
  QTabWidget* m_tabs = nullptr;
  QVariantAnimation* m_animation = nullptr;
};

} // namespace cs::visualizer
