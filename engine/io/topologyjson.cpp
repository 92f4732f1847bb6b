#include "topologyjson.h"

#include "jsontext_p.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

namespace cs {

namespace {

constexpr int kFormatVersion = 1;
constexpr const char* kFormatName = "collective-studio-topology";

using Json = nlohmann::ordered_json;

/// Reads one object's fields, reporting each problem once with its JSON path.
class FieldReader
{
public:
  FieldReader(const Json& object, std::string path, Diagnostics& diagnostics)
      : m_object(object), m_path(std::move(path)), m_diagnostics(diagnostics)
  {
  }

  const Json* find(const char* key, bool required) const
  {
    const auto found = m_object.find(key);
    if (found == m_object.end()) {
      if (required)
        m_diagnostics.error("topology.missing-field", m_path + "." + key + " is missing");
      return nullptr;
    }
    return &*found;
  }

  std::optional<int> integer(const char* key, bool required = true) const
  {
    const Json* value = find(key, required);
    if (!value)
      return std::nullopt;
    if (!value->is_number_integer()) {
      typeError(key, "an integer", *value);
      return std::nullopt;
    }
    const auto wide = value->get<std::int64_t>();
    if (wide < -1'000'000'000 || wide > 1'000'000'000) {
      m_diagnostics.error("topology.out-of-range",
                          m_path + "." + key + " = " + std::to_string(wide) + " is out of range");
      return std::nullopt;
    }
    return static_cast<int>(wide);
  }

  std::optional<double> number(const char* key, bool required = true) const
  {
    const Json* value = find(key, required);
    if (!value)
      return std::nullopt;
    if (!value->is_number()) {
      typeError(key, "a number", *value);
      return std::nullopt;
    }
    return value->get<double>();
  }

  std::optional<std::string> text(const char* key, bool required = true) const
  {
    const Json* value = find(key, required);
    if (!value)
      return std::nullopt;
    if (!value->is_string()) {
      typeError(key, "a string", *value);
      return std::nullopt;
    }
    return value->get<std::string>();
  }

  std::optional<bool> boolean(const char* key, bool required = true) const
  {
    const Json* value = find(key, required);
    if (!value)
      return std::nullopt;
    if (!value->is_boolean()) {
      typeError(key, "true or false", *value);
      return std::nullopt;
    }
    return value->get<bool>();
  }

  const std::string& path() const { return m_path; }

private:
  void typeError(const char* key, const char* expected, const Json& value) const
  {
    m_diagnostics.error("topology.type",
                        m_path + "." + key + " must be " + expected + ", not " + jsonText(value));
  }

  const Json& m_object;
  std::string m_path;
  Diagnostics& m_diagnostics;
};

void readNodes(const Json& nodes, Topology& topology, Diagnostics& diagnostics)
{
  std::set<int> ids;
  std::set<int> ranks;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::string path = "$.nodes[" + std::to_string(i) + "]";
    if (!nodes[i].is_object()) {
      diagnostics.error("topology.type", path + " must be an object");
      continue;
    }
    const FieldReader fields(nodes[i], path, diagnostics);
    TopologyNode node;
    const std::optional<int> id = fields.integer("id");
    const std::optional<std::string> kind = fields.text("kind");
    if (!id || !kind)
      continue;
    node.id = *id;
    if (!ids.insert(node.id).second)
      diagnostics.error("topology.duplicate-id",
                        path + ".id: node id " + std::to_string(node.id) + " is used twice");
    const std::optional<NodeKind> parsed = parseNodeKind(*kind);
    if (!parsed) {
      diagnostics.error("topology.unknown-kind",
                        path + ".kind: unknown node kind \"" + *kind +
                            "\" (expected gpu, nvswitch, pcie-switch, nic, cpu or network-switch)");
      continue;
    }
    node.kind = *parsed;
    node.name = fields.text("name", false)
                    .value_or(std::string(nodeKindName(node.kind)) + std::to_string(node.id));
    node.rank = fields.integer("rank", false).value_or(-1);
    node.x = fields.number("x", false).value_or(0);
    node.y = fields.number("y", false).value_or(0);
    if (node.rank >= 0 && node.kind != NodeKind::Gpu) {
      diagnostics.error("topology.rank-on-non-gpu",
                        path + ".rank: only GPU nodes host a rank (this is a " +
                            std::string(nodeKindName(node.kind)) + ")");
    } else if (node.rank >= 0 && !ranks.insert(node.rank).second) {
      diagnostics.error("topology.duplicate-rank", path + ".rank: rank " +
                                                       std::to_string(node.rank) +
                                                       " is hosted by two GPUs");
    } else if (node.rank < -1) {
      diagnostics.error("topology.out-of-range", path + ".rank must be -1 or a rank >= 0");
    }
    topology.nodes.push_back(std::move(node));
  }
}

void readLinks(const Json& links, Topology& topology, Diagnostics& diagnostics)
{
  std::set<int> ids;
  for (std::size_t i = 0; i < links.size(); ++i) {
    const std::string path = "$.links[" + std::to_string(i) + "]";
    if (!links[i].is_object()) {
      diagnostics.error("topology.type", path + " must be an object");
      continue;
    }
    const FieldReader fields(links[i], path, diagnostics);
    TopologyLink link;
    const std::optional<int> id = fields.integer("id");
    const std::optional<int> a = fields.integer("a");
    const std::optional<int> b = fields.integer("b");
    const std::optional<std::string> kind = fields.text("kind");
    const std::optional<double> bandwidth = fields.number("bandwidth_GBps");
    if (!id || !a || !b || !kind || !bandwidth)
      continue;
    link.id = *id;
    link.a = *a;
    link.b = *b;
    Location at; // the link the problem is about, for who shows it (cstudio --json, the editor)
    at.link = link.id;
    if (!ids.insert(link.id).second)
      diagnostics.error("topology.duplicate-id",
                        path + ".id: link id " + std::to_string(link.id) + " is used twice");
    for (const auto& [end, name] : {std::pair{link.a, ".a"}, std::pair{link.b, ".b"}}) {
      if (!topology.node(end))
        diagnostics.error("topology.missing-node",
                          path + name + ": no node has id " + std::to_string(end), at);
    }
    if (link.a == link.b)
      diagnostics.error("topology.self-link", path + ": a link must join two different nodes", at);
    const std::optional<LinkKind> parsed = parseLinkKind(*kind);
    if (!parsed)
      diagnostics.error("topology.unknown-kind",
                        path + ".kind: unknown link kind \"" + *kind +
                            "\" (expected nvlink, pcie, network or smp)",
                        at);
    else
      link.kind = *parsed;
    link.bandwidthGBps = *bandwidth;
    if (!(link.bandwidthGBps > 0) || !std::isfinite(link.bandwidthGBps))
      diagnostics.error("topology.bad-bandwidth",
                        path + ".bandwidth_GBps must be positive (GB/s per direction)", at);
    link.latencyUs = fields.number("latency_us", false).value_or(0);
    if (!(link.latencyUs >= 0) || !std::isfinite(link.latencyUs))
      diagnostics.error("topology.bad-latency", path + ".latency_us must not be negative", at);
    link.duplex = fields.boolean("duplex", false).value_or(true);
    topology.links.push_back(link);
  }
}

} // namespace

std::string writeTopologyJson(const Topology& topology)
{
  Json root;
  root["format"] = kFormatName;
  root["version"] = kFormatVersion;
  root["name"] = topology.name;
  root["description"] = topology.description;
  Json nodes = Json::array();
  for (const TopologyNode& node : topology.nodes) {
    nodes.push_back({{"id", node.id},
                     {"kind", std::string(nodeKindName(node.kind))},
                     {"name", node.name},
                     {"rank", node.rank},
                     {"x", node.x},
                     {"y", node.y}});
  }
  Json links = Json::array();
  for (const TopologyLink& link : topology.links) {
    links.push_back({{"id", link.id},
                     {"a", link.a},
                     {"b", link.b},
                     {"kind", std::string(linkKindName(link.kind))},
                     {"bandwidth_GBps", link.bandwidthGBps},
                     {"latency_us", link.latencyUs},
                     {"duplex", link.duplex}});
  }
  root["nodes"] = std::move(nodes);
  root["links"] = std::move(links);
  return jsonText(root, 2) + "\n";
}

TopologyReadResult readTopologyJson(std::string_view text)
{
  TopologyReadResult result;
  Diagnostics diagnostics;
  Json root;
  try {
    root = Json::parse(text.begin(), text.end());
  } catch (const Json::exception& error) {
    // The library's message carries line and column; keep it whole.
    diagnostics.error("topology.parse", std::string("not valid JSON: ") + error.what());
    result.diagnostics = diagnostics.take();
    return result;
  }
  if (!root.is_object()) {
    diagnostics.error("topology.type", "$ must be a JSON object with nodes and links");
    result.diagnostics = diagnostics.take();
    return result;
  }
  const FieldReader fields(root, "$", diagnostics);
  if (const std::optional<std::string> format = fields.text("format", false);
      format && *format != kFormatName) {
    diagnostics.error("topology.format",
                      "$.format is \"" + *format + "\", expected \"" + kFormatName + "\"");
  }
  if (const std::optional<int> version = fields.integer("version", false);
      version && (*version > kFormatVersion || *version < 1)) {
    diagnostics.error("topology.version", "$.version " + std::to_string(*version) +
                                              " is not supported: this program reads version " +
                                              std::to_string(kFormatVersion));
  }
  Topology topology;
  topology.name = fields.text("name", false).value_or("");
  topology.description = fields.text("description", false).value_or("");
  const Json* nodes = fields.find("nodes", true);
  const Json* links = fields.find("links", false);
  if (nodes && !nodes->is_array())
    diagnostics.error("topology.type", "$.nodes must be an array");
  else if (nodes)
    readNodes(*nodes, topology, diagnostics);
  if (links && !links->is_array())
    diagnostics.error("topology.type", "$.links must be an array");
  else if (links)
    readLinks(*links, topology, diagnostics);

  if (!diagnostics.hasErrors())
    result.topology = std::move(topology);
  result.diagnostics = diagnostics.take();
  return result;
}

} // namespace cs
