#pragma once

// Internal to engine/catalogue: each family of classic algorithms lists its catalogue entries;
// catalog.cpp concatenates them in display order.

#include "catalogue.h"

#include <span>

namespace cs::catalogue {

std::span<const AlgorithmInfo> ringAlgorithms();            ///< ringalgorithms.cpp
std::span<const AlgorithmInfo> halvingDoublingAlgorithms(); ///< halvingdoubling.cpp
std::span<const AlgorithmInfo> treeAlgorithms();            ///< treealgorithms.cpp
std::span<const AlgorithmInfo> hierarchicalAlgorithms();    ///< hierarchical.cpp (and 2D torus)
std::span<const AlgorithmInfo> allToAllAlgorithms();        ///< alltoall.cpp
std::span<const AlgorithmInfo> bruckAlgorithms();           ///< bruck.cpp

} // namespace cs::catalogue
