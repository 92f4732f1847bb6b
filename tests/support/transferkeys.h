#pragma once

// Transfers compared as the arrows they draw: step, source, destination, count and operation,
// without ids and pins (a replicated, pasted or redrawn transfer gets a fresh id). Shared by the
// timeline's tests (tst_timeline, tst_replicate, tst_timelineclipboard).

#include "model/schedule.h"

#include <set>
#include <tuple>
#include <vector>

namespace cs::test {

using TransferKey = std::tuple<int, ChunkRef, ChunkRef, int, TransferOp>;

inline TransferKey keyOf(const Transfer& t)
{
  return {t.step, t.src, t.dst, t.count, t.op};
}

inline std::set<TransferKey> keys(const std::vector<Transfer>& transfers)
{
  std::set<TransferKey> set;
  for (const Transfer& t : transfers)
    set.insert(keyOf(t));
  return set;
}

} // namespace cs::test
