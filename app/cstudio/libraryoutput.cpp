#include "libraryoutput.h"

#include "sim/calibration.h"

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace cs::cli {

using nlohmann::json;

namespace {

std::string joined(const std::vector<std::string>& items, const char* separator)
{
  std::string text;
  for (const std::string& item : items)
    text += (text.empty() ? "" : separator) + item;
  return text;
}

json shapeJson(const storage::ShapeSummary& shape)
{
  return {{"collective", shape.collective},
          {"ranks", shape.ranks},
          {"threadblocks", shape.threadblocks},
          {"steps", shape.steps},
          {"transfers", shape.transfers >= 0 ? json(shape.transfers) : json(nullptr)}};
}

json verdictJson(const storage::VerdictSummary& verdict)
{
  return {{"verdict", verdict.verdict},
          {"errors", verdict.errors},
          {"warnings", verdict.warnings},
          {"first_error", verdict.firstError}};
}

std::string verdictText(const storage::VerdictSummary& verdict)
{
  if (verdict.verdict != "errors")
    return verdict.verdict;
  return std::to_string(verdict.errors) + (verdict.errors == 1 ? " error" : " errors");
}

std::string shapeText(const storage::ShapeSummary& shape)
{
  std::string text = std::to_string(shape.ranks) + " ranks, " + std::to_string(shape.threadblocks) +
                     " tbs, " + std::to_string(shape.steps) + " steps";
  if (shape.transfers >= 0)
    text += ", " + std::to_string(shape.transfers) + " transfers";
  return text;
}

} // namespace

json toJson(const storage::AlgorithmRecord& algorithm)
{
  return {{"id", algorithm.id},
          {"name", algorithm.name},
          {"collective", algorithm.collective},
          {"ranks", algorithm.ranks},
          {"provenance", storage::provenanceName(algorithm.provenance)},
          {"source_file", algorithm.sourceFile},
          {"tags", algorithm.tags},
          {"notes", algorithm.notes},
          {"topology_id", algorithm.topologyId ? json(*algorithm.topologyId) : json(nullptr)},
          {"versions", algorithm.headVersion},
          {"created", algorithm.created},
          {"updated", algorithm.updated}};
}

json toJson(const storage::VersionRecord& version)
{
  return {{"id", version.id},
          {"number", version.number},
          {"created", version.created},
          {"message", version.message},
          {"restored_from", version.restoredFrom ? json(*version.restoredFrom) : json(nullptr)},
          {"shape", shapeJson(version.shape)},
          {"verdict", verdictJson(version.verdict)},
          {"xml_bytes", version.xmlBytes},
          {"design_bytes", version.designBytes}};
}

json toJson(const storage::RunRecord& run)
{
  return {{"id", run.id},
          {"version", run.versionNumber},
          {"backend", run.backend},
          {"device", run.device},
          {"dtype", run.dtype},
          {"op", run.op},
          {"bytes", run.bytes},
          {"time_us", run.timeUs},
          {"algbw_GBps", run.algbwGBps},
          {"busbw_GBps", run.busbwGBps},
          {"wrong", run.wrong},
          {"status", run.status},
          {"verdict", run.verdict},
          {"created", run.created},
          {"has_trace", run.hasTrace}};
}

json toJson(const storage::VersionDiff& diff)
{
  return {{"from", shapeJson(diff.from)},
          {"to", shapeJson(diff.to)},
          {"from_verdict", verdictJson(diff.fromVerdict)},
          {"to_verdict", verdictJson(diff.toVerdict)},
          {"same_content", diff.sameContent},
          {"transfers_compared", diff.transfersCompared},
          {"transfers_added", diff.transfersAdded},
          {"transfers_removed", diff.transfersRemoved}};
}

void printAlgorithms(std::ostream& out, const std::vector<storage::AlgorithmRecord>& algorithms)
{
  std::size_t width = 4;
  for (const storage::AlgorithmRecord& algorithm : algorithms)
    width = std::max(width, algorithm.name.size());
  char line[128];
  for (const storage::AlgorithmRecord& algorithm : algorithms) {
    std::snprintf(line, sizeof line, "  %-14s %5d ranks  v%-3d %-11s  ",
                  algorithm.collective.c_str(), algorithm.ranks, algorithm.headVersion,
                  std::string(storage::provenanceName(algorithm.provenance)).c_str());
    out << algorithm.name << std::string(width - algorithm.name.size(), ' ') << line
        << joined(algorithm.tags, ", ") << '\n';
  }
  out << algorithms.size() << (algorithms.size() == 1 ? " algorithm\n" : " algorithms\n");
}

void printHistory(std::ostream& out, const std::vector<storage::VersionRecord>& versions)
{
  for (const storage::VersionRecord& version : versions) {
    out << "v" << version.number << "  " << version.created << "  " << shapeText(version.shape)
        << "  " << verdictText(version.verdict) << "  " << version.message;
    if (version.restoredFrom)
      out << " (restored v" << *version.restoredFrom << ")";
    out << '\n';
  }
}

void printAlgorithm(std::ostream& out, const storage::AlgorithmRecord& algorithm,
                    const storage::VersionRecord& version)
{
  out << algorithm.name << ": " << algorithm.collective << ", " << algorithm.ranks << " ranks, "
      << storage::provenanceName(algorithm.provenance) << '\n';
  if (!algorithm.sourceFile.empty())
    out << "  source:   " << algorithm.sourceFile << '\n';
  if (!algorithm.tags.empty())
    out << "  tags:     " << joined(algorithm.tags, ", ") << '\n';
  if (!algorithm.notes.empty())
    out << "  notes:    " << algorithm.notes << '\n';
  out << "  version:  v" << version.number << " of " << algorithm.headVersion << ", "
      << version.created << ", " << version.message << '\n'
      << "  shape:    " << shapeText(version.shape) << '\n'
      << "  verdict:  " << verdictText(version.verdict);
  if (version.verdict.warnings > 0)
    out << ", " << version.verdict.warnings << " warnings";
  out << '\n';
  if (!version.verdict.firstError.empty())
    out << "  first error: " << version.verdict.firstError << '\n';
  out << "  content:  " << version.xmlBytes << " bytes of XML, " << version.designBytes
      << " bytes of design\n";
}

void printRuns(std::ostream& out, const std::vector<storage::RunRecord>& runs)
{
  out << "#  ver  backend    device                    size(B)    time(us)  algbw(GB/s)  "
         "busbw(GB/s)  #wrong  status        created\n";
  char line[512];
  for (const storage::RunRecord& run : runs) {
    std::snprintf(line, sizeof line,
                  "  v%-3d %-10s %-22.22s %10lld %11.2f %12.2f %12.2f %7lld  %-13s ",
                  run.versionNumber, run.backend.c_str(), run.device.c_str(),
                  static_cast<long long>(run.bytes), run.timeUs, run.algbwGBps, run.busbwGBps,
                  static_cast<long long>(run.wrong), run.status.empty() ? "-" : run.status.c_str());
    out << line << run.created << '\n';
  }
  out << runs.size() << (runs.size() == 1 ? " run\n" : " runs\n");
}

json toJson(const storage::CalibrationRecord& calibration)
{
  const json document = json::parse(calibration.json, nullptr, false);
  return {{"name", calibration.name},
          {"topology", calibration.topology},
          {"backend", calibration.backend},
          {"created", calibration.created},
          {"calibration", document.is_discarded() ? json(nullptr) : document}};
}

void printCalibrations(std::ostream& out,
                       const std::vector<storage::CalibrationRecord>& calibrations)
{
  for (const storage::CalibrationRecord& record : calibrations) {
    out << record.name << "  " << record.backend << " for " << record.topology << ", "
        << record.created << "\n   ";
    const CalibrationReadResult read = readCalibrationJson(record.json);
    if (!read.calibration) {
      out << " damaged: " << read.error << '\n';
      continue;
    }
    char figures[128];
    for (const LinkCalibration& link : read.calibration->links) {
      std::snprintf(figures, sizeof figures, " %s %.2f us %.3f GB/s;",
                    std::string(linkKindName(link.kind)).c_str(), link.alphaUs, link.betaGBps);
      out << figures;
    }
    std::snprintf(figures, sizeof figures, " copy %.3f GB/s, reduce %.3f GB/s\n",
                  read.calibration->copyGBps, read.calibration->reduceGBps);
    out << figures;
  }
  out << calibrations.size() << (calibrations.size() == 1 ? " calibration\n" : " calibrations\n");
}

void printDiff(std::ostream& out, const storage::VersionDiff& diff)
{
  const auto row = [&out](const char* what, int from, int to) {
    out << "  " << what << ": " << from;
    if (from != to)
      out << " -> " << to << " (" << (to > from ? "+" : "") << to - from << ")";
    out << '\n';
  };
  if (diff.sameContent)
    out << "same content\n";
  row("ranks       ", diff.from.ranks, diff.to.ranks);
  row("threadblocks", diff.from.threadblocks, diff.to.threadblocks);
  row("steps       ", diff.from.steps, diff.to.steps);
  out << "  verdict     : " << verdictText(diff.fromVerdict);
  if (verdictText(diff.fromVerdict) != verdictText(diff.toVerdict))
    out << " -> " << verdictText(diff.toVerdict);
  out << '\n';
  if (!diff.transfersCompared) {
    out << "  transfers   : not compared (a version carries no design schedule)\n";
    return;
  }
  out << "  transfers   : " << diff.transfersAdded.size() << " added, "
      << diff.transfersRemoved.size() << " removed\n";
  for (const std::string& added : diff.transfersAdded)
    out << "    + " << added << '\n';
  for (const std::string& removed : diff.transfersRemoved)
    out << "    - " << removed << '\n';
}

} // namespace cs::cli
