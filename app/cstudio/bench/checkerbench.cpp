#include "checkerbench.h"

#include "benchtiming.h"

#include "check/checker.h"
#include "io/mscclxmlreader.h"
#include "model/dialect.h"

#include <pugixml.hpp>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

namespace cs::bench {

namespace {

// Corpus names share long prefixes and differ at the end ("…ring-ll" vs "…ring-simple"), so a
// name too long for the column keeps both ends.
std::string shortName(const std::string& file, std::size_t width)
{
  const std::string name = std::filesystem::path(file).filename().string();
  if (name.size() <= width)
    return name;
  const std::size_t tail = (width - 3) / 2 + 4;
  return name.substr(0, width - 3 - tail) + "..." + name.substr(name.size() - tail);
}

// glibc returns large freed blocks to the system and faults fresh pages in on the next
// allocation, depending on what ran before: the bare parse measured 0.8 or 3.5 ms on one machine
// by whether the reader had used pugixml first. A heap that keeps its pages, as in a long-running
// editor, makes both sides of the ratio measure their own work.
void keepFreedMemory()
{
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  mallopt(M_TRIM_THRESHOLD, 512 * 1024 * 1024);
#endif
}

} // namespace

int runCheckerBench(const CheckerBenchOptions& options, std::ostream& out)
{
  keepFreedMemory();
  char line[256];
  std::snprintf(line, sizeof line, "%-52s %6s %8s %9s %6s %9s %6s  %s\n", "file", "steps",
                "parse ms", "read ms", "ratio", "check ms", "ratio", "goals");
  out << line;
  int status = 0;
  for (const std::string& file : options.files) {
    std::ifstream stream(file, std::ios::binary);
    std::ostringstream bytes;
    bytes << stream.rdbuf();
    const std::string text = bytes.str();
    ReadResult first = readMscclXml(text);
    if (!stream || !first.program) {
      out << file << ": cannot be read\n";
      status = 2;
      continue;
    }
    const Program program = *first.program;
    CheckOptions check;
    check.dialect = detectDialect(program);
    const int repeats = std::max(1, options.repeats);

    const double parseMs = medianMs(repeats, [&text] {
      pugi::xml_document document;
      document.load_buffer(text.data(), text.size(), pugi::parse_default & ~pugi::parse_escapes);
    });
    const double readMs = medianMs(repeats, [&text] { (void)readMscclXml(text); });
    std::size_t diagnostics = 0;
    const double checkMs = medianMs(repeats, [&program, &check, &diagnostics] {
      diagnostics = checkProgram(program, check).size();
    });
    const std::string goals =
        std::string(readMs <= options.readGoalRatio * parseMs ? "read ok" : "READ SLOW") + ", " +
        (checkMs <= options.checkGoalMs ? "check ok" : "CHECK SLOW");
    std::snprintf(line, sizeof line, "%-52s %6d %8.2f %9.2f %5.1fx %9.2f %5.1fx  %s\n",
                  shortName(file, 52).c_str(), program.stepCount(), parseMs, readMs,
                  readMs / parseMs, checkMs, checkMs / parseMs, goals.c_str());
    out << line;
  }
  std::snprintf(line, sizeof line,
                "medians of %d runs; ratios are against a bare pugixml parse of the same bytes "
                "(baseline); goals: read <= %.0fx the parse, full check <= %.0f ms\n",
                std::max(1, options.repeats), options.readGoalRatio, options.checkGoalMs);
  out << line;
  return status;
}

} // namespace cs::bench
