#!/usr/bin/env bash
# The browser tests as CTest runs them: build the site of the shipped entries and of the
# untranslated and backtracking fixtures, then drive them in Chromium (the paste box against
# this kbc's match).
#   tests/browser/ctest.sh KBC SOURCE_DIR WORK_DIR NODE SCREENSHOT_DIR
set -euo pipefail
kbc=$1 source=$2 work=$3 node=$4 screenshots=$5
mkdir -p "$work" "$screenshots"
"$kbc" build --root "$source" --out "$work/main" 2>/dev/null
"$kbc" build --root "$source/tests/browser/fixtures" --out "$work/untranslated" 2>/dev/null
"$kbc" build --root "$source/tests/browser/fixtures-backtracking" --out "$work/backtracking" 2>/dev/null
exec "$node" "$source/tests/browser/run.mjs" --site "$work/main/site" \
  --site-untranslated "$work/untranslated/site" --site-backtracking "$work/backtracking/site" \
  --screenshots "$screenshots" \
  --kbc "$kbc" --root "$source" --root-untranslated "$source/tests/browser/fixtures"
