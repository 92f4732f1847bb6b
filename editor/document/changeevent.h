#pragma once

// The one typed change signal of the document (STYLE.md 5): commands emit it through the
// Document, views subscribe and redraw from the document; no view keeps its own copy.

#include <vector>

namespace cs::editor {

struct ChangeEvent {
  enum class Kind {
    Reset,     ///< a new or reopened document: everything changed
    Schedule,  ///< collective, ranks, buffers, root or modes changed (and maybe transfers)
    Transfers, ///< only the transfers listed in `ids` were added, removed or changed
    Topology,  ///< nodes or links changed (`ids` lists node ids when known)
    Program,   ///< the Program (source) changed; the Schedule was lifted again
    Lowering,  ///< dialect, protocol or instances changed
    Notes,     ///< the free-text notes changed
  };
  Kind kind = Kind::Reset;
  std::vector<int> ids;
};

} // namespace cs::editor
