// The classic-algorithm catalogue: every generator, at every rank count it supports, yields a
// Schedule whose collective postcondition holds (checked by symbolic execution in
// engine/check/schedulecheck), with the buffer geometry of msccl-format.md §4.1, and the
// documented cost formulas.

#include "catalogue/catalogue.h"
#include "check/schedulecheck.h"
#include "support/corpus.h"

#include <QTest>

#include <algorithm>
#include <bit>
#include <set>

using namespace cs;

Q_DECLARE_METATYPE(std::string)

namespace {

const int kRankCounts[] = {2, 3, 4, 5, 8, 16, 64};

bool isRing(std::string_view key)
{
  return key.starts_with("ring-");
}

/// Rank counts each algorithm is documented to support (its explanation and --list say so).
bool documentedSupport(std::string_view key, int n)
{
  if (key == "halving-doubling-allreduce")
    return std::has_single_bit(static_cast<unsigned>(n));
  if (key == "torus2d-allreduce") {
    for (int d = 2; d * d <= n; ++d) {
      if (n % d == 0)
        return true;
    }
    return false;
  }
  if (key.starts_with("hierarchical-") || key == "two-step-alltoall")
    return n < 8 || n % 8 == 0; // default group: 8 ranks, or all of them when fewer
  return true;
}

QString describe(const ScheduleCheckResult& result)
{
  return test::describeDiagnostics(result.diagnostics);
}

} // namespace

class Test_catalog : public QObject
{
  Q_OBJECT

private slots:
  void catalogueEntriesAreComplete();
  void everyAlgorithmIsCorrect_data();
  void everyAlgorithmIsCorrect();
  void unsupportedCountsSayWhy_data();
  void unsupportedCountsSayWhy();
  void stepCountsMatchTheTextbook();
  void ringAllReduceCost_data();
  void ringAllReduceCost();
  void channelsPinDisjointCopies();
  void everyTransferIsNeeded();
};

void Test_catalog::catalogueEntriesAreComplete()
{
  std::set<std::string_view> keys;
  QVERIFY(algorithmCatalog().size() >= 15);
  for (const AlgorithmInfo& info : algorithmCatalog()) {
    QVERIFY2(keys.insert(info.key).second, info.key.data());
    QVERIFY(!info.title.empty());
    QVERIFY(!info.summary.empty());
    QVERIFY2(info.explanation.size() > 200, info.key.data());
    QVERIFY(!info.costFormula.empty());
    QVERIFY(info.unsupported && info.generate && info.estimateUs);
    QCOMPARE(findAlgorithm(info.key), &info);
  }
  QVERIFY(findAlgorithm("warp-drive") == nullptr);
  for (const char* required :
       {"ring-allreduce", "ring-allgather", "ring-reducescatter", "halving-doubling-allreduce",
        "double-binary-tree-allreduce", "binomial-broadcast", "binomial-reduce", "chain-broadcast",
        "hierarchical-ring-allreduce", "hierarchical-tree-allreduce", "direct-alltoall",
        "two-step-alltoall", "bruck-allgather", "bruck-alltoall", "torus2d-allreduce"})
    QVERIFY2(findAlgorithm(required), required);
}

void Test_catalog::everyAlgorithmIsCorrect_data()
{
  QTest::addColumn<std::string>("key");
  QTest::addColumn<int>("ranks");
  QTest::addColumn<int>("channels");
  for (const AlgorithmInfo& info : algorithmCatalog()) {
    for (const int n : kRankCounts) {
      for (const int channels : {1, 2}) {
        if (channels == 2 && !isRing(info.key) && n != 4)
          continue; // two channels: every ring count, the others at 4 ranks
        const QByteArray name =
            QByteArray(info.key.data(), static_cast<qsizetype>(info.key.size())) +
            " n=" + QByteArray::number(n) + " ch=" + QByteArray::number(channels);
        QTest::newRow(name.constData()) << std::string(info.key) << n << channels;
      }
    }
  }
}

void Test_catalog::everyAlgorithmIsCorrect()
{
  QFETCH(std::string, key);
  QFETCH(int, ranks);
  QFETCH(int, channels);
  const AlgorithmInfo* info = findAlgorithm(key);
  QVERIFY(info);
  GeneratorOptions options;
  options.ranks = ranks;
  options.channels = channels;
  const std::optional<std::string> reason = info->unsupported(options);
  if (documentedSupport(key, ranks))
    QVERIFY2(!reason, reason ? reason->c_str() : "");
  if (reason)
    QSKIP(qPrintable(QString::fromStdString(*reason)));

  const GenerateResult generated = generateAlgorithm(key, options);
  QVERIFY(generated.diagnostics.empty());
  QVERIFY(generated.schedule);
  const Schedule& schedule = *generated.schedule;
  QCOMPARE(schedule.ranks, ranks);
  QCOMPARE(schedule.collective, info->collective);
  QCOMPARE(static_cast<int>(schedule.buffers.size()), ranks);
  QVERIFY(schedule.inplace || schedule.outofplace);
  QVERIFY(!schedule.transfers.empty());

  // Geometry of msccl-format.md §4.1, K chunks per rank's share.
  const RankBuffers& b = schedule.buffers.front();
  switch (schedule.collective) {
  case Collective::AllGather:
    QCOMPARE(b.output, ranks * b.input);
    break;
  case Collective::ReduceScatter:
    QCOMPARE(b.input, ranks * b.output);
    break;
  case Collective::AllToAll:
    QCOMPARE(b.output, b.input);
    QCOMPARE(b.input % ranks, 0);
    break;
  default:
    QVERIFY(b.output == 0 || b.output == b.input);
    // In place only: an all-reduce, broadcast or reduce works in the input alone.
    QVERIFY(b.output == 0 || schedule.outofplace);
    break;
  }
  if (schedule.collective == Collective::Broadcast || schedule.collective == Collective::Reduce)
    QCOMPARE(schedule.root, std::optional<int>(0));
  for (const Transfer& t : schedule.transfers) {
    if (channels > 1)
      QVERIFY(t.pins.channel.has_value() && *t.pins.channel >= 0 && *t.pins.channel < channels);
  }

  const ScheduleCheckResult checked = checkSchedule(schedule);
  QVERIFY2(checked.diagnostics.empty(), qPrintable(describe(checked)));
}

void Test_catalog::unsupportedCountsSayWhy_data()
{
  QTest::addColumn<std::string>("key");
  QTest::addColumn<int>("ranks");
  QTest::addColumn<int>("group");
  QTest::addColumn<QString>("mentions");
  QTest::newRow("hd 6") << std::string("halving-doubling-allreduce") << 6 << 0 << "power of two";
  QTest::newRow("hd 1") << std::string("halving-doubling-allreduce") << 1 << 0 << "power of two";
  QTest::newRow("ring 1") << std::string("ring-allreduce") << 1 << 0 << "at least 2";
  QTest::newRow("torus 7") << std::string("torus2d-allreduce") << 7 << 0 << "rows";
  QTest::newRow("torus 8 rows 3") << std::string("torus2d-allreduce") << 8 << 3 << "3 rows";
  QTest::newRow("hier 12") << std::string("hierarchical-ring-allreduce") << 12 << 0
                           << "group size 8";
  QTest::newRow("hier 12 g5") << std::string("hierarchical-tree-allreduce") << 12 << 5
                              << "group size 5";
  QTest::newRow("a2a 20") << std::string("two-step-alltoall") << 20 << 0 << "multiple";
}

void Test_catalog::unsupportedCountsSayWhy()
{
  QFETCH(std::string, key);
  QFETCH(int, ranks);
  QFETCH(int, group);
  QFETCH(QString, mentions);
  GeneratorOptions options;
  options.ranks = ranks;
  options.groupSize = group;
  const GenerateResult result = generateAlgorithm(key, options);
  QVERIFY(!result.schedule);
  QCOMPARE(result.diagnostics.size(), std::size_t{1});
  QCOMPARE(result.diagnostics[0].code, std::string("catalogue.unsupported"));
  QVERIFY2(QString::fromStdString(result.diagnostics[0].message).contains(mentions),
           result.diagnostics[0].message.c_str());
  // With a group that divides the count, the hierarchical ones exist again.
  if (key.starts_with("hierarchical")) {
    options.groupSize = 4;
    QVERIFY(generateAlgorithm(key, options).schedule);
  }
}

void Test_catalog::stepCountsMatchTheTextbook()
{
  auto steps = [](const char* key, int n) {
    GeneratorOptions options;
    options.ranks = n;
    return generateAlgorithm(key, options).schedule->stepCount();
  };
  for (const int n : {2, 3, 5, 8, 16}) {
    QCOMPARE(steps("ring-allreduce", n), 2 * (n - 1));
    QCOMPARE(steps("ring-allgather", n), std::max(2, n - 1)); // + the own block's local copy
    QCOMPARE(steps("ring-reducescatter", n), n);              // n-1 + the final local copy
    const int logN = static_cast<int>(std::bit_width(static_cast<unsigned>(n - 1)));
    QCOMPARE(steps("binomial-broadcast", n), logN);
    QCOMPARE(steps("bruck-allgather", n), logN + 1);
    QCOMPARE(steps("bruck-alltoall", n), logN);
    QCOMPARE(steps("direct-alltoall", n), n - 1);
    QCOMPARE(steps("chain-broadcast", n), 8 + n - 2);
  }
  QCOMPARE(steps("halving-doubling-allreduce", 16), 8);
  // 16 ranks = 2 nodes of 8: 7 + 2·1 + 7 steps.
  QCOMPARE(steps("hierarchical-ring-allreduce", 16), 16);
  // 4 × 4 torus: rings of 4 along rows (3 + 3) and columns (2·3).
  QCOMPARE(steps("torus2d-allreduce", 16), 12);
}

void Test_catalog::ringAllReduceCost_data()
{
  QTest::addColumn<int>("ranks");
  QTest::addColumn<qint64>("bytes");
  QTest::addColumn<double>("alpha");
  QTest::addColumn<double>("beta");
  QTest::newRow("4 ranks 1 MiB") << 4 << (qint64{1} << 20) << 2.0 << 100.0;
  QTest::newRow("8 ranks 1 GiB") << 8 << (qint64{1} << 30) << 5.0 << 25.0;
  QTest::newRow("3 ranks 96 B") << 3 << qint64{96} << 0.5 << 400.0;
}

void Test_catalog::ringAllReduceCost()
{
  QFETCH(int, ranks);
  QFETCH(qint64, bytes);
  QFETCH(double, alpha);
  QFETCH(double, beta);
  GeneratorOptions options;
  options.ranks = ranks;
  const CostParameters cost{alpha, beta};
  // 2(n-1)(α + S/(nβ)) with β in GB/s = 10^9 B/s and the result in µs.
  const double seconds = static_cast<double>(bytes) / ranks / (beta * 1e9);
  const double expected = 2.0 * (ranks - 1) * (alpha + seconds * 1e6);
  const double actual = findAlgorithm("ring-allreduce")->estimateUs(options, bytes, cost);
  QVERIFY2(std::abs(actual - expected) <= 1e-9 * expected,
           qPrintable(QString("%1 vs %2").arg(actual).arg(expected)));
}

void Test_catalog::channelsPinDisjointCopies()
{
  GeneratorOptions options;
  options.ranks = 4;
  options.channels = 3;
  const Schedule s = *generateAlgorithm("ring-allgather", options).schedule;
  QCOMPARE(s.buffers.front().input, 3);
  QCOMPARE(s.buffers.front().output, 12);
  // Copy c moves rank p's chunk c: output slot p·3 + c, always on channel c.
  for (const Transfer& t : s.transfers) {
    QVERIFY(t.pins.channel.has_value());
    QCOMPARE(t.dst.index % 3, *t.pins.channel);
  }
  QCOMPARE(static_cast<int>(s.transfers.size()), 3 * (4 * 3 + 4));
}

void Test_catalog::everyTransferIsNeeded()
{
  // No generator sends anything twice: dropping any single transfer of an in-place-only or
  // out-of-place-only schedule leaves an error (the checks see every chunk's history).
  for (const AlgorithmInfo& info : algorithmCatalog()) {
    GeneratorOptions options;
    options.ranks = 4;
    const Schedule full = *generateAlgorithm(info.key, options).schedule;
    for (std::size_t drop = 0; drop < full.transfers.size(); ++drop) {
      Schedule s = full;
      const Transfer dropped = s.transfers[drop];
      s.transfers.erase(s.transfers.begin() + static_cast<std::ptrdiff_t>(drop));
      // With both modes declared, the own block's local copy is needed out of place only.
      if (full.inplace && full.outofplace && dropped.isLocal())
        s.inplace = false;
      QVERIFY2(checkSchedule(s).hasErrors(),
               qPrintable(QString("%1 without transfer #%2").arg(info.key.data()).arg(dropped.id)));
    }
  }
}

QTEST_GUILESS_MAIN(Test_catalog)
#include "tst_catalogue.moc"
