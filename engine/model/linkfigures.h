#pragma once

// Typical figures of link kinds, shared by the topology presets and the importers (an NCCL dump
// or an `nvidia-smi topo -m` matrix names link kinds but not always their speed). One table, so a
// PCIe link means the same thing whichever way a topology was made.

namespace cs::linkfigures {

inline constexpr double kNvlinkLatencyUs = 0.35;
inline constexpr double kPcieLatencyUs = 0.5;
inline constexpr double kSmpLatencyUs = 1.0; ///< CPU socket to CPU socket
inline constexpr double kNetworkLatencyUs = 1.5;
inline constexpr double kNvlink2PerLinkGBps = 25; ///< one NVLink 2 link (V100), per direction
inline constexpr double kPcieGen4GBps = 32;       ///< x16, per direction
inline constexpr double kPcieGen5GBps = 64;
inline constexpr double kSmpGBps = 40;
inline constexpr double kNic400GBps = 50; ///< a 400 Gb/s NIC

} // namespace cs::linkfigures
