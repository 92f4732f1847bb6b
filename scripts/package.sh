#!/bin/sh
# Builds the Debian packages into BUILD/packages (default BUILD: build-package):
#   scripts/package.sh [BUILD]
# The build is configured for packaging: RelWithDebInfo like the test build (so ccache shares its
# objects; CPack strips the installed programs) and no unit tests. Where nvcc is found it also
# builds the CUDA and NCCL backend modules, packed as collective-studio-gpu; the programs never
# link CUDA or NCCL (they load the modules at run time), so the main package runs on any machine,
# with or without CUDA (packaging/cpack.cmake). The programs are linked with full RELRO (bind now),
# as Debian's hardening asks; compile flags stay those of the test build so that ccache serves its
# objects.
# Prints the path of each package it wrote, the main package (collective-studio_*.deb) last.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build-package}
jobs=$(nproc 2>/dev/null || echo 2)

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCSTUDIO_WERROR=ON \
  -DCSTUDIO_CUDA=ON -DCSTUDIO_BUILD_TESTS=OFF -DCMAKE_EXE_LINKER_FLAGS="-Wl,-z,relro,-z,now" \
  -DCMAKE_MODULE_LINKER_FLAGS="-Wl,-z,relro,-z,now" \
  >/dev/null
cmake --build "$build" -j "$jobs"
rm -f "$build"/packages/*.deb
(cd "$build" && cpack -G DEB >/dev/null)
ls "$build"/packages/*.deb | grep -v '/collective-studio_' || true
ls "$build"/packages/collective-studio_*.deb
