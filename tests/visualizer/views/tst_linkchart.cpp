// The link chart against the trace it plots: the four busiest links by default, each series
// passing through every utilisation sample of its LinkUsage; a link selected in the session is
// added; the cursor line follows the session's cursor; measured runs (no samples) are plotted
// from the replay index's loads. With CSTUDIO_SCREENSHOT_DIR set, saves a picture there.

#include "simulatedrun.h"
#include "views/linkchart.h"
#include "views/linkchartdata.h"

#include <QLineSeries>
#include <QTest>

using namespace cs;
using namespace cs::visualizer;
using namespace cs::visualizer::test;

class TestLinkChart : public QObject
{
  Q_OBJECT

private slots:
  void busiestLinksByDefault();
  void seriesPassThroughTheSamples();
  void selectedLinkIsAdded();
  void cursorLineFollowsTheCursor();
  void measuredRunUsesTheIndexLoads();
  void screenshot();
};

void TestLinkChart::busiestLinksByDefault()
{
  auto session = openSimulatedRing({8, "dgx-h100"});
  LinkChart chart(session.get());
  QCOMPARE(chart.links().size(), std::size_t(4));
  QCOMPARE(chart.linkSeries().size(), 4);
  QCOMPARE(chart.links(), busiestLinks(session->index(), 4));
  std::map<int, std::int64_t> bytes;
  for (const LinkUsage& usage : session->trace().links)
    bytes[usage.link] = usage.bytesAtoB + usage.bytesBtoA;
  for (std::size_t i = 1; i < chart.links().size(); ++i)
    QVERIFY(bytes[chart.links()[i - 1]] >= bytes[chart.links()[i]]);
  QVERIFY(chart.linkSeries().front()->name().contains(QStringLiteral(" \u2013 ")));
}

void TestLinkChart::seriesPassThroughTheSamples()
{
  auto session = openSimulatedRing({4, "ring-4"});
  LinkChart chart(session.get());
  QVERIFY(!chart.links().empty());
  for (qsizetype i = 0; i < chart.linkSeries().size(); ++i) {
    const LinkUsage* usage = nullptr;
    for (const LinkUsage& u : session->trace().links) {
      if (u.link == chart.links()[std::size_t(i)])
        usage = &u;
    }
    QVERIFY(usage && !usage->utilisation.empty());
    const QList<QPointF> points = chart.linkSeries()[i]->points();
    QCOMPARE(points.size(), qsizetype(usage->utilisation.size() * 2 - 1));
    for (std::size_t k = 0; k < usage->utilisation.size(); ++k) {
      const QPointF expected(usage->utilisation[k].first, usage->utilisation[k].second * 100);
      QCOMPARE(points[qsizetype(2 * k)], expected);
    }
  }
}

void TestLinkChart::selectedLinkIsAdded()
{
  auto session = openSimulatedRing({8, "dgx-h100"});
  LinkChart chart(session.get());
  int quiet = -1;
  for (const TopologyLink& link : session->topology()->links) {
    if (std::find(chart.links().begin(), chart.links().end(), link.id) == chart.links().end())
      quiet = link.id;
  }
  QVERIFY(quiet >= 0);
  session->setSelection({.link = quiet});
  QCOMPARE(chart.linkSeries().size(), 5);
  QCOMPARE(chart.links().back(), quiet);
  session->setSelection({.link = quiet});
  session->setSelection({.link = chart.links().front()});
  QCOMPARE(chart.linkSeries().size(), 5);
}

void TestLinkChart::cursorLineFollowsTheCursor()
{
  auto session = openSimulatedRing({4, "ring-4"});
  LinkChart chart(session.get());
  for (const double fraction : {0.25, 0.8}) {
    session->setCursor(session->endUs() * fraction);
    const QList<QPointF> line = chart.cursorLine()->points();
    QCOMPARE(line.size(), 2);
    QCOMPARE(line[0].x(), session->cursorUs());
    QCOMPARE(line[1].x(), session->cursorUs());
    QCOMPARE(line[1].y(), 100.0);
  }
}

void TestLinkChart::measuredRunUsesTheIndexLoads()
{
  RunOptions options;
  options.dropLinkSamples = true;
  auto session = openSimulatedRing(options);
  LinkChart chart(session.get());
  QVERIFY(!chart.links().empty());
  const QList<QPointF> points = chart.linkSeries().front()->points();
  QVERIFY(points.size() > 2);
  double peak = 0;
  for (const QPointF& p : points) {
    QVERIFY(p.y() >= 0 && p.y() <= 100.0 + 1e-9);
    peak = std::max(peak, p.y());
    if (p.x() > 0 && p.x() < session->endUs()) {
      for (const replay::LinkState& link : session->index().links(p.x())) {
        if (link.link == chart.links().front() && std::abs(link.utilisation * 100 - p.y()) < 1e-9)
          peak = std::max(peak, p.y());
      }
    }
  }
  QVERIFY(peak > 0);
}

void TestLinkChart::screenshot()
{
  const QByteArray dir = qgetenv("CSTUDIO_SCREENSHOT_DIR");
  if (dir.isEmpty())
    QSKIP("CSTUDIO_SCREENSHOT_DIR not set");
  auto session = openSimulatedRing({8, "dgx-h100"});
  LinkChart chart(session.get());
  chart.resize(900, 340);
  session->setCursor(session->endUs() * 0.42);
  QVERIFY(chart.grab().save(QString::fromUtf8(dir) + "/linkchart-dgx-h100.png"));
}

QTEST_MAIN(TestLinkChart)
#include "tst_linkchart.moc"
