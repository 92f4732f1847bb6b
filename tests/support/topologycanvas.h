#pragma once

// What the topology canvas tests start from: a document holding the catalogue's ring all-reduce
// over some ranks (and no topology yet) and a shown 1000 × 700 topology view on it.

#include "topology/topologyview.h"

#include "document/document.h"

#include "catalogue/catalogue.h"

#include <memory>

namespace cs::test {

/// Puts the ring all-reduce over `ranks` into `document` and returns a shown view on it; the
/// caller waits for the window as its test needs (exposed, or active with focus).
inline std::unique_ptr<editor::TopologyView> showRingCanvas(editor::Document& document, int ranks)
{
  editor::DocumentState state;
  state.design.schedule = *generateAlgorithm("ring-allreduce", {.ranks = ranks}).schedule;
  document.reset(state, {});
  auto view = std::make_unique<editor::TopologyView>(&document);
  view->resize(1000, 700);
  view->show();
  return view;
}

} // namespace cs::test
