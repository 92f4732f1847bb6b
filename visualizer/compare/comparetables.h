#pragma once

// The compare window's tables (issue 14, designed vs measured): per-step durations and per-link
// busy times of two runs with their deltas, in replay::compareRuns' order (the row that lost the
// most time first); rows that lost time are tinted, the worst ones strongest.

#include "replay/comparison.h"

#include <QTableWidget>

namespace cs {
struct Topology;
}

namespace cs::visualizer {

/// How many of the first rows (those that lost the most time) are highlighted.
inline constexpr int kWorstRows = 3;

/// A table with one row per step position: step, A µs, B µs, Δ µs, A share, B share, Δ share.
QTableWidget* makeStepTable(const replay::Comparison& comparison, QWidget* parent = nullptr);

/// A table with one row per link: link (named from `topology` when given), busy µs in A and B,
/// Δ µs, shares of each run and their Δ.
QTableWidget* makeLinkTable(const replay::Comparison& comparison, const Topology* topology,
                            QWidget* parent = nullptr);

} // namespace cs::visualizer
