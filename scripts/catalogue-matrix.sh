#!/bin/sh
# The whole catalogue × rank-count × dialect matrix (issue 18, item 1), too long for CI
# (tests/catalogue/tst_cataloguescale.cpp runs a sample of it there). For every algorithm of
# `cstudio generate --list`, every rank count and every dialect: generate (the Schedule check and
# the lowering), then `cstudio validate` the XML (the Program checks: structure, limits,
# matching, dependencies, deadlock, races, postcondition). One line per case:
#   ok        generated and validated with no error
#   n/a       the algorithm does not exist for that rank count (catalogue.unsupported)
#   limit     the lowering refused; the line names the runtime limit (lower.threadblocks, …)
#   FAIL      anything else: generation, the Schedule check or a Program check reported an error
# with the seconds each took. Exits 1 when any case FAILs or a refusal names no limit.
#
# Usage: scripts/catalogue-matrix.sh [--cstudio PATH] [--ranks "2 3 … | all"]
#                                    [--algorithms "a b …"] [--dialects "executor classic rccl"]
# Default ranks: 2..16, the powers of two and multiples of 64 up to 1,024, and 384, 511, 1000.
set -eu
cd "$(dirname "$0")/.."
cstudio=build/app/cstudio/cstudio
ranks=""
algorithms=""
dialects="executor classic rccl"
while [ $# -gt 0 ]; do
  case "$1" in
    --cstudio) cstudio=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --algorithms) algorithms=$2; shift 2 ;;
    --dialects) dialects=$2; shift 2 ;;
    *) echo "usage: $0 [--cstudio PATH] [--ranks LIST|all] [--algorithms LIST] [--dialects LIST]" >&2
       exit 2 ;;
  esac
done
[ -x "$cstudio" ] || { echo "$cstudio is not built (cmake --build build --target cstudio)" >&2; exit 2; }
if [ -z "$ranks" ]; then
  ranks="$(seq 2 16) 32 64 128 192 256 320 384 448 511 512 576 640 704 768 832 896 960 1000 1024"
elif [ "$ranks" = all ]; then
  ranks=$(seq 2 1024)
fi
[ -n "$algorithms" ] || algorithms=$("$cstudio" generate --list | awk '{print $1}')

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
now() { date +%s.%N; }
for algorithm in $algorithms; do
  for n in $ranks; do
    for dialect in $dialects; do
      xml="$work/out.xml"
      start=$(now)
      status=0
      "$cstudio" generate "$algorithm" --ranks "$n" --dialect "$dialect" -o "$xml" \
        >"$work/gen.out" 2>"$work/gen.err" || status=$?
      if [ "$status" -eq 0 ]; then
        generated=$(now)
        if "$cstudio" validate --dialect "$dialect" "$xml" >"$work/val.out" 2>&1; then
          verdict=ok
          detail=""
        else
          verdict=FAIL
          detail=$(grep -m1 'error' "$work/val.out" || tail -n1 "$work/val.out")
        fi
        rm -f "$xml"
      else
        generated=$(now)
        if [ "$status" -eq 2 ]; then # a usage error: the algorithm does not exist for n
          verdict=n/a
          detail=$(head -n1 "$work/gen.err")
        elif grep -q '\[lower\.\(threadblocks\|steps-per-tb\|channels\|peers-per-channel\|buffer-size\)\]' \
            "$work/gen.err"; then
          verdict=limit
          detail=$(grep -m1 '\[lower\.' "$work/gen.err")
        else
          verdict=FAIL
          detail=$(grep -m1 'error' "$work/gen.err" || tail -n1 "$work/gen.err")
        fi
      fi
      finished=$(now)
      [ "$verdict" = FAIL ] && failed=1
      printf '%-6s %-30s %5s %-8s generate %6.2fs validate %6.2fs  %s\n' "$verdict" "$algorithm" \
        "$n" "$dialect" "$(echo "$generated - $start" | bc)" "$(echo "$finished - $generated" | bc)" \
        "$(echo "$detail" | cut -c1-300)"
    done
  done
done
exit "$failed"
