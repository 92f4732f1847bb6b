// cstudio export across the two levels: XML → design document (lifting) and design document →
// XML (lowering with --proto and --instances), as a user runs it.

#include "compile/compileutil.h"
#include "compile/schedules.h"
#include "support/cli.h"
#include "support/corpus.h"

#include "check/checker.h"
#include "io/designdocument.h"
#include "io/mscclxmlreader.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace cs;

using cs::test::cstudio;
using cs::test::readFile;
using cs::test::writeFile;
using Run = cs::test::CliRun;

class Test_exportcli : public QObject
{
  Q_OBJECT

private slots:
  void liftXmlToDesign();
  void lowerDesignToXml();
  void brokenDesignExitsTwo();
  void unlowerableDesignExitsTwo();

private:
  QTemporaryDir m_dir;
};

void Test_exportcli::liftXmlToDesign()
{
  const QString xml = m_dir.filePath("ring.xml");
  const QString json = m_dir.filePath("ring.json");
  QCOMPARE(cstudio({"generate", "ring-allreduce", "--ranks", "4", "-o", xml}).exitCode, 0);
  const Run run = cstudio({"export", xml, "-o", json});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err));
  const DesignReadResult read = readDesignDocument(readFile(json).toStdString());
  QVERIFY2(read.document, qPrintable(test::describeDiagnostics(read.diagnostics)));
  QCOMPARE(read.document->schedule.ranks, 4);
  QCOMPARE(read.document->schedule.transfers.size(), std::size_t(24));
  QCOMPARE(read.document->schedule.stepCount(), 6);
}

void Test_exportcli::lowerDesignToXml()
{
  DesignDocument document;
  document.schedule = test::ringAllReduceSchedule(3);
  const QString json = m_dir.filePath("design.json");
  const QString xml = m_dir.filePath("design.xml");
  QVERIFY(writeFile(json, QByteArray::fromStdString(writeDesignDocument(document))));
  const Run run = cstudio({"export", json, "-o", xml, "--proto", "LL", "--instances", "2"});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
  const ReadResult read = readMscclXml(readFile(xml).toStdString());
  QVERIFY(read.program);
  QCOMPARE(read.program->proto, Protocol::LL);
  QCOMPARE(read.program->nchannels, 2);
  QCOMPARE(read.program->nchunksperloop, 6);
  const auto errors = test::errorsOf(checkProgram(*read.program, {}));
  QVERIFY2(errors.empty(), qPrintable(test::describeDiagnostics(errors)));
}

void Test_exportcli::brokenDesignExitsTwo()
{
  const QString json = m_dir.filePath("broken.json");
  QVERIFY(writeFile(json, "{\"format\": \"collective-studio-design\", \"version\": 99}"));
  const Run run = cstudio({"export", json, "-o", m_dir.filePath("never.xml")});
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.err.contains("design.version"), qPrintable(run.err));
  QVERIFY(!QFile::exists(m_dir.filePath("never.xml")));
}

void Test_exportcli::unlowerableDesignExitsTwo()
{
  DesignDocument document;
  document.schedule = test::ringAllReduceSchedule(3);
  document.schedule.transfers[2].dst.rank = 7;
  const QString json = m_dir.filePath("bad-rank.json");
  QVERIFY(writeFile(json, QByteArray::fromStdString(writeDesignDocument(document))));
  const Run run = cstudio({"export", json, "-o", m_dir.filePath("bad.xml")});
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.err.contains("lower.rank-out-of-range"), qPrintable(run.err));
}

QTEST_GUILESS_MAIN(Test_exportcli)
#include "tst_exportcli.moc"
