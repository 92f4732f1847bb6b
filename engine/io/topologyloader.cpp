#include "topologyloader.h"

#include "nccltopologyreader_p.h"
#include "nvidiasmitopology_p.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace cs {

TopologyTextKind detectTopologyText(std::string_view text)
{
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
      continue;
    if (c == '{')
      return TopologyTextKind::Json;
    if (c == '<')
      return TopologyTextKind::NcclXml;
    break;
  }
  return TopologyTextKind::NvidiaSmi;
}

TopologyReadResult readTopologyText(std::string_view text)
{
  switch (detectTopologyText(text)) {
  case TopologyTextKind::Json:
    return readTopologyJson(text);
  case TopologyTextKind::NcclXml:
    return readNcclTopologyXml(text);
  case TopologyTextKind::NvidiaSmi:
    return readNvidiaSmiTopology(text);
  }
  return {};
}

TopologyReadResult loadTopology(const std::string& spec, const PresetOptions& options)
{
  TopologyReadResult result;
  std::error_code error;
  if (!std::filesystem::is_regular_file(spec, error)) {
    std::string why;
    if (std::optional<Topology> preset = makePresetTopology(spec, options, &why)) {
      result.topology = std::move(preset);
      return result;
    }
    Diagnostic diagnostic;
    diagnostic.code = "topology.load";
    diagnostic.message = "\"" + spec + "\" is neither a file nor a preset: " + why;
    result.diagnostics.push_back(std::move(diagnostic));
    return result;
  }
  std::ifstream file(spec, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  if (!file && !file.eof()) {
    Diagnostic diagnostic;
    diagnostic.code = "topology.load";
    diagnostic.message = "cannot read " + spec;
    result.diagnostics.push_back(std::move(diagnostic));
    return result;
  }
  result = readTopologyText(text.str());
  for (Diagnostic& diagnostic : result.diagnostics)
    diagnostic.message = spec + ": " + diagnostic.message;
  return result;
}

} // namespace cs
