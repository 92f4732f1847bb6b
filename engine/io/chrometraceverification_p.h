#pragma once

// otherData.verification of a Chrome trace (chrometrace.h): how the run's result compared with
// the host reference, and the first wrong element of each wrong chunk, so a trace file shows a
// failed verification when it is replayed later. Written and read here so both sides agree:
//   "verification": {"checked": N, "wrong_elements": N, "wrong_chunks": N,
//                    "wrong": [{"rank", "buffer": "i"|"o"|"s", "chunk", "element",
//                               "expected", "actual"}, …]}
// A value is a JSON number, or "nan", "inf", "-inf" where it is not finite (an element nobody
// wrote holds NaN), so the round trip is exact.

#include "model/diagnostic.h"
#include "model/trace.h"

#include <nlohmann/json.hpp>

#include <string>

namespace cs {

/// The otherData.verification object.
nlohmann::json chromeVerificationJson(const TraceVerification& verification);

/// Reads otherData.verification into `trace`; false with a trace.invalid error in `out` that
/// names the field (and `source`) when a value is missing, of the wrong type or out of range.
bool readChromeVerification(const nlohmann::json& json, const std::string& source, Trace& trace,
                            Diagnostics& out);

} // namespace cs
