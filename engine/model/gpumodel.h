#pragma once

// The GPU models a Program may be checked for, and how many of a runtime's threadblocks each
// keeps resident at once. The runtimes launch every threadblock of a rank in one kernel and the
// blocks spin-wait on each other (msccl-format.md §4.5), so a rank with more threadblocks than
// the GPU keeps resident hangs. Figures and their sources are in gpumodel.cpp.

#include "dialect.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace cs {

enum class GpuVendor : std::uint8_t { Nvidia, Amd };

enum class GpuModelId : std::uint8_t { V100, A100, H100Pcie, H100Sxm, H200, B200, Mi250x, Mi300x };

struct GpuModel {
  GpuModelId id;
  std::string_view key;   ///< command-line and design-document spelling: "h100-sxm"
  std::string_view title; ///< for messages: "H100 SXM"
  GpuVendor vendor;
  int computeUnits; ///< SMs (NVIDIA) or CUs (AMD) of the device the runtime sees

  std::string_view unitName() const { return vendor == GpuVendor::Nvidia ? "SM" : "CU"; }
};

/// The block a runtime launches per threadblock, as far as residency is concerned.
struct RuntimeBlock {
  int threadsPerBlock;  ///< the kernel's launch bound (NCCL_MAX_NTHREADS)
  int blocksPerUnit;    ///< of those blocks, how many one SM/CU is sure to keep resident
  std::string_view why; ///< one line saying where blocksPerUnit comes from
};

std::span<const GpuModel> allGpuModels();
const GpuModel& gpuModel(GpuModelId id);
/// Accepts the keys and common spellings, in any case: "H100" (the SXM part), "h100-pcie",
/// "A100", "MI300X", "mi250x".
std::optional<GpuModelId> parseGpuModel(std::string_view spelling);
/// The keys, for help texts: "v100, a100, h100-pcie, ...".
std::string gpuModelKeys();

/// The vendor whose GPUs a runtime runs on: RCCL on AMD, the other two on NVIDIA.
GpuVendor dialectVendor(DialectId dialect);
const RuntimeBlock& runtimeBlock(DialectId dialect);

/// Threadblocks per rank that `model` keeps resident for `dialect`'s kernel.
int residentThreadblocks(const GpuModel& model, DialectId dialect);
/// The known model of `vendor` that keeps the most blocks resident (the check's assumption
/// when no GPU was chosen) and the one that keeps the fewest.
const GpuModel& mostPermissiveGpu(GpuVendor vendor);
const GpuModel& leastPermissiveGpu(GpuVendor vendor);

} // namespace cs
