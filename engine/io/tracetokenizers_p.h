#pragma once

// The JSON tokenizers the Chrome trace reader can drive. RapidJSON's SAX reader is about twice as
// fast as nlohmann's on traces (numbers dominate them) and is used where it was found at build
// time (CSTUDIO_HAVE_RAPIDJSON); nlohmann's, always built, is the fallback (the GPU machines'
// staged dependencies have no RapidJSON). Both feed one TraceCollector, so both give the same
// trace and the same messages: the tests read every input through each.

#include "chrometracereader.h"
#include "tracecollector_p.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs::tracejson {

enum class Tokenizer { RapidJson, Nlohmann };

/// The tokenizers this build has, the one the reader uses first.
std::vector<Tokenizer> availableTokenizers();

/// How a tokenizer's pass ended.
struct TokenizeOutcome {
  bool opened = true;          ///< false: the file could not be opened
  bool complete = false;       ///< the whole text was one JSON value and the collector took it all
  std::size_t errorOffset = 0; ///< where the text stopped being JSON (not complete, not failed)
};

TokenizeOutcome tokenizeText(Tokenizer tokenizer, std::string_view text, TraceCollector& out);
TokenizeOutcome tokenizeFile(Tokenizer tokenizer, const std::string& path, TraceCollector& out);

// Each tokenizer's own pass (rapidJson* exist only where CSTUDIO_HAVE_RAPIDJSON is defined).
TokenizeOutcome nlohmannTokenizeText(std::string_view text, TraceCollector& out);
TokenizeOutcome nlohmannTokenizeFile(const std::string& path, TraceCollector& out);
TokenizeOutcome rapidJsonTokenizeText(std::string_view text, TraceCollector& out);
TokenizeOutcome rapidJsonTokenizeFile(const std::string& path, TraceCollector& out);

/// The run facts, totals and checks after a tokenizer's pass (chrometracereader.cpp).
TraceReadResult finishTrace(const TokenizeOutcome& outcome, TraceCollector& collector,
                            const std::string& source, Diagnostics& out);

/// A file of at least `minBytes` read by two threads (rapidjsonhalves.cpp, RapidJSON builds
/// only): the trace one pass would read, or nullopt where the file must be read in one pass.
std::optional<TraceReadResult> readFileInHalves(const std::string& path, std::size_t minBytes);

/// Files from this size on are read in halves, where the build can.
constexpr std::size_t kHalvesFromBytes = std::size_t(64) << 20;

/// readChromeTrace with a chosen tokenizer (the tests compare them).
TraceReadResult readChromeTraceWith(Tokenizer tokenizer, std::string_view json,
                                    const std::string& source);

} // namespace cs::tracejson
