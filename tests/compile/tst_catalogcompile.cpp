// Every algorithm of the classic catalogue, for 2 to 16 ranks, lowers to a program the whole
// checker accepts, and lifting that program gives back the same transfers.
//
// Instances: every catalogue algorithm at 4, 8 and 16 ranks, replicated twice (and three times
// for a few), also lowers to a program the whole checker accepts. Instances split every transfer
// into single-chunk messages, so a connection carries several messages per step; this is the
// case that once deadlocked (a fused receive-and-forward ring needing more FIFO room than the
// runtime's two messages, see engine/compile/lowerplan_p.h on rounds).

#include "compile/compileutil.h"
#include "support/corpus.h"

#include "catalogue/catalogue.h"
#include "check/checker.h"
#include "compile/lift.h"
#include "compile/lower.h"

#include <QTest>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

using namespace cs;

namespace {

using Moved = std::tuple<ChunkRef, ChunkRef, int, TransferOp>;

std::map<Moved, std::vector<int>> stepsByTransfer(const Schedule& s)
{
  std::map<Moved, std::vector<int>> out;
  for (const Transfer& t : s.transfers)
    out[{t.src, t.dst, t.count, t.op}].push_back(t.step);
  for (auto& [key, steps] : out)
    std::sort(steps.begin(), steps.end());
  return out;
}

/// The catalogue's schedule for `key`, or nullopt with a warning saying why.
std::optional<Schedule> generate(const QString& key, int ranks, int group = 0)
{
  GeneratorOptions options;
  options.ranks = ranks;
  options.groupSize = group;
  GenerateResult generated = generateAlgorithm(key.toStdString(), options);
  if (!generated.schedule)
    qWarning("%s", qPrintable(test::describeDiagnostics(generated.diagnostics)));
  return std::move(generated.schedule);
}

} // namespace

class Test_catalogcompile : public QObject
{
  Q_OBJECT

private slots:
  void lowerLiftCheck_data();
  void lowerLiftCheck();
  void instancesCheck_data();
  void instancesCheck();
};

void Test_catalogcompile::lowerLiftCheck_data()
{
  QTest::addColumn<QString>("key");
  QTest::addColumn<int>("ranks");
  for (const AlgorithmInfo& info : algorithmCatalog()) {
    for (int n : {2, 3, 4, 5, 8, 16}) {
      GeneratorOptions options;
      options.ranks = n;
      if (!info.unsupported(options))
        QTest::addRow("%s-%d", std::string(info.key).c_str(), n)
            << QString::fromUtf8(info.key.data(), static_cast<int>(info.key.size())) << n;
    }
  }
}

void Test_catalogcompile::lowerLiftCheck()
{
  QFETCH(QString, key);
  QFETCH(int, ranks);
  const std::optional<Schedule> generated = generate(key, ranks);
  QVERIFY(generated);
  const Schedule& schedule = *generated;

  const LowerResult lowered = lowerSchedule(schedule, {});
  QVERIFY2(lowered.program && test::errorsOf(lowered.diagnostics).empty(),
           qPrintable(test::describeDiagnostics(lowered.diagnostics)));
  CheckOptions check;
  check.root = schedule.root;
  const auto errors = test::errorsOf(checkProgram(*lowered.program, check));
  QVERIFY2(errors.empty(), qPrintable(test::describeDiagnostics(errors)));

  const LiftResult lifted = liftProgram(*lowered.program);
  QVERIFY2(lifted.schedule, qPrintable(test::describeDiagnostics(lifted.diagnostics)));
  // Same data moved, each transfer no later than designed (a design may leave slack; lifting
  // numbers steps by dependency depth, which never exceeds the designed step).
  const auto designed = stepsByTransfer(schedule);
  const auto back = stepsByTransfer(*lifted.schedule);
  QCOMPARE(back.size(), designed.size());
  for (const auto& [moved, steps] : designed) {
    const auto found = back.find(moved);
    QVERIFY(found != back.end());
    QCOMPARE(found->second.size(), steps.size());
  }
  QVERIFY(lifted.schedule->stepCount() <= schedule.stepCount());
}

void Test_catalogcompile::instancesCheck_data()
{
  QTest::addColumn<QString>("key");
  QTest::addColumn<int>("ranks");
  QTest::addColumn<int>("instances");
  QTest::addColumn<int>("group");
  for (const AlgorithmInfo& info : algorithmCatalog()) {
    const std::string name(info.key);
    // Three instances for the ring and for the two patterns that first showed the deadlock.
    const bool three = name == "ring-allreduce" || name == "torus2d-allreduce" ||
                       name == "hierarchical-tree-allreduce";
    for (int n : {4, 8, 16}) {
      GeneratorOptions options;
      options.ranks = n;
      if (info.unsupported(options))
        continue;
      for (int instances : {2, 3}) {
        if (instances == 3 && !three)
          continue;
        QTest::addRow("%s-%d-x%d", name.c_str(), n, instances)
            << QString::fromStdString(name) << n << instances << 0;
      }
    }
  }
  // The reported case: four nodes of four ranks.
  QTest::addRow("hierarchical-tree-allreduce-16-g4-x2")
      << QStringLiteral("hierarchical-tree-allreduce") << 16 << 2 << 4;
}

void Test_catalogcompile::instancesCheck()
{
  QFETCH(QString, key);
  QFETCH(int, ranks);
  QFETCH(int, instances);
  QFETCH(int, group);
  const std::optional<Schedule> generated = generate(key, ranks, group);
  QVERIFY(generated);
  const Schedule& schedule = *generated;

  const LowerResult single = lowerSchedule(schedule, {});
  QVERIFY(single.program);
  LowerOptions lowerOptions;
  lowerOptions.instances = instances;
  const LowerResult lowered = lowerSchedule(schedule, lowerOptions);
  QVERIFY2(lowered.program && test::errorsOf(lowered.diagnostics).empty(),
           qPrintable(test::describeDiagnostics(lowered.diagnostics)));
  // msccl-format §8.3 step 7: I copies, each on its own chunks.
  QCOMPARE(lowered.program->nchunksperloop, single.program->nchunksperloop * instances);
  CheckOptions check;
  check.root = schedule.root;
  const auto errors = test::errorsOf(checkProgram(*lowered.program, check));
  QVERIFY2(errors.empty(), qPrintable(test::describeDiagnostics(errors)));
}

QTEST_GUILESS_MAIN(Test_catalogcompile)
#include "tst_catalogcompile.moc"
