// The simulator's incremental max-min fair network (engine/sim/fairshare.*) against the full
// recomputation over every active flow, on hand-computed fabrics and random flow sets; its
// completion heap against an ordered set.

#include "sim/fairshare_p.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <utility>

using namespace cs;

namespace {

bool within(double value, double expected, double relative)
{
  return std::abs(value - expected) <= relative * std::abs(expected);
}

/// A random network: capacities from a few values (ties make shared tightest links and
/// receiving links exactly as wide as the sending ones, the cases the slack test relies on).
struct RandomNetwork {
  std::vector<double> capacities;
  std::vector<std::vector<int>> routes;
};

RandomNetwork randomNetwork(std::mt19937& random)
{
  static const double kWidths[] = {10, 25, 50, 100, 200};
  RandomNetwork network;
  const int resources = std::uniform_int_distribution(3, 10)(random);
  for (int r = 0; r < resources; ++r)
    network.capacities.push_back(kWidths[std::uniform_int_distribution(0, 4)(random)]);
  const int routes = std::uniform_int_distribution(3, 8)(random);
  std::vector<int> all(resources);
  for (int r = 0; r < resources; ++r)
    all[r] = r;
  for (int i = 0; i < routes; ++i) {
    std::shuffle(all.begin(), all.end(), random);
    const int length = std::uniform_int_distribution(1, std::min(4, resources))(random);
    network.routes.emplace_back(all.begin(), all.begin() + length);
  }
  return network;
}

} // namespace

class TestSimFairShare : public QObject
{
  Q_OBJECT

private slots:
  void handComputedShares_data()
  {
    QTest::addColumn<double>("uplink");
    QTest::addColumn<double>("yRate");
    // Links a, b 50; uplink u; d 10. X1, X2 cross a and u; Y crosses b and u; Z b, u and d.
    // Z is held to 10 by d; X1 and X2 fill a (25 each); Y takes the rest of b (40) unless
    // u is narrower: 90 - 25 - 25 - 10 = 30.
    QTest::newRow("uplink limits Y") << 90.0 << 30.0;
    // 110 is more than u's flows can ever carry (a's 50 + b's 50 + d's 10): u limits nobody,
    // though the flows' own bounds (50 + 50 + 50 + 10) do not fit it.
    QTest::newRow("uplink never full") << 110.0 << 40.0;
  }

  void handComputedShares()
  {
    QFETCH(double, uplink);
    QFETCH(double, yRate);
    const std::vector<double> capacities = {50, 50, uplink, 10};
    const std::vector<std::vector<int>> routes = {{0, 2}, {0, 2}, {1, 2}, {1, 2, 3}};
    const std::vector<double> expected = {25, 25, yRate, 10};
    QCOMPARE(maxMinFairShares(capacities, routes), expected);
    FlowNetwork network(capacities);
    std::vector<int> ids;
    for (const std::vector<int>& route : routes)
      ids.push_back(network.add(route, 1000, 0));
    for (std::size_t i = 0; i < ids.size(); ++i)
      QVERIFY2(within(network.rate(ids[i]), expected[i], 1e-12),
               qPrintable(QString("flow %1: %2").arg(i).arg(network.rate(ids[i]))));
    QVERIFY(within(network.load(2), 25 + 25 + yRate + 10, 1e-12));
  }

  void independentSendersAreNotReworked()
  {
    // Two sending links (0, 1) of 50 share an uplink (2) of 100 and reach receiving links (3, 4)
    // of 50: the uplink and the receiving links can never fill before the sending links do, so
    // a flow added behind sender 0 gives new rates to sender 0's flows only.
    FlowNetwork network({50, 50, 100, 50, 50});
    std::vector<int> fromZero;
    std::vector<int> fromOne;
    for (int i = 0; i < 4; ++i) {
      fromZero.push_back(network.add({0, 2, 4}, 1000, 0));
      fromOne.push_back(network.add({1, 2, 3}, 1000, 0));
    }
    QCOMPARE(network.rate(fromZero[0]), 12.5);
    const std::int64_t before = network.rebalancedFlows();
    fromZero.push_back(network.add({0, 2, 4}, 1000, 1));
    for (const int flow : fromZero)
      QCOMPARE(network.rate(flow), 10.0);
    for (const int flow : fromOne)
      QCOMPARE(network.rate(flow), 12.5);
    QCOMPARE(network.rebalancedFlows() - before, std::int64_t(5));
  }

  void randomFlowsMatchFullRecomputation()
  {
    std::mt19937 random(18);
    int compared = 0;
    int shared = 0; ///< comparisons where a flow ran below its narrowest link
    for (int trial = 0; trial < 200; ++trial) {
      const RandomNetwork net = randomNetwork(random);
      FlowNetwork network(net.capacities);
      std::vector<int> routeOf; ///< per flow id
      double now = 0;
      for (int op = 0; op < 40; ++op) {
        const double next = network.nextCompletion();
        const int choice = std::uniform_int_distribution(0, 9)(random);
        if (choice < 6 || std::isinf(next)) {
          const int route =
              std::uniform_int_distribution(0, static_cast<int>(net.routes.size()) - 1)(random);
          const double bytes = std::uniform_real_distribution(1.0, 100.0)(random);
          const int id = network.add(net.routes[route], bytes, now);
          routeOf.resize(std::max<std::size_t>(routeOf.size(), id + 1));
          routeOf[id] = route;
        } else if (choice < 8) {
          now = next;
          network.popCompletion(now);
        } else {
          now += (next - now) * std::uniform_real_distribution(0.0, 1.0)(random);
        }
        // The active flows, found from the network's own answers.
        std::vector<int> active;
        std::vector<std::vector<int>> routes;
        for (std::size_t id = 0; id < routeOf.size(); ++id) {
          if (network.isActive(static_cast<int>(id))) {
            active.push_back(static_cast<int>(id));
            routes.push_back(net.routes[routeOf[id]]);
          }
        }
        QCOMPARE(static_cast<int>(active.size()), network.activeFlows());
        const std::vector<double> full = maxMinFairShares(net.capacities, routes);
        for (std::size_t i = 0; i < active.size(); ++i) {
          const double rate = network.rate(active[i]);
          QVERIFY2(within(rate, full[i], 1e-9),
                   qPrintable(QString("trial %1 op %2 flow %3: %4 incrementally, %5 in full")
                                  .arg(trial)
                                  .arg(op)
                                  .arg(active[i])
                                  .arg(rate)
                                  .arg(full[i])));
          double narrowest = FlowNetwork::kInfinity;
          for (const int r : routes[i])
            narrowest = std::min(narrowest, net.capacities[r]);
          shared += full[i] < narrowest * (1 - 1e-9) ? 1 : 0;
          ++compared;
        }
      }
    }
    // Enough cases, and enough of them shared, for the comparison to mean something.
    QVERIFY2(compared > 5000, qPrintable(QString::number(compared)));
    QVERIFY2(shared > compared / 4, qPrintable(QString("%1 of %2").arg(shared).arg(compared)));
  }

  void completionHeapKeepsEachFlowOnceInFinishOrder()
  {
    // The heap against an ordered set of (time, flow): random schedules, reschedules (earlier
    // and later, equal times included) and removals; after each, the same earliest entry.
    std::mt19937 random(18);
    CompletionHeap heap;
    std::set<std::pair<double, int>> expected;
    std::vector<double> timeOf(64, -1);
    int checks = 0;
    for (int round = 0; round < 5000; ++round) {
      const int flow = static_cast<int>(random() % 64);
      if (random() % 4 == 0) {
        heap.remove(flow);
        if (timeOf[flow] >= 0)
          expected.erase({timeOf[flow], flow});
        timeOf[flow] = -1;
      } else {
        const double time = static_cast<double>(random() % 40);
        heap.set(flow, time);
        if (timeOf[flow] >= 0)
          expected.erase({timeOf[flow], flow});
        expected.insert({time, flow});
        timeOf[flow] = time;
      }
      QCOMPARE(heap.empty(), expected.empty());
      if (expected.empty())
        continue;
      QCOMPARE(heap.topTime(), expected.begin()->first);
      QCOMPARE(heap.topFlow(), expected.begin()->second);
      ++checks;
    }
    QVERIFY(checks > 4000);
  }
};

QTEST_GUILESS_MAIN(TestSimFairShare)
#include "tst_simfairshare.moc"
