// A file whose name attribute and an element name hold bytes that are not UTF-8 (issue 16,
// item 7) opens in the editor, its reader diagnostics are well-formed UTF-8 for the Problems
// panel, and the document saves as a design document (JSON, where nlohmann::json used to throw
// on such a name: an exception through the event loop) and opens again.

#include "document/document.h"
#include "document/documentfiles.h"

#include "catalogue/ringallreduce.h"
#include "io/mscclxmlwriter.h"
#include "support/files.h"

#include <QStringDecoder>
#include <QTemporaryDir>
#include <QTest>

using namespace cs;
using namespace cs::editor;

namespace {

bool isUtf8(const std::string& text)
{
  QStringDecoder decoder(QStringDecoder::Utf8);
  (void)decoder.decode(QByteArrayView(text.data(), qsizetype(text.size())));
  return !decoder.hasError();
}

const QString kReplacement = QString(QChar(0xfffd)) + QChar(0xfffd);

} // namespace

class TestUntrustedFile : public QObject
{
  Q_OBJECT

private slots:
  void opensChecksAndSaves();
};

void TestUntrustedFile::opensChecksAndSaves()
{
  Program program = makeRingAllReduce({.ranks = 4});
  program.name = "ring";
  QByteArray text = QByteArray::fromStdString(writeMscclXml(program, {DialectId::Executor}).text);
  QVERIFY(text.contains("name=\"ring\""));
  text.replace("name=\"ring\"", "name=\"\xff\xfering\"");
  text.insert(text.indexOf("<step"), "<st\xff\xfe"
                                     "ep/>\n");
  QTemporaryDir dir;
  const QString xml = dir.filePath("untrusted.xml");
  QVERIFY(test::writeFile(xml, text));

  LoadResult loaded = loadDocumentFile(xml);
  QVERIFY2(loaded.state.has_value(), qPrintable(loaded.error));
  QCOMPARE(loaded.diagnostics.size(), std::size_t(1));
  const Diagnostic& skipped = loaded.diagnostics.front();
  QCOMPARE(skipped.code, std::string("format.unknown-element"));
  QVERIFY(isUtf8(skipped.message));
  QVERIFY(QString::fromStdString(skipped.message).contains("<st" + kReplacement + "ep>"));

  Document document;
  document.reset(*loaded.state, {.filePath = xml});
  document.waitForAnalysis();
  QCOMPARE(document.analysis().errors, 0);

  const QString json = dir.filePath("untrusted.json");
  QCOMPARE(saveDesignFile(*loaded.state, document.schedule(), json), QString());
  const QByteArray saved = test::readFile(json);
  QVERIFY(isUtf8(saved.toStdString()));
  LoadResult again = loadDocumentFile(json);
  QVERIFY2(again.state.has_value(), qPrintable(again.error));
  QCOMPARE(QString::fromStdString(again.state->design.schedule.name), kReplacement + "ring");
}

QTEST_MAIN(TestUntrustedFile)
#include "tst_untrustedfile.moc"
