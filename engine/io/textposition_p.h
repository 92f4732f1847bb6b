#pragma once

// Turns byte offsets into the 1-based line and column a person looks for in an editor.

#include <cstddef>
#include <string_view>
#include <vector>

namespace cs {

struct TextPosition {
  int line = 0;
  int column = 0;
};

/// Offsets of line starts, built once per document so each look-up is a binary search.
class LineIndex
{
public:
  explicit LineIndex(std::string_view text);
  /// Position of `offset`; offsets past the end map to the end of the text.
  TextPosition position(std::size_t offset) const;

private:
  std::vector<std::size_t> m_lineStarts;
  std::size_t m_size = 0;
};

} // namespace cs
