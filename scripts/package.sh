#!/bin/sh
# Builds the Debian packages into BUILD/packages (default BUILD: build-package):
#   scripts/package.sh [BUILD]
# The build is configured for packaging: RelWithDebInfo like the test build (so ccache shares its
# objects; CPack strips the installed programs), no unit tests, and without the CUDA and NCCL
# executors, which are linked into the programs until they become run-time modules: the main
# package then runs on any machine, with or without CUDA (packaging/cpack.cmake). The programs are
# linked with full RELRO (bind now), as Debian's hardening asks; compile flags stay those of the
# test build so that ccache serves its objects.
# Prints the path of each package it wrote.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build-package}
jobs=$(nproc 2>/dev/null || echo 2)

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCSTUDIO_WERROR=ON \
  -DCSTUDIO_CUDA=OFF -DCSTUDIO_BUILD_TESTS=OFF -DCMAKE_EXE_LINKER_FLAGS="-Wl,-z,relro,-z,now" \
  >/dev/null
cmake --build "$build" -j "$jobs"
rm -f "$build"/packages/*.deb
(cd "$build" && cpack -G DEB >/dev/null)
ls "$build"/packages/*.deb
