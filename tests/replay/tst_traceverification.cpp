// A trace keeps its run's verification (otherData.verification): a CPU run of a ring broken in
// known chunks (tests/exec/wrongring.h) written as a Chrome trace reads back with the same wrong
// chunks, expected and actual values bit for bit, NaN and infinities included; a trace without
// a verification reads back without one; bad values are refused with a message naming the field.

#include "exec/wrongring.h"
#include "io/chrometrace.h"
#include "io/chrometracereader.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace cs;

namespace {

QString messageOf(const TraceReadResult& result)
{
  return result.diagnostics.empty() ? QString()
                                    : QString::fromStdString(result.diagnostics.front().message);
}

/// A minimal trace file whose otherData.verification is `verification`.
QByteArray traceWith(const QByteArray& verification)
{
  return R"({"traceEvents": [{"ph": "X", "name": "s", "pid": 0, "tid": 0, "ts": 1, "dur": 1,
             "args": {"step": 0}}], "otherData": {"verification": )" +
         verification + "}}";
}

} // namespace

class TestTraceVerification : public QObject
{
  Q_OBJECT

private slots:
  void aWrongRunReadsBackItsWrongChunks()
  {
    const test::WrongRing ring = test::makeWrongRing();
    const ExecResult result = makeExecutor("cpu")->run(ring.program, test::wrongRingOptions());
    QCOMPARE(result.status, ExecStatus::Wrong);
    QVERIFY(result.trace.verification.has_value());
    QCOMPARE(result.trace.verification->wrongChunks.size(), std::size_t{2});
    const TraceReadResult read = readChromeTrace(writeChromeTrace(result.trace));
    QVERIFY2(read.trace, qPrintable(messageOf(read)));
    QVERIFY(read.trace->verification.has_value());
    QVERIFY(*read.trace->verification == *result.trace.verification);
    QCOMPARE(read.trace->verification->wrongChunks.front().rank, ring.rank);
  }

  void valuesSurviveBitForBit()
  {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    Trace written;
    written.ranks = 2;
    written.events.push_back({});
    written.events.back().op = OpType::Send;
    TraceVerification verification;
    verification.checked = 1 << 20;
    verification.wrongElements = 123456;
    verification.wrongChunkCount = 5000; // more than are listed
    verification.wrongChunks = {{0, Buffer::Output, 3, 7, 0.1 + 0.2, std::nan("")},
                                {1, Buffer::Input, 0, 0, 1e-300, kInf},
                                {1, Buffer::Scratch, 9, 65535, -2.5, -kInf}};
    written.verification = verification;
    const TraceReadResult read = readChromeTrace(writeChromeTrace(written));
    QVERIFY2(read.trace, qPrintable(messageOf(read)));
    QVERIFY(read.trace->verification.has_value());
    QVERIFY(*read.trace->verification == verification);
    QVERIFY(std::isnan(read.trace->verification->wrongChunks[0].actual));
    QCOMPARE(read.trace->verification->wrongChunks[0].expected, 0.1 + 0.2);

    written.verification.reset();
    const TraceReadResult none = readChromeTrace(writeChromeTrace(written));
    QVERIFY(none.trace);
    QVERIFY(!none.trace->verification.has_value());
  }

  void badValuesNameTheField_data()
  {
    QTest::addColumn<QByteArray>("verification");
    QTest::addColumn<QString>("expected");
    const QByteArray counts = R"("checked": 8, "wrong_elements": 2, "wrong_chunks": 1)";
    const QByteArray good =
        R"("rank": 0, "buffer": "o", "chunk": 1, "element": 2, "expected": 3, "actual": 4)";
    QTest::newRow("not an object")
        << QByteArray("[]") << "otherData.verification is [], not an object";
    QTest::newRow("negative count")
        << QByteArray(R"({"checked": -1})") << "otherData.verification.checked is -1";
    QTest::newRow("missing count") << QByteArray(R"({"checked": 8, "wrong_elements": 2})")
                                   << "otherData.verification.wrong_chunks is missing";
    QTest::newRow("list longer than the count")
        << "{" + counts + R"(, "wrong": [{)" + good + "}, {" + good + "}]}"
        << "otherData.verification.wrong is not a list of at most 1";
    QTest::newRow("entry not an object") << "{" + counts + R"(, "wrong": [7]})"
                                         << "otherData.verification.wrong[0] is 7";
    QTest::newRow("bad buffer") << "{" + counts +
                                       R"(, "wrong": [{"rank": 0, "buffer": "x", "chunk": 1}]})"
                                << "otherData.verification.wrong[0].buffer is \"x\"";
    QTest::newRow("negative chunk")
        << "{" + counts + R"(, "wrong": [{"rank": 0, "buffer": "o", "chunk": -3}]})"
        << "otherData.verification.wrong[0].chunk is -3";
    QTest::newRow("absurd rank")
        << "{" + counts + R"(, "wrong": [{"rank": 99999999, "buffer": "o", "chunk": 1}]})"
        << "otherData.verification.wrong[0].rank is 99999999";
    QTest::newRow("value not a number")
        << "{" + counts +
               R"(, "wrong": [{"rank": 0, "buffer": "o", "chunk": 1, "element": 2,
                               "expected": "three", "actual": 4}]})"
        << "otherData.verification.wrong[0].expected is \"three\"";
    QTest::newRow("missing actual")
        << "{" + counts +
               R"(, "wrong": [{"rank": 0, "buffer": "o", "chunk": 1, "element": 2,
                               "expected": 3}]})"
        << "otherData.verification.wrong[0].actual is missing";
  }

  void badValuesNameTheField()
  {
    QFETCH(QByteArray, verification);
    QFETCH(QString, expected);
    const QByteArray json = traceWith(verification);
    const TraceReadResult read =
        readChromeTrace(std::string_view(json.constData(), json.size()), "t.json");
    QVERIFY(!read.trace);
    QCOMPARE(read.diagnostics.size(), std::size_t(1));
    QCOMPARE(read.diagnostics.front().code, std::string("trace.invalid"));
    QVERIFY2(messageOf(read).startsWith("t.json: " + expected), qPrintable(messageOf(read)));
  }
};

QTEST_MAIN(TestTraceVerification)
#include "tst_traceverification.moc"
