#!/usr/bin/env bash
# clang-tidy over every source of compiler/, with the checks of the repository's .clang-tidy. It
# configures TREE in unity batches (the batches .ci/setup compiles) and compiles nothing there:
# clang-tidy reads each batch, so the system headers are parsed and matched once per batch, not
# once per source (three times faster), and findings in the batch's sources are reported, since
# .clang-tidy's header filter takes compiler/. The generated sources are not in a batch and are
# not checked. Any finding fails it. Prints the batches and files checked and the time taken.
#   tests/tidy/run.sh [TREE]   (default build-tidy; after .ci/setup --tidy, which installs clang-tidy)
set -euo pipefail
cd "$(dirname "$0")/../.."
tree=${1:-build-tidy}
cmake -S . -B "$tree" -G Ninja -DCMAKE_UNITY_BUILD=ON >/dev/null
runner=$(command -v run-clang-tidy || command -v run-clang-tidy-14) ||
  { echo "run-clang-tidy not found: .ci/setup --tidy installs it" >&2; exit 2; }
start=$SECONDS
files=$(git ls-files 'compiler/*.cc' | wc -l)
batches=("$tree"/CMakeFiles/kbc_core.dir/Unity/*.cxx "$tree"/CMakeFiles/kbc.dir/Unity/*.cxx)
included=$(cat "${batches[@]}" | grep -c "^#include \"$PWD/compiler/") || true
# Every source of compiler/ is in a batch: one left out would go unchecked.
if ((included != files)); then
  echo "clang-tidy: the batches include $included sources of compiler/, git has $files" >&2
  exit 1
fi
# -quiet prints only findings; the pattern takes kbc's batches (the tests' are left out). The
# configuration is named, since the tree may lie outside the sources.
if ! "$runner" -p "$tree" -quiet -j "$(nproc)" -config="$(cat .clang-tidy)" \
    "/CMakeFiles/kbc(_core)?\.dir/Unity/unity_[0-9]+_cxx\.cxx\$" >"$tree/clang-tidy.log" 2>&1; then
  grep -E 'error:|warning:' "$tree/clang-tidy.log" | sort -u >&2 || cat "$tree/clang-tidy.log" >&2
  echo "clang-tidy: findings in $files files ($((SECONDS - start)) s); full log: $tree/clang-tidy.log" >&2
  exit 1
fi
echo "clang-tidy: $files files in ${#batches[@]} batches clean ($((SECONDS - start)) s)"
