#include "scrubbar.h"

#include "session/replaysession.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace cs::visualizer {

namespace {

constexpr int kMargin = 10;
constexpr int kTrackTop = 4;
constexpr int kTrackHeight = 10;
constexpr int kMinLabelSpacing = 70;

} // namespace

double niceStep(double minimum)
{
  if (minimum <= 0)
    return 1;
  const double power = std::pow(10.0, std::floor(std::log10(minimum)));
  for (const double factor : {1.0, 2.0, 5.0, 10.0}) {
    if (factor * power >= minimum)
      return factor * power;
  }
  return 10 * power;
}

ScrubBar::ScrubBar(ReplaySession* session, QWidget* parent) : QWidget(parent), m_session(session)
{
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  setCursor(Qt::PointingHandCursor);
  setToolTip(tr("Drag to move the cursor; ticks mark where each algorithm step starts"));
  connect(session, &ReplaySession::cursorChanged, this, qOverload<>(&QWidget::update));
}

QSize ScrubBar::sizeHint() const
{
  return {400, kTrackTop + kTrackHeight + fontMetrics().height() + 6};
}

QSize ScrubBar::minimumSizeHint() const
{
  return {120, sizeHint().height()};
}

QRect ScrubBar::track() const
{
  return {kMargin, kTrackTop, std::max(1, width() - 2 * kMargin), kTrackHeight};
}

double ScrubBar::timeAt(int x) const
{
  const QRect t = track();
  const double fraction = std::clamp(double(x - t.left()) / t.width(), 0.0, 1.0);
  return m_session->startUs() + fraction * (m_session->endUs() - m_session->startUs());
}

double ScrubBar::xOf(double timeUs) const
{
  const QRect t = track();
  const double span = std::max(1e-9, m_session->endUs() - m_session->startUs());
  return t.left() + (timeUs - m_session->startUs()) / span * t.width();
}

void ScrubBar::paintAxis(QPainter& painter, const QRect& t) const
{
  const double span = m_session->endUs() - m_session->startUs();
  if (span <= 0)
    return;
  const double step = niceStep(span * kMinLabelSpacing / t.width());
  painter.setPen(palette().color(QPalette::PlaceholderText));
  const int baseline = t.bottom() + 3 + fontMetrics().ascent();
  for (double at = 0; at <= span + 1e-9; at += step) {
    const int x = qRound(xOf(at));
    painter.drawLine(x, t.bottom() + 1, x, t.bottom() + 3);
    const QString label = QStringLiteral("%1 µs").arg(at, 0, 'g', 4);
    const int w = fontMetrics().horizontalAdvance(label);
    painter.drawText(std::clamp(x - w / 2, 0, width() - w), baseline, label);
  }
}

void ScrubBar::setMarks(std::vector<double> timesUs)
{
  m_marks = std::move(timesUs);
  update();
}

void ScrubBar::paintEvent(QPaintEvent*)
{
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  const QRect t = track();
  painter.setPen(palette().color(QPalette::Mid));
  painter.setBrush(palette().color(QPalette::Base));
  painter.drawRoundedRect(t, 3, 3);
  const double cursorX = xOf(m_session->cursorUs());
  painter.setPen(Qt::NoPen);
  painter.setBrush(palette().color(QPalette::Highlight).lighter(140));
  painter.drawRoundedRect(QRectF(t.left(), t.top(), cursorX - t.left(), t.height()), 3, 3);
  painter.setPen(palette().color(QPalette::Dark));
  for (const double start : m_session->stepStarts()) {
    const double x = xOf(start);
    painter.drawLine(QPointF(x, t.top() + 1), QPointF(x, t.bottom()));
  }
  paintAxis(painter, t);
  painter.setPen(Qt::NoPen);
  painter.setBrush(QColor(0xd0, 0x2b, 0x2b)); // breakpoints, as a debugger's red dots
  for (const double mark : m_marks)
    painter.drawEllipse(QPointF(xOf(mark), t.center().y() + 0.5), 3, 3);
  painter.setPen(QPen(palette().color(QPalette::Highlight).darker(130), 1));
  painter.setBrush(palette().color(QPalette::Highlight));
  painter.drawRoundedRect(QRectF(cursorX - 4, t.top() - 3, 8, t.height() + 6), 2, 2);
}

void ScrubBar::mousePressEvent(QMouseEvent* event)
{
  if (event->button() == Qt::LeftButton)
    m_session->setCursor(timeAt(qRound(event->position().x())));
}

void ScrubBar::mouseMoveEvent(QMouseEvent* event)
{
  if (event->buttons() & Qt::LeftButton)
    m_session->setCursor(timeAt(qRound(event->position().x())));
}

} // namespace cs::visualizer
