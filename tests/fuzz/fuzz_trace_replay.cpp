// Untrusted traces must never crash or hang the program: any bytes go through the Chrome trace
// reader, and whatever it accepts is indexed for replay against the catalogue's ring of the
// trace's rank count (with and without a topology for routes) and queried at its start, middle
// and end, as opening a trace in the visualizer does. A trace that does not fit the ring must be
// refused with a diagnostic, never half-indexed. Where the build has more than one JSON tokenizer
// (RapidJSON's and nlohmann's), a trace both accept must read identically through each.

#include "catalogue/ringallreduce.h"
#include "io/chrometracereader.h"
#include "io/tracetokenizers_p.h"
#include "model/topologypresets.h"
#include "replay/replayindex.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const cs::TraceReadResult read = cs::readChromeTrace(text);
  for (const cs::tracejson::Tokenizer tokenizer : cs::tracejson::availableTokenizers()) {
    const cs::TraceReadResult other = cs::tracejson::readChromeTraceWith(tokenizer, text, "trace");
    if (read.trace && other.trace && !(*read.trace == *other.trace)) {
      std::fprintf(stderr, "the tokenizers read the same trace differently\n");
      std::abort();
    }
    if (!other.trace && other.diagnostics.empty()) {
      std::fprintf(stderr, "a tokenizer refused a trace without saying why\n");
      std::abort();
    }
  }
  if (!read.trace)
    return 0;
  const int ranks = read.trace->ranks;
  if (ranks < 2 || ranks > 16)
    return 0;
  const cs::Program program = cs::makeRingAllReduce({ranks, 1, cs::Protocol::Simple});
  const std::optional<cs::Topology> ring = cs::makePresetTopology("ring-" + std::to_string(ranks));
  for (const cs::Topology* topology :
       {static_cast<const cs::Topology*>(nullptr), ring ? &*ring : nullptr}) {
    const cs::replay::ReplayBuild built =
        cs::replay::ReplayIndex::build(program, *read.trace, topology);
    if (!built.index) {
      if (built.diagnostics.empty()) {
        std::fprintf(stderr, "replay refused a trace without saying why\n");
        std::abort();
      }
      continue;
    }
    const double end = built.index->endUs();
    for (const double t : {0.0, end / 2, end})
      (void)built.index->at(t);
  }
  return 0;
}
