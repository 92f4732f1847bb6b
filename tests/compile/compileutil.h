#pragma once

// Comparisons shared by the compile tests.

#include "catalogue/catalogue.h"
#include "model/diagnostic.h"
#include "model/schedule.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace cs::test {

/// The transfers as "step: r0 i[1] -> r1 i[1] x1 reduce", sorted; pins and ids left out, so two
/// schedules that move the same data in the same steps compare equal.
QStringList transferSummary(const Schedule& schedule);
/// Only the error diagnostics, for QVERIFY2 messages.
std::vector<Diagnostic> errorsOf(const std::vector<Diagnostic>& diagnostics);
/// Adds the data row "KEY n=RANKS" (columns: std::string key, int ranks) when the algorithm
/// exists for `ranks` ranks; returns whether it did.
bool addCatalogueRow(const AlgorithmInfo& info, int ranks);

} // namespace cs::test
