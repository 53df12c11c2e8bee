#!/usr/bin/env bash
# The site search on real queries: builds the site of the 2,522-entry corpus
# (../shared/corpus/deadends) in a temporary folder and runs bench/search_eval.mjs on it, which
# prints hit@1 and hit@5 of the labelled set bench/search-eval.json, the time to results and
# the bytes fetched. Needs Chromium and tests/browser/node_modules (.ci/setup --browser).
#   bench/search_eval.sh [--json]        KBC=path/to/kbc (default build/kbc)
set -euo pipefail
cd "$(dirname "$0")/.."
kbc=${KBC:-build/kbc}
corpus=../shared/corpus/deadends/entries
if [[ ! -d $corpus ]]; then
  echo "search_eval: $corpus is absent; nothing to measure (the set is labelled with its entries)"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A copy, so that kbc's cache (.kbc-cache/) is written there and not beside the corpus.
mkdir -p "$work/kb"
cp -r "$corpus" "$work/kb/entries"
if ! "$kbc" build --root "$work/kb" --out "$work/kb/out" --keep-going >"$work/build.log" 2>&1; then
  # --keep-going: entries the build rejects are left out; the site is still written.
  if [[ ! -f $work/kb/out/site/en/search.html ]]; then
    tail -20 "$work/build.log" >&2
    echo "search_eval: $kbc build wrote no site" >&2
    exit 1
  fi
fi
echo "corpus: $(find "$work/kb/entries" -name '*.yaml' | wc -l) entries, built with $kbc" >&2
node bench/search_eval.mjs --site "$work/kb/out/site" "$@"
