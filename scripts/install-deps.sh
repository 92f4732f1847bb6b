#!/bin/sh
# Installs the Debian 12 packages Collective Studio builds and tests with (see README.md,
# "Dependencies"). Safe to run again: apt-get skips what is already there.
set -eu

packages="build-essential cmake ninja-build ccache pkg-config git
  libpugixml-dev nlohmann-json3-dev rapidjson-dev libcli11-dev libsqlite3-dev zlib1g-dev libgraphviz-dev
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev qt6-charts-dev libqt6opengl6-dev fonts-dejavu-core
  libgif-dev libavcodec-dev libavformat-dev libswscale-dev libavutil-dev
  clang libclang-rt-14-dev clang-format clang-tidy
  librsvg2-bin help2man dpkg-dev lintian desktop-file-utils appstream shared-mime-info man-db
  bash-completion zsh fish"

missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

as_root=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: run as root or install sudo" >&2; exit 1; }
  as_root=sudo
fi
echo "install-deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$as_root apt-get update -qq
# shellcheck disable=SC2086
$as_root apt-get install -y -qq --no-install-recommends $missing >/dev/null
