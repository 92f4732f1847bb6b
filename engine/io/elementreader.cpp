#include "elementreader_p.h"

#include <algorithm>
#include <limits>

namespace cs {

namespace {

bool isCSpace(char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

int digitValue(char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z')
    return c - 'A' + 10;
  return 99;
}

// "-1", "0" or "123": what nearly every value is, without the general path.
bool plainDecimal(std::string_view text, long long& value)
{
  const bool negative = text.starts_with('-');
  const std::string_view digits = negative ? text.substr(1) : text;
  if (digits.empty() || digits.size() > 9 || (digits[0] == '0' && digits.size() > 1))
    return false;
  long long result = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9')
      return false;
    result = result * 10 + (c - '0');
  }
  value = negative ? -result : result;
  return true;
}

// Attribute names are a few characters long: a plain loop beats a call to memcmp.
bool sameName(std::string_view a, std::string_view b)
{
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i])
      return false;
  }
  return true;
}

} // namespace

// strtol(text, NULL, 0) as the C library defines it: leading white space, a sign, base 16 after
// "0x" followed by a hex digit, base 8 after a leading 0, base 10 otherwise; it stops at the
// first character that is not a digit of the base and saturates at LONG_MIN/LONG_MAX.
RuntimeNumber readRuntimeNumber(std::string_view text)
{
  RuntimeNumber number;
  if (plainDecimal(text, number.value)) {
    number.plain = true;
    number.end = text.size();
    return number;
  }
  std::size_t i = 0;
  while (i < text.size() && isCSpace(text[i]))
    ++i;
  number.skippedSpace = i > 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
    negative = text[i] == '-';
    number.plusSign = !negative;
    ++i;
  }
  if (i + 2 < text.size() && text[i] == '0' && (text[i + 1] == 'x' || text[i + 1] == 'X') &&
      digitValue(text[i + 2]) < 16) {
    number.base = 16;
    i += 2;
  } else if (i < text.size() && text[i] == '0') {
    number.base = 8;
  }
  number.begin = i;
  const unsigned long long limit =
      negative ? static_cast<unsigned long long>(std::numeric_limits<long long>::max()) + 1
               : static_cast<unsigned long long>(std::numeric_limits<long long>::max());
  unsigned long long magnitude = 0;
  while (i < text.size() && digitValue(text[i]) < number.base) {
    const auto digit = static_cast<unsigned long long>(digitValue(text[i]));
    if (magnitude > (limit - digit) / static_cast<unsigned long long>(number.base))
      number.overflow = true;
    else
      magnitude = magnitude * static_cast<unsigned long long>(number.base) + digit;
    ++i;
  }
  number.end = i == number.begin ? 0 : i;
  if (number.overflow)
    magnitude = limit;
  number.value =
      negative ? static_cast<long long>(0ULL - magnitude) : static_cast<long long>(magnitude);
  number.plain = !number.skippedSpace && !number.plusSign && number.base == 10 &&
                 !number.overflow && number.end == text.size() && number.end > number.begin;
  return number;
}

std::optional<std::string_view> ElementReader::requiredText(std::string_view name)
{
  const ScannedAttribute* attribute = take(name);
  if (!attribute) {
    missing(name);
    return std::nullopt;
  }
  return attribute->value;
}

std::optional<std::string_view> ElementReader::optionalText(std::string_view name)
{
  const ScannedAttribute* attribute = take(name);
  if (!attribute)
    return std::nullopt;
  return attribute->value;
}

std::optional<bool> ElementReader::flag(std::string_view name, bool mandatory, Severity severity)
{
  const std::optional<long long> value = optional<long long>(name, mandatory);
  if (!value)
    return std::nullopt;
  if (*value != 0 && *value != 1)
    badValue(name, std::to_string(*value), "0 or 1", severity);
  return *value != 0;
}

void ElementReader::badValue(std::string_view name, std::string_view value,
                             const std::string& expected, Severity severity)
{
  m_out.add(severity, "format.bad-value",
            "<" + element() + "> attribute " + std::string(name) + "=\"" + std::string(value) +
                "\" is not valid; expected " + expected,
            at(name));
}

std::vector<Attribute> ElementReader::unknownAttributes() const
{
  std::vector<Attribute> unknown;
  if (m_found == m_tag.attributes.size())
    return unknown;
  const auto kept =
      static_cast<std::size_t>(std::count_if(m_tag.attributes.begin(), m_tag.attributes.end(),
                                             [](const ScannedAttribute& a) { return a.kept; }));
  if (kept == m_found)
    return unknown;
  for (const ScannedAttribute& attribute : m_tag.attributes) {
    if (attribute.kept && std::find(m_taken.begin(), m_taken.begin() + m_takenCount,
                                    attribute.name) == m_taken.begin() + m_takenCount)
      unknown.push_back({std::string(attribute.name), std::string(attribute.value)});
  }
  return unknown;
}

Location ElementReader::at(std::string_view attribute) const
{
  Location location = m_location;
  location.element = element();
  location.attribute = attribute;
  return location;
}

// The runtime looks attributes up by name among the ones its tokenizer kept; the first one of a
// name wins (mscclXmlGetAttrIndex).
const ScannedAttribute* ElementReader::take(std::string_view name)
{
  if (m_takenCount < m_taken.size())
    m_taken[m_takenCount++] = name;
  const std::vector<ScannedAttribute>& attributes = m_tag.attributes;
  const ScannedAttribute* found = nullptr;
  // Files almost always list attributes in the order we ask for them: try the next one first.
  // While every earlier request was the next attribute, the ones before it carry other names,
  // so it is also the first of its name.
  if (m_inOrder && m_next < attributes.size() && attributes[m_next].kept &&
      sameName(attributes[m_next].name, name)) {
    found = &attributes[m_next++];
  } else {
    m_inOrder = false;
    for (const ScannedAttribute& attribute : attributes) {
      if (attribute.kept && sameName(attribute.name, name)) {
        found = &attribute;
        break;
      }
    }
  }
  if (found)
    ++m_found;
  return found;
}

void ElementReader::missing(std::string_view name)
{
  const bool dropped =
      std::any_of(m_tag.attributes.begin(), m_tag.attributes.end(),
                  [&](const ScannedAttribute& a) { return !a.kept && a.name == name; });
  m_out.error("format.missing-attribute",
              "missing required " + element() + " attribute " + std::string(name) +
                  (dropped ? " (written past the 16 attributes the runtimes' reader keeps, so it "
                             "drops it; every runtime requires it)"
                           : " (every runtime requires it)"),
              at(name));
}

long long ElementReader::number(std::string_view name, std::string_view text, bool narrow)
{
  const RuntimeNumber number = readRuntimeNumber(text);
  // mscclXmlGetAttrInt stores strtol's long in an int: the low 32 bits.
  const long long value = narrow ? static_cast<int>(number.value) : number.value;
  if (number.plain && value == number.value)
    return value;
  const std::string written =
      "<" + element() + "> attribute " + std::string(name) + "=\"" + std::string(text) + "\"";
  const bool whole = number.end == text.size() && !number.skippedSpace && !number.plusSign;
  if (whole && !number.overflow && value == number.value && number.base != 10) {
    m_out.warning("format.number-base",
                  written + " is read by the runtime as " +
                      (number.base == 16 ? "hexadecimal" : "octal") + " (" + std::to_string(value) +
                      "); write decimal numbers",
                  at(name));
    return value;
  }
  std::string how;
  if (number.end == 0)
    how = "finds no number in it and reads 0";
  else if (number.overflow || value != number.value)
    how = "reads it as " + std::to_string(value) + " (the number does not fit in " +
          (narrow ? "32" : "64") + " bits)";
  else
    how = "reads it as " + std::to_string(value);
  if (number.end != 0 && number.end < text.size())
    how += ", ignoring \"" + std::string(text.substr(number.end)) + "\"";
  if (number.skippedSpace || number.plusSign)
    how += number.skippedSpace ? ", skipping the leading white space" : ", skipping the '+'";
  m_out.warning("format.bad-number",
                written + " is not a plain decimal integer: the runtime's strtol " + how +
                    "; write the number it should be",
                at(name));
  return value;
}

} // namespace cs
