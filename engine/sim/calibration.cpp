#include "calibration.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace cs {

namespace {

constexpr int kFormatVersion = 1;
constexpr const char* kFormatName = "collective-studio-calibration";

using Json = nlohmann::ordered_json;

/// JSON text that never throws on ill-formed UTF-8 in a file's strings (replaced by U+FFFD).
std::string jsonText(const Json& json, int indent = -1)
{
  return json.dump(indent, ' ', false, Json::error_handler_t::replace);
}

} // namespace

std::optional<AlphaBeta> fitAlphaBeta(const SweepSamples& samples, std::string& error,
                                      std::optional<double> heldAlphaUs)
{
  std::set<std::int64_t> sizes;
  for (const auto& [bytes, us] : samples) {
    if (!(std::isfinite(us) && us > 0)) {
      error = "the time measured at " + std::to_string(bytes) + " bytes is not a positive number";
      return std::nullopt;
    }
    if (bytes > 0)
      sizes.insert(bytes);
  }
  const std::size_t needed = heldAlphaUs ? 1 : 2;
  if (sizes.size() < needed) {
    error = heldAlphaUs ? std::string("the sweep has no positive size to fit β on")
                        : "the sweep needs at least two different positive sizes to separate α "
                          "from β (it has " +
                              std::to_string(sizes.size()) + ")";
    return std::nullopt;
  }
  // Least squares of t = a + b·x weighted by 1/t², i.e. of the relative residuals: a sweep spans
  // decades of sizes, and a plain fit would let the noise of the largest times decide α.
  // x in MB so the sums stay well scaled.
  double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& [bytes, us] : samples) {
    const double x = static_cast<double>(bytes) / 1e6;
    const double w = 1 / (us * us);
    sw += w;
    sx += w * x;
    sy += w * us;
    sxx += w * x * x;
    sxy += w * x * us;
  }
  // With α held, the line goes through (0, α): b = Σw·x·(t − α) / Σw·x².
  const double slope = heldAlphaUs ? (sxy - *heldAlphaUs * sx) / sxx
                                   : (sw * sxy - sx * sy) / (sw * sxx - sx * sx); // µs per MB
  const double intercept = heldAlphaUs ? *heldAlphaUs : (sy - slope * sx) / sw;
  if (!(slope > 0)) {
    error = "the measured time does not grow with the size (fitted slope " + std::to_string(slope) +
            " µs per MB): β cannot be determined";
    return std::nullopt;
  }
  AlphaBeta fit;
  fit.alphaUs = std::max(0.0, intercept); // a negative α is noise around zero
  fit.betaGBps = 1e3 / slope;             // MB per µs → GB/s
  double squares = 0;
  for (const auto& [bytes, us] : samples) {
    const double fitted = fit.alphaUs + static_cast<double>(bytes) / 1e6 * slope;
    squares += (us - fitted) * (us - fitted);
    fit.maxRelativeResidual = std::max(fit.maxRelativeResidual, std::abs(us - fitted) / us);
  }
  fit.rmsResidualUs = std::sqrt(squares / static_cast<double>(samples.size()));
  return fit;
}

const LinkCalibration* Calibration::link(LinkKind kind) const
{
  const auto found = std::find_if(links.begin(), links.end(),
                                  [&](const LinkCalibration& l) { return l.kind == kind; });
  return found == links.end() ? nullptr : &*found;
}

std::string writeCalibrationJson(const Calibration& calibration)
{
  Json links = Json::array();
  for (const LinkCalibration& link : calibration.links)
    links.push_back({{"kind", std::string(linkKindName(link.kind))},
                     {"alpha_us", link.alphaUs},
                     {"beta_GBps", link.betaGBps},
                     {"hops", link.hops}});
  Json points = Json::array();
  for (const CalibrationPoint& point : calibration.points)
    points.push_back({{"probe", point.probe},
                      {"bytes", point.bytes},
                      {"measured_us", point.measuredUs},
                      {"fitted_us", point.fittedUs},
                      {"residual_us", point.measuredUs - point.fittedUs}});
  const Json document = {{"format", kFormatName},
                         {"version", kFormatVersion},
                         {"backend", calibration.backend},
                         {"host", calibration.host},
                         {"date", calibration.date},
                         {"topology", calibration.topology},
                         {"pairs", calibration.pairs},
                         {"links", links},
                         {"copy_GBps", calibration.copyGBps},
                         {"reduce_GBps", calibration.reduceGBps},
                         {"host_GBps", calibration.hostGBps},
                         {"fused_reduce_GBps", calibration.fusedReduceGBps},
                         {"host_cache_bytes", calibration.hostCacheBytes},
                         {"points", points}};
  return jsonText(document, 2) + "\n";
}

namespace {

/// Reads the fields of one object; the first problem wins and names its JSON path.
class Fields
{
public:
  Fields(const Json& object, std::string path, std::string& error)
      : m_object(object), m_path(std::move(path)), m_error(error)
  {
  }

  const Json* get(const char* key, bool required)
  {
    const auto found = m_object.find(key);
    if (found != m_object.end())
      return &*found;
    if (required)
      fail(m_path + "." + key + " is missing");
    return nullptr;
  }

  double number(const char* key, bool positive, bool required = true)
  {
    const Json* value = get(key, required);
    if (!value)
      return 0;
    if (!value->is_number() || !std::isfinite(value->get<double>()))
      return fail(m_path + "." + key + " must be a number, not " + jsonText(*value)), 0;
    const double number = value->get<double>();
    if (positive ? !(number > 0) : !(number >= 0))
      fail(m_path + "." + key + " must be " + (positive ? "positive" : "zero or more") + ", not " +
           jsonText(*value));
    return number;
  }

  std::string text(const char* key, bool required = true)
  {
    const Json* value = get(key, required);
    if (value && !value->is_string())
      return fail(m_path + "." + key + " must be a string, not " + jsonText(*value)), "";
    return value ? value->get<std::string>() : "";
  }

  void fail(const std::string& message)
  {
    if (m_error.empty())
      m_error = message;
  }

private:
  const Json& m_object;
  std::string m_path;
  std::string& m_error;
};

void readLinks(const Json& links, Calibration& calibration, std::string& error)
{
  for (std::size_t i = 0; i < links.size() && error.empty(); ++i) {
    const std::string path = "$.links[" + std::to_string(i) + "]";
    if (!links[i].is_object()) {
      error = path + " must be an object";
      return;
    }
    Fields fields(links[i], path, error);
    LinkCalibration link;
    const std::string kind = fields.text("kind");
    const std::optional<LinkKind> parsed = parseLinkKind(kind);
    if (error.empty() && !parsed)
      fields.fail(path + ".kind \"" + kind + "\" is not a link kind (nvlink, pcie, network, smp)");
    link.kind = parsed.value_or(LinkKind::NvLink);
    link.alphaUs = fields.number("alpha_us", false);
    link.betaGBps = fields.number("beta_GBps", true);
    link.hops = static_cast<int>(fields.number("hops", true, false));
    link.hops = std::max(1, link.hops);
    if (error.empty() && calibration.link(link.kind))
      error = path + ".kind \"" + kind + "\" is calibrated twice";
    calibration.links.push_back(link);
  }
}

void readPoints(const Json& points, Calibration& calibration, std::string& error)
{
  for (std::size_t i = 0; i < points.size() && error.empty(); ++i) {
    const std::string path = "$.points[" + std::to_string(i) + "]";
    if (!points[i].is_object()) {
      error = path + " must be an object";
      return;
    }
    Fields fields(points[i], path, error);
    CalibrationPoint point;
    point.probe = fields.text("probe");
    point.bytes = static_cast<std::int64_t>(fields.number("bytes", false));
    point.measuredUs = fields.number("measured_us", false);
    point.fittedUs = fields.number("fitted_us", false);
    calibration.points.push_back(point);
  }
}

} // namespace

CalibrationReadResult readCalibrationJson(std::string_view text)
{
  CalibrationReadResult result;
  const Json document = Json::parse(text, nullptr, false);
  if (document.is_discarded() || !document.is_object()) {
    result.error = document.is_discarded() ? "not JSON" : "$ must be an object";
    return result;
  }
  std::string& error = result.error;
  Fields fields(document, "$", error);
  if (fields.text("format") != kFormatName && error.empty())
    error = std::string("$.format must be \"") + kFormatName + "\"";
  if (fields.number("version", true) != kFormatVersion && error.empty())
    error = "$.version " + jsonText(document["version"]) + " is not one this build reads (" +
            std::to_string(kFormatVersion) + ")";
  Calibration calibration;
  calibration.backend = fields.text("backend");
  calibration.host = fields.text("host", false);
  calibration.date = fields.text("date", false);
  calibration.topology = fields.text("topology", false);
  calibration.pairs = std::max(1, static_cast<int>(fields.number("pairs", true, false)));
  calibration.copyGBps = fields.number("copy_GBps", false, false);
  calibration.reduceGBps = fields.number("reduce_GBps", false, false);
  calibration.hostGBps = fields.number("host_GBps", false, false);
  calibration.fusedReduceGBps = fields.number("fused_reduce_GBps", false, false);
  // Refused beyond any cache (1 PB) rather than converted: past 2^63 the conversion is undefined.
  if (const double cacheBytes = fields.number("host_cache_bytes", false, false);
      cacheBytes > 1e15 && error.empty())
    error = "$.host_cache_bytes " + jsonText(document["host_cache_bytes"]) +
            " is not a cache size (bytes, at most 1e15)";
  else
    calibration.hostCacheBytes = static_cast<std::int64_t>(cacheBytes);
  const Json* links = fields.get("links", true);
  if (links && !links->is_array() && error.empty())
    error = "$.links must be an array";
  else if (links && error.empty())
    readLinks(*links, calibration, error);
  const Json* points = fields.get("points", false);
  if (points && points->is_array() && error.empty())
    readPoints(*points, calibration, error);
  if (error.empty() && calibration.links.empty())
    error = "$.links is empty: the calibration has no link kind";
  if (error.empty())
    result.calibration = std::move(calibration);
  return result;
}

std::optional<std::string> applyCalibration(const Calibration& calibration, Topology& topology,
                                            SimOptions& options, Protocol protocol)
{
  std::string missing;
  std::set<LinkKind> reported;
  for (const TopologyLink& link : topology.links) {
    if (calibration.link(link.kind) || !reported.insert(link.kind).second)
      continue;
    missing += std::string(missing.empty() ? "" : ", ") + std::string(linkKindName(link.kind)) +
               " (link " + std::to_string(link.id) + ")";
  }
  if (!missing.empty()) {
    std::string has;
    for (const LinkCalibration& link : calibration.links)
      has += std::string(has.empty() ? "" : ", ") + std::string(linkKindName(link.kind));
    return "topology \"" + topology.name + "\" has link kinds the calibration lacks: " + missing +
           "; the calibration has " + has;
  }
  for (TopologyLink& link : topology.links) {
    const LinkCalibration& figures = *calibration.link(link.kind);
    link.bandwidthGBps = figures.betaGBps;
    link.latencyUs = figures.alphaUs / figures.hops;
  }
  // The measured α already holds the protocol's fixed cost per message, and β its payload rate.
  ProtocolParams params = options.protocol.value_or(defaultProtocolParams(protocol));
  params.setUniformLatency(0);
  params.efficiency = 1;
  options.protocol = params;
  if (calibration.copyGBps > 0)
    options.localGBps = calibration.copyGBps;
  if (calibration.reduceGBps > 0)
    options.localReduceGBps = calibration.reduceGBps;
  if (calibration.hostGBps > 0)
    options.hostGBps = calibration.hostGBps;
  if (calibration.fusedReduceGBps > 0)
    options.fusedReduceGBps = calibration.fusedReduceGBps;
  return std::nullopt;
}

} // namespace cs
