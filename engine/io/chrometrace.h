#pragma once

// Trace → Chrome Trace Event JSON (the format chrome://tracing and Perfetto open), DESIGN.md §5:
// one process per rank (pid = rank) named "rank r", one thread per threadblock (tid = tb id),
// one complete ("X") event per trace event with ts/dur in µs, a flow arrow ("s" → "f") from
// every send-type event to the receive-type event that takes its message (matched in order per
// (sender, receiver, channel), as the runtime does), and per-link counter tracks ("C") of
// utilisation under one extra process named "links". A run the watchdog stopped keeps when it
// stopped and where each blocked threadblock stood in otherData ("stopped_us", "blocked"); a
// verified run its verification with the first wrong element of each wrong chunk
// ("verification", see chrometraceverification_p.h).

#include "model/diagnostic.h"
#include "model/topology.h"
#include "model/trace.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace cs {

/// The JSON text. `topology`, when given, names the link tracks ("GPU0 - NVSwitch").
std::string writeChromeTrace(const Trace& trace, const Topology* topology = nullptr);
/// The same text written to `out` as it is made (a file of a long run: the text of a trace of
/// millions of events is gigabytes).
void writeChromeTrace(const Trace& trace, const Topology* topology, std::ostream& out);

/// The pid of the "links" process: one past the highest rank.
int chromeTraceLinksPid(const Trace& trace);

/// otherData.verification of a trace as JSON text (chrometraceverification_p.h gives the shape),
/// for other stores of a Trace (storage, `cstudio replay --json`) to keep the same spelling.
std::string writeTraceVerification(const TraceVerification& verification);
/// The inverse: absent, with a trace.invalid error naming the field in `out`, when `json` is not
/// a valid verification object. `source` starts the message ("t.json", "stored run 4").
std::optional<TraceVerification> readTraceVerification(std::string_view json,
                                                       const std::string& source, Diagnostics& out);

/// "message", "room", "flag": how otherData.blocked spells what a position waits for.
std::string_view blockedOnName(BlockedOn on);
/// The inverse of blockedOnName(); absent for any other text.
std::optional<BlockedOn> parseBlockedOn(std::string_view text);

} // namespace cs
