// The collective-studio binary as the user guide's screenshots use it: --screenshot renders the
// laid-out window at the requested size and exits 0; an unreadable FILE exits 2 naming it; bad
// arguments exit 2; --help and --version answer without any display. Runs the real executable on
// the offscreen platform (or on none at all).

#include "support/corpus.h"
#include "support/studio.h"

#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

namespace {

using cs::test::distinctColours;
using cs::test::runStudio;
using Run = cs::test::StudioRun;

} // namespace

class Test_studiocli : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase() { QVERIFY(m_dir.isValid()); }
  void screenshotOfTheExample_data();
  void screenshotOfTheExample();
  void screenshotOfACorpusFile();
  void unreadableFileExitsTwo();
  void badArgumentsExitTwo();
  void sweepScreenshotOfTheExample();
  void helpAndVersionNeedNoDisplay_data();
  void helpAndVersionNeedNoDisplay();

private:
  QTemporaryDir m_dir;
};

void Test_studiocli::screenshotOfTheExample_data()
{
  QTest::addColumn<QString>("view");
  QTest::addColumn<QString>("size");
  QTest::addColumn<QSize>("expected");
  QTest::newRow("timeline") << "timeline" << QString() << QSize(1400, 900);
  QTest::newRow("topology 1000x700") << "topology"
                                     << "1000x700" << QSize(1000, 700);
  QTest::newRow("program") << "program" << QString() << QSize(1400, 900);
}

void Test_studiocli::screenshotOfTheExample()
{
  QFETCH(QString, view);
  QFETCH(QString, size);
  QFETCH(QSize, expected);
  const QString out = m_dir.filePath(view + ".png");
  QStringList arguments{"--screenshot", out, "--view", view};
  if (!size.isEmpty())
    arguments << "--size" << size;
  const Run run = runStudio(arguments, m_dir.path());
  QVERIFY2(run.exitCode == 0, qPrintable(run.standardError));
  QImage image(out);
  QVERIFY(!image.isNull());
  QCOMPARE(image.size(), expected);
  QVERIFY(distinctColours(image) > 20);
}

void Test_studiocli::screenshotOfACorpusFile()
{
  CS_REQUIRE_CORPUS();
  const QString out = m_dir.filePath("corpus.png");
  const Run run = runStudio({cs::test::corpusPath("allreduce_a100_ring_8r_4ch_1i_LL128.xml"),
                             "--screenshot", out, "--view", "timeline"},
                            m_dir.path());
  QVERIFY2(run.exitCode == 0, qPrintable(run.standardError));
  const QImage image(out);
  QCOMPARE(image.size(), QSize(1400, 900));
  QVERIFY(distinctColours(image) > 20);
}

void Test_studiocli::unreadableFileExitsTwo()
{
  const QString broken = m_dir.filePath("broken.xml");
  QFile file(broken);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write("<algo name=\"broken\"");
  file.close();
  const QString out = m_dir.filePath("never.png");
  Run run = runStudio({broken, "--screenshot", out}, m_dir.path());
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.standardError.contains("broken.xml"), qPrintable(run.standardError));
  QVERIFY(!QFile::exists(out));

  run = runStudio({m_dir.filePath("absent.xml"), "--screenshot", out}, m_dir.path());
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.standardError.contains("absent.xml"), qPrintable(run.standardError));
}

void Test_studiocli::badArgumentsExitTwo()
{
  const QString out = m_dir.filePath("bad.png");
  Run run = runStudio({"--screenshot", out, "--view", "gantt"}, m_dir.path());
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.standardError.contains("--view"), qPrintable(run.standardError));
  run = runStudio({"--screenshot", out, "--size", "huge"}, m_dir.path());
  QCOMPARE(run.exitCode, 2);
  run = runStudio({"--no-such-option"}, m_dir.path());
  QCOMPARE(run.exitCode, 2);
  run = runStudio({"--screenshot", out, "--gpu", "h300"}, m_dir.path());
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.standardError.contains("--gpu") && run.standardError.contains("h100-sxm"),
           qPrintable(run.standardError));
  for (const char* range : {"64K", "64K:4K", "1K:lots"}) {
    run =
        runStudio({"--screenshot", out, "--dialog", "sweep", "--sweep-sizes", range}, m_dir.path());
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.standardError.contains("--sweep-sizes"), qPrintable(run.standardError));
  }
  QVERIFY(!QFile::exists(out));
}

void Test_studiocli::sweepScreenshotOfTheExample()
{
  // The sizes and backends asked for are what the window sweeps: 4 KiB..16 KiB simulated is
  // three points, done in milliseconds; a bad backend list would leave nothing to run (exit 2).
  const QString out = m_dir.filePath("sweep.png");
  const Run run = runStudio({"--screenshot", out, "--dialog", "sweep", "--size", "1200x800",
                             "--sweep-sizes", "4K:16K", "--sweep-backends", "simulate"},
                            m_dir.path());
  QVERIFY2(run.exitCode == 0, qPrintable(run.standardError));
  const QImage image(out);
  QCOMPARE(image.size(), QSize(1200, 800));
  QVERIFY(distinctColours(image) > 20);
  const Run none = runStudio({"--screenshot", m_dir.filePath("none.png"), "--dialog", "sweep",
                              "--sweep-backends", "nothing"},
                             m_dir.path());
  QCOMPARE(none.exitCode, 2);
}

void Test_studiocli::helpAndVersionNeedNoDisplay_data()
{
  QTest::addColumn<QString>("option");
  QTest::addColumn<QString>("expected");
  QTest::newRow("--help") << "--help"
                          << "--screenshot";
  QTest::newRow("-h") << "-h"
                      << "--library";
  QTest::newRow("--version") << "--version"
                             << "collective-studio " CSTUDIO_TEST_VERSION;
}

void Test_studiocli::helpAndVersionNeedNoDisplay()
{
  // No DISPLAY, no WAYLAND_DISPLAY and no QT_QPA_PLATFORM: a QApplication would abort with the
  // platform-plugin error, so these must be answered before one is made.
  QFETCH(QString, option);
  QFETCH(QString, expected);
  QProcess process;
  QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
  for (const QString name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
    environment.remove(name);
  environment.insert("XDG_CONFIG_HOME", m_dir.filePath("config"));
  process.setProcessEnvironment(environment);
  process.start(QStringLiteral(COLLECTIVE_STUDIO), {option});
  QVERIFY(process.waitForFinished(60000));
  const QString output = QString::fromLocal8Bit(process.readAllStandardOutput());
  QCOMPARE(process.exitStatus(), QProcess::NormalExit);
  QVERIFY2(process.exitCode() == 0, qPrintable(process.readAllStandardError()));
  QVERIFY2(output.contains(expected), qPrintable(output));
}

QTEST_GUILESS_MAIN(Test_studiocli)
#include "tst_studiocli.moc"
