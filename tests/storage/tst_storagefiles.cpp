// The library and its file: bad files refused untouched, newer schemas read-only, older schemas
// upgraded, full disks and read-only directories failing cleanly, import and export of folders.

#include "storagetestutil.h"
#include "support/corpus.h"

#include "library.h"
#include "schema.h"
#include "sqlite.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace cs;
using namespace cs::storage;

namespace {

// How many algorithms a new library is seeded with.
const std::size_t kSeeded = exampleRequests().size();

OpenOptions unseeded()
{
  OpenOptions options;
  options.seed = false;
  return options;
}

SaveRequest request(const std::string& name, std::string xml)
{
  SaveRequest save;
  save.name = name;
  save.content.xml = std::move(xml);
  return save;
}

// Whether a process can create a file in `directory` (root ignores permission bits).
bool canWriteIn(const QString& directory)
{
  QFile probe(directory + "/probe");
  const bool writable = probe.open(QIODevice::WriteOnly);
  probe.remove();
  return writable;
}

} // namespace

class Test_storagefiles : public QObject
{
  Q_OBJECT

private slots:
  void badFilesAreRefusedUntouched_data();
  void badFilesAreRefusedUntouched();
  void newerSchemaOpensReadOnly();
  void olderSchemasAreUpgraded_data();
  void olderSchemasAreUpgraded();
  void calibrationsRoundTrip();
  void fullDiskStoresNothing();
  void readOnlyDirectory();
  void readOnlyOpenRefusesWrites();
  void importFolder();
  void importCorpus();
  void exportEverything();
};

void Test_storagefiles::badFilesAreRefusedUntouched_data()
{
  QTest::addColumn<QByteArray>("bytes");
  QTest::addColumn<QString>("reason");
  QRandomGenerator random(20261123);
  QByteArray noise(8192, '\0');
  for (char& c : noise)
    c = static_cast<char>(random.bounded(256));
  QTest::newRow("random bytes") << noise << "not an SQLite database";
  QTest::newRow("text file") << QByteArray("name,ranks\nring,8\n") << "not an SQLite database";
  QTest::newRow("empty file") << QByteArray() << "empty";

  QTemporaryDir dir;
  const std::string path = dir.filePath("whole.sqlite").toStdString();
  {
    QVERIFY(Library::open(path).ok());
  }
  const QByteArray whole = test::readFile(QString::fromStdString(path));
  QVERIFY(whole.size() > 8192);
  QTest::newRow("truncated library") << whole.left(whole.size() / 2) << "truncated";
  QTest::newRow("truncated mid-page") << whole.left(5000) << "truncated";
  QByteArray header = whole;
  header.replace(0, 6, "SQLITE");
  QTest::newRow("damaged magic") << header << "not an SQLite database";

  const std::string foreign = dir.filePath("foreign.sqlite").toStdString();
  {
    sql::Connection db;
    QVERIFY(db.open(foreign, sql::OpenMode::Create));
    QVERIFY(db.exec("CREATE TABLE photos(id INTEGER PRIMARY KEY, path TEXT)"));
  }
  QTest::newRow("another program's database")
      << test::readFile(QString::fromStdString(foreign)) << "another program";
}

void Test_storagefiles::badFilesAreRefusedUntouched()
{
  QFETCH(QByteArray, bytes);
  QFETCH(QString, reason);
  QTemporaryDir dir;
  const QString path = dir.filePath("library.sqlite");
  QVERIFY(test::writeFile(path, bytes));
  for (bool readOnly : {false, true}) {
    OpenOptions options;
    options.readOnly = readOnly;
    Result<Library> library = Library::open(path.toStdString(), options);
    QVERIFY(!library.ok());
    QCOMPARE(library.error().kind, ErrorKind::Corrupt);
    const QString message = QString::fromStdString(library.error().message);
    QVERIFY2(message.startsWith(path + ": not a Collective Studio library"), qPrintable(message));
    QVERIFY2(message.contains(reason), qPrintable(message));
  }
  QCOMPARE(test::readFile(path), bytes);
  QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"library.sqlite"});
}

void Test_storagefiles::newerSchemaOpensReadOnly()
{
  QTemporaryDir dir;
  const std::string path = dir.filePath("library.sqlite").toStdString();
  {
    QVERIFY(Library::open(path).ok());
  }
  {
    sql::Connection db;
    QVERIFY(db.open(path, sql::OpenMode::ReadWrite));
    QVERIFY(db.exec("PRAGMA user_version = " + std::to_string(kSchemaVersion + 1)));
  }
  Result<Library> library = Library::open(path);
  QVERIFY2(library.ok(), library.ok() ? "" : library.error().message.c_str());
  QVERIFY(library->readOnly());
  QCOMPARE(library->fileSchemaVersion(), kSchemaVersion + 1);
  QVERIFY(library->notice().find("newer") != std::string::npos);
  QCOMPARE(library->list()->size(), kSeeded); // still readable
  Result<SaveOutcome> saved = library->save(request("x", test::ringXml(2)));
  QCOMPARE(saved.error().kind, ErrorKind::TooNew);
  QVERIFY(saved.error().message.find(path) == 0);
  QCOMPARE(library->setSetting("a", "b").error().kind, ErrorKind::TooNew);
  sql::Connection db;
  QVERIFY(db.open(path, sql::OpenMode::ReadOnly));
  QCOMPARE(db.queryInt("PRAGMA user_version"), kSchemaVersion + 1); // never downgraded
}

void Test_storagefiles::olderSchemasAreUpgraded_data()
{
  QTest::addColumn<int>("version");
  for (int version = 1; version < kSchemaVersion; ++version)
    QTest::addRow("schema %d", version) << version;
}

void Test_storagefiles::olderSchemasAreUpgraded()
{
  QFETCH(int, version);
  QTemporaryDir dir;
  const std::string path = dir.filePath("old.sqlite").toStdString();
  QVERIFY(createLibraryFileAtVersion(path, version).ok());
  {
    // Rows as the old program wrote them, through its own (version 1) columns.
    sql::Connection db;
    QVERIFY(db.open(path, sql::OpenMode::ReadWrite));
    QVERIFY(db.exec(
        "INSERT INTO algorithms VALUES (7, 'old-ring', 'all-reduce', 4, 'imported', '/a.xml', "
        "'legacy', 'kept from the first schema', NULL, 1, '2025-01-01', '2025-01-01');"
        "INSERT INTO contents VALUES (1, 0, '<algo/>', '', 'all-reduce', 4, 4, 28, -1, '', 'ok', "
        "0, 0, '');"
        "INSERT INTO versions VALUES (1, 7, 1, 1, 'first', NULL, '2025-01-01');"
        "INSERT INTO runs(id, version_id, backend, device, dtype, op, bytes, time_us, algbw, "
        "busbw, wrong, created) VALUES (1, 1, 'cpu', 'host', 'float', 'sum', 1024, 2.5, 0.4, 0.6, "
        "0, "
        "'2025-01-01');"));
  }
  Result<Library> library = Library::open(path, unseeded());
  QVERIFY2(library.ok(), library.ok() ? "" : library.error().message.c_str());
  QCOMPARE(library->fileSchemaVersion(), version);
  QVERIFY(library->notice().find("upgraded") != std::string::npos);
  QVERIFY(!library->readOnly());
  Result<std::vector<AlgorithmRecord>> found = library->search({"legacy first", {}, {}, 0});
  QVERIFY(found.ok());
  QCOMPARE(found->size(), std::size_t{1});
  QCOMPARE(found->front().id, std::int64_t{7});
  QCOMPARE(library->history(7)->front().message, std::string("first"));
  // A run stored before schema 3 reads back with no status and no verdict, not an error.
  Result<std::vector<RunRecord>> runs = library->runs(7);
  QVERIFY(runs.ok());
  QCOMPARE(runs->size(), std::size_t{1});
  QCOMPARE(runs->front().timeUs, 2.5);
  QVERIFY(runs->front().status.empty());
  QVERIFY(runs->front().verdict.empty());
  QVERIFY(library->save(request("old-ring", test::ringXml(4))).ok());
  QCOMPARE(library->version(7, 0)->number, 2);
  // Schema 4's calibrations: none yet in an upgraded file, and one can be stored.
  QVERIFY(library->calibrations().ok());
  QVERIFY(library->calibrations()->empty());
  QVERIFY(library->saveCalibration({0, "host", "ring-8", "cpu", "{}", ""}).ok());
  sql::Connection db;
  QVERIFY(db.open(path, sql::OpenMode::ReadOnly));
  QCOMPARE(db.queryInt("PRAGMA user_version"), kSchemaVersion);
}

void Test_storagefiles::calibrationsRoundTrip()
{
  QTemporaryDir dir;
  Result<Library> library = Library::open(dir.filePath("cal.sqlite").toStdString(), unseeded());
  QVERIFY(library.ok());
  QCOMPARE(library->calibration("lab").error().kind, ErrorKind::NotFound);
  QVERIFY(library->calibration("lab").error().message.find("lab") != std::string::npos);
  const Result<std::int64_t> id =
      library->saveCalibration({0, "lab", "dgx-h100", "cpu", R"({"a": 1})", ""});
  QVERIFY(id.ok());
  QVERIFY(library->saveCalibration({0, "other", "ring-4", "cuda", "{}", ""}).ok());
  // Saving under the same name replaces the document and keeps the row.
  QCOMPARE(*library->saveCalibration({0, "lab", "ring-8", "cpu", R"({"a": 2})", ""}), *id);
  const Result<CalibrationRecord> lab = library->calibration("lab");
  QVERIFY(lab.ok());
  QCOMPARE(lab->topology, std::string("ring-8"));
  QCOMPARE(lab->json, std::string(R"({"a": 2})"));
  QVERIFY(!lab->created.empty());
  QCOMPARE(library->calibrations()->size(), std::size_t{2});
  QCOMPARE(library->calibrations()->front().name, std::string("lab"));
  QCOMPARE(library->saveCalibration({0, "", "t", "cpu", "{}", ""}).error().kind,
           ErrorKind::Invalid);
}

void Test_storagefiles::fullDiskStoresNothing()
{
  QTemporaryDir dir;
  const std::string path = dir.filePath("library.sqlite").toStdString();
  {
    QVERIFY(Library::open(path).ok());
  }
  std::int64_t pages = 0;
  {
    sql::Connection db;
    QVERIFY(db.open(path, sql::OpenMode::ReadOnly));
    pages = db.queryInt("PRAGMA page_count");
  }
  // SQLite's page limit fails a write with SQLITE_FULL exactly as a full disk does.
  OpenOptions options;
  options.maxPageCount = static_cast<int>(pages + 20);
  Result<Library> library = Library::open(path, options);
  QVERIFY(library.ok());
  const std::string large = test::ringXml(16, "large", 8); // about half a megabyte
  QVERIFY(large.size() > 20 * 4096 * 2);
  Result<SaveOutcome> saved = library->save(request("large", large));
  QVERIFY(!saved.ok());
  QCOMPARE(saved.error().kind, ErrorKind::Full);
  QVERIFY(saved.error().message.find(path) == 0);
  QVERIFY(saved.error().message.find("full") != std::string::npos);
  QCOMPARE(library->algorithm("large").error().kind, ErrorKind::NotFound);
  QCOMPARE(library->list()->size(), kSeeded);
  QCOMPARE(*library->integrityCheck(), std::string("ok"));
  QVERIFY(library->save(request("small", test::ringXml(2, "small"))).ok()); // still usable
}

void Test_storagefiles::readOnlyDirectory()
{
  QTemporaryDir dir;
  const QString folder = dir.filePath("shared");
  QVERIFY(QDir().mkpath(folder));
  const std::string path = (folder + "/library.sqlite").toStdString();
  {
    QVERIFY(Library::open(path).ok());
  }
  QVERIFY(::chmod(folder.toLocal8Bit().constData(), 0555) == 0);
  bool immutable = false;
  if (canWriteIn(folder)) {
    // Root ignores permission bits; the immutable attribute binds root too where supported.
    immutable = QProcess::execute("chattr", {"+i", folder}) == 0;
  }
  bool restored = false;
  const auto restore = [&] {
    if (restored)
      return;
    restored = true;
    if (immutable)
      QProcess::execute("chattr", {"-i", folder});
    ::chmod(folder.toLocal8Bit().constData(), 0755);
  };
  const auto guard = qScopeGuard(restore);
  if (canWriteIn(folder))
    QSKIP("cannot make a directory read-only here (root without chattr support)");

  const std::string fresh = (folder + "/new.sqlite").toStdString();
  Result<Library> created = Library::open(fresh);
  QVERIFY(!created.ok());
  QCOMPARE(created.error().kind, ErrorKind::ReadOnly);
  QVERIFY2(created.error().message.find(fresh) == 0, created.error().message.c_str());

  Result<Library> library = Library::open(path);
  if (library.ok()) {
    Result<SaveOutcome> saved = library->save(request("x", test::ringXml(2)));
    QVERIFY(!saved.ok());
    QCOMPARE(saved.error().kind, ErrorKind::ReadOnly);
    QVERIFY2(saved.error().message.find(path) == 0, saved.error().message.c_str());
  } else {
    QCOMPARE(library.error().kind, ErrorKind::ReadOnly);
    QVERIFY2(library.error().message.find(path) == 0, library.error().message.c_str());
  }
  restore();
  Result<Library> after = Library::open(path);
  QVERIFY(after.ok());
  QCOMPARE(after->list()->size(), kSeeded); // no partial version
  QCOMPARE(after->algorithm("x").error().kind, ErrorKind::NotFound);
}

void Test_storagefiles::readOnlyOpenRefusesWrites()
{
  QTemporaryDir dir;
  const std::string path = dir.filePath("library.sqlite").toStdString();
  {
    QVERIFY(Library::open(path).ok());
  }
  OpenOptions options;
  options.readOnly = true;
  Result<Library> library = Library::open(path, options);
  QVERIFY(library.ok());
  QCOMPARE(library->save(request("x", test::ringXml(2))).error().kind, ErrorKind::ReadOnly);
  QCOMPARE(library->remove(1).error().kind, ErrorKind::ReadOnly);
  QCOMPARE(library->list()->size(), kSeeded);
  QCOMPARE(Library::open(dir.filePath("absent.sqlite").toStdString(), options).error().kind,
           ErrorKind::NotFound);
}

void Test_storagefiles::importFolder()
{
  QTemporaryDir dir;
  const QString folder = dir.filePath("in");
  QVERIFY(QDir().mkpath(folder));
  QVERIFY(test::writeFile(folder + "/ring4.xml", QByteArray::fromStdString(test::ringXml(4))));
  QVERIFY(test::writeFile(folder + "/ring8.xml", QByteArray::fromStdString(test::ringXml(8))));
  QVERIFY(test::writeFile(folder + "/garbage.xml", "this is not xml"));
  QVERIFY(test::writeFile(folder + "/readme.txt", "ignored"));
  Result<Library> library = Library::open(dir.filePath("library.sqlite").toStdString(), unseeded());
  std::vector<Progress> steps;
  Result<ImportReport> report = library->importFolder(
      folder.toStdString(), [&steps](const Progress& p) { steps.push_back(p); });
  QVERIFY(report.ok());
  QCOMPARE(report->files, 3);
  QCOMPARE(report->added, 2);
  QCOMPARE(report->unchanged, 0);
  QCOMPARE(report->failures.size(), std::size_t{1});
  QVERIFY(report->failures[0].find("garbage.xml: not MSCCL XML") != std::string::npos);
  QCOMPARE(steps.size(), std::size_t{4}); // one per file and the end
  QCOMPARE(steps[0].total, 3);
  QCOMPARE(steps[0].item, std::string("garbage.xml"));
  QCOMPARE(steps[3].done, 3);
  Result<AlgorithmRecord> ring8 = library->algorithm("ring8");
  QCOMPARE(ring8->provenance, Provenance::Imported);
  QCOMPARE(ring8->sourceFile, (folder + "/ring8.xml").toStdString());
  QCOMPARE(ring8->ranks, 8);

  report = library->importFolder(folder.toStdString());
  QCOMPARE(report->added, 0);
  QCOMPARE(report->unchanged, 2);
  QCOMPARE(library->importFolder(dir.filePath("missing").toStdString()).error().kind,
           ErrorKind::Invalid);
}

void Test_storagefiles::importCorpus()
{
  CS_REQUIRE_CORPUS();
  QTemporaryDir dir;
  Result<Library> library = Library::open(dir.filePath("library.sqlite").toStdString(), unseeded());
  Result<ImportReport> report = library->importFolder(test::corpusDir().toStdString());
  QVERIFY(report.ok());
  QCOMPARE(report->files, static_cast<int>(test::corpusFiles().size()));
  // Every corpus file is MSCCL XML the reader models (broken ones are kept with their verdict).
  QCOMPARE(report->added + report->unchanged, report->files - int(report->failures.size()));
  QCOMPARE(library->list()->size(), std::size_t(report->added));
  QCOMPARE(*library->integrityCheck(), std::string("ok"));
}

void Test_storagefiles::exportEverything()
{
  QTemporaryDir dir;
  Result<Library> library = Library::open(dir.filePath("library.sqlite").toStdString());
  QVERIFY(library->save(request("ring-allreduce-4", test::ringXml(4, "second"))).ok());
  QVERIFY(library->save(request("odd/name", test::ringXml(2, "odd"))).ok());
  QVERIFY(library->saveTopology("dgx h100", "{}").ok());
  const QString out = dir.filePath("export");
  Result<int> exported = library->exportAll(out.toStdString());
  QVERIFY2(exported.ok(), exported.ok() ? "" : exported.error().message.c_str());
  QCOMPARE(*exported, static_cast<int>(kSeeded) + 1); // the seeded examples and odd/name
  QCOMPARE(test::readFile(out + "/ring-allreduce-4.xml").toStdString(), test::ringXml(4, "second"));
  QCOMPARE(test::readFile(out + "/history/ring-allreduce-4/v2.xml").toStdString(),
           test::ringXml(4, "second"));
  QVERIFY(QFile::exists(out + "/history/ring-allreduce-4/v1.xml"));
  QCOMPARE(test::readFile(out + "/odd_name.xml").toStdString(), test::ringXml(2, "odd"));
  QCOMPARE(test::readFile(out + "/topologies/dgx_h100.json"), QByteArray("{}"));
  const QJsonObject manifest =
      QJsonDocument::fromJson(test::readFile(out + "/library.json")).object();
  QCOMPARE(manifest["algorithms"].toArray().size(), static_cast<qsizetype>(kSeeded) + 1);
  QCOMPARE(manifest["topologies"].toArray().size(), 1);
  // The exported heads import back as the same contents: nothing new.
  Result<Library> copy = Library::open(dir.filePath("copy.sqlite").toStdString(), unseeded());
  Result<ImportReport> report = copy->importFolder(out.toStdString());
  QCOMPARE(report->added, static_cast<int>(kSeeded) + 1);
  QCOMPARE(copy->content(copy->version(copy->algorithm("odd_name")->id, 0)->id)->xml,
           test::ringXml(2, "odd"));
}

QTEST_GUILESS_MAIN(Test_storagefiles)
#include "tst_storagefiles.moc"
