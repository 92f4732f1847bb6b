// Every algorithm of the classic catalogue, for 2 to 16 ranks, lowers to a program the whole
// checker accepts, and lifting that program gives back the same transfers.

#include "compile/compileutil.h"
#include "support/corpus.h"

#include "check/checker.h"
#include "compile/lift.h"
#include "compile/lower.h"
#include "library/catalog.h"

#include <QTest>

#include <algorithm>
#include <map>
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

} // namespace

class Test_catalogcompile : public QObject
{
  Q_OBJECT

private slots:
  void lowerLiftCheck_data();
  void lowerLiftCheck();
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
  GeneratorOptions options;
  options.ranks = ranks;
  const GenerateResult generated = generateAlgorithm(key.toStdString(), options);
  QVERIFY2(generated.schedule, qPrintable(test::describeDiagnostics(generated.diagnostics)));
  const Schedule& schedule = *generated.schedule;

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

QTEST_GUILESS_MAIN(Test_catalogcompile)
#include "tst_catalogcompile.moc"
