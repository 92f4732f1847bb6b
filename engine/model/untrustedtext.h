#pragma once

// Text that comes from a file (an attribute value, a tag name, a comment) may hold any bytes.
// Everything that shows it to a person or writes it as JSON or into a QString needs well-formed
// UTF-8 without control characters: nlohmann::json throws on ill-formed UTF-8 (an abort in the
// CLI), and a raw escape character would drive the user's terminal. Diagnostics::add() cleans
// every message it records with this; outputs that quote other model text call it themselves.

#include <string>
#include <string_view>

namespace cs {

/// Whether `text` is well-formed UTF-8 (no overlong forms, no surrogates, nothing above
/// U+10FFFF) and holds no control character other than tab and line feed.
bool isPrintableUtf8(std::string_view text);

/// `text` with each ill-formed UTF-8 sequence (each maximal subpart, as Unicode §3.9 recommends)
/// and each control character other than tab and line feed replaced by U+FFFD. Text that is
/// already printable comes back unchanged.
std::string printableUtf8(std::string_view text);

} // namespace cs
