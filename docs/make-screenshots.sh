#!/bin/sh
# Makes the user guide's pictures (docs/images/*.png) with `collective-studio --screenshot`, from
# documents the program's own generator writes (no hand-made or third-party files). Run it after
# building (build/ by default): `docs/make-screenshots.sh [BUILD_DIR]`. Needs python3 and cmake
# for the two small edits that turn a generated ring into "half drawn" and "deadlocking" variants.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
cli="$build/app/cstudio/cstudio"
studio="$build/app/collective-studio/collective-studio"
out=docs/images
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
# Screenshots must not touch the user's library or autosave folder.
export CSTUDIO_LIBRARY="$work/library.sqlite" CSTUDIO_AUTOSAVE_DIR="$work/autosave"
shot() { "$studio" --size 1400x860 --screenshot "$@"; }

"$cli" generate ring-allreduce --ranks 4 -o "$work/ring.json" >/dev/null
"$cli" generate ring-allreduce --ranks 4 -o "$work/ring.xml" >/dev/null

# 1. Drawing a ring all-reduce: rank 0's six transfers drawn, then replicated to every rank.
python3 - "$work/ring.json" "$work/ring-rank0.json" <<'PY'
import json, sys
design = json.load(open(sys.argv[1]))
design["schedule"]["transfers"] = [t for t in design["schedule"]["transfers"] if t["src"]["rank"] == 0]
json.dump(design, open(sys.argv[2], "w"), indent=1)
PY
shot "$out/guide-ring-rank0.png" --view timeline "$work/ring-rank0.json"
shot "$out/guide-ring-done.png" --view timeline "$work/ring.json"
shot "$out/guide-topology.png" --view topology
# The wrong result activated in the Problems panel, at 1280×800: its first wrong cell selected.
"$studio" --size 1280x800 --screenshot "$out/guide-problems.png" --view timeline \
  --activate-problem 0 "$work/ring-rank0.json"
# The New dialog filled in as the guide says, and a link in the Inspector at 1280×800: the tests
# that check them save what they checked.
CSTUDIO_GUIDE_SHOTS="$PWD/$out" "$build/tests/tst_newdocument" guideExampleHasOneRowPerInputChunk >/dev/null
CSTUDIO_GUIDE_SHOTS="$PWD/$out" "$build/tests/tst_inspectorfollows" linkEditorFitsTheDock >/dev/null
# Rank 0's arrows copied and pasted on rank 2 through the Edit menu's actions.
CSTUDIO_GUIDE_SHOTS="$PWD/$out" "$build/tests/tst_windowclipboard" guidePasteOfRankZeroOnRankTwo \
  >/dev/null

# 2. Fixing a deadlock: every rank receives before it sends (its first two instructions swapped).
# The same edit makes the installed example (packaging/examples.cmake).
cmake -DIN="$work/ring.xml" -DOUT="$work/ring-deadlock.xml" -P packaging/deadlockexample.cmake
shot "$out/guide-deadlock.png" --view program --activate-problem 0 "$work/ring-deadlock.xml"

# 3. Exporting for a runtime.
shot "$out/guide-export.png" --view timeline --dialog export "$work/ring.xml"
# The question a Library topology asks before it replaces the start document's 4-GPU ring.
shot "$out/guide-replace-topology.png" --view topology --dialog replace-topology
# 4. Replaying a run: an 8-rank ring simulated on a DGX H100, late in its last slice. The design
#    document carries the topology, so the replay routes messages over it.
"$cli" generate ring-allreduce --ranks 8 -o "$work/ring8.json" >/dev/null
"$cli" topology show dgx-h100 --json >"$work/dgx-h100.json"
python3 - "$work/ring8.json" "$work/dgx-h100.json" <<'PY'
import json, sys
design = json.load(open(sys.argv[1]))
design["topology"] = json.load(open(sys.argv[2]))
json.dump(design, open(sys.argv[1], "w"), indent=1)
PY
"$cli" simulate "$work/ring8.json" -b 64M --trace "$work/ring8-trace.json" >/dev/null
shot "$out/guide-replay.png" --view playback --size 1400x860 --trace "$work/ring8-trace.json" \
  --at 455 "$work/ring8.json"
# The same 8-rank ring fitted to a 1400×900 window (View › Fit Timeline to Window).
"$studio" --size 1400x900 --screenshot "$out/guide-timeline-fit.png" --view timeline --fit \
  "$work/ring8.json"
# A large program: a 128-rank ring all-reduce on 16 DGX H100 nodes opens grouped by node.
"$cli" generate ring-allreduce --ranks 128 --topology fabric-h100-16x8 -o "$work/ring128.json" \
  >/dev/null
"$studio" --size 1400x900 --screenshot "$out/guide-large-program.png" --view timeline \
  "$work/ring128.json"
# The same program's topology: 16 nodes folded into one box each, wired to their rail leaves.
"$studio" --size 1400x900 --screenshot "$out/guide-large-topology.png" --view topology \
  "$work/ring128.json"

# 5. Why is my all-reduce slower than the ring? The double binary tree against the ring, 8 ranks
#    on a DGX H100 at 64 MiB: the simulated run replayed mid-run, its link utilisation, and the
#    simulated run against the CPU executor's measured one.
"$cli" generate double-binary-tree-allreduce --ranks 8 -o "$work/tree8.json" >/dev/null
python3 - "$work/tree8.json" "$work/dgx-h100.json" <<'PY'
import json, sys
design = json.load(open(sys.argv[1]))
design["topology"] = json.load(open(sys.argv[2]))
json.dump(design, open(sys.argv[1], "w"), indent=1)
PY
"$cli" simulate "$work/tree8.json" -b 64M --trace "$work/tree8-sim.json" >/dev/null
"$cli" run "$work/tree8.json" --backend cpu --bytes 64M --iters 1 --warmup 0 \
  --trace "$work/tree8-cpu.json" >/dev/null
shot "$out/guide-why-playback.png" --view playback --trace "$work/tree8-sim.json" --at 300 \
  "$work/tree8.json"
shot "$out/guide-why-links.png" --view links --trace "$work/tree8-sim.json" --at 300 \
  "$work/tree8.json"
shot "$out/guide-why-compare.png" --view compare --trace "$work/tree8-sim.json" \
  --compare "$work/tree8-cpu.json" "$work/tree8.json"
shot "$out/guide-why-sweep.png" --dialog sweep --sweep-sizes 4K:256M --sweep-backends simulate \
  --sweep-also "$work/tree8.json" "$work/ring8.json"

# 6. Exporting an animation for slides: the dialog, and one frame (step 7 finished) of the 8-rank
#    ring's export at 1280x720, topology and timeline side by side, on the ring-8 preset.
shot "$out/teaching-export-dialog.png" --size 1200x760 --dialog animation "$work/ring8.json"
"$studio" "$work/ring8.json" --topology ring-8 --export-animation "$work/frames/" --fps 1 \
  --size 1280x720 >/dev/null
cp "$work/frames/frame-0008.png" "$out/teaching-export-frame.png"

# 7. Teaching mode: the gallery, the built-in ring in teaching mode two steps in (the Narration,
#    Predict and Break it tabs), and presentation mode in its light and dark palettes.
shot "$out/teaching-gallery.png" --dialog gallery
shot "$out/teaching-mode.png" --dialog teaching --view timeline
shot "$out/teaching-predict.png" --dialog teaching-predict --view timeline
shot "$out/teaching-break-it.png" --dialog teaching-break-it --view timeline
"$studio" --size 1600x900 --screenshot "$out/teaching-presentation-light.png" --dialog presentation
"$studio" --size 1600x900 --screenshot "$out/teaching-presentation-dark.png" \
  --dialog presentation-dark
echo "wrote $(ls "$out"/guide-*.png "$out"/teaching-*.png | wc -l) pictures to $out"
