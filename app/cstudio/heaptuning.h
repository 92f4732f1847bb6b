#pragma once

namespace cs::cli {

/// Keeps freed memory in the process for commands that build and drop vectors of hundreds of
/// megabytes (generating a 1,024-rank program): glibc maps each allocation above 32 MiB on its
/// own and unmaps it when freed, so every growth or copy of such a vector faults its pages in
/// afresh (535,000 page faults, 1.3 s of system time at 1,024 ranks). Here large blocks come from
/// the heap and freed ones are reused instead of returned. Not for the executors' timed runs:
/// only the commands that call it change. Does nothing outside glibc.
void keepFreedMemory();

} // namespace cs::cli
