#!/usr/bin/env bash
# clang-tidy over every source of compiler/, with the checks of the repository's .clang-tidy and
# BUILD_DIR's compile commands (a configured and built tree: the generated sources must exist).
# Any finding fails it. Prints the files checked and the time taken.
#   tests/tidy/run.sh [BUILD_DIR]   (after .ci/setup --tidy, which installs clang-tidy)
set -euo pipefail
cd "$(dirname "$0")/../.."
build_dir=${1:-build}
[[ -f $build_dir/compile_commands.json ]] || { echo "no $build_dir/compile_commands.json" >&2; exit 2; }
runner=$(command -v run-clang-tidy || command -v run-clang-tidy-14) ||
  { echo "run-clang-tidy not found: .ci/setup --tidy installs it" >&2; exit 2; }
start=$SECONDS
files=$(git ls-files 'compiler/*.cc' | wc -l)
# -quiet prints only findings; the pattern keeps the tests' and generated files out.
if ! "$runner" -p "$build_dir" -quiet -j "$(nproc)" "$PWD/compiler/.*\.cc\$" \
    >"$build_dir/clang-tidy.log" 2>&1; then
  grep -E 'error:|warning:' "$build_dir/clang-tidy.log" | sort -u >&2 || cat "$build_dir/clang-tidy.log" >&2
  echo "clang-tidy: findings in $files files ($((SECONDS - start)) s); full log: $build_dir/clang-tidy.log" >&2
  exit 1
fi
echo "clang-tidy: $files files clean ($((SECONDS - start)) s)"
