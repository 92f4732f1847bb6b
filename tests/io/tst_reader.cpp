// The MSCCL XML reader: every corpus file, and malformed input turned into diagnostics with a
// line, a column where known, and the element and attribute involved.

#include "support/corpus.h"
#include "support/smallalgo.h"

#include "catalogue/ringallreduce.h"
#include "io/mscclxmlreader.h"
#include "io/mscclxmlwriter.h"

#include <QFileInfo>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace cs;

namespace {

const char* const kValid = test::kSmallAlgo;

QByteArray replaced(const char* before, const char* after)
{
  return test::replacedIn(kValid, before, after);
}

const Diagnostic* find(const ReadResult& result, const QString& code)
{
  return test::findCode(result, code);
}

} // namespace

class Test_reader : public QObject
{
  Q_OBJECT

private slots:
  void validDocument();
  void corpusFileReads_data();
  void corpusFileReads();
  void malformed_data();
  void malformed();
  void sortsGpusAndThreadblocksById();
  void keepsUnknownAlgoAttributes();
  void numbersAsTheRuntimeReadsThem();
  void unreadableFiles();
  void randomBytesNeverCrash();
  void truncationsNeverCrash();
};

void Test_reader::validDocument()
{
  const ReadResult result = readMscclXml(kValid);
  QVERIFY2(result.diagnostics.empty(), qPrintable(test::describeDiagnostics(result.diagnostics)));
  QVERIFY(result.program.has_value());
  const Program& program = *result.program;
  QCOMPARE(program.ngpus, 2);
  QCOMPARE(program.collective, Collective::AllReduce);
  QVERIFY(!program.outofplace.has_value());
  QVERIFY(!program.minBytes.has_value());
  QCOMPARE(program.gpus[1].threadblocks[0].steps[1].type, OpType::RecvReduceCopy);
  QCOMPARE(program.gpus[1].threadblocks[0].steps[1].srcOff, 0);
  QCOMPARE(program.gpus[0].threadblocks[0].steps[1].line, 5);
  QCOMPARE(program.gpus[0].threadblocks[0].line, 3);
}

void Test_reader::corpusFileReads_data()
{
  CS_REQUIRE_CORPUS();
  QTest::addColumn<QString>("path");
  for (const QString& path : test::corpusFiles())
    QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
}

void Test_reader::corpusFileReads()
{
  QFETCH(QString, path);
  const ReadResult result = readMscclXmlFile(path.toStdString());
  QVERIFY(result.program.has_value());
  QVERIFY2(!result.hasErrors(), qPrintable(test::describeDiagnostics(result.diagnostics)));
  // The manifest counts <step> and <tb> elements; the model must hold exactly those.
  const test::ManifestRow row = test::readManifest().value(QFileInfo(path).fileName());
  QVERIFY2(!row.isEmpty(), "the corpus file is not listed in MANIFEST.md");
  QCOMPARE(result.program->stepCount(), row.value("steps").toInt());
  QCOMPARE(result.program->threadblockCount(), row.value("tbs").toInt());
  QCOMPARE(result.program->ngpus, row.value("ngpus").toInt());
  QCOMPARE(int(result.program->gpus.size()), result.program->ngpus);
  QCOMPARE(result.program->maxThreadblocksPerRank(), row.value("max tb/gpu").toInt());
  QCOMPARE(result.program->maxStepsPerThreadblock(), row.value("max steps/tb").toInt());
}

void Test_reader::malformed_data()
{
  QTest::addColumn<QByteArray>("text");
  QTest::addColumn<QString>("code");
  QTest::addColumn<int>("line");
  QTest::addColumn<QString>("element");
  QTest::addColumn<QString>("attribute");
  QTest::addColumn<bool>("modelled"); // whether a Program still comes back

  QTest::newRow("empty file") << QByteArray() << "format.empty" << 0 << ""
                              << "" << false;
  QTest::newRow("only whitespace") << QByteArray(" \n\n ") << "format.empty" << 0 << ""
                                   << "" << false;
  QTest::newRow("truncated") << QByteArray(kValid).left(400) << "format.malformed" << 5 << ""
                             << "" << false;
  QTest::newRow("not xml") << QByteArray("hello") << "format.malformed" << 1 << ""
                           << "" << false;
  QTest::newRow("wrong root") << QByteArray("<algorithm/>") << "format.root" << 1 << ""
                              << "" << false;
  QTest::newRow("missing cnt")
      << replaced("cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n    </tb>",
                  "depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n    </tb>")
      << "format.missing-attribute" << 5 << "step"
      << "cnt" << true;
  QTest::newRow("missing ngpus") << replaced(" ngpus=\"2\"", "") << "format.missing-attribute" << 1
                                 << "algo"
                                 << "ngpus" << true;
  QTest::newRow("missing tb chan")
      << replaced(" chan=\"0\"", "") << "format.missing-attribute" << 3 << "tb"
      << "chan" << true;
  QTest::newRow("unknown type") << replaced("type=\"rrc\"", "type=\"rrx\"") << "format.unknown-type"
                                << 5 << "step"
                                << "type" << true;
  QTest::newRow("ra") << replaced("type=\"rrc\"", "type=\"ra\"") << "format.unknown-type" << 5
                      << "step"
                      << "type" << true;
  QTest::newRow("bad buffer") << replaced("dstbuf=\"i\" dstoff=\"1\"", "dstbuf=\"x\" dstoff=\"1\"")
                              << "format.bad-value" << 5 << "step"
                              << "dstbuf" << true;
  QTest::newRow("bad proto") << replaced("Simple", "simple") << "format.bad-value" << 1 << "algo"
                             << "proto" << true;
  QTest::newRow("hasdep 2") << replaced("hasdep=\"0\"/>\n    </tb>", "hasdep=\"2\"/>\n    </tb>")
                            << "format.bad-value" << 5 << "step"
                            << "hasdep" << true;
  QTest::newRow("unknown coll") << replaced("allreduce", "allsum") << "format.bad-value" << 1
                                << "algo"
                                << "coll" << true;
  QTest::newRow("xml declaration") << QByteArray("<?xml version=\"1.0\"?>\n").append(kValid)
                                   << "format.lexical.declaration" << 1 << ""
                                   << "" << true;
  QTest::newRow("single quotes") << replaced("id=\"1\" i_chunks", "id='1' i_chunks")
                                 << "format.lexical.quotes" << 8 << ""
                                 << "" << true;
  QTest::newRow("attributes on two lines")
      << replaced(" o_chunks", "\n      o_chunks") << "format.lexical.line-break" << 2 << ""
      << "" << true;
  QTest::newRow("tab between elements")
      << replaced("  <gpu id=\"1\"", "\t<gpu id=\"1\"") << "format.lexical.tab" << 8 << ""
      << "" << true;
}

void Test_reader::malformed()
{
  QFETCH(QByteArray, text);
  QFETCH(QString, code);
  QFETCH(int, line);
  QFETCH(QString, element);
  QFETCH(QString, attribute);
  QFETCH(bool, modelled);
  const ReadResult result = readMscclXml(std::string_view(text.constData(), size_t(text.size())));
  const Diagnostic* diagnostic = find(result, code);
  QVERIFY2(diagnostic,
           qPrintable("no " + code + " in:\n" + test::describeDiagnostics(result.diagnostics)));
  QCOMPARE(diagnostic->severity, Severity::Error);
  QCOMPARE(diagnostic->location.line, line);
  QCOMPARE(QString::fromStdString(diagnostic->location.element), element);
  QCOMPARE(QString::fromStdString(diagnostic->location.attribute), attribute);
  QCOMPARE(result.program.has_value(), modelled);
  QVERIFY(result.hasErrors());
}

void Test_reader::sortsGpusAndThreadblocksById()
{
  QByteArray text(kValid);
  // Swap the two gpu elements: rank 1 first in the file.
  const qsizetype second = text.indexOf("  <gpu id=\"1\"");
  const qsizetype end = text.indexOf("</algo>");
  const qsizetype first = text.indexOf("  <gpu id=\"0\"");
  const QByteArray swapped = text.left(first) + text.mid(second, end - second) +
                             text.mid(first, second - first) + text.mid(end);
  const ReadResult result = readMscclXml(swapped.toStdString());
  QVERIFY(result.program.has_value());
  QCOMPARE(result.program->gpus[0].id, 0);
  QCOMPARE(result.program->gpus[1].id, 1);
  QCOMPARE(result.program->gpus[0].line, 8); // it still knows where rank 0 was written
}

void Test_reader::keepsUnknownAlgoAttributes()
{
  const ReadResult result = readMscclXml(
      replaced("inplace=\"1\"", "inplace=\"1\" maxcount=\"1\" nthreadblocks=\"24\"").toStdString());
  QVERIFY(!result.hasErrors());
  QCOMPARE(result.program->extraAttributes.size(), std::size_t{2});
  QCOMPARE(result.program->extraAttributes[1].name, std::string("nthreadblocks"));
  QCOMPARE(result.program->extraAttributes[1].value, std::string("24"));
  QVERIFY(find(result, "format.unknown-attribute"));
}

void Test_reader::numbersAsTheRuntimeReadsThem()
{
  // strtol(…, 0): "010" is octal 8 and "0x10" is 16; both work but deserve a warning.
  const ReadResult octal =
      readMscclXml(replaced("s_chunks=\"0\"", "s_chunks=\"010\"").toStdString());
  QVERIFY(!octal.hasErrors());
  QCOMPARE(octal.program->gpus[0].scratchChunks, 8);
  const Diagnostic* warning = find(octal, "format.number-base");
  QVERIFY(warning);
  QCOMPARE(warning->severity, Severity::Warning);
  QVERIFY(QString::fromStdString(warning->message).contains("octal"));
  const ReadResult hex =
      readMscclXml(replaced("s_chunks=\"0\"", "s_chunks=\"0x10\"").toStdString());
  QCOMPARE(hex.program->gpus[0].scratchChunks, 16);
  const ReadResult negative = readMscclXml(replaced("send=\"1\"", "send=\"-1\"").toStdString());
  QCOMPARE(negative.program->gpus[0].threadblocks[0].send, -1);
  QVERIFY(!find(negative, "format.number-base"));
}

void Test_reader::unreadableFiles()
{
  QTemporaryDir dir;
  const ReadResult missing = readMscclXmlFile((dir.path() + "/absent.xml").toStdString());
  QVERIFY(missing.unreadable);
  QVERIFY(!missing.program.has_value());
  QCOMPARE(QString::fromStdString(missing.diagnostics.at(0).code), QString("format.io"));
  QVERIFY(QString::fromStdString(missing.diagnostics.at(0).message).contains("absent.xml"));
  const ReadResult directory = readMscclXmlFile(dir.path().toStdString());
  QVERIFY(directory.unreadable);
}

void Test_reader::randomBytesNeverCrash()
{
  QRandomGenerator random(12345);
  for (int i = 0; i < 300; ++i) {
    QByteArray bytes(random.bounded(1, 400), '\0');
    for (char& c : bytes)
      c = static_cast<char>(random.bounded(256));
    if (i % 2)
      bytes.prepend("<algo ");
    const ReadResult result =
        readMscclXml(std::string_view(bytes.constData(), size_t(bytes.size())));
    QVERIFY(result.hasErrors() || result.program.has_value());
  }
}

void Test_reader::truncationsNeverCrash()
{
  const std::string text = writeMscclXml(makeRingAllReduce({.ranks = 3}), {}).text;
  for (std::size_t cut = 0; cut < text.size(); cut += 7) {
    const ReadResult result = readMscclXml(std::string_view(text).substr(0, cut));
    // Any proper prefix misses the closing </algo>, so it can never be accepted as is.
    QVERIFY2(result.hasErrors(), qPrintable(QString("prefix of %1 bytes accepted").arg(cut)));
  }
}

QTEST_GUILESS_MAIN(Test_reader)
#include "tst_reader.moc"
