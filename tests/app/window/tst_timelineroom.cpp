// Room for the timeline (issue 17 item 4): View › Fit Timeline to Window puts every step column
// of an 8-rank ring all-reduce inside the viewport at 1400×900, Compact Rows makes rows smaller
// with their labels still painted, and the zoom and compact rows come back when the document is
// opened again (and follow it through Save As), except in windows made for screenshots.

#include "window/mainwindow.h"

#include "document/document.h"
#include "support/guideshots.h"
#include "timeline/timelinelayout.h"
#include "timeline/timelinepainter.h"
#include "timeline/timelineview.h"

#include <QAction>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace cs;
using namespace cs::editor;

class TestTimelineRoom : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void init();
  void fitShowsEveryStep_data();
  void fitShowsEveryStep();
  void compactRowsAreSmallerAndLabelled();
  void zoomIsRememberedPerDocument();
  void saveAsKeepsTheZoom();
  void screenshotWindowsRememberNothing();

private:
  QAction* action(const QString& name) const;
  /// Step columns whose cells lie entirely inside the viewport, as the view scrolls now.
  int visibleColumns() const;

  QTemporaryDir m_dir;
  std::unique_ptr<MainWindow> m_window;
};

void TestTimelineRoom::initTestCase()
{
  QVERIFY(m_dir.isValid());
  qputenv("XDG_CONFIG_HOME", m_dir.filePath("config").toUtf8());
  qputenv("XDG_DATA_HOME", m_dir.filePath("data").toUtf8());
  QCoreApplication::setOrganizationName("CollectiveStudioTest");
  QCoreApplication::setApplicationName("tst_timelineroom");
  MainWindowOptions options;
  options.libraryPath = m_dir.filePath("library.sqlite");
  options.autosave = false;
  options.restoreLayout = false;
  options.recordRecentFiles = false;
  m_window = std::make_unique<MainWindow>(options);
  m_window->setUnsavedChangesPrompt([] { return MainWindow::UnsavedAnswer::Discard; });
  m_window->resize(1400, 900);
  m_window->resetLayout();
  m_window->show();
  QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestTimelineRoom::init()
{
  QVERIFY(m_window->newFromAlgorithm("ring-allreduce", 8, "").isEmpty());
  m_window->document()->waitForAnalysis();
  m_window->showView(MainWindow::View::Timeline);
  QCoreApplication::processEvents();
}

QAction* TestTimelineRoom::action(const QString& name) const
{
  return m_window->findChild<QAction*>(name);
}

int TestTimelineRoom::visibleColumns() const
{
  const TimelineView* view = m_window->timelineView();
  const TimelineLayout& layout = view->model().layout();
  const HeaderMetrics header = headerMetrics(view->font(), layout.rowHeight());
  const QRect grid(header.left(), header.top, view->viewport()->width() - header.left(),
                   view->viewport()->height() - header.top);
  const int scroll = view->horizontalScrollBar()->value();
  int visible = 0;
  for (int column = 0; column < layout.columnCount(); ++column) {
    const QRect cell(header.left() + layout.columnLeft(column) - scroll, header.top,
                     layout.cellWidth(), 1);
    visible += grid.contains(cell) ? 1 : 0;
  }
  return visible;
}

void TestTimelineRoom::fitShowsEveryStep_data()
{
  QTest::addColumn<int>("ranks");
  QTest::addColumn<int>("height");
  QTest::addColumn<bool>("rowsFit");
  QTest::newRow("8 ranks, 1400x900") << 8 << 900 << false;
  // Too low for every row to stay legible: the rows scroll, the steps still fit.
  QTest::newRow("8 ranks, 1400x600") << 8 << 600 << false;
  // Few steps and many rows for the height: the rows decide the zoom, and all of them fit.
  QTest::newRow("4 ranks, 1400x540") << 4 << 540 << true;
}

void TestTimelineRoom::fitShowsEveryStep()
{
  QFETCH(int, ranks);
  QFETCH(int, height);
  QFETCH(bool, rowsFit);
  QVERIFY(m_window->newFromAlgorithm("ring-allreduce", ranks, "").isEmpty());
  m_window->document()->waitForAnalysis();
  m_window->resize(1400, height);
  QCoreApplication::processEvents();
  TimelineView* view = m_window->timelineView();
  view->setZoom(ranks == 8 ? 1.0 : 2.0);
  const int columns = view->model().layout().columnCount();
  QCOMPARE(columns, view->model().columnCount());
  QCOMPARE(columns, 2 * (ranks - 1) + 2); // the steps of a ring all-reduce, start and goal
  const int before = visibleColumns();
  QVERIFY2(before < columns, qPrintable(QString::number(before)));

  QAction* fit = action("fitTimeline");
  QVERIFY(fit);
  m_window->showView(MainWindow::View::Topology);
  fit->trigger();
  QCOMPARE(m_window->currentView(), MainWindow::View::Timeline);
  QCoreApplication::processEvents(); // the scroll bars hide (a queued update)
  QCOMPARE(visibleColumns(), columns);
  // The rows too, where they stay legible; otherwise the rows are as small as legible.
  const TimelineLayout& layout = view->model().layout();
  const int gridHeight = view->viewport()->height() - headerMetrics(view->font()).top;
  QCOMPARE(layout.contentHeight() <= gridHeight, rowsFit);
  QCOMPARE(view->verticalScrollBar()->isVisible(), !rowsFit);
  QVERIFY2(rowsFit || layout.rowHeight() < TimelineView::kMinFitRowHeight + 2,
           qPrintable(QStringLiteral("%1 px of rows of %2 px in %3 px")
                          .arg(layout.contentHeight())
                          .arg(layout.rowHeight())
                          .arg(gridHeight)));
  qInfo("fit: %d of %d columns before, zoom %.2f, rows %d px, %d of %d px", before, columns,
        view->zoom(), layout.rowHeight(), layout.contentHeight(), gridHeight);
  if (ranks == 8 && height == 900)
    test::saveGuideShot(m_window->grab(), QStringLiteral("guide-timeline-fit.png"));
  m_window->resize(1400, 900);
}

void TestTimelineRoom::compactRowsAreSmallerAndLabelled()
{
  TimelineView* view = m_window->timelineView();
  view->setZoom(1.0);
  const int normal = view->model().layout().rowHeight();
  const int height = view->model().layout().contentHeight();
  QAction* compact = action("compactRows");
  QVERIFY(compact && compact->isCheckable());
  compact->trigger();
  QVERIFY(view->compactRows());
  const TimelineLayout& layout = view->model().layout();
  QVERIFY(layout.rowHeight() < normal);
  QVERIFY(layout.contentHeight() < height);
  // The row headers still print their names (timelinepaintheaders.cpp's rule).
  QVERIFY(layout.rowHeight() >= view->fontMetrics().height() - 2);
  compact->trigger();
  QVERIFY(!view->compactRows());
  QCOMPARE(view->model().layout().rowHeight(), normal);
}

void TestTimelineRoom::zoomIsRememberedPerDocument()
{
  const QString first = m_dir.filePath("first.json");
  const QString second = m_dir.filePath("second.json");
  QVERIFY(m_window->saveDesignTo(first).isEmpty());
  TimelineView* view = m_window->timelineView();
  view->setZoom(0.6);
  action("compactRows")->setChecked(true);
  QVERIFY(m_window->newFromAlgorithm("ring-allreduce", 4, "").isEmpty());
  QCOMPARE(view->zoom(), 1.0); // a new document starts at 100%
  QVERIFY(!view->compactRows());
  QVERIFY(m_window->saveDesignTo(second).isEmpty());
  view->setZoom(1.5);

  QVERIFY(m_window->openFile(first).isEmpty());
  QCOMPARE(view->zoom(), 0.6);
  QVERIFY(view->compactRows());
  QVERIFY(action("compactRows")->isChecked());
  QVERIFY(m_window->openFile(second).isEmpty());
  QCOMPARE(view->zoom(), 1.5);
  QVERIFY(!view->compactRows());
  QVERIFY(!action("compactRows")->isChecked());
}

void TestTimelineRoom::saveAsKeepsTheZoom()
{
  const QString saved = m_dir.filePath("saved-as.json");
  TimelineView* view = m_window->timelineView();
  view->setZoom(0.8);
  QVERIFY(m_window->saveDesignTo(saved).isEmpty());
  QVERIFY(m_window->newFromAlgorithm("ring-allreduce", 4, "").isEmpty());
  QCOMPARE(view->zoom(), 1.0);
  QVERIFY(m_window->openFile(saved).isEmpty());
  QCOMPARE(view->zoom(), 0.8);
}

void TestTimelineRoom::screenshotWindowsRememberNothing()
{
  const QString path = m_dir.filePath("remembered.json");
  QVERIFY(m_window->saveDesignTo(path).isEmpty());
  m_window->timelineView()->setZoom(0.7);

  MainWindowOptions options;
  options.libraryPath = m_dir.filePath("library.sqlite");
  options.autosave = false;
  options.restoreLayout = false;
  options.recordRecentFiles = false;
  options.rememberViewSettings = false; // as --screenshot makes it
  MainWindow headless(options);
  QVERIFY(headless.openFile(path).isEmpty());
  QCOMPARE(headless.timelineView()->zoom(), 1.0);
  headless.timelineView()->setZoom(2.0);

  QVERIFY(m_window->newFromAlgorithm("ring-allreduce", 4, "").isEmpty());
  QVERIFY(m_window->openFile(path).isEmpty());
  QCOMPARE(m_window->timelineView()->zoom(), 0.7);
}

QTEST_MAIN(TestTimelineRoom)
#include "tst_timelineroom.moc"
