// The topology playback view against the replay state it shows: one token per message in flight,
// moving forward along its route as the cursor advances; link strokes that grow with utilisation;
// blocked ranks outlined (their tooltip says what they wait for) in a run cut short; a click on a
// link selects it; no topology says so; unplaced nodes get the editor's layout; 64 ranks paint
// fast. With CSTUDIO_SCREENSHOT_DIR set, saves mid-run pictures of both test machines there.

#include "simulatedrun.h"
#include "views/topologyplaybackview.h"

#include <QSignalSpy>
#include <QTest>

using namespace cs;
using namespace cs::visualizer;
using namespace cs::visualizer::test;

class TestTopologyPlayback : public QObject
{
  Q_OBJECT

private slots:
  void tokensMatchState_data();
  void tokensMatchState();
  void tokenMovesAlongItsRoute();
  void strokeGrowsWithUtilisation_data();
  void strokeGrowsWithUtilisation();
  void lanesUseTheStrokeOfTheirUtilisation();
  void blockedRanksAreOutlined();
  void clickSelectsLink();
  void withoutTopologySaysSo();
  void inferredRoutesCarryTokens();
  void unplacedNodesAreLaidOut();
  void sixtyFourRanksPaintEveryToken();
  void screenshots_data();
  void screenshots();
};

void TestTopologyPlayback::tokensMatchState_data()
{
  QTest::addColumn<int>("ranks");
  QTest::addColumn<QString>("preset");
  QTest::newRow("ring-4") << 4 << "ring-4";
  QTest::newRow("dgx-h100 (switch)") << 8 << "dgx-h100";
}

void TestTopologyPlayback::tokensMatchState()
{
  QFETCH(int, ranks);
  QFETCH(QString, preset);
  const QByteArray name = preset.toUtf8();
  auto session = openSimulatedRing({ranks, name.constData()});
  TopologyPlaybackView view(session.get());
  view.resize(720, 480);
  int seen = 0;
  for (const double fraction : {0.1, 0.3, 0.5, 0.7, 0.9}) {
    session->setCursor(session->endUs() * fraction);
    const TopologyPlaybackFrame frame = view.frame();
    const auto& tokens = session->state().tokens;
    QCOMPARE(frame.tokens.size(), tokens.size());
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      QCOMPARE(frame.tokens[i].message, tokens[i].message);
      QVERIFY(!frame.tokens[i].ranks.empty());
    }
    seen += int(tokens.size());
  }
  QVERIFY(seen > 0);
}

void TestTopologyPlayback::tokenMovesAlongItsRoute()
{
  auto session = openSimulatedRing({8, "dgx-h100"});
  TopologyPlaybackView view(session.get());
  view.resize(720, 480);
  // A message crossing a switch: its route has two hops.
  const auto& messages = session->index().messages();
  const auto message = std::find_if(messages.begin(), messages.end(), [](const auto& m) {
    return m.route.size() >= 2 && m.end > m.start;
  });
  QVERIFY(message != messages.end());
  const std::size_t id = std::size_t(message - messages.begin());
  double last = -1;
  for (int k = 1; k < 10; ++k) {
    session->setCursor(message->start + (message->end - message->start) * k / 10.0);
    const TopologyPlaybackFrame frame = view.frame();
    const auto token = std::find_if(frame.tokens.begin(), frame.tokens.end(),
                                    [id](const DrawnToken& t) { return t.message == id; });
    QVERIFY(token != frame.tokens.end());
    QVERIFY2(token->at.distance > last, qPrintable(QString::number(k)));
    last = token->at.distance;
  }
}

void TestTopologyPlayback::strokeGrowsWithUtilisation_data()
{
  QTest::addColumn<double>("lower");
  QTest::addColumn<double>("higher");
  QTest::newRow("idle to a quarter") << 0.0 << 0.25;
  QTest::newRow("quarter to half") << 0.25 << 0.5;
  QTest::newRow("half to full") << 0.5 << 1.0;
}

void TestTopologyPlayback::strokeGrowsWithUtilisation()
{
  QFETCH(double, lower);
  QFETCH(double, higher);
  for (const LinkKind kind : {LinkKind::NvLink, LinkKind::Pcie, LinkKind::Network}) {
    const LinkStroke a = linkStroke(lower, kind);
    const LinkStroke b = linkStroke(higher, kind);
    QVERIFY(b.width > a.width);
    QVERIFY(b.color.hsvSaturationF() > a.color.hsvSaturationF());
  }
  QCOMPARE(linkStroke(0, LinkKind::NvLink).color.hsvSaturationF(), 0.0);
  QCOMPARE(linkStroke(2, LinkKind::NvLink).width, linkStroke(1, LinkKind::NvLink).width);
}

void TestTopologyPlayback::lanesUseTheStrokeOfTheirUtilisation()
{
  auto session = openSimulatedRing({4, "ring-4"});
  TopologyPlaybackView view(session.get());
  view.resize(720, 480);
  session->setCursor(session->endUs() / 2);
  const TopologyPlaybackFrame frame = view.frame();
  QCOMPARE(frame.lanes.size(), session->topology()->links.size() * 2);
  bool busy = false;
  for (const DrawnLane& lane : frame.lanes) {
    const LinkStroke expected =
        linkStroke(lane.utilisation, session->topology()->link(lane.link)->kind);
    QCOMPARE(lane.stroke.width, expected.width);
    busy = busy || lane.utilisation > 0;
  }
  QVERIFY(busy);
}

void TestTopologyPlayback::blockedRanksAreOutlined()
{
  auto session = openSimulatedRing({4, "ring-4", 0.5});
  TopologyPlaybackView view(session.get());
  view.resize(720, 480);
  session->setCursor(session->endUs());
  const TopologyPlaybackFrame frame = view.frame();
  QVERIFY(!frame.blocked.empty());
  for (const replay::Waiting& waiting : session->state().waiting) {
    if (waiting.reason == replay::WaitReason::Start)
      continue;
    QVERIFY(frame.blocked.count(waiting.rank));
    QVERIFY(frame.blocked.at(waiting.rank).contains(describeWait(waiting)));
  }
  for (const auto& [rank, lines] : frame.blocked) {
    for (const QString& line : lines)
      QVERIFY2(line.contains(QStringLiteral("waits for")), qPrintable(line));
  }
  const int rank = frame.blocked.begin()->first;
  const QRectF box = view.geometry()->nodeRect(session->topology()->gpuNode(rank)->id);
  const QString tip = view.toolTipAt(box.center());
  QVERIFY2(tip.contains(frame.blocked.begin()->second.front()), qPrintable(tip));
  QVERIFY(!view.grab().isNull());
}

void TestTopologyPlayback::clickSelectsLink()
{
  auto session = openSimulatedRing({4, "ring-4"});
  TopologyPlaybackView view(session.get());
  view.resize(720, 480);
  const int link = session->topology()->links.at(1).id;
  const QLineF lane = view.geometry()->lane(link, true);
  QSignalSpy spy(session.get(), &ReplaySession::selectionChanged);
  QTest::mouseClick(&view, Qt::LeftButton, {}, lane.center().toPoint());
  QCOMPARE(session->selection().link, link);
  QCOMPARE(spy.count(), 1);
}

void TestTopologyPlayback::withoutTopologySaysSo()
{
  RunOptions options;
  options.withTopology = false;
  auto session = openSimulatedRing(options);
  TopologyPlaybackView view(session.get());
  view.resize(400, 300);
  QVERIFY(view.geometry() == nullptr);
  QVERIFY(view.frame().tokens.empty());
  const QImage image = view.grab().toImage();
  QVERIFY(!image.isNull());
}

void TestTopologyPlayback::unplacedNodesAreLaidOut()
{
  Topology topology = *makePresetTopology("dgx-h100");
  for (TopologyNode& node : topology.nodes)
    node.x = node.y = 0;
  TopologyPlaybackGeometry geometry(topology);
  geometry.fit(QRectF(0, 0, 800, 600));
  for (std::size_t i = 0; i < topology.nodes.size(); ++i) {
    const QRectF a = geometry.nodeRect(topology.nodes[i].id);
    QVERIFY(!a.isEmpty());
    QVERIFY(QRectF(-0.5, -0.5, 801, 601).contains(a)); // within the area, up to rounding
    for (std::size_t j = 0; j < i; ++j)
      QVERIFY(!a.intersects(geometry.nodeRect(topology.nodes[j].id)));
  }
}

void TestTopologyPlayback::sixtyFourRanksPaintEveryToken()
{
  // How fast this is belongs in a benchmark, not here: the picture must be complete at scale.
  auto session = openSimulatedRing({64, "ring-64"});
  TopologyPlaybackView view(session.get());
  view.resize(1000, 800);
  constexpr int kFrames = 20;
  std::size_t drawn = 0;
  for (int k = 0; k < kFrames; ++k) {
    session->setCursor(session->endUs() * k / kFrames);
    QVERIFY(!view.grab().isNull());
    QCOMPARE(view.frame().tokens.size(), session->state().tokens.size());
    drawn += view.frame().tokens.size();
  }
  QVERIFY(drawn > 0);
}

void TestTopologyPlayback::inferredRoutesCarryTokens()
{
  RunOptions options{8, "dgx-h100"};
  options.dropLinkSamples = true;
  options.dropLinkPaths = true;
  auto session = openSimulatedRing(options);
  QVERIFY(session->index().linksInferred());
  TopologyPlaybackView view(session.get());
  view.resize(720, 480);
  session->setCursor(session->endUs() / 3);
  const TopologyPlaybackFrame frame = view.frame();
  QVERIFY(!frame.tokens.empty());
  QCOMPARE(frame.tokens.size(), session->state().tokens.size());
}

void TestTopologyPlayback::screenshots_data()
{
  QTest::addColumn<int>("ranks");
  QTest::addColumn<QString>("preset");
  QTest::addColumn<double>("cut");
  QTest::addColumn<bool>("measured");
  QTest::addColumn<double>("at");
  QTest::newRow("ring-4") << 4 << "ring-4" << 0.0 << false << 0.3;
  QTest::newRow("dgx-h100") << 8 << "dgx-h100" << 0.0 << false << 0.3;
  QTest::newRow("dgx-h100-measured") << 8 << "dgx-h100" << 0.0 << true << 0.3;
  QTest::newRow("ring-4-cut") << 4 << "ring-4" << 0.5 << false << 1.0;
  QTest::newRow("ring-64") << 64 << "ring-64" << 0.0 << false << 0.3;
}

void TestTopologyPlayback::screenshots()
{
  const QByteArray dir = qgetenv("CSTUDIO_SCREENSHOT_DIR");
  if (dir.isEmpty())
    QSKIP("CSTUDIO_SCREENSHOT_DIR not set");
  QFETCH(int, ranks);
  QFETCH(QString, preset);
  QFETCH(double, cut);
  QFETCH(bool, measured);
  QFETCH(double, at);
  const QByteArray name = preset.toUtf8();
  RunOptions options{ranks, name.constData(), cut};
  // Bandwidth-bound, so the links show their load; a run cut short keeps one slice per step so
  // its threadblocks are seen waiting rather than finished (the index cannot know later slices).
  if (cut == 0)
    options.bytes = std::int64_t(64) << 20;
  options.dropLinkSamples = options.dropLinkPaths = measured;
  auto session = openSimulatedRing(options);
  TopologyPlaybackView view(session.get());
  view.resize(900, 620);
  session->setCursor(session->endUs() * at);
  session->setSelection({.link = session->topology()->links.front().id});
  const QString file =
      QStringLiteral("/topology-%1.png").arg(QString::fromUtf8(QTest::currentDataTag()));
  QVERIFY(view.grab().save(QString::fromUtf8(dir) + file));
}

QTEST_MAIN(TestTopologyPlayback)
#include "tst_topologyplayback.moc"
