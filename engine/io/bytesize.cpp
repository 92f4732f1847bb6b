#include "bytesize.h"

#include <cmath>
#include <cstdio>

namespace cs {

namespace {

constexpr std::int64_t kLargest = std::int64_t{1} << 50;

int suffixShift(char suffix)
{
  switch (suffix) {
  case 'K':
  case 'k':
    return 10;
  case 'M':
  case 'm':
    return 20;
  case 'G':
  case 'g':
    return 30;
  case 'T':
  case 't':
    return 40;
  default:
    return -1;
  }
}

} // namespace

std::optional<std::int64_t> parseByteSize(std::string_view text)
{
  std::int64_t value = 0;
  std::size_t digits = 0;
  for (; digits < text.size() && text[digits] >= '0' && text[digits] <= '9'; ++digits) {
    value = value * 10 + (text[digits] - '0');
    if (value > kLargest)
      return std::nullopt;
  }
  if (digits == 0)
    return std::nullopt;
  std::string_view unit = text.substr(digits);
  if (unit.ends_with("iB"))
    unit.remove_suffix(2);
  else if (unit.ends_with("B"))
    unit.remove_suffix(1);
  if (unit.empty())
    return value;
  const int shift = unit.size() == 1 ? suffixShift(unit.front()) : -1;
  if (shift < 0 || value > (kLargest >> shift))
    return std::nullopt;
  return value << shift;
}

std::string formatByteSize(std::int64_t bytes)
{
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 5) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, value == std::floor(value) ? "%.0f %s" : "%.2f %s", value,
                units[unit]);
  return text;
}

} // namespace cs
