#!/usr/bin/env bash
# kbc verify on the shipped knowledge base (or KB_ROOT), as CI runs it: every recipe, in a copy
# (verify.lock and --capture would change the checkout). Prints the median of RUNS whole runs,
# the target (5 minutes on the 2-core machine), the counts per status and each recipe's median.
#
#   bench/verify.sh [--runs N] [--kbc PATH] [KB_ROOT]
set -euo pipefail
source_dir=$(cd "$(dirname "$0")/.." && pwd)
runs=3 kbc="$source_dir/build/kbc"
while [[ "${1:-}" == --* ]]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --kbc) kbc=$2; shift 2 ;;
    *) echo "bench/verify.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
root=${1:-$source_dir}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$source_dir/bench/machine.sh" 2>/dev/null || true
for ((i = 1; i <= runs; i++)); do
  rm -rf "$work/kb" && mkdir -p "$work/kb"
  cp -r "$root/entries" "$work/kb/"
  [ -f "$root/verify.lock" ] && cp "$root/verify.lock" "$work/kb/"
  start=$(date +%s.%N)
  # Debian's python3 (with python3-torch) first, as on a machine set up by .ci/setup --tests.
  PATH=/usr/bin:/bin:$PATH "$kbc" verify --format json --root "$work/kb" > "$work/run-$i.json" || true
  end=$(date +%s.%N)
  echo "$start $end" > "$work/time-$i"
done
python3 - "$work" "$runs" <<'PY'
import json, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
walls, per = [], {}
for i in range(1, runs + 1):
    start, end = map(float, open(f"{work}/time-{i}").read().split())
    walls.append(end - start)
    doc = json.load(open(f"{work}/run-{i}.json"))
    for r in doc["results"]:
        per.setdefault((r["status"], r["id"]), []).append(r["seconds"])
summary = doc["summary"]
wall = statistics.median(walls)
print(f"kbc verify, {runs} runs: median {wall:.1f} s (runs: {', '.join(f'{w:.1f}' for w in walls)}); "
      f"target 300 s: {'met' if wall <= 300 else 'NOT met'}")
print(f"last run: {summary['reproduced']} reproduced, {summary['failed']} failed, "
      f"{summary['skipped']} skipped, {summary['stale']} stale")
for (status, id_), seconds in sorted(per.items(), key=lambda kv: -statistics.median(kv[1])):
    if status == "skipped": continue
    print(f"  {statistics.median(seconds):5.2f} s  {status:10} {id_}")
PY
