#include "diagnosticgroups.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace cs {

namespace {

/// Severity, code and the message with each run of digits replaced by '#'.
std::string shapeOf(const Diagnostic& diagnostic)
{
  std::string shape(severityName(diagnostic.severity));
  shape += '\n';
  shape += diagnostic.code;
  shape += '\n';
  bool inNumber = false;
  for (const char c : diagnostic.message) {
    const bool digit = std::isdigit(static_cast<unsigned char>(c)) != 0;
    if (digit && !inNumber)
      shape += '#';
    else if (!digit)
      shape += c;
    inNumber = digit;
  }
  return shape;
}

} // namespace

std::vector<DiagnosticGroup> groupRepeatedDiagnostics(const std::vector<Diagnostic>& diagnostics)
{
  std::vector<DiagnosticGroup> groups;
  std::unordered_map<std::string, std::size_t> byShape;
  for (std::size_t i = 0; i < diagnostics.size(); ++i) {
    const auto [found, added] = byShape.try_emplace(shapeOf(diagnostics[i]), groups.size());
    if (added)
      groups.emplace_back();
    groups[found->second].members.push_back(i);
  }
  return groups;
}

std::string describeRanges(std::vector<int> values)
{
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  std::string text;
  for (std::size_t i = 0; i < values.size();) {
    std::size_t end = i;
    while (end + 1 < values.size() && values[end + 1] == values[end] + 1)
      ++end;
    if (!text.empty())
      text += ", ";
    text += std::to_string(values[i]);
    if (end > i)
      text += (end == i + 1 ? ", " : "-") + std::to_string(values[end]);
    i = end + 1;
  }
  return text;
}

std::string describeGroupRanks(const std::vector<Diagnostic>& diagnostics,
                               const DiagnosticGroup& group, std::size_t from)
{
  std::vector<int> ranks;
  for (std::size_t i = from; i < group.members.size(); ++i) {
    const int rank = diagnostics[group.members[i]].location.rank;
    if (rank >= 0)
      ranks.push_back(rank);
  }
  if (ranks.empty())
    return {};
  const std::string list = describeRanges(ranks);
  const bool one = list.find_first_of(",-") == std::string::npos;
  return (one ? "rank " : "ranks ") + list;
}

} // namespace cs
