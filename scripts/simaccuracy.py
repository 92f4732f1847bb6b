#!/usr/bin/env python3
"""The simulator's accuracy report (docs/simulator-accuracy.md), regenerated from the CLI.

Prints Markdown tables:
  1. the simulator against the catalogue's closed forms on the presets (cstudio narrate),
  2. against its own NCCL ring estimate on dgx-a100 and dgx-h100 (cstudio simulate),
  3. against published nccl-tests ring bus bandwidths (figures quoted below, with sources),
  4. with --cpu: after calibrating on the CPU executor (cstudio calibrate), the measured total time
     of every catalogue algorithm at 8 ranks and 64 MiB against the calibrated simulation.

Usage: scripts/simaccuracy.py [--cstudio PATH] [--cpu | --only-cpu] [--iters N] [--rounds N]
Timings of part 4 depend on the machine and its load: the script prints the host's core count and
load average beside them.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

MIB = 1 << 20
GIB = 1 << 30

# Published figures (quoted, not measured here). Each: (topology, what, busbw GB/s, source).
PUBLISHED = [
    ("dgx-h100", "ring all-reduce busbw plateau, 8 GPUs (NCCL_ALGO=RING)", 370.0,
     "NVIDIA/nccl-tests issue #212, comment by S. Jeaugey (NVIDIA), 2024-05-06: "
     "\"NCCL can get an effective NVLink bandwidth of 370GB/s, which you can observe as "
     "BusBw ... when running with NCCL_ALGO=RING\""),
    ("dgx-a100", "ring all-reduce busbw cap, compute capability 8.0", 235.0,
     "NVIDIA/nccl src/graph/tuning.cc (snapshot 01afd20): the tuning model caps the ring's bus "
     "bandwidth of an all-A100 (compCap80) communicator at 235 GB/s"),
]


def cstudio(binary, *args, check=True):
    result = subprocess.run([binary, *args], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise RuntimeError(f"cstudio {' '.join(args)}: exit {result.returncode}: {result.stderr}")
    return result


def size_name(size):
    return f"{size // GIB} GiB" if size >= GIB else f"{size // MIB} MiB"


def error(value, reference):
    return f"{100 * (value - reference) / reference:+.1f} %"


def closed_forms(binary):
    print("## 1. Against the catalogue's closed forms\n")
    print("`cstudio narrate -a ALG -n 8 -t TOPOLOGY -s SIZE --json`: the catalogue's formula with "
          "α = largest neighbour latency + the protocol's per-hop latency, β = slowest neighbour "
          "route, against the simulation (Simple protocol defaults).\n")
    print("| algorithm | topology | size | formula | simulated | error |")
    print("|---|---|---|---|---|---|")
    cases = [("ring-allreduce", "ring-8"), ("ring-allreduce", "ring-16"),
             ("direct-alltoall", "fully-connected-8"), ("direct-alltoall", "dgx-h100"),
             ("halving-doubling-allreduce", "fully-connected-8"),
             ("halving-doubling-allreduce", "dgx-h100")]
    for algorithm, topology in cases:
        ranks = "16" if topology.endswith("-16") else "8"
        for size in (MIB, 16 * MIB, 256 * MIB, GIB):
            cost = json.loads(cstudio(binary, "narrate", "-a", algorithm, "-n", ranks, "-t",
                                      topology, "-s", str(size), "--json").stdout)["cost"]
            print(f"| {algorithm} | {topology} | {size_name(size)} | {cost['formula_us']:,.1f} µs "
                  f"| {cost['simulated_us']:,.1f} µs | "
                  f"{error(cost['simulated_us'], cost['formula_us'])} |")
    print()


def simulate(binary, xml, topology, size, *extra):
    return json.loads(cstudio(binary, "simulate", xml, "-t", topology, "-b", str(size),
                              "--json", *extra).stdout)


def nccl_estimates(binary, workdir):
    print("## 2. Against the simulator's NCCL ring estimate\n")
    print("Catalogue ring all-reduce, 8 ranks, Simple; `nccl_ring_us` of `cstudio simulate "
          "--json` (2(n-1)·α + 2(n-1)/n·S/β with NCCL's per-hop latency).\n")
    xml = os.path.join(workdir, "ring8.xml")
    cstudio(binary, "generate", "ring-allreduce", "--ranks", "8", "-o", xml)
    print("| topology | size | NCCL ring estimate | simulated | error |")
    print("|---|---|---|---|---|")
    for topology in ("dgx-a100", "dgx-h100"):
        for size in (MIB, 16 * MIB, 64 * MIB, 256 * MIB, GIB, 4 * GIB):
            result = simulate(binary, xml, topology, size)
            print(f"| {topology} | {size_name(size)} | {result['nccl_ring_us']:,.1f} µs | "
                  f"{result['time_us']:,.1f} µs | "
                  f"{error(result['time_us'], result['nccl_ring_us'])} |")
    print()
    return xml


def published(binary, xml):
    print("## 3. Against published nccl-tests figures\n")
    print("Simulated bus bandwidth of the catalogue ring all-reduce (8 ranks, one channel, "
          "Simple) at large sizes against the published ring plateau.\n")
    print("| topology | figure | published busbw | size | simulated busbw | error |")
    print("|---|---|---|---|---|---|")
    for topology, what, busbw, _ in PUBLISHED:
        for size in (GIB, 4 * GIB):
            result = simulate(binary, xml, topology, size)
            print(f"| {topology} | {what} | {busbw:.0f} GB/s | {size_name(size)} | "
                  f"{result['busbw_GBps']:.1f} GB/s | {error(result['busbw_GBps'], busbw)} |")
    print("\nSources:\n")
    for topology, _, _, source in PUBLISHED:
        print(f"- {topology}: {source}")
    print()


def host_topology(path, ranks):
    """The CPU executor's host as a topology: every rank on one duplex link to a hub, each
    direction a thread's rate (the receiver's thread does a transfer's copy; a rank's sends and
    receives are different threads). The calibration adds the host's aggregate bandwidth that all
    ranks share (docs/simulator.md §5.1)."""
    nodes = [{"id": r, "kind": "gpu", "name": f"rank{r}", "rank": r, "x": 0, "y": 0}
             for r in range(ranks)]
    nodes.append({"id": ranks, "kind": "nvswitch", "name": "host", "rank": -1, "x": 0, "y": 0})
    links = [{"id": r, "a": r, "b": ranks, "kind": "nvlink", "bandwidth_GBps": 1,
              "latency_us": 0, "duplex": True} for r in range(ranks)]
    with open(path, "w") as out:
        json.dump({"format": "collective-studio-topology", "version": 1,
                   "name": f"cpu-host-{ranks}", "nodes": nodes, "links": links}, out)


def catalogue(binary):
    lines = cstudio(binary, "generate", "--list").stdout.splitlines()
    return [line.split()[0] for line in lines if line.strip()]


def calibrate(binary, topology, path, iters):
    # The CPU sweep's default sizes lie beyond the host's last-level cache, as the buffers of
    # these 64 MiB collectives do.
    cstudio(binary, "calibrate", "--backend", "cpu", "-t", topology, "--iters", str(iters),
            "-o", path)
    with open(path) as data:
        return json.load(data)


def measure(binary, xml, iters):
    """The CPU executor's run times of `xml` at 64 MiB (µs), or the failing status."""
    run = json.loads(cstudio(binary, "run", xml, "--backend", "cpu", "--bytes", "64M",
                             "--iters", str(iters), "--warmup", "1", "--json",
                             check=False).stdout or "{}")
    return run.get("timesUs") or run.get("status", "failed")


def cpu_table(binary, workdir, iters, rounds):
    """Part 4. The host this runs on is shared: its memory bandwidth drifts by a factor of two
    over minutes, and a calibration made at one moment describes only that moment. So every
    algorithm is measured right after a calibration of its own, simulated with it, and that
    pairing repeated `rounds` times spread over the whole table; the error reported is the
    median of an algorithm's rounds, its spread beside it."""
    print("## 4. The CPU executor, calibrated\n")
    load = os.getloadavg()
    print(f"Host: {os.cpu_count()} cores, load average {load[0]:.1f} / {load[1]:.1f} / "
          f"{load[2]:.1f} when the table was made.\n")
    topology = os.path.join(workdir, "cpu-host-8.json")
    host_topology(topology, 8)
    algorithms = []
    for algorithm in catalogue(binary):
        xml = os.path.join(workdir, algorithm + ".xml")
        generated = cstudio(binary, "generate", algorithm, "--ranks", "8", "-o", xml,
                            check=False).returncode == 0
        algorithms.append((algorithm, xml if generated else None))
    pairs = {algorithm: [] for algorithm, _ in algorithms}  # (error, measured, simulated)
    hosts = []
    failures = {}
    for r in range(rounds):
        for algorithm, xml in algorithms:
            if xml is None:
                continue
            path = os.path.join(workdir, f"cpu-{algorithm}-{r}.json")
            hosts.append(calibrate(binary, topology, path, iters).get("host_GBps", 0))
            result = measure(binary, xml, iters)
            if isinstance(result, str):
                failures[algorithm] = result
                continue
            measured = min(result)
            simulated = simulate(binary, xml, topology, 64 * MIB, "--calibration",
                                 path)["time_us"]
            pairs[algorithm].append(((simulated - measured) / measured, measured, simulated))
    print(f"{rounds} rounds; in each, every algorithm: a calibration (`cstudio calibrate "
          f"--backend cpu --iters {iters}`), then {iters} timed runs after one warm-up (the "
          "fastest counts), then the simulation with that calibration. The shared host measured "
          f"{min(hosts):.1f} to {max(hosts):.1f} GB/s (median "
          f"{statistics.median(hosts):.1f}) over the table.\n")
    print("| algorithm | measured | simulated | error (median round) | errors of all rounds |")
    print("|---|---|---|---|---|")
    errors = []
    for algorithm, xml in algorithms:
        if xml is None:
            print(f"| {algorithm} | not generated at 8 ranks | | | |")
            continue
        if not pairs[algorithm]:
            print(f"| {algorithm} | {failures.get(algorithm, 'failed')} | | | |")
            continue
        ranked = sorted(pairs[algorithm])
        error, measured, simulated = ranked[(len(ranked) - 1) // 2]
        errors.append(abs(error))
        spread = ", ".join(f"{100 * e:+.0f} %" for e, _, _ in pairs[algorithm])
        print(f"| {algorithm} | {measured:,.0f} µs | {simulated:,.0f} µs | "
              f"{100 * error:+.1f} % | {spread} |")
    if errors:
        within = sum(1 for e in errors if e <= 0.25)
        print(f"\n{within} of {len(errors)} within 25 %; largest error {100 * max(errors):.0f} %.")
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cstudio", default="build/app/cstudio/cstudio")
    parser.add_argument("--cpu", action="store_true", help="also measure the CPU executor")
    parser.add_argument("--iters", type=int, default=3, help="timed CPU runs per point")
    parser.add_argument("--rounds", type=int, default=3,
                        help="part 4: rounds of calibrate-then-measure per algorithm; the median counts")
    parser.add_argument("--only-cpu", action="store_true", help="only part 4")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        if not args.only_cpu:
            closed_forms(args.cstudio)
            xml = nccl_estimates(args.cstudio, workdir)
            published(args.cstudio, xml)
        if args.cpu or args.only_cpu:
            cpu_table(args.cstudio, workdir, args.iters, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
