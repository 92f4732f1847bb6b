#include "bufferview.h"

#include "model/buffergeometry.h"
#include "session/replaysession.h"
#include "style/rankpalette.h"

#include <QHelpEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace cs::visualizer {

namespace {

constexpr int kRowHeight = 20;
constexpr int kRankGap = 6;
constexpr int kTop = 4;
constexpr int kDetailLines = 8; ///< wrong chunks listed below the ranks

} // namespace

BufferView::BufferView(ReplaySession* session, QWidget* parent)
    : QWidget(parent), m_session(session), m_rows(shownBuffers(*session))
{
  m_cellWidth = fontMetrics().horizontalAdvance(QStringLiteral("Σ01234567")) + 8;
  QFont bold = font();
  bold.setBold(true);
  m_left = QFontMetrics(bold).horizontalAdvance(QStringLiteral("rank 000")) + 24;
  setBackgroundRole(QPalette::Base);
  setAutoFillBackground(true);
  indexWrongChunks();
  m_top = kTop + (verificationText().isEmpty() ? 0 : kRowHeight + 2);
  connect(session, &ReplaySession::cursorChanged, this, qOverload<>(&QWidget::update));
}

BufferView::SlotKey BufferView::slotOf(int rank, Buffer buffer, int chunk) const
{
  const MemorySlot slot =
      memorySlot(m_session->program(), rank, buffer, chunk, m_session->buffers().mode());
  return {rank, static_cast<int>(slot.memory), slot.index};
}

void BufferView::indexWrongChunks()
{
  const std::optional<TraceVerification>& verification = m_session->trace().verification;
  if (!verification)
    return;
  const replay::BufferReplay& buffers = m_session->buffers();
  const double end = m_session->endUs();
  for (const WrongChunk& wrong : verification->wrongChunks) {
    if (wrong.rank < 0 || wrong.rank >= m_session->program().ngpus || wrong.chunk < 0 ||
        wrong.chunk >= buffers.chunks(wrong.rank, wrong.buffer))
      continue; // a trace of another shape: nothing to mark
    const SlotKey key = slotOf(wrong.rank, wrong.buffer, wrong.chunk);
    m_wrong.emplace(key, &wrong);
    m_finalWrite[key] = buffers.changedAt(wrong.rank, wrong.buffer, wrong.chunk, end);
  }
}

const WrongChunk* BufferView::wrongAt(int rank, Buffer buffer, int chunk) const
{
  if (m_wrong.empty())
    return nullptr;
  const SlotKey key = slotOf(rank, buffer, chunk);
  const auto found = m_wrong.find(key);
  if (found == m_wrong.end() || m_session->cursorUs() < m_finalWrite.at(key))
    return nullptr;
  return found->second;
}

QString BufferView::describeWrong(const WrongChunk& wrong)
{
  return tr("expected %1 actual %2 at element %3")
      .arg(wrong.expected)
      .arg(wrong.actual)
      .arg(wrong.element);
}

QString BufferView::verificationText() const
{
  const std::optional<TraceVerification>& verification = m_session->trace().verification;
  if (!verification || verification->wrongChunkCount == 0)
    return {};
  return tr("Verification failed: %1 of %2 elements wrong in %3 chunks (red)")
      .arg(verification->wrongElements)
      .arg(verification->checked)
      .arg(verification->wrongChunkCount);
}

std::vector<Buffer> BufferView::shownBuffers(const ReplaySession& session)
{
  std::vector<Buffer> shown{Buffer::Input, Buffer::Output};
  for (int rank = 0; rank < session.program().ngpus; ++rank) {
    if (session.buffers().chunks(rank, Buffer::Scratch) > 0) {
      shown.push_back(Buffer::Scratch);
      break;
    }
  }
  return shown;
}

int BufferView::maxChunks() const
{
  int most = 1;
  for (int rank = 0; rank < m_session->program().ngpus; ++rank) {
    for (const Buffer buffer : rows())
      most = std::max(most, m_session->buffers().chunks(rank, buffer));
  }
  return most;
}

int BufferView::ranksBottom() const
{
  const int rankHeight = static_cast<int>(rows().size()) * kRowHeight + kRankGap;
  return m_top + m_session->program().ngpus * rankHeight;
}

QSize BufferView::sizeHint() const
{
  int width = std::max(m_left + maxChunks() * m_cellWidth,
                       fontMetrics().horizontalAdvance(verificationText()));
  const QStringList details = wrongDetails();
  for (const QString& line : details)
    width = std::max(width, fontMetrics().horizontalAdvance(line) + 8);
  return {width + 8, ranksBottom() + static_cast<int>(details.size()) * kRowHeight + 4};
}

QStringList BufferView::wrongDetails() const
{
  const std::optional<TraceVerification>& verification = m_session->trace().verification;
  if (!verification || verification->wrongChunkCount == 0)
    return {};
  QStringList lines;
  for (const WrongChunk& wrong : verification->wrongChunks) {
    if (lines.size() == kDetailLines)
      break;
    lines << tr("rank %1 %2[%3]: %4")
                 .arg(wrong.rank)
                 .arg(QLatin1Char(bufferLetter(wrong.buffer)))
                 .arg(wrong.chunk)
                 .arg(describeWrong(wrong));
  }
  if (verification->wrongChunkCount > lines.size())
    lines << tr("… and %1 more (hover a red chunk)")
                 .arg(verification->wrongChunkCount - lines.size());
  return lines;
}

QRect BufferView::cellRect(int rank, Buffer buffer, int chunk) const
{
  const std::vector<Buffer>& shown = rows();
  const int row = static_cast<int>(std::find(shown.begin(), shown.end(), buffer) - shown.begin());
  const int rankHeight = static_cast<int>(shown.size()) * kRowHeight + kRankGap;
  return {m_left + chunk * m_cellWidth, m_top + rank * rankHeight + row * kRowHeight, m_cellWidth,
          kRowHeight};
}

bool BufferView::cellAt(const QPoint& pos, int& rank, Buffer& buffer, int& chunk) const
{
  for (int r = 0; r < m_session->program().ngpus; ++r) {
    for (const Buffer b : rows()) {
      const int chunks = m_session->buffers().chunks(r, b);
      const QRect first = cellRect(r, b, 0);
      if (pos.y() < first.top() || pos.y() > first.bottom() || pos.x() < first.left())
        continue;
      const int k = (pos.x() - first.left()) / m_cellWidth;
      if (k >= chunks)
        return false;
      rank = r;
      buffer = b;
      chunk = k;
      return true;
    }
  }
  return false;
}

QString BufferView::cellText(int rank, Buffer buffer, int chunk) const
{
  const replay::BufferReplay& buffers = m_session->buffers();
  const ValueId value = buffers.valueAt(rank, buffer, chunk, m_session->cursorUs());
  if (value == kUninitialised)
    return QStringLiteral("·");
  const std::vector<int> ranks = buffers.contributingRanks(value);
  if (ranks.size() == 1)
    return QStringLiteral("r%1").arg(ranks.front());
  QString text = QStringLiteral("Σ");
  for (const int r : ranks)
    text += QString::number(r);
  return text;
}

bool BufferView::cellChanged(int rank, Buffer buffer, int chunk) const
{
  const double cursor = m_session->cursorUs();
  const double changed = m_session->buffers().changedAt(rank, buffer, chunk, cursor);
  if (changed < 0 || cursor <= 0)
    return false;
  const std::vector<double>& starts = m_session->stepStarts();
  const auto step = std::upper_bound(starts.begin(), starts.end(), cursor);
  const double stepStart = step == starts.begin() ? 0 : *std::prev(step);
  return changed >= stepStart;
}

void BufferView::paintCell(QPainter& painter, int rank, Buffer buffer, int chunk) const
{
  const QRect cell = cellRect(rank, buffer, chunk).adjusted(1, 1, -1, -1);
  const replay::BufferReplay& buffers = m_session->buffers();
  const ValueId value = buffers.valueAt(rank, buffer, chunk, m_session->cursorUs());
  const std::vector<int> ranks = buffers.contributingRanks(value);
  const bool dark = editor::isDark(palette());
  if (ranks.size() == 1) {
    painter.fillRect(cell, editor::rankFill(ranks.front(), dark));
  } else {
    painter.fillRect(cell, palette().color(QPalette::AlternateBase));
    // One band per contributing rank along the bottom: which inputs the sum holds.
    const double band = double(cell.width()) / std::max<std::size_t>(1, ranks.size());
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      painter.fillRect(QRectF(cell.left() + i * band, cell.bottom() - 3, band, 4),
                       editor::rankColor(ranks[i]));
    }
  }
  const bool wrong = wrongAt(rank, buffer, chunk) != nullptr;
  if (wrong) {
    QColor tint = editor::errorColor();
    tint.setAlpha(dark ? 110 : 70);
    painter.fillRect(cell, tint);
  }
  const bool changed = cellChanged(rank, buffer, chunk);
  painter.setPen(wrong     ? QPen(editor::errorColor(), 2)
                 : changed ? QPen(QColor(0xe6, 0x8a, 0x00), 2)
                           : QPen(palette().color(QPalette::Midlight), 1));
  painter.setBrush(Qt::NoBrush);
  painter.drawRect(changed || wrong ? cell.adjusted(1, 1, -1, -1) : cell);
  painter.setPen(value == kUninitialised ? palette().color(QPalette::PlaceholderText)
                                         : palette().color(QPalette::Text));
  m_labels.paint(painter, cell.adjusted(0, 0, 0, -2), cellText(rank, buffer, chunk), true);
}

void BufferView::paintEvent(QPaintEvent* event)
{
  QPainter painter(this);
  if (const QString line = verificationText(); !line.isEmpty()) {
    painter.setPen(editor::errorColor());
    painter.drawText(QRect(4, kTop, width() - 8, kRowHeight), Qt::AlignVCenter | Qt::AlignLeft,
                     line);
    int y = ranksBottom();
    for (const QString& detail : wrongDetails()) {
      painter.drawText(QRect(12, y, width() - 16, kRowHeight), Qt::AlignVCenter | Qt::AlignLeft,
                       detail);
      y += kRowHeight;
    }
  }
  const std::vector<Buffer>& shown = rows();
  for (int rank = 0; rank < m_session->program().ngpus; ++rank) {
    const QRect first = cellRect(rank, shown.front(), 0);
    const QRect last = cellRect(rank, shown.back(), 0);
    if (last.bottom() < event->rect().top() || first.top() > event->rect().bottom())
      continue; // scrolled out of view: 64 ranks of 64 chunks are more than a frame can shape
    painter.setPen(editor::rankColor(rank));
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.drawText(QRect(4, first.top(), m_left - 20, kRowHeight), Qt::AlignVCenter,
                     tr("rank %1").arg(rank));
    painter.setFont(font());
    for (const Buffer buffer : shown) {
      const QRect row = cellRect(rank, buffer, 0);
      painter.setPen(palette().color(QPalette::PlaceholderText));
      painter.drawText(QRect(m_left - 14, row.top(), 12, kRowHeight), Qt::AlignCenter,
                       QString(QLatin1Char(bufferLetter(buffer))));
      for (int k = 0; k < m_session->buffers().chunks(rank, buffer); ++k)
        paintCell(painter, rank, buffer, k);
    }
  }
}

QString BufferView::toolTipAt(const QPoint& pos) const
{
  int rank = 0;
  Buffer buffer = Buffer::Input;
  int chunk = 0;
  if (!cellAt(pos, rank, buffer, chunk))
    return {};
  const replay::BufferReplay& buffers = m_session->buffers();
  const double cursor = m_session->cursorUs();
  const ValueId value = buffers.valueAt(rank, buffer, chunk, cursor);
  QString text = tr("rank %1 · %2[%3]: %4")
                     .arg(rank)
                     .arg(QLatin1Char(bufferLetter(buffer)))
                     .arg(chunk)
                     .arg(QString::fromStdString(buffers.format(value)));
  const double changed = buffers.changedAt(rank, buffer, chunk, cursor);
  if (changed >= 0)
    text += tr("\nlast written at %1 µs").arg(changed, 0, 'f', 2);
  if (const WrongChunk* wrong = wrongAt(rank, buffer, chunk))
    text += tr("\nwrong (verification): %1").arg(describeWrong(*wrong));
  return text;
}

bool BufferView::event(QEvent* event)
{
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const QString text = toolTipAt(help->pos());
    if (text.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(help->globalPos(), text, this);
    return true;
  }
  return QWidget::event(event);
}

} // namespace cs::visualizer
