#include "output.h"

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
          {"line", location.line > 0 ? nlohmann::json(location.line) : nlohmann::json(nullptr)}};
}

std::string plural(int count, const char* noun)
{
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

} // namespace

void printDiagnostics(std::ostream& out, const std::string& file,
                      const std::vector<Diagnostic>& diagnostics)
{
  for (const Diagnostic& d : diagnostics) {
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
