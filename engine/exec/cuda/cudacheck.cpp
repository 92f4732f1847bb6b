#include "cudacheck.h"

namespace cs::cuda {

std::string describeError(cudaError_t error, const std::string& call, int device)
{
  std::string text = call;
  if (device >= 0)
    text += " on device " + std::to_string(device);
  return text + ": " + cudaGetErrorString(error) + " (" + cudaGetErrorName(error) + ")";
}

bool check(cudaError_t error, const std::string& call, int device, Diagnostics& out)
{
  if (error == cudaSuccess)
    return true;
  out.error("exec.cuda", describeError(error, call, device));
  return false;
}

} // namespace cs::cuda
