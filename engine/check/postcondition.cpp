#include "symbolicreports.h"

#include <algorithm>
#include <optional>

namespace cs::detail {

namespace {

constexpr std::int64_t kMaxRootTrials = 50'000'000; ///< chunk comparisons spent on root inference

using TokenRef = std::pair<int, int>; ///< (rank, input chunk)

/// What a collective requires of the result buffer (msccl-format.md §7), K = N / ngpus.
struct Requirement {
  Collective collective = Collective::AllReduce;
  int ranks = 0;
  int n = 0; ///< nchunksperloop
  int k = 0; ///< nchunksperloop / ngpus
  int root = -1;

  /// Result chunks checked on a rank (0: the rank's result does not matter).
  int chunks(int rank) const
  {
    switch (collective) {
    case Collective::AllReduce:
    case Collective::Broadcast:
      return n;
    case Collective::AllGather:
    case Collective::AllToAll:
      return ranks * k;
    case Collective::ReduceScatter:
      return k;
    case Collective::Reduce:
      return rank == root ? n : 0;
    default:
      return 0;
    }
  }

  /// The contributions o[c] on `rank` must hold, each exactly once.
  void expected(int rank, int c, std::vector<TokenRef>& tokens) const
  {
    tokens.clear();
    switch (collective) {
    case Collective::AllReduce:
    case Collective::Reduce:
      for (int p = 0; p < ranks; ++p)
        tokens.emplace_back(p, c);
      break;
    case Collective::ReduceScatter:
      for (int p = 0; p < ranks; ++p)
        tokens.emplace_back(p, rank * k + c);
      break;
    case Collective::AllGather:
      tokens.emplace_back(c / k, c % k);
      break;
    case Collective::AllToAll:
      tokens.emplace_back(c / k, rank * k + c % k);
      break;
    case Collective::Broadcast:
      tokens.emplace_back(root, c);
      break;
    default:
      break;
    }
  }
};

struct Verdict {
  std::int64_t wrong = 0;
  std::int64_t total = 0;
  int rank = -1; ///< first wrong chunk
  int chunk = -1;
  int slot = -1;
  std::vector<TokenRef> expected;
};

bool holds(const SymbolicRun& run, ValueId value, const std::vector<TokenRef>& expected)
{
  const std::span<const TokenCount> entries = run.values().entries(value);
  if (entries.size() != expected.size())
    return false;
  // Expected contributions come in ascending rank order and tokens are rank-major, so both
  // sequences are sorted by token.
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const std::optional<std::uint32_t> token =
        run.tokens().token(expected[i].first, expected[i].second);
    if (!token || entries[i].token != *token || entries[i].count != 1)
      return false;
  }
  return true;
}

Verdict evaluate(const SymbolicRun& run, int plane, const Requirement& requirement,
                 bool stopAtFirst)
{
  Verdict verdict;
  std::vector<TokenRef> expected;
  for (int r = 0; r < requirement.ranks; ++r) {
    const int chunks = requirement.chunks(r);
    for (int c = 0; c < chunks; ++c) {
      ++verdict.total;
      requirement.expected(r, c, expected);
      const int slot = run.slot(plane, r, Buffer::Output, c);
      if (slot >= 0 && holds(run, run.value(plane, slot), expected))
        continue;
      if (verdict.wrong++ == 0) {
        verdict.rank = r;
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

std::string formatExpected(const std::vector<TokenRef>& expected)
{
  auto name = [](const TokenRef& t) {
    return "r" + std::to_string(t.first) + "\u00b7c" + std::to_string(t.second);
  };
  if (expected.empty())
    return "nothing";
  if (expected.size() == 1)
    return name(expected.front());
  if (expected.size() == 2)
    return "\u03a3{" + name(expected[0]) + ", " + name(expected[1]) + "}";
  return "\u03a3{" + name(expected.front()) + " \u2026 " + name(expected.back()) + "}";
}

// "Σ{r0·c1, r1·c1, r1·c1} (r1·c1 twice; r2·c1 and r3·c1 missing)" or "is uninitialised".
std::string describeActual(const SymbolicRun& run, ValueId value,
                           const std::vector<TokenRef>& expected)
{
  const std::span<const TokenCount> entries = run.values().entries(value);
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
    for (const TokenRef& t : expected) {
      const std::optional<std::uint32_t> token = run.tokens().token(t.first, t.second);
      const bool present =
          token && std::any_of(entries.begin(), entries.end(),
                               [&](const TokenCount& e) { return e.token == *token; });
      if (!present)
        missing.push_back("r" + std::to_string(t.first) + "\u00b7c" + std::to_string(t.second));
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

void reportWrong(const SymbolicRun& run, int plane, const Requirement& requirement,
                 const Verdict& verdict, Diagnostics& out)
{
  const Program& program = run.program();
  std::string where =
      "rank " + std::to_string(verdict.rank) + " " + chunkName(Buffer::Output, verdict.chunk);
  if (verdict.slot >= 0) {
    const MemorySlot memory = run.memoryOf(plane, verdict.slot);
    if (memory.memory != Buffer::Output || memory.index != verdict.chunk)
      where += " (memory " + chunkName(memory.memory, memory.index) + ")";
  }
  const ValueId value = verdict.slot >= 0 ? run.value(plane, verdict.slot) : kUninitialised;
  std::string text =
      modePrefix(run.mode(plane)) + "the " + std::string(collectiveTitle(requirement.collective));
  if (requirement.collective == Collective::Broadcast ||
      requirement.collective == Collective::Reduce)
    text += " from root " + std::to_string(requirement.root);
  text += " result is wrong: " + where + " " + describeActual(run, value, verdict.expected) +
          " but should hold " + formatExpected(verdict.expected) + "; " +
          std::to_string(verdict.wrong) + " of " + std::to_string(verdict.total) +
          " output chunk slots are wrong";
  Location location;
  location.rank = verdict.rank;
  if (const std::optional<AccessSite> writer = run.lastWriter(plane, verdict.slot))
    location = stepLocation(program, verdict.rank, writer->tb, writer->step);
  out.error("postcondition", text, location);
}

// Broadcast roots send and never receive; reduce roots receive and never send.
std::vector<int> rootCandidates(const Program& program, Collective collective)
{
  std::vector<int> candidates;
  for (const Gpu& gpu : program.gpus) {
    bool sends = false;
    bool receives = false;
    for (const ThreadBlock& tb : gpu.threadblocks) {
      for (const Step& step : tb.steps) {
        const OpTraits traits = opTraits(step.type);
        sends = sends || traits.sends;
        receives = receives || traits.receives;
      }
    }
    const bool candidate =
        collective == Collective::Broadcast ? sends && !receives : receives && !sends;
    if (candidate)
      candidates.push_back(gpu.id);
  }
  return candidates;
}

} // namespace

void checkPostconditions(const SymbolicRun& run, const CheckOptions& options, Diagnostics& out)
{
  const Program& program = run.program();
  Requirement requirement;
  requirement.collective = program.collective;
  requirement.ranks = static_cast<int>(program.gpus.size());
  requirement.n = std::max(0, program.nchunksperloop);
  requirement.k = requirement.ranks > 0 ? requirement.n / requirement.ranks : 0;

  switch (program.collective) {
  case Collective::AllReduce:
  case Collective::AllGather:
  case Collective::ReduceScatter:
  case Collective::AllToAll:
  case Collective::Broadcast:
  case Collective::Reduce:
    break;
  default:
    out.warning("postcondition.unknown",
                "no postcondition is known for coll=" +
                    (program.collSpelling.empty() ? std::string(collectiveTitle(program.collective))
                                                  : program.collSpelling) +
                    ": data flow was checked for deadlocks and races only");
    return;
  }
  if (run.outcome() != SymbolicRun::Outcome::Completed || run.planeCount() == 0 ||
      requirement.ranks == 0)
    return;

  const bool rooted =
      program.collective == Collective::Broadcast || program.collective == Collective::Reduce;
  if (!rooted) {
    for (int plane = 0; plane < run.planeCount(); ++plane) {
      const Verdict verdict = evaluate(run, plane, requirement, false);
      if (verdict.wrong > 0)
        reportWrong(run, plane, requirement, verdict, out);
    }
    return;
  }

  const std::string title(collectiveTitle(program.collective));
  if (options.root) {
    if (*options.root < 0 || *options.root >= requirement.ranks) {
      out.error("postcondition.root", "root " + std::to_string(*options.root) +
                                          " is out of range: the program has " +
                                          std::to_string(requirement.ranks) + " ranks");
      return;
    }
    requirement.root = *options.root;
  } else {
    const std::vector<int> candidates = rootCandidates(program, program.collective);
    if (candidates.size() == 1) {
      requirement.root = candidates.front();
      out.info("postcondition.root",
               "root inferred as rank " + std::to_string(requirement.root) +
                   " (the only rank that " +
                   (program.collective == Collective::Broadcast ? "sends but never receives"
                                                                : "receives but never sends") +
                   ")");
    }
  }
  for (int plane = 0; plane < run.planeCount(); ++plane) {
    Requirement planeRequirement = requirement;
    if (planeRequirement.root < 0) {
      // Ambiguous from the data flow: accept the one root for which the result is right.
      std::vector<int> passing;
      const std::int64_t cost =
          std::int64_t{requirement.ranks} * requirement.ranks * std::max(1, requirement.n);
      if (cost <= kMaxRootTrials) {
        for (int root = 0; root < requirement.ranks; ++root) {
          Requirement trial = requirement;
          trial.root = root;
          if (evaluate(run, plane, trial, true).wrong == 0)
            passing.push_back(root);
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
      planeRequirement.root = passing.front();
      out.info("postcondition.root", modePrefix(run.mode(plane)) + "root inferred as rank " +
                                         std::to_string(planeRequirement.root) +
                                         " (the only root for which the result is correct)");
      continue;
    }
    const Verdict verdict = evaluate(run, plane, planeRequirement, false);
    if (verdict.wrong > 0)
      reportWrong(run, plane, planeRequirement, verdict, out);
  }
}

} // namespace cs::detail
