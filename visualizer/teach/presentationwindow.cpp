#include "presentationwindow.h"

#include "pointerhighlight.h"
#include "teachingview.h"

#include "document/document.h"
#include "timeline/timelinepainter.h"
#include "timeline/timelineview.h"

#include <QApplication>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QMouseEvent>
#include <QShortcut>
#include <QSplitter>
#include <QTimer>

#include <algorithm>

namespace cs::visualizer {

QPalette PresentationWindow::highContrastPalette(bool dark)
{
  // Pure black on white, or white on black; the accents are dark blue / amber, both far from
  // the background (contrast above 7:1), so projectors that wash out mid-tones still show them.
  const QColor background = dark ? QColor(0, 0, 0) : QColor(255, 255, 255);
  const QColor text = dark ? QColor(255, 255, 255) : QColor(0, 0, 0);
  const QColor panel = dark ? QColor(24, 24, 24) : QColor(242, 242, 242);
  const QColor accent = dark ? QColor(255, 200, 40) : QColor(0, 40, 150);
  QPalette palette;
  palette.setColor(QPalette::Window, background);
  palette.setColor(QPalette::Base, background);
  palette.setColor(QPalette::AlternateBase, panel);
  palette.setColor(QPalette::Button, panel);
  for (const QPalette::ColorRole role :
       {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::BrightText})
    palette.setColor(role, text);
  palette.setColor(QPalette::PlaceholderText, dark ? QColor(200, 200, 200) : QColor(60, 60, 60));
  palette.setColor(QPalette::Highlight, accent);
  palette.setColor(QPalette::HighlightedText, background);
  palette.setColor(QPalette::Link, accent);
  palette.setColor(QPalette::Mid, dark ? QColor(150, 150, 150) : QColor(100, 100, 100));
  // setColor above fills every group, so a disabled button would look enabled: disabled text is
  // a grey halfway to the background (still above 3:1, readable on a projector, but plainly
  // dimmer), and disabled buttons lose their panel fill.
  const QColor disabledText = dark ? QColor(125, 125, 125) : QColor(120, 120, 120);
  for (const QPalette::ColorRole role :
       {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::PlaceholderText})
    palette.setColor(QPalette::Disabled, role, disabledText);
  palette.setColor(QPalette::Disabled, QPalette::Button, background);
  palette.setColor(QPalette::Disabled, QPalette::Highlight, palette.color(QPalette::Mid));
  return palette;
}

PresentationWindow::PresentationWindow(TeachingView* view, editor::Document* document, bool dark,
                                       QWidget* parent)
    : QWidget(parent, Qt::Window), m_view(view), m_viewHome(view->parentWidget())
{
  setAttribute(Qt::WA_DeleteOnClose);
  setWindowTitle(tr("Presentation — %1").arg(document->displayName()));
  QFont large = font();
  large.setPointSizeF(large.pointSizeF() * kFontScale);
  setFont(large);

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 8);
  // The timeline gets the full width below: its headers alone take a third of a narrow column
  // at presentation type sizes.
  auto* splitter = new QSplitter(Qt::Vertical, this);
  view->setParent(splitter);
  view->setSideBySide(true);
  splitter->addWidget(view);
  m_timeline = new editor::TimelineView(document, splitter);
  // Keys belong to the steps here: the timeline must not take the arrows for its cursor.
  m_timeline->setFocusPolicy(Qt::NoFocus);
  splitter->addWidget(m_timeline);
  splitter->setStretchFactor(0, 2);
  splitter->setStretchFactor(1, 3);
  layout->addWidget(splitter);
  view->show();
  view->setSecondTimeline(m_timeline);

  m_pointer = new PointerHighlight(this);
  m_pointer->setGeometry(rect());
  setDark(dark);

  const auto bind = [this](QKeySequence key, auto slot) {
    auto* shortcut = new QShortcut(key, this);
    connect(shortcut, &QShortcut::activated, this, slot);
  };
  TeachingPanel* panel = view->panel();
  for (const Qt::Key key : {Qt::Key_Right, Qt::Key_PageDown, Qt::Key_Space})
    bind(QKeySequence(key), [panel] { panel->next(); });
  for (const Qt::Key key : {Qt::Key_Left, Qt::Key_PageUp})
    bind(QKeySequence(key), [panel] { panel->previous(); });
  bind(QKeySequence(Qt::Key_Home), [panel] { panel->goTo(0, false); });
  bind(QKeySequence(Qt::Key_End), [panel] { panel->goTo(panel->positionCount() - 1, false); });
  bind(QKeySequence(Qt::Key_Escape), [this] { close(); });
  bind(QKeySequence(Qt::Key_D), [this] { setDark(!m_dark); });
  qApp->installEventFilter(this);
}

PresentationWindow::~PresentationWindow()
{
  giveBack();
}

void PresentationWindow::closeEvent(QCloseEvent* event)
{
  // At once, not when the deferred delete comes: the dock must not stand empty meanwhile.
  giveBack();
  QWidget::closeEvent(event);
}

void PresentationWindow::setDark(bool dark)
{
  m_dark = dark;
  setPalette(highContrastPalette(dark));
  setAutoFillBackground(true);
}

void PresentationWindow::giveBack()
{
  qApp->removeEventFilter(this);
  if (!m_view)
    return;
  m_view->setSecondTimeline(nullptr);
  m_view->setSideBySide(false);
  if (auto* dock = qobject_cast<QDockWidget*>(m_viewHome.data()))
    dock->setWidget(m_view);
  else
    m_view->setParent(m_viewHome);
  // The view inherits its palette and font again from where it lives.
  m_view->show();
  m_view = nullptr;
}

bool PresentationWindow::eventFilter(QObject* watched, QEvent* event)
{
  if (event->type() == QEvent::MouseButtonPress) {
    auto* widget = qobject_cast<QWidget*>(watched);
    if (widget && (widget == this || isAncestorOf(widget))) {
      const auto* mouse = static_cast<QMouseEvent*>(event);
      m_pointer->pointAt(mapFromGlobal(mouse->globalPosition().toPoint()));
    }
  }
  return QWidget::eventFilter(watched, event);
}

void PresentationWindow::resizeEvent(QResizeEvent* event)
{
  QWidget::resizeEvent(event);
  m_pointer->setGeometry(rect());
  m_pointer->raise();
  // After the splitter has laid the timeline out at the new size.
  QTimer::singleShot(0, this, &PresentationWindow::fitTimeline);
}

void PresentationWindow::fitTimeline()
{
  // The whole algorithm in view, as large as fits: a room cannot scroll.
  const editor::HeaderMetrics header = editor::headerMetrics(m_timeline->font());
  const editor::TimelineLayout& layout = m_timeline->model().layout();
  const int width = m_timeline->viewport()->width() - header.left();
  const int height = m_timeline->viewport()->height() - header.top;
  if (width <= 0 || height <= 0 || layout.contentWidth() <= 0 || layout.contentHeight() <= 0)
    return;
  const double scale = std::min(static_cast<double>(width) / layout.contentWidth(),
                                static_cast<double>(height) / layout.contentHeight());
  m_timeline->setZoom(m_timeline->zoom() * scale);
}

} // namespace cs::visualizer
