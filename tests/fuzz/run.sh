#!/usr/bin/env bash
# Runs each libFuzzer target (clang-15, ASan + UBSan) on a copy of its seed corpus for SECONDS
# (default 60), one target per core at a time, then prints, per target, the executions, the
# coverage (edges) and the corpus size it reached. A crash, leak or sanitizer report stops its
# target with the reproducer in BUILD_DIR/crashes/<target>/, and the run exits non-zero.
# BUILD_DIR (default build-fuzz) is configured and built first when it is not a tree configured
# with -DKBC_FUZZ=ON already (CI passes its sanitizer tree, which builds the tests and the fuzz
# targets together).
# Usage: tests/fuzz/run.sh [SECONDS] [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
build=${2:-build-fuzz}
targets=(entry suppressions js_regex bundle search_tokens mcp last_lint)
if ! grep -qx 'KBC_FUZZ:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKBC_FUZZ=ON \
    -DKBC_TESTS=OFF -DCMAKE_CXX_COMPILER=clang++-15 -DCMAKE_C_COMPILER=clang-15 >/dev/null
fi
cmake --build "$build" --target "${targets[@]/#/fuzz_}" >/dev/null
# One target on its own: its status in $build/fuzz-TARGET.status (none when it could not start,
# which counts as a failure).
fuzz() {
  local target=$1 work=$build/corpus/$1 crashes=$build/crashes/$1/
  rm -f "$build/fuzz-$target.status"
  rm -rf "$work" && mkdir -p "$work" "$crashes" && cp tests/fuzz/corpus/"$target"/* "$work"/
  local status=0
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$build/fuzz_$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$crashes" "$work" \
    >"$build/fuzz-$target.log" 2>&1 || status=$?
  echo "$status" >"$build/fuzz-$target.status"
}
# As many targets at once as there are cores: each gets SECONDS of one core, as it would alone.
for target in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= $(nproc))); do wait -n || true; done
  fuzz "$target" &
done
wait
printf '%-14s %12s %8s %8s %8s\n' target executions exec/s edges corpus
status=0
for target in "${targets[@]}"; do
  work=$build/corpus/$target crashes=$build/crashes/$target/ log=$build/fuzz-$target.log
  if [ "$(cat "$build/fuzz-$target.status" 2>/dev/null)" != 0 ]; then
    echo "fuzz_$target failed: see $log and $crashes"
    tail -40 "$log"
    status=1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  edges=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo 0)
  printf '%-14s %12s %8s %8s %8s\n' "$target" "$runs" "$rate" "$edges" "$(ls "$work" | wc -l)"
done
exit $status
