#pragma once

// How `cstudio library` shows the library's records: aligned text for people, JSON for
// pipelines. Both come from the same storage records.

#include "records.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <vector>

namespace cs::cli {

nlohmann::json toJson(const storage::AlgorithmRecord& algorithm);
nlohmann::json toJson(const storage::VersionRecord& version);
nlohmann::json toJson(const storage::RunRecord& run);
nlohmann::json toJson(const storage::VersionDiff& diff);
nlohmann::json toJson(const storage::CalibrationRecord& calibration);

/// One line per algorithm: name, collective, ranks, versions, provenance, tags.
void printAlgorithms(std::ostream& out, const std::vector<storage::AlgorithmRecord>& algorithms);
/// One line per version: number, created, shape, verdict, message.
void printHistory(std::ostream& out, const std::vector<storage::VersionRecord>& versions);
/// Name, metadata and the shown version's summary.
void printAlgorithm(std::ostream& out, const storage::AlgorithmRecord& algorithm,
                    const storage::VersionRecord& version);
/// nccl-tests-like table of runs.
void printRuns(std::ostream& out, const std::vector<storage::RunRecord>& runs);
void printDiff(std::ostream& out, const storage::VersionDiff& diff);
/// Two lines per calibration: name, backend, topology, date; its α/β per kind and local rates.
void printCalibrations(std::ostream& out,
                       const std::vector<storage::CalibrationRecord>& calibrations);

} // namespace cs::cli
