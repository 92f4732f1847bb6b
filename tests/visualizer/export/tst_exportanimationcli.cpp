// collective-studio FILE --export-animation OUT [--view V] [--fps N] [--size WxH] [--topology P]:
// the real binary on the offscreen platform writes a GIF that giflib decodes to steps × frames per
// step frames of the requested size, a PNG sequence for a folder; bad options exit 2 naming the
// problem, an unwritable target exits 1 naming it and leaves no file.

#include "gifdecode.h"

#include "catalogue/ringallreduce.h"
#include "io/mscclxmlwriter.h"
#include "support/files.h"
#include "support/studio.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace cs;
using cs::test::runStudio;

class Test_exportanimationcli : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void gifOfTheRing();
  void pngSequenceIntoAFolder();
  void badOptionsExitTwo_data();
  void badOptionsExitTwo();
  void unwritableTargetExitsOne();

private:
  QTemporaryDir m_dir;
  QString m_xml;
};

void Test_exportanimationcli::initTestCase()
{
  QVERIFY(m_dir.isValid());
  m_xml = m_dir.filePath("ring8.xml");
  QVERIFY(cs::test::writeFile(
      m_xml, QByteArray::fromStdString(
                 writeMscclXml(makeRingAllReduce({8, 1, Protocol::Simple}), {}).text)));
}

void Test_exportanimationcli::gifOfTheRing()
{
  const QString out = m_dir.filePath("ring8.gif");
  const auto run = runStudio({m_xml, "--export-animation", out, "--size", "320x180", "--fps", "5",
                              "--topology", "ring-8", "--view", "topology"},
                             m_dir.path());
  QVERIFY2(run.exitCode == 0, qPrintable(run.standardError));
  const auto decoded = cs::visualizer::test::decodeGif(out);
  QVERIFY(decoded.ok);
  QCOMPARE(decoded.frames, 14 * 5); // 14 steps, 5 fps × 1 s per step
  QCOMPARE(decoded.width, 320);
  QCOMPARE(decoded.height, 180);
}

void Test_exportanimationcli::pngSequenceIntoAFolder()
{
  const QString folder = m_dir.filePath("frames");
  const auto run = runStudio({m_xml, "--export-animation", folder + "/", "--size", "320x180",
                              "--fps", "2", "--step-seconds", "0.5"},
                             m_dir.path());
  QVERIFY2(run.exitCode == 0, qPrintable(run.standardError));
  QCOMPARE(QDir(folder).entryList(QDir::Files).size(), 14); // 1 frame per step
}

void Test_exportanimationcli::badOptionsExitTwo_data()
{
  QTest::addColumn<QStringList>("options");
  QTest::addColumn<QString>("message");
  QTest::newRow("view") << QStringList{"--export-animation", "a.gif", "--view", "gantt"} << "gantt";
  QTest::newRow("format") << QStringList{"--export-animation", "a.txt"} << "a.txt";
  QTest::newRow("fps") << QStringList{"--export-animation", "a.gif", "--fps", "99"} << "99";
  QTest::newRow("size") << QStringList{"--export-animation", "a.gif", "--size", "big"} << "big";
  QTest::newRow("preset") << QStringList{"--export-animation", "a.gif", "--topology", "nope-3"}
                          << "nope-3";
  QTest::newRow("fps alone") << QStringList{"--fps", "10"} << "--export-animation";
}

void Test_exportanimationcli::badOptionsExitTwo()
{
  QFETCH(QStringList, options);
  QFETCH(QString, message);
  QTemporaryDir home;
  const auto run = runStudio(QStringList{m_xml} + options, home.path());
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.standardError.contains(message), qPrintable(run.standardError));
  QVERIFY(!QFileInfo::exists("a.gif") && !QFileInfo::exists("a.txt"));
}

void Test_exportanimationcli::unwritableTargetExitsOne()
{
  QTemporaryDir dir;
  const QString regular = dir.filePath("notes.txt");
  QVERIFY(cs::test::writeFile(regular, "notes"));
  const QString out = regular + "/ring.gif";
  QTemporaryDir home; // the settings and library, elsewhere
  const auto run = runStudio({m_xml, "--export-animation", out, "--size", "320x180"}, home.path());
  QCOMPARE(run.exitCode, 1);
  QVERIFY2(run.standardError.contains(out), qPrintable(run.standardError));
  QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"notes.txt"});
}

QTEST_MAIN(Test_exportanimationcli)
#include "tst_exportanimationcli.moc"
