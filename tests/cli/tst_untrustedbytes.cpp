// Any byte, any output (issue 16, item 7): a file may hold bytes that are not UTF-8 in an
// attribute value, a tag name or a comment (or, in a design document, in a JSON string).
// Diagnostics and summaries quote them, and no command may crash on them (nlohmann::json used to
// throw type_error 316 and abort `validate --json`): every command exits as it would for any other
// such file, prints well-formed UTF-8 (U+FFFD where the file had bytes that are not UTF-8), prints
// JSON that parses, and names the place.

#include "support/cli.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringDecoder>
#include <QTemporaryDir>
#include <QTest>

using cs::test::readFile;

namespace {

/// What one run printed, as bytes: the point is to check they are UTF-8.
struct RawRun {
  int exitCode = -1; ///< -1 when the process crashed (SIGABRT included)
  QByteArray out;
  QByteArray err;
};

RawRun cstudioRaw(const QStringList& arguments)
{
  QProcess process;
  process.start(QStringLiteral(CSTUDIO_CLI), arguments);
  if (!process.waitForFinished(120000))
    qFatal("cstudio %s did not finish", qPrintable(arguments.join(' ')));
  return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
          process.readAllStandardOutput(), process.readAllStandardError()};
}

bool isUtf8(const QByteArray& bytes)
{
  QStringDecoder decoder(QStringDecoder::Utf8);
  (void)decoder.decode(bytes);
  return !decoder.hasError();
}

const QByteArray kBadBytes("\xff\xfe");
const QString kReplacement = QString(QChar(0xfffd)) + QChar(0xfffd);

} // namespace

class Test_untrustedbytes : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void everyCommand_data();
  void everyCommand();
  void validateJsonNamesThePlace_data();
  void validateJsonNamesThePlace();
  void infoQuotesTheFileSafely();
  void liftedDesignIsUtf8();

private:
  QString fixture(const QString& name) const
  {
    return m_dir.filePath(name + (name == "design" ? ".json" : ".xml"));
  }

  QTemporaryDir m_dir;
};

void Test_untrustedbytes::initTestCase()
{
  QVERIFY(m_dir.isValid());
  const QString ring = m_dir.filePath("ring.xml");
  QCOMPARE(cs::test::cstudio({"generate", "ring-allreduce", "--ranks", "4", "-o", ring}).exitCode,
           0);
  const QByteArray text = readFile(ring);
  QVERIFY(text.startsWith("<algo "));
  QVERIFY(text.contains("coll=\"allreduce\""));

  // In an attribute value the runtimes read: coll is no collective any more (line 1).
  QByteArray value = text;
  value.replace("coll=\"allreduce\"", "coll=\"all" + kBadBytes + "reduce\"");
  // In a value no runtime judges: the algorithm's name.
  QByteArray name = text;
  name.replace("name=\"", "name=\"" + kBadBytes);
  // In a tag name: an element the runtimes skip, on line 4 before the first step.
  QByteArray tag = text;
  const qsizetype firstStep = tag.indexOf("<step");
  QCOMPARE(tag.left(firstStep).count('\n'), 3);
  tag.insert(firstStep, "<st" + kBadBytes + "ep/>\n");
  // In a comment: nothing reads it.
  const QByteArray comment = "<!-- " + kBadBytes + " -->\n" + text;

  QVERIFY(cs::test::writeFile(fixture("value"), value));
  QVERIFY(cs::test::writeFile(fixture("name"), name));
  QVERIFY(cs::test::writeFile(fixture("tag"), tag));
  QVERIFY(cs::test::writeFile(fixture("comment"), comment));

  // In a design document (JSON, line 3: the notes): the JSON parser's own message quotes them.
  const QString lifted = m_dir.filePath("lifted.json");
  QCOMPARE(cs::test::cstudio({"export", ring, "-o", lifted}).exitCode, 0);
  QByteArray design = readFile(lifted);
  QVERIFY(design.contains("\"notes\": \"lifted from"));
  QCOMPARE(design.left(design.indexOf("\"notes\"")).count('\n'), 2);
  design.replace("\"notes\": \"", "\"notes\": \"" + kBadBytes);
  QVERIFY(cs::test::writeFile(fixture("design"), design));
}

void Test_untrustedbytes::everyCommand_data()
{
  QTest::addColumn<QString>("file");
  QTest::addColumn<QStringList>("arguments"); // after the command name and the file
  QTest::addColumn<QString>("command");
  QTest::addColumn<int>("exitCode");
  QTest::addColumn<bool>("json");

  const QStringList simulate{"--topology", "ring-4", "--bytes", "4096"};
  const QStringList run{"--backend", "cpu", "--bytes", "4096"};
  // A file with a format error: validate says 1, info still summarises it, the commands that need
  // a Program refuse (2). An unreadable design document is 2 everywhere.
  const struct {
    const char* file;
    int validate;
    int info;
    int refuse;
  } files[] = {{"value", 1, 0, 2},
               {"name", 0, 0, 0},
               {"tag", 0, 0, 0},
               {"comment", 0, 0, 0},
               {"design", 2, 2, 2}};
  for (const auto& f : files) {
    const QString file = f.file;
    for (const bool json : {false, true}) {
      const QStringList flag = json ? QStringList{"--json"} : QStringList{};
      const char* mode = json ? " --json" : "";
      QTest::addRow("%s: validate%s", f.file, mode)
          << file << flag << "validate" << f.validate << json;
      QTest::addRow("%s: info%s", f.file, mode) << file << flag << "info" << f.info << json;
      QTest::addRow("%s: simulate%s", f.file, mode)
          << file << simulate + flag << "simulate" << f.refuse << json;
      QTest::addRow("%s: run%s", f.file, mode) << file << run + flag << "run" << f.refuse << json;
    }
    QTest::addRow("%s: export xml", f.file)
        << file << QStringList{"-o", "OUT.xml"} << "export" << f.refuse << false;
    QTest::addRow("%s: export json", f.file)
        << file << QStringList{"-o", "OUT.json"} << "export" << f.refuse << false;
    QTest::addRow("%s: export classic", f.file)
        << file << QStringList{"-o", "OUT.xml", "--dialect", "classic"} << "export" << f.refuse
        << false;
  }
}

void Test_untrustedbytes::everyCommand()
{
  QFETCH(QString, file);
  QFETCH(QStringList, arguments);
  QFETCH(QString, command);
  QFETCH(int, exitCode);
  QFETCH(bool, json);
  arguments.replaceInStrings("OUT", m_dir.filePath(file + "-" + QTest::currentDataTag()));
  const RawRun run = cstudioRaw(QStringList{command, fixture(file)} + arguments);
  QVERIFY2(run.exitCode != -1, "cstudio crashed");
  QVERIFY2(run.exitCode == exitCode, run.err.constData());
  QVERIFY2(isUtf8(run.out), run.out.constData());
  QVERIFY2(isUtf8(run.err), run.err.constData());
  if (json && exitCode != 2) {
    QJsonParseError error;
    QJsonDocument::fromJson(run.out, &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
  }
  // Where the file has a format error, the message says where: line 1, the coll attribute
  // (info's text lists the reader's diagnostics after its summary).
  if (file == "value" && !json)
    QVERIFY2((run.out + run.err).contains("value.xml:1:2: error: <algo> attribute coll=\"all"),
             (run.out + run.err).constData());
  // An unreadable design document: the parser's message, with its line, and the code.
  if (file == "design" && !json)
    QVERIFY2((run.out + run.err).contains("parse error at line 3") &&
                 (run.out + run.err).contains("[design.malformed]"),
             (run.out + run.err).constData());
}

void Test_untrustedbytes::validateJsonNamesThePlace_data()
{
  QTest::addColumn<QString>("file");
  QTest::addColumn<QString>("code");
  QTest::addColumn<int>("line");
  QTest::addColumn<QString>("element");
  QTest::addColumn<QString>("quoted"); // what the message quotes, U+FFFD for the bad bytes
  QTest::newRow("attribute value") << "value"
                                   << "format.bad-value" << 1 << "algo"
                                   << "coll=\"all" + kReplacement + "reduce\"";
  QTest::newRow("tag name") << "tag"
                            << "format.unknown-element" << 4 << "st" + kReplacement + "ep"
                            << "<st" + kReplacement + "ep> inside <tb>";
}

void Test_untrustedbytes::validateJsonNamesThePlace()
{
  QFETCH(QString, file);
  QFETCH(QString, code);
  QFETCH(int, line);
  QFETCH(QString, element);
  QFETCH(QString, quoted);
  const RawRun run = cstudioRaw({"validate", "--json", fixture(file)});
  QJsonParseError error;
  const QJsonObject verdict = QJsonDocument::fromJson(run.out, &error).object();
  QVERIFY2(error.error == QJsonParseError::NoError, run.out.constData());
  QJsonObject found;
  for (const QJsonValue diagnostic : verdict["diagnostics"].toArray()) {
    if (diagnostic["code"].toString() == code)
      found = diagnostic.toObject();
  }
  QVERIFY2(!found.isEmpty(), run.out.constData());
  QCOMPARE(found["line"].toInt(), line);
  QCOMPARE(found["element"].toString(), element);
  QVERIFY2(found["message"].toString().contains(quoted), qPrintable(found["message"].toString()));
}

// info quotes the file's name and coll spelling in its summary, text and JSON.
void Test_untrustedbytes::infoQuotesTheFileSafely()
{
  const RawRun text = cstudioRaw({"info", fixture("name")});
  QCOMPARE(text.exitCode, 0);
  QVERIFY(
      QString::fromUtf8(text.out).contains("name          " + kReplacement + "ring-allreduce-4"));
  const RawRun json = cstudioRaw({"info", "--json", fixture("value")});
  QCOMPARE(json.exitCode, 0);
  const QJsonObject info = QJsonDocument::fromJson(json.out).object();
  QCOMPARE(info["collective"].toString(), "all" + kReplacement + "reduce");
  QCOMPARE(info["read_diagnostics"].toArray().size(), 1);
}

// A design document is JSON: the name it carries from the XML must not stop it being written.
void Test_untrustedbytes::liftedDesignIsUtf8()
{
  const QString design = m_dir.filePath("name-lifted.json");
  const RawRun run = cstudioRaw({"export", fixture("name"), "-o", design});
  QCOMPARE(run.exitCode, 0);
  const QByteArray written = readFile(design);
  QVERIFY(isUtf8(written));
  QCOMPARE(cstudioRaw({"validate", design}).exitCode, 0);
}

QTEST_GUILESS_MAIN(Test_untrustedbytes)
#include "tst_untrustedbytes.moc"
