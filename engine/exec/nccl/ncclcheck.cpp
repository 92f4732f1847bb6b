#include "ncclcheck.h"

namespace cs::nccl {

namespace {

std::string where(const std::string& call, CallSite site)
{
  std::string text = call;
  if (site.rank >= 0)
    text += " for rank " + std::to_string(site.rank);
  if (site.device >= 0)
    text += " on device " + std::to_string(site.device);
  return text;
}

} // namespace

std::string describeCudaError(cudaError_t error, const std::string& call, CallSite site)
{
  return where(call, site) + ": " + cudaGetErrorString(error) + " (" + cudaGetErrorName(error) +
         ")";
}

std::string describeNcclError(ncclResult_t result, const std::string& call, CallSite site)
{
  std::string text = where(call, site) + ": " + ncclGetErrorString(result);
  // The last error is process-wide (the comm argument is unused) and may be empty.
  const char* last = ncclGetLastError(nullptr);
  if (last && *last)
    text += "; NCCL says: " + std::string(last);
  return text;
}

bool checkCuda(cudaError_t error, const std::string& call, CallSite site, Diagnostics& out)
{
  if (error == cudaSuccess)
    return true;
  out.error("exec.cuda", describeCudaError(error, call, site));
  return false;
}

bool checkNccl(ncclResult_t result, const std::string& call, CallSite site, Diagnostics& out)
{
  if (result == ncclSuccess)
    return true;
  out.error("exec.nccl", describeNcclError(result, call, site));
  return false;
}

} // namespace cs::nccl
