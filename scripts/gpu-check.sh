#!/bin/bash
# The GPU checks behind docs/executors.md ("Measured on a GPU"), in one run on a machine with an
# NVIDIA GPU: the gpu-labelled unit tests (the corpus matrix among them), the 8-rank ring
# all-reduce swept beside the copy roofline, its latency at 8 KiB with the GPU's clocks warm, the
# watchdog on a 1-slot ring, compute-sanitizer, and the NCCL backend under a launcher's
# environment. Every check has a time limit; the summary says which passed.
#
# Usage: scripts/gpu-check.sh BIN_DIR OUT_DIR
#   BIN_DIR  cstudio, backends/ (the cs-backend-*.so modules) and, when built, tst_cudaexecutor
#            and tst_ncclexecutor; optionally lib/ with libraries the machine lacks (pugixml,
#            SQLite) and qtlib/ with those only the unit tests need (Qt and what it links), for
#            binaries built on another machine
#   OUT_DIR  logs, JSON results, a trace and summary.txt
# CSTUDIO_CORPUS_DIR names the corpus for the unit tests and the sanitizer's samples.
set -u
bin=$(realpath "$1")
out=$(realpath -m "$2")
mkdir -p "$out"
export CSTUDIO_BACKEND_PATH="$bin/backends"
[ -d "$bin/lib" ] && export LD_LIBRARY_PATH="$bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
testenv=(env "LD_LIBRARY_PATH=$bin/qtlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
cstudio="$bin/cstudio"
work=$(mktemp -d)
summary="$out/summary.txt"
: >"$summary"

# GPU_CHECK_SECONDS (default 900) bounds the whole run: a check that would start past it is
# skipped, and the last one gets what is left.
deadline=$(($(date +%s) + ${GPU_CHECK_SECONDS:-900}))

# check NAME SECONDS COMMAND...: runs COMMAND with a time limit, its output in NAME.log.
check() {
  local name=$1 limit=$2
  shift 2
  local left=$((deadline - $(date +%s)))
  if [ "$left" -lt 5 ]; then
    echo "$name: skipped, out of time" | tee -a "$summary"
    return 124
  fi
  [ "$limit" -gt "$left" ] && limit=$left
  local start status
  start=$(date +%s.%N)
  timeout --kill-after=5 "$limit" "$@" >"$out/$name.log" 2>&1
  status=$?
  printf '%-40s exit %3d %8.2f s\n' "$name" "$status" \
    "$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')" | tee -a "$summary"
  return $status
}

nvidia-smi >"$out/nvidia-smi.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >>"$summary"
"$cstudio" --version >>"$summary" 2>&1

ring() { # ring PROTO: the catalogue's 8-rank ring all-reduce
  "$cstudio" generate ring-allreduce --ranks 8 --proto "$1" -o "$work/ring8-$1.xml" >/dev/null
}
ring Simple
ring LL

# Unit tests: a missing test binary is reported, not fatal.
tests() {
  for test in tst_cudaexecutor tst_ncclexecutor; do
    [ -x "$bin/$test" ] && check "$test" 240 "${testenv[@]}" "$bin/$test"
  done
}

# The NCCL backend: one rank per GPU, so on one GPU a one-rank program, run directly and as a
# launcher would start it (torchrun's variables, the rendezvous on loopback, ncclCommInitRank).
# (The runtimes' reader wants each tag on one line.)
cat >"$work/one.xml" <<'EOF'
<algo name="one_rank_copy" proto="Simple" nchannels="1" nchunksperloop="1" ngpus="1" coll="allreduce" inplace="0" minBytes="0" maxBytes="1099511627776">
  <gpu id="0" i_chunks="1" o_chunks="1" s_chunks="0">
    <tb id="0" send="-1" recv="-1" chan="0">
      <step s="0" type="cpy" srcbuf="i" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0"/>
    </tb>
  </gpu>
</algo>
EOF
nccl() {
  check nccl-one-rank 60 "$cstudio" run "$work/one.xml" --backend nccl --bytes 1M
  # (A world of one takes the launcher path only when the flags ask for it.)
  check nccl-launched-one-rank 60 env MASTER_ADDR=127.0.0.1 MASTER_PORT=29517 "$cstudio" run \
    "$work/one.xml" --backend nccl --bytes 1M --rank 0 --world 1 --local-rank 0 --json
}

# The ring's sweep beside the copy roofline (the goal: >= 0.85 at 256 MiB and more).
bench() {
  check bench-large 240 "$cstudio" bench "$work/ring8-Simple.xml" --backend cuda \
    --min-bytes 64M --max-bytes 512M --factor 2
}

# Latency at 8 KiB (the goal: <= 20 us): cold as `run` does by default, then with the clocks
# warmed by many back-to-back iterations, and with smaller blocks.
latency() {
  for proto in LL Simple; do
    check "8k-$proto-cold" 60 "$cstudio" run "$work/ring8-$proto.xml" --backend cuda --bytes 8K \
      --json
    check "8k-$proto-warm" 120 "$cstudio" run "$work/ring8-$proto.xml" --backend cuda --bytes 8K \
      --warmup 2000 --iters 2000 --json
  done
  for threads in 128 512; do
    check "8k-LL-warm-t$threads" 120 "$cstudio" run "$work/ring8-LL.xml" --backend cuda \
      --bytes 8K --warmup 2000 --iters 2000 --threads-per-block "$threads" --json
  done
  check 8k-LL-trace 60 "$cstudio" run "$work/ring8-LL.xml" --backend cuda --bytes 8K \
    --warmup 2000 --iters 1 --trace "$out/trace-8k-LL.json"
}

# The watchdog: a 1-slot ring deadlocks; the run must stop within twice its 2 s timeout with
# exit status 3 and name the blocked threadblocks.
watchdog() {
  for proto in Simple LL; do
    check "watchdog-$proto" 30 "$cstudio" run "$work/ring8-$proto.xml" --backend cuda --slots 1 \
      --timeout 2 --bytes 1M
  done
}

# The small sizes of the sweep.
small_sizes() {
  check bench-small 120 "$cstudio" bench "$work/ring8-Simple.xml" --backend cuda \
    --min-bytes 8K --max-bytes 32M --factor 4
}

# compute-sanitizer on the ring and on corpus samples.
sanitizers() {
  if command -v compute-sanitizer >/dev/null; then
    sanitize() { # sanitize NAME TOOL FILE BYTES
      check "sanitizer-$1" 90 compute-sanitizer --tool "$2" --error-exitcode 99 \
        "$cstudio" run "$3" --backend cuda --bytes "$4" --iters 1 --warmup 0
    }
    sanitize memcheck-ring memcheck "$work/ring8-Simple.xml" 1M
    sanitize racecheck-ring-LL racecheck "$work/ring8-LL.xml" 64K
    sanitize synccheck-ring synccheck "$work/ring8-Simple.xml" 1M
    corpus=${CSTUDIO_CORPUS_DIR:-}
    for sample in allreduce_a100_ring_8r_8ch_2i_LL alltoall_a100_three_step_2x4r_1i_Simple \
      synth_ring4_broadcast_root0_ncclize_Simple; do
      [ -f "$corpus/$sample.xml" ] && sanitize "memcheck-$sample" memcheck "$corpus/$sample.xml" 256K
    done
  fi
}

# GPU_CHECKS: the sections to run, in this order (default: all of them).
for section in ${GPU_CHECKS:-tests nccl bench latency watchdog small_sizes sanitizers}; do
  "$section"
done

rm -rf "$work"
cat "$summary"
