#pragma once

// What storage derives from a version's content at save time, so lists, history and diffs never
// re-read or re-check the XML: the shape (ranks, threadblocks, steps), the checker's verdict, the
// Schedule's transfers as canonical lines, and a content hash for de-duplication.

#include "records.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cs::storage {

struct ContentSummary {
  ShapeSummary shape;
  VerdictSummary verdict;
  /// One line per Schedule transfer, sorted (a multiset: duplicates kept); empty without one.
  std::vector<std::string> transfers;
  std::int64_t hash = 0;
};

/// Reads and checks the XML (for its own dialect) and summarises the Schedule when given.
ContentSummary summariseContent(const VersionContent& content, const Schedule* schedule);
/// A 64-bit FNV-1a-style hash of the content. Only an index: equal hashes are confirmed byte for
/// byte.
std::int64_t contentHash(const VersionContent& content);
/// "step 2: r0 i[1] -> r1 i[1] x1 reduce"
std::string describeTransfer(const Transfer& transfer);

/// Lines joined with '\n' for the database, and split back.
std::string joinLines(const std::vector<std::string>& lines);
std::vector<std::string> splitLines(const std::string& text);

/// Transfers of `to` missing from `from` (added) and of `from` missing from `to` (removed).
void diffTransfers(const std::vector<std::string>& from, const std::vector<std::string>& to,
                   std::vector<std::string>& added, std::vector<std::string>& removed);

} // namespace cs::storage
