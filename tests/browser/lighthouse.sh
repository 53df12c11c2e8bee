#!/usr/bin/env bash
# Lighthouse 12 as CTest runs it: the site of the shipped entries (with a base_url, as it is
# published), its home, search and richest entry pages in en and zh, on a phone and a desktop.
# Fails when accessibility, best practices or SEO scores below 95; prints the performance
# score too, which moves with the machine's load (bench/lighthouse.sh has the corpus's).
#   tests/browser/lighthouse.sh KBC SOURCE_DIR WORK_DIR NODE CHROMIUM
set -euo pipefail
kbc=$1 source=$2 work=$3 node=$4 chromium=$5
rm -rf "$work" && mkdir -p "$work"
"$kbc" build --root "$source" --out "$work/out" --base-url https://kb.example/ 2>/dev/null
exec "$node" "$source/bench/lighthouse.mjs" --site "$work/out/site" --chromium "$chromium" \
  --check accessibility,best-practices,seo --min 95
