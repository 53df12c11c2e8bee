#!/usr/bin/env bash
# clang-tidy over every source of compiler/, with the checks of the repository's .clang-tidy. It
# configures TREE with kbc's default options and one compile command per source (a unity build's
# commands name its batches, not the sources), and compiles nothing there: no generated source is
# checked. Any finding fails it. Prints the files checked and the time taken.
#   tests/tidy/run.sh [TREE]   (default build-tidy; after .ci/setup --tidy, which installs clang-tidy)
set -euo pipefail
cd "$(dirname "$0")/../.."
tree=${1:-build-tidy}
cmake -S . -B "$tree" -G Ninja -DCMAKE_UNITY_BUILD=OFF >/dev/null
runner=$(command -v run-clang-tidy || command -v run-clang-tidy-14) ||
  { echo "run-clang-tidy not found: .ci/setup --tidy installs it" >&2; exit 2; }
start=$SECONDS
files=$(git ls-files 'compiler/*.cc' | wc -l)
# -quiet prints only findings; the pattern keeps the tests' and generated files out.
if ! "$runner" -p "$tree" -quiet -j "$(nproc)" "$PWD/compiler/.*\.cc\$" \
    >"$tree/clang-tidy.log" 2>&1; then
  grep -E 'error:|warning:' "$tree/clang-tidy.log" | sort -u >&2 || cat "$tree/clang-tidy.log" >&2
  echo "clang-tidy: findings in $files files ($((SECONDS - start)) s); full log: $tree/clang-tidy.log" >&2
  exit 1
fi
echo "clang-tidy: $files files clean ($((SECONDS - start)) s)"
