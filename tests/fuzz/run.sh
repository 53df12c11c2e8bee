#!/usr/bin/env bash
# Builds the libFuzzer targets (clang-15, ASan + UBSan) into build-fuzz and runs each on a copy
# of its seed corpus for SECONDS (default 60), then prints, per target, the executions, the
# coverage (edges) and the corpus size it reached. A crash, leak or sanitizer report stops the
# run with its reproducer in build-fuzz/crashes/<target>/ and a non-zero exit.
# Usage: tests/fuzz/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
targets=(entry suppressions js_regex bundle search_tokens mcp)
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKBC_FUZZ=ON \
  -DKBC_TESTS=OFF -DCMAKE_CXX_COMPILER=clang++-15 -DCMAKE_C_COMPILER=clang-15 >/dev/null
cmake --build build-fuzz --target "${targets[@]/#/fuzz_}" >/dev/null
printf '%-14s %12s %8s %8s %8s\n' target executions exec/s edges corpus
status=0
for target in "${targets[@]}"; do
  work=build-fuzz/corpus/$target crashes=build-fuzz/crashes/$target/
  rm -rf "$work" && mkdir -p "$work" "$crashes" && cp tests/fuzz/corpus/"$target"/* "$work"/
  log=build-fuzz/fuzz-$target.log
  if ! ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "build-fuzz/fuzz_$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$crashes" "$work" >"$log" 2>&1; then
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
