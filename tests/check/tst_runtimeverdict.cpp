// Each runtime's verdict in three states (issue 16 item 2): does not load, loads but is never
// selected, selected for a size range and call mode. One fixture per rule, each with the verdict
// of every dialect and the runtime code it mirrors:
//
// - the classic loader (microsoft/msccl src/graph/topo.cc, mscclGetAlgoFromXmlFile) refuses with
//     if (minBytes > maxBytes) { WARN("MSCCL: minBytes cannot be greater than maxBytes."); ...
//   (an absent maxBytes is read as `maxBytes = (((int64_t)1)<<27)` first);
// - the classic selection (src/enqueue.cc, all_to_all.cc) keeps a loaded algorithm only when
//     (nbytes >= mscclAlgo->minBytes) && (nbytes < mscclAlgo->maxBytes)
//   so maxBytes="0", or minBytes equal to maxBytes, loads but is never chosen;
// - the executors (msccl-format.md §4.6, lifecycle.cc 305-345) select when
//     minBytes <= nBytes && (maxBytes == 0 || nBytes <= maxBytes)
//   and `inplace`/`outofplace` match the call, and (count × mult) % nchunksperloop == 0;
//   they load a file whose bounds admit no size and simply never pick it.
// A read error (here an unknown `coll`) means no runtime loads the file.

#include "support/cli.h"
#include "support/files.h"

#include "catalogue/ringallreduce.h"
#include "check/checker.h"
#include "check/runtimeverdict.h"
#include "io/mscclxmlreader.h"
#include "io/mscclxmlwriter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <functional>
#include <limits>

using namespace cs;

namespace {

constexpr std::int64_t kUnbounded = std::numeric_limits<std::int64_t>::max();
using State = RuntimeState;

// A 4-rank ring all-reduce every runtime loads and selects: each fixture changes one value.
Program ring()
{
  Program program = makeRingAllReduce({.ranks = 4, .channels = 1, .protocol = Protocol::Simple});
  program.name = "ring";
  program.minBytes = 0;
  program.maxBytes = 1 << 20;
  program.inplace = true;
  program.outofplace = true;
  return program;
}

struct Fixture {
  const char* name;
  std::function<void(Program&)> change;
  std::array<State, 3> states; ///< classic, executor, rccl (allDialects() order)
  const char* classicReason;   ///< in the classic verdict's reasons
  const char* executorReason;  ///< in the executor verdict's reasons
};

const std::vector<Fixture>& fixtures()
{
  static const std::vector<Fixture> table = {
      {"selected everywhere",
       [](Program&) {},
       {State::Selected, State::Selected, State::Selected},
       "minBytes <= n < maxBytes",
       "minBytes <= n <= maxBytes"},
      {"maxBytes 0",
       [](Program& p) { p.maxBytes = 0; },
       {State::NeverSelected, State::Selected, State::Selected},
       "MSCCL_CONFIG",
       "no upper bound"},
      {"minBytes equal to maxBytes",
       [](Program& p) { p.minBytes = p.maxBytes = 4096; },
       {State::NeverSelected, State::Selected, State::Selected},
       "no call size is in range",
       "4096 bytes up to 4096 bytes"},
      {"minBytes above maxBytes",
       [](Program& p) {
         p.minBytes = 8192;
         p.maxBytes = 4096;
       },
       {State::Refused, State::NeverSelected, State::NeverSelected},
       "minBytes cannot be greater than maxBytes",
       "no setting that overrides them"},
      {"minBytes above the classic default, maxBytes absent",
       [](Program& p) {
         p.minBytes = std::int64_t{1} << 28;
         p.maxBytes.reset();
       },
       {State::Refused, State::Refused, State::Refused},
       "(maxBytes is absent: the classic default)",
       "missing required algo attribute maxBytes"},
      {"neither call mode",
       [](Program& p) {
         p.inplace = false;
         p.outofplace = false;
       },
       {State::Selected, State::NeverSelected, State::NeverSelected},
       "selected for out-of-place",
       "inplace=0 and outofplace=0"},
      {"no size splits into the chunks",
       [](Program& p) {
         p.minBytes = 1;
         p.maxBytes = 3;
       },
       {State::NeverSelected, State::NeverSelected, State::NeverSelected},
       "can be split into nchunksperloop=4",
       "can be split into nchunksperloop=4"},
  };
  return table;
}

bool anyContains(const std::vector<std::string>& reasons, const char* text)
{
  return std::any_of(reasons.begin(), reasons.end(),
                     [&](const std::string& r) { return r.find(text) != std::string::npos; });
}

} // namespace

class Test_runtimeverdict : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase() { QVERIFY(m_dir.isValid()); }
  void everyRulePerDialect();
  void selectedSizesAndModes();
  void readErrorsLoadNowhere();
  void infoJsonSaysLoadsAndSelection();
  void infoTextShowsVerdictsAndReaderErrors();
  void infoJsonHonoursTheRuntimesReader();

private:
  QString write(const QString& name, const QByteArray& text);
  QTemporaryDir m_dir;
};

QString Test_runtimeverdict::write(const QString& name, const QByteArray& text)
{
  const QString path = m_dir.filePath(name);
  if (!test::writeFile(path, text))
    qFatal("cannot write %s", qPrintable(path));
  return path;
}

void Test_runtimeverdict::everyRulePerDialect()
{
  for (const Fixture& fixture : fixtures()) {
    Program program = ring();
    fixture.change(program);
    for (std::size_t i = 0; i < allDialects().size(); ++i) {
      const DialectId id = allDialects()[i];
      const RuntimeVerdict verdict = judgeRuntime(program, id);
      const QString where =
          QString("%1, %2: %3")
              .arg(fixture.name, dialect(id).key.data(), runtimeStateName(verdict.state).data());
      QVERIFY2(verdict.state == fixture.states[i], qPrintable(where));
      QCOMPARE(acceptedBy(program, id), fixture.states[i] != State::Refused);
      QCOMPARE(verdict.sizes.has_value(), fixture.states[i] == State::Selected);
      QVERIFY2(!verdict.reasons.empty(), qPrintable(where));
      const char* reason = id == DialectId::Classic    ? fixture.classicReason
                           : id == DialectId::Executor ? fixture.executorReason
                                                       : nullptr;
      if (reason)
        QVERIFY2(anyContains(verdict.reasons, reason),
                 qPrintable(where + "\n" + QString::fromStdString(verdict.reasons.front())));
    }
  }
}

// The classic bound is exclusive, the executors' inclusive; "0" is unbounded for the executors.
void Test_runtimeverdict::selectedSizesAndModes()
{
  Program program = ring();
  program.minBytes = 4096;
  const RuntimeVerdict classic = judgeRuntime(program, DialectId::Classic);
  QCOMPARE(classic.sizes, std::optional(std::pair<std::int64_t, std::int64_t>(4096, 1048575)));
  QCOMPARE(classic.modes, std::vector<CallMode>{CallMode::InPlace}); // reads inplace only
  const RuntimeVerdict executor = judgeRuntime(program, DialectId::Executor);
  QCOMPARE(executor.sizes, std::optional(std::pair<std::int64_t, std::int64_t>(4096, 1048576)));
  QCOMPARE(executor.modes, (std::vector<CallMode>{CallMode::InPlace, CallMode::OutOfPlace}));
  program.maxBytes = 0;
  QCOMPARE(judgeRuntime(program, DialectId::Rccl).sizes,
           std::optional(std::pair<std::int64_t, std::int64_t>(4096, kUnbounded)));
}

void Test_runtimeverdict::readErrorsLoadNowhere()
{
  std::string text = writeMscclXml(ring(), {DialectId::Executor}).text;
  const std::size_t coll = text.find("coll=\"allreduce\"");
  QVERIFY(coll != std::string::npos);
  text.replace(coll, 16, "coll=\"allreduc\"");
  const ReadResult read = readMscclXml(text);
  QVERIFY(read.program);
  for (const DialectId id : allDialects()) {
    const RuntimeVerdict verdict = judgeRuntime(*read.program, id, read.diagnostics);
    QCOMPARE(verdict.state, State::Refused);
    QVERIFY2(anyContains(verdict.reasons, "coll=\"allreduc\""), verdict.reasons.front().c_str());
  }
}

void Test_runtimeverdict::infoJsonSaysLoadsAndSelection()
{
  Program program = ring();
  program.maxBytes = 0;
  const QString file = write(
      "never.xml", QByteArray::fromStdString(writeMscclXml(program, {DialectId::Executor}).text));
  const test::CliRun run = test::cstudio({"info", "--json", file});
  QCOMPARE(run.exitCode, 0);
  const QJsonObject info = QJsonDocument::fromJson(run.out.toUtf8()).object();
  const QJsonObject runtimes = info["runtimes"].toObject();
  const QJsonObject classic = runtimes["classic"].toObject();
  QCOMPARE(classic["loads"].toBool(), true);
  QVERIFY(classic["selected_sizes"].isNull());
  QVERIFY(classic["reasons"].toArray().at(0).toString().contains("never selected"));
  QCOMPARE(info["accepted_by"].toObject()["classic"].toBool(), true); // still means "loads"
  const QJsonArray sizes = runtimes["executor"].toObject()["selected_sizes"].toArray();
  QCOMPARE(sizes.size(), 2);
  QCOMPARE(sizes.at(0).toInteger(), 0);
  QCOMPARE(sizes.at(1).toInteger(), kUnbounded);
}

// The runtimes' own reader (issue 16 item 1): a byte-order mark stops it in every runtime
// (mscclXmlGetNode: "expecting '<', got '%c'"); <algo>'s 17th attribute is dropped
// ("Ignoring extra attributes"), which only the executors miss when it is outofplace. `runtimes`
// and `accepted_by` say the same.
void Test_runtimeverdict::infoJsonHonoursTheRuntimesReader()
{
  const QByteArray exported =
      QByteArray::fromStdString(writeMscclXml(ring(), {DialectId::Executor}).text);
  QByteArray dropped = exported;
  dropped.replace(" outofplace=\"1\"", "");
  QByteArray extra;
  for (int i = 0; i < 8; ++i)
    extra += " x" + QByteArray::number(i) + "=\"0\"";
  // After every attribute the runtimes need, so only outofplace and one extra fall past 16.
  dropped.insert(dropped.indexOf('>', dropped.indexOf("<algo ")), extra + " outofplace=\"1\"");
  struct Case {
    QString name;
    QByteArray text;
    bool classic, executor, rccl;
    const char* reason; // in every refusing runtime's reasons
  };
  const Case cases[] = {
      {"bom.xml", QByteArray("\xEF\xBB\xBF") + exported, false, false, false, "byte-order mark"},
      {"dropped.xml", dropped, true, false, false, "outofplace"},
  };
  for (const Case& c : cases) {
    QVERIFY2(c.text != exported, qPrintable(c.name));
    const test::CliRun run = test::cstudio({"info", "--json", write(c.name, c.text)});
    const QJsonObject info = QJsonDocument::fromJson(run.out.toUtf8()).object();
    const std::array<std::pair<const char*, bool>, 3> expected = {
        {{"classic", c.classic}, {"executor", c.executor}, {"rccl", c.rccl}}};
    for (const auto& [key, loads] : expected) {
      const QJsonObject verdict = info["runtimes"].toObject()[key].toObject();
      QVERIFY2(verdict["loads"].toBool() == loads, qPrintable(c.name + " " + key + "\n" + run.out));
      QCOMPARE(info["accepted_by"].toObject()[key].toBool(), loads);
      if (!loads)
        QVERIFY2(verdict["reasons"].toArray().at(0).toString().contains(c.reason),
                 qPrintable(c.name + " " + key + "\n" + run.out));
    }
  }
}

// A file with a bad coll: no runtime loads it, and the text names the reader's error.
void Test_runtimeverdict::infoTextShowsVerdictsAndReaderErrors()
{
  QByteArray text = QByteArray::fromStdString(writeMscclXml(ring(), {DialectId::Executor}).text);
  text.replace("coll=\"allreduce\"", "coll=\"allreduc\"");
  const QString file = write("badcoll.xml", text);
  const test::CliRun json = test::cstudio({"info", "--json", file});
  QCOMPARE(json.exitCode, 0);
  const QJsonObject accepted =
      QJsonDocument::fromJson(json.out.toUtf8()).object()["accepted_by"].toObject();
  for (const char* key : {"classic", "executor", "rccl"})
    QVERIFY2(!accepted[key].toBool(), key);
  const test::CliRun run = test::cstudio({"info", file});
  QCOMPARE(run.exitCode, 0);
  QVERIFY2(run.out.contains("    classic: does not load") &&
               run.out.contains("badcoll.xml:1:2: error: <algo> attribute coll=\"allreduc\"") &&
               run.out.contains("[format.bad-value]"),
           qPrintable(run.out));
}

QTEST_GUILESS_MAIN(Test_runtimeverdict)
#include "tst_runtimeverdict.moc"
