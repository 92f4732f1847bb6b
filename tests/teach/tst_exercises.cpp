// Break-it exercises (engine/teach/exercises.h): every exercise, applied here by the test's own
// code and judged here by the checker and the CPU executor, gives exactly the outcome it
// announces; every kind appears across the catalogue; undo restores the original; the CLI lists
// them as JSON and writes a broken algorithm whose validation shows the announced code.

#include "support/cli.h"
#include "support/corpus.h"

#include "catalogue/catalogue.h"
#include "check/checker.h"
#include "compile/lift.h"
#include "exec/cpu/cpuexecutor.h"
#include "io/mscclxmlreader.h"
#include "teach/exercises.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>
#include <set>

using namespace cs;

namespace {

struct Algorithm {
  const char* key;
  int ranks;
};
constexpr Algorithm kAlgorithms[] = {
    {"ring-allreduce", 4},
    {"ring-allreduce", 8},
    {"halving-doubling-allreduce", 4},
    {"halving-doubling-allreduce", 8},
    {"double-binary-tree-allreduce", 4},
    {"double-binary-tree-allreduce", 8},
    {"direct-alltoall", 4},
    {"direct-alltoall", 8},
};

/// The watchdog's patience here and in the generation: long enough that a run which progresses
/// is never taken for a hang on a loaded machine or under the sanitizers.
#ifdef CSTUDIO_SANITIZED
constexpr double kWatchdogSeconds = 5.0;
#else
constexpr double kWatchdogSeconds = 1.0;
#endif

ExerciseSet exercisesOf(const Schedule& schedule, int perKind = 3)
{
  ExerciseOptions options;
  options.timeoutSeconds = kWatchdogSeconds;
  options.perKind = perKind;
  return generateExercises(schedule, options);
}

Schedule generated(const char* key, int ranks)
{
  GeneratorOptions options;
  options.ranks = ranks;
  GenerateResult result = generateAlgorithm(key, options);
  if (!result.schedule)
    qFatal("the catalogue cannot generate %s at %d ranks", key, ranks);
  return std::move(*result.schedule);
}

/// The test's own application of an exercise's edit: (program, connection depth).
std::pair<std::optional<Program>, int> brokenHere(const ExerciseSet& set, const Exercise& exercise)
{
  const ExerciseEdit& edit = exercise.edit;
  if (edit.transfer) {
    Schedule schedule = set.schedule;
    auto& transfers = schedule.transfers;
    const auto found = std::find_if(transfers.begin(), transfers.end(), [&](const Transfer& t) {
      return t.id == edit.transfer->before.id;
    });
    if (found == transfers.end())
      return {std::nullopt, 0};
    if (edit.transfer->after)
      *found = *edit.transfer->after;
    else
      transfers.erase(found);
    return {lowerSchedule(schedule, LowerOptions{}).program, set.connectionSlots};
  }
  if (edit.instructions) {
    Program program = *set.program;
    for (Gpu& gpu : program.gpus) {
      for (ThreadBlock& tb : gpu.threadblocks) {
        if (gpu.id == edit.instructions->rank && tb.id == edit.instructions->tb)
          tb.steps = edit.instructions->after;
      }
    }
    return {program, set.connectionSlots};
  }
  return {set.program, edit.connections->afterSlots};
}

std::set<std::string> errorCodes(const Program& program, int depth, std::optional<int> root)
{
  CheckOptions check;
  check.fifoSlots = depth;
  check.root = root;
  std::set<std::string> codes;
  for (const Diagnostic& diagnostic : checkProgram(program, check)) {
    if (diagnostic.severity == Severity::Error)
      codes.insert(diagnostic.code);
  }
  return codes;
}

/// Checks every exercise of `set` against the checker and the executor run here.
void verifyAnnouncements(const ExerciseSet& set)
{
  QVERIFY2(set.diagnostics.empty(), qPrintable(test::describeDiagnostics(set.diagnostics)));
  QVERIFY(!set.exercises.empty());
  const std::set<std::string> baseline = errorCodes(*set.program, set.connectionSlots, set.root);
  for (const Exercise& exercise : set.exercises) {
    const QByteArray what =
        QByteArray(exercise.question.c_str()) + " / " + exercise.outcomeText.c_str();
    QVERIFY2(!exercise.title.empty() && !exercise.hint.empty(), what.constData());
    const auto [program, depth] = brokenHere(set, exercise);
    QVERIFY2(program, what.constData());
    std::vector<std::string> fresh;
    const std::set<std::string> codes = errorCodes(*program, depth, set.root);
    for (const std::string& code : codes) {
      if (!baseline.count(code))
        fresh.push_back(code);
    }
    QCOMPARE(fresh, exercise.outcome.checkCodes);

    ExecOptions exec;
    exec.bytes = std::int64_t{program->nchunksperloop} * 1024;
    exec.connectionSlots = depth;
    exec.timeoutSeconds = kWatchdogSeconds;
    exec.root = set.root;
    const ExecResult result = CpuExecutor().run(*program, exec);
    const bool raced = std::any_of(codes.begin(), codes.end(), [](const std::string& code) {
      return codeInCategory(code, "race");
    });
    QCOMPARE(exercise.outcome.timingDependent, raced);
    if (raced && result.status != ExecStatus::Hung) {
      // Which racing access wins is up to the threads: the data may come out right or wrong,
      // but the run ends (flow control does not depend on data).
      QVERIFY2(result.status == ExecStatus::Verified || result.status == ExecStatus::Wrong,
               what.constData());
      QVERIFY2(exercise.outcome.execStatus == ExecStatus::Verified ||
                   exercise.outcome.execStatus == ExecStatus::Wrong,
               what.constData());
      continue;
    }
    QVERIFY2(result.status == exercise.outcome.execStatus, what.constData());
    std::vector<ChunkRef> wrong;
    for (const WrongChunk& chunk : result.wrongChunks)
      wrong.push_back({chunk.rank, chunk.buffer, chunk.chunk});
    std::sort(wrong.begin(), wrong.end());
    QVERIFY2(wrong == exercise.outcome.wrongChunks, what.constData());
    std::set<BlockedStep> blocked;
    for (const BlockedPosition& position : result.blocked)
      blocked.insert({position.rank, position.tb, position.step});
    QVERIFY2(std::vector<BlockedStep>(blocked.begin(), blocked.end()) == exercise.outcome.blocked,
             what.constData());
    // An exercise shows something: a new error, or a run that no longer verifies.
    QVERIFY2(!fresh.empty() || result.status != set.baseline.execStatus, what.constData());
  }
  // Every announcement is one the checker stands behind, or a run that ends differently.
  for (const Exercise& exercise : set.exercises) {
    QVERIFY(!exercise.outcome.checkCodes.empty() ||
            exercise.outcome.execStatus != set.baseline.execStatus);
  }
}

} // namespace

class TestExercises : public QObject
{
  Q_OBJECT

  /// The exercises of a catalogue algorithm, generated once for every test that needs them.
  const ExerciseSet& catalogueExercises(const std::string& key, int ranks)
  {
    auto found = m_sets.find({key, ranks});
    if (found == m_sets.end())
      found =
          m_sets.emplace(std::pair{key, ranks}, exercisesOf(generated(key.c_str(), ranks))).first;
    return found->second;
  }

  std::map<std::pair<std::string, int>, ExerciseSet> m_sets;

private slots:
  void announcementsHold_data()
  {
    QTest::addColumn<QString>("key");
    QTest::addColumn<int>("ranks");
    for (const Algorithm& algorithm : kAlgorithms)
      QTest::addRow("%s %d", algorithm.key, algorithm.ranks) << algorithm.key << algorithm.ranks;
  }

  void announcementsHold()
  {
    QFETCH(QString, key);
    QFETCH(int, ranks);
    const ExerciseSet& set = catalogueExercises(key.toStdString(), ranks);
    verifyAnnouncements(set);
    for (const ExerciseKind kind : {ExerciseKind::RemoveTransfer, ExerciseKind::WrongChunk}) {
      QVERIFY(std::any_of(set.exercises.begin(), set.exercises.end(),
                          [&](const Exercise& e) { return e.kind == kind; }));
    }
  }

  void corpusAnnouncementsHold()
  {
    CS_REQUIRE_CORPUS();
    const Program program =
        test::loadProgram(test::corpusPath("allreduce_recursive_doubling_halving_8r_1i_LL.xml"));
    const LiftResult lifted = liftProgram(program);
    QVERIFY(lifted.schedule);
    verifyAnnouncements(exercisesOf(*lifted.schedule));
  }

  void everyKindAppears()
  {
    std::set<ExerciseKind> kinds;
    for (const Algorithm& algorithm : kAlgorithms) {
      for (const Exercise& exercise : catalogueExercises(algorithm.key, algorithm.ranks).exercises)
        kinds.insert(exercise.kind);
    }
    QCOMPARE(static_cast<int>(kinds.size()), kExerciseKindCount);
  }

  void generationIsDeterministicAndBounded()
  {
    const Schedule schedule = generated("halving-doubling-allreduce", 8);
    const ExerciseSet first = exercisesOf(schedule, 2);
    const ExerciseSet second = exercisesOf(schedule, 2);
    QCOMPARE(first.exercises.size(), second.exercises.size());
    for (std::size_t i = 0; i < first.exercises.size(); ++i) {
      QVERIFY(first.exercises[i].edit == second.exercises[i].edit);
      QCOMPARE(first.exercises[i].question, second.exercises[i].question);
    }
    for (int kind = 0; kind < kExerciseKindCount; ++kind) {
      QVERIFY(std::count_if(first.exercises.begin(), first.exercises.end(), [&](const Exercise& e) {
                return static_cast<int>(e.kind) == kind;
              }) <= 2);
    }
  }

  void undoRestoresTheOriginal()
  {
    for (const char* key : {"ring-allreduce", "halving-doubling-allreduce"}) {
      const ExerciseSet& set = catalogueExercises(key, 8);
      const Schedule& schedule = set.schedule;
      QVERIFY(schedule == generated(key, 8));
      int undone = 0;
      for (const Exercise& exercise : set.exercises) {
        if (const auto& change = exercise.edit.transfer) {
          const Schedule broken = applyTransferEdit(schedule, *change);
          QVERIFY(!(broken == schedule));
          QVERIFY(undoTransferEdit(broken, *change) == schedule);
          ++undone;
        } else if (const auto& edit = exercise.edit.instructions) {
          const Program broken = applyInstructionEdit(*set.program, *edit);
          QVERIFY(!(broken == *set.program));
          QVERIFY(undoInstructionEdit(broken, *edit) == *set.program);
          ++undone;
        } else {
          QCOMPARE(exercise.edit.connections->beforeSlots, set.connectionSlots);
        }
      }
      QVERIFY(undone > 0);
    }
  }

  void unusableInputGivesAReason()
  {
    Schedule empty;
    const ExerciseSet set = generateExercises(empty);
    QVERIFY(set.exercises.empty());
    QVERIFY(!set.diagnostics.empty());
    QVERIFY(set.diagnostics.front().code.starts_with("teach."));
  }

  void cliListsAndApplies()
  {
    QTemporaryDir dir;
    const QString input = dir.filePath("ring.xml");
    const QString output = dir.filePath("broken.xml");
    QCOMPARE(test::cstudio({"generate", "ring-allreduce", "--ranks", "4", "-o", input}).exitCode,
             0);
    const test::CliRun listed = test::cstudio({"exercises", input, "--json"});
    QCOMPARE(listed.exitCode, 0);
    QJsonParseError error;
    const QJsonDocument json = QJsonDocument::fromJson(listed.out.toUtf8(), &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    const QJsonArray exercises = json.object().value("exercises").toArray();
    QVERIFY(!exercises.isEmpty());
    const QJsonObject first = exercises.first().toObject();
    QCOMPARE(first.value("kind").toString(), QString("remove-transfer"));
    const QJsonArray codes = first.value("outcome").toObject().value("checkCodes").toArray();
    QVERIFY(!codes.isEmpty());

    const test::CliRun applied = test::cstudio({"exercises", input, "--apply", "1", "-o", output});
    QCOMPARE(applied.exitCode, 0);
    const test::CliRun validated = test::cstudio({"validate", "--json", output});
    for (const QJsonValue& code : codes)
      QVERIFY2(validated.out.contains("\"" + code.toString() + "\""), qPrintable(validated.out));
    QCOMPARE(test::cstudio({"exercises", input, "--apply", "99", "-o", output}).exitCode, 2);
  }
};

QTEST_GUILESS_MAIN(TestExercises)
#include "tst_exercises.moc"
