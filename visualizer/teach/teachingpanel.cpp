#include "teachingpanel.h"

#include "session/replaysession.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QVariantAnimation>

namespace cs::visualizer {

namespace {

// Long enough to follow a token across a link, short enough not to make a lecture wait.
constexpr int kStepAnimationMs = 900;

} // namespace

TeachingPanel::TeachingPanel(QWidget* parent) : QWidget(parent)
{
  setFocusPolicy(Qt::StrongFocus);
  auto* layout = new QVBoxLayout(this);
  // Rich text rather than a bold font of its own: the title then follows the panel's font, which
  // presentation mode enlarges.
  m_title = new QLabel(this);
  m_title->setWordWrap(true);
  m_title->setTextFormat(Qt::RichText);
  layout->addWidget(m_title);

  auto* controls = new QHBoxLayout;
  m_previous = new QPushButton(tr("◀ Previous"), this);
  m_previous->setToolTip(tr("Back one step (←, Page Up)"));
  m_next = new QPushButton(tr("Next ▶"), this);
  m_next->setToolTip(tr("Run the next step (→, Page Down, Space)"));
  m_stepLabel = new QLabel(this);
  m_stepLabel->setAlignment(Qt::AlignCenter);
  controls->addWidget(m_previous);
  controls->addWidget(m_stepLabel, 1);
  controls->addWidget(m_next);
  layout->addLayout(controls);

  // The step controls stay above the tabs: every tab (narration, predict, break it) is about the
  // step they show.
  m_tabs = new QTabWidget(this);
  m_tabs->setObjectName(QStringLiteral("teachingTabs"));
  m_tabs->setFocusPolicy(Qt::NoFocus);
  auto* narrationPage = new QWidget(m_tabs);
  auto* narrationLayout = new QVBoxLayout(narrationPage);
  narrationLayout->setContentsMargins(0, 0, 0, 0);
  m_narration = new QTextBrowser(narrationPage);
  m_narration->setOpenLinks(false);
  m_narration->setFocusPolicy(Qt::NoFocus);
  narrationLayout->addWidget(m_narration, 1);
  m_tabs->addTab(narrationPage, tr("Narration"));
  // The cost is read once, the narration at every step: it gets a tab of its own.
  m_cost = new QLabel(m_tabs);
  m_cost->setWordWrap(true);
  m_cost->setTextFormat(Qt::RichText);
  m_cost->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  m_cost->setMargin(6);
  m_cost->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_tabs->addTab(m_cost, tr("Cost"));
  layout->addWidget(m_tabs, 1);

  m_animation = new QVariantAnimation(this);
  m_animation->setDuration(kStepAnimationMs);
  m_animation->setEasingCurve(QEasingCurve::InOutSine);
  connect(m_animation, &QVariantAnimation::valueChanged, this, [this](const QVariant& value) {
    if (m_session)
      m_session->setCursor(value.toDouble());
  });
  connect(m_previous, &QPushButton::clicked, this, &TeachingPanel::previous);
  connect(m_next, &QPushButton::clicked, this, &TeachingPanel::next);
  updateControls();
}

void TeachingPanel::setRun(ReplaySession* session, std::vector<double> stepEnds)
{
  m_animation->stop();
  m_session = session;
  m_stepEnds = std::move(stepEnds);
  m_position = 0;
  if (m_session)
    m_session->setCursor(cursorAt(0));
  updateControls();
  showNarration();
  emit positionChanged(m_position);
}

void TeachingPanel::setText(TeachingText text)
{
  m_text = std::move(text);
  m_title->setText(QStringLiteral("<b>%1</b>").arg(m_text.title.toHtmlEscaped()));
  m_cost->setText(m_text.costHtml.isEmpty() ? tr("No cost for this algorithm.") : m_text.costHtml);
  showNarration();
}

void TeachingPanel::setUnavailable(const QString& reason)
{
  setRun(nullptr, {});
  m_narration->setPlainText(reason);
}

double TeachingPanel::cursorAt(int position) const
{
  return position <= 0 || m_stepEnds.empty() ? 0.0 : m_stepEnds[position - 1];
}

void TeachingPanel::goTo(int position, bool animate)
{
  position = std::clamp(position, 0, positionCount() - 1);
  const int from = m_position;
  m_position = position;
  m_animation->stop();
  if (m_session) {
    // Forward by one step plays the step; anything else jumps, as a slide change does.
    if (animate && position == from + 1) {
      m_animation->setStartValue(cursorAt(from));
      m_animation->setEndValue(cursorAt(position));
      m_animation->start();
    } else {
      m_session->setCursor(cursorAt(position));
    }
  }
  updateControls();
  showNarration();
  emit positionChanged(m_position);
}

void TeachingPanel::finishAnimation()
{
  if (m_animation->state() != QAbstractAnimation::Running)
    return;
  m_animation->stop();
  if (m_session)
    m_session->setCursor(cursorAt(m_position));
}

void TeachingPanel::next()
{
  finishAnimation();
  goTo(m_position + 1);
}

void TeachingPanel::previous()
{
  goTo(m_position - 1, false);
}

void TeachingPanel::keyPressEvent(QKeyEvent* event)
{
  switch (event->key()) {
  case Qt::Key_Right:
  case Qt::Key_PageDown:
  case Qt::Key_Space:
    next();
    return;
  case Qt::Key_Left:
  case Qt::Key_PageUp:
    previous();
    return;
  case Qt::Key_Home:
    goTo(0, false);
    return;
  case Qt::Key_End:
    goTo(positionCount() - 1, false);
    return;
  default:
    QWidget::keyPressEvent(event);
  }
}

void TeachingPanel::updateControls()
{
  const int last = positionCount() - 1;
  m_previous->setEnabled(m_session && m_position > 0);
  m_next->setEnabled(m_session && m_position < last);
  // Steps are numbered from 0 as on the timeline's header; "k of n" counts them from 1.
  m_stepLabel->setText(
      !m_session ? QString()
      : m_position == 0
          ? tr("Start: %1 steps to go").arg(last)
          : tr("After step %1 (%2 of %3)").arg(m_position - 1).arg(m_position).arg(last));
}

void TeachingPanel::showNarration()
{
  if (!m_session)
    return;
  QString html;
  if (m_position == 0) {
    html = QStringLiteral("<p><b>%1</b></p><p>%2</p>")
               .arg(tr("Before the first step"), m_text.start.toHtmlEscaped());
  } else {
    const std::size_t step = static_cast<std::size_t>(m_position - 1);
    html = QStringLiteral("<p><b>%1</b></p>").arg(tr("Step %1").arg(m_position - 1));
    if (step < m_text.steps.size()) {
      for (const QString& sentence : m_text.steps[step])
        html += QStringLiteral("<p>%1</p>").arg(sentence.toHtmlEscaped());
    }
  }
  m_narration->setHtml(html);
}

QString TeachingPanel::narrationText() const
{
  return m_narration->toPlainText();
}

} // namespace cs::visualizer
