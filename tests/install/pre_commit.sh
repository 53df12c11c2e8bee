#!/usr/bin/env bash
# The pre-commit hooks of .pre-commit-hooks.yaml, used as a knowledge-base repository uses them:
# Debian's real pre-commit installs kbc-lint from a hooks repository (a commit holding this
# checkout's .pre-commit-hooks.yaml and Dockerfile), then a commit of good entries passes and one
# with a broken entry, .yaml or .yml, is blocked with kbc's diagnostic. The docker hook cannot run
# without a Docker engine: its manifest is checked by pre-commit's own validator.
#   pre_commit.sh KBC SOURCE_DIR WORK_DIR
set -euo pipefail
kbc=$1 source=$(cd "$2" && pwd) work=$3
rm -rf "$work" && mkdir -p "$work/bin" && cd "$work"
ln -s "$kbc" bin/kbc
export PATH="$work/bin:$PATH" PRE_COMMIT_HOME="$work/pre-commit-home"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=kbc GIT_AUTHOR_EMAIL=kbc@example.com
export GIT_COMMITTER_NAME=kbc GIT_COMMITTER_EMAIL=kbc@example.com
failures=0
ok() { echo "ok   $1"; }
fail() { echo "FAIL $1" && sed 's/^/    /' "$2" && failures=$((failures + 1)); }

pre-commit validate-manifest "$source/.pre-commit-hooks.yaml" >manifest.out 2>&1 &&
  ok "the manifest is valid (both hooks)" || fail "the manifest" manifest.out
grep -q '^- id: kbc-lint-docker$' "$source/.pre-commit-hooks.yaml" &&
  ok "the manifest has kbc-lint-docker" || fail "no kbc-lint-docker hook" /dev/null

# The hooks repository: what a tag of kbc holds.
git init -q hooks
cp "$source/.pre-commit-hooks.yaml" "$source/Dockerfile" hooks/
git -C hooks add -A && git -C hooks commit -qm hooks
rev=$(git -C hooks rev-parse HEAD)

# The knowledge base: the shipped entries, committed through the hook.
git init -q kb && cd kb
cat >.pre-commit-config.yaml <<YAML
repos:
  - repo: $work/hooks
    rev: $rev
    hooks:
      - id: kbc-lint
YAML
pre-commit install >/dev/null
cp -r "$source/entries" entries
git add -A
git commit -qm "good entries" >../good.out 2>&1 && grep -q "kbc lint.*Passed" ../good.out &&
  ok "a commit of good entries passes the hook" || fail "good entries" ../good.out

# expect_blocked NAME FILE PATTERN: committing FILE fails, and the output matches PATTERN.
expect_blocked() {
  local name=$1 file=$2 pattern=$3 log=../blocked.out
  git add "$file"
  if git commit -qm "$name" >"$log" 2>&1; then
    fail "$name: committed" "$log"
  elif grep -q "$pattern" "$log"; then
    ok "$name blocks the commit"
  else
    fail "$name: blocked, but the output does not match '$pattern'" "$log"
  fi
  git rm -qf --cached "$file" && rm "$file"
}

# A broken entry: an empty dead-end action, the defect kbc lint exists to stop.
broken=entries/cuda/broken-dead-end.yaml
sed 's/^\(\s*- action: \).*/\1""/' entries/cuda/illegal-memory-access.yaml |
  sed 's/^id: .*/id: cuda\/broken-dead-end/' >"$broken"
expect_blocked "a broken .yaml entry" "$broken" \
  "$broken:[0-9]*:[0-9]*: error: dead_ends\[0\] has a blank action"

# The same in a .yml file, which lint reports too (entries are .yaml).
cp entries/cuda/illegal-memory-access.yaml entries/cuda/copy.yml
expect_blocked "a .yml entry" entries/cuda/copy.yml "entries/cuda/copy.yml:1:1: error: .*\[entry-file\]"

echo "pre-commit: $failures failure(s)"
((failures == 0))
