// The Benchmark Sweep window: a CPU sweep of the 4-rank ring over 1 KiB..16 KiB stores one run
// per point under the document's library version and says so; the table, the CSV export and
// the chart hold one point per size with the job's values; a second sweep adds series of its
// own; the simulator's series is drawn dashed when chosen; Cancel during a long sweep stores no
// half point; a document outside the library is swept but not stored; unavailable backends are
// disabled with their reason.

#include "support/ringlibrary.h"
#include "sweep/sweepwindow.h"

#include "catalogue/ringallreduce.h"
#include "document/document.h"
#include "io/mscclxmlwriter.h"
#include "library.h"
#include "run/runbackends.h"
#include "sweep/sweepchart.h"
#include "sweep/sweepresults.h"

#include <QChart>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPointer>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace cs;
using namespace cs::visualizer;

namespace {

constexpr int kSweepTimeoutMs = 60000;

QLineSeries* lineNamed(const QChart* chart, const QString& name)
{
  for (QAbstractSeries* series : chart->series())
    if (series->name() == name)
      return qobject_cast<QLineSeries*>(series);
  return nullptr;
}

} // namespace

class Test_sweepwindow : public QObject
{
  Q_OBJECT

private slots:
  void init();
  void cleanup();
  void cpuSweepIsStoredPlottedAndExported();
  void secondSweepAddsItsOwnSeries();
  void simulatedSeriesIsDashed();
  void libraryCallIsDottedAndUnverified();
  void cancelStoresNoHalfPoint();
  void sweepOutsideTheLibraryIsNotStored();
  void unavailableBackendsAreDisabledWithAReason();

private:
  std::int64_t saveRing();
  bool sweep(std::int64_t minBytes, std::int64_t maxBytes);

  test::RingWithLibrary m_ring;
  std::unique_ptr<QTemporaryDir> m_dir;
  std::unique_ptr<storage::Library> m_library;
  std::unique_ptr<editor::Document> m_document;
  std::unique_ptr<SweepWindow> m_window;
};

void Test_sweepwindow::init()
{
  m_ring.open();
  if (QTest::currentTestFailed())
    return;
  m_dir = std::move(m_ring.dir);
  m_library = std::move(m_ring.library);
  m_document = std::move(m_ring.document);
  m_window = std::make_unique<SweepWindow>(m_document.get(), [this] { return m_library.get(); });
  m_window->resize(1200, 800);
  m_window->show();
  m_window->iterationsBox()->setValue(2);
}

void Test_sweepwindow::cleanup()
{
  m_window.reset();
  m_document.reset();
  m_library.reset();
  m_dir.reset();
}

std::int64_t Test_sweepwindow::saveRing()
{
  storage::SaveRequest save;
  save.name = "ring4";
  save.content.xml = writeMscclXml(*m_document->shownProgram(), {}).text;
  const auto saved = m_library->save(save);
  if (!saved.ok())
    return -1;
  m_document->setOrigin({{}, QStringLiteral("ring4"), 1});
  return saved.value().algorithmId;
}

bool Test_sweepwindow::sweep(std::int64_t minBytes, std::int64_t maxBytes)
{
  if (!m_window->setSizeRange(minBytes, maxBytes))
    return false;
  QSignalSpy finished(m_window.get(), &SweepWindow::sweepFinished);
  if (!m_window->start())
    return false;
  return finished.wait(kSweepTimeoutMs) && !finished.front().at(0).toBool();
}

void Test_sweepwindow::cpuSweepIsStoredPlottedAndExported()
{
  const std::int64_t algorithm = saveRing();
  QVERIFY(algorithm > 0);
  QVERIFY(m_window->setBackendChecked(QStringLiteral("simulate"), false));
  QVERIFY(m_window->setBackendChecked(QStringLiteral("cpu"), true));
  QVERIFY(sweep(1024, 16384));
  QVERIFY(!m_window->job()->isRunning());
  QCOMPARE(m_window->storeText(), QStringLiteral("Stored 5 runs under ring4 v1 in the library."));
  QVERIFY2(m_window->statusText().startsWith("Done: 5 points"), qPrintable(m_window->statusText()));

  // One run per point, each with its trace, under version 1.
  const std::vector<SweepPoint>& points = m_window->results()->points();
  QCOMPARE(points.size(), std::size_t{5});
  const auto runs = m_library->runs(algorithm);
  QVERIFY(runs.ok());
  QCOMPARE(runs.value().size(), std::size_t{5});
  for (std::size_t i = 0; i < points.size(); ++i) {
    const storage::RunRecord& run = runs.value()[i];
    QCOMPARE(run.versionNumber, 1);
    QCOMPARE(run.backend, std::string("cpu"));
    QCOMPARE(run.bytes, points[i].bytes);
    QCOMPARE(run.timeUs, points[i].timeUs);
    QCOMPARE(run.busbwGBps, points[i].busbwGBps);
    QCOMPARE(run.wrong, std::int64_t{0});
    QVERIFY(run.hasTrace);
    QCOMPARE(points[i].bytes, std::int64_t{1024} << i);
    QCOMPARE(points[i].algbwGBps, static_cast<double>(points[i].bytes) / points[i].timeUs / 1e3);
    QCOMPARE(points[i].busbwGBps, points[i].algbwGBps * 1.5);
  }
  QCOMPARE(m_window->table()->model()->rowCount(), 5);

  // The chart: one line of five points, on a size axis labelled in bytes.
  const QChart* chart = m_window->chart()->chart();
  QCOMPARE(chart->series().size(), 1);
  QLineSeries* cpu = lineNamed(chart, QStringLiteral("ring4 v1 · cpu"));
  QVERIFY(cpu);
  QCOMPARE(cpu->count(), 5);
  QCOMPARE(cpu->at(4).x(), 14.0); // log2(16 KiB)
  QCOMPARE(cpu->at(4).y(), points[4].busbwGBps);
  QCOMPARE(cpu->pen().style(), Qt::SolidLine);
  QCOMPARE(m_window->chart()->sizeLabels().front(), QStringLiteral("1 KiB"));
  QCOMPARE(m_window->chart()->sizeLabels().back(), QStringLiteral("16 KiB"));
  m_window->chart()->setMetric(SweepChart::Metric::Algbw);
  QCOMPARE(lineNamed(chart, QStringLiteral("ring4 v1 · cpu"))->at(4).y(), points[4].algbwGBps);

  // CSV: a header and one row per point with those values.
  const QString path = m_dir->filePath("sweep.csv");
  QCOMPARE(m_window->exportCsv(path), QString());
  QFile file(path);
  QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
  const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
  QCOMPARE(lines.size(), 6);
  QCOMPARE(lines[0],
           QStringLiteral("size,count,type,redop,backend,time_us,algbw,busbw,wrong,series"));
  for (int i = 1; i < lines.size(); ++i) {
    const QStringList cells = lines[i].split(',');
    const SweepPoint& point = points[static_cast<std::size_t>(i - 1)];
    QCOMPARE(cells.size(), 10);
    QCOMPARE(cells[0].toLongLong(), point.bytes);
    QCOMPARE(cells[1].toLongLong(), point.bytes / 4);
    QCOMPARE(cells[2], QStringLiteral("float"));
    QCOMPARE(cells[3], QStringLiteral("sum"));
    QCOMPARE(cells[4], QStringLiteral("cpu"));
    QVERIFY(qAbs(cells[5].toDouble() - point.timeUs) < 1e-3);
    QVERIFY(qAbs(cells[6].toDouble() / point.algbwGBps - 1) < 1e-5);
    QVERIFY(qAbs(cells[7].toDouble() / point.busbwGBps - 1) < 1e-5);
    QCOMPARE(cells[8], QStringLiteral("0"));
    QCOMPARE(cells[9], QStringLiteral("\"ring4 v1 · cpu\""));
  }
  const QString png = m_dir->filePath("sweep.png");
  QCOMPARE(m_window->exportPng(png), QString());
  QVERIFY(QImage(png).width() > 100);
}

void Test_sweepwindow::secondSweepAddsItsOwnSeries()
{
  QVERIFY(m_window->setBackendChecked(QStringLiteral("simulate"), false));
  QVERIFY(sweep(1024, 4096));
  QVERIFY(sweep(2048, 8192));
  const QChart* chart = m_window->chart()->chart();
  QCOMPARE(chart->series().size(), 2);
  QVERIFY(lineNamed(chart, QStringLiteral("Untitled · cpu")));
  QVERIFY(lineNamed(chart, QStringLiteral("Untitled · cpu (2)")));
  QCOMPARE(lineNamed(chart, QStringLiteral("Untitled · cpu (2)"))->at(0).x(), 11.0);
  QCOMPARE(m_window->chart()->sizeLabels().back(), QStringLiteral("8 KiB"));
  // Hiding a series from the legend empties its line but keeps its entry, to show it again.
  m_window->chart()->setSeriesHidden(QStringLiteral("Untitled · cpu"), true);
  QCOMPARE(lineNamed(chart, QStringLiteral("Untitled · cpu"))->count(), 0);
  QCOMPARE(lineNamed(chart, QStringLiteral("Untitled · cpu (2)"))->count(), 3);
  const QList<QLegendMarker*> markers = chart->legend()->markers();
  QCOMPARE(markers.size(), 2);
  QVERIFY(markers[0]->series()->isVisible());
  QVERIFY(markers[0]->labelBrush().color().alphaF() < 0.5F); // greyed
  QCOMPARE(markers[1]->labelBrush().color().alphaF(), 1.0F);
  m_window->chart()->setSeriesHidden(QStringLiteral("Untitled · cpu"), false);
  QCOMPARE(lineNamed(chart, QStringLiteral("Untitled · cpu"))->count(), 3);
}

void Test_sweepwindow::simulatedSeriesIsDashed()
{
  QVERIFY(m_window->setBackendChecked(QStringLiteral("simulate"), true));
  QVERIFY(m_window->setBackendChecked(QStringLiteral("cpu"), true));
  QVERIFY(sweep(1024, 4096));
  const QChart* chart = m_window->chart()->chart();
  QCOMPARE(chart->series().size(), 2);
  QLineSeries* simulated = lineNamed(chart, QStringLiteral("Untitled · simulated"));
  QVERIFY(simulated);
  QCOMPARE(simulated->count(), 3);
  QCOMPARE(simulated->pen().style(), Qt::DashLine);
  QCOMPARE(lineNamed(chart, QStringLiteral("Untitled · cpu"))->count(), 3);
}

void Test_sweepwindow::libraryCallIsDottedAndUnverified()
{
  // The rows an NCCL sweep gives (tests/visualizer/sweep/tst_sweepjob.cpp checks how they are
  // made): the chart draws NCCL's own call dotted and the CSV says its #wrong is N/A.
  SweepResults results;
  SweepChart chart(&results);
  results.beginSweep();
  for (const std::int64_t bytes : {1 << 20, 2 << 20}) {
    SweepPoint program{QStringLiteral("ring · nccl"),
                       QStringLiteral("nccl"),
                       SweepKind::Measured,
                       bytes,
                       bytes / 4,
                       QStringLiteral("float"),
                       QStringLiteral("sum"),
                       20.0,
                       bytes / 20e3,
                       bytes / 20e3 * 1.5,
                       0,
                       QStringLiteral("verified")};
    SweepPoint library = program;
    library.series = QStringLiteral("ncclAllReduce");
    library.kind = SweepKind::Library;
    library.wrong.reset();
    results.addPoint(program);
    results.addPoint(library);
  }
  chart.refresh();
  QCOMPARE(chart.chart()->series().size(), 2);
  QCOMPARE(lineNamed(chart.chart(), QStringLiteral("ncclAllReduce"))->pen().style(), Qt::DotLine);
  QCOMPARE(lineNamed(chart.chart(), QStringLiteral("ncclAllReduce"))->count(), 2);
  const QStringList lines = results.toCsv().split('\n', Qt::SkipEmptyParts);
  QCOMPARE(lines.size(), 5);
  QVERIFY2(lines[1].contains(",nccl,") && lines[1].endsWith(",0,\"ring · nccl\""),
           qPrintable(lines[1]));
  QVERIFY2(lines[2].endsWith(",N/A,\"ncclAllReduce\""), qPrintable(lines[2]));
}

void Test_sweepwindow::cancelStoresNoHalfPoint()
{
  const std::int64_t algorithm = saveRing();
  QVERIFY(algorithm > 0);
  QVERIFY(m_window->setBackendChecked(QStringLiteral("simulate"), false));
  // A quick first point, then minutes of work: Cancel lands in the second.
  m_window->iterationsBox()->setValue(m_window->iterationsBox()->maximum());
  m_window->timeoutBox()->setValue(m_window->timeoutBox()->maximum());
  QVERIFY(m_window->setSizeRange(4 << 20, 8 << 20));
  QSignalSpy started(m_window->job(), &SweepJob::pointStarted);
  QSignalSpy finished(m_window.get(), &SweepWindow::sweepFinished);
  QVERIFY(m_window->start());
  QPointer<QThread> worker = m_window->job()->thread();
  QVERIFY(worker);
  QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, kSweepTimeoutMs);
  m_window->cancel();
  QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
  QCOMPARE(finished.front().at(0).toBool(), true);
  QVERIFY2(m_window->statusText().startsWith("Cancelled after 0 of 2"),
           qPrintable(m_window->statusText()));
  QCOMPARE(m_window->storeText(), QStringLiteral("Nothing stored."));
  QVERIFY(m_window->results()->points().empty());
  QVERIFY(m_library->runs(algorithm).value().empty());
  QVERIFY(!m_window->job()->isRunning());
  QTRY_VERIFY(worker.isNull());
}

void Test_sweepwindow::sweepOutsideTheLibraryIsNotStored()
{
  QVERIFY(m_window->setBackendChecked(QStringLiteral("simulate"), false));
  QVERIFY(sweep(1024, 2048));
  QCOMPARE(m_window->storeText(),
           QStringLiteral("Not stored: save the algorithm to the library first."));
  QCOMPARE(m_window->results()->points().size(), std::size_t{2});
  QVERIFY(m_library->list().value().empty());
}

void Test_sweepwindow::unavailableBackendsAreDisabledWithAReason()
{
  QVERIFY(m_window->isBackendEnabled(QStringLiteral("simulate")));
  QVERIFY(m_window->isBackendEnabled(QStringLiteral("cpu")));
  for (const RunBackendChoice& choice : runBackendChoices(4)) {
    QCOMPARE(m_window->isBackendEnabled(choice.id), choice.available);
    QCOMPARE(m_window->backendReason(choice.id), choice.available ? QString() : choice.reason);
    if (!choice.available)
      QVERIFY(!m_window->setBackendChecked(choice.id, true));
  }
  QVERIFY(m_window->setBackendChecked(QStringLiteral("simulate"), false));
  QVERIFY(m_window->setBackendChecked(QStringLiteral("cpu"), false));
  QVERIFY(!m_window->start()); // nothing chosen
  QCOMPARE(m_window->statusText(), QStringLiteral("Choose at least one backend."));
}

QTEST_MAIN(Test_sweepwindow)
#include "tst_sweepwindow.moc"
