#!/bin/sh
# The package stage of scripts/test.sh (README.md, "Packaging"): builds the Debian package
# (scripts/package.sh), checks it with lintian (no errors) and against the 15 MB goal, installs it
# with apt-get, then uses the installed files only (run from an empty folder, programs by their
# /usr paths): cstudio --version, cstudio validate on an installed example, an offscreen
# collective-studio --screenshot, man -w, the shell completions, desktop-file-validate,
# appstreamcli validate --no-net and the MIME database; finally purges the package and checks that
# no file it listed is left. Needs root or passwordless sudo (scripts/test.sh skips it otherwise).
set -eu
cd "$(dirname "$0")/.."
checkout=$PWD
as_root=""
[ "$(id -u)" = 0 ] || as_root="sudo -n"
started=$(date +%s)
fail() {
  echo "package stage: $*" >&2
  exit 1
}

debs=$(scripts/package.sh)
deb=$(printf '%s\n' "$debs" | tail -n 1)
# The main package never depends on CUDA or NCCL; the GPU package (built where nvcc is found)
# depends on both and on the main package of its own version.
depends=$(dpkg-deb -f "$deb" Depends)
! printf '%s' "$depends" | grep -qi 'cuda\|nccl' || fail "the main package depends on CUDA: $depends"
gpu=$(printf '%s\n' "$debs" | grep '/collective-studio-gpu_' || true)
if [ -n "$gpu" ]; then
  gpu_depends=$(dpkg-deb -f "$gpu" Depends)
  echo "GPU package: $gpu, Depends: $gpu_depends"
  for needed in cudart nccl "collective-studio (="; do
    printf '%s' "$gpu_depends" | grep -qF "$needed" || fail "the GPU package does not depend on $needed"
  done
  dpkg-deb -c "$gpu" | grep -q 'collective-studio/backends/cs-backend-cuda.so$' ||
    fail "the GPU package holds no CUDA module"
  lintian --fail-on error "$gpu" || fail "lintian reports errors in the GPU package"
fi
size=$(stat -c %s "$deb")
echo "package: $deb, $size bytes ($((size / 1024)) KiB; goal 15 MB)"
[ "$size" -le $((15 * 1024 * 1024)) ] || fail "the package is larger than 15 MB"
lintian --fail-on error "$deb" || fail "lintian reports errors"

export DEBIAN_FRONTEND=noninteractive
if dpkg-query -W -f='${Status}' collective-studio 2>/dev/null | grep -q "install ok installed"; then
  $as_root apt-get purge -y -qq collective-studio >/dev/null
fi
$as_root apt-get install -y -qq "$checkout/$deb" >/dev/null 2>&1 ||
  $as_root apt-get install -y "$checkout/$deb" || fail "apt-get install failed"
installed=$(mktemp)
dpkg -L collective-studio >"$installed"

# From the installed paths only: an empty folder, nothing of the checkout on the way.
work=$(mktemp -d)
trap 'rm -rf "$work" "$installed"' EXIT
cd "$work"
doc=/usr/share/doc/collective-studio
/usr/bin/cstudio --version | grep -qx "cstudio [0-9][0-9.]*" || fail "cstudio --version"
/usr/bin/cstudio --version | grep -qx "  cpu: available (built in)" || fail "--version lists no cpu"
/usr/bin/cstudio --version
/usr/bin/cstudio validate "$doc/examples/ring-allreduce-8.xml" || fail "validate on an example"
QT_QPA_PLATFORM=offscreen /usr/bin/collective-studio "$doc/examples/ring-allreduce-4.csdesign.json" \
  --screenshot "$work/studio.png" --size 800x600 2>/dev/null || fail "collective-studio --screenshot"
[ -s "$work/studio.png" ] || fail "the screenshot is empty"
man -w cstudio && man -w collective-studio || fail "man -w"
bash -c '. /usr/share/bash-completion/completions/cstudio && complete -p cstudio' ||
  fail "the bash completion does not register"
zsh -n /usr/share/zsh/vendor-completions/_cstudio || fail "the zsh completion"
fish -c 'complete -C "cstudio libr"' | grep -q '^library' || fail "the fish completion"
desktop-file-validate /usr/share/applications/collective-studio.desktop || fail "desktop file"
appstreamcli validate --no-net /usr/share/metainfo/*collective_studio*.metainfo.xml ||
  fail "AppStream metainfo"
grep -q 'collective-studio-design+json:\*\.csdesign\.json' /usr/share/mime/globs2 ||
  fail "the MIME type is not in the installed MIME database"

$as_root apt-get purge -y -qq collective-studio >/dev/null
left=0
while read -r path; do
  # Folders other packages share stay (/usr/share/man/man1); every file must be gone.
  if [ -e "$path" ] && [ ! -d "$path" ]; then
    echo "left behind: $path" >&2
    left=1
  fi
done <"$installed"
[ "$left" = 0 ] || fail "the purge left files behind"
[ ! -d "$doc" ] || fail "the purge left $doc"
! grep -q 'csdesign' /usr/share/mime/globs2 || fail "the MIME type outlived the purge"
echo "package stage: built, installed, checked and purged in $(($(date +%s) - started)) s"
