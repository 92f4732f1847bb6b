#include "protocolmodel.h"

#include "model/fifodepth.h"

#include <algorithm>

namespace cs {

std::string_view hopClassName(HopClass hopClass)
{
  switch (hopClass) {
  case HopClass::NvLink:
    return "nvlink";
  case HopClass::Pcie:
    return "pcie";
  case HopClass::Network:
    return "network";
  }
  return "nvlink";
}

HopClass hopClassOf(LinkKind kind)
{
  switch (kind) {
  case LinkKind::NvLink:
    return HopClass::NvLink;
  case LinkKind::Pcie:
  case LinkKind::Smp:
    return HopClass::Pcie;
  case LinkKind::Network:
    return HopClass::Network;
  }
  return HopClass::Pcie;
}

HopClass hopClassOfPath(const Topology& topology, const std::vector<int>& linkIds)
{
  HopClass slowest = HopClass::NvLink;
  for (const int id : linkIds)
    if (const TopologyLink* link = topology.link(id))
      slowest = std::max(slowest, hopClassOf(link->kind));
  return slowest;
}

double ProtocolParams::hopLatencyUs(HopClass hopClass) const
{
  switch (hopClass) {
  case HopClass::NvLink:
    return latencyUs;
  case HopClass::Pcie:
    return pcieLatencyUs.value_or(latencyUs);
  case HopClass::Network:
    return networkLatencyUs.value_or(latencyUs);
  }
  return latencyUs;
}

void ProtocolParams::setUniformLatency(double us)
{
  latencyUs = us;
  pcieLatencyUs.reset();
  networkLatencyUs.reset();
}

// NCCL's ring hwLat per class (src/graph/tuning.cc; docs/simulator.md §2 gives the reasoning).
ProtocolParams defaultProtocolParams(Protocol protocol)
{
  switch (protocol) {
  case Protocol::LL:
    return {0.5, 0.6, runtimeSliceBytes(protocol), 1.0, 2.7};
  case Protocol::LL128:
    return {120.0 / 128.0, 1.9, runtimeSliceBytes(protocol), 2.5, 4.0};
  case Protocol::Simple:
    return {1.0, 3.4, runtimeSliceBytes(protocol), 5.7, 9.6};
  }
  return {};
}

} // namespace cs
