// Presentation mode (issue 19 item 3): teaching mode in a window of its own with only the
// topology, the timeline and the narration, in large type and a high-contrast palette (light or
// dark), driven by a presenter's keys, with a pointer where the presenter clicks; closing it gives
// the Teaching dock its view back.

#include "support/isolatedwindow.h"
#include "teach/pointerhighlight.h"
#include "teach/presentationwindow.h"
#include "teach/teachingview.h"
#include "timeline/timelineview.h"

#include <QDockWidget>
#include <QTest>

using namespace cs;
using namespace cs::editor;
using namespace cs::visualizer;

namespace {

double luminance(const QColor& colour)
{
  const auto channel = [](double c) {
    c /= 255.0;
    return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * channel(colour.red()) + 0.7152 * channel(colour.green()) +
         0.0722 * channel(colour.blue());
}

/// WCAG's contrast ratio, 1 (none) to 21 (black on white).
double contrast(const QColor& a, const QColor& b)
{
  const double la = luminance(a);
  const double lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

} // namespace

class TestPresentation : public QObject
{
  Q_OBJECT

private slots:
  void palettesAreHighContrast();
  void borrowsTheTeachingViewAndGivesItBack();
  void presenterKeysStepAndPointerFollowsClicks();
  void screenshotsInBothPalettes();
};

void TestPresentation::palettesAreHighContrast()
{
  for (const bool dark : {false, true}) {
    const QPalette palette = PresentationWindow::highContrastPalette(dark);
    const std::pair<QPalette::ColorRole, QPalette::ColorRole> pairs[] = {
        {QPalette::WindowText, QPalette::Window},
        {QPalette::Text, QPalette::Base},
        {QPalette::ButtonText, QPalette::Button},
        {QPalette::HighlightedText, QPalette::Highlight},
        {QPalette::Highlight, QPalette::Base}};
    for (const auto& [text, background] : pairs) {
      const double ratio = contrast(palette.color(text), palette.color(background));
      QVERIFY2(ratio >= 7.0, qPrintable(QString("%1 palette, roles %2/%3: %4:1")
                                            .arg(dark ? "dark" : "light")
                                            .arg(text)
                                            .arg(background)
                                            .arg(ratio)));
    }
    QCOMPARE(palette.color(QPalette::Window).lightness() < 128, dark);
    // A disabled control must look disabled: its text plainly dimmer than enabled text, yet
    // still readable on the background.
    for (const auto& [text, background] : pairs) {
      if (text == QPalette::HighlightedText || text == QPalette::Highlight)
        continue;
      const QColor active = palette.color(QPalette::Active, text);
      const QColor disabled = palette.color(QPalette::Disabled, text);
      const double apart = contrast(active, disabled);
      const double readable = contrast(disabled, palette.color(QPalette::Disabled, background));
      QVERIFY2(apart >= 2.0 && readable >= 3.0,
               qPrintable(QString("%1 palette, role %2: disabled %3 is %4:1 from active %5 and "
                                  "%6:1 on its background")
                              .arg(dark ? "dark" : "light")
                              .arg(text)
                              .arg(disabled.name(), QString::number(apart), active.name(),
                                   QString::number(readable))));
    }
  }
}

void TestPresentation::borrowsTheTeachingViewAndGivesItBack()
{
  QTemporaryDir dir;
  auto window = test::openIsolatedRingWindow(dir, "tst_presentation");
  QVERIFY(window);
  QVERIFY(!window->teachingView());
  PresentationWindow* presentation = window->createPresentation(false);
  TeachingView* view = window->teachingView();
  QVERIFY(view); // turned teaching mode on
  QVERIFY(presentation->isAncestorOf(view));
  QVERIFY(presentation->font().pointSizeF() >
          window->font().pointSizeF() * (PresentationWindow::kFontScale - 0.1));
  QCOMPARE(presentation->timeline()->focusPolicy(), Qt::NoFocus);
  presentation->close(); // deletes itself
  QCoreApplication::processEvents();
  QVERIFY(window->teachingView() == view);
  auto* dock = window->findChild<QDockWidget*>("teachingDock");
  QVERIFY(dock);
  QCOMPARE(dock->widget(), view);
  QVERIFY(view->session());
}

void TestPresentation::presenterKeysStepAndPointerFollowsClicks()
{
  QTemporaryDir dir;
  auto window = test::openIsolatedRingWindow(dir, "tst_presentation");
  QVERIFY(window);
  PresentationWindow* presentation = window->createPresentation(true);
  presentation->resize(1280, 720);
  presentation->show();
  QVERIFY(QTest::qWaitForWindowExposed(presentation));
  presentation->activateWindow();
  TeachingPanel* panel = window->teachingView()->panel();
  QCOMPARE(panel->position(), 0);
  QTest::keyClick(presentation, Qt::Key_PageDown);
  panel->finishAnimation();
  QTest::keyClick(presentation, Qt::Key_Right);
  panel->finishAnimation();
  QCOMPARE(panel->position(), 2);
  QTest::keyClick(presentation, Qt::Key_PageUp);
  QCOMPARE(panel->position(), 1);
  QVERIFY(presentation->isDark());
  QTest::keyClick(presentation, Qt::Key_D);
  QVERIFY(!presentation->isDark());

  QVERIFY(!presentation->pointer()->isShowing());
  QWidget* viewport = presentation->timeline()->viewport();
  const QPoint click(viewport->width() / 2, viewport->height() / 2);
  QTest::mouseClick(viewport, Qt::LeftButton, {}, click);
  QVERIFY(presentation->pointer()->isShowing());
  QCOMPARE(presentation->pointer()->position(), viewport->mapTo(presentation, click));
  // It fades away by itself.
  QTRY_VERIFY_WITH_TIMEOUT(!presentation->pointer()->isShowing(), PointerHighlight::kFadeMs * 3);
  QTest::keyClick(presentation, Qt::Key_Escape);
  QTRY_VERIFY(window->findChild<PresentationWindow*>() == nullptr);
}

void TestPresentation::screenshotsInBothPalettes()
{
  QTemporaryDir dir;
  auto window = test::openIsolatedRingWindow(dir, "tst_presentation");
  QVERIFY(window);
  for (const bool dark : {false, true}) {
    PresentationWindow* presentation = window->createPresentation(dark);
    presentation->resize(1280, 720);
    presentation->show();
    QVERIFY(QTest::qWaitForWindowExposed(presentation));
    const QImage shot = presentation->grab().toImage();
    // The corner is the window's background: white or black, nothing in between.
    const QColor corner = shot.pixelColor(2, shot.height() - 2);
    QCOMPARE(corner, PresentationWindow::highContrastPalette(dark).color(QPalette::Window));
    // The type is large: the step label's text is presentation-sized.
    const auto* panel = window->teachingView()->panel();
    QVERIFY(panel->font().pointSizeF() >=
            window->font().pointSizeF() * (PresentationWindow::kFontScale - 0.1));
    delete presentation;
  }
}

QTEST_MAIN(TestPresentation)
#include "tst_presentation.moc"
