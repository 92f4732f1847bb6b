// collective-studio FILE --trace A.json --compare B.json --screenshot OUT.png --view compare:
// writes a non-empty PNG of the comparison of a simulated and a CPU run of the 4-rank ring at
// the requested size; a second trace that does not fit FILE exits 2 naming that file, and
// --view compare without --compare exits 2. Runs the real executable on the offscreen platform.

#include "catalogue/ringallreduce.h"
#include "exec/executor.h"
#include "io/chrometrace.h"
#include "io/mscclxmlwriter.h"
#include "model/topologypresets.h"
#include "sim/simulator.h"
#include "support/files.h"
#include "support/studio.h"

#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

using namespace cs;

class Test_comparescreenshot : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void screenshotOfTheComparison();
  void secondTraceOfAnotherProgramExitsTwo();
  void compareViewWithoutSecondTraceExitsTwo();

private:
  QString file(const char* name) const { return m_dir.filePath(name); }

  QTemporaryDir m_dir; ///< ring4.xml, simulated.json and cpu.json of it, ring8.json of another
};

void Test_comparescreenshot::initTestCase()
{
  QVERIFY(m_dir.isValid());
  const Program ring8 = makeRingAllReduce({8, 1, Protocol::Simple});
  const Program program = makeRingAllReduce({4, 1, Protocol::Simple});
  const Topology topology = *makePresetTopology("ring-4");
  SimOptions sim;
  sim.bytes = 4 * 64 * 4;
  ExecOptions exec;
  exec.bytes = sim.bytes;
  exec.trace = true;
  const std::pair<QString, std::string> files[] = {
      {file("ring4.xml"), writeMscclXml(program, {}).text},
      {file("simulated.json"), writeChromeTrace(simulateProgram(program, topology, sim).trace)},
      {file("cpu.json"), writeChromeTrace(makeExecutor("cpu")->run(program, exec).trace)},
      {file("ring8.json"),
       writeChromeTrace(simulateProgram(ring8, *makePresetTopology("ring-8"), sim).trace)},
  };
  for (const auto& [path, text] : files)
    QVERIFY(cs::test::writeFile(path, QByteArray::fromStdString(text)));
}

void Test_comparescreenshot::screenshotOfTheComparison()
{
  const QString out = m_dir.filePath("compare.png");
  const cs::test::StudioRun run = cs::test::runStudio(
      {file("ring4.xml"), "--trace", file("simulated.json"), "--compare", file("cpu.json"),
       "--screenshot", out, "--view", "compare", "--size", "1200x800"},
      m_dir.path());
  QVERIFY2(run.exitCode == 0, qPrintable(run.standardError));
  const QImage image(out);
  QVERIFY(!image.isNull());
  QCOMPARE(image.size() / image.devicePixelRatio(), QSize(1200, 800));
  QVERIFY2(cs::test::distinctColours(image) > 8, "the screenshot shows something");
}

void Test_comparescreenshot::secondTraceOfAnotherProgramExitsTwo()
{
  const cs::test::StudioRun run =
      cs::test::runStudio({file("ring4.xml"), "--trace", file("simulated.json"), "--compare",
                           file("ring8.json"), "--screenshot", m_dir.filePath("no.png")},
                          m_dir.path());
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.standardError.contains("ring8.json"), qPrintable(run.standardError));
  QVERIFY(!QFile::exists(m_dir.filePath("no.png")));
}

void Test_comparescreenshot::compareViewWithoutSecondTraceExitsTwo()
{
  const cs::test::StudioRun run =
      cs::test::runStudio({file("ring4.xml"), "--trace", file("simulated.json"), "--screenshot",
                           m_dir.filePath("bad.png"), "--view", "compare"},
                          m_dir.path());
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.standardError.contains("--compare"), qPrintable(run.standardError));
}

QTEST_GUILESS_MAIN(Test_comparescreenshot)
#include "tst_comparescreenshot.moc"
