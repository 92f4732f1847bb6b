#include "passes_p.h"

#include "../model/buffergeometry.h"
#include "staticcheckutil_p.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>

namespace cs::passes {

namespace {

constexpr Collective kAllCollectives[] = {
    Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter, Collective::AllToAll,
    Collective::Broadcast, Collective::Reduce,    Collective::Custom,        Collective::Send,
    Collective::Recv,      Collective::Gather,    Collective::Scatter,       Collective::AllToAllV,
};

// What happens when a file lacks an attribute the runtime reads with its mandatory getters.
std::string missingConsequence(const Dialect& dialect)
{
  if (dialect.id == DialectId::Classic)
    return cat(dialect.title, " skips the file with a warning, so NCCL's own algorithms run "
                              "instead (msccl-format §1)");
  return cat(dialect.title, " rejects the file and, because it parses every file in "
                            "MSCCL_ALGO_DIR, MSCCL initialisation fails (msccl-format pitfall "
                            "P1)");
}

void checkRequiredAttributes(const Program& program, const Dialect& dialect, Reporter& report)
{
  auto missing = [&](std::string_view attribute) {
    report.error("format.missing-attribute", algoLocation(program, attribute), [&] {
      return cat("missing required algo attribute ", attribute, ": ", missingConsequence(dialect));
    });
  };
  if (dialect.requiresName && program.name.empty())
    missing("name");
  if (dialect.requiresSizeBounds && !program.minBytes)
    missing("minBytes");
  if (dialect.requiresSizeBounds && !program.maxBytes)
    missing("maxBytes");
  if (dialect.requiresOutOfPlace && !program.outofplace)
    missing("outofplace");
}

std::string acceptedSpellings(const Dialect& dialect)
{
  std::string text;
  for (const Collective collective : kAllCollectives) {
    if (const std::optional<std::string_view> spelling = dialect.collSpelling(collective)) {
      if (!text.empty())
        text += ", ";
      text += *spelling;
    }
  }
  return text;
}

// Why a spelled coll is not this runtime's.
std::string unknownCollText(const Program& program, const Dialect& dialect)
{
  std::string text = cat("coll \"", program.collSpelling, "\" is unknown to ", dialect.title);
  const std::optional<Collective> collective = parseCollective(program.collSpelling);
  if (!collective)
    return cat(text, "; it accepts ", acceptedSpellings(dialect));
  if (const std::optional<std::string_view> own = dialect.collSpelling(*collective))
    return cat(text, ", which spells this collective \"", *own,
               "\" (msccl-format §2.1, pitfall P3)");
  if (*collective == Collective::Custom)
    return cat(text,
               ", which has no custom collective; declare the collective the "
               "algorithm implements (one of ",
               acceptedSpellings(dialect), ") or target the classic runtime (pitfall P3)");
  return cat(text, ", which has no ", collectiveTitle(*collective), " collective; it accepts ",
             acceptedSpellings(dialect));
}

// select.coll (msccl-format §2.1, pitfall P3).
void checkColl(const Program& program, const Dialect& dialect, Reporter& report)
{
  // A program built in code may leave the spelling to the writer, which spells the collective
  // for the target runtime; only then is the model's collective what matters.
  if (program.collSpelling.empty()) {
    if (!dialect.collSpelling(program.collective)) {
      report.error("select.coll", algoLocation(program, "coll"), [&] {
        return cat("the ", collectiveTitle(program.collective),
                   " collective has no coll "
                   "spelling in ",
                   dialect.title, "; it accepts ", acceptedSpellings(dialect));
      });
    }
    return;
  }
  if (dialect.acceptsCollSpelling(program.collSpelling))
    return;
  report.error("select.coll", algoLocation(program, "coll"), [&] {
    return cat(unknownCollText(program, dialect), ": ", missingConsequence(dialect));
  });
}

// How a user still reaches an algorithm whose own size bounds exclude every call.
std::string howToReach(const Dialect& dialect)
{
  if (dialect.id == DialectId::Classic)
    return "register it in an MSCCL_CONFIG file whose <load> minbytes/maxbytes override the "
           "file's (msccl-format §4.6)";
  return cat("write bounds that admit a call size: ", dialect.title,
             " has no setting that overrides them");
}

// select.never, select.size-range, select.default-max-bytes, select.inplace-only
// (msccl-format §2.1 and §4.6, pitfall P2).
void checkSizeRange(const Program& program, const Dialect& dialect, Reporter& report)
{
  if (dialect.inplaceIsExclusive && program.inplace && program.outofplace.value_or(false)) {
    report.info("select.inplace-only", algoLocation(program, "outofplace"), [&] {
      return cat("the file declares inplace=1 and outofplace=1, but ", dialect.title,
                 " reads only inplace and will use the algorithm for in-place calls only");
    });
  }
  if (!dialect.inplaceIsExclusive && program.outofplace && !*program.outofplace &&
      !program.inplace) {
    report.error("select.never", algoLocation(program, "inplace"), [&] {
      return cat("inplace=0 and outofplace=0: ", dialect.title,
                 " never selects an algorithm that serves neither in-place nor out-of-place "
                 "calls (msccl-format §4.6)");
    });
    return;
  }

  // The classic loader refuses minBytes above maxBytes (limit.size-bounds): not a selection matter.
  if (dialect.id == DialectId::Classic &&
      program.minBytes.value_or(0) > program.maxBytes.value_or(dialect.defaultMaxBytes))
    return;
  const std::int64_t minBytes = std::max<std::int64_t>(0, program.minBytes.value_or(0));
  // Largest selectable byte count, inclusive; nullopt = unbounded.
  const std::optional<std::int64_t> upper = dialect.largestSelectedBytes(program.maxBytes);
  if (!program.maxBytes && upper) {
    report.warning("select.default-max-bytes", algoLocation(program, "maxBytes"), [&] {
      return cat("maxBytes is absent, so ", dialect.title, " uses its default of ",
                 dialect.defaultMaxBytes, " bytes (", dialect.defaultMaxBytes >> 20, " MiB) as ",
                 dialect.maxBytesInclusive ? "an inclusive" : "an exclusive",
                 " bound: the algorithm is never used for larger calls (msccl-format "
                 "pitfall P2); write maxBytes explicitly");
    });
  } else if (program.maxBytes == 0 && upper) {
    report.error("select.never", algoLocation(program, "maxBytes"), [&] {
      return cat("maxBytes=\"0\" means \"never selected\" in ", dialect.title,
                 ": the file loads but no call size is below its exclusive bound (0 means "
                 "unlimited only in the executor runtimes, msccl-format pitfall P2); write the "
                 "real upper bound, or ",
                 howToReach(dialect));
    });
    return;
  }

  if (upper && minBytes > *upper) {
    report.error("select.never", algoLocation(program, "minBytes"), [&] {
      return cat("minBytes=", minBytes, " but ", dialect.title,
                 " selects the algorithm only for sizes up to ", *upper, " bytes (maxBytes=",
                 program.maxBytes ? cat(*program.maxBytes) : std::string("absent"),
                 dialect.maxBytesInclusive ? ", inclusive" : ", exclusive",
                 "): the file loads but no call size is in range (msccl-format §4.6); ",
                 howToReach(dialect));
    });
    return;
  }

  // The runtime needs (count × mult) % nchunksperloop == 0 with count > 0 (msccl-format §4.6);
  // with 1-byte elements nBytes = count × mult, so the usable sizes are the positive multiples of
  // lcm(mult, nchunksperloop). Larger element types only remove sizes.
  const int mult = sizeMultiplier(program.collective, program.ngpus);
  if (program.nchunksperloop < 1 || mult < 1 || !upper)
    return;
  const std::int64_t step =
      std::lcm(static_cast<std::int64_t>(mult), static_cast<std::int64_t>(program.nchunksperloop));
  const std::int64_t low = std::max<std::int64_t>(minBytes, 1);
  const std::int64_t quotient = low / step + (low % step != 0 ? 1 : 0);
  const bool fits = quotient <= *upper / step; // quotient × step <= upper, without overflow
  if (fits)
    return;
  report.error("select.size-range", algoLocation(program, "minBytes"), [&] {
    return cat("no call size in [", minBytes, ", ", *upper,
               "] bytes can be split into "
               "nchunksperloop=",
               program.nchunksperloop, " chunks: ", dialect.title, " needs ",
               mult == 1 ? std::string("the element count") : cat("count × ", mult),
               " to be a multiple of ", program.nchunksperloop,
               ", so even with 1-byte elements the sizes must be positive multiples of ", step,
               " bytes (msccl-format §4.6)");
  });
}

} // namespace

void checkSelection(const Program& program, const Dialect& dialect, Diagnostics& out)
{
  Reporter report(out);
  checkRequiredAttributes(program, dialect, report);
  checkColl(program, dialect, report);
  checkSizeRange(program, dialect, report);
}

} // namespace cs::passes
