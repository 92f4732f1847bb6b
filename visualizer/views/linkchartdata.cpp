#include "linkchartdata.h"

#include <algorithm>
#include <map>

namespace cs::visualizer {

namespace {

/// At most this many load samples per link from the index: the chart stays quick to build for
/// traces with hundreds of thousands of messages.
constexpr std::size_t kMaxBreakpoints = 4000;

std::vector<double> messageBreakpoints(const replay::ReplayIndex& index)
{
  std::vector<double> times{0};
  for (const replay::Message& message : index.messages()) {
    times.push_back(message.start);
    times.push_back(message.end);
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  if (times.size() <= kMaxBreakpoints)
    return times;
  std::vector<double> kept;
  kept.reserve(kMaxBreakpoints + 1);
  for (std::size_t i = 0; i < kMaxBreakpoints; ++i)
    kept.push_back(times[i * times.size() / kMaxBreakpoints]);
  kept.push_back(times.back());
  return kept;
}

} // namespace

std::vector<int> busiestLinks(const replay::ReplayIndex& index, std::size_t count)
{
  std::map<int, double> bytes;
  for (const LinkUsage& usage : index.trace().links)
    bytes[usage.link] += double(usage.bytesAtoB + usage.bytesBtoA);
  if (bytes.empty()) {
    for (const replay::Message& message : index.messages()) {
      for (const Hop& hop : message.route)
        bytes[hop.link] += double(message.bytes);
    }
  }
  std::vector<std::pair<double, int>> ranked;
  for (const auto& [link, total] : bytes) {
    if (total > 0)
      ranked.emplace_back(-total, link);
  }
  std::sort(ranked.begin(), ranked.end());
  std::vector<int> links;
  for (std::size_t i = 0; i < ranked.size() && i < count; ++i)
    links.push_back(ranked[i].second);
  return links;
}

QList<QPointF> stepSeries(const std::vector<std::pair<double, double>>& samples)
{
  QList<QPointF> points;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (i > 0)
      points.append(QPointF(samples[i].first, samples[i - 1].second * 100));
    points.append(QPointF(samples[i].first, samples[i].second * 100));
  }
  return points;
}

QList<QPointF> linkUtilisationSeries(const replay::ReplayIndex& index, int link)
{
  for (const LinkUsage& usage : index.trace().links) {
    if (usage.link == link && !usage.utilisation.empty())
      return stepSeries(usage.utilisation);
  }
  std::vector<std::pair<double, double>> samples;
  for (const double t : messageBreakpoints(index)) {
    double u = 0;
    for (const replay::LinkState& state : index.links(t)) {
      if (state.link == link)
        u = state.utilisation;
    }
    samples.emplace_back(t, u);
  }
  return stepSeries(samples);
}

} // namespace cs::visualizer
