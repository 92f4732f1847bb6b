#include "model/untrustedtext.h"

#include <cstddef>

namespace cs {

namespace {

constexpr std::string_view kReplacement = "\xef\xbf\xbd"; // U+FFFD

bool isControl(unsigned char byte)
{
  return (byte < 0x20 && byte != '\t' && byte != '\n') || byte == 0x7f;
}

bool isContinuation(unsigned char byte)
{
  return (byte & 0xc0) == 0x80;
}

// The length of the well-formed UTF-8 sequence that starts at `pos`, or of its longest
// ill-formed prefix negated (at least -1), following the table of well-formed byte sequences in
// the Unicode standard (§3.9, table 3-7). ASCII and control bytes are length 1.
int sequenceLength(std::string_view text, std::size_t pos)
{
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[pos + i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80)
    return 1;
  int length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    low = lead == 0xe0 ? 0xa0 : 0x80;  // no overlong forms
    high = lead == 0xed ? 0x9f : 0xbf; // no surrogates
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    low = lead == 0xf0 ? 0x90 : 0x80;  // no overlong forms
    high = lead == 0xf4 ? 0x8f : 0xbf; // nothing above U+10FFFF
  } else {
    return -1;
  }
  for (int i = 1; i < length; ++i) {
    if (pos + static_cast<std::size_t>(i) >= text.size())
      return -i;
    const unsigned char next = byte(static_cast<std::size_t>(i));
    const bool inRange = i == 1 ? next >= low && next <= high : isContinuation(next);
    if (!inRange)
      return -i;
  }
  return length;
}

} // namespace

bool isPrintableUtf8(std::string_view text)
{
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto byte = static_cast<unsigned char>(text[pos]);
    if (byte < 0x80) {
      if (isControl(byte))
        return false;
      ++pos;
      continue;
    }
    const int length = sequenceLength(text, pos);
    if (length < 0)
      return false;
    pos += static_cast<std::size_t>(length);
  }
  return true;
}

std::string printableUtf8(std::string_view text)
{
  if (isPrintableUtf8(text))
    return std::string(text);
  std::string out;
  out.reserve(text.size() + 8);
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto byte = static_cast<unsigned char>(text[pos]);
    if (byte < 0x80) {
      if (isControl(byte))
        out += kReplacement;
      else
        out += static_cast<char>(byte);
      ++pos;
      continue;
    }
    const int length = sequenceLength(text, pos);
    if (length > 0) {
      out.append(text.substr(pos, static_cast<std::size_t>(length)));
      pos += static_cast<std::size_t>(length);
    } else {
      out += kReplacement;
      pos += static_cast<std::size_t>(-length);
    }
  }
  return out;
}

} // namespace cs
