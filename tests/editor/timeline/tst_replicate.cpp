// "Apply to every rank, shifted by k": rank 0's six ring transfers replicate into exactly the
// catalogue's ring; shifts that divide the rank count stop when the pattern repeats; existing
// transfers are not duplicated; pins that name other ranks' resources are dropped.

#include "timeline/replicate.h"

#include "catalogue/catalogue.h"
#include "support/transferkeys.h"

#include <QTest>

#include <set>
#include <tuple>

using namespace cs;
using namespace cs::editor;

namespace {

using test::keys;

Schedule ring(int ranks)
{
  return *generateAlgorithm("ring-allreduce", {.ranks = ranks}).schedule;
}

/// The ring with only rank 0's transfers left, and those transfers.
std::pair<Schedule, std::vector<Transfer>> rankZeroOf(const Schedule& full)
{
  Schedule schedule = full;
  std::erase_if(schedule.transfers, [](const Transfer& t) { return t.src.rank != 0; });
  return {schedule, schedule.transfers};
}

} // namespace

class TestReplicate : public QObject
{
  Q_OBJECT

private slots:
  void rankZeroOfARingReplicatesIntoTheRing_data();
  void rankZeroOfARingReplicatesIntoTheRing();
  void replicatingTwiceAddsNothing();
  void shiftDividingTheRankCountStopsWhenThePatternRepeats();
  void chunksStayWithoutShiftChunks();
  void negativeShiftGoesBackwards();
  void copiesGetFreshIdsAndDropRoutes();
};

void TestReplicate::rankZeroOfARingReplicatesIntoTheRing_data()
{
  QTest::addColumn<int>("ranks");
  QTest::newRow("3 ranks") << 3;
  QTest::newRow("4 ranks") << 4;
  QTest::newRow("7 ranks") << 7;
}

void TestReplicate::rankZeroOfARingReplicatesIntoTheRing()
{
  QFETCH(int, ranks);
  const Schedule full = ring(ranks);
  const auto [schedule, selected] = rankZeroOf(full);
  QCOMPARE(static_cast<int>(selected.size()), 2 * (ranks - 1));
  const std::vector<Transfer> copies = replicateTransfers(schedule, selected, {1, true});
  QCOMPARE(static_cast<int>(copies.size()), 2 * (ranks - 1) * (ranks - 1));
  std::vector<Transfer> all = selected;
  all.insert(all.end(), copies.begin(), copies.end());
  QCOMPARE(keys(all), keys(full.transfers));
}

void TestReplicate::replicatingTwiceAddsNothing()
{
  const Schedule full = ring(4);
  const auto [schedule, selected] = rankZeroOf(full);
  QVERIFY(replicateTransfers(full, selected, {1, true}).empty());
}

void TestReplicate::shiftDividingTheRankCountStopsWhenThePatternRepeats()
{
  const auto [schedule, selected] = rankZeroOf(ring(4));
  // k = 2 on 4 ranks: rank 0 -> 2, then 4 = 0 again; one copy of each transfer.
  const std::vector<Transfer> copies = replicateTransfers(schedule, selected, {2, true});
  QCOMPARE(copies.size(), selected.size());
  for (std::size_t i = 0; i < copies.size(); ++i) {
    QCOMPARE(copies[i].src.rank, 2);
    QCOMPARE(copies[i].dst.rank, 3);
    QCOMPARE(copies[i].src.index, (selected[i].src.index + 2) % 4);
    QCOMPARE(copies[i].step, selected[i].step);
    QCOMPARE(copies[i].op, selected[i].op);
  }
  QVERIFY(replicateTransfers(schedule, selected, {0, true}).empty());
  QVERIFY(replicateTransfers(schedule, selected, {4, true}).empty());
}

void TestReplicate::chunksStayWithoutShiftChunks()
{
  const auto [schedule, selected] = rankZeroOf(ring(3));
  const std::vector<Transfer> copies = replicateTransfers(schedule, selected, {1, false});
  QCOMPARE(copies.size(), 2 * selected.size());
  for (std::size_t i = 0; i < copies.size(); ++i) {
    const Transfer& original = selected[i % selected.size()];
    const int r = static_cast<int>(i / selected.size()) + 1;
    QCOMPARE(copies[i].src.rank, r);
    QCOMPARE(copies[i].dst.rank, (1 + r) % 3);
    QCOMPARE(copies[i].src.index, original.src.index);
    QCOMPARE(copies[i].dst.index, original.dst.index);
  }
}

void TestReplicate::negativeShiftGoesBackwards()
{
  Schedule schedule;
  schedule.ranks = 4;
  schedule.setUniformBuffers({4, 0, 0});
  Transfer t;
  t.step = 0;
  t.src = {1, Buffer::Input, 1};
  t.dst = {2, Buffer::Input, 1};
  const std::vector<Transfer> copies = replicateTransfers(schedule, std::vector{t}, {-1, true});
  QCOMPARE(copies.size(), std::size_t{3});
  QCOMPARE(copies[0].src, (ChunkRef{0, Buffer::Input, 0}));
  QCOMPARE(copies[0].dst, (ChunkRef{1, Buffer::Input, 0}));
  QCOMPARE(copies[2].src, (ChunkRef{2, Buffer::Input, 2}));
  QCOMPARE(copies[2].dst, (ChunkRef{3, Buffer::Input, 2}));
}

void TestReplicate::copiesGetFreshIdsAndDropRoutes()
{
  Schedule schedule;
  schedule.ranks = 2;
  schedule.setUniformBuffers({2, 0, 0});
  Transfer t;
  t.id = 7;
  t.src = {0, Buffer::Input, 0};
  t.dst = {1, Buffer::Input, 0};
  t.pins.channel = 1;
  t.pins.route = {3, 4};
  schedule.transfers = {t};
  const std::vector<Transfer> copies = replicateTransfers(schedule, schedule.transfers, {1, true});
  QCOMPARE(copies.size(), std::size_t{1});
  QCOMPARE(copies[0].id, -1);
  QCOMPARE(copies[0].pins.channel, std::optional<int>(1));
  QVERIFY(copies[0].pins.route.empty());
  QCOMPARE(copies[0].src, (ChunkRef{1, Buffer::Input, 1}));
  QCOMPARE(copies[0].dst, (ChunkRef{0, Buffer::Input, 1}));
}

QTEST_GUILESS_MAIN(TestReplicate)
#include "tst_replicate.moc"
