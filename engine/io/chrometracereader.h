#pragma once

// Chrome Trace Event JSON → Trace: reads back what writeChromeTrace (chrometrace.h) writes, so a
// run recorded by `cstudio run|simulate --trace` can be replayed later (DESIGN.md §9). The file
// may come from anywhere, so everything is checked before anything is kept: a file that is not
// JSON, events with negative or non-finite times, ranks, threadblocks or counts past sane bounds
// give a diagnostic that names the event (its index in traceEvents) and no trace at all. Events
// keep the file's order (the replay index sorts what it needs), so a written trace reads back
// equal to the one that was written.

#include "model/diagnostic.h"
#include "model/trace.h"

#include <optional>
#include <string>
#include <string_view>

namespace cs {

struct TraceReadResult {
  std::optional<Trace> trace;          ///< absent when the file cannot be read as a trace
  std::vector<Diagnostic> diagnostics; ///< trace.* codes (docs/diagnostics.md)
};

/// Parses the JSON text of a Chrome trace. `source` names the file in messages.
TraceReadResult readChromeTrace(std::string_view json, const std::string& source = "trace");

/// Reads and parses a file; a missing or unreadable file is a trace.unreadable diagnostic.
TraceReadResult readChromeTraceFile(const std::string& path);

} // namespace cs
