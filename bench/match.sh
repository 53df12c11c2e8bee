#!/usr/bin/env bash
# Benchmark of kbc match (issue 5): load time, self-retrieval (is each entry ranked first for its
# own signature and samples?), per-query latency after load, and throughput on a generated log of
# --log-mb MB (default 100), in process; then the real binary on that log, median of 3. The log
# is scanned as kbc match reads a log, and with --all-lines (every line meets every entry). Last,
# the real binary on a log three times as long that begins with it.
# Usage: bench/match.sh [KB_ROOT] [match_bench options]
#   (default root: ../shared/corpus/deadends, else a generated knowledge base)
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-bench
root="${1:-}"
[ $# -gt 0 ] && shift
if [ -z "$root" ]; then
  if [ -d ../shared/corpus/deadends/entries ]; then
    root=../shared/corpus/deadends
  else
    root=$(mktemp -d)
    bench/generate.sh "$root" 2522
  fi
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKBC_BENCH=ON >/dev/null
cmake --build "$build" --target kbc match_bench >/dev/null

source bench/machine.sh
machine_start
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$root/entries" "$work/entries"  # never write into the measured knowledge base
[ -f "$root/kbc.yaml" ] && cp "$root/kbc.yaml" "$work/"
# Entries with errors (the corpus has 212) are left out of the bundle, kept in the YAML loads.
"$build/kbc" build --keep-going --root "$work" --out "$work/out" >/dev/null 2>&1 || true

"$build/match_bench" "$work" --bundle "$work/out/kb.json" --log "$work/big.log" \
  --long-log "$work/long.log" "$@"

# Seconds that the real binary takes on the log $2, with the flags $1.
whole_process() {
  local start end
  start=$(date +%s.%N)
  "$build/kbc" match $1 --bundle "$work/out/kb.json" --top 5 - <"$2" >/dev/null || true
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }'
}
median() { printf '%s\n' "$@" | sort -n | sed -n 2p; }

size=$(stat -c %s "$work/big.log")
for flags in "" "--all-lines"; do
  times=()
  for _ in 1 2 3; do times+=("$(whole_process "$flags" "$work/big.log")"); done
  awk -v s="$(median "${times[@]}")" -v b="$size" -v f="${flags:+ $flags}" \
    'BEGIN { printf "kbc match%s --bundle on the log (whole process, median of 3): %.3f s = %.1f MB/s\n", f, s, b / 1e6 / s }'
done

# The long log begins with the log: what it takes beyond it is the rate of the scan once the
# bundle is loaded, the regexes compiled and RE2's first-use work done, as on any long log.
# The two are timed in turn, round by round, so that each difference comes from one minute.
long_size=$(stat -c %s "$work/long.log")
long=() beyond=()
for _ in 1 2 3; do
  short=$(whole_process "" "$work/big.log")
  long+=("$(whole_process "" "$work/long.log")")
  beyond+=("$(awk -v a="$short" -v b="${long[-1]}" 'BEGIN { printf "%.3f", b - a }')")
done
awk -v s="$(median "${long[@]}")" -v b="$long_size" \
  'BEGIN { printf "kbc match --bundle on the long log (whole process, median of 3): %.3f s = %.1f MB/s\n", s, b / 1e6 / s }'
awk -v s="$(median "${beyond[@]}")" -v b="$((long_size - size))" \
  'BEGIN { printf "  its %.0f MB beyond the log (median of 3 paired differences): %.3f s = %.1f MB/s\n", b / 1e6, s, b / 1e6 / s }'

# A one-shot match of one error message, the way a person or an editor runs it.
python3 bench/oneshot.py "$build/kbc" "$work/out/kb.json"
machine_report
