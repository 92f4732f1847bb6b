#pragma once

// Numbers typed by people (preset names such as "fabric-h100-16x8", launcher environment
// variables): the whole text must be the number, so "8x", " 8" and "+8" are refused instead of
// read as 8.

#include <charconv>
#include <optional>
#include <string_view>

namespace cs {

/// The number that all of `text` spells (std::from_chars: no sign but '-', no spaces, no
/// suffix), or nullopt, also on overflow.
template <typename Number> std::optional<Number> numberFromWholeText(std::string_view text)
{
  Number value{};
  const char* end = text.data() + text.size();
  const auto [at, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc{} || at != end)
    return std::nullopt;
  return value;
}

/// numberFromWholeText() when the number is positive.
template <typename Number> std::optional<Number> positiveFromWholeText(std::string_view text)
{
  const std::optional<Number> value = numberFromWholeText<Number>(text);
  return value && *value > 0 ? value : std::nullopt;
}

} // namespace cs
