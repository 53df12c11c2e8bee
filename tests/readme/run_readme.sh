#!/usr/bin/env bash
# Every command of the README is run by a test: this one.
#
#   tests/readme/run_readme.sh KBC SOURCE_DIR WORK_DIR
#
# Reads SOURCE_DIR/README.md and runs every fenced block tagged ```sh with bash -euo pipefail,
# each in a fresh copy of the knowledge base shipped with kbc (entries/, templates/, schema/ and
# kbc.yaml when there is one) under WORK_DIR, with `kbc` on the PATH (a folder holding a link to
# KBC) and an EDITOR that checks it was given a file that exists. A block that cannot run here
# (it installs packages, serves until stopped, needs another repository) is preceded by the line
# `<!-- not run: REASON -->`; a shell session that is not run is tagged ```console and must have
# that line too. Other tags (text, json, yaml, ...) are not commands. Prints how many blocks ran
# and each block not run with its reason. Fails when a ```sh block fails, when a block has no
# tag, when one is tagged bash/shell/zsh (write sh, or console with a reason), when a `not run`
# line stands before no block, or when an indented code block (which can have no tag) is used;
# also when .ci/run does not hold the README's test command (its one block that runs ctest)
# verbatim, since CI runs that command as its first stage.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 KBC SOURCE_DIR WORK_DIR" >&2; exit 2; }
kbc=$(realpath "$1") source=$(realpath "$2") work=$3
readme="$source/README.md"
mkdir -p "$work"
work=$(realpath "$work")
rm -rf "${work:?}/blocks" "$work/bin"
mkdir -p "$work/blocks" "$work/bin"
ln -s "$kbc" "$work/bin/kbc"
# The editor: opens nothing, but fails unless it is given a file that exists (as `kbc new` prints).
printf '#!/bin/sh\n[ $# -ge 1 ] && [ -f "$1" ]\n' >"$work/editor"
chmod +x "$work/editor"
export XDG_CACHE_HOME="${XDG_CACHE_HOME:-$work/cache}"

problems=()
problem() { problems+=("README.md:$1: $2"); }

# Splits the README into blocks: blocks/N.sh holds block N's text, and blocks/index one line per
# block: N, its first line number, its tag, and the reason it is not run ("" when it is run).
index="$work/blocks/index"
: >"$index"
n=0 in_block=0 reason="" reason_line=0 previous="" line_number=0
fence_close='^ {0,3}```[[:space:]]*$' fence_open='^ {0,3}```(.*)$'
not_run_line='^<!-- not run: *(.*[^ ]) *-->$' indented=$'^(    |\t)'
while IFS= read -r line || [ -n "$line" ]; do
  line_number=$((line_number + 1))
  if ((in_block)); then
    if [[ $line =~ $fence_close ]]; then
      in_block=0
    else
      printf '%s\n' "$line" >>"$work/blocks/$n.sh"
    fi
  elif [[ $line =~ $fence_open ]]; then
    tag=${BASH_REMATCH[1]}
    tag=${tag%%[[:space:]]*}
    n=$((n + 1)) in_block=1
    : >"$work/blocks/$n.sh"
    if ((reason_line)) && ((reason_line != line_number - 1)); then
      problem "$reason_line" "'not run' line not right before a block"
      reason=""
    fi
    case $tag in
      "") problem "$line_number" "block without a tag: sh (run by this test), console with a 'not run' line, or text, json, yaml, ..." ;;
      bash | shell | zsh | shell-session) problem "$line_number" "block tagged $tag: write sh, or console with a 'not run' line" ;;
      console) [ -n "$reason" ] || problem "$line_number" "console block without a '<!-- not run: REASON -->' line before it" ;;
    esac
    printf '%s\t%s\t%s\t%s\n' "$n" "$line_number" "$tag" "$reason" >>"$index"
    reason="" reason_line=0
  elif [[ $line =~ $not_run_line ]]; then
    ((reason_line == 0)) || problem "$reason_line" "'not run' line not right before a block"
    reason=${BASH_REMATCH[1]} reason_line=$line_number
  elif [[ $line =~ $indented && -z ${previous//[[:space:]]/} && -n ${line//[[:space:]]/} ]]; then
    problem "$line_number" "indented code block: fence it, with a tag"
  fi
  previous=$line
done <"$readme"
((in_block == 0)) || problem "$line_number" "block not closed"
((reason_line == 0)) || problem "$reason_line" "'not run' line not right before a block"

# The knowledge base each block starts from.
kb="$work/kb"
rm -rf "$kb"
mkdir -p "$kb"
for item in entries templates schema kbc.yaml; do
  [ -e "$source/$item" ] && cp -R "$source/$item" "$kb/"
done

ran=0 failed=0 not_run=() others=()
while IFS=$'\t' read -r number first tag reason; do
  block="$work/blocks/$number.sh"
  if [ -n "$reason" ]; then
    not_run+=("README.md:$first: $(head -n 1 "$block")   -- $reason")
  elif [ "$tag" = sh ]; then
    dir="$work/blocks/$number"
    rm -rf "$dir"
    cp -R "$kb" "$dir"
    # The block's own home (what it writes under ~ stays here), and kbc's build folder as
    # build/, as in a checkout of kbc that has been set up.
    mkdir -p "$dir/home"
    ln -s "$(dirname "$kbc")" "$dir/build"
    ran=$((ran + 1)) status=0
    (cd "$dir" && HOME="$dir/home" PATH="$work/bin:$PATH" EDITOR="$work/editor" timeout 120 \
      bash -euo pipefail "$block" >"$dir.log" 2>&1) || status=$?
    if ((status)); then
      failed=$((failed + 1))
      problem "$first" "sh block failed (exit status $status); it ran in $dir"
      echo "--- README.md:$first, the block:"
      sed 's/^/    /' "$block"
      echo "--- its output:"
      tail -n 40 "$dir.log" | sed 's/^/    /'
    fi
  elif [ -n "$tag" ] && [ "$tag" != console ]; then
    others+=("$tag")
  fi
done <"$index"

# The README's workflow is the one the ci-files-schema test checks against GitHub's schema.
workflow="$source/tests/ci/example-workflow.yml"
if ! awk -v first="$(head -n 1 "$workflow")" '
    $0 == "```yaml" { getline; if ($0 == first) { inside = 1 } }
    inside && $0 == "```" { exit }
    inside { print }' "$readme" | cmp -s - "$workflow"; then
  problem 1 "the README's GitHub workflow differs from tests/ci/example-workflow.yml"
fi

# The README's test command is what CI runs first: .ci/run must hold it verbatim.
test_blocks=$(awk -F'\t' '{print $1}' "$index" | while read -r number; do
  grep -l -E '(^|[;&| ])ctest( |$)' "$work/blocks/$number.sh" || true
done)
if [ "$(printf '%s' "$test_blocks" | grep -c .)" -ne 1 ]; then
  problem 1 "expected one block that runs ctest (the test command), found: ${test_blocks:-none}"
else
  test_command=$(grep -v '^[[:space:]]*$' "$test_blocks")
  if [ "$(printf '%s\n' "$test_command" | wc -l)" -ne 1 ]; then
    problem 1 "the test command's block holds more than one line"
  elif ! grep -q -F -- "$test_command" "$source/.ci/run"; then
    problem 1 ".ci/run does not hold the README's test command verbatim: $test_command"
  else
    echo "readme-commands: .ci/run holds the README's test command: $test_command"
  fi
fi

echo "readme-commands: ran $ran sh blocks, $failed failed"
echo "readme-commands: ${#not_run[@]} blocks not run:"
for item in "${not_run[@]}"; do echo "  $item"; done
if ((${#others[@]})); then
  echo "readme-commands: $(printf '%s\n' "${others[@]}" | sort | uniq -c | awk '{printf "%s%s %s", sep, $1, $2; sep=", "}') blocks that are not commands"
fi
if ((${#problems[@]})); then
  printf '%s\n' "${problems[@]}" >&2
  exit 1
fi
((ran > 0)) || { echo "readme-commands: no sh block in README.md" >&2; exit 1; }
# Passed: the blocks' folders are not needed to look into a failure (one holds an installed kbc).
rm -rf "${work:?}/blocks"
