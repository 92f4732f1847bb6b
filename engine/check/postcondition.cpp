#include "symbolicreports_p.h"

#include "../model/collectivespec.h"

#include <algorithm>
#include <optional>

namespace cs::detail {

namespace {

constexpr std::int64_t kMaxRootTrials = 50'000'000; ///< chunk comparisons spent on root inference

struct Verdict {
  std::int64_t wrong = 0;
  std::int64_t total = 0;
  int rank = -1; ///< first wrong chunk
  Buffer buffer = Buffer::Output;
  int chunk = -1;
  int slot = -1;
  std::vector<Contribution> expected;
};

Verdict evaluate(const SymbolicRun& run, int plane, const CollectiveSpec& spec, bool stopAtFirst)
{
  Verdict verdict;
  std::vector<Contribution> expected;
  ResultMatcher matcher(spec, run.values(), run.tokens());
  for (int r = 0; r < spec.ranks(); ++r) {
    const ResultChunks result = spec.result(r);
    for (int i = 0; i < result.count; ++i) {
      const int c = result.first + i;
      ++verdict.total;
      const int slot = run.slot(plane, r, result.buffer, c);
      if (slot >= 0 && matcher.holds(r, i, run.value(plane, slot), expected))
        continue;
      if (slot < 0)
        spec.contributions(r, i, expected);
      if (verdict.wrong++ == 0) {
        verdict.rank = r;
        verdict.buffer = result.buffer;
        verdict.chunk = c;
        verdict.slot = slot;
        verdict.expected = expected;
      }
      if (stopAtFirst)
        return verdict;
    }
  }
  return verdict;
}

// "Σ{r0·c1, r1·c1, r1·c1} (r1·c1 twice; r2·c1 and r3·c1 missing)" or "is uninitialised".
std::string describeActual(const SymbolicRun& run, ValueId value,
                           const std::vector<Contribution>& expected)
{
  const TokenEntries entries = run.values().entries(value);
  if (entries.empty())
    return "is uninitialised";
  std::string text = "holds " + formatValue(run.values(), run.tokens(), value);
  std::vector<std::string> notes;
  std::string repeated;
  for (const TokenCount& entry : entries) {
    if (entry.count < 2)
      continue;
    if (!repeated.empty())
      repeated += ", ";
    repeated +=
        formatToken(run.tokens(), entry.token) +
        (entry.count == 2 ? std::string(" twice") : " " + std::to_string(entry.count) + " times");
  }
  if (!repeated.empty())
    notes.push_back(repeated);
  if (expected.size() > 1) {
    std::vector<std::string> missing;
    for (const Contribution& t : expected) {
      const std::optional<std::uint32_t> token = run.tokens().token(t.rank, t.chunk);
      const bool present =
          token && std::any_of(entries.begin(), entries.end(),
                               [&](const TokenCount& e) { return e.token == *token; });
      if (!present)
        missing.push_back(contributionName(t));
    }
    if (!missing.empty()) {
      std::string list;
      for (std::size_t i = 0; i < missing.size() && i < 4; ++i)
        list += (i > 0 ? (i + 1 == missing.size() ? " and " : ", ") : "") + missing[i];
      if (missing.size() > 4)
        list += " and " + std::to_string(missing.size() - 4) + " more";
      notes.push_back(list + " missing");
    }
  }
  if (!notes.empty()) {
    text += " (";
    for (std::size_t i = 0; i < notes.size(); ++i)
      text += (i > 0 ? "; " : "") + notes[i];
    text += ")";
  }
  return text;
}

void reportWrong(const SymbolicRun& run, int plane, const CollectiveSpec& spec,
                 const Verdict& verdict, Diagnostics& out)
{
  const Program& program = run.program();
  std::string where =
      "rank " + std::to_string(verdict.rank) + " " + chunkName(verdict.buffer, verdict.chunk);
  if (verdict.slot >= 0) {
    const MemorySlot memory = run.memoryOf(plane, verdict.slot);
    if (memory.memory != verdict.buffer || memory.index != verdict.chunk)
      where += " (memory " + chunkName(memory.memory, memory.index) + ")";
  }
  const ValueId value = verdict.slot >= 0 ? run.value(plane, verdict.slot) : kUninitialised;
  std::string text =
      modePrefix(run.mode(plane)) + "the " + std::string(collectiveTitle(spec.collective()));
  if (isRooted(spec.collective()))
    text += " from root " + std::to_string(spec.root());
  text += " result is wrong: " + where + " " + describeActual(run, value, verdict.expected) +
          " but should hold " + contributionsText(verdict.expected) + "; " +
          std::to_string(verdict.wrong) + " of " + std::to_string(verdict.total) +
          " output chunk slots are wrong";
  Location location;
  location.rank = verdict.rank;
  if (const std::optional<AccessSite> writer = run.lastWriter(plane, verdict.slot))
    location = stepLocation(program, verdict.rank, writer->tb, writer->step);
  out.error("postcondition", text, location);
}

} // namespace

void checkPostconditions(const SymbolicRun& run, const CheckOptions& options, Diagnostics& out)
{
  const Program& program = run.program();
  const int ranks = static_cast<int>(program.gpus.size());
  const int n = std::max(0, program.nchunksperloop);
  if (!hasPostcondition(program.collective)) {
    out.warning("postcondition.unknown",
                "no postcondition is known for coll=" +
                    (program.collSpelling.empty() ? std::string(collectiveTitle(program.collective))
                                                  : program.collSpelling) +
                    ": data flow was checked for deadlocks and races only");
    return;
  }
  if (run.outcome() != SymbolicRun::Outcome::Completed || run.planeCount() == 0 || ranks == 0)
    return;

  if (!isRooted(program.collective)) {
    const CollectiveSpec spec(program.collective, ranks, n);
    for (int plane = 0; plane < run.planeCount(); ++plane) {
      const Verdict verdict = evaluate(run, plane, spec, false);
      if (verdict.wrong > 0)
        reportWrong(run, plane, spec, verdict, out);
    }
    return;
  }

  const std::string title(collectiveTitle(program.collective));
  int root = -1;
  if (options.root) {
    if (*options.root < 0 || *options.root >= ranks) {
      out.error("postcondition.root", "root " + std::to_string(*options.root) +
                                          " is out of range: the program has " +
                                          std::to_string(ranks) + " ranks");
      return;
    }
    root = *options.root;
  } else {
    const std::vector<int> candidates = rootCandidates(program);
    if (candidates.size() == 1) {
      root = candidates.front();
      out.info("postcondition.root",
               "root inferred as rank " + std::to_string(root) + " (the only rank that " +
                   (program.collective == Collective::Broadcast ? "sends but never receives"
                                                                : "receives but never sends") +
                   ")");
    }
  }
  for (int plane = 0; plane < run.planeCount(); ++plane) {
    if (root < 0) {
      // Ambiguous from the data flow: accept the one root for which the result is right.
      std::vector<int> passing;
      const std::int64_t cost = std::int64_t{ranks} * ranks * std::max(1, n);
      if (cost <= kMaxRootTrials) {
        for (int trial = 0; trial < ranks; ++trial) {
          const CollectiveSpec spec(program.collective, ranks, n, trial);
          if (evaluate(run, plane, spec, true).wrong == 0)
            passing.push_back(trial);
        }
      }
      if (passing.size() != 1) {
        out.error("postcondition.root",
                  modePrefix(run.mode(plane)) + "cannot infer the root of the " + title + " (" +
                      (passing.empty() ? std::string("no rank")
                                       : std::to_string(passing.size()) + " ranks") +
                      " would make the result correct); pass --root");
        continue;
      }
      out.info("postcondition.root", modePrefix(run.mode(plane)) + "root inferred as rank " +
                                         std::to_string(passing.front()) +
                                         " (the only root for which the result is correct)");
      continue;
    }
    const CollectiveSpec spec(program.collective, ranks, n, root);
    const Verdict verdict = evaluate(run, plane, spec, false);
    if (verdict.wrong > 0)
      reportWrong(run, plane, spec, verdict, out);
  }
}

} // namespace cs::detail
