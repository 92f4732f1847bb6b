// `cstudio run FILE --backend nccl` started once per rank, end to end without a GPU: four cstudio
// processes with the environment mpirun, srun or torchrun would give them, a stand-in NCCL module
// (fakelaunchbackend.cpp) in place of the real one. Checked: every rank gets rank 0's id, rank 0
// prints every rank's verdict (text and JSON) and exits with the worst, a rank that dies mid-run
// makes every other rank exit non-zero with a message naming it (also a rank killed, or rank 0,
// while every rank's run blocks: only the rendezvous watcher stops them), the ranks meet through
// a rendezvous file, and a wrong world size or
// a missing MASTER_ADDR is refused before anything starts. No timing is asserted.

#include "support/cli.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <deque>
#include <memory>

namespace {

constexpr int kHangGuardMs = 60000;

/// A port nobody listens on now (the system's pick for port 0), so that tests run in parallel.
int freePort()
{
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) != 0)
    qFatal("cannot pick a free port");
  ::close(fd);
  return ntohs(address.sin_port);
}

/// The variables each launcher sets for rank `rank` of `world` (one node).
QMap<QString, QString> launcherEnvironment(const QString& launcher, int rank, int world)
{
  const QString r = QString::number(rank);
  const QString w = QString::number(world);
  if (launcher == "mpirun")
    return {{"OMPI_COMM_WORLD_RANK", r},
            {"OMPI_COMM_WORLD_SIZE", w},
            {"OMPI_COMM_WORLD_LOCAL_RANK", r}};
  if (launcher == "srun")
    return {{"SLURM_PROCID", r}, {"SLURM_NTASKS", w}, {"SLURM_LOCALID", r}};
  return {{"RANK", r}, {"WORLD_SIZE", w}, {"LOCAL_RANK", r}};
}

struct Finished {
  int exitCode = -1; ///< -1: crashed
  QString out;
  QString err;
};

using Ranks = std::deque<QProcess>;

/// Starts `world` cstudio processes as `launcher` would, with `extra` in their environment.
void startRanks(Ranks& processes, const QString& launcher, const QString& file, int world,
                const QMap<QString, QString>& extra, const QStringList& arguments)
{
  const QString port = QString::number(freePort());
  for (int rank = 0; rank < world; ++rank) {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    QMap<QString, QString> variables = launcherEnvironment(launcher, rank, world);
    variables.insert({{"MASTER_ADDR", "127.0.0.1"},
                      {"MASTER_PORT", port},
                      {"CSTUDIO_BACKEND_PATH", CS_FAKE_LAUNCH_BACKEND_DIR}});
    variables.insert(extra);
    for (auto it = variables.begin(); it != variables.end(); ++it)
      environment.insert(it.key(), it.value());
    QProcess& process = processes.emplace_back();
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(CSTUDIO_CLI),
                  QStringList{"run", file, "--backend", "nccl", "--rendezvous-timeout", "20"} +
                      arguments);
  }
}

/// Waits for every process; `errSoFar[r]`: what rank r wrote on stderr before (already read).
std::vector<Finished> finishRanks(Ranks& processes, const std::vector<QString>& errSoFar = {})
{
  std::vector<Finished> finished;
  for (QProcess& process : processes) {
    if (process.state() != QProcess::NotRunning && !process.waitForFinished(kHangGuardMs))
      qFatal("a rank of the launcher run did not finish");
    const std::size_t r = finished.size();
    finished.push_back({process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                        QString::fromUtf8(process.readAllStandardOutput()),
                        (r < errSoFar.size() ? errSoFar[r] : QString()) +
                            QString::fromUtf8(process.readAllStandardError())});
  }
  return finished;
}

std::vector<Finished> runRanks(const QString& launcher, const QString& file, int world,
                               const QMap<QString, QString>& extra,
                               const QStringList& arguments = {})
{
  Ranks processes;
  startRanks(processes, launcher, file, world, extra, arguments);
  return finishRanks(processes);
}

/// Reads `process`'s stderr into `err` until it contains `text`; false if the process ends or
/// stays silent for the harness's whole wait first.
bool waitForStderr(QProcess& process, const QString& text, QString& err)
{
  process.setReadChannel(QProcess::StandardError);
  while (!err.contains(text)) {
    if (!process.waitForReadyRead(kHangGuardMs))
      return false;
    err += QString::fromUtf8(process.readAllStandardError());
  }
  return true;
}

} // namespace

class TestLaunchedRun : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase()
  {
    QVERIFY(m_dir.isValid());
    m_ring = m_dir.filePath("ring4.xml");
    const cs::test::CliRun generated =
        cs::test::cstudio({"generate", "ring-allreduce", "--ranks", "4", "-o", m_ring});
    QVERIFY2(generated.exitCode == 0, qPrintable(generated.err));
  }

  void everyRankVerified_data()
  {
    QTest::addColumn<QString>("launcher");
    QTest::addColumn<QString>("source");
    QTest::newRow("mpirun") << "mpirun"
                            << "Open MPI";
    QTest::newRow("srun") << "srun"
                          << "Slurm";
    QTest::newRow("torchrun") << "torchrun"
                              << "torchrun";
  }
  void everyRankVerified()
  {
    QFETCH(QString, launcher);
    QFETCH(QString, source);
    const std::vector<Finished> ranks = runRanks(launcher, m_ring, 4, {});
    for (const Finished& rank : ranks)
      QVERIFY2(rank.exitCode == 0, qPrintable(rank.err));
    const QString table = ranks[0].out;
    QVERIFY2(table.contains("4 ranks on nccl, one process per rank (" + source + ")"),
             qPrintable(table));
    for (int r = 0; r < 4; ++r) {
      QVERIFY2(
          table.contains(
              QString("  rank %1: verified, 0 wrong of 1024 elements, %2 us\n").arg(r).arg(10 + r)),
          qPrintable(table));
    }
    QVERIFY(table.contains("  time 13 us (slowest rank)"));
    QVERIFY(table.contains("  verified: 0 wrong of 4096 elements on 4 ranks\n"));
    for (int r = 1; r < 4; ++r)
      QCOMPARE(ranks[static_cast<std::size_t>(r)].out, QString());
  }

  void throughARendezvousFile()
  {
    // No MASTER_ADDR or MASTER_PORT: rank 0 publishes its address in the file.
    const QString path = m_dir.filePath("rendezvous");
    const std::vector<Finished> ranks =
        runRanks("srun", m_ring, 4, {{"MASTER_ADDR", ""}, {"MASTER_PORT", ""}},
                 {"--rendezvous", "file:" + path});
    for (const Finished& rank : ranks)
      QVERIFY2(rank.exitCode == 0, qPrintable(rank.err));
    QVERIFY2(ranks[0].out.contains("  verified: 0 wrong of 4096 elements on 4 ranks\n"),
             qPrintable(ranks[0].out));
    QVERIFY2(!QFile::exists(path), "rank 0 left its rendezvous file behind");
  }

  void oneRankWrongAsJson()
  {
    const std::vector<Finished> ranks =
        runRanks("torchrun", m_ring, 4, {{"CS_FAKE_WRONG_RANK", "2"}}, {"--json"});
    QCOMPARE(ranks[0].exitCode, 1);
    QCOMPARE(ranks[1].exitCode, 0);
    QCOMPARE(ranks[2].exitCode, 1);
    QCOMPARE(ranks[3].exitCode, 0);
    const QJsonObject run = QJsonDocument::fromJson(ranks[0].out.toUtf8()).object();
    QCOMPARE(run["status"].toString(), QString("wrong"));
    QCOMPARE(run["world"].toInt(), 4);
    QCOMPARE(run["wrong"].toInt(), 3);
    QCOMPARE(run["checked"].toInt(), 4096);
    const QJsonArray perRank = run["ranks"].toArray();
    QCOMPARE(perRank.size(), 4);
    QCOMPARE(perRank[2].toObject()["status"].toString(), QString("wrong"));
    QVERIFY(perRank[2].toObject()["detail"].toString().startsWith(
        "first wrong: rank 2 o[1] element 0: expected 6, got 0"));
    QCOMPARE(perRank[3].toObject()["status"].toString(), QString("verified"));
  }

  void aRankDyingStopsTheOthers()
  {
    const std::vector<Finished> ranks = runRanks("srun", m_ring, 4, {{"CS_FAKE_EXIT_RANK", "3"}});
    QCOMPARE(ranks[3].exitCode, 9);
    QCOMPARE(ranks[0].exitCode, 2);
    QVERIFY2(ranks[0].err.contains("cstudio run: rank 0: rank 3 disconnected during the run"),
             qPrintable(ranks[0].err));
    for (int r = 1; r < 3; ++r) {
      const Finished& rank = ranks[static_cast<std::size_t>(r)];
      QCOMPARE(rank.exitCode, 2);
      // Rank 0's watcher tells them ("rank 3 disconnected during the run") or, when their run
      // had already ended, its gather does ("rank 0 stopped the run: rank 3 disconnected …").
      QVERIFY2(rank.err.contains("rank 3 disconnected during the run"), qPrintable(rank.err));
    }
  }

  void aRankDyingDuringTheRun_data()
  {
    QTest::addColumn<int>("dead");
    QTest::newRow("rank 2") << 2;
    QTest::newRow("rank 0") << 0;
  }
  void aRankDyingDuringTheRun()
  {
    // Every rank's run blocks until cancelled and the executor's watchdog waits an hour: only
    // the rendezvous watcher can stop the survivors once a rank is killed in the middle.
    QFETCH(int, dead);
    constexpr int kWorld = 4;
    Ranks processes;
    startRanks(processes, "mpirun", m_ring, kWorld, {{"CS_FAKE_BLOCK", "1"}},
               {"--timeout", "3600"});
    std::vector<QString> err(kWorld);
    for (int r = 0; r < kWorld; ++r) {
      const auto at = static_cast<std::size_t>(r);
      QVERIFY2(waitForStderr(processes[at], QString("rank %1 is running").arg(r), err[at]),
               qPrintable(QString("rank %1 never reached the run: %2").arg(r).arg(err[at])));
    }
    processes[static_cast<std::size_t>(dead)].kill();
    const std::vector<Finished> ranks = finishRanks(processes, err);
    QCOMPARE(ranks[static_cast<std::size_t>(dead)].exitCode, -1);
    for (int r = 0; r < kWorld; ++r) {
      if (r == dead)
        continue;
      const Finished& rank = ranks[static_cast<std::size_t>(r)];
      QCOMPARE(rank.exitCode, 2);
      QVERIFY2(
          rank.err.contains(QString("cstudio run: rank %1: rank %2 disconnected during the run")
                                .arg(r)
                                .arg(dead)),
          qPrintable(rank.err));
      QCOMPARE(rank.out, QString());
    }
  }

  void aRankFailingBeforeTheId_data()
  {
    QTest::addColumn<int>("failing");
    QTest::addColumn<QString>("heard");
    QTest::newRow("rank 2") << 2
                            << "rank 0 stopped the run: rank 2 could not start: rank 2 (local "
                               "rank 2) needs a GPU, but none is visible";
    QTest::newRow("rank 0") << 0
                            << "rank 0 stopped the run: rank 0 failed: could not start: rank "
                               "0 (local rank 0) needs a GPU, but none is visible";
  }
  void aRankFailingBeforeTheId()
  {
    // Every rank stops before any would wait inside NCCL for the one that cannot start.
    QFETCH(int, failing);
    QFETCH(QString, heard);
    const std::vector<Finished> ranks =
        runRanks("mpirun", m_ring, 4, {{"CS_FAKE_FAIL_RANK", QString::number(failing)}});
    for (const Finished& rank : ranks)
      QCOMPARE(rank.exitCode, 2);
    for (int r = 1; r < 4; ++r)
      QVERIFY2(ranks[static_cast<std::size_t>(r)].err.contains(heard),
               qPrintable(ranks[static_cast<std::size_t>(r)].err));
    QVERIFY2(
        ranks[0].err.contains(QString("cstudio run: rank 0: ") +
                              (failing == 0 ? "could not start: " : "rank 2 could not start: ") +
                              QString("rank %1 (local rank %1) needs a GPU").arg(failing)),
        qPrintable(ranks[0].err));
  }

  void refusedBeforeStarting()
  {
    const QMap<QString, QString> backend{{"CSTUDIO_BACKEND_PATH", CS_FAKE_LAUNCH_BACKEND_DIR}};
    QMap<QString, QString> three = launcherEnvironment("torchrun", 1, 3);
    three.insert(backend);
    const cs::test::CliRun wrongWorld =
        cs::test::cstudio({"run", m_ring, "--backend", "nccl"}, three);
    QCOMPARE(wrongWorld.exitCode, 2);
    QVERIFY2(wrongWorld.err.contains("the launcher started 3 processes (world size, from "
                                     "torchrun) but the program has 4 ranks"),
             qPrintable(wrongWorld.err));
    QMap<QString, QString> noMaster = launcherEnvironment("mpirun", 1, 4);
    noMaster.insert(backend);
    noMaster.insert("MASTER_ADDR", "");
    const cs::test::CliRun unset =
        cs::test::cstudio({"run", m_ring, "--backend", "nccl"}, noMaster);
    QCOMPARE(unset.exitCode, 2);
    QVERIFY2(unset.err.contains("rank 1: MASTER_ADDR and MASTER_PORT must be set"),
             qPrintable(unset.err));
    const cs::test::CliRun flags = cs::test::cstudio(
        {"run", m_ring, "--backend", "nccl", "--rank", "4", "--world", "4"}, backend);
    QCOMPARE(flags.exitCode, 2);
    QVERIFY(flags.err.contains("rank 4 is not below the world size 4 (from flags)"));
    QMap<QString, QString> torchrun = launcherEnvironment("torchrun", 1, 4);
    torchrun.insert(backend);
    const cs::test::CliRun notAFile = cs::test::cstudio(
        {"run", m_ring, "--backend", "nccl", "--rendezvous", "tcp:node1:29500"}, torchrun);
    QCOMPARE(notAFile.exitCode, 2);
    QVERIFY2(notAFile.err.contains("--rendezvous takes file:PATH"), qPrintable(notAFile.err));
    const cs::test::CliRun oneProcess =
        cs::test::cstudio({"run", m_ring, "--backend", "cpu", "--rendezvous", "file:x"});
    QCOMPARE(oneProcess.exitCode, 2);
    QVERIFY2(oneProcess.err.contains("--rendezvous apply to --backend nccl only"),
             qPrintable(oneProcess.err));
  }

private:
  QTemporaryDir m_dir;
  QString m_ring;
};

QTEST_GUILESS_MAIN(TestLaunchedRun)
#include "tst_launchedrun.moc"
