// Design documents are saved as *.csdesign.json (their desktop MIME type, resources/) while a
// plain .json design document still opens and keeps its name when saved again: the save dialog's
// name rules, and a document written under the new extension read back.

#include "document/documentfiles.h"

#include "catalogue/ringallreduce.h"
#include "io/mscclxmlwriter.h"
#include "support/files.h"

#include <QTemporaryDir>
#include <QTest>

using namespace cs;
using namespace cs::editor;

class TestDesignFileName : public QObject
{
  Q_OBJECT

private slots:
  void baseNameDropsTheWholeDesignSuffix_data();
  void baseNameDropsTheWholeDesignSuffix();
  void savePathAddsTheDesignSuffix_data();
  void savePathAddsTheDesignSuffix();
  void savedUnderTheDesignSuffixOpensAgain();
};

void TestDesignFileName::baseNameDropsTheWholeDesignSuffix_data()
{
  QTest::addColumn<QString>("path");
  QTest::addColumn<QString>("base");
  QTest::newRow("design") << "/tmp/ring.csdesign.json"
                          << "ring";
  QTest::newRow("design, upper case") << "Ring.CSDESIGN.JSON"
                                      << "Ring";
  QTest::newRow("plain json") << "/tmp/ring.json"
                              << "ring";
  QTest::newRow("xml") << "ring.v2.xml"
                       << "ring.v2";
  QTest::newRow("only the suffix") << "/tmp/.csdesign.json"
                                   << ".csdesign";
}

void TestDesignFileName::baseNameDropsTheWholeDesignSuffix()
{
  QFETCH(QString, path);
  QFETCH(QString, base);
  QCOMPARE(documentBaseName(path), base);
}

void TestDesignFileName::savePathAddsTheDesignSuffix_data()
{
  QTest::addColumn<QString>("chosen");
  QTest::addColumn<QString>("saved");
  QTest::newRow("no extension") << "/tmp/ring"
                                << "/tmp/ring.csdesign.json";
  QTest::newRow("design") << "/tmp/ring.csdesign.json"
                          << "/tmp/ring.csdesign.json";
  QTest::newRow("plain json kept") << "/tmp/ring.json"
                                   << "/tmp/ring.json";
  QTest::newRow("another extension") << "/tmp/ring.xml"
                                     << "/tmp/ring.xml.csdesign.json";
}

void TestDesignFileName::savePathAddsTheDesignSuffix()
{
  QFETCH(QString, chosen);
  QFETCH(QString, saved);
  QCOMPARE(designDocumentSavePath(chosen), saved);
}

void TestDesignFileName::savedUnderTheDesignSuffixOpensAgain()
{
  Program program = makeRingAllReduce({.ranks = 4});
  program.name = "ring";
  QTemporaryDir dir;
  const QString xml = dir.filePath("ring.xml");
  QVERIFY(test::writeFile(
      xml, QByteArray::fromStdString(writeMscclXml(program, {DialectId::Executor}).text)));
  LoadResult loaded = loadDocumentFile(xml);
  QVERIFY2(loaded.state.has_value(), qPrintable(loaded.error));

  const QString design = designDocumentSavePath(dir.filePath(documentBaseName(xml)));
  QCOMPARE(QFileInfo(design).fileName(), QString("ring.csdesign.json"));
  QCOMPARE(saveDesignFile(*loaded.state, std::nullopt, design), QString());
  QVERIFY(test::readFile(design).contains("\"collective-studio-design\""));
  LoadResult again = loadDocumentFile(design);
  QVERIFY2(again.state.has_value(), qPrintable(again.error));
  QCOMPARE(again.state->design.schedule.name, loaded.state->design.schedule.name);
}

QTEST_MAIN(TestDesignFileName)
#include "tst_designfilename.moc"
