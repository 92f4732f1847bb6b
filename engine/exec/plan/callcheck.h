#pragma once

// The one error path of the GPU executors (STYLE.md §11): every CUDA runtime and NCCL call goes
// through CS_CHECK, which turns a failed call into an error diagnostic naming the call as
// written, where it was made for (rank, device, what), the source file and line, and what the
// library said; the executor then ends the run with that diagnostic, never with an abort. Calls
// in paths that cannot return an error (destructors, teardown after a failure, the watchdog's
// polls) go through CS_CHECK_RECORD, which records the failure here until the executor takes it
// into the run's diagnostics as a warning.
//
// This header includes no CUDA or NCCL header: each library's result type is described by a
// specialisation of CallStatus next to that library's headers (exec/cudart/cudastatus.h for
// cudaError_t, exec/nccl/ncclstatus_p.h for ncclResult_t).

#include "model/diagnostic.h"

#include <string>
#include <string_view>

namespace cs::plan {

/// What a call was made for; -1 and empty where it does not apply.
struct CallSite {
  int rank = -1;
  int device = -1;
  std::string_view what; ///< "rank 1's input buffer", "the block statuses"
};
/// A call made for `device` (and `what`).
inline CallSite onDevice(int device, std::string_view what = {})
{
  return {-1, device, what};
}

/// `site` with `what` for what the call was made for.
inline CallSite withWhat(CallSite site, std::string_view what)
{
  site.what = what;
  return site;
}

/// Where in this project's source a call was made (__FILE__, __LINE__).
struct SourcePlace {
  const char* file = "";
  int line = 0;
};

/// How a library's result code reads: specialised per result type with
///   static bool ok(Status); static std::string describe(Status);
///   static constexpr std::string_view code = "exec.cuda";
template <typename Status> struct CallStatus;

/// "cudaMalloc(&data, bytes) for rank 1's input buffer on device 0
/// (exec/cuda/devicebuffers.cpp:52): out of memory (cudaErrorMemoryAllocation)".
std::string describeFailedCall(std::string_view call, const CallSite& site, SourcePlace place,
                               std::string_view said);

/// True when `status` says the call succeeded; else adds the call's error to `out`.
template <typename Status>
bool checkCall(Status status, std::string_view call, const CallSite& site, SourcePlace place,
               Diagnostics& out)
{
  if (CallStatus<Status>::ok(status))
    return true;
  out.error(std::string(CallStatus<Status>::code),
            describeFailedCall(call, site, place, CallStatus<Status>::describe(status)));
  return false;
}

/// Keeps the failure of a call that could not report it until takeRecordedFailures().
void recordFailure(Diagnostic diagnostic);
/// Appends every recorded failure to `out` as a warning and forgets them. Thread-safe; the record
/// is per process, so concurrent runs may take each other's.
void takeRecordedFailures(Diagnostics& out);

/// checkCall() for paths that cannot report: a failure is recorded for the run (as a warning).
template <typename Status>
bool checkRecordedCall(Status status, std::string_view call, const CallSite& site,
                       SourcePlace place)
{
  if (CallStatus<Status>::ok(status))
    return true;
  recordFailure({Severity::Warning,
                 std::string(CallStatus<Status>::code),
                 describeFailedCall(call, site, place, CallStatus<Status>::describe(status)),
                 {},
                 {}});
  return false;
}

} // namespace cs::plan

/// Checks a CUDA runtime or NCCL call: true on success, else false with the error in `out`.
#define CS_CHECK(call, site, out)                                                                  \
  ::cs::plan::checkCall((call), #call, (site), ::cs::plan::SourcePlace{__FILE__, __LINE__}, (out))
/// Checks a call in a path that cannot report (teardown): the failure is recorded for the run.
#define CS_CHECK_RECORD(call, site)                                                                \
  ::cs::plan::checkRecordedCall((call), #call, (site), ::cs::plan::SourcePlace{__FILE__, __LINE__})
