#!/bin/sh
# Installs what is needed, builds, and starts Collective Studio on a built-in example: a 4-rank
# ring all-reduce from the classic-algorithm catalogue, checked by the full checker, simulated on
# a DGX H100, run on real data by the CPU reference executor, then opened in the desktop editor.
# Without a display (no $DISPLAY or $WAYLAND_DISPLAY) the editor renders the window into
# build/examples/ring-allreduce-4.png instead.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build
mkdir -p build/examples
build/app/cstudio/cstudio generate ring-allreduce --ranks 4 -o build/examples/ring-allreduce-4.xml
build/app/cstudio/cstudio info build/examples/ring-allreduce-4.xml
build/app/cstudio/cstudio validate build/examples/ring-allreduce-4.xml
build/app/cstudio/cstudio simulate build/examples/ring-allreduce-4.xml --topology dgx-h100 --bytes 256M
build/app/cstudio/cstudio run build/examples/ring-allreduce-4.xml --backend cpu --bytes 16M
studio=build/app/collective-studio/collective-studio
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$studio" build/examples/ring-allreduce-4.xml
fi
QT_QPA_PLATFORM=offscreen "$studio" build/examples/ring-allreduce-4.xml \
  --screenshot build/examples/ring-allreduce-4.png
echo "no display: the editor's window was rendered into build/examples/ring-allreduce-4.png" \
  "(with a display, or under xvfb-run, this script opens the editor itself)"
