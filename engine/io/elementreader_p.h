#pragma once

// Reads the attributes of one scanned element with the runtime's rules (msccl-format §1-§2):
// the first attribute of a name wins, attributes the runtime's tokenizer dropped do not exist,
// numbers are what strtol(value, NULL, 0) makes of them. Every problem is recorded with the
// element's position. Attributes not asked for by the time unknownAttributes() runs are unknown.
// Kept allocation-free on the happy path: a large file has tens of thousands of steps.

#include "../model/program.h"
#include "model/diagnostic.h"
#include "runtimexmlscanner_p.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs {

/// What strtol(text, NULL, 0) returns (64-bit long, saturated on overflow) and whether `text`
/// is a plain decimal integer that any reader would read the same way.
struct RuntimeNumber {
  long long value = 0;
  bool plain = false;
  int base = 10;             ///< 8 or 16 when a leading 0 or 0x chose it
  std::size_t begin = 0;     ///< where the digits the runtime reads start (after space and sign)
  std::size_t end = 0;       ///< where the runtime stops reading
  bool overflow = false;     ///< saturated at LONG_MAX or LONG_MIN
  bool skippedSpace = false; ///< leading white space the runtime skips
  bool plusSign = false;
};

RuntimeNumber readRuntimeNumber(std::string_view text);

class ElementReader
{
public:
  ElementReader(const ScannedTag& tag, const Location& location, Diagnostics& out)
      : m_tag(tag), m_location(location), m_out(out)
  {
  }

  const Location& location() const { return m_location; }

  /// A mandatory integer; reports format.missing-attribute and returns `fallback` when absent.
  template <typename Int> Int required(std::string_view name, Int fallback)
  {
    return optional<Int>(name, true).value_or(fallback);
  }

  /// The value the runtime reads (32-bit fields as the runtime's int conversion truncates them),
  /// with a warning when that differs from what is written.
  template <typename Int> std::optional<Int> optional(std::string_view name, bool mandatory = false)
  {
    const ScannedAttribute* attribute = take(name);
    if (!attribute) {
      if (mandatory)
        missing(name);
      return std::nullopt;
    }
    if (const std::optional<int> small = smallDecimal(attribute->value))
      return static_cast<Int>(*small);
    if constexpr (sizeof(Int) >= sizeof(long long))
      return static_cast<Int>(number(name, attribute->value, false));
    else
      return static_cast<Int>(number(name, attribute->value, true));
  }

  /// A mandatory string attribute, or nullopt after reporting it missing.
  std::optional<std::string_view> requiredText(std::string_view name);
  std::optional<std::string_view> optionalText(std::string_view name);

  /// A 0/1 flag; values other than 0 and 1 are reported with `severity`.
  std::optional<bool> flag(std::string_view name, bool mandatory, Severity severity);

  void badValue(std::string_view name, std::string_view value, const std::string& expected,
                Severity severity = Severity::Error);

  /// Attributes the runtime keeps that nobody asked for, in document order.
  std::vector<Attribute> unknownAttributes() const;

  Location at(std::string_view attribute) const;
  std::string element() const { return std::string(m_tag.name); }

private:
  // "-1", "0" .. "9999": nearly every value in a file, read here without a call.
  static std::optional<int> smallDecimal(std::string_view text)
  {
    const bool negative = !text.empty() && text[0] == '-';
    const std::size_t first = negative ? 1 : 0;
    const std::size_t digits = text.size() - first;
    if (digits == 0 || digits > 4 || (text[first] == '0' && digits > 1))
      return std::nullopt;
    int value = 0;
    for (std::size_t i = first; i < text.size(); ++i) {
      if (text[i] < '0' || text[i] > '9')
        return std::nullopt;
      value = value * 10 + (text[i] - '0');
    }
    return negative ? -value : value;
  }

  const ScannedAttribute* take(std::string_view name);
  void missing(std::string_view name);
  long long number(std::string_view name, std::string_view text, bool narrow);

  const ScannedTag& m_tag;
  const Location& m_location;
  Diagnostics& m_out;
  // Every element type has at most ten known attributes.
  std::array<std::string_view, 12> m_taken{};
  std::size_t m_takenCount = 0;
  std::size_t m_found = 0;
  std::size_t m_next = 0;
  bool m_inOrder = true; ///< every attribute asked for so far was the next one written
};

} // namespace cs
