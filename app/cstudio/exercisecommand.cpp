// `cstudio exercises FILE [--json]`: the break-it exercises of an algorithm (engine/teach) with
// their announced outcomes; `--apply N -o OUT.xml` writes the algorithm exercise N breaks.

#include "commands.h"
#include "output.h"

#include "compile/lift.h"
#include "io/designdocument.h"
#include "io/mscclxmlreader.h"
#include "io/mscclxmlwriter.h"
#include "teach/exercises.h"

#include <iostream>
#include <memory>

namespace cs::cli {

namespace {

struct ExercisesOptions {
  std::string file;
  bool json = false;
  int apply = 0; ///< 1-based exercise number; 0: list them
  std::string output;
  int perKind = 3;
};

/// The Schedule of `path`: a design document's own, or the one MSCCL XML lifts to.
std::optional<Schedule> readSchedule(const std::string& path)
{
  if (path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0) {
    DesignReadResult read = readDesignDocumentFile(path);
    if (!read.document) {
      printDiagnostics(std::cerr, path, read.diagnostics);
      return std::nullopt;
    }
    return std::move(read.document->schedule);
  }
  ReadResult read = readMscclXmlFile(path);
  if (!read.program) {
    printDiagnostics(std::cerr, path, read.diagnostics);
    return std::nullopt;
  }
  LiftResult lifted = liftProgram(*read.program);
  if (!lifted.schedule) {
    std::cerr << path << ": the program cannot be shown as transfers, so it has no exercises\n";
    printDiagnostics(std::cerr, path, lifted.diagnostics);
    return std::nullopt;
  }
  return std::move(lifted.schedule);
}

nlohmann::json transferJson(const Transfer& transfer)
{
  const auto ref = [](const ChunkRef& chunk) {
    return nlohmann::json{{"rank", chunk.rank},
                          {"buffer", std::string(bufferName(chunk.buffer))},
                          {"index", chunk.index}};
  };
  return {{"id", transfer.id},        {"step", transfer.step},
          {"src", ref(transfer.src)}, {"dst", ref(transfer.dst)},
          {"count", transfer.count},  {"op", std::string(transferOpName(transfer.op))}};
}

nlohmann::json stepsJson(const std::vector<Step>& steps)
{
  nlohmann::json list = nlohmann::json::array();
  for (const Step& step : steps)
    list.push_back({{"s", step.s},
                    {"type", std::string(opTypeName(step.type))},
                    {"srcbuf", std::string(1, bufferLetter(step.srcBuf))},
                    {"srcoff", step.srcOff},
                    {"dstbuf", std::string(1, bufferLetter(step.dstBuf))},
                    {"dstoff", step.dstOff},
                    {"cnt", step.cnt},
                    {"depid", step.depid},
                    {"deps", step.deps},
                    {"hasdep", step.hasdep}});
  return list;
}

nlohmann::json editJson(const ExerciseEdit& edit)
{
  if (edit.transfer)
    return {{"level", "schedule"},
            {"before", transferJson(edit.transfer->before)},
            {"after", edit.transfer->after ? transferJson(*edit.transfer->after) : nullptr}};
  if (edit.instructions)
    return {{"level", "program"},
            {"rank", edit.instructions->rank},
            {"tb", edit.instructions->tb},
            {"before", stepsJson(edit.instructions->before)},
            {"after", stepsJson(edit.instructions->after)}};
  if (edit.connections)
    return {{"level", "connections"},
            {"beforeSlots", edit.connections->beforeSlots},
            {"afterSlots", edit.connections->afterSlots}};
  return nullptr;
}

nlohmann::json outcomeJson(const ExerciseOutcome& outcome)
{
  nlohmann::json wrong = nlohmann::json::array();
  for (const ChunkRef& chunk : outcome.wrongChunks)
    wrong.push_back({{"rank", chunk.rank},
                     {"buffer", std::string(bufferName(chunk.buffer))},
                     {"chunk", chunk.index}});
  nlohmann::json blocked = nlohmann::json::array();
  for (const BlockedStep& position : outcome.blocked)
    blocked.push_back({{"rank", position.rank}, {"tb", position.tb}, {"step", position.step}});
  return {{"checkCodes", outcome.checkCodes},
          {"exec", std::string(execStatusName(outcome.execStatus))},
          {"wrongChunks", std::move(wrong)},
          {"blocked", std::move(blocked)},
          {"timingDependent", outcome.timingDependent}};
}

nlohmann::json setJson(const std::string& file, const ExerciseSet& set)
{
  nlohmann::json exercises = nlohmann::json::array();
  for (std::size_t i = 0; i < set.exercises.size(); ++i) {
    const Exercise& exercise = set.exercises[i];
    exercises.push_back({{"number", i + 1},
                         {"kind", std::string(exerciseKindName(exercise.kind))},
                         {"title", exercise.title},
                         {"question", exercise.question},
                         {"hint", exercise.hint},
                         {"edit", editJson(exercise.edit)},
                         {"outcome", outcomeJson(exercise.outcome)},
                         {"outcomeText", exercise.outcomeText}});
  }
  return {{"file", file},
          {"collective", std::string(collectiveTitle(set.schedule.collective))},
          {"ranks", set.schedule.ranks},
          {"connectionSlots", set.connectionSlots},
          {"baseline", outcomeJson(set.baseline)},
          {"exercises", std::move(exercises)},
          {"diagnostics", diagnosticsToJson(set.diagnostics)}};
}

void printSet(const std::string& file, const ExerciseSet& set)
{
  std::cout << file << ": " << set.exercises.size() << " exercises for a " << set.schedule.ranks
            << "-rank " << collectiveTitle(set.schedule.collective) << "\n";
  for (std::size_t i = 0; i < set.exercises.size(); ++i) {
    const Exercise& exercise = set.exercises[i];
    std::cout << "\n"
              << i + 1 << ". " << exercise.title << " [" << exerciseKindName(exercise.kind)
              << "]\n   " << exercise.question << "\n   hint: " << exercise.hint
              << "\n   outcome: " << exercise.outcomeText << "\n";
  }
}

int writeBroken(const ExercisesOptions& options, const ExerciseSet& set)
{
  if (options.apply > static_cast<int>(set.exercises.size())) {
    std::cerr << options.file << ": --apply " << options.apply << " is past the last exercise ("
              << set.exercises.size() << ")\n";
    return UsageError;
  }
  if (options.output.empty()) {
    std::cerr << "--apply needs -o OUT.xml, the file to write the broken algorithm to\n";
    return UsageError;
  }
  const Exercise& exercise = set.exercises[static_cast<std::size_t>(options.apply - 1)];
  const BrokenAlgorithm broken = applyExercise(set, exercise);
  if (!broken.program) {
    std::cerr << options.file << ": exercise " << options.apply << " does not lower\n";
    return Problems;
  }
  const WriteResult written = writeMscclXml(*broken.program, {});
  if (const std::string error = writeTextFileAtomically(options.output, written.text);
      !error.empty()) {
    std::cerr << options.output << ": " << error << "\n";
    return UsageError;
  }
  std::cout << options.output << ": " << exercise.title << " — " << exercise.question << "\n";
  if (exercise.edit.connections)
    std::cout << "the connection depth is not part of the XML: check it with `cstudio validate "
              << "--fifo-slots " << broken.connectionSlots << "`\n";
  std::cout << "expected: " << exercise.outcomeText << "\n";
  return Ok;
}

int runExercises(const ExercisesOptions& options)
{
  const std::optional<Schedule> schedule = readSchedule(options.file);
  if (!schedule)
    return UsageError;
  ExerciseOptions generation;
  generation.perKind = options.perKind;
  const ExerciseSet set = generateExercises(*schedule, generation);
  if (options.apply > 0)
    return writeBroken(options, set);
  if (options.json) {
    std::cout << jsonText(setJson(options.file, set), 2) << '\n';
  } else {
    printDiagnostics(std::cerr, options.file, set.diagnostics);
    printSet(options.file, set);
  }
  return set.diagnostics.empty() ? Ok : Problems;
}

} // namespace

Runner addExercisesCommand(CLI::App& app)
{
  auto options = std::make_shared<ExercisesOptions>();
  CLI::App* command = app.add_subcommand(
      "exercises", "List the break-it exercises of an algorithm (remove a transfer, swap two "
                   "sends, shrink the connections, drop a dependency, send the wrong chunk) with "
                   "what the checker and the CPU executor say about each; --apply writes one");
  command->add_option("file", options->file, "MSCCL XML file or design document (.json)")
      ->required()
      ->type_name("FILE");
  command->add_flag("--json", options->json, "Print a JSON object");
  command->add_option("--apply", options->apply, "Write the algorithm exercise N breaks")
      ->type_name("N")
      ->check(CLI::PositiveNumber);
  command->add_option("-o,--output", options->output, "Where --apply writes (MSCCL XML)")
      ->type_name("OUT.xml");
  command->add_option("--per-kind", options->perKind, "Exercises per kind at most (default 3)")
      ->check(CLI::Range(1, 20));
  return [options] { return runExercises(*options); };
}

} // namespace cs::cli
