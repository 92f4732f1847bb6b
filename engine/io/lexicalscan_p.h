#pragma once

// The runtimes do not use a real XML parser but NCCL's minimal one (msccl-format.md §1). A file
// that any XML library reads may still be rejected or misread by it: an XML declaration, single
// quotes, attributes split over lines, tabs, entities that are copied raw. This scan finds those
// spots in the raw text, so the reader can say where the runtime would stumble.

#include "model/diagnostic.h"
#include "textposition_p.h"

#include <string_view>

namespace cs {

/// Appends format.lexical.* diagnostics for `text`; reports the first occurrence of each
/// problem with its line and column and how many more there are.
void scanRuntimeLexicalRules(std::string_view text, const LineIndex& lines, Diagnostics& out);

} // namespace cs
