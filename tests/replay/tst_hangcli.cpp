// Hang forensics from the command line: a 4-rank ring run on the CPU with one slot per connection
// deadlocks; `cstudio run --trace` still writes the trace up to the stop (exit 3), and `cstudio
// replay` opens it at the stop with the four blocked positions and the checker's wait-for cycle.

#include "support/cli.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace cs::test;

class TestHangCli : public QObject
{
  Q_OBJECT

private:
  QTemporaryDir m_dir;
  QString path(const QString& name) const { return m_dir.filePath(name); }

  /// "rank/tb/step" of every entry of a list of positions.
  static QSet<QString> positions(const QJsonArray& list)
  {
    QSet<QString> out;
    for (const QJsonValue value : list)
      out.insert(QString("%1/%2/%3")
                     .arg(value["rank"].toInt())
                     .arg(value["tb"].toInt())
                     .arg(value["step"].toInt()));
    return out;
  }

private slots:
  void initTestCase()
  {
    QVERIFY(m_dir.isValid());
    const CliRun generated =
        cstudio({"generate", "ring-allreduce", "--ranks", "4", "-o", path("ring4.xml")});
    QVERIFY2(generated.exitCode == 0, qPrintable(generated.err));
  }

  void aHungRunKeepsItsTraceAndReplaysAtTheStop()
  {
    const CliRun run = cstudio({"run", path("ring4.xml"), "--backend", "cpu", "--bytes", "1M",
                                "--slots", "1", "--timeout", "0.3", "--trace", path("hung.json")});
    QCOMPARE(run.exitCode, 3);
    QVERIFY2(QFile::exists(path("hung.json")), qPrintable(run.err));

    const CliRun replay =
        cstudio({"replay", path("ring4.xml"), "--trace", path("hung.json"), "--json"});
    QVERIFY2(replay.exitCode == 0, qPrintable(replay.err));
    const QJsonObject state = QJsonDocument::fromJson(replay.out.toUtf8()).object();
    // Without --at the replay opens at the stop, after every completed event.
    QVERIFY(state["stopped_us"].isDouble());
    QCOMPARE(state["time_us"].toDouble(), state["stopped_us"].toDouble());
    QVERIFY(state["time_us"].toDouble() >= state["end_us"].toDouble());
    QCOMPARE(state["events_running"].toInt(), 0);
    QCOMPARE(state["connection_slots"].toInt(), 1);

    const QSet<QString> expected{"0/0/1", "1/0/1", "2/0/1", "3/0/1"};
    QCOMPARE(positions(state["stopped_blocked"].toArray()), expected);
    for (const QJsonValue value : state["stopped_blocked"].toArray())
      QCOMPARE(value.toObject()["waits_for"].toString(), QString("room"));
    QCOMPARE(positions(state["blocked"].toArray()), expected);
    QCOMPARE(state["cycle"].toArray().size(), 4);
    QCOMPARE(positions(state["cycle"].toArray()), expected);

    // An explicit --at still wins: at 0 nothing has run yet.
    const CliRun atStart =
        cstudio({"replay", path("ring4.xml"), "--trace", path("hung.json"), "--at", "0", "--json"});
    QCOMPARE(QJsonDocument::fromJson(atStart.out.toUtf8()).object()["time_us"].toDouble(), 0.0);
  }

  void aRunThatEndsHasNoStop()
  {
    const CliRun run = cstudio({"run", path("ring4.xml"), "--backend", "cpu", "--bytes", "1M",
                                "--trace", path("ended.json")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const CliRun replay =
        cstudio({"replay", path("ring4.xml"), "--trace", path("ended.json"), "--json"});
    QVERIFY2(replay.exitCode == 0, qPrintable(replay.err));
    const QJsonObject state = QJsonDocument::fromJson(replay.out.toUtf8()).object();
    QVERIFY(!state.contains("stopped_us"));
    QVERIFY(!state.contains("cycle"));
    QCOMPARE(state["time_us"].toDouble(), 0.0);
  }
};

QTEST_GUILESS_MAIN(TestHangCli)
#include "tst_hangcli.moc"
