#pragma once

// JSON text for documents that quote files' own text (names, notes, topology labels): strings
// may hold bytes that are not UTF-8, which nlohmann::json refuses to dump (it throws). Invalid
// bytes become U+FFFD instead, so writing never fails on what a file happened to contain.

#include <nlohmann/json.hpp>

#include <string>

namespace cs {

/// `json` as text, `indent` spaces per level (-1: one line), ill-formed UTF-8 replaced.
inline std::string jsonText(const nlohmann::json& json, int indent = -1)
{
  return json.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace cs
