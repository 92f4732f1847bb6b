// The GPU backends as `cstudio` users meet them: `--version` lists every backend and why the
// unavailable ones are, and `run --backend cuda|nccl` without a usable module or GPU fails with
// that reason and a usage exit code, never a crash. The modules come from CSTUDIO_BACKEND_PATH
// (an empty folder, a file that is no library, a fake module of another interface version) and,
// where this build has the real ones, from the build tree.

#include "support/cli.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using cs::test::cstudio;
using Run = cs::test::CliRun;

/// cstudio's exit code for bad arguments (cs::cli::UsageError, app/cstudio/commands.h).
constexpr int kUsageError = 2;

class TestBackendCli : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void versionListsEveryBackend();
  void runSaysWhyABackendIsUnavailable_data();
  void runSaysWhyABackendIsUnavailable();
  void realModuleWithoutGpu();

private:
  QTemporaryDir m_dir;
  QString m_ring;
};

void TestBackendCli::initTestCase()
{
  QVERIFY(m_dir.isValid());
  m_ring = m_dir.filePath("ring.xml");
  const Run run = cstudio({"generate", "ring-allreduce", "--ranks", "2", "-o", m_ring});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err));
  QVERIFY(QDir(m_dir.path()).mkdir("empty"));
  QVERIFY(QDir(m_dir.path()).mkdir("junk"));
  QFile junk(m_dir.filePath("junk/cs-backend-nccl.so"));
  QVERIFY(junk.open(QIODevice::WriteOnly));
  junk.write("not a library\n");
  junk.close();
  QVERIFY(QDir(m_dir.path()).mkdir("old"));
  QVERIFY(QFile::copy(CS_FAKE_BACKEND_DIR "/oldversion/cs-backend-fake.so",
                      m_dir.filePath("old/cs-backend-cuda.so")));
}

void TestBackendCli::versionListsEveryBackend()
{
  const QMap<QString, QString> empty{{"CSTUDIO_BACKEND_PATH", m_dir.filePath("empty")}};
  const Run run = cstudio({"--version"}, empty);
  QCOMPARE(run.exitCode, 0);
  QVERIFY2(run.out.startsWith("cstudio "), qPrintable(run.out));
  QVERIFY2(run.out.contains("\n  cpu: available (built in)"), qPrintable(run.out));
  for (const QString name : {"cuda", "nccl"})
    QVERIFY2(run.out.contains(QString("\n  %1: unavailable: no module cs-backend-%1.so in %2")
                                  .arg(name, m_dir.filePath("empty"))),
             qPrintable(run.out));
  // Without the override the CPU backend is listed whatever the machine has.
  const Run plain = cstudio({"--version"});
  QCOMPARE(plain.exitCode, 0);
  QVERIFY2(plain.out.contains("\n  cpu: available (built in)"), qPrintable(plain.out));
}

void TestBackendCli::runSaysWhyABackendIsUnavailable_data()
{
  QTest::addColumn<QString>("folder");
  QTest::addColumn<QString>("backend");
  QTest::addColumn<QString>("message");
  QTest::newRow("missing") << "empty"
                           << "cuda"
                           << "no module cs-backend-cuda.so in ";
  QTest::newRow("no library") << "junk"
                              << "nccl"
                              << "cs-backend-nccl.so cannot be loaded: ";
  QTest::newRow("other interface") << "old"
                                   << "cuda"
                                   << "has backend interface version ";
}

void TestBackendCli::runSaysWhyABackendIsUnavailable()
{
  QFETCH(QString, folder);
  QFETCH(QString, backend);
  QFETCH(QString, message);
  const Run run = cstudio({"run", m_ring, "--backend", backend},
                          {{"CSTUDIO_BACKEND_PATH", m_dir.filePath(folder)}});
  QVERIFY2(run.exitCode == kUsageError, qPrintable(run.err));
  QVERIFY2(run.err.contains("the " + backend + " backend is unavailable: "), qPrintable(run.err));
  QVERIFY2(run.err.contains(message), qPrintable(run.err));
  QVERIFY(run.out.isEmpty());
}

void TestBackendCli::realModuleWithoutGpu()
{
#if CS_HAVE_REAL_BACKENDS
  const Run version = cstudio({"--version"});
  const QRegularExpressionMatch line = QRegularExpression("\n  cuda: ([^\n]*)").match(version.out);
  QVERIFY2(line.hasMatch(), qPrintable(version.out));
  if (line.captured(1).startsWith("available"))
    QSKIP("a GPU is visible: the CUDA executor's own tests run it");
  // The module of this build loads (it is in the build tree); the CUDA runtime finds no driver.
  QVERIFY2(line.captured(1).startsWith("unavailable: no usable GPU: "),
           qPrintable(line.captured(1)));
  const Run run = cstudio({"run", m_ring, "--backend", "cuda"});
  QVERIFY2(run.exitCode == kUsageError, qPrintable(run.err));
  QVERIFY2(run.err.contains(line.captured(1).mid(QString("unavailable: ").size())),
           qPrintable(run.err));
#else
  QSKIP("this build has no CUDA module (no nvcc)");
#endif
}

QTEST_GUILESS_MAIN(TestBackendCli)
#include "tst_backendcli.moc"
