#!/bin/sh
# Prints, from a ctest log (build/Testing/Temporary/LastTest.log), every QTest executable that
# skipped some of its cases, with its totals, and the number of skipped cases in all. ctest itself
# counts only whole tests: one where every case skipped shows as skipped (tests/CMakeLists.txt),
# one where only some did shows as passed.
#   scripts/skipped-cases.sh LOG
set -eu
log=$1
[ -f "$log" ] || { echo "skipped-cases: no ctest log at $log" >&2; exit 1; }
awk '
  /^[0-9]+\/[0-9]+ Testing: / { name = $3 }
  /^Totals: / {
    skipped = $6
    if (skipped > 0) {
      printf "  %-28s %s passed, %s skipped\n", name, $2, skipped
      total += skipped
      tests++
    }
  }
  END { printf "%d skipped test cases in %d tests (no GPU, no corpus, ...)\n", total, tests }
' "$log"
