#pragma once

// How an NCCL result reads, for CS_CHECK (exec/plan/callcheck.h), with NCCL's own last error
// message: its result codes alone rarely explain a failure. CUDA results read as
// exec/cudart/cudastatus.h says.

#include "exec/cudart/cudastatus.h"
#include "exec/plan/callcheck.h"

#include <nccl.h>

#include <string>
#include <string_view>

namespace cs::plan {

template <> struct CallStatus<ncclResult_t> {
  static constexpr std::string_view code = "exec.nccl";
  static bool ok(ncclResult_t result) { return result == ncclSuccess; }
  /// "unhandled cuda error (run with NCCL_DEBUG=INFO for details); NCCL says: ...".
  static std::string describe(ncclResult_t result)
  {
    std::string text = ncclGetErrorString(result);
    // The last error is process-wide (the comm argument is unused) and may be empty.
    const char* last = ncclGetLastError(nullptr);
    if (last && *last)
      text += "; NCCL says: " + std::string(last);
    return text;
  }
};

} // namespace cs::plan
