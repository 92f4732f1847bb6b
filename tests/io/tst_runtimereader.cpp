// The runtimes' own XML reader and integer conversion (issue 16 items 1 and 3): one fixture per
// rule, each with the verdict of every dialect. The executor and RCCL read files with
// msccl_parser.cc (Azure/msccl-executor-nccl, ROCm/rccl: mscclXmlGetNode, mscclXmlGetToken,
// mscclXmlGetValue, mscclXmlLoadSub; msccl_parser.h mscclXmlGetAttrInt); the classic runtime
// with NCCL's xml.cc, the same tokenizer. The runtime line each row mirrors is quoted with it.

#include "check/checker.h"
#include "check/runtimeverdict.h"
#include "io/mscclxmlreader.h"
#include "support/corpus.h"
#include "support/smallalgo.h"

#include <QTest>

#include <algorithm>
#include <array>

using namespace cs;

namespace {

// Loads and is selected in all three dialects (the executors also need outofplace, minBytes and
// maxBytes); rows below change it in one place each.
const QByteArray kLoads =
    test::replacedIn(test::kSmallAlgo, "inplace=\"1\">",
                     "inplace=\"1\" outofplace=\"0\" minBytes=\"0\" maxBytes=\"65536\">");

QByteArray replaced(const QByteArray& before, const QByteArray& after)
{
  return test::replacedIn(kLoads, before, after);
}

const Diagnostic* find(const ReadResult& result, const QString& code)
{
  return test::findCode(result, code);
}

// "ccr": the classic runtime, the executor, RCCL; 'y' loads, 'n' does not.
QString verdicts(const ReadResult& result)
{
  QString text;
  for (const DialectId id : {DialectId::Classic, DialectId::Executor, DialectId::Rccl}) {
    if (!result.program) {
      text += 'n';
      continue;
    }
    text += judgeRuntime(*result.program, id, result.diagnostics).loads() ? 'y' : 'n';
  }
  return text;
}

QByteArray manyAttributes(int count)
{
  QByteArray extra;
  for (int i = 0; i < count; ++i)
    extra += " x" + QByteArray::number(i) + "=\"0\"";
  return extra;
}

} // namespace

class Test_runtimereader : public QObject
{
  Q_OBJECT

private slots:
  void baseLoadsEverywhere();
  void rules_data();
  void rules();
  void droppedAttributeIsMissingToTheRuntime();
  void numbersReadAsStrtolDoes_data();
  void numbersReadAsStrtolDoes();
  void nodeLimit();
  void valuesTheRuntimeLoads_data();
  void valuesTheRuntimeLoads();
  void corpusHasNoReaderFindings_data();
  void corpusHasNoReaderFindings();
};

void Test_runtimereader::baseLoadsEverywhere()
{
  const ReadResult result = readMscclXml(kLoads.toStdString());
  QVERIFY2(result.diagnostics.empty(), qPrintable(test::describeDiagnostics(result.diagnostics)));
  QCOMPARE(verdicts(result), QString("yyy"));
}

void Test_runtimereader::rules_data()
{
  QTest::addColumn<QByteArray>("text");
  QTest::addColumn<QString>("code");
  QTest::addColumn<int>("severity"); // Severity
  QTest::addColumn<int>("line");
  QTest::addColumn<int>("column");
  QTest::addColumn<QString>("loads"); // classic, executor, rccl

  const int error = int(Severity::Error);
  const int warning = int(Severity::Warning);
  // mscclXmlGetNode: while (c == ' ' || c == '\n' || c == '\r') { fread } then
  //   if (c != '<') { WARN("XML Parse error : expecting '<', got '%c'", c); return
  //   ncclInternalError;
  QTest::newRow("byte-order mark") << QByteArray("\xEF\xBB\xBF").append(kLoads)
                                   << "format.lexical.bom" << error << 1 << 1 << "nnn";
  QTest::newRow("text between elements") << replaced("chan=\"0\">\n", "chan=\"0\">\n    ring")
                                         << "format.lexical.text" << error << 4 << 5 << "nnn";
  // mscclXmlGetValue: if (c != '"' && c != '\'') { ... WARN("XML Parse : Expected (double)
  //   quote."); the character after '=' must open the value.
  QTest::newRow("spaces around =") << replaced("ngpus=\"2\"", "ngpus = \"2\"")
                                   << "format.lexical.equals" << error << 1 << 70 << "nnn";
  QTest::newRow("space after =") << replaced("ngpus=\"2\"", "ngpus= \"2\"")
                                 << "format.lexical.equals" << error << 1 << 69 << "nnn";
  // mscclXmlGetToken: } while (c != ' ' && c != '>' && c != '/' && c != '\n' && c != '\r');
  //   a space ends the name, the value then belongs to a nameless token: s_chunks reads "".
  QTest::newRow("space before =") << replaced("s_chunks=\"0\">\n    <tb id=\"0\" send=\"1\"",
                                              "s_chunks =\"0\">\n    <tb id=\"0\" send=\"1\"")
                                  << "format.lexical.equals" << warning << 2 << 49 << "yyy";
  // mscclXmlGetToken: if (o == MAX_STR_LEN-1) { WARN("Error : name %s too long (max %d)", ...
  QTest::newRow("long attribute name")
      << replaced("inplace=\"1\"", "inplace=\"1\" " + QByteArray(300, 'n') + "=\"0\"")
      << "format.lexical.length" << error << 1 << 103 << "nnn";
  // mscclXmlGetValue: do { NCCLCHECK(mscclXmlGetChar(file, &c)); value[o++] = c; } while (c !=
  //   '"'); no bound on o: a value past the 256-byte field overruns the node.
  QTest::newRow("long attribute value")
      << replaced("name=\"t\"", "name=\"" + QByteArray(300, 't') + "\"")
      << "format.lexical.value-length" << error << 1 << 13 << "nnn";
  // mscclXmlGetNode, closing tag: if (c != '>') { WARN("XML Parse error : unexpected trailing %c
  //   in closing tag %s", c, node->name);
  QTest::newRow("space in closing tag")
      << replaced("</tb>", "</tb >") << "format.lexical.close-tag" << error << 6 << 9 << "nnn";
  // mscclXmlGetToken for a node name (value == NULL): if (c == '=') { WARN("XML Parse :
  //   Unexpected value with name %s", ptr); the first word of a comment is read as a name.
  QTest::newRow("= in a comment's first word")
      << QByteArray("<!--version=2 -->\n").append(kLoads) << "format.lexical.comment" << error << 1
      << 1 << "nnn";
  // mscclXmlGetNode: while (c == ' ') { mscclXmlGetToken(...) ... a++ }: each extra space reads
  //   an empty token, counted against MAX_ATTR_COUNT.
  QTest::newRow("two spaces") << replaced(" chan=\"0\">\n      <step s=\"0\"",
                                          "  chan=\"0\">\n      <step s=\"0\"")
                              << "format.lexical.spacing" << warning << 3 << 33 << "yyy";
  // mscclXmlGetNode: if (a == MAX_ATTR_COUNT) { INFO(..., "XML Parse : Ignoring extra attributes
  //   (max %d)" ...}: hasdep, the 17th, is dropped; mscclXmlGetAttrStr then fails with
  //   "Attribute hasdep of node step not found" on every runtime.
  QTest::newRow("17 step attributes")
      << replaced("dstoff=\"0\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n    </tb>",
                  "dstoff=\"0\"" + manyAttributes(7) +
                      " cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n    </tb>")
      << "format.lexical.attribute-count" << warning << 11 << 7 << "nnn";
}

void Test_runtimereader::rules()
{
  QFETCH(QByteArray, text);
  QFETCH(QString, code);
  QFETCH(int, severity);
  QFETCH(int, line);
  QFETCH(int, column);
  QFETCH(QString, loads);
  const ReadResult result = readMscclXml(std::string_view(text.constData(), size_t(text.size())));
  const Diagnostic* diagnostic = find(result, code);
  QVERIFY2(diagnostic,
           qPrintable("no " + code + " in:\n" + test::describeDiagnostics(result.diagnostics)));
  QCOMPARE(int(diagnostic->severity), severity);
  QCOMPARE(diagnostic->location.line, line);
  QCOMPARE(diagnostic->location.column, column);
  QVERIFY2(QString::fromStdString(diagnostic->message).contains("runtime"),
           "the message says what the runtime does");
  QCOMPARE(verdicts(result), loads);
}

void Test_runtimereader::droppedAttributeIsMissingToTheRuntime()
{
  // Seven attributes no runtime reads before outofplace make it the 17th <algo> attribute: the
  // executors require it (mscclXmlGetAttrInt(topNode, "outofplace", ...)) and refuse the file;
  // the classic runtime never reads outofplace and loads it.
  QByteArray text(kLoads);
  text.replace(" outofplace=\"0\"", "");
  text.replace("maxBytes=\"65536\"",
               "maxBytes=\"65536\"" + manyAttributes(7) + " outofplace=\"0\"");
  const ReadResult result = readMscclXml(text.toStdString());
  QVERIFY(result.program.has_value());
  QVERIFY(find(result, "format.lexical.attribute-count"));
  QVERIFY(QString::fromStdString(find(result, "format.lexical.attribute-count")->message)
              .contains("outofplace"));
  QVERIFY(!result.program->outofplace.has_value());
  QCOMPARE(result.program->extraAttributes.size(), std::size_t{7});
  QCOMPARE(verdicts(result), QString("ynn"));
}

void Test_runtimereader::numbersReadAsStrtolDoes_data()
{
  QTest::addColumn<QByteArray>("written");
  QTest::addColumn<int>("read");
  QTest::addColumn<QString>("says");
  // mscclXmlGetAttrInt: *value = strtol(str, NULL, 0); it takes the longest prefix and never
  //   fails, so none of these is a load error; each is a warning with the value the runtime uses.
  QTest::newRow("3abc") << QByteArray("1abc") << 1 << "ignoring \"abc\"";
  QTest::newRow("+1") << QByteArray("+1") << 1 << "skipping the '+'";
  QTest::newRow(" 1") << QByteArray(" 1") << 1 << "skipping the leading white space";
  QTest::newRow("1.0") << QByteArray("1.0") << 1 << "ignoring \".0\"";
  QTest::newRow("one") << QByteArray("one") << 0 << "finds no number in it and reads 0";
  QTest::newRow("empty") << QByteArray("") << 0 << "finds no number in it and reads 0";
  QTest::newRow("08") << QByteArray("08") << 0 << "ignoring \"8\"";
  // The int keeps strtol's low 32 bits: 99999999999 - 23 × 2^32.
  QTest::newRow("too large") << QByteArray("99999999999") << 1215752191 << "does not fit in 32";
}

void Test_runtimereader::numbersReadAsStrtolDoes()
{
  QFETCH(QByteArray, written);
  QFETCH(int, read);
  QFETCH(QString, says);
  const ReadResult result =
      readMscclXml(replaced("deps=\"-1\" hasdep=\"0\"/>\n    </tb>",
                            "deps=\"" + written + "\" hasdep=\"0\"/>\n    </tb>")
                       .toStdString());
  QVERIFY(result.program.has_value());
  QCOMPARE(result.program->gpus[0].threadblocks[0].steps[1].deps, read);
  const Diagnostic* warning = find(result, "format.bad-number");
  QVERIFY2(warning, qPrintable(test::describeDiagnostics(result.diagnostics)));
  QCOMPARE(warning->severity, Severity::Warning);
  QVERIFY2(QString::fromStdString(warning->message).contains(says),
           qPrintable(QString::fromStdString(warning->message)));
  QCOMPARE(QString::fromStdString(warning->location.attribute), QString("deps"));
}

void Test_runtimereader::nodeLimit()
{
  // mscclXmlLoadSub: if (xml->maxIndex == MAX_NODES) { WARN("Error : XML parser is limited to
  //   1024 nodes"); MAX_NODES is 4096: rank 0 here needs 1 + 2 + 64 + 2 + 63 × 64 = 4101.
  QByteArray text(kLoads);
  QByteArray tbs;
  for (int tb = 1; tb < 64; ++tb) {
    tbs += "    <tb id=\"" + QByteArray::number(tb) + "\" send=\"-1\" recv=\"-1\" chan=\"0\">\n";
    for (int s = 0; s < 64; ++s)
      tbs += "      <step s=\"" + QByteArray::number(s) +
             "\" type=\"nop\" srcbuf=\"i\" srcoff=\"-1\" dstbuf=\"o\" dstoff=\"-1\" cnt=\"0\" "
             "depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n";
    tbs += "    </tb>\n";
  }
  text.insert(text.indexOf("  </gpu>"), tbs);
  const ReadResult result = readMscclXml(text.toStdString());
  const Diagnostic* error = find(result, "format.lexical.node-count");
  QVERIFY2(error, qPrintable(test::describeDiagnostics(result.diagnostics)));
  QCOMPARE(error->location.rank, 0);
  QVERIFY(QString::fromStdString(error->message).contains("4101"));
  QCOMPARE(verdicts(result), QString("nnn"));
}

void Test_runtimereader::valuesTheRuntimeLoads_data()
{
  QTest::addColumn<QByteArray>("text");
  QTest::addColumn<QString>("code");
  QTest::addColumn<int>("severity");  // with the executor's rules
  QTest::addColumn<QString>("loads"); // classic, executor, rccl
  const int error = int(Severity::Error);
  const int warning = int(Severity::Warning);
  // msccl_parser.cc reads s only for
  //   if (s >= MSCCL_MAX_NUM_STEPS){ WARN("MSCCL: too many steps are requested. ...
  //   if (s < 0){ WARN("MSCCL: step must be positive: step %d", s);
  // and numbers transfers by position (sTB->transmissions[numTransfers]).
  QTest::newRow("permuted s") << replaced("<step s=\"0\" type=\"s\" srcbuf=\"i\" srcoff=\"0\"",
                                          "<step s=\"1\" type=\"s\" srcbuf=\"i\" srcoff=\"0\"")
                                     .replace(
                                         "<step s=\"1\" type=\"rrc\" srcbuf=\"i\" srcoff=\"1\"",
                                         "<step s=\"0\" type=\"rrc\" srcbuf=\"i\" srcoff=\"1\"")
                              << "structure.step-position" << warning << "yyy";
  QTest::newRow("repeated s") << replaced("<step s=\"1\" type=\"rrc\" srcbuf=\"i\" srcoff=\"1\"",
                                          "<step s=\"0\" type=\"rrc\" srcbuf=\"i\" srcoff=\"1\"")
                              << "structure.step-position" << warning << "yyy";
  // MSCCL_MAX_NUM_STEPS is 64 in the executor and RCCL builds, 256 in the classic runtime.
  QTest::newRow("s beyond the step limit")
      << replaced("<step s=\"1\" type=\"rrc\" srcbuf=\"i\" srcoff=\"1\"",
                  "<step s=\"64\" type=\"rrc\" srcbuf=\"i\" srcoff=\"1\"")
      << "structure.step-position" << error << "ynn";
  // if (count < 0 || count >= MSCCL_MAX_COUNT){ WARN("MSCCL: count (%d) must be positive and
  //   less than %d", ...: 0 passes.
  QTest::newRow("cnt 0") << QByteArray(kLoads).replace("cnt=\"1\"", "cnt=\"0\"")
                         << "structure.count" << warning << "yyy";
  // mscclCheckBufferBounds: if (offset < -1 || offset >= nInputChunks): the executors check
  //   offsets against i_chunks only; the classic loader's rule (topo.cc) wants
  //   i_chunks x 1 == nchunksperloop for allreduce.
  QTest::newRow("unused input headroom")
      << QByteArray(kLoads).replace("i_chunks=\"2\"", "i_chunks=\"4\"")
      << "structure.buffer-capacity" << warning << "nyy";
  // The same headroom used: the executors' bounds check lets srcoff=2 through (2 < i_chunks=4),
  //   past the 2 chunks of the user's buffer; we refuse it.
  QTest::newRow("input headroom a step uses")
      << replaced("srcoff=\"0\" dstbuf=\"i\" dstoff=\"0\" cnt=\"1\"",
                  "srcoff=\"2\" dstbuf=\"i\" dstoff=\"0\" cnt=\"1\"")
             .replace("i_chunks=\"2\"", "i_chunks=\"4\"")
      << "structure.buffer-capacity" << error << "nnn";
}

void Test_runtimereader::valuesTheRuntimeLoads()
{
  QFETCH(QByteArray, text);
  QFETCH(QString, code);
  QFETCH(int, severity);
  QFETCH(QString, loads);
  const ReadResult result = readMscclXml(text.toStdString());
  QVERIFY2(result.program && !result.hasErrors(),
           qPrintable(test::describeDiagnostics(result.diagnostics)));
  CheckOptions options;
  options.semantic = false;
  const std::vector<Diagnostic> found = checkProgram(*result.program, options);
  const auto it = std::find_if(found.begin(), found.end(), [&](const Diagnostic& d) {
    return QString::fromStdString(d.code) == code;
  });
  QVERIFY2(it != found.end(), qPrintable(test::describeDiagnostics(found)));
  QCOMPARE(int(it->severity), severity);
  QVERIFY(QString::fromStdString(it->message).contains("runtime"));
  QCOMPARE(verdicts(result), loads);
}

void Test_runtimereader::corpusHasNoReaderFindings_data()
{
  CS_REQUIRE_CORPUS();
  QTest::addColumn<QString>("path");
  for (const QString& path : test::corpusFiles())
    QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
}

void Test_runtimereader::corpusHasNoReaderFindings()
{
  // The runtimes load every corpus file: their reader finds nothing to stop at in any.
  QFETCH(QString, path);
  const ReadResult result = readMscclXmlFile(path.toStdString());
  for (const Diagnostic& d : result.diagnostics)
    QVERIFY2(!QString::fromStdString(d.code).startsWith("format.lexical") &&
                 d.code != "format.bad-number",
             qPrintable(QString::fromStdString(d.message)));
}

QTEST_GUILESS_MAIN(Test_runtimereader)
#include "tst_runtimereader.moc"
