#pragma once

// One recorded run open in the visualizer (DESIGN.md §9): the program that ran, its Trace, the
// topology its messages are routed over, the replay index and the buffer replay built from them
// once, plus the one cursor time and the one selection every view follows. Views never own any
// of this: they read the session and repaint on its signals, as the editor's views do with the
// Document.

#include "model/program.h"
#include "model/topology.h"
#include "model/trace.h"
#include "replay/bufferreplay.h"
#include "replay/replayindex.h"

#include <QObject>
#include <QString>

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace cs::visualizer {

/// What the user has selected in any view: a threadblock lane, one event, or a link.
struct ReplaySelection {
  int rank = -1;
  int tb = -1;     ///< with rank: a threadblock lane
  long event = -1; ///< index into Trace::events
  int link = -1;   ///< topology link id
  bool operator==(const ReplaySelection&) const = default;
  bool empty() const { return rank < 0 && event < 0 && link < 0; }
};

/// The result of opening a run: a session, or the diagnostics that say why not.
struct ReplayOpen;

class ReplaySession : public QObject
{
  Q_OBJECT

public:
  /// Indexes `trace` of `program` (routes from `topology` when given). Never throws; a trace that
  /// does not fit the program gives no session and replay.* diagnostics. The buffers show the
  /// result as the run was called (Trace::mode), else as `mode` says.
  static ReplayOpen open(const Program& program, Trace trace, std::optional<Topology> topology,
                         CallMode mode);
  /// Reads a Chrome trace file written by `cstudio run|simulate --trace` and opens it.
  static ReplayOpen openFile(const Program& program, const QString& tracePath,
                             std::optional<Topology> topology, CallMode mode);

  const replay::ReplayIndex& index() const { return m_index; }
  const replay::BufferReplay& buffers() const { return *m_buffers; }
  const Program& program() const { return m_index.program(); }
  const Trace& trace() const { return m_index.trace(); }
  /// The topology messages are routed over, or null.
  const Topology* topology() const { return m_topology ? &*m_topology : nullptr; }
  /// What the run is, for titles: "simulated ring-8", "cpu".
  QString description() const;

  double startUs() const { return 0; }
  /// The end of the last event, or the watchdog's stop when it came later.
  double endUs() const { return std::max(m_index.endUs(), trace().stoppedUs.value_or(0.0)); }
  double cursorUs() const { return m_cursorUs; }
  /// The state at the cursor, computed once per cursor move.
  const replay::ReplayState& state() const { return m_state; }

  const ReplaySelection& selection() const { return m_selection; }

  /// Times at which each algorithm step (position in the threadblocks) starts, on each slice of
  /// the runtime's slicing loop (which runs every step once per slice), ascending: the step
  /// ticks of the scrub bar and the targets of stepping by algorithm step.
  const std::vector<double>& stepStarts() const { return m_stepStarts; }
  /// The (step, slice) starting at each of stepStarts() (the first, where several start at once).
  const std::vector<std::pair<int, int>>& stepKeys() const { return m_stepKeys; }

public slots:
  /// Moves the cursor (clamped to the run) and recomputes the state.
  void setCursor(double timeUs);
  void setSelection(const cs::visualizer::ReplaySelection& selection);

signals:
  void cursorChanged(double timeUs);
  void selectionChanged();

private:
  ReplaySession(replay::ReplayIndex index, std::optional<Topology> topology, CallMode mode);
  void indexSteps();

  replay::ReplayIndex m_index;
  std::optional<Topology> m_topology;
  std::unique_ptr<replay::BufferReplay> m_buffers;
  std::vector<double> m_stepStarts;
  std::vector<std::pair<int, int>> m_stepKeys;
  double m_cursorUs = 0;
  replay::ReplayState m_state;
  ReplaySelection m_selection;
};

struct ReplayOpen {
  std::unique_ptr<ReplaySession> session;
  std::vector<Diagnostic> diagnostics;
};

} // namespace cs::visualizer
