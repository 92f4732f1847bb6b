#include "timelineview.h"

#include "replicatedialog.h"
#include "timelineicons.h"

#include "document/commands/transfercommands.h"
#include "document/document.h"
#include "style/rankpalette.h"

#include <QActionGroup>
#include <QEvent>
#include <QPainter>
#include <QScrollBar>
#include <QStyle>

#include <algorithm>
#include <cmath>

namespace cs::editor {

namespace {

QString refText(const ChunkRef& ref)
{
  return QStringLiteral("rank %1 %2[%3]")
      .arg(ref.rank)
      .arg(QChar(bufferLetter(ref.buffer)))
      .arg(ref.index);
}

} // namespace

TimelineView::TimelineView(Document* document, QWidget* parent)
    : QAbstractScrollArea(parent), m_document(document)
{
  setFocusPolicy(Qt::StrongFocus);
  setFrameShape(QFrame::NoFrame);
  viewport()->setMouseTracking(true);
  viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
  createActions();
  connect(m_document, &Document::analysisChanged, this, &TimelineView::rebuild);
  connect(m_document, &Document::selectionChanged, this, [this] {
    const std::set<int>& selected = m_document->selection().transfers;
    m_delete->setEnabled(!selected.empty());
    m_replicate->setEnabled(!selected.empty());
    if (!m_selecting && !selected.empty())
      ensureTransferVisible(*selected.begin());
    if (const std::optional<CellRef> cell = m_document->selection().cell)
      showCell(*cell);
    viewport()->update();
  });
  // A new document starts with the default tool, not a Select left over from the last one.
  connect(m_document, &Document::replaced, this, [this] {
    setTool(Tool::Draw);
    setOperation(TransferOp::Copy);
    // A new document starts with automatic node grouping; its analysis has already rebuilt the
    // model with the last document's, so lay out again only when that changes anything.
    const CollapseState before = m_collapse;
    m_grouping = NodeGrouping::Automatic;
    m_fitGrouped = false;
    m_collapse.expandedNodes.clear();
    applyNodeGrouping(m_model.hasSchedule() ? m_model.states().ranks() : 0);
    if (m_collapse != before)
      relayout();
  });
  m_model.layout().setZoom(1.0);
  updateHeader();
  rebuild();
}

void TimelineView::setOperation(TransferOp op)
{
  m_operation = op;
  (op == TransferOp::Copy ? m_copyMode : m_reduceMode)->setChecked(true);
}

void TimelineView::setTool(Tool tool)
{
  m_tool = tool;
  (tool == Tool::Draw ? m_drawTool : m_selectTool)->setChecked(true);
  viewport()->setCursor(tool == Tool::Select ? Qt::CrossCursor : Qt::ArrowCursor);
}

void TimelineView::rebuild()
{
  const int generation = m_model.generation();
  // Folds survive edits and undo; those of ranks that no longer exist are dropped.
  const int ranks = m_document->shownSchedule() ? m_document->shownSchedule()->ranks : 0;
  std::erase_if(m_collapse.ranks, [ranks](int rank) { return rank >= ranks; });
  std::erase_if(m_collapse.buffers, [ranks](const auto& key) { return key.first >= ranks; });
  applyNodeGrouping(ranks);
  m_model.rebuild(m_document->shownSchedule(), m_document->analysis(), m_collapse);
  if (m_model.generation() != generation && m_gesture != Gesture::None) {
    // Another view changed the Schedule under a drag: its rows and arrows are gone.
    m_gesture = Gesture::None;
    m_create.reset();
    m_bandSelection.clear();
    m_moveColumns = 0;
  }
  if (m_hover >= 0 && m_model.indexOf(m_hover) < 0)
    m_hover = -1;
  m_playback = derivePlayback(m_model, m_marks);
  m_cursorRow = std::clamp(m_cursorRow, 0, std::max(0, m_model.states().rowCount() - 1));
  m_cursorColumn = std::clamp(m_cursorColumn, 0, m_model.columnCount() - 1);
  updateHeader();
  updateScrollBars();
  viewport()->update();
}

void TimelineView::setPlaybackMarks(const PlaybackMarks& marks)
{
  // The threadblocks' marks and the time itself are not painted here: a cursor move that
  // changes neither a transfer nor the step leaves the picture as it is.
  const bool same = marks.active == m_marks.active && marks.step == m_marks.step &&
                    marks.transfers == m_marks.transfers && marks.blocked == m_marks.blocked &&
                    marks.cycle == m_marks.cycle;
  const std::optional<int> step = m_marks.step;
  m_marks = marks;
  if (same)
    return;
  m_playback = derivePlayback(m_model, m_marks);
  // Playback moves the step column along; keep it in view when it changes.
  if (m_playback && m_playback->step && m_playback->step != step) {
    const TimelineLayout& layout = m_model.layout();
    ensureContentVisible(QRect(layout.columnLeft(*m_playback->step + 1),
                               verticalScrollBar()->value() + 8, layout.cellWidth(), 1));
  }
  viewport()->update();
}

void TimelineView::relayout()
{
  m_model.relayout(m_collapse);
  updateHeader();
  updateScrollBars();
  viewport()->update();
}

void TimelineView::updateHeader()
{
  m_header = headerMetrics(font(), m_model.layout().rowHeight(), nodesGrouped());
}

void TimelineView::updateScrollBars()
{
  const QSize size = viewport()->size();
  const int gridWidth = std::max(0, size.width() - m_header.left());
  const int gridHeight = std::max(0, size.height() - m_header.top);
  const TimelineLayout& layout = m_model.layout();
  horizontalScrollBar()->setRange(0, std::max(0, layout.contentWidth() - gridWidth));
  horizontalScrollBar()->setPageStep(gridWidth);
  horizontalScrollBar()->setSingleStep(std::max(1, layout.columnPitch() / 2));
  verticalScrollBar()->setRange(0, std::max(0, layout.contentHeight() - gridHeight + 4));
  verticalScrollBar()->setPageStep(gridHeight);
  verticalScrollBar()->setSingleStep(std::max(1, layout.rowHeight()));
}

QPoint TimelineView::contentOrigin() const
{
  return QPoint(m_header.left() - horizontalScrollBar()->value(),
                m_header.top - verticalScrollBar()->value());
}

void TimelineView::ensureContentVisible(const QRect& content)
{
  const QSize size = viewport()->size();
  const int gridWidth = size.width() - m_header.left();
  const int gridHeight = size.height() - m_header.top;
  QScrollBar* h = horizontalScrollBar();
  QScrollBar* v = verticalScrollBar();
  const int margin = 8;
  if (content.left() - margin < h->value() || content.width() + 2 * margin > gridWidth)
    h->setValue(content.left() - margin);
  else if (content.right() + margin > h->value() + gridWidth)
    h->setValue(content.right() + margin - gridWidth);
  if (content.top() - margin < v->value() || content.height() + 2 * margin > gridHeight)
    v->setValue(content.top() - margin);
  else if (content.bottom() + margin > v->value() + gridHeight)
    v->setValue(content.bottom() + margin - gridHeight);
}

QRect TimelineView::cellRect(const ChunkRef& slot, int column)
{
  const int visual = m_model.layout().visualRowOf(m_model.states().rowOf(slot));
  if (visual < 0)
    return {};
  const QRect content = m_model.layout().cellRect(visual, column);
  ensureContentVisible(content);
  return content.translated(contentOrigin());
}

QPoint TimelineView::arrowPoint(int transferId)
{
  const std::optional<ArrowRoute> route = m_model.route(m_model.indexOf(transferId));
  if (!route)
    return {};
  const QPointF handle = route->handle();
  ensureContentVisible(QRect(handle.toPoint() - QPoint(2, 2), QSize(5, 5)));
  return handle.toPoint() + contentOrigin();
}

QRect TimelineView::headerRect(int column)
{
  const TimelineLayout& layout = m_model.layout();
  ensureContentVisible(
      QRect(layout.columnLeft(column), verticalScrollBar()->value() + 8, layout.cellWidth(), 1));
  return QRect(contentOrigin().x() + layout.columnLeft(column), 0, layout.cellWidth(),
               m_header.top);
}

void TimelineView::ensureTransferVisible(int transferId)
{
  const std::optional<ArrowRoute> route = m_model.route(m_model.indexOf(transferId));
  if (!route)
    return;
  // The whole arrow when it fits, else its source end.
  const QRect bounds = route->bounds().toAlignedRect();
  const int gridHeight = viewport()->height() - m_header.top;
  if (bounds.height() + 16 <= gridHeight)
    ensureContentVisible(bounds);
  else
    ensureContentVisible(QRect(bounds.left(), static_cast<int>(route->srcTop), bounds.width(),
                               static_cast<int>(route->srcBottom - route->srcTop)));
}

void TimelineView::showCell(const CellRef& cell)
{
  const int row = m_model.states().rowOf(cell.slot);
  if (row < 0 || cell.column < 0 || cell.column >= m_model.states().columnCount())
    return;
  m_cursorRow = row;
  m_cursorColumn = cell.column;
  m_cursorShown = true;
  m_pointer.reset();
  cellRect(cell.slot, cell.column); // scrolls it into view
}

std::pair<ChunkRef, int> TimelineView::cursor() const
{
  const std::vector<ChunkRow>& rows = m_model.states().rows();
  if (rows.empty())
    return {ChunkRef{}, m_cursorColumn};
  return {rows[static_cast<std::size_t>(m_cursorRow)].ref, m_cursorColumn};
}

int TimelineView::transferAt(const QPoint& pos) const
{
  return hitTest(pos).transfer;
}

QStringList TimelineView::problemsOf(int transferId) const
{
  QStringList lines;
  const Analysis& analysis = m_document->analysis();
  const auto found = analysis.problemsByTransfer.find(transferId);
  if (found == analysis.problemsByTransfer.end())
    return lines;
  for (const int index : found->second) {
    const Diagnostic& d = analysis.problems[static_cast<std::size_t>(index)].diagnostic;
    lines << QStringLiteral("%1: %2").arg(QString::fromStdString(d.code),
                                          QString::fromStdString(d.message));
  }
  return lines;
}

QString TimelineView::toolTipAt(const QPoint& pos) const
{
  if (!m_model.hasSchedule())
    return {};
  const Hit hit = hitTest(pos);
  if (hit.transfer >= 0) {
    const Transfer& t =
        m_model.schedule().transfers[static_cast<std::size_t>(m_model.indexOf(hit.transfer))];
    QString text = QStringLiteral("<b>transfer #%1</b>: %2 %3 → %4%5, step %6")
                       .arg(t.id)
                       .arg(QString::fromUtf8(transferOpName(t.op).data()))
                       .arg(refText(t.src), refText(t.dst))
                       .arg(t.count > 1 ? QStringLiteral(" (%1 chunks)").arg(t.count) : QString())
                       .arg(t.step);
    const QStringList problems = problemsOf(t.id);
    for (const QString& line : problems)
      text += QStringLiteral("<br><span style='color:%1'>%2</span>")
                  .arg(errorColor().name(), line.toHtmlEscaped());
    return text;
  }
  const int goalColumn = m_model.columnCount() - 1;
  if (hit.area == Hit::Area::StepHeader && hit.column >= 0 && hit.column <= goalColumn) {
    if (hit.column == 0)
      return tr("Before step 0: every input chunk holds its own rank's contribution");
    if (hit.column == goalColumn)
      return tr("Drop a transfer here to start step %1. Result rows show what they must hold "
                "and whether they do after the last step.")
          .arg(hit.column - 1);
    return tr("After step %1: %2 transfers. Click to select them; drag to select with a "
              "rubber band.")
        .arg(hit.column - 1)
        .arg(m_model.transfersOfStep(hit.column - 1).size());
  }
  if (hit.area == Hit::Area::RowHeader && hit.visualRow >= 0) {
    const TimelineLayout::Row& row =
        m_model.layout().rows()[static_cast<std::size_t>(hit.visualRow)];
    if (row.kind == TimelineLayout::Row::Kind::Node)
      return nodeToolTip(row);
    QString text = tr("Click the rank or buffer name to collapse or expand it");
    const ChunkStates& states = m_model.states();
    const ChunkRow& chunk = states.rows()[static_cast<std::size_t>(row.firstRow)];
    if (row.kind == TimelineLayout::Row::Kind::Chunk && chunk.sharesWith >= 0)
      text = tr("%1 is the same memory as %2 when called in place: both rows show one value.<br>%3")
                 .arg(refText(chunk.ref),
                      refText(states.rows()[static_cast<std::size_t>(chunk.sharesWith)].ref), text);
    return text;
  }
  if (hit.area != Hit::Area::Grid || hit.visualRow < 0 || !hit.inCell || hit.column < 0 ||
      hit.column >= goalColumn)
    return {};
  const TimelineLayout::Row& row = m_model.layout().rows()[static_cast<std::size_t>(hit.visualRow)];
  const ChunkStates& states = m_model.states();
  if (row.kind == TimelineLayout::Row::Kind::Node)
    return nodeToolTip(row);
  if (row.kind != TimelineLayout::Row::Kind::Chunk)
    return tr("rank %1, %2 chunks folded: click the name to expand")
        .arg(row.rank)
        .arg(row.rowCount);
  const ChunkRow& chunk = states.rows()[static_cast<std::size_t>(row.firstRow)];
  const QString when =
      hit.column == 0 ? tr("at the start") : tr("after step %1").arg(hit.column - 1);
  if (!states.computed(hit.column))
    return tr("<b>%1</b> %2: not computed, the schedule has too many steps and chunks to keep "
              "every state in memory")
        .arg(refText(chunk.ref), when);
  if (concealedRowAt(hit) >= 0)
    return tr("<b>%1</b> %2: hidden until predicted; click it to choose what it will hold")
        .arg(refText(chunk.ref), when);
  if (m_concealedStep && hit.column > *m_concealedStep + 1)
    return tr("<b>%1</b> %2: not shown until the step being predicted is revealed")
        .arg(refText(chunk.ref), when);
  QString text =
      QStringLiteral("<b>%1</b> %2<br>%3")
          .arg(refText(chunk.ref), when,
               QString::fromStdString(states.fullText(row.firstRow, hit.column)).toHtmlEscaped());
  if (chunk.result && hit.column == states.columnCount() - 1)
    text += chunk.resultCorrect ? tr("<br>result: correct")
                                : tr("<br>result: should be %1")
                                      .arg(QString::fromStdString(states.goalLabel(row.firstRow)));
  return text;
}

void TimelineView::setConcealedStep(std::optional<int> step)
{
  if (step == m_concealedStep)
    return;
  m_concealedStep = step;
  viewport()->update();
}

bool TimelineView::isConcealed(const ChunkRef& slot, int column) const
{
  const ChunkStates& states = m_model.states();
  const int row = states.rowOf(slot);
  return m_concealedStep && column == *m_concealedStep + 1 && row >= 0 && states.computed(column) &&
         states.changed(row, column);
}

int TimelineView::concealedRowAt(const Hit& hit) const
{
  if (!m_concealedStep || hit.area != Hit::Area::Grid || hit.visualRow < 0 || !hit.inCell ||
      hit.column != *m_concealedStep + 1)
    return -1;
  const TimelineLayout::Row& row = m_model.layout().rows()[static_cast<std::size_t>(hit.visualRow)];
  if (row.kind != TimelineLayout::Row::Kind::Chunk)
    return -1;
  const ChunkStates& states = m_model.states();
  const bool hidden = states.computed(hit.column) && states.changed(row.firstRow, hit.column);
  return hidden ? row.firstRow : -1;
}

void TimelineView::setZoom(double zoom)
{
  zoomBy(zoom / this->zoom(), QPoint(m_header.left(), m_header.top));
}

void TimelineView::zoomBy(double factor, const QPoint& anchor)
{
  TimelineLayout& layout = m_model.layout();
  const double before = layout.zoom();
  layout.setZoom(before * factor);
  if (layout.zoom() == before)
    return;
  // Keep the content point under the anchor where it is.
  const QPoint offset = anchor - QPoint(m_header.left(), m_header.top);
  const double fx = static_cast<double>(horizontalScrollBar()->value() + offset.x()) /
                    std::max(1, layout.contentWidth());
  const double fy = static_cast<double>(verticalScrollBar()->value() + offset.y()) /
                    std::max(1, layout.contentHeight());
  relayout();
  horizontalScrollBar()->setValue(static_cast<int>(std::lround(fx * layout.contentWidth())) -
                                  offset.x());
  verticalScrollBar()->setValue(static_cast<int>(std::lround(fy * layout.contentHeight())) -
                                offset.y());
  emit viewSettingsChanged();
}

void TimelineView::fitToWindow()
{
  const int ranks = m_model.hasSchedule() ? m_model.states().ranks() : 0;
  if (m_grouping == NodeGrouping::Automatic && m_fitGrouped) {
    // A larger window may fit the ranks again: try without the grouping the last fit chose.
    m_fitGrouped = false;
    applyNodeGrouping(ranks);
    relayout();
  }
  fitZoom();
  const TimelineLayout& layout = m_model.layout();
  const int height = maximumViewportSize().height() - m_header.top - 4;
  const bool unlabelled = !rowHeaderText(layout.rowHeight(), QFontMetrics(font()));
  if (m_grouping == NodeGrouping::Automatic && !nodesGrouped() && unlabelled &&
      layout.contentHeight() > height) {
    // Rows too low for their names and still scrolling: one row per node instead.
    m_fitGrouped = true;
    applyNodeGrouping(ranks);
    relayout();
    fitZoom();
  }
}

void TimelineView::fitZoom()
{
  // The viewport without scroll bars, less the slack updateScrollBars() leaves below the rows.
  const QSize room = maximumViewportSize();
  const int height = room.height() - m_header.top - 4;
  // Rows too low for their names drop the header's buffer and chunk columns (updateHeader):
  // fit with the header the fitted rows will have.
  const HeaderMetrics full = headerMetrics(font(), 1000, nodesGrouped());
  const HeaderMetrics narrow = headerMetrics(font(), 0, nodesGrouped());
  if (room.width() - full.left() <= 0 || height <= 0)
    return;
  const QFontMetrics metrics(font());
  const auto zoomFor = [&](int width) {
    const double withNames = fittingZoom(width - full.left(), height);
    const double withoutNames = fittingZoom(width - narrow.left(), height);
    TimelineLayout probe = m_model.layout();
    probe.setZoom(withNames);
    const bool named = rowHeaderText(probe.rowHeight(), metrics);
    probe.setZoom(withoutNames);
    return named || rowHeaderText(probe.rowHeight(), metrics) ? withNames : withoutNames;
  };
  double zoom = zoomFor(room.width());
  setZoom(zoom);
  if (m_model.layout().contentHeight() > height) {
    // The rows scroll: leave room for the vertical scroll bar.
    zoom = zoomFor(room.width() - style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this));
    setZoom(zoom);
  }
  horizontalScrollBar()->setValue(0);
  verticalScrollBar()->setValue(0);
}

double TimelineView::fittingZoom(int width, int height)
{
  // Metrics are rounded per zoom: scale, then step down until the rounded layout fits.
  TimelineLayout& layout = m_model.layout();
  const double start = layout.zoom();
  const auto shrink = [](double zoom) { return std::max(TimelineLayout::kMinZoom, zoom * 0.97); };
  double zoom = start * width / std::max(1, layout.contentWidth());
  layout.setZoom(zoom);
  while (layout.zoom() > TimelineLayout::kMinZoom && layout.contentWidth() > width)
    layout.setZoom(shrink(layout.zoom()));
  zoom = layout.zoom();
  m_model.relayout(m_collapse);
  if (layout.contentHeight() > height) {
    // Rows too, unless their labels would become unreadable: then the rows scroll.
    layout.setZoom(zoom * height / std::max(1, layout.contentHeight()));
    m_model.relayout(m_collapse);
    while (layout.zoom() > TimelineLayout::kMinZoom && layout.contentHeight() > height) {
      layout.setZoom(shrink(layout.zoom()));
      m_model.relayout(m_collapse);
    }
    // Back up to the smallest zoom with legible rows (never past the width's zoom).
    while (layout.rowHeight() < kMinFitRowHeight && layout.zoom() < zoom)
      layout.setZoom(std::min(zoom, layout.zoom() / 0.97));
    zoom = std::min(zoom, layout.zoom());
  }
  layout.setZoom(start);
  m_model.relayout(m_collapse);
  return zoom;
}

void TimelineView::setCompactRows(bool compact)
{
  if (compact == compactRows())
    return;
  m_model.layout().setCompactRows(compact);
  relayout();
  emit viewSettingsChanged();
}

void TimelineView::setRankCollapsed(int rank, bool collapsed)
{
  if (collapsed)
    m_collapse.ranks.insert(rank);
  else
    m_collapse.ranks.erase(rank);
  relayout();
}

void TimelineView::setBufferCollapsed(int rank, Buffer buffer, bool collapsed)
{
  if (collapsed)
    m_collapse.buffers.insert({rank, buffer});
  else
    m_collapse.buffers.erase({rank, buffer});
  relayout();
}

QString TimelineView::unavailableMessage() const
{
  if (m_model.hasSchedule())
    return {};
  // The first line is the title; the painter sets it apart.
  QString text = tr("This program cannot be shown on the timeline") + QLatin1Char('\n') +
                 tr("Its instructions could not be lifted to chunk transfers:");
  int shown = 0;
  for (const Problem& problem : m_document->analysis().problems) {
    if (problem.stage != ProblemStage::Lifting || shown == 8)
      continue;
    text += QStringLiteral("\n  • ") + QString::fromStdString(problem.diagnostic.code) +
            QStringLiteral(": ") + QString::fromStdString(problem.diagnostic.message);
    ++shown;
  }
  if (shown == 0)
    text += tr("\n  • see the Problems panel");
  text += QStringLiteral("\n\n") +
          tr("The Program view shows and edits the instructions as they are; fix them there and "
             "the timeline comes back.");
  return text;
}

TimelinePaintState TimelineView::paintState() const
{
  TimelinePaintState state;
  state.palette = palette();
  state.font = font();
  state.header = m_header;
  state.scroll = QPoint(horizontalScrollBar()->value(), verticalScrollBar()->value());
  state.viewport = viewport()->size();
  state.selected = m_document->selection().transfers;
  if (m_gesture == Gesture::RubberBand)
    state.selected.insert(m_bandSelection.begin(), m_bandSelection.end());
  state.hoverTransfer = m_hover;
  state.create = m_create;
  state.moveColumns = m_gesture == Gesture::MoveArrows ? m_moveColumns : 0;
  state.rubberBand = m_gesture == Gesture::RubberBand ? m_band.normalized() : QRect();
  const int cursorRow = m_model.layout().visualRowOf(m_cursorRow);
  if (m_cursorShown && cursorRow >= 0)
    state.cursor = std::pair(cursorRow, m_cursorColumn);
  // A cell a problem selected is shown like the cursor of a focused view (the Problems dock has
  // the focus then).
  state.focused = hasFocus() || m_document->selection().cell.has_value();
  state.labels = &m_labels;
  state.playback = m_playback ? &*m_playback : nullptr;
  state.concealedColumn = m_concealedStep ? *m_concealedStep + 1 : -1;
  if (!m_model.hasSchedule())
    state.emptyMessage = unavailableMessage();
  return state;
}

void TimelineView::paintEvent(QPaintEvent*)
{
  QPainter painter(viewport());
  paintTimeline(painter, m_model, paintState());
}

void TimelineView::resizeEvent(QResizeEvent* event)
{
  QAbstractScrollArea::resizeEvent(event);
  updateScrollBars();
}

void TimelineView::scrollContentsBy(int, int)
{
  viewport()->update();
}

void TimelineView::changeEvent(QEvent* event)
{
  if (event->type() == QEvent::FontChange) {
    updateHeader();
    updateScrollBars();
  }
  QAbstractScrollArea::changeEvent(event);
}

} // namespace cs::editor
