#pragma once

// What the teaching gallery (issue 19 item 1) says about each catalogue algorithm on its card:
// the collective, the rank counts it exists for and its cost formula. No widgets, so tests read
// exactly what the cards show.

#include "catalogue/catalogue.h"
#include "model/topology.h"

#include <QString>

#include <vector>

namespace cs::editor {

struct GalleryEntry {
  QString key;   ///< catalogue key: "ring-allreduce"
  QString title; ///< "Ring all-reduce"
  QString collective;
  QString summary;
  QString costFormula;
  QString allowedRanks;   ///< "any n ≥ 2", "powers of two: 2, 4, 8, …"
  int smallestRanks = 2;  ///< the smallest rank count it exists for
  int suggestedRanks = 4; ///< what the gallery opens it with: 4, or the smallest above
};

/// The rank counts in [2, limit] for which `info` exists.
std::vector<int> supportedRanks(const AlgorithmInfo& info, int limit = 64);

/// `ranks` (ascending, from supportedRanks over [2, limit]) described for a person: "any n ≥ 2",
/// "powers of two: 2, 4, 8, …", "multiples of 8 from 16: 16, 24, …", or the first few listed.
QString describeRanks(const std::vector<int>& ranks, int limit = 64);

/// Why catalogue algorithm `key` at `ranks` cannot run on `topology` (its first topology.* error:
/// "no route from rank 0 to rank 2 …"), or an empty string when it fits.
QString topologyMisfit(const QString& key, int ranks, const Topology& topology);

/// Every catalogue algorithm in the catalogue's order.
std::vector<GalleryEntry> galleryEntries();

} // namespace cs::editor
