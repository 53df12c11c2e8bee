#!/usr/bin/env bash
# Benchmark: kbc on knowledge bases of growing size. For each size, a knowledge base of that many
# entries is generated in a temporary folder (from the corpus with bench/scale_kb.py when
# ../shared/corpus/deadends/entries exists, else synthetic with bench/generate.sh), and the
# median of --runs runs is taken of: kbc lint --no-cache; kbc lint with nothing changed; kbc build
# into an empty output folder (parse cache warm; plus one run with --no-cache); kbc build with
# nothing changed; kbc build after one entry is edited. Each measurement gives the wall, user and
# sys seconds and the peak RSS (GNU time), the bytes and write system calls of the process
# (/proc/<pid>/io) and, for builds, how many files of the output folder it wrote. Then, when
# `hugo` is installed, Hugo renders the same Markdown pages. It prints a table of the medians
# per size and one of seconds per 1,000 entries (a flat column grows linearly).
#
# Usage: bench/scale.sh [--sizes "2500 10000 25000 50000 100000"] [--runs N] [--kbc PATH]
#                       [--settle SECONDS]
#
# A benchmark: it exits 0 whatever the figures, 1 when a kbc command crashes (exit status 2 or
# more, or a signal) or the generator fails, 2 on a usage error. The temporary folder is made
# with mktemp -d (TMPDIR chooses the disk; its file system is printed, since writing ~7 files
# per entry costs differently on tmpfs and ext4) and removed at exit. Each size's folder is
# removed once measured.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo 'usage: bench/scale.sh [--sizes "2500 10000 25000 50000 100000"] [--runs N] [--kbc PATH] [--settle SECONDS]'
}

sizes="2500 10000 25000 50000 100000"
runs=3
kbc=build/kbc
settle=""
while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) [ $# -ge 2 ] || { usage >&2; exit 2; }; sizes=$2; shift 2 ;;
    --sizes=*) sizes=${1#--sizes=}; shift ;;
    --runs) [ $# -ge 2 ] || { usage >&2; exit 2; }; runs=$2; shift 2 ;;
    --runs=*) runs=${1#--runs=}; shift ;;
    --kbc) [ $# -ge 2 ] || { usage >&2; exit 2; }; kbc=$2; shift 2 ;;
    --kbc=*) kbc=${1#--kbc=}; shift ;;
    --settle) [ $# -ge 2 ] || { usage >&2; exit 2; }; settle=$2; shift 2 ;;
    --settle=*) settle=${1#--settle=}; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
read -r -a size_list <<<"$sizes"
[ ${#size_list[@]} -gt 0 ] || { echo "scale.sh: --sizes is empty" >&2; exit 2; }
[[ -z "$settle" || "$settle" =~ ^[0-9]+$ ]] || { echo "scale.sh: --settle wants whole seconds: '$settle'" >&2; exit 2; }
for n in "${size_list[@]}" "$runs"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "scale.sh: not a positive whole number: '$n'" >&2; exit 2; }
done
[ -x "$kbc" ] || { echo "scale.sh: no kbc at $kbc (build it, or give --kbc PATH)" >&2; exit 2; }
kbc=$(realpath "$kbc")
[ -x /usr/bin/time ] || { echo "scale.sh: needs GNU time (apt-get install time)" >&2; exit 2; }

corpus="$(dirname "$PWD")/shared/corpus/deadends/entries"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kbc-scale.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
# A copy of kbc is measured, so that a rebuild of build/kbc during the run changes nothing (the
# parse cache is keyed by the executable's size, time and inode: a rebuild would empty it).
kbc_given=$kbc
cp "$kbc_given" "$tmp/kbc"
kbc=$tmp/kbc

# shellcheck disable=SC1091 # bench/machine.sh: machine_start and machine_report
source bench/machine.sh
machine_start
echo "kbc: $kbc_given, copied ($("$kbc" --version 2>/dev/null || echo 'version unknown'))"
if [ -d "$corpus" ]; then
  echo "knowledge bases: the corpus ($corpus, $(find "$corpus" -name '*.yaml' | wc -l) entries) replicated by bench/scale_kb.py"
else
  echo "knowledge bases: synthetic, bench/generate.sh ($corpus not found; figures not comparable with the corpus's)"
fi
fs=$(findmnt -n -o FSTYPE,OPTIONS -T "$tmp" 2>/dev/null | awk '{ print $1 ", mounted " $2 }') || true
echo "temporary folder: $tmp (${fs:-$(stat -f -c %T "$tmp")}); $runs run(s) per figure, the median"
if [ -z "$settle" ]; then
  settle=0
  [ "${fs%%,*}" != ext4 ] || settle=360
fi

failed=0

# One run of a command under GNU time, inside a wrapping sh that prints its own /proc/<pid>/io
# once the command has ended. On Linux the I/O counters of a child that has been waited for are
# added to its parent's (as getrusage's RUSAGE_CHILDREN is), so the wrapper's counters after the
# command are the command's plus the wrapper's own; the wrapper's own (a shell that only opens
# the log file) are measured once below with `:` as the command and subtracted. `cat` reads the
# counters while it runs, before its own are added. The command's stdout and stderr go to a log
# file, whose size is taken off wchar, so that the bytes are those written to files (the cache,
# the output); the write system calls (syscw) still count the log's few. write_bytes counts the
# pages the process dirtied in the page cache of a block device (a whole page for a file's last
# few bytes; 0 on tmpfs; pages dirtied and then deleted count too), also less the log's size. Wall seconds are taken around the whole (EPOCHREALTIME), so they
# include the start of time and sh: the overhead is printed. The peak RSS is the largest of sh,
# kbc and cat (GNU time's %M of the wrapper covers the children it waited for).
# Sets o_status o_wall o_user o_sys o_rss_kb o_wchar o_syscw o_wbytes.
log="$tmp/log"
run_wrapped() {
  local start end
  o_status=0
  start=$EPOCHREALTIME
  # shellcheck disable=SC2016 # expanded by the wrapping sh
  /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" sh -c \
    'log=$1; io=$2; shift 2; "$@" >"$log" 2>&1; s=$?; cat "/proc/$$/io" >"$io"; exit "$s"' \
    sh "$log" "$tmp/io" "$@" || o_status=$?
  end=$EPOCHREALTIME
  o_wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
  # time writes "Command exited with non-zero status N" first when it is not 0.
  read -r _ o_user o_sys o_rss_kb < <(tail -n 1 "$tmp/time")
  local log_bytes
  log_bytes=$(stat -c %s "$log")
  read -r o_wchar o_syscw o_wbytes < <(awk -v logb="$log_bytes" -v bw="${base_wchar:-0}" \
    -v bs="${base_syscw:-0}" -v bb="${base_wbytes:-0}" -F': ' '
    { v[$1] = $2 } END {
      disk = v["write_bytes"] - logb - bb
      printf "%d %d %d\n", v["wchar"] - logb - bw, v["syscw"] - bs, disk < 0 ? 0 : disk
    }' "$tmp/io")
}

# The wrapper's own counters, and its wall overhead (median of 5).
run_wrapped :
base_wchar=$o_wchar base_syscw=$o_syscw base_wbytes=$o_wbytes
overheads=()
for _ in 1 2 3 4 5; do
  run_wrapped :
  overheads+=("$o_wall")
done
echo "wall overhead of time + sh around each command: $(printf '%s\n' "${overheads[@]}" | sort -g | sed -n 3p) s (included in every wall figure)"

median() { printf '%s\n' "$@" | sort -g | sed -n "$((($# + 1) / 2))p"; }
max() { printf '%s\n' "$@" | sort -g | tail -n 1; }

declare -A res # res[size,name,field]

# measure SIZE NAME TOOL PREP OUT RUNS CMD...: runs PREP (a function, given the run's number)
# then CMD, RUNS times, and stores the medians in res[SIZE,NAME,*] (the peak RSS: the largest).
# OUT, when not empty, is the output folder whose files newer than a stamp touched before the
# command are counted ("files written"; kbc rewrites a file only when its bytes change, so this is
# what the build wrote). TOOL is kbc (exit status 0 or 1 accepted, a crash ends this size) or hugo
# (any failure is reported). Prints one line.
crashed=0
measure() {
  local size=$1 name=$2 tool=$3 prep=$4 out=$5 count=$6
  shift 6
  local walls=() users=() syss=() rss=() wchars=() syscws=() wbytes=() files=()
  for ((r = 1; r <= count; r++)); do
    "$prep" "$r"
    sync # the writeback of earlier steps is not charged to this run
    touch "$tmp/stamp"
    sleep 0.01 # the file system's clock is coarse: no file of the build shares the stamp's time
    run_wrapped "$@"
    if [ "$tool" = kbc ] && [ "$o_status" -ge 2 ]; then
      echo "CRASH: $* exited with status $o_status; the end of its output:" >&2
      tail -n 20 "$log" >&2
      crashed=1
      failed=1
      return 0
    elif [ "$tool" != kbc ] && [ "$o_status" -ne 0 ]; then
      echo "$tool failed (status $o_status); the end of its output:" >&2
      tail -n 20 "$log" >&2
      res[$size,$name,failed]=1
      return 0
    fi
    walls+=("$o_wall") users+=("$o_user") syss+=("$o_sys") rss+=("$o_rss_kb")
    wchars+=("$o_wchar") syscws+=("$o_syscw") wbytes+=("$o_wbytes")
    if [ -n "$out" ] && [ -d "$out" ]; then
      files+=("$(find "$out" -type f -newer "$tmp/stamp" | wc -l)")
    else
      files+=(0)
    fi
  done
  res[$size,$name,wall]=$(median "${walls[@]}")
  res[$size,$name,user]=$(median "${users[@]}")
  res[$size,$name,sys]=$(median "${syss[@]}")
  res[$size,$name,rss]=$(max "${rss[@]}")
  res[$size,$name,wchar]=$(median "${wchars[@]}")
  res[$size,$name,syscw]=$(median "${syscws[@]}")
  res[$size,$name,wbytes]=$(median "${wbytes[@]}")
  res[$size,$name,files]=$(median "${files[@]}")
  awk -v name="$name" -v c="$count" -v w="${res[$size,$name,wall]}" -v u="${res[$size,$name,user]}" \
    -v s="${res[$size,$name,sys]}" -v m="${res[$size,$name,rss]}" -v wc="${res[$size,$name,wchar]}" \
    -v sc="${res[$size,$name,syscw]}" -v wb="${res[$size,$name,wbytes]}" -v f="${res[$size,$name,files]}" \
    -v out="$out" 'BEGIN {
      printf "  %-26s %7.3f s wall  %6.2f user  %5.2f sys  %6.0f MB RSS  wrote %7.1f MB in %7d write calls (%.1f MB to disk)",
             name " (" c ")", w, u, s, m / 1024, wc / 1048576, sc, wb / 1048576
      if (out != "") printf "  %d files", f
      printf "\n"
    }'
}

# shellcheck disable=SC2317 # the preparations are called through measure's PREP
none() { :; }

# On ext4 without a journal, the inode allocator skips the inodes freed in the last 60 s (360 s
# while their inode table block is dirty, as it is again once an inode beside them is made) and
# looks at each one, from the start of the block group, every time it makes a file or a folder: a
# build right after its output was removed (~13 inodes per entry) pays for the removal (2,500
# entries: 1.47-1.60 s against 0.91-1.28 s, nearly all of it system time; dropping the page cache
# after the removal does not help, as the allocator reads the inode table blocks back). So within
# a size nothing is removed: a cold build's old output is moved to the size's trash folder, removed
# with the size. Before a size's first cold build the bench waits until --settle seconds (default
# 360 on ext4, else 0) have passed since it last removed anything; removals made by others just
# before the bench are not seen.
trash_count=0
# shellcheck disable=SC2317 # called through measure's PREP
to_trash() { # to_trash PATH...: moves each that exists into the size's trash folder
  local path
  for path in "$@"; do
    [ -e "$path" ] || continue
    mkdir -p "$trash"
    trash_count=$((trash_count + 1))
    mv "$path" "$trash/$trash_count"
  done
}
last_removal=0
settle_removals() {
  local wait
  wait=$(awk -v s="$settle" -v a="$last_removal" -v b="$EPOCHREALTIME" \
    'BEGIN { w = s - (b - a); printf "%d", (w > 0 ? w + 1 : 0) }')
  [ "$wait" -gt 0 ] || return 0
  echo "  waiting $wait s: a cold build within $settle s of a removal pays for the freed inodes (--settle)"
  sleep "$wait"
}
echo "removals: none while a size is measured (old outputs are moved aside); a size's first cold build waits until $settle s after the last removal (--settle)"

# The output folder and what kbc keeps beside it (its lock file, and the staging folder of a
# build that is writing) are all in $outs: moving it away makes a cold build.
# shellcheck disable=SC2317
cold() { to_trash "$outs" && mkdir -p "$outs"; }

# Appends a word to the edited entry's root_cause line (before the closing quote when it is
# quoted): a new word each run, so the bytes differ from every earlier version.
# shellcheck disable=SC2317
edit_entry() {
  local word="scaleedit$1"
  sed -i -E "0,/^root_cause: /{/^root_cause: '/s/'[[:space:]]*\$/ $word'/;/^root_cause: [^']/s/[[:space:]]*\$/ $word/}" "$edit_file"
  grep -q "^root_cause: .*$word" "$edit_file" || { echo "scale.sh: the edit of $edit_file failed" >&2; exit 1; }
}

# An entry that the build writes, whose root_cause is on one line, plain or single-quoted (not
# ending in ':' and without a '#', where a word appended could change the YAML's meaning).
pick_edit_file() {
  local kb=$1 out=$2 file id
  while IFS= read -r file; do
    id=$(sed -n 's/^id: *//p' "$file" | head -n 1)
    if [ -n "$id" ] && [ -f "$out/api/$id.json" ]; then
      echo "$file"
      return 0
    fi
  done < <(grep -rlE "^root_cause: ([^'\"|>#&*!%@\`[{ ][^#]*[^:#[:space:]]|'[^']*')[[:space:]]*\$" "$kb/entries" |
    sort | head -n 200)
  return 1
}

hugo_site() { bench/hugo_site.sh "$@"; } # hugo_site MD_DIR SITE: as run.sh makes it

# shellcheck disable=SC2317
hugo_cold() { to_trash "$hugo_dir/public" "$hugo_dir/cache"; }

have_hugo=0
if command -v hugo >/dev/null; then
  have_hugo=1
  echo "hugo: $(hugo version | grep -oE 'v[0-9.]+' | head -n 1), on the same Markdown pages (md/en, md/zh) as a two-language site"
else
  echo "hugo: not installed (apt-get install hugo) - no comparison"
fi

bench_size() {
  local n=$1
  local dir="$tmp/$n"
  local kb="$dir/kb"
  outs="$dir/outs"
  trash="$dir/trash"
  local out="$outs/out"
  mkdir -p "$kb"
  echo
  local start
  start=$EPOCHREALTIME
  if [ -d "$corpus" ]; then
    if ! python3 bench/scale_kb.py "$corpus" "$kb" "$n"; then
      echo "scale.sh: bench/scale_kb.py failed for $n entries" >&2
      failed=1
      return 0
    fi
    if [ -f "$corpus/../kbc.yaml" ]; then cp "$corpus/../kbc.yaml" "$kb/"; fi
  elif ! bench/generate.sh "$kb" "$n"; then
    echo "scale.sh: bench/generate.sh failed for $n entries" >&2
    failed=1
    return 0
  fi
  local entries
  entries=$(find "$kb/entries" -name '*.yaml' | wc -l)
  res[$n,entries]=$entries
  echo "$n entries: generated in $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s ($entries files, $(du -sh "$kb/entries" | cut -f1))"
  if [ "$entries" -ne "$n" ]; then
    echo "scale.sh: the generator wrote $entries entries, not $n" >&2
    failed=1
    return 0
  fi
  local lint=("$kbc" lint --color never --root "$kb")
  local build=("$kbc" build --keep-going --color never --base-url https://example.org/ --root "$kb" --out "$out")
  crashed=0

  measure "$n" "lint no-cache" kbc none "" "$runs" "${lint[@]}" --no-cache
  [ "$crashed" = 0 ] || return 0
  "${lint[@]}" >/dev/null 2>&1 || [ $? -eq 1 ] || { echo "CRASH: kbc lint" >&2; failed=1; return 0; }
  measure "$n" "lint unchanged" kbc none "" "$runs" "${lint[@]}"
  [ "$crashed" = 0 ] || return 0
  settle_removals
  measure "$n" "build cold" kbc cold "$out" "$runs" "${build[@]}"
  [ "$crashed" = 0 ] || return 0
  measure "$n" "build cold, no cache" kbc cold "$out" 1 "${build[@]}" --no-cache
  [ "$crashed" = 0 ] || return 0
  if [ ! -d "$out/api" ]; then
    echo "scale.sh: kbc build --keep-going wrote no output for $n entries; the end of its output:" >&2
    tail -n 20 "$log" >&2
    failed=1
    return 0
  fi
  res[$n,built]=$(find "$out/api" -name '*.json' | wc -l)
  local left_out=""
  [ "${res[$n,built]}" -eq "$entries" ] || left_out=" (the others have errors: --keep-going leaves them out)"
  echo "  output: $(find "$out" -type f | wc -l) files, $(du -sh "$out" | cut -f1); ${res[$n,built]} entries built$left_out"
  # Steady state: the output as the previous build left it, with its manifest.
  "${build[@]}" >/dev/null 2>&1 || [ $? -eq 1 ] || { echo "CRASH: kbc build" >&2; failed=1; return 0; }
  measure "$n" "build unchanged" kbc none "$out" "$runs" "${build[@]}"
  [ "$crashed" = 0 ] || return 0
  if edit_file=$(pick_edit_file "$kb" "$out"); then
    measure "$n" "build one-edit" kbc edit_entry "$out" "$runs" "${build[@]}"
    [ "$crashed" = 0 ] || return 0
    local id
    id=$(sed -n 's/^id: *//p' "$edit_file" | head -n 1)
    grep -q "scaleedit$runs" "$out/api/$id.json" ||
      echo "  warning: the last edit of $id is not in its record: was the entry left out?" >&2
    echo "  edited: $id"
  else
    echo "  no entry to edit (none has a one-line root_cause and is built): build one-edit skipped" >&2
  fi
  res[$n,rss]=$(max "${res[$n,lint no-cache,rss]}" "${res[$n,lint unchanged,rss]}" "${res[$n,build cold,rss]}" \
    "${res[$n,build cold, no cache,rss]}" "${res[$n,build unchanged,rss]}" "${res[$n,build one-edit,rss]:-0}")

  if [ "$have_hugo" = 1 ]; then
    hugo_dir="$dir/hugo"
    hugo_site "$out/md" "$hugo_dir/site"
    local hugo=(hugo --quiet -s "$hugo_dir/site" -d "$hugo_dir/public" --cacheDir "$hugo_dir/cache")
    measure "$n" "hugo cold" hugo hugo_cold "" "$runs" "${hugo[@]}"
    measure "$n" "hugo again" hugo none "" "$runs" "${hugo[@]}"
  fi
  # Not timed, but on a file system mounted with `discard` removing ~7 files per entry can take
  # minutes: it is printed.
  start=$EPOCHREALTIME
  rm -rf "$dir"
  sync
  last_removal=$EPOCHREALTIME
  echo "  removed in $(awk -v a="$start" -v b="$last_removal" 'BEGIN { printf "%.1f", b - a }') s"
}

for n in "${size_list[@]}"; do
  bench_size "$n"
done

# Prints tab-separated rows as a table: the first column left-aligned, the others right-aligned.
table() {
  awk -F'\t' '{
    for (i = 1; i <= NF; ++i) { c[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) }
    if (NF > nf) nf = NF
  } END {
    for (r = 1; r <= NR; ++r) {
      line = sprintf("%-" w[1] "s", c[r, 1])
      for (i = 2; i <= nf; ++i) line = line sprintf("  %" w[i] "s", c[r, i])
      print line
    }
  }'
}

# The tables. A cell is "-" where the figure is missing (a crash, a failed generator).
cols=("lint no-cache" "lint unchanged" "build cold" "build cold, no cache" "build unchanged" "build one-edit")
heads=("lint nc" "lint unch" "build cold" "cold nc(1)" "build unch" "build edit")
cell() { # cell SIZE NAME FIELD [SCALE]: a figure, divided by SCALE, or "-"
  local v=${res[$1,$2,$3]:-}
  if [ -z "$v" ]; then echo "-"; else awk -v v="$v" -v d="${4:-1}" 'BEGIN { printf "%.3f", v / d }'; fi
}
echo
echo "targets (issue): 2.5k: lint no-cache <=0.8 s, lint unchanged <=0.15 s, build cold <=1.2 s, build unchanged <=0.2 s, build one-edit <=0.3 s, RSS <=250 MB;" \
  "100k: <=40 s, <=3 s, <=Hugo/3, <=5 s, <=6 s, <=2 GB"
echo
echo "median wall seconds (cold: output folder removed, parse cache warm; cold nc(1): also --no-cache, one run);"
echo "RSS: the largest peak of all these runs; written: files of the output whose bytes changed"
{
  printf 'entries'
  printf '\t%s' "${heads[@]}" "RSS MB" "written unch" "written edit"
  [ "$have_hugo" = 0 ] || printf '\t%s' "hugo cold" "hugo again" "kbc cold/hugo"
  printf '\n'
  for n in "${size_list[@]}"; do
    printf '%s' "${res[$n,entries]:-$n}"
    for c in "${cols[@]}"; do printf '\t%s' "$(cell "$n" "$c" wall)"; done
    if [ -n "${res[$n,rss]:-}" ]; then printf '\t%.0f' "$(awk -v v="${res[$n,rss]}" 'BEGIN { print v / 1024 }')"; else printf '\t-'; fi
    printf '\t%s\t%s' "${res[$n,build unchanged,files]:--}" "${res[$n,build one-edit,files]:--}"
    if [ "$have_hugo" = 1 ]; then
      printf '\t%s\t%s' "$(cell "$n" "hugo cold" wall)" "$(cell "$n" "hugo again" wall)"
      if [ -n "${res[$n,hugo cold,wall]:-}" ] && [ -n "${res[$n,build cold,wall]:-}" ]; then
        printf '\t%s' "$(awk -v k="${res[$n,build cold,wall]}" -v h="${res[$n,hugo cold,wall]}" 'BEGIN { printf "%.2f", k / h }')"
      else
        printf '\t-'
      fi
    fi
    printf '\n'
  done
} | table
echo
echo "seconds per 1,000 entries (flat down a column: linear growth), and RSS MB per 1,000 entries"
{
  printf 'entries'
  printf '\t%s' "${heads[@]}" "RSS MB"
  printf '\n'
  for n in "${size_list[@]}"; do
    printf '%s' "${res[$n,entries]:-$n}"
    for c in "${cols[@]}"; do printf '\t%s' "$(cell "$n" "$c" wall "$(awk -v n="$n" 'BEGIN { print n / 1000 }')")"; done
    if [ -n "${res[$n,rss]:-}" ]; then printf '\t%.1f' "$(awk -v v="${res[$n,rss]}" -v n="$n" 'BEGIN { print v / 1024 / (n / 1000) }')"; else printf '\t-'; fi
    printf '\n'
  done
} | table
echo
echo "CPU seconds (user+sys, median) and what each command wrote (MB through write calls / write calls)"
{
  printf 'entries'
  printf '\t%s' "${heads[@]}"
  printf '\n'
  for n in "${size_list[@]}"; do
    printf '%s' "${res[$n,entries]:-$n}"
    for c in "${cols[@]}"; do
      if [ -n "${res[$n,$c,wall]:-}" ]; then
        printf '\t%s' "$(awk -v u="${res[$n,$c,user]}" -v s="${res[$n,$c,sys]}" -v w="${res[$n,$c,wchar]}" -v k="${res[$n,$c,syscw]}" \
          'BEGIN { printf "%.2f %.1f/%d", u + s, w / 1048576, k }')"
      else
        printf '\t-'
      fi
    done
    printf '\n'
  done
} | table
machine_report
exit "$failed"
