// `cstudio library` as users and pipelines see it: JSON output, progress, exit codes, and bad
// library files left untouched with exit status 2.

#include "storagetestutil.h"
#include "support/cli.h"
#include "support/corpus.h"

#include "catalogue/catalogue.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using Run = cs::test::CliRun;

namespace {

/// Runs cstudio, with CSTUDIO_LIBRARY set to `libraryEnv` when it is not empty.
Run cstudio(const QStringList& arguments, const QString& libraryEnv = {})
{
  QMap<QString, QString> environment;
  if (!libraryEnv.isEmpty())
    environment.insert("CSTUDIO_LIBRARY", libraryEnv);
  return cs::test::cstudio(arguments, environment);
}

} // namespace

class Test_librarycli : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void listAndSearchJson();
  void importShowHistoryDiffRestore();
  void exportAndDelete();
  void badLibraryExitsTwo_data();
  void badLibraryExitsTwo();
  void unknownNameExitsTwo();

private:
  QTemporaryDir m_dir;
  QString m_library;
};

void Test_librarycli::initTestCase()
{
  QVERIFY(m_dir.isValid());
  m_library = m_dir.filePath("library.sqlite");
}

void Test_librarycli::listAndSearchJson()
{
  // The environment variable chooses the library; a new one is seeded.
  const Run list = cstudio({"library", "list", "--json"}, m_library);
  QCOMPARE(list.exitCode, 0);
  QVERIFY2(list.err.contains("created"), qPrintable(list.err));
  const QJsonArray all = QJsonDocument::fromJson(list.out.toUtf8()).array();
  // The seeded examples: every catalogue algorithm at 8 ranks and the 4-rank ring.
  QCOMPARE(all.size(), static_cast<qsizetype>(cs::algorithmCatalog().size() + 1));
  const auto named = [&all](const QString& name) {
    for (const QJsonValue& entry : all) {
      if (entry.toObject()["name"].toString() == name)
        return entry.toObject();
    }
    return QJsonObject();
  };
  QCOMPARE(named("ring-allreduce-4")["collective"].toString(), QString("all-reduce"));
  QCOMPARE(named("ring-allreduce-4")["ranks"].toInt(), 4);
  QCOMPARE(named("direct-alltoall-8")["collective"].toString(), QString("all-to-all"));

  const Run search =
      cstudio({"library", "search", "ring", "--ranks", "8", "--json", "--library", m_library});
  QCOMPARE(search.exitCode, 0);
  const QJsonArray found = QJsonDocument::fromJson(search.out.toUtf8()).array();
  QStringList foundNames;
  for (const QJsonValue& entry : found) {
    QCOMPARE(entry.toObject()["ranks"].toInt(), 8);
    foundNames << entry.toObject()["name"].toString();
  }
  QVERIFY2(foundNames.contains("ring-allreduce-8"), qPrintable(foundNames.join(' ')));
  QVERIFY(!foundNames.contains("ring-allreduce-4"));
  const Run text = cstudio({"library", "list", "--library", m_library});
  QCOMPARE(text.exitCode, 0);
  QVERIFY(text.out.contains("ring-allreduce-4"));
  QVERIFY2(text.out.contains(QString("%1 algorithms").arg(cs::algorithmCatalog().size() + 1)),
           qPrintable(text.out));
}

void Test_librarycli::importShowHistoryDiffRestore()
{
  const QString folder = m_dir.filePath("in");
  QVERIFY(QDir().mkpath(folder));
  QVERIFY(cs::test::writeFile(folder + "/ring-allreduce-4.xml",
                              QByteArray::fromStdString(cs::test::ringXml(8, "bigger"))));
  QVERIFY(cs::test::writeFile(folder + "/bad.xml", "<algo"));
  const Run imported = cstudio({"library", "import", folder, "--library", m_library});
  QCOMPARE(imported.exitCode, 1); // one file failed
  QVERIFY2(imported.err.contains("import: [1/2] bad.xml"), qPrintable(imported.err));
  QVERIFY2(imported.err.contains("bad.xml: not MSCCL XML"), qPrintable(imported.err));
  QVERIFY(imported.out.contains("imported 1 of 2 files"));

  const Run history =
      cstudio({"library", "history", "ring-allreduce-4", "--json", "--library", m_library});
  QCOMPARE(history.exitCode, 0);
  const QJsonArray versions = QJsonDocument::fromJson(history.out.toUtf8()).array();
  QCOMPARE(versions.size(), 2);
  QCOMPARE(versions[1].toObject()["shape"].toObject()["ranks"].toInt(), 8);

  const Run diff =
      cstudio({"library", "diff", "ring-allreduce-4", "1", "2", "--json", "--library", m_library});
  QCOMPARE(diff.exitCode, 0);
  const QJsonObject d = QJsonDocument::fromJson(diff.out.toUtf8()).object();
  QCOMPARE(d["from"].toObject()["threadblocks"].toInt(), 4);
  QCOMPARE(d["to"].toObject()["threadblocks"].toInt(), 8);

  const Run restore =
      cstudio({"library", "restore", "ring-allreduce-4", "1", "--library", m_library});
  QCOMPARE(restore.exitCode, 0);
  QVERIFY(restore.out.contains("restored as v3"));
  const Run xml = cstudio({"library", "show", "ring-allreduce-4", "--xml", "--library", m_library});
  QCOMPARE(xml.exitCode, 0);
  QCOMPARE(xml.out.count("<gpu "), 4);
  const Run show =
      cstudio({"library", "show", "ring-allreduce-4", "--version", "2", "--library", m_library});
  QVERIFY(show.out.contains("version:  v2 of 3"));
  QVERIFY(show.out.contains("verdict:  ok"));
}

void Test_librarycli::exportAndDelete()
{
  const QString out = m_dir.filePath("exported");
  const Run exported = cstudio({"library", "export", out, "--library", m_library});
  QCOMPARE(exported.exitCode, 0);
  QVERIFY(QFile::exists(out + "/ring-allreduce-8.xml"));
  QVERIFY(QFile::exists(out + "/library.json"));
  const Run removed = cstudio({"library", "delete", "ring-allreduce-8", "--library", m_library});
  QCOMPARE(removed.exitCode, 0);
  const Run runs = cstudio({"library", "runs", "ring-allreduce-8", "--library", m_library});
  QCOMPARE(runs.exitCode, 2);
}

void Test_librarycli::badLibraryExitsTwo_data()
{
  QTest::addColumn<QByteArray>("bytes");
  QTest::newRow("text") << QByteArray("just some notes\n");
  QByteArray noise(4096, '\0');
  for (int i = 0; i < noise.size(); ++i)
    noise[i] = static_cast<char>((i * 7919 + 13) % 251);
  QTest::newRow("random bytes") << noise;
  QTest::newRow("empty") << QByteArray();
}

void Test_librarycli::badLibraryExitsTwo()
{
  QFETCH(QByteArray, bytes);
  QTemporaryDir dir;
  const QString path = dir.filePath("bad.sqlite");
  QVERIFY(cs::test::writeFile(path, bytes));
  for (const QStringList& command :
       {QStringList{"list"}, QStringList{"import", dir.path()}, QStringList{"delete", "x"}}) {
    const Run run = cstudio(QStringList{"library"} + command + QStringList{"--library", path});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(path + ": not a Collective Studio library"), qPrintable(run.err));
  }
  QCOMPARE(cs::test::readFile(path), bytes);
  QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"bad.sqlite"});
}

void Test_librarycli::unknownNameExitsTwo()
{
  const Run run = cstudio({"library", "show", "no-such", "--library", m_library});
  QCOMPARE(run.exitCode, 2);
  QVERIFY(run.err.contains("no algorithm named \"no-such\""));
  QCOMPARE(cstudio({"library", "--library", m_library}).exitCode, 2); // no subcommand
}

QTEST_GUILESS_MAIN(Test_librarycli)
#include "tst_librarycli.moc"
