#!/bin/sh
# Installs what is needed, builds and runs every test:
#   1. the format check: every tracked C++ source as .clang-format wants it;
#   2. the unit tests (QTest, through ctest), warnings as errors, with the layering and file
#      length test (tests/layering) among them, and a count of the cases that skipped;
#   3. the function length limit (clang-tidy's readability-function-size, .clang-tidy);
#   4. the same unit tests (the editor's included) built with AddressSanitizer and
#      UndefinedBehaviorSanitizer;
#   5. the libFuzzer targets (the XML reader and the checker; the trace reader and the replay
#      index), each for a bounded time;
#   6. the package: built, installed with apt-get, checked from the installed files and purged
#      (scripts/package-check.sh), when this user may install packages (root or passwordless
#      sudo); otherwise the stage says it skipped.
# Corpus tests read ../shared/corpus in place when CSTUDIO_CORPUS_DIR points at it (.ci/run
# sets it and fails without the corpus); without it they skip with a message, and with it set to a
# folder that holds no corpus they fail.
# Environment: CSTUDIO_FUZZ_SECONDS (default 60), CSTUDIO_SKIP_SANITIZERS=1, CSTUDIO_SKIP_FUZZ=1,
# CSTUDIO_SKIP_PACKAGE=1.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh

jobs=$(nproc 2>/dev/null || echo 2)
werror=ON
step() { printf '\n== %s\n' "$*"; }

step "format (clang-format --dry-run --Werror)"
unformatted=$(git ls-files '*.h' '*.cpp' '*.cu' '*.cuh' |
  xargs clang-format --dry-run --Werror 2>&1 | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error:.*/\1/p' |
  sort -u)
if [ -n "$unformatted" ]; then
  printf '%s\n' "$unformatted"
  echo "these files differ from .clang-format: run clang-format -i on them" >&2
  exit 1
fi

step "build (warnings are errors)"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCSTUDIO_WERROR=$werror >/dev/null
cmake --build build -j "$jobs"

step "unit tests"
ctest --test-dir build --output-on-failure -j "$jobs"
scripts/skipped-cases.sh build/Testing/Temporary/LastTest.log

step "function length (clang-tidy readability-function-size, .clang-tidy)"
# Product sources only (tests are lists of cases); .cu files are compiled by nvcc, not clang.
run-clang-tidy -p build -j "$jobs" -quiet "$PWD/(engine|storage|editor|visualizer|app)/.*\.cpp\$" \
  >build/clang-tidy.log 2>&1 || {
  sed 's/\x1b\[[0-9;]*m//g' build/clang-tidy.log |
    grep -a 'exceeds recommended size\|lines including' >&2 || tail -n 40 build/clang-tidy.log >&2
  echo "a function is longer than 80 lines (or clang-tidy failed: build/clang-tidy.log)" >&2
  exit 1
}

if [ "${CSTUDIO_SKIP_SANITIZERS:-0}" != 1 ]; then
  step "unit tests under AddressSanitizer and UndefinedBehaviorSanitizer"
  # Line tables only (-g1), which the sanitizers' reports need for file and line, and the
  # project's libraries shared: statically linked, the ~140 test executables each held the
  # engine and the editor with their instrumentation, 21 GB in all, and ran a CI machine out of
  # disk.
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
    -DCSTUDIO_SHARED_LIBS=ON -DCSTUDIO_WERROR=$werror -DCSTUDIO_SANITIZE=address,undefined \
    >/dev/null
  cmake --build build-asan -j "$jobs"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j "$jobs"
fi

# Runs libFuzzer target $1 on the seeds in $2 for CSTUDIO_FUZZ_SECONDS, with the dictionary $3 if
# given. A crash, a leak or a hang fails the run; the input that caused it is printed so it can be
# turned into a unit test.
fuzz() {
  findings=$(mktemp -d)
  if build-fuzz/tests/fuzz/"$1" -max_total_time="${CSTUDIO_FUZZ_SECONDS:-60}" \
      -max_len=16384 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 ${3:+-dict="$3"} \
      -artifact_prefix="$findings/" "$2" >"$findings/log.txt" 2>&1; then
    tail -n 8 "$findings/log.txt"
    rm -rf "$findings"
    return 0
  fi
  tail -n 60 "$findings/log.txt"
  for input in "$findings"/crash-* "$findings"/leak-* "$findings"/timeout-* "$findings"/oom-*; do
    [ -f "$input" ] || continue
    echo "== input that failed: $input (base64)"
    base64 "$input"
  done
  echo "fuzzing $1 found a failure" >&2
  exit 1
}

if [ "${CSTUDIO_SKIP_FUZZ:-0}" != 1 ]; then
  step "fuzzing the reader and the checker, and the trace reader and replay (${CSTUDIO_FUZZ_SECONDS:-60} s each)"
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCSTUDIO_WERROR=$werror -DCSTUDIO_FUZZ=ON -DCSTUDIO_BUILD_TESTS=OFF -DCSTUDIO_BUILD_GUI=OFF \
    -DCSTUDIO_SANITIZE=address,undefined >/dev/null
  cmake --build build-fuzz -j "$jobs" --target fuzz_reader_checker fuzz_trace_replay
  seeds=$(mktemp -d)
  traces=$(mktemp -d)
  trap 'rm -rf "$seeds" "$traces"' EXIT
  cstudio=build/app/cstudio/cstudio
  for n in 2 3 5; do
    $cstudio generate ring-allreduce --ranks $n --channels 2 -o "$seeds/ring$n.xml" >/dev/null
    # Traces of the ring the fuzz target replays against: simulated and measured on the CPU.
    $cstudio generate ring-allreduce --ranks $n -o "$traces/ring$n.xml" >/dev/null
    # Sizes that split into n equal chunks of whole elements, as the executors require.
    $cstudio simulate "$traces/ring$n.xml" --topology ring-$n --bytes $((n * 16384)) \
      --trace "$traces/sim$n.json" >/dev/null
    $cstudio run "$traces/ring$n.xml" --backend cpu --bytes $((n * 1024)) \
      --trace "$traces/cpu$n.json" >/dev/null
    # A run verified wrong (the in-place ring called out of place): otherData.verification lists
    # every wrong chunk, its never-written values spelled "nan". The run's status is not 0.
    $cstudio run "$traces/ring$n.xml" --backend cpu --outofplace --bytes $((n * 1024)) \
      --trace "$traces/wrong$n.json" >/dev/null || true
    rm "$traces/ring$n.xml"
  done
  # Bytes that are not UTF-8 in a comment, an attribute value and a tag name (issue 16): they end
  # up in diagnostics and in info's fields, which every output must quote safely.
  printf '<!-- \377\376 -->\n' | cat - "$seeds/ring2.xml" >"$seeds/ring2-comment.xml"
  sed 's/coll="allreduce"/coll="all\xff\xfereduce"/' "$seeds/ring3.xml" >"$seeds/ring3-value.xml"
  sed '0,/<step /s//<st\xff\xfeep\/><step /' "$seeds/ring5.xml" >"$seeds/ring5-tag.xml"
  if [ -n "${CSTUDIO_CORPUS_DIR:-}" ] && [ -d "$CSTUDIO_CORPUS_DIR" ]; then
    # Small corpus files make good seeds; copies stay in a temporary folder.
    find "$CSTUDIO_CORPUS_DIR" -name '*.xml' -size -20k -exec cp {} "$seeds" \;
  fi
  # The dictionary holds the runtimes' reader quirks (a BOM, " = ", attribute names, strtol
  # prefixes, long values) for mutations to mix into the seeds.
  fuzz fuzz_reader_checker "$seeds" tests/fuzz/reader_checker.dict
  fuzz fuzz_trace_replay "$traces"
fi

if [ "${CSTUDIO_SKIP_PACKAGE:-0}" != 1 ]; then
  step "package: build, install, check the installed files, purge"
  if [ "$(id -u)" = 0 ] || sudo -n true 2>/dev/null; then
    scripts/package-check.sh
  else
    echo "skipped: installing the package needs root or passwordless sudo"
  fi
fi

step "all tests passed"
