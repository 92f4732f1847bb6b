#pragma once

// Small text helpers shared by every view, dock and dialog, so counts read the same
// everywhere ("1 error", "11,904 instructions") without a translation file.

#include <QString>

namespace cs::editor {

/// "11,904": digits grouped the way the user's locale does, English when the locale is "C".
QString groupedNumber(long long n);
/// "1 error" / "2 errors": `n` (grouped) followed by the singular or plural noun.
QString countText(long long n, const QString& singular, const QString& plural);

} // namespace cs::editor
