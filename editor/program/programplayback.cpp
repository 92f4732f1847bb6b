#include "programmodel.h"

#include "style/rankpalette.h"

#include <QGuiApplication>
#include <QPalette>

#include <algorithm>
#include <climits>

// The program tree under a replay (issue 14 item 5): each threadblock's running instruction,
// the ones done, and a stopped run's blocked ones, from the PlaybackMarks the visualizer sets.

namespace cs::editor {

namespace {

/// The rows of `lane` that differ from `other` (either may be null): [first, last], or none.
std::optional<std::pair<int, int>> changedRows(const LaneMark* lane, const LaneMark* other)
{
  if (lane && other && *lane == *other)
    return std::nullopt;
  int first = INT_MAX;
  int last = -1;
  for (const LaneMark* mark : {lane, other}) {
    if (!mark)
      continue;
    // Done rows are a prefix: what changed lies between the two prefixes' ends.
    const int done = mark->done;
    const int otherDone = mark == lane ? (other ? other->done : 0) : (lane ? lane->done : 0);
    if (done != otherDone) {
      first = std::min(first, std::min(done, otherDone));
      last = std::max(last, std::max(done, otherDone) - 1);
    }
    for (const int step : mark->running) {
      first = std::min(first, step);
      last = std::max(last, step);
    }
    if (mark->blocked >= 0) {
      first = std::min(first, mark->blocked);
      last = std::max(last, mark->blocked);
    }
  }
  if (last < 0)
    return std::nullopt;
  return std::pair(first, last);
}

} // namespace

void ProgramModel::setPlaybackMarks(const PlaybackMarks& marks)
{
  PlaybackMarks next;
  next.active = marks.active;
  if (marks.active)
    next.lanes = marks.lanes;
  std::swap(m_playback, next);
  // Repaint only what changed: a playback frame moves a few instructions per threadblock.
  std::vector<std::pair<int, int>> keys;
  for (const PlaybackMarks* set : {&next, &m_playback})
    for (const LaneMark& lane : set->lanes)
      keys.emplace_back(lane.rank, lane.tb);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  const bool switched = next.active != m_playback.active;
  for (const auto& [rank, tb] : keys) {
    const LaneMark* before = next.laneMark(rank, tb);
    const LaneMark* after = m_playback.laneMark(rank, tb);
    std::optional<std::pair<int, int>> rows = changedRows(after, before);
    if (switched) {
      // Pending rows have no tint, so turning the marks on or off changes only the marked ones.
      const std::optional<std::pair<int, int>> all = changedRows(after ? after : before, nullptr);
      rows = all ? all : rows;
    }
    if (rows) {
      emitRowsChanged(rank, tb, rows->first, rows->second);
    } else if (const QModelIndex block = threadBlockIndex(rank, tb); switched && block.isValid()) {
      emit dataChanged(block, block); // "not started" appears or goes
    }
  }
}

ProgramModel::Playback ProgramModel::playbackOf(const InstructionRef& at) const
{
  if (!m_playback.active)
    return Playback::None;
  const LaneMark* lane = m_playback.laneMark(at.rank, at.tb);
  if (!lane)
    return Playback::Pending;
  if (lane->blocked == at.step)
    return Playback::Blocked;
  if (std::binary_search(lane->running.begin(), lane->running.end(), at.step))
    return Playback::Running;
  return at.step < lane->done ? Playback::Done : Playback::Pending;
}

QColor ProgramModel::playbackColor(Playback state)
{
  const bool dark = isDark(QGuiApplication::palette());
  switch (state) {
  case Playback::Running:
    return dark ? QColor(0x1d, 0x44, 0x7a) : QColor(0xc4, 0xdc, 0xff);
  case Playback::Done:
    return dark ? QColor(0x1f, 0x33, 0x24) : QColor(0xe8, 0xf4, 0xe8);
  case Playback::Blocked:
    return dark ? QColor(0x6b, 0x24, 0x24) : QColor(0xff, 0xc9, 0xc9);
  case Playback::None:
  case Playback::Pending:
    break;
  }
  return {};
}

QString ProgramModel::playbackText(int rank, int tb) const
{
  const LaneMark* lane = m_playback.active ? m_playback.laneMark(rank, tb) : nullptr;
  if (!lane)
    return {};
  if (lane->blocked >= 0)
    return tr("blocked at s %1").arg(lane->blocked);
  if (!lane->running.empty())
    return tr("running s %1").arg(lane->running.front());
  const ThreadBlock* block = program() ? program()->threadblock(rank, tb) : nullptr;
  if (block && lane->done >= static_cast<int>(block->steps.size()))
    return tr("done");
  return lane->done > 0 ? tr("%1 done").arg(lane->done) : tr("not started");
}

void ProgramModel::emitRowsChanged(int rank, int tb, int first, int last)
{
  // The threadblock's own row says where it is.
  const QModelIndex block = threadBlockIndex(rank, tb);
  if (block.isValid())
    emit dataChanged(block, block);
  const QModelIndex top = instructionIndex({rank, tb, first}, 0);
  const QModelIndex bottom = instructionIndex({rank, tb, last}, ColumnCount - 1);
  if (top.isValid() && bottom.isValid())
    emit dataChanged(top, bottom);
  else if (top.isValid())
    emit dataChanged(top, top.siblingAtColumn(ColumnCount - 1));
}

} // namespace cs::editor
