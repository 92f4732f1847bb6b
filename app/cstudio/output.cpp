#include "output.h"

#include "model/diagnosticgroups.h"
#include "model/untrustedtext.h"

#include <algorithm>
#include <ostream>

namespace cs::cli {

namespace {

nlohmann::json idOrNull(int value)
{
  return value >= 0 ? nlohmann::json(value) : nlohmann::json(nullptr);
}

nlohmann::json locationToJson(const Location& location)
{
  return {{"rank", idOrNull(location.rank)},
          {"tb", idOrNull(location.tb)},
          {"step", idOrNull(location.step)},
          {"transfer", idOrNull(location.transfer)},
          {"link", idOrNull(location.link)},
          {"line", location.line > 0 ? nlohmann::json(location.line) : nlohmann::json(nullptr)}};
}

std::string plural(int count, const char* noun)
{
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

/// Of a group of diagnostics that say the same thing about different places, this many are
/// printed; the rest are counted on one line. A group only one longer prints whole.
constexpr std::size_t kShownPerGroup = 3;

void printOne(std::ostream& out, const std::string& file, const Diagnostic& d)
{
  out << file;
  if (d.location.line > 0) {
    out << ':' << d.location.line;
    if (d.location.column > 0)
      out << ':' << d.location.column;
  }
  // Diagnostics::add() keeps messages printable; one built another way still must not put raw
  // bytes from a file on the user's terminal.
  out << ": " << severityName(d.severity) << ": " << printableUtf8(d.message) << " [" << d.code
      << ']';
  const std::string where = describe(d.location);
  if (!where.empty())
    out << " (" << where << ')';
  out << '\n';
  for (const Location& related : d.related) {
    out << "    note: " << describe(related);
    if (related.line > 0)
      out << " at line " << related.line;
    out << '\n';
  }
}

} // namespace

void printDiagnostics(std::ostream& out, const std::string& file,
                      const std::vector<Diagnostic>& diagnostics)
{
  // Each diagnostic's group, and its place in it.
  const std::vector<DiagnosticGroup> groups = groupRepeatedDiagnostics(diagnostics);
  std::vector<std::pair<std::size_t, std::size_t>> placeOf(diagnostics.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (std::size_t m = 0; m < groups[g].members.size(); ++m)
      placeOf[groups[g].members[m]] = {g, m};
  }
  for (std::size_t i = 0; i < diagnostics.size(); ++i) {
    const auto [g, m] = placeOf[i];
    const std::size_t size = groups[g].members.size();
    const bool folded = size > kShownPerGroup + 1;
    if (folded && m >= kShownPerGroup)
      continue;
    printOne(out, file, diagnostics[i]);
    if (folded && m + 1 == kShownPerGroup) {
      const std::string ranks = describeGroupRanks(diagnostics, groups[g], kShownPerGroup);
      out << file << ": note: and " << size - kShownPerGroup << " more like it"
          << (ranks.empty() ? "" : " on " + ranks) << " [" << diagnostics[i].code
          << "] (--json lists every one)\n";
    }
  }
}

nlohmann::json diagnosticToJson(const Diagnostic& d)
{
  nlohmann::json json = {{"severity", std::string(severityName(d.severity))},
                         {"code", d.code},
                         {"message", d.message}};
  json.update(locationToJson(d.location));
  json["column"] =
      d.location.column > 0 ? nlohmann::json(d.location.column) : nlohmann::json(nullptr);
  if (!d.location.element.empty())
    json["element"] = d.location.element;
  if (!d.location.attribute.empty())
    json["attribute"] = d.location.attribute;
  if (!d.related.empty()) {
    nlohmann::json related = nlohmann::json::array();
    for (const Location& location : d.related)
      related.push_back(locationToJson(location));
    json["related"] = std::move(related);
  }
  return json;
}

nlohmann::json diagnosticsToJson(const std::vector<Diagnostic>& diagnostics)
{
  nlohmann::json array = nlohmann::json::array();
  for (const Diagnostic& d : diagnostics)
    array.push_back(diagnosticToJson(d));
  return array;
}

std::string jsonText(const nlohmann::json& json, int indent)
{
  return json.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string countSummary(const std::vector<Diagnostic>& diagnostics)
{
  const auto count = [&diagnostics](Severity severity) {
    return static_cast<int>(
        std::count_if(diagnostics.begin(), diagnostics.end(),
                      [severity](const Diagnostic& d) { return d.severity == severity; }));
  };
  return plural(count(Severity::Error), "error") + ", " +
         plural(count(Severity::Warning), "warning");
}

bool hasErrors(const std::vector<Diagnostic>& diagnostics)
{
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

} // namespace cs::cli
