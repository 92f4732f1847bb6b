// `cstudio replay` as a script uses it: a simulated run's trace replayed at its start, middle and
// end (events, links, blocked threadblocks, messages in flight with their contents, every rank's
// buffers), and bad traces refused with the file and the reason.

#include "exec/wrongring.h"
#include "io/mscclxmlwriter.h"
#include "support/cli.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace cs;
using namespace cs::test;

class TestReplayCli : public QObject
{
  Q_OBJECT

private:
  QTemporaryDir m_dir;
  QString path(const QString& name) const { return m_dir.filePath(name); }

  QJsonObject replayAt(const QString& program, const QString& trace, double atUs,
                       const QStringList& extra = {})
  {
    const CliRun run = cstudio(
        QStringList{"replay", program, "--trace", trace, "--at", QString::number(atUs), "--json"} +
        extra);
    if (run.exitCode != 0)
      qWarning("replay failed: %s", qPrintable(run.err));
    return QJsonDocument::fromJson(run.out.toUtf8()).object();
  }

  /// The contributing ranks of chunk `index` of `buffer` on `rank`; empty for "nothing".
  static QList<int> chunkOf(const QJsonObject& state, int rank, const QString& buffer, int index)
  {
    QList<int> ranks;
    for (const QJsonValue value :
         state["buffers"].toArray()[rank].toObject()[buffer].toArray()[index].toArray())
      ranks.append(value.toInt());
    return ranks;
  }

private slots:
  void initTestCase()
  {
    QVERIFY(m_dir.isValid());
    QCOMPARE(
        cstudio({"generate", "ring-allreduce", "--ranks", "4", "-o", path("ring4.xml")}).exitCode,
        0);
    QCOMPARE(
        cstudio({"generate", "ring-allreduce", "--ranks", "8", "-o", path("ring8.xml")}).exitCode,
        0);
    const CliRun simulated = cstudio({"simulate", path("ring4.xml"), "--topology", "ring-4",
                                      "--bytes", "1M", "--trace", path("ring4.json")});
    QVERIFY2(simulated.exitCode == 0, qPrintable(simulated.err));
  }

  void theEndHoldsTheResultAndTheStartTheInputs()
  {
    // The catalogue's ring declares in place only, so that is the default.
    const QJsonObject end =
        replayAt(path("ring4.xml"), path("ring4.json"), 1e6, {"--topology", "ring-4"});
    QCOMPARE(end["mode"].toString(), QString("in-place"));
    QVERIFY(end["events_done"].toInt() > 0);
    QCOMPARE(end["events_running"].toInt(), 0);
    QCOMPARE(end["events_pending"].toInt(), 0);
    QCOMPARE(end["blocked"].toArray().size(), 0);
    QCOMPARE(end["tokens"].toArray().size(), 0);
    for (int rank = 0; rank < 4; ++rank)
      for (int k = 0; k < 4; ++k)
        QCOMPARE(chunkOf(end, rank, "output", k), (QList<int>{0, 1, 2, 3}));

    const QJsonObject start = replayAt(path("ring4.xml"), path("ring4.json"), 0);
    QCOMPARE(start["events_done"].toInt(), 0);
    for (int rank = 0; rank < 4; ++rank)
      QCOMPARE(chunkOf(start, rank, "input", 1), QList<int>{rank});

    // Called out of place, the same instructions leave the receive buffer untouched.
    const QJsonObject outOfPlace =
        replayAt(path("ring4.xml"), path("ring4.json"), 1e6, {"--outofplace"});
    QCOMPARE(outOfPlace["mode"].toString(), QString("out-of-place"));
    QVERIFY(outOfPlace["buffers"].toArray()[2].toObject()["output"].toArray()[1].isNull());
    QCOMPARE(chunkOf(outOfPlace, 2, "input", 1), (QList<int>{0, 1, 2, 3}));
  }

  void theMiddleShowsMessagesAndLinksAtWork()
  {
    const QJsonObject end = replayAt(path("ring4.xml"), path("ring4.json"), 1e6);
    const double middle = end["end_us"].toDouble() / 2;
    const QJsonObject state =
        replayAt(path("ring4.xml"), path("ring4.json"), middle, {"--topology", "ring-4"});
    QVERIFY(state["events_done"].toInt() > 0);
    QVERIFY(state["events_pending"].toInt() > 0);
    const QJsonArray links = state["links"].toArray();
    QCOMPARE(links.size(), 4);
    double inFlight = 0;
    for (const QJsonValue link : links) {
      const QJsonObject object = link.toObject();
      for (const char* key : {"link", "a", "b", "bytes_in_flight", "utilisation"})
        QVERIFY2(object.contains(key), key);
      QVERIFY(object["a"].toString().startsWith("GPU"));
      inFlight += object["bytes_in_flight"].toDouble();
    }
    QVERIFY(inFlight > 0);
    const QJsonArray tokens = state["tokens"].toArray();
    QVERIFY(!tokens.isEmpty());
    for (const QJsonValue token : tokens) {
      const QJsonObject object = token.toObject();
      QCOMPARE((object["to"].toInt() - object["from"].toInt() + 4) % 4, 1); // ring neighbours
      QVERIFY(object["progress"].toDouble() >= 0 && object["progress"].toDouble() <= 1);
      // A message of the ring carries a partial sum that includes its sender.
      const QJsonArray contents = object["contents"].toArray();
      QVERIFY(!contents.isEmpty());
      QVERIFY(contents[0].toArray().contains(object["from"].toInt()));
    }
  }

  void comparesTwoRunsStepByStep()
  {
    const CliRun cpu = cstudio({"run", path("ring4.xml"), "--backend", "cpu", "--bytes", "1M",
                                "--trace", path("ring4-cpu.json")});
    QVERIFY2(cpu.exitCode == 0, qPrintable(cpu.err));
    const CliRun compared =
        cstudio({"replay", path("ring4.xml"), "--trace", path("ring4.json"), "--compare",
                 path("ring4-cpu.json"), "--topology", "ring-4", "--json"});
    QVERIFY2(compared.exitCode == 0, qPrintable(compared.err));
    const QJsonObject out = QJsonDocument::fromJson(compared.out.toUtf8()).object();
    QCOMPARE(out["first"].toString(), QString("simulator"));
    QCOMPARE(out["second"].toString(), QString("cpu"));
    const QJsonArray steps = out["steps"].toArray();
    QCOMPARE(steps.size(), 7); // send, 2 rrs, rrcs, 2 rcs, recv
    for (qsizetype i = 1; i < steps.size(); ++i)
      QVERIFY(steps[i - 1]["time"]["delta_us"].toDouble() >=
              steps[i]["time"]["delta_us"].toDouble());
    QCOMPARE(out["links"].toArray().size(), 4);

    // A run against itself loses nothing anywhere; the table for people says which is which.
    const CliRun itself = cstudio({"replay", path("ring4.xml"), "--trace", path("ring4.json"),
                                   "--compare", path("ring4.json"), "--json"});
    for (const QJsonValue step : QJsonDocument::fromJson(itself.out.toUtf8())["steps"].toArray())
      QCOMPARE(step["time"]["delta_us"].toDouble(), 0.0);
    const CliRun table = cstudio({"replay", path("ring4.xml"), "--trace", path("ring4.json"),
                                  "--compare", path("ring4-cpu.json"), "--topology", "ring-4"});
    QVERIFY(table.out.contains("step 6"));
    QVERIFY(table.out.contains("link 0"));
  }

  void aWrongRunListsItsWrongChunks()
  {
    // The ring broken in two known chunks of rank 0, run by `cstudio run` with a trace; replay
    // lists exactly the chunks (and values) the executor's verification named, in JSON and text.
    const test::WrongRing ring = test::makeWrongRing();
    QVERIFY(writeFile(path("wrong.xml"),
                      QByteArray::fromStdString(writeMscclXml(ring.program, {}).text)));
    const ExecOptions options = test::wrongRingOptions();
    const CliRun run =
        cstudio({"run", path("wrong.xml"), "--backend", "cpu", "--dtype", "i32", "--bytes",
                 QString::number(options.bytes), "--trace", path("wrong.json")});
    QVERIFY2(run.out.contains("wrong"), qPrintable(run.out + run.err));
    const ExecResult reference = makeExecutor("cpu")->run(ring.program, options);
    QCOMPARE(reference.wrongChunks.size(), std::size_t{2});

    const QJsonObject state = replayAt(path("wrong.xml"), path("wrong.json"), 1e6);
    const QJsonArray wrong = state["wrong"].toArray();
    QCOMPARE(wrong.size(), 2);
    std::set<std::pair<int, int>> listed;
    for (qsizetype i = 0; i < wrong.size(); ++i) {
      const QJsonObject chunk = wrong[i].toObject();
      const WrongElement& want = reference.wrongChunks[static_cast<std::size_t>(i)];
      QCOMPARE(chunk["rank"].toInt(), want.rank);
      QCOMPARE(chunk["buffer"].toString(), QString("o"));
      QCOMPARE(chunk["chunk"].toInt(), want.chunk);
      QCOMPARE(chunk["element"].toInteger(), want.element);
      QCOMPARE(chunk["expected"].toDouble(), want.expected);
      QCOMPARE(chunk["actual"].toDouble(), want.actual);
      listed.insert({chunk["rank"].toInt(), chunk["chunk"].toInt()});
    }
    QCOMPARE(listed, ring.wrongChunks());
    QCOMPARE(state["wrong_chunks"].toInt(), 2);
    QCOMPARE(state["wrong_elements"].toInteger(), reference.wrong);

    const CliRun text = cstudio({"replay", path("wrong.xml"), "--trace", path("wrong.json")});
    const WrongElement& first = reference.wrongChunks.front();
    QVERIFY2(text.out.contains(QString("rank 0 o[%1]: expected %2 actual %3 at element %4")
                                   .arg(first.chunk)
                                   .arg(first.expected)
                                   .arg(first.actual)
                                   .arg(first.element)),
             qPrintable(text.out));

    // A right run has an empty list; a simulated one (nothing verified) none at all.
    const QJsonObject simulated = replayAt(path("ring4.xml"), path("ring4.json"), 1e6);
    QVERIFY(!simulated.contains("wrong"));
  }

  void badTracesAreRefusedWithTheReason_data()
  {
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<QString>("program");
    QTest::addColumn<QString>("expected");
    QTest::newRow("truncated") << QByteArray(R"({"traceEvents": [{"ph": "X")") << "ring4.xml"
                               << "not JSON";
    QTest::newRow("negative time")
        << QByteArray(R"({"traceEvents": [{"ph": "X", "name": "s", "pid": 0, "tid": 0,
                     "ts": -1, "dur": 1, "args": {"step": 0}}]})")
        << "ring4.xml"
        << "traceEvents[0]";
    QTest::newRow("another program's trace") << QByteArray() << "ring8.xml"
                                             << "4";
  }

  void badTracesAreRefusedWithTheReason()
  {
    QFETCH(QByteArray, contents);
    QFETCH(QString, program);
    QFETCH(QString, expected);
    QString trace = path("ring4.json");
    if (!contents.isEmpty()) {
      trace = path("bad.json");
      QVERIFY(writeFile(trace, contents));
    }
    const CliRun run = cstudio({"replay", path(program), "--trace", trace, "--at", "1"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.out.isEmpty());
    QVERIFY2(run.err.contains(trace) && run.err.contains(expected), qPrintable(run.err));
  }
};

QTEST_GUILESS_MAIN(TestReplayCli)
#include "tst_replaycli.moc"
