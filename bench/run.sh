#!/usr/bin/env bash
# Benchmark: lints and builds a knowledge base and prints the median of 5 runs of each, the
# peak memory, and what kbc lint reports (counts per rule).
# Usage: bench/run.sh [KB_ROOT]   (default: ../shared/corpus/deadends, else a generated one)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5
kbc=build/kbc
[ -x "$kbc" ] || .ci/setup

root="${1:-}"
if [ -z "$root" ]; then
  if [ -d ../shared/corpus/deadends/entries ]; then
    root=../shared/corpus/deadends
  else
    root=$(mktemp -d)
    bench/generate.sh "$root" 2522
  fi
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Prints the median wall time in seconds of `runs` runs of the command.
median() {
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}

peak_kb() {
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1
  else
    echo "n/a (install the 'time' package)"
  fi
}

entries=$(find "$root/entries" -name '*.yaml' | wc -l)
echo "knowledge base: $root ($entries entries, $(du -sh "$root/entries" | cut -f1))"
echo "kbc lint          median of $runs: $(median "$kbc" lint --root "$root") s"
echo "kbc build         median of $runs: $(median "$kbc" build --keep-going --root "$root" --out "$out/dist") s"
echo "peak memory lint:  $(peak_kb "$kbc" lint --root "$root") KB"
echo "peak memory build: $(peak_kb "$kbc" build --keep-going --root "$root" --out "$out/dist") KB"
echo "output files: $(find "$out/dist" -type f | wc -l)"
echo
echo "kbc lint findings per rule:"
"$kbc" lint --root "$root" | grep -oE '(error|warning): .*\[[a-z0-9-]+\]$' |
  sed -E 's/^(error|warning): .*\[([a-z0-9-]+)\]$/\2 (\1)/' | sort | uniq -c | sort -rn
"$kbc" lint --root "$root" | tail -1
