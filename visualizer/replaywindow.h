#pragma once

// The visual debugger's window body (DESIGN.md §9): a header naming the run, the views of the
// replay over one session, and the playback bar along the bottom. The Gantt chart runs along the
// bottom half; above it, the buffer view and the breakpoint list share a tab widget on the right,
// and addView() puts further views (the topology playback, the link chart) in tabs on the left.
// A run the watchdog stopped opens at the stop, says so in the header and adds a "Blocked" tab.

#include <QWidget>

#include <memory>

class QLabel;
class QSplitter;
class QTabWidget;

namespace cs::visualizer {

class BlockedList;
class BufferView;
class GanttView;
class LinkChart;
class PlaybackBar;
class PlaybackClock;
class ReplaySession;
class TopologyPlaybackView;

class ReplayWindow : public QWidget
{
  Q_OBJECT

public:
  /// Takes ownership of the session.
  explicit ReplayWindow(std::unique_ptr<ReplaySession> session, QWidget* parent = nullptr);
  /// A replay of `session` as a top-level window of its own over `parent` (deleted on close),
  /// titled `title`, shown at a size where every view has room.
  static ReplayWindow* showWindow(std::unique_ptr<ReplaySession> session, QWidget* parent,
                                  const QString& title);
  ~ReplayWindow() override;

  ReplaySession* session() const { return m_session.get(); }
  PlaybackClock* clock() const { return m_clock; }
  PlaybackBar* playbackBar() const { return m_bar; }
  GanttView* gantt() const { return m_gantt; }
  BufferView* bufferView() const { return m_buffers; }
  TopologyPlaybackView* topologyView() const { return m_topology; }
  LinkChart* linkChart() const { return m_links; }
  /// The "Blocked" tab of a run the watchdog stopped, else null.
  BlockedList* blockedList() const { return m_blocked; }
  /// The header's text: what run this is and where its routes come from.
  QString headerText() const;

  /// Adds a view of the session as a tab beside the buffer view (the first one shows the tabs).
  void addView(QWidget* view, const QString& title);

private:
  std::unique_ptr<ReplaySession> m_session;
  PlaybackClock* m_clock;
  QLabel* m_header;
  QSplitter* m_top;
  QTabWidget* m_views;
  QTabWidget* m_side;
  GanttView* m_gantt;
  BufferView* m_buffers;
  TopologyPlaybackView* m_topology;
  LinkChart* m_links;
  BlockedList* m_blocked = nullptr;
  PlaybackBar* m_bar;
};

} // namespace cs::visualizer
