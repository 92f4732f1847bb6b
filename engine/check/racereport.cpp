#include "symbolicreports_p.h"

namespace cs::detail {

namespace {

// "o[3]", or "o[3] (memory i[3])" when aliasing puts the chunk in another buffer's memory.
std::string addressed(Buffer buffer, int index, const MemorySlot& memory)
{
  std::string text = chunkName(buffer, index);
  if (memory.memory != buffer || memory.index != index)
    text += " (memory " + chunkName(memory.memory, memory.index) + ")";
  return text;
}

std::string describeAccess(const Program& program, const SymbolicRun& run, int plane, int rank,
                           const AccessSite& site)
{
  std::string text = tbStepName(program, rank, site.tb, site.step);
  text += site.writes ? " writes " : " reads ";
  if (site.index < 0)
    return text + "it";
  const MemorySlot memory = run.memoryOf(plane, run.slot(plane, rank, site.buffer, site.index));
  return text + addressed(site.buffer, site.index, memory);
}

} // namespace

void reportRaces(const SymbolicRun& run, Diagnostics& out)
{
  const Program& program = run.program();
  for (int plane = 0; plane < run.planeCount(); ++plane) {
    const std::string prefix = modePrefix(run.mode(plane));
    for (const RaceRecord& race : run.races(plane)) {
      std::string text = prefix + "race on rank " + std::to_string(race.rank) + " " +
                         chunkName(race.memory.memory, race.memory.index) + ": " +
                         describeAccess(program, run, plane, race.rank, race.first) + " and " +
                         describeAccess(program, run, plane, race.rank, race.second) +
                         " with no happens-before order between them";
      if (race.chunks > 1)
        text += "; " + std::to_string(race.chunks) + " consecutive chunks up to " +
                chunkName(race.memory.memory, race.memory.index + race.chunks - 1) +
                " race between the same two steps";
      text += " (order them with a dependency, or declare only the modes the buffers allow)";
      Diagnostic& d = out.error("race", text,
                                stepLocation(program, race.rank, race.second.tb, race.second.step));
      d.related.push_back(stepLocation(program, race.rank, race.first.tb, race.first.step));
    }
    if (const int more = run.racesNotRecorded(plane); more > 0)
      out.info("race.more", prefix + std::to_string(more) + " more race(s) are not listed");

    for (const UninitialisedRead& read : run.uninitialisedReads(plane)) {
      const std::string text =
          prefix + stepName(program, read.rank, read.site.tb, read.site.step) + " reads " +
          addressed(read.site.buffer, read.site.index, read.memory) +
          ", which holds no input and nothing wrote before (uninitialised); the value is garbage";
      out.warning("race.uninitialised", text,
                  stepLocation(program, read.rank, read.site.tb, read.site.step));
    }
    if (const int more = run.uninitialisedNotRecorded(plane); more > 0)
      out.info("race.more", prefix + std::to_string(more) +
                                " more read(s) of uninitialised chunks are not listed");
  }
}

} // namespace cs::detail
