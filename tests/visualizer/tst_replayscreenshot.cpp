// collective-studio FILE --trace T.json [--at US] --screenshot OUT.png --view V: writes a
// non-empty PNG of the replay (the whole window, the Gantt chart or the buffer view) at the
// requested size; a trace that does not fit the program, or a bad --view or --at, exits 2 with
// a message naming the problem. Runs the real executable on the offscreen platform.

#include "catalogue/ringallreduce.h"
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

namespace {

using cs::test::runStudio;
using Run = cs::test::StudioRun;

void writeFile(const QString& path, const std::string& text)
{
  QVERIFY(cs::test::writeFile(path, QByteArray::fromStdString(text)));
}

} // namespace

class Test_replayscreenshot : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void screenshotOfAView_data();
  void screenshotOfAView();
  void traceOfAnotherProgramExitsTwo();
  void badReplayArgumentsExitTwo_data();
  void badReplayArgumentsExitTwo();

private:
  QTemporaryDir m_dir;
  QString m_xml;
  QString m_trace;
  QString m_otherXml;
};

void Test_replayscreenshot::initTestCase()
{
  QVERIFY(m_dir.isValid());
  const Program program = makeRingAllReduce({8, 1, Protocol::Simple});
  const Topology topology = *makePresetTopology("dgx-h100");
  const SimResult result = simulateProgram(program, topology, SimOptions{});
  m_xml = m_dir.filePath("ring8.xml");
  m_trace = m_dir.filePath("ring8.json");
  m_otherXml = m_dir.filePath("ring4.xml");
  writeFile(m_xml, writeMscclXml(program, {}).text);
  writeFile(m_trace, writeChromeTrace(result.trace, &topology));
  writeFile(m_otherXml, writeMscclXml(makeRingAllReduce({4, 1, Protocol::Simple}), {}).text);
}

void Test_replayscreenshot::screenshotOfAView_data()
{
  QTest::addColumn<QString>("view");
  QTest::addColumn<QString>("size");
  QTest::newRow("playback") << "playback"
                            << "1200x800";
  QTest::newRow("gantt") << "gantt"
                         << "900x400";
  QTest::newRow("buffers") << "buffers"
                           << "700x500";
}

void Test_replayscreenshot::screenshotOfAView()
{
  QFETCH(QString, view);
  QFETCH(QString, size);
  const QString out = m_dir.filePath(view + ".png");
  const Run run = runStudio(
      {m_xml, "--trace", m_trace, "--at", "5", "--screenshot", out, "--view", view, "--size", size},
      m_dir.path());
  QVERIFY2(run.exitCode == 0, qPrintable(run.standardError));
  const QImage image(out);
  QVERIFY(!image.isNull());
  const QStringList wh = size.split('x');
  QCOMPARE(image.size() / image.devicePixelRatio(), QSize(wh[0].toInt(), wh[1].toInt()));
  QVERIFY2(cs::test::distinctColours(image) > 8, "the screenshot shows something");
}

void Test_replayscreenshot::traceOfAnotherProgramExitsTwo()
{
  const Run run = runStudio(
      {m_otherXml, "--trace", m_trace, "--screenshot", m_dir.filePath("no.png"), "--view", "gantt"},
      m_dir.path());
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.standardError.contains("ring8.json"), qPrintable(run.standardError));
  QVERIFY(!QFile::exists(m_dir.filePath("no.png")));
}

void Test_replayscreenshot::badReplayArgumentsExitTwo_data()
{
  QTest::addColumn<QStringList>("arguments");
  QTest::addColumn<QString>("message");
  QTest::newRow("view") << QStringList{"--view", "timeline"} << "--view must be playback";
  QTest::newRow("at") << QStringList{"--at", "soon"} << "--at must be a time";
}

void Test_replayscreenshot::badReplayArgumentsExitTwo()
{
  QFETCH(QStringList, arguments);
  QFETCH(QString, message);
  const Run run = runStudio(
      QStringList{m_xml, "--trace", m_trace, "--screenshot", m_dir.filePath("bad.png")} + arguments,
      m_dir.path());
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.standardError.contains(message), qPrintable(run.standardError));
}

QTEST_GUILESS_MAIN(Test_replayscreenshot)
#include "tst_replayscreenshot.moc"
