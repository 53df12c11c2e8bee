#!/usr/bin/env bash
# Lighthouse 12 on the site of the shipped knowledge base and, when ../shared is there, of the
# 2,522-entry corpus: home, search and the richest entry page, en and zh, phone and desktop.
# Prints the scores (bench/lighthouse.mjs); needs `.ci/setup --browser` (Chromium, Node.js and
# tests/browser/node_modules, which pins lighthouse@12.2.3).
#   bench/lighthouse.sh [KBC]
set -euo pipefail
cd "$(dirname "$0")/.."
kbc=${1:-build/kbc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$kbc" build --root . --out "$work/shipped" --base-url https://kb.example/ >/dev/null 2>&1
echo "== shipped knowledge base"
node bench/lighthouse.mjs --site "$work/shipped/site"
corpus=../shared/corpus/deadends/entries
if [[ -d $corpus ]]; then
  mkdir -p "$work/corpus"
  cp -r "$corpus" "$work/corpus/entries"
  "$kbc" build --root "$work/corpus" --out "$work/corpus/out" --keep-going \
    --base-url https://kb.example/ >/dev/null 2>&1 || true
  echo "== corpus ($(find "$work/corpus/entries" -name '*.yaml' | wc -l) entries)"
  node bench/lighthouse.mjs --site "$work/corpus/out/site"
fi
