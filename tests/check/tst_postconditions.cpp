// The semantic pass's postconditions: a wrong result named with what a slot holds and what it
// should hold, double counting, the root of a broadcast or reduce given, inferred from the data
// flow or by trial, and custom collectives that have no postcondition.

#include "catalogue/ringallreduce.h"
#include "semanticprograms.h"

#include <QTest>

using namespace cs;
using namespace cs::test::semantic;

class TestPostconditions : public QObject
{
  Q_OBJECT

private slots:
  void swappedSendBreaksPostcondition();
  void doubleCountingIsNamed();
  void broadcastRoot_data();
  void broadcastRoot();
  void broadcastRootByTrial();
  void reduceRoot();
  void customHasNoPostcondition();
};

void TestPostconditions::swappedSendBreaksPostcondition()
{
  // Rank 0 sends chunk 3 where it should send chunk 0 and reduces chunk 0 into the partial sum of
  // chunk 3: chunks 0 and 3 come out wrong on every rank, chunks 1 and 2 stay right.
  Program program = makeRingAllReduce({4, 1, Protocol::Simple});
  std::swap(test::stepAt(program, 0, 0, 0).srcOff, test::stepAt(program, 0, 0, 1).srcOff);
  const Diagnostics out = runSemantics(program);
  const std::vector<Diagnostic> failures = withCode(out, "postcondition");
  QCOMPARE(failures.size(), std::size_t{1});
  QCOMPARE(out.size(), std::size_t{1});
  const Diagnostic& d = failures.front();
  QCOMPARE(QString::fromStdString(d.message),
           QString("in-place: the all-reduce result is wrong: rank 0 o[0] (memory i[0]) holds "
                   "\u03a3{r0\u00b7c3, r1\u00b7c0, r2\u00b7c0, r3\u00b7c0} (r0\u00b7c0 missing) "
                   "but should hold \u03a3{r0\u00b7c0 \u2026 r3\u00b7c0}; 8 of 16 output chunk "
                   "slots are wrong"));
  // Located at the step that stored the wrong value: rank 0 receives chunk 0 in its first rcs.
  QVERIFY(sameStep(d.location, 0, 0, 4));
}

void TestPostconditions::doubleCountingIsNamed()
{
  Program program = exchangeAllReduce();
  ThreadBlock& local = test::threadblockAt(program, 0, 1);
  add(local, makeStep(OpType::Reduce, Buffer::Scratch, 0, Buffer::Output, 0));
  const Diagnostics out = runSemantics(program);
  const std::vector<Diagnostic> failures = withCode(out, "postcondition");
  QCOMPARE(failures.size(), std::size_t{1});
  QCOMPARE(QString::fromStdString(failures.front().message),
           QString("out-of-place: the all-reduce result is wrong: rank 0 o[0] holds "
                   "\u03a3{r0\u00b7c0, r1\u00b7c0, r1\u00b7c0} (r1\u00b7c0 twice) but should hold "
                   "\u03a3{r0\u00b7c0, r1\u00b7c0}; 1 of 2 output chunk slots are wrong"));
  QVERIFY(sameStep(failures.front().location, 0, 1, 2));
  QCOMPARE(failures.front().location.line, 202);
}

void TestPostconditions::broadcastRoot_data()
{
  QTest::addColumn<int>("root"); // -1: infer
  QTest::addColumn<QString>("code");
  QTest::addColumn<int>("severity");
  QTest::addColumn<QString>("message");
  QTest::newRow("inferred") << -1 << "postcondition.root" << int(Severity::Info)
                            << "root inferred as rank 0 (the only rank that sends but never "
                               "receives)";
  QTest::newRow("given") << 0 << "" << 0 << "";
  QTest::newRow("wrong root")
      << 1 << "postcondition" << int(Severity::Error)
      << "out-of-place: the broadcast from root 1 result is wrong: rank 0 o[0] holds r0\u00b7c0 "
         "but should hold r1\u00b7c0; 3 of 3 output chunk slots are wrong";
  QTest::newRow("out of range") << 3 << "postcondition.root" << int(Severity::Error)
                                << "root 3 is out of range: the program has 3 ranks";
}

void TestPostconditions::broadcastRoot()
{
  QFETCH(int, root);
  QFETCH(QString, code);
  QFETCH(int, severity);
  QFETCH(QString, message);
  CheckOptions options;
  if (root >= 0)
    options.root = root;
  const Diagnostics out = runSemantics(chainBroadcast(), options);
  if (code.isEmpty()) {
    QVERIFY2(out.empty(), qPrintable(dump(out)));
    return;
  }
  QCOMPARE(out.size(), std::size_t{1});
  const Diagnostic& d = out.items().front();
  QCOMPARE(QString::fromStdString(d.code), code);
  QCOMPARE(int(d.severity), severity);
  QCOMPARE(QString::fromStdString(d.message), message);
}

void TestPostconditions::broadcastRootByTrial()
{
  // Rank 2 acknowledges to rank 0, so no rank "sends but never receives"; only root 0 makes the
  // result right.
  Program program = chainBroadcast();
  add(addTb(program, 2, 0, -1), send(Buffer::Input, 0));
  add(addTb(program, 0, -1, 2), recv(Buffer::Scratch, 0));
  Diagnostics out = runSemantics(program);
  QCOMPARE(out.size(), std::size_t{1});
  QCOMPARE(out.items().front().code, std::string("postcondition.root"));
  QCOMPARE(out.items().front().severity, Severity::Info);
  QCOMPARE(out.items().front().message,
           std::string("out-of-place: root inferred as rank 0 (the only root for which the result "
                       "is correct)"));

  // Without the root's own copy no root works.
  test::eraseStep(program, 0, 1, 0);
  out = runSemantics(program);
  const std::vector<Diagnostic> errors = withCode(out, "postcondition.root");
  QCOMPARE(errors.size(), std::size_t{1});
  QCOMPARE(errors.front().severity, Severity::Error);
  QCOMPARE(errors.front().message,
           std::string("out-of-place: cannot infer the root of the broadcast (no rank would make "
                       "the result correct); pass --root"));
}

void TestPostconditions::reduceRoot()
{
  Program program = makeProgram(Collective::Reduce, "reduce", 3, 1, false, true);
  add(addTb(program, 0, 1, -1), send(Buffer::Input, 0));
  add(addTb(program, 1, 2, 0),
      makeStep(OpType::RecvReduceSend, Buffer::Input, 0, Buffer::Input, 0));
  add(addTb(program, 2, -1, 1),
      makeStep(OpType::RecvReduceCopy, Buffer::Input, 0, Buffer::Output, 0));
  Diagnostics out = runSemantics(program);
  QCOMPARE(out.size(), std::size_t{1});
  QCOMPARE(out.items().front().code, std::string("postcondition.root"));
  QCOMPARE(out.items().front().message,
           std::string("root inferred as rank 2 (the only rank that receives but never sends)"));

  CheckOptions options;
  options.root = 0;
  out = runSemantics(program, options);
  QCOMPARE(out.size(), std::size_t{1});
  QCOMPARE(out.items().front().code, std::string("postcondition"));
  QCOMPARE(QString::fromStdString(out.items().front().message),
           QString("out-of-place: the reduce from root 0 result is wrong: rank 0 o[0] is "
                   "uninitialised but should hold \u03a3{r0\u00b7c0 \u2026 r2\u00b7c0}; 1 of 1 "
                   "output chunk slots are wrong"));
}

void TestPostconditions::customHasNoPostcondition()
{
  Program program = makeProgram(Collective::Custom, "custom", 2, 1, false, true);
  add(addTb(program, 0, 1, -1), send(Buffer::Input, 0));
  add(addTb(program, 1, -1, 0), recv(Buffer::Output, 0));
  const Diagnostics out = runSemantics(program);
  QCOMPARE(out.size(), std::size_t{1});
  const Diagnostic& d = out.items().front();
  QCOMPARE(d.code, std::string("postcondition.unknown"));
  QCOMPARE(d.severity, Severity::Warning);
  QCOMPARE(d.message, std::string("no postcondition is known for coll=custom: data flow was "
                                  "checked for deadlocks and races only"));
}

QTEST_GUILESS_MAIN(TestPostconditions)
#include "tst_postconditions.moc"
