#!/usr/bin/env bash
# Benchmark: lints and builds a knowledge base and prints the median of 5 runs of each (with
# and without the parse cache, and the one-file lint a pre-commit hook runs), the phases of a
# build, the peak memory, the site's size, a comparison with Hugo when it is installed, the
# machine and how busy it was (bench/machine.sh), and what kbc lint reports (counts per rule).
# Usage: bench/run.sh [KB_ROOT]   (default: ../shared/corpus/deadends, else a generated one)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5
kbc=build/kbc
[ -x "$kbc" ] || .ci/setup

root="${1:-}"
if [ -z "$root" ]; then
  if [ -d ../shared/corpus/deadends/entries ]; then
    root=../shared/corpus/deadends
  else
    root=$(mktemp -d)
    bench/generate.sh "$root" 2522
  fi
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Prints the median wall time in seconds of `runs` runs of the command.
median() {
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}

peak_kb() {
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1
  else
    echo "n/a (install the 'time' package)"
  fi
}

source bench/machine.sh
machine_start
entries=$(find "$root/entries" -name '*.yaml' | wc -l)
echo "knowledge base: $root ($entries entries, $(du -sh "$root/entries" | cut -f1))"
# A copy, so that kbc's parse cache (.kbc-cache/) is written there and not into $root.
kb="$out/kb"
mkdir -p "$kb"
cp -r "$root/entries" "$kb/entries"
if [ -f "$root/kbc.yaml" ]; then cp "$root/kbc.yaml" "$kb/"; fi
one_file=$(find "$kb/entries" -name '*.yaml' | sort | sed -n 1p)

# Runs the command after an author's edit of one entry (a new comment line at its end): that
# file's parse result and the stored findings of the last lint no longer apply.
edited() {
  echo "# edited $RANDOM$RANDOM" >>"$one_file"
  "$@"
}

# Runs the command after an edit of one entry's signature (a new word at its end): its text must
# also go through the other entries' regexes again.
signature_edited() {
  sed -i "0,/^signature: /s//signature: edited$RANDOM /" "$one_file"
  "$@"
}

echo "kbc lint, no cache            median of $runs: $(median "$kbc" lint --no-cache --root "$kb") s"
"$kbc" lint --root "$kb" >/dev/null || true # fills the cache
echo "kbc lint, cache filled        median of $runs: $(median "$kbc" lint --root "$kb") s (nothing changed: the stored findings)"
echo "kbc lint, one entry edited    median of $runs: $(median edited "$kbc" lint --root "$kb") s (its rules and the cross-entry rules run again)"
echo "kbc lint, a signature edited  median of $runs: $(median signature_edited "$kbc" lint --root "$kb") s (and it goes through the regexes that may match it)"
echo "kbc lint ONE-FILE (pre-commit) median of $runs: $(median "$kbc" lint --root "$kb" "$one_file") s"
start=$(date +%s.%N)
"$kbc" build --keep-going --no-cache --root "$kb" --out "$out/first" >/dev/null 2>&1 || true
echo "kbc build, first build into an empty folder, no cache (one run): $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }') s"
echo "kbc build, no cache           median of $runs: $(median "$kbc" build --keep-going --no-cache --root "$kb" --out "$out/dist") s"
kbc_build=$(median "$kbc" build --keep-going --root "$kb" --out "$out/dist")
echo "kbc build, cache filled       median of $runs: $kbc_build s (bundle, records, Markdown and the site, both languages; nothing changed)"
kbc_edited=$(median edited "$kbc" build --keep-going --root "$kb" --out "$out/dist")
echo "kbc build, one entry edited   median of $runs: $kbc_edited s (the same, after an edit: its rules and the cross-entry rules run again)"
echo "kbc build, a signature edited median of $runs: $(median signature_edited "$kbc" build --keep-going --root "$kb" --out "$out/dist") s"
# The phases of one build (kbc build --timings: wall and CPU seconds); they say what the site
# adds to the bundle, the records and the Markdown pages.
phases() {
  { "$kbc" build --keep-going --timings "$@" --root "$kb" --out "$out/dist" 2>&1 >/dev/null || true; } |
    sed -n '/^timings/,$p' | tail -n +3
}
echo "phases of one build, no cache (wall and CPU seconds, peak MB at the end of each):"
phases --no-cache
echo "phases of one build, cache filled (wall and CPU seconds, peak MB at the end of each):"
phases
echo "peak memory lint:  $(peak_kb "$kbc" lint --no-cache --root "$kb") KB"
echo "peak memory build: $(peak_kb "$kbc" build --keep-going --no-cache --root "$kb" --out "$out/dist") KB"
echo "output files: $(find "$out/dist" -type f | wc -l) ($(find "$out/dist/site" -name '*.html' | wc -l) HTML pages in site/)"
for lang in en zh; do
  index="$out/dist/site/$lang/search-index.json"
  if [ -f "$index" ]; then
    echo "search index $lang: $(wc -c <"$index") bytes, $(gzip -9 -c "$index" | wc -c) gzipped"
  fi
done

# Hugo, when installed: the same Markdown pages as a two-language Hugo site, for scale.
if command -v hugo >/dev/null; then
  site="$out/hugo"
  bench/hugo_site.sh "$out/dist/md" "$site"
  pages=$(find "$site/content" -name '*.md' | wc -l)
  hugo_time=$(median hugo --quiet -s "$site" -d "$out/hugo-public")
  echo "hugo $(hugo version | grep -oE 'v[0-9.]+' | head -1) ($pages Markdown pages, 2 languages) median of $runs: $hugo_time s"
  awk -v k="$kbc_build" -v e="$kbc_edited" -v h="$hugo_time" 'BEGIN { printf "kbc build / hugo: %.2f nothing changed, %.2f one entry edited (below 1: kbc is faster, while also linting, writing the JSON and the search index)\n", k / h, e / h }'
else
  echo "hugo: not installed (apt-get install hugo) - no comparison"
fi
machine_report
echo
echo "kbc lint findings per rule:"
# kbc lint exits 1 on a knowledge base with errors: under pipefail that would end the script.
findings=$("$kbc" lint --root "$kb" || true)
grep -oE '(error|warning): .*\[[a-z0-9-]+\]$' <<<"$findings" |
  sed -E 's/^(error|warning): .*\[([a-z0-9-]+)\]$/\2 (\1)/' | sort | uniq -c | sort -rn
tail -1 <<<"$findings"
