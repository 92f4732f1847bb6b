#include "textposition_p.h"

#include <algorithm>

namespace cs {

LineIndex::LineIndex(std::string_view text) : m_size(text.size())
{
  m_lineStarts.reserve(text.size() / 64 + 1);
  m_lineStarts.push_back(0);
  for (std::size_t i = text.find('\n'); i != std::string_view::npos; i = text.find('\n', i + 1))
    m_lineStarts.push_back(i + 1);
}

TextPosition LineIndex::position(std::size_t offset) const
{
  offset = std::min(offset, m_size);
  const auto next = std::upper_bound(m_lineStarts.begin(), m_lineStarts.end(), offset);
  const auto line = static_cast<std::size_t>(next - m_lineStarts.begin());
  return {static_cast<int>(line), static_cast<int>(offset - m_lineStarts[line - 1] + 1)};
}

} // namespace cs
