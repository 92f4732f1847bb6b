#include "gpumodel.h"

#include <array>
#include <cctype>

namespace cs {

namespace {

// SM and CU counts from the vendors' data sheets and architecture white papers: V100 (SXM2 and
// PCIe) 80 SMs; A100 (SXM4 and PCIe) 108; H100 PCIe 114; H100 SXM5 132; H200 132 (the same
// GH100 configuration); B200 148. MI300X 304 CUs. MI250X has 220 CUs in two graphics compute
// dies of 110, and RCCL sees each die as its own device, so one rank has 110.
constexpr std::array<GpuModel, 8> kModels = {{
    {GpuModelId::V100, "v100", "V100", GpuVendor::Nvidia, 80},
    {GpuModelId::A100, "a100", "A100", GpuVendor::Nvidia, 108},
    {GpuModelId::H100Pcie, "h100-pcie", "H100 PCIe", GpuVendor::Nvidia, 114},
    {GpuModelId::H100Sxm, "h100-sxm", "H100 SXM", GpuVendor::Nvidia, 132},
    {GpuModelId::H200, "h200", "H200", GpuVendor::Nvidia, 132},
    {GpuModelId::B200, "b200", "B200", GpuVendor::Nvidia, 148},
    {GpuModelId::Mi250x, "mi250x", "MI250X (one die)", GpuVendor::Amd, 110},
    {GpuModelId::Mi300x, "mi300x", "MI300X", GpuVendor::Amd, 304},
}};

// Blocks per SM/CU. Every NCCL-derived kernel, the MSCCL ones included, is declared
// __launch_bounds__(NCCL_MAX_NTHREADS, 1) (src/collectives/device/common.h in microsoft/msccl,
// Azure/msccl-executor-nccl and ROCm/rccl): the compiler only promises that ONE block fits per
// SM, and may spend the whole register file on it. On NVIDIA, NCCL_MAX_NTHREADS is 640, so each
// thread may get 65,536 / 640 -> 96 registers and one block may take 61,440 of an SM's 65,536:
// a second block of 512 threads (the classic runtime's Simple/LL launch) no longer fits. The
// classic runtime's own cap of 216 = 2 x 108 threadblocks (msccl.h, "108 is the number of SMs
// on A100") counts on two per SM, which holds only for a build that happens to use at most 64
// registers per thread; we stay with the promised one, because a wrong "fits" is a hang. Shared
// memory (ncclShmem plus MSCCL's per-block state, tens of KiB) is not the binding limit on any
// model here. RCCL's NCCL_MAX_NTHREADS is 256 (four 64-wide waves, one per SIMD), with the same
// launch bound, so the compiler may likewise use all of a CU's vector registers for one block.
constexpr RuntimeBlock kNvidiaBlock{
    640, 1, "__launch_bounds__(NCCL_MAX_NTHREADS=640, 1) promises one block per SM"};
constexpr RuntimeBlock kRcclBlock{
    256, 1, "__launch_bounds__(NCCL_MAX_NTHREADS=256, 1) promises one block per CU"};

std::string normalised(std::string_view spelling)
{
  std::string key;
  for (const char c : spelling) {
    if (c == ' ' || c == '_')
      key += '-';
    else
      key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return key;
}

} // namespace

std::span<const GpuModel> allGpuModels()
{
  return kModels;
}

const GpuModel& gpuModel(GpuModelId id)
{
  return kModels[static_cast<std::size_t>(id)];
}

std::optional<GpuModelId> parseGpuModel(std::string_view spelling)
{
  const std::string key = normalised(spelling);
  if (key == "h100" || key == "h100-sxm5")
    return GpuModelId::H100Sxm;
  for (const GpuModel& model : kModels) {
    if (model.key == key)
      return model.id;
  }
  return std::nullopt;
}

std::string gpuModelKeys()
{
  std::string keys;
  for (const GpuModel& model : kModels) {
    if (!keys.empty())
      keys += ", ";
    keys += model.key;
  }
  return keys;
}

GpuVendor dialectVendor(DialectId dialect)
{
  return dialect == DialectId::Rccl ? GpuVendor::Amd : GpuVendor::Nvidia;
}

const RuntimeBlock& runtimeBlock(DialectId dialect)
{
  return dialect == DialectId::Rccl ? kRcclBlock : kNvidiaBlock;
}

int residentThreadblocks(const GpuModel& model, DialectId dialect)
{
  return model.computeUnits * runtimeBlock(dialect).blocksPerUnit;
}

const GpuModel& mostPermissiveGpu(GpuVendor vendor)
{
  const GpuModel* best = nullptr;
  for (const GpuModel& model : kModels) {
    if (model.vendor == vendor && (!best || model.computeUnits > best->computeUnits))
      best = &model;
  }
  return *best;
}

const GpuModel& leastPermissiveGpu(GpuVendor vendor)
{
  const GpuModel* least = nullptr;
  for (const GpuModel& model : kModels) {
    if (model.vendor == vendor && (!least || model.computeUnits < least->computeUnits))
      least = &model;
  }
  return *least;
}

} // namespace cs
