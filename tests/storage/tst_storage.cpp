// The library's operations: save with de-duplication, history, diff, restore, search, runs and
// traces, settings, delete, seeding and the default location.

#include "storagetestutil.h"
#include "support/corpus.h"

#include "catalogue/catalogue.h"
#include "io/mscclxmlreader.h"
#include "library.h"
#include "sqlite.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace cs;
using namespace cs::storage;

namespace {

Library openFresh(const QTemporaryDir& dir, bool seed = false)
{
  OpenOptions options;
  options.seed = seed;
  Result<Library> library = Library::open(dir.filePath("library.sqlite").toStdString(), options);
  if (!library)
    qFatal("%s", library.error().message.c_str());
  return std::move(*library);
}

SaveRequest request(const std::string& name, std::string xml, std::string message = "m")
{
  SaveRequest save;
  save.name = name;
  save.message = std::move(message);
  save.content.xml = std::move(xml);
  return save;
}

Transfer transfer(int step, int from, int to, int index, TransferOp op = TransferOp::Copy)
{
  Transfer t;
  t.step = step;
  t.src = {from, Buffer::Input, index};
  t.dst = {to, Buffer::Input, index};
  t.op = op;
  return t;
}

} // namespace

class Test_storage : public QObject
{
  Q_OBJECT

private slots:
  void saveStoresShapeAndVerdict();
  void identicalContentIsNotStoredTwice();
  void historyDiffAndRestore();
  void diffComparesTransfersOfSchedules();
  void brokenXmlKeepsItsVerdict();
  void searchWithFilters();
  void searchTreatsSyntaxAsText();
  void runsAndTraces();
  void damagedTraceIsAnError();
  void deleteRemovesEverything();
  void settings();
  void newLibraryIsSeeded();
  void defaultLocation();
};

void Test_storage::saveStoresShapeAndVerdict()
{
  QTemporaryDir dir;
  Library library = openFresh(dir);
  const std::string xml = test::ringXml(8);
  Result<SaveOutcome> saved = library.save(request("ring8", xml));
  QVERIFY2(saved.ok(), saved.ok() ? "" : saved.error().message.c_str());
  QVERIFY(saved->created);
  QCOMPARE(saved->number, 1);

  // The expected shape comes from the engine's own reading of the same XML.
  const Program program = *readMscclXml(xml).program;
  Result<VersionRecord> version = library.version(saved->algorithmId, 0);
  QVERIFY(version.ok());
  QCOMPARE(version->shape.ranks, 8);
  QCOMPARE(version->shape.threadblocks, 8); // one threadblock per rank on one channel
  QCOMPARE(version->shape.steps, program.stepCount());
  QCOMPARE(version->shape.collective, std::string("all-reduce"));
  QCOMPARE(version->shape.transfers, -1); // no Schedule was given
  QCOMPARE(version->verdict.verdict, std::string("ok"));
  QCOMPARE(version->verdict.errors, 0);
  QCOMPARE(version->xmlBytes, static_cast<std::int64_t>(xml.size()));

  Result<AlgorithmRecord> algorithm = library.algorithm("ring8");
  QVERIFY(algorithm.ok());
  QCOMPARE(algorithm->ranks, 8);
  QCOMPARE(algorithm->collective, std::string("all-reduce"));
  QCOMPARE(algorithm->provenance, Provenance::Drawn);
  QCOMPARE(library.content(saved->versionId)->xml, xml);
}

void Test_storage::identicalContentIsNotStoredTwice()
{
  QTemporaryDir dir;
  Library library = openFresh(dir);
  const std::string a = test::ringXml(4, "a");
  const std::string b = test::ringXml(4, "b");
  QVERIFY(library.save(request("x", a))->created);
  Result<SaveOutcome> again = library.save(request("x", a));
  QVERIFY(again.ok());
  QVERIFY(!again->created);
  QCOMPARE(again->number, 1);
  QCOMPARE(library.history(again->algorithmId)->size(), std::size_t{1});

  QVERIFY(library.save(request("x", b))->created);
  Result<SaveOutcome> back = library.save(request("x", a));
  QVERIFY(back->created); // going back to older content is a new version...
  QCOMPARE(back->number, 3);
  const auto versions = *library.history(back->algorithmId);
  Result<VersionDiff> diff = library.diff(versions[0].id, versions[2].id);
  QVERIFY(diff->sameContent); // ...that shares the stored content
  // One row per distinct content, whatever the number of versions.
  sql::Connection raw;
  QVERIFY(raw.open(dir.filePath("library.sqlite").toStdString(), sql::OpenMode::ReadOnly));
  QCOMPARE(raw.queryInt("SELECT count(*) FROM contents"), 2);
}

void Test_storage::historyDiffAndRestore()
{
  QTemporaryDir dir;
  Library library = openFresh(dir);
  library.save(request("ring", test::ringXml(4), "four"));
  Result<SaveOutcome> second = library.save(request("ring", test::ringXml(8), "eight"));
  QVERIFY(second.ok());
  const auto versions = *library.history(second->algorithmId);
  QCOMPARE(versions.size(), std::size_t{2});
  QCOMPARE(versions[0].message, std::string("four"));
  QCOMPARE(versions[1].number, 2);

  Result<VersionDiff> diff = library.diff(versions[0].id, versions[1].id);
  QVERIFY(diff.ok());
  QCOMPARE(diff->from.ranks, 4);
  QCOMPARE(diff->to.ranks, 8);
  QCOMPARE(diff->from.threadblocks, 4);
  QCOMPARE(diff->to.threadblocks, 8);
  QCOMPARE(diff->from.steps, readMscclXml(test::ringXml(4)).program->stepCount());
  QCOMPARE(diff->to.steps, readMscclXml(test::ringXml(8)).program->stepCount());
  QVERIFY(!diff->sameContent);
  QVERIFY(!diff->transfersCompared);

  Result<SaveOutcome> restored = library.restore(second->algorithmId, 1, "");
  QVERIFY(restored.ok());
  QVERIFY(restored->created);
  QCOMPARE(restored->number, 3);
  Result<VersionRecord> head = library.version(second->algorithmId, 0);
  QCOMPARE(head->number, 3);
  QCOMPARE(head->restoredFrom, std::optional<int>(1));
  QCOMPARE(head->shape.ranks, 4);
  QCOMPARE(library.content(head->id)->xml, test::ringXml(4));
  QCOMPARE(library.algorithm("ring")->ranks, 4);
  // Restoring what is already the head stores nothing.
  QVERIFY(!library.restore(second->algorithmId, 3, "")->created);
  QCOMPARE(library.restore(second->algorithmId, 9, "").error().kind, ErrorKind::NotFound);
}

void Test_storage::diffComparesTransfersOfSchedules()
{
  QTemporaryDir dir;
  Library library = openFresh(dir);
  Schedule before;
  before.ranks = 2;
  before.setUniformBuffers({2, 0, 0});
  before.add(transfer(0, 0, 1, 0));
  before.add(transfer(0, 1, 0, 1));
  Schedule after = before;
  after.transfers.erase(after.transfers.begin()); // drop r0 -> r1
  after.add(transfer(1, 0, 1, 0, TransferOp::Reduce));

  SaveRequest first;
  first.name = "drawn";
  first.content.designJson = "{\"design\": 1}";
  first.schedule = before;
  SaveRequest second = first;
  second.content.designJson = "{\"design\": 2}";
  second.schedule = after;
  QVERIFY(library.save(first).ok());
  Result<SaveOutcome> saved = library.save(second);
  QVERIFY(saved.ok());
  const auto versions = *library.history(saved->algorithmId);
  QCOMPARE(versions[0].shape.transfers, 2);
  QCOMPARE(versions[0].shape.ranks, 2);
  QCOMPARE(versions[1].shape.steps, 2);
  QCOMPARE(versions[1].verdict.verdict, std::string("no xml"));

  Result<VersionDiff> diff = library.diff(versions[0].id, versions[1].id);
  QVERIFY(diff->transfersCompared);
  QCOMPARE(diff->transfersAdded, std::vector<std::string>{"step 1: r0 i[0] -> r1 i[0] x1 reduce"});
  QCOMPARE(diff->transfersRemoved, std::vector<std::string>{"step 0: r0 i[0] -> r1 i[0] x1 copy"});
}

void Test_storage::brokenXmlKeepsItsVerdict()
{
  QTemporaryDir dir;
  Library library = openFresh(dir);
  std::string xml = test::ringXml(4);
  // A send to a rank that does not exist: readable, but wrong.
  const std::size_t send = xml.find("send=\"1\"");
  QVERIFY(send != std::string::npos);
  xml.replace(send, 8, "send=\"9\"");
  Result<SaveOutcome> saved = library.save(request("broken", xml));
  QVERIFY(saved.ok());
  Result<VersionRecord> version = library.version(saved->algorithmId, 1);
  QCOMPARE(version->verdict.verdict, std::string("errors"));
  QVERIFY(version->verdict.errors > 0);
  QVERIFY(!version->verdict.firstError.empty());

  Result<SaveOutcome> garbage = library.save(request("garbage", "not xml at all"));
  QVERIFY(garbage.ok());
  QCOMPARE(library.version(garbage->algorithmId, 1)->verdict.verdict, std::string("unreadable"));
  QCOMPARE(library.save(request("", "x")).error().kind, ErrorKind::Invalid);
  QCOMPARE(library.save(request("empty", "")).error().kind, ErrorKind::Invalid);
}

void Test_storage::searchWithFilters()
{
  QTemporaryDir dir;
  Library library = openFresh(dir);
  SaveRequest a = request("fast_ring_nvlink", test::ringXml(8, "a"));
  a.tags = std::vector<std::string>{"nvlink", "dgx"};
  a.notes = "Pipelined for large messages";
  SaveRequest b = request("tree-pcie", test::ringXml(4, "b"));
  b.tags = std::vector<std::string>{"pcie"};
  b.notes = "small messages";
  SaveRequest c = request("ring-ib", test::ringXml(4, "c"));
  c.notes = "messages over infiniband";
  QVERIFY(library.saveAll({a, b, c}).ok());

  const auto names = [&library](SearchQuery query) {
    std::vector<std::string> found;
    const std::vector<AlgorithmRecord> records = library.search(query).value();
    for (const AlgorithmRecord& record : records)
      found.push_back(record.name);
    std::sort(found.begin(), found.end());
    return found;
  };
  QCOMPARE(names({"ring", {}, {}, 0}), (std::vector<std::string>{"fast_ring_nvlink", "ring-ib"}));
  QCOMPARE(names({"messages", {}, 4, 0}), (std::vector<std::string>{"ring-ib", "tree-pcie"}));
  QCOMPARE(names({"pipe", {}, {}, 0}), std::vector<std::string>{"fast_ring_nvlink"}); // prefix
  QCOMPARE(names({"dgx messages", {}, {}, 0}), std::vector<std::string>{"fast_ring_nvlink"});
  QCOMPARE(names({"", "allreduce", 8, 0}), std::vector<std::string>{"fast_ring_nvlink"});
  QCOMPARE(names({"", "reduce_scatter", {}, 0}), std::vector<std::string>{});
  QCOMPARE(names({"messages", {}, {}, 1}).size(), std::size_t{1});
  QCOMPARE(library.search({"", "warp", {}, 0}).error().kind, ErrorKind::Invalid);

  // Tags and notes changed later are searchable at once.
  QVERIFY(library.describe(library.algorithm("tree-pcie")->id, {"hierarchical"}, "").ok());
  QCOMPARE(names({"hierarch", {}, {}, 0}), std::vector<std::string>{"tree-pcie"});
  QCOMPARE(names({"pcie", {}, {}, 0}), std::vector<std::string>{"tree-pcie"}); // the name
  QCOMPARE(names({"small", {}, {}, 0}), std::vector<std::string>{});
  QCOMPARE(library.list()->size(), std::size_t{3});
}

void Test_storage::searchTreatsSyntaxAsText()
{
  QTemporaryDir dir;
  Library library = openFresh(dir);
  QVERIFY(library.save(request("ring", test::ringXml(2))).ok());
  for (const char* text : {"\"ring", "ring OR", "(ring", "*", "NEAR(ring", "ring AND -x", "\"\""}) {
    Result<std::vector<AlgorithmRecord>> found = library.search({text, {}, {}, 0});
    QVERIFY2(found.ok(), text);
  }
  QCOMPARE(library.search({"\"ring\"", {}, {}, 0})->size(), std::size_t{1});
}

void Test_storage::runsAndTraces()
{
  QTemporaryDir dir;
  Library library = openFresh(dir);
  Result<SaveOutcome> saved = library.save(request("ring", test::ringXml(2)));
  Trace trace;
  trace.source = "simulator";
  trace.device = "simulated DGX H100 \xce\xbc";
  trace.ranks = 2;
  trace.bytes = 1 << 20;
  trace.totalUs = 12.375;
  trace.events.push_back({.rank = 0,
                          .op = OpType::Send,
                          .peer = 1,
                          .bytes = 524288,
                          .end = 5.125,
                          .linkPath = {3, 4}});
  trace.events.push_back({.rank = 1,
                          .step = 1,
                          .slice = 2,
                          .op = OpType::RecvReduceCopySend,
                          .peer = 0,
                          .recvPeer = 0,
                          .channel = 1,
                          .bytes = 524288,
                          .start = 5.125,
                          .end = 12.375,
                          .linkPath = {}});
  trace.links.push_back({3, 524288, 0, {{0.0, 0.5}, {5.125, 0.0}}});
  RunRecord run;
  run.versionId = saved->versionId;
  run.backend = "simulator";
  run.device = trace.device;
  run.dtype = "float";
  run.op = "sum";
  run.bytes = trace.bytes;
  run.timeUs = trace.totalUs;
  run.algbwGBps = 84.7;
  run.busbwGBps = 84.7;
  run.status = "simulated";
  run.verdict = "simulated: 12.38 µs, busbw 84.7 GB/s";
  Result<std::int64_t> first = library.addRun(run, &trace);
  QVERIFY(first.ok());
  run.wrong = 3;
  run.status = "wrong";
  run.verdict = "3 wrong of 4096";
  QVERIFY(library.addRun(run).ok());

  Result<std::vector<RunRecord>> runs = library.runs(saved->algorithmId);
  QCOMPARE(runs->size(), std::size_t{2});
  QCOMPARE((*runs)[0].versionNumber, 1);
  QVERIFY((*runs)[0].hasTrace);
  QVERIFY(!(*runs)[1].hasTrace);
  QCOMPARE((*runs)[1].wrong, std::int64_t{3});
  QCOMPARE((*runs)[0].status, std::string("simulated"));
  QCOMPARE((*runs)[0].verdict, std::string("simulated: 12.38 µs, busbw 84.7 GB/s"));
  QCOMPARE((*runs)[1].status, std::string("wrong"));
  QCOMPARE((*runs)[1].verdict, std::string("3 wrong of 4096"));
  QCOMPARE((*runs)[0].algbwGBps, 84.7);
  Result<Trace> back = library.trace(*first);
  QVERIFY(back.ok());
  QVERIFY(*back == trace);
  QCOMPARE(library.trace((*runs)[1].id).error().kind, ErrorKind::NotFound);

  // A verified run keeps its wrong chunks, an unwritten element's NaN included.
  trace.verification = TraceVerification{
      4096, 70, 2, {{0, Buffer::Output, 2, 0, 12, 7}, {1, Buffer::Output, 3, 5, 9, std::nan("")}}};
  Result<std::int64_t> wrongRun = library.addRun(run, &trace);
  QVERIFY(wrongRun.ok());
  Result<Trace> wrongBack = library.trace(*wrongRun);
  QVERIFY(wrongBack.ok());
  QVERIFY(wrongBack->verification.has_value());
  QVERIFY(*wrongBack == trace);

  // A run the watchdog stopped keeps where it stopped, so replaying it from the library opens
  // at the stop with its blocked threadblocks (and the checker's cycle for its slots).
  trace.verification.reset();
  trace.stoppedUs = 40.5;
  trace.connectionSlots = 1;
  trace.mode = CallMode::OutOfPlace;
  trace.blocked = {{0, 0, 1, 0, BlockedOn::Room, 1, 0, -1, -1},
                   {1, 2, 3, 4, BlockedOn::Flag, -1, 0, 1, 2}};
  Result<std::int64_t> hungRun = library.addRun(run, &trace);
  QVERIFY(hungRun.ok());
  Result<Trace> hungBack = library.trace(*hungRun);
  QVERIFY(hungBack.ok());
  QCOMPARE(hungBack->stoppedUs, std::optional<double>(40.5));
  QCOMPARE(hungBack->connectionSlots, std::optional<int>(1));
  QCOMPARE(hungBack->mode, std::optional<CallMode>(CallMode::OutOfPlace));
  QCOMPARE(hungBack->blocked.size(), std::size_t{2});
  QVERIFY(*hungBack == trace);

  run.versionId = 999;
  QCOMPARE(library.addRun(run).error().kind, ErrorKind::Invalid); // foreign keys are on
}

void Test_storage::damagedTraceIsAnError()
{
  QTemporaryDir dir;
  Library library = openFresh(dir);
  Result<SaveOutcome> saved = library.save(request("ring", test::ringXml(2)));
  Trace trace;
  trace.events.resize(50);
  RunRecord run;
  run.versionId = saved->versionId;
  const std::int64_t id = library.addRun(run, &trace).value();
  {
    sql::Connection raw;
    QVERIFY(raw.open(dir.filePath("library.sqlite").toStdString(), sql::OpenMode::ReadWrite));
    sql::Statement damage(raw, "UPDATE traces SET data = ? WHERE run_id = ?");
    const std::vector<std::uint8_t> junk(40, 0x5a);
    damage.bindBlob(1, junk).bind(2, id);
    QVERIFY(damage.run());
  }
  Result<Trace> back = library.trace(id);
  QVERIFY(!back.ok());
  QCOMPARE(back.error().kind, ErrorKind::Corrupt);
  QVERIFY(back.error().message.find("library.sqlite") != std::string::npos);
}

void Test_storage::deleteRemovesEverything()
{
  QTemporaryDir dir;
  Library library = openFresh(dir);
  Result<SaveOutcome> saved = library.save(request("gone", test::ringXml(2)));
  library.save(request("kept", test::ringXml(4)));
  RunRecord run;
  run.versionId = saved->versionId;
  Trace trace;
  QVERIFY(library.addRun(run, &trace).ok());
  QVERIFY(library.remove(saved->algorithmId).ok());
  QCOMPARE(library.algorithm("gone").error().kind, ErrorKind::NotFound);
  QCOMPARE(library.remove(saved->algorithmId).error().kind, ErrorKind::NotFound);
  QCOMPARE(library.search({"gone", {}, {}, 0})->size(), std::size_t{0});
  sql::Connection raw;
  QVERIFY(raw.open(dir.filePath("library.sqlite").toStdString(), sql::OpenMode::ReadOnly));
  QCOMPARE(raw.queryInt("SELECT count(*) FROM runs"), 0);
  QCOMPARE(raw.queryInt("SELECT count(*) FROM traces"), 0);
  QCOMPARE(raw.queryInt("SELECT count(*) FROM versions"), 1);
  QCOMPARE(raw.queryInt("SELECT count(*) FROM contents"), 1);
}

void Test_storage::settings()
{
  QTemporaryDir dir;
  {
    Library library = openFresh(dir);
    QCOMPARE(*library.setting("theme", "light"), std::string("light"));
    QVERIFY(library.setSetting("theme", "dark").ok());
    QVERIFY(library.setSetting("theme", "solarized").ok());
    QVERIFY(library.saveTopology("dgx", "{\"name\": \"dgx\"}").ok());
    QVERIFY(library.saveTopology("dgx", "{\"name\": \"dgx2\"}").ok());
  }
  Library library = openFresh(dir);
  QCOMPARE(*library.setting("theme"), std::string("solarized"));
  QCOMPARE(library.topologies()->size(), std::size_t{1});
  QCOMPARE(library.topologies()->front().json, std::string("{\"name\": \"dgx2\"}"));
}

void Test_storage::newLibraryIsSeeded()
{
  QTemporaryDir dir;
  const std::string path = dir.filePath("sub/dir/library.sqlite").toStdString();
  Result<Library> library = Library::open(path);
  QVERIFY2(library.ok(), library.ok() ? "" : library.error().message.c_str());
  QVERIFY(library->notice().find("created") != std::string::npos);
  std::vector<std::string> names;
  const std::vector<AlgorithmRecord> records = *library->list();
  for (const AlgorithmRecord& record : records) {
    names.push_back(record.name);
    QCOMPARE(record.provenance, Provenance::Generated);
    QCOMPARE(library->version(record.id, 0)->verdict.verdict, std::string("ok"));
  }
  // Every catalogue algorithm at 8 ranks, and the 4-rank ring people open first.
  std::vector<std::string> expected{"ring-allreduce-4"};
  for (const AlgorithmInfo& info : algorithmCatalog())
    expected.push_back(std::string(info.key) + "-8");
  std::sort(expected.begin(), expected.end());
  std::sort(names.begin(), names.end());
  QCOMPARE(names, expected);
  // Seeding again stores nothing new; no temporary file is left beside the library.
  QVERIFY(library->seedExamples().ok());
  QCOMPARE(library->history(library->algorithm("ring-allreduce-4")->id)->size(), std::size_t{1});
  QCOMPARE(
      QDir(dir.filePath("sub/dir")).entryList(QDir::Files | QDir::Hidden).filter(".new-").size(),
      0);
  QCOMPARE(*library->integrityCheck(), std::string("ok"));
}

void Test_storage::defaultLocation()
{
  const QByteArray home = qgetenv("HOME");
  qunsetenv(kLibraryEnvironmentVariable);
  qputenv("XDG_DATA_HOME", "/data/xdg");
  QCOMPARE(defaultLibraryPath().string(),
           std::string("/data/xdg/collective-studio/library.sqlite"));
  qputenv("XDG_DATA_HOME", "relative/ignored");
  qputenv("HOME", "/home/someone");
  QCOMPARE(defaultLibraryPath().string(),
           std::string("/home/someone/.local/share/collective-studio/library.sqlite"));
  qputenv(kLibraryEnvironmentVariable, "/tmp/elsewhere.sqlite");
  QCOMPARE(defaultLibraryPath().string(), std::string("/tmp/elsewhere.sqlite"));
  qunsetenv(kLibraryEnvironmentVariable);
  qunsetenv("XDG_DATA_HOME");
  qputenv("HOME", home);
}

QTEST_GUILESS_MAIN(Test_storage)
#include "tst_storage.moc"
