// The launcher rendezvous (exec/launch/rendezvous.h) across real processes over loopback: four
// rendezvouspeer processes, each a rank, drive the engine's code as `cstudio run --backend nccl`
// does under mpirun/srun/torchrun. Rank 0 listens on a port the system picks (so tests run in
// parallel) and prints it; the others connect to it. Checked: every rank gets rank 0's id and
// rank 0 gathers every verdict; a missing rank, a wrong world size, another program, a rank
// given twice, a killed rank and a garbage peer each end with the message that names them and a
// non-zero exit for every rank. Through a rendezvous file: four ranks meet past a stale file,
// and a file that never appears or names no port is named at the timeout. No timing is asserted:
// waits are hang guards only.

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <deque>
#include <memory>
#include <vector>

namespace {

/// Generous: a hang guard, never a measurement.
constexpr int kHangGuardMs = 30000;

bool waitForEnd(QProcess& process);

struct Peer {
  std::unique_ptr<QProcess> process = std::make_unique<QProcess>();
  QString out;
  QString err;
};

/// What each process printed and how it ended.
class Ranks
{
public:
  /// Every rank started from now on meets the others through the rendezvous file `path`.
  void meetThroughFile(const QString& path) { m_target = "file:" + path; }
  /// Starts rank 0 of `world` and waits for the port it listens on.
  int startRoot(int world, double timeout, const QString& mode = "ok")
  {
    Peer& root = start({"0", QString::number(world), m_target.isEmpty() ? "0" : m_target,
                        QString::number(timeout), mode});
    while (!root.process->canReadLine()) {
      if (!root.process->waitForReadyRead(kHangGuardMs))
        qFatal("rank 0 printed no port");
    }
    const QString line = QString::fromUtf8(root.process->readLine()).trimmed();
    if (!line.startsWith("port "))
      qFatal("rank 0 printed '%s' instead of its port", qPrintable(line));
    const int port = line.mid(5).toInt();
    if (m_target.isEmpty())
      m_target = QString::number(port);
    return port;
  }
  /// Starts another rank (or a garbage peer) against rank 0's port.
  Peer& startRank(int rank, int world, double timeout, const QString& mode = "ok",
                  const QString& program = "program")
  {
    return start({QString::number(rank), QString::number(world), m_target, QString::number(timeout),
                  mode, program});
  }
  /// Waits for every process (hang guard) and collects its output; returns their exit codes
  /// (-1: crashed or killed).
  std::vector<int> finish()
  {
    std::vector<int> codes;
    for (Peer& peer : m_peers) {
      if (!waitForEnd(*peer.process))
        qFatal("a rendezvous peer did not finish");
      peer.out += QString::fromUtf8(peer.process->readAllStandardOutput());
      peer.err = QString::fromUtf8(peer.process->readAllStandardError());
      codes.push_back(peer.process->exitStatus() == QProcess::NormalExit ? peer.process->exitCode()
                                                                         : -1);
    }
    return codes;
  }
  Peer& peer(int index) { return m_peers[static_cast<std::size_t>(index)]; }

private:
  Peer& start(const QStringList& arguments)
  {
    m_peers.emplace_back();
    m_peers.back().process->start(QStringLiteral(CSTUDIO_RENDEZVOUS_PEER), arguments);
    if (!m_peers.back().process->waitForStarted(kHangGuardMs))
      qFatal("cannot start rendezvouspeer");
    return m_peers.back();
  }
  std::deque<Peer> m_peers; // a deque: the Peer& handed out stay valid
  QString m_target;         ///< rank 0's port, or file:PATH
};

/// QProcess::waitForFinished() is false for a process that has already ended.
bool waitForEnd(QProcess& process)
{
  return process.state() == QProcess::NotRunning || process.waitForFinished(kHangGuardMs) ||
         process.state() == QProcess::NotRunning;
}

bool writeFile(const QString& path, const QByteArray& contents)
{
  QFile file(path);
  return file.open(QIODevice::WriteOnly) && file.write(contents) == contents.size();
}

QString idOf(const QString& out)
{
  const QRegularExpressionMatch match =
      QRegularExpression("^id ([0-9a-f]+)$", QRegularExpression::MultilineOption).match(out);
  return match.hasMatch() ? match.captured(1) : QString();
}

} // namespace

class TestRendezvous : public QObject
{
  Q_OBJECT

private slots:
  void everyRankGetsTheIdAndRankZeroGathers()
  {
    Ranks ranks;
    ranks.startRoot(4, 20);
    for (int r = 1; r < 4; ++r)
      ranks.startRank(r, 4, 20, r == 2 ? "wrong" : "ok");
    QCOMPARE(ranks.finish(), (std::vector<int>{0, 0, 0, 0}));
    const QString id = idOf(ranks.peer(0).out);
    QCOMPARE(id.size(), 256); // NCCL's 128-byte unique id
    for (int r = 1; r < 4; ++r)
      QCOMPARE(idOf(ranks.peer(r).out), id);
    const QString summary = ranks.peer(0).out;
    QVERIFY2(summary.contains("result 0 verified 0 1024\n"), qPrintable(summary));
    QVERIFY(summary.contains("result 1 verified 0 1024\n"));
    QVERIFY(summary.contains("result 2 wrong 3 1024\n"));
    QVERIFY(summary.contains("result 3 verified 0 1024\n"));
    QCOMPARE(summary.count("result "), 4);
  }

  void throughAFileLeftStaleByAnEarlierJob()
  {
    // The other ranks start first and find a file naming a port nobody listens on (a job that
    // ended; port 1, tcpmux, is served nowhere today); they read it again after each refusal
    // until rank 0 replaces it.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("rendezvous");
    QVERIFY(writeFile(path, "127.0.0.1 1\n"));
    Ranks ranks;
    ranks.meetThroughFile(path);
    for (int r = 1; r < 4; ++r)
      ranks.startRank(r, 4, 20);
    ranks.startRoot(4, 20);
    QCOMPARE(ranks.finish(), (std::vector<int>{0, 0, 0, 0}));
    const QString id = idOf(ranks.peer(3).out);
    QCOMPARE(id.size(), 256);
    for (int i = 0; i < 3; ++i)
      QCOMPARE(idOf(ranks.peer(i).out), id);
    QCOMPARE(ranks.peer(3).out.count("result "), 4);
    QVERIFY2(!QFile::exists(path), "rank 0 left its rendezvous file behind");
  }

  void withoutRankZeroTheFileIsNamed_data()
  {
    QTest::addColumn<QByteArray>("contents"); ///< null: no file at all
    QTest::addColumn<QString>("expected");    ///< PATH stands for the file's path
    QTest::newRow("never appears") << QByteArray() << "the rendezvous file PATH never appeared";
    QTest::newRow("port out of range")
        << QByteArray("node1 99999\n") << "PATH names port '99999', not a number from 1 to 65535";
    QTest::newRow("no port") << QByteArray("node1\n")
                             << "PATH does not say \"HOST PORT\" on one line";
    QTest::newRow("stale") << QByteArray("127.0.0.1 1\n")
                           << "could not reach rank 0 at 127.0.0.1:1 before the timeout: "
                              "Connection refused (as PATH says; a file left by an earlier job?)";
  }
  void withoutRankZeroTheFileIsNamed()
  {
    QFETCH(QByteArray, contents);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("rendezvous");
    if (!contents.isNull())
      QVERIFY(writeFile(path, contents));
    Ranks ranks;
    ranks.meetThroughFile(path);
    ranks.startRank(1, 2, 1);
    QCOMPARE(ranks.finish(), (std::vector<int>{1}));
    QVERIFY2(ranks.peer(0).err.contains("timed out waiting for rank 0 through the rendezvous "
                                        "file: " +
                                        QString(expected).replace("PATH", path)),
             qPrintable(ranks.peer(0).err));
  }

  void missingRankTimesOutNamingIt()
  {
    Ranks ranks;
    ranks.startRoot(4, 1.5);
    ranks.startRank(1, 4, 1.5);
    ranks.startRank(2, 4, 1.5);
    const std::vector<int> codes = ranks.finish();
    QCOMPARE(codes, (std::vector<int>{1, 1, 1}));
    const QString root = ranks.peer(0).err;
    QVERIFY2(root.contains("timed out after 1.5 s waiting for every rank at rank 0 "
                           "(arrived: 0, 1, 2; missing: 3)"),
             qPrintable(root));
    for (int r = 1; r < 3; ++r) {
      QVERIFY2(ranks.peer(r).err.contains("rank 0 stopped the run: timed out after 1.5 s"),
               qPrintable(ranks.peer(r).err));
    }
  }

  void refusedHellos_data()
  {
    QTest::addColumn<QStringList>("worlds");
    QTest::addColumn<QStringList>("rankIds");
    QTest::addColumn<QStringList>("programs");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<QList<int>>("offenders"); ///< processes (rank 0 is 0) that may be refused
    QTest::newRow("wrong world") << QStringList{"4", "4", "3", "4"} << QStringList{"1", "2", "3"}
                                 << QStringList{"p", "p", "p"}
                                 << "rank 2 was started with a world size of 3, rank 0 with 4"
                                 << QList<int>{2};
    QTest::newRow("other program")
        << QStringList{"4", "4", "4", "4"} << QStringList{"1", "2", "3"}
        << QStringList{"p", "q", "p"} << "rank 2 runs a different program file than rank 0"
        << QList<int>{2};
    QTest::newRow("rank twice") << QStringList{"4", "4", "4", "4"} << QStringList{"1", "1", "2"}
                                << QStringList{"p", "p", "p"} << "rank 1 arrived twice"
                                << QList<int>{1, 2};
    QTest::newRow("rank out of range")
        << QStringList{"4", "4", "4", "4"} << QStringList{"1", "7", "3"}
        << QStringList{"p", "p", "p"} << "says it is rank 7, outside 1..3" << QList<int>{2};
  }
  void refusedHellos()
  {
    QFETCH(QStringList, worlds);
    QFETCH(QStringList, rankIds);
    QFETCH(QStringList, programs);
    QFETCH(QString, expected);
    QFETCH(QList<int>, offenders);
    // Short: a rank started after rank 0 stopped retries until its own timeout.
    const double timeout = 3;
    Ranks ranks;
    ranks.startRoot(worlds[0].toInt(), timeout);
    // In any order: a rank that arrives after the refusal cannot connect and exits non-zero.
    for (int i = 0; i < rankIds.size(); ++i) {
      ranks.startRank(rankIds[i].toInt(), worlds[i + 1].toInt(), timeout, "ok",
                      programs[i] == "p" ? "program" : "other");
    }
    const std::vector<int> codes = ranks.finish();
    for (std::size_t i = 0; i < codes.size(); ++i)
      QVERIFY2(codes[i] == 1, qPrintable(QString("process %1 exited %2").arg(i).arg(codes[i])));
    QVERIFY2(ranks.peer(0).err.contains(expected), qPrintable(ranks.peer(0).err));
    // The refused rank was connected when rank 0 refused it, so it heard why.
    int told = 0;
    for (const int i : offenders)
      told += ranks.peer(i).err.contains("rank 0 stopped the run: ") &&
                      ranks.peer(i).err.contains(expected)
                  ? 1
                  : 0;
    QVERIFY2(told >= 1, qPrintable(ranks.peer(offenders.front()).err));
  }

  void killedRankStopsTheOthers()
  {
    Ranks ranks;
    ranks.startRoot(4, 20);
    ranks.startRank(1, 4, 20);
    ranks.startRank(2, 4, 20);
    Peer& stalled = ranks.startRank(3, 4, 20, "stall");
    while (!stalled.out.contains("\n")) {
      if (!stalled.process->waitForReadyRead(kHangGuardMs))
        qFatal("rank 3 got no id");
      stalled.out += QString::fromUtf8(stalled.process->readAllStandardOutput());
    }
    QVERIFY(stalled.out.startsWith("id "));
    stalled.process->kill();
    const std::vector<int> codes = ranks.finish();
    QCOMPARE(codes, (std::vector<int>{1, 1, 1, -1}));
    QVERIFY2(ranks.peer(0).err.contains("rank 0: error: rank 3 disconnected during the run"),
             qPrintable(ranks.peer(0).err));
    for (int r = 1; r < 3; ++r) {
      QVERIFY2(
          ranks.peer(r).err.contains("rank 0 stopped the run: rank 3 disconnected during the run"),
          qPrintable(ranks.peer(r).err));
    }
  }

  void killedRootStopsTheOthers()
  {
    Ranks ranks;
    ranks.startRoot(3, 20, "stall");
    ranks.startRank(1, 3, 20);
    ranks.startRank(2, 3, 20);
    Peer& root = ranks.peer(0);
    while (!root.out.contains("id ")) {
      if (!root.process->waitForReadyRead(kHangGuardMs))
        qFatal("rank 0 shared no id");
      root.out += QString::fromUtf8(root.process->readAllStandardOutput());
    }
    root.process->kill();
    const std::vector<int> codes = ranks.finish();
    QCOMPARE(codes, (std::vector<int>{-1, 1, 1}));
    for (int r = 1; r < 3; ++r) {
      QVERIFY2(ranks.peer(r).err.contains("rank 0 disconnected during the run"),
               qPrintable(ranks.peer(r).err));
    }
  }

  void garbagePeerIsIgnored()
  {
    Ranks ranks;
    ranks.startRoot(3, 20);
    Peer& junk = ranks.startRank(9, 3, 20, "garbage");
    if (!junk.process->waitForReadyRead(kHangGuardMs))
      qFatal("the garbage peer did not connect");
    ranks.startRank(1, 3, 20);
    ranks.startRank(2, 3, 20);
    for (int i : {0, 2, 3}) {
      QVERIFY(waitForEnd(*ranks.peer(i).process));
      QCOMPARE(ranks.peer(i).process->exitCode(), 0);
    }
    QCOMPARE(QString::fromUtf8(ranks.peer(0).process->readAllStandardOutput()).count("result "), 3);
    junk.process->kill();
    ranks.finish();
  }

  void garbagePeerNamedWhenTimingOut()
  {
    Ranks ranks;
    ranks.startRoot(2, 1.5);
    ranks.startRank(1, 2, 1.5, "garbage");
    QVERIFY(waitForEnd(*ranks.peer(0).process));
    ranks.peer(1).process->kill();
    ranks.finish();
    QCOMPARE(ranks.peer(0).process->exitCode(), 1);
    QVERIFY2(ranks.peer(0).err.contains("(arrived: 0; missing: 1); ignored 127.0.0.1:"),
             qPrintable(ranks.peer(0).err));
    QVERIFY(ranks.peer(0).err.contains("a frame announces 4294967295 bytes"));
  }
};

QTEST_GUILESS_MAIN(TestRendezvous)
#include "tst_rendezvous.moc"
