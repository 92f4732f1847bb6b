#pragma once

// The document the tests of visualizer/export animate: a catalogue ring all-reduce on a ring.

#include "document/document.h"

#include "catalogue/catalogue.h"
#include "model/topologypresets.h"

#include <memory>

namespace cs::visualizer::test {

/// The catalogue's ring all-reduce on `ranks` ranks, on the preset ring-`ranks`, analysed.
inline std::unique_ptr<editor::Document> ringDocument(int ranks)
{
  editor::DocumentState state;
  state.design.schedule = *generateAlgorithm("ring-allreduce", {.ranks = ranks}).schedule;
  state.design.topology = makePresetTopology("ring-" + std::to_string(ranks));
  auto document = std::make_unique<editor::Document>();
  document->reset(std::move(state), {});
  document->waitForAnalysis();
  return document;
}

} // namespace cs::visualizer::test
