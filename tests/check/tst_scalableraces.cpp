// Race detection that scales (issue 18, item 3): above SymbolicRunOptions::clockThreadblockLimit
// the abstract execution searches the happens-before graph instead of keeping vector clocks.
// The search must give exactly the vector clocks' verdicts (the same races, at the same steps,
// and the same uninitialised reads): compared here on the catalogue, the corpus and mangled
// programs by forcing the search on programs small enough for clocks. A program above the old
// 4,096-threadblock limit is checked, and one dropped dependency in it is found at its place.

#include "catalogue/catalogue.h"
#include "check/checker.h"
#include "check/passes_p.h"
#include "check/symbolicrun.h"
#include "compile/lower.h"
#include "model/buffergeometry.h"
#include "model/fifodepth.h"
#include "support/corpus.h"

#include <QTest>

#include <algorithm>
#include <array>
#include <optional>
#include <random>
#include <sstream>

using namespace cs;

namespace {

std::string site(const AccessSite& s)
{
  std::ostringstream text;
  text << "tb " << s.tb << " step " << s.step << (s.writes ? " w " : " r ")
       << static_cast<int>(s.buffer) << "[" << s.index << "]";
  return text.str();
}

/// Everything the semantic pass reports from a run, as text that QCOMPARE can show.
struct Verdict {
  std::string text;
  int races = 0;
  int threadblocks = 0;
};

Verdict verdictOf(const Program& program, int clockLimit, int fifoSlots)
{
  SymbolicRunOptions options;
  options.fifoSlots = fifoSlots;
  options.modes = declaredModes(program);
  options.clockThreadblockLimit = clockLimit;
  SymbolicRun run(program, options);
  Verdict verdict;
  verdict.threadblocks = run.threadblockCount();
  std::ostringstream text;
  text << "refusal '" << run.refusal() << "' outcome " << static_cast<int>(run.run())
       << " raceRefusal '" << run.raceRefusal() << "'\n";
  for (int plane = 0; plane < run.planeCount(); ++plane) {
    for (const RaceRecord& race : run.races(plane)) {
      text << "race rank " << race.rank << " mem " << static_cast<int>(race.memory.memory) << "["
           << race.memory.index << "] x" << race.chunks << ": " << site(race.first) << " / "
           << site(race.second) << "\n";
      ++verdict.races;
    }
    text << "more races " << run.racesNotRecorded(plane) << "\n";
    verdict.races += run.racesNotRecorded(plane);
    for (const UninitialisedRead& read : run.uninitialisedReads(plane))
      text << "uninitialised rank " << read.rank << " " << site(read.site) << "\n";
    text << "more uninitialised " << run.uninitialisedNotRecorded(plane) << "\n";
  }
  verdict.text = text.str();
  return verdict;
}

/// Compares clocks with the search (clock limit 0); returns the races found.
int compareOrders(const Program& program, int fifoSlots)
{
  const Verdict clocks = verdictOf(program, 1 << 30, fifoSlots);
  const Verdict search = verdictOf(program, 0, fifoSlots);
  if (clocks.text != search.text) {
    qWarning("clocks:\n%s\nsearch:\n%s", clocks.text.c_str(), search.text.c_str());
    return -1;
  }
  return clocks.races;
}

/// Copies of `program`, each without one of its dependencies: at most `count`, spread evenly.
std::vector<Program> withoutOneDependency(const Program& program, int count)
{
  std::vector<std::array<std::size_t, 3>> dependencies;
  for (std::size_t r = 0; r < program.gpus.size(); ++r) {
    for (std::size_t t = 0; t < program.gpus[r].threadblocks.size(); ++t) {
      const std::vector<Step>& steps = program.gpus[r].threadblocks[t].steps;
      for (std::size_t p = 0; p < steps.size(); ++p) {
        if (steps[p].depid >= 0)
          dependencies.push_back({r, t, p});
      }
    }
  }
  std::vector<Program> variants;
  const std::size_t stride = std::max<std::size_t>(1, dependencies.size() / count);
  for (std::size_t k = stride / 2; k < dependencies.size(); k += stride) {
    const auto [r, t, p] = dependencies[k];
    Program variant = program;
    variant.gpus[r].threadblocks[t].steps[p].depid = -1;
    variant.gpus[r].threadblocks[t].steps[p].deps = -1;
    variants.push_back(std::move(variant));
  }
  return variants;
}

std::optional<Program> lowered(std::string_view key, int ranks)
{
  GeneratorOptions options;
  options.ranks = ranks;
  GenerateResult generated = generateAlgorithm(key, options);
  if (!generated.schedule)
    return std::nullopt;
  return lowerSchedule(*generated.schedule, {}).program;
}

/// The first step of `program` with a dependency on another threadblock that moves data, as
/// (rank, tb, position), on rank `rank`.
std::optional<std::array<int, 3>> dataStepWithDependency(const Program& program, int rank)
{
  const Gpu& gpu = program.gpus[static_cast<std::size_t>(rank)];
  for (const ThreadBlock& tb : gpu.threadblocks) {
    for (std::size_t p = 0; p < tb.steps.size(); ++p) {
      const Step& step = tb.steps[p];
      if (step.depid >= 0 && step.depid != tb.id && step.type != OpType::Nop)
        return std::array<int, 3>{rank, tb.id, static_cast<int>(p)};
    }
  }
  return std::nullopt;
}

/// `program` with the dependency of the step at (rank, tb, position) removed.
Program withoutDependency(Program program, const std::array<int, 3>& at)
{
  Step& step = program.gpus[static_cast<std::size_t>(at[0])]
                   .threadblocks[static_cast<std::size_t>(at[1])]
                   .steps[static_cast<std::size_t>(at[2])];
  step.depid = -1;
  step.deps = -1;
  return program;
}

} // namespace

class Test_scalableraces : public QObject
{
  Q_OBJECT

private slots:
  void catalogueAgrees_data();
  void catalogueAgrees();
  void corpusAgrees();
  void mangledProgramsAgree();
  void plantedRaceAboveOldLimit();
  void semanticPassesOnASecondThreadOrNotAgree();
};

void Test_scalableraces::catalogueAgrees_data()
{
  QTest::addColumn<QString>("key");
  QTest::addColumn<int>("ranks");
  for (const AlgorithmInfo& info : algorithmCatalog()) {
    for (const int ranks : {8, 16}) {
      const std::string name = std::string(info.key) + "/" + std::to_string(ranks);
      QTest::newRow(name.c_str()) << QString::fromUtf8(info.key.data(),
                                                       static_cast<qsizetype>(info.key.size()))
                                  << ranks;
    }
  }
}

void Test_scalableraces::catalogueAgrees()
{
  QFETCH(QString, key);
  QFETCH(int, ranks);
  const std::optional<Program> program = lowered(key.toStdString(), ranks);
  if (!program)
    QSKIP("the algorithm does not exist or does not lower at this rank count");
  const int fifo = connectionSlots(program->proto);
  QCOMPARE(compareOrders(*program, fifo), 0); // the catalogue is race-free
  for (const Program& variant : withoutOneDependency(*program, 8))
    QVERIFY(compareOrders(variant, fifo) >= 0);
}

void Test_scalableraces::corpusAgrees()
{
  CS_REQUIRE_CORPUS();
  int racy = 0;
  int files = 0;
  for (const QString& path : test::corpusFiles()) {
    const Program program = test::loadProgram(path);
    const int fifo = connectionSlots(program.proto);
    QVERIFY2(compareOrders(program, fifo) >= 0, qPrintable(path));
    for (const Program& variant : withoutOneDependency(program, 3)) {
      const int races = compareOrders(variant, fifo);
      QVERIFY2(races >= 0, qPrintable(path));
      racy += races > 0 ? 1 : 0;
    }
    ++files;
  }
  QVERIFY(files > 0);
  QVERIFY(racy > 0); // dropped dependencies do make races, so the comparison covers them
}

void Test_scalableraces::mangledProgramsAgree()
{
  // Random damage of every kind the reader lets through: wrong peers, offsets, counts, types,
  // dependencies, repeated steps. Whatever the run makes of it, both orders must agree.
  std::mt19937 random(18);
  auto pick = [&random](int lo, int hi) { return std::uniform_int_distribution(lo, hi)(random); };
  const std::optional<Program> base = lowered("two-step-alltoall", 8);
  QVERIFY(base);
  int racy = 0;
  for (int round = 0; round < 60; ++round) {
    Program program = *base;
    for (Gpu& gpu : program.gpus) {
      for (ThreadBlock& tb : gpu.threadblocks) {
        for (Step& step : tb.steps) {
          switch (pick(0, 30)) {
          case 0:
            step.dstOff = pick(0, 8);
            break;
          case 1:
            step.srcOff = pick(0, 8);
            break;
          case 2:
            step.depid = pick(-1, 12);
            step.deps = pick(-1, 4);
            break;
          case 3:
            step.hasdep = !step.hasdep;
            break;
          case 4:
            step.cnt = pick(0, 3);
            break;
          default:
            break;
          }
        }
        if (pick(0, 40) == 0)
          tb.recv = pick(-1, 7);
      }
    }
    const int races = compareOrders(program, pick(0, 3));
    QVERIFY(races >= 0);
    racy += races > 0 ? 1 : 0;
  }
  QVERIFY(racy > 0);
}

void Test_scalableraces::plantedRaceAboveOldLimit()
{
  // 128 ranks of the two-step all-to-all: 5,760 threadblocks, where race detection used to be
  // skipped. Default options, so the run searches the graph (no clocks).
  const std::optional<Program> program = lowered("two-step-alltoall", 128);
  QVERIFY(program);
  SymbolicRunOptions defaults;
  const Verdict clean = verdictOf(*program, defaults.clockThreadblockLimit, 2);
  QVERIFY(clean.threadblocks > 4096);
  QVERIFY(clean.threadblocks > defaults.clockThreadblockLimit);
  QCOMPARE(clean.races, 0);

  const int rank = 77;
  const std::optional<std::array<int, 3>> at = dataStepWithDependency(*program, rank);
  QVERIFY(at);
  const int awaited = program->gpus[static_cast<std::size_t>(rank)]
                          .threadblocks[static_cast<std::size_t>((*at)[1])]
                          .steps[static_cast<std::size_t>((*at)[2])]
                          .depid;
  const Program broken = withoutDependency(*program, *at);

  SymbolicRunOptions options;
  options.modes = declaredModes(broken);
  SymbolicRun run(broken, options);
  run.run();
  QVERIFY(run.raceRefusal().empty());
  int found = 0;
  for (int plane = 0; plane < run.planeCount(); ++plane) {
    for (const RaceRecord& race : run.races(plane)) {
      QCOMPARE(race.rank, rank);
      const bool pair = (race.first.tb == awaited && race.second.tb == (*at)[1]) ||
                        (race.second.tb == awaited && race.first.tb == (*at)[1]);
      QVERIFY2(pair, (site(race.first) + " / " + site(race.second)).c_str());
      const AccessSite& mine = race.first.tb == (*at)[1] ? race.first : race.second;
      QCOMPARE(mine.step, (*at)[2]);
      ++found;
    }
  }
  QVERIFY(found > 0);

  // Through the checker as users see it: the race is an error, nothing was skipped.
  Diagnostics out;
  passes::checkSemantics(broken, {}, out);
  QVERIFY(!out.contains("check.too-large"));
  QVERIFY(out.contains("race"));
}

void Test_scalableraces::semanticPassesOnASecondThreadOrNotAgree()
{
  // Large enough that checkProgram runs the semantic passes beside matching and dependencies
  // unless told not to (analyseProgram tells it not to); both ways must find the same problems.
  const std::optional<Program> program = lowered("two-step-alltoall", 128);
  QVERIFY(program);
  QVERIFY(program->stepCount() >= 20'000);
  const std::optional<std::array<int, 3>> at = dataStepWithDependency(*program, 77);
  QVERIFY(at);
  const Program broken = withoutDependency(*program, *at);
  CheckOptions beside;
  CheckOptions inline_;
  inline_.semanticBeside = false;
  const std::vector<Diagnostic> besideFound = checkProgram(broken, beside);
  const std::vector<Diagnostic> inlineFound = checkProgram(broken, inline_);
  QCOMPARE(inlineFound.size(), besideFound.size());
  const auto isRace = [](const Diagnostic& d) { return codeInCategory(d.code, "race"); };
  QVERIFY(std::any_of(inlineFound.begin(), inlineFound.end(), isRace));
  for (std::size_t k = 0; k < inlineFound.size(); ++k) {
    QCOMPARE(inlineFound[k].code, besideFound[k].code);
    QCOMPARE(inlineFound[k].message, besideFound[k].message);
  }
}

QTEST_GUILESS_MAIN(Test_scalableraces)
#include "tst_scalableraces.moc"
