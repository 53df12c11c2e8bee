#!/usr/bin/env bash
# What a new user waits for: the README's two commands in a fresh clone of this checkout's HEAD,
# and what a developer waits for after editing one lint rule. Prints, with the targets:
#   - the first command (.ci/setup && build/kbc build): wall time, of which apt-get, and the size
#     of the build folder after it;
#   - the test command (.ci/setup --browser && ctest ...) run next: wall time, build folder size;
#   - an incremental rebuild after touching one .cc file of compiler/lint/rules/ (median of 3).
#
#   bench/first_run.sh [--remove-packages | --fresh-debian]
#
# --fresh-debian runs it all in a minimal Debian bookworm that debootstrap makes (as root; needs
# Debian's mirror and the npm registry): every package is downloaded and installed, as on a new
# machine. --remove-packages instead first removes, on this machine, the Debian packages
# .ci/setup installs (not the browser's), so that the first command's time includes installing
# them; apt-get may still find them in its cache. Without either, installed packages are not
# timed.
set -euo pipefail
source_dir=$(cd "$(dirname "$0")/.." && pwd)
remove=0
[ "${1:-}" = "--remove-packages" ] && remove=1

if [ "${1:-}" = "--fresh-debian" ]; then
  root=$(mktemp -d /tmp/kbc-fresh-debian-XXXXXX)
  chmod 755 "$root"
  trap 'umount "$root/proc" "$root/dev/pts" "$root/dev" 2>/dev/null || true; rm -rf --one-file-system "$root"' EXIT
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
  chroot "$root" bash -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends git ca-certificates >/dev/null'
  mount -t proc proc "$root/proc"
  mount --bind /dev "$root/dev"  # terminals (/dev/pts) and shared memory, as a machine has
  mount --bind /dev/pts "$root/dev/pts"
  git clone -q "$source_dir" "$root/kbc"
  echo "in a minimal Debian bookworm made by debootstrap (apt-get installs git first, then the rest):"
  # A network that inspects TLS has its authority in this machine's bundle: npm trusts it too.
  cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/machine-ca.crt"
  chroot "$root" env NODE_EXTRA_CA_CERTS=/etc/ssl/machine-ca.crt /kbc/bench/first_run.sh --inside
  exit
fi

work=$(mktemp -d /tmp/kbc-first-run-XXXXXX)
trap 'rm -rf "$work"' EXIT
if [ "${1:-}" = "--inside" ]; then
  cd "$source_dir"
else
  git clone -q "$source_dir" "$work/kbc"
  cd "$work/kbc"
fi

if ((remove)); then
  packages=$(.ci/setup --tests --print-packages | grep -vx git | tr '\n' ' ')  # git: cloned with
  echo "removing: $packages"
  # shellcheck disable=SC2086
  apt-get remove -y -qq $packages >/dev/null 2>&1 || true
fi

ms() { echo $(($(date +%s%N) / 1000000)); }
elapsed() { echo $((($(ms) - $1 + 500) / 1000)); }  # whole seconds since a ms() reading
size_mb() { du -sm "$1" | cut -f1; }

start=$(ms)
.ci/setup >"$work/setup.log" 2>&1 || { echo "set-up failed:" && tail -n 30 "$work/setup.log" && exit 1; }
build/kbc build >/dev/null 2>&1
first=$(elapsed "$start")
apt=$(grep -c '^installing:' "$work/setup.log" || true)
echo "first command (.ci/setup && build/kbc build): ${first} s wall (target: 240 s including apt-get; apt-get ran: $apt)"
echo "build folder after it: $(size_mb build) MB (target: 250 MB)"

start=$(ms)
.ci/setup --browser >"$work/setup-tests.log" 2>&1 || {
  echo "the test command's set-up failed:" && tail -n 30 "$work/setup-tests.log" && exit 1
}
built=$(elapsed "$start")
ctest --test-dir build -j2 --output-on-failure >"$work/ctest.log" 2>&1 ||
  { echo "some tests failed:" && grep -A12 'tests failed out of' "$work/ctest.log" &&
    grep -B2 -A25 '\*\*\*Failed' "$work/ctest.log" | head -n 200; }
second=$(elapsed "$start")
echo "test command (.ci/setup --browser && ctest): ${second} s wall, of which set-up and build ${built} s (target: 480 s)"
echo "build folder after it: $(size_mb build) MB (target: 250 MB)"

times=()
for _ in 1 2 3; do
  touch compiler/lint/rules/xref.cc
  start=$(ms)
  cmake --build build >/dev/null
  times+=("$(($(ms) - start))")
done
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 2p)
echo "incremental rebuild after touching compiler/lint/rules/xref.cc: $((median / 1000)).$((median % 1000 / 100)) s, median of 3 (target: 20 s)"
