#pragma once

// How cstudio shows diagnostics: compiler-style lines for people (file:line:col: severity: …),
// JSON objects for CI pipelines. Both come from the same Diagnostic list.

#include "model/diagnostic.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace cs::cli {

/// Prints each diagnostic as "FILE:LINE:COL: severity: message [code] (rank r tb t step s)",
/// followed by indented notes for related locations.
void printDiagnostics(std::ostream& out, const std::string& file,
                      const std::vector<Diagnostic>& diagnostics);

/// {"severity","code","message","rank","tb","step","line","column","related":[…]}; unknown ids
/// are null.
nlohmann::json diagnosticToJson(const Diagnostic& diagnostic);
nlohmann::json diagnosticsToJson(const std::vector<Diagnostic>& diagnostics);

/// `json` as text, `indent` spaces per level (-1: one line). Strings quoted from files (names,
/// attribute values, file names) may hold bytes that are not UTF-8; they become U+FFFD instead of
/// making nlohmann::json throw. Every JSON the CLI prints goes through here.
std::string jsonText(const nlohmann::json& json, int indent = -1);

/// "2 errors, 1 warning" (infos are not counted).
std::string countSummary(const std::vector<Diagnostic>& diagnostics);
bool hasErrors(const std::vector<Diagnostic>& diagnostics);

} // namespace cs::cli
