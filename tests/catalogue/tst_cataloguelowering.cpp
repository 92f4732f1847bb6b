// Every classic algorithm, lowered for the current MSCCL executor, passes the whole Program
// checker (structure, limits, matching, dependencies, deadlock, races, postcondition) with no
// error: the Schedule-level conventions of the generators are what lowering and the runtimes
// expect.

#include "catalogue/catalogue.h"
#include "check/checker.h"
#include "compile/compileutil.h"
#include "compile/lower.h"
#include "support/corpus.h"

#include <QTest>

using namespace cs;

Q_DECLARE_METATYPE(std::string)

class Test_librarylowering : public QObject
{
  Q_OBJECT

private slots:
  void loweredProgramsPassTheChecker_data();
  void loweredProgramsPassTheChecker();
};

void Test_librarylowering::loweredProgramsPassTheChecker_data()
{
  QTest::addColumn<std::string>("key");
  QTest::addColumn<int>("ranks");
  for (const AlgorithmInfo& info : algorithmCatalog()) {
    for (const int n : {2, 3, 4, 5, 8, 16, 64})
      test::addCatalogueRow(info, n);
  }
}

void Test_librarylowering::loweredProgramsPassTheChecker()
{
  QFETCH(std::string, key);
  QFETCH(int, ranks);
  GeneratorOptions options;
  options.ranks = ranks;
  const GenerateResult generated = generateAlgorithm(key, options);
  QVERIFY(generated.schedule);
  LowerOptions lower;
  lower.dialect = DialectId::Executor;
  const LowerResult lowered = lowerSchedule(*generated.schedule, lower);
  QVERIFY2(lowered.program, qPrintable(test::describeDiagnostics(lowered.diagnostics)));
  for (const Diagnostic& d : lowered.diagnostics)
    QVERIFY2(d.severity != Severity::Error, qPrintable(QString::fromStdString(d.message)));
  QCOMPARE(lowered.program->ngpus, ranks);
  QCOMPARE(lowered.program->collective, generated.schedule->collective);

  CheckOptions check;
  check.dialect = DialectId::Executor;
  check.root = generated.schedule->root;
  const std::vector<Diagnostic> diagnostics = checkProgram(*lowered.program, check);
  std::vector<Diagnostic> errors;
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == Severity::Error)
      errors.push_back(d);
  }
  QVERIFY2(errors.empty(), qPrintable(test::describeDiagnostics(errors)));
}

QTEST_GUILESS_MAIN(Test_librarylowering)
#include "tst_cataloguelowering.moc"
