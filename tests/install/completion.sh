#!/usr/bin/env bash
# The shell completions kbc generates, tried in the real shells: bash's through its completion
# function, fish's with `complete -C`, zsh's parsed by zsh (it completes only inside zle).
#   completion.sh KBC WORK_DIR
set -euo pipefail
kbc=$1 work=$2
rm -rf "$work" && mkdir -p "$work/kb/entries" "$work/kb/entries-not" && cd "$work"
failures=0
expect() {  # expect NAME WANTED GOT: each line of WANTED is a line of GOT
  local name=$1 wanted=$2 got=$3 line
  while IFS= read -r line; do
    if ! grep -qxF -- "$line" <<<"$got"; then
      echo "FAIL $name: no '$line' in:" && sed 's/^/    /' <<<"$got"
      failures=$((failures + 1))
      return
    fi
  done <<<"$wanted"
  echo "ok   $name"
}
refuse() {  # refuse NAME UNWANTED GOT: no line of GOT is UNWANTED
  if grep -qxF -- "$2" <<<"$3"; then echo "FAIL $1: '$2' offered" && failures=$((failures + 1)); else echo "ok   $1"; fi
}

"$kbc" completion bash >kbc.bash
"$kbc" completion zsh >_kbc
"$kbc" completion fish >kbc.fish

# bash: the words typed so far, the last one being completed.
complete_bash() {
  bash -c 'source ./kbc.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _kbc; printf "%s\n" "${COMPREPLY[@]}"' _ "$@"
}
expect "bash: commands" $'lint\nbuild\ncompletion\n--version' "$(complete_bash kbc '')"
expect "bash: a command's prefix" "lint" "$(complete_bash kbc li)"
expect "bash: options" $'--format\n--root\n--no-cache' "$(complete_bash kbc lint --)"
expect "bash: an option's choices" $'text\njson\nsarif\ngithub' "$(complete_bash kbc lint --format '')"
refuse "bash: another command's choices" "github" "$(complete_bash kbc stats --format '')"
expect "bash: folders for DIR" $'kb/entries\nkb/entries-not' "$(complete_bash kbc build --root kb/e)"
touch kb/entries/a.yaml
expect "bash: files for FILE" "kb/entries/a.yaml" "$(complete_bash kbc lint kb/entries/)"
refuse "bash: no files for --top N" "kb" "$(complete_bash kbc match --top k)"
expect "bash: operand words" $'bash\nzsh\nfish' "$(complete_bash kbc completion '')"

# fish: what `complete -C` offers, without the descriptions.
complete_fish() {
  fish --no-config -c "source ./kbc.fish; complete -C '$1'" | cut -f1
}
expect "fish: commands" $'lint\nbuild\ncompletion' "$(complete_fish 'kbc ')"
expect "fish: options" $'--format\n--root' "$(complete_fish 'kbc lint --')"
expect "fish: an option's choices" $'text\njson\nsarif\ngithub' "$(complete_fish 'kbc lint --format ')"
expect "fish: files for FILE" "kb/entries/a.yaml" "$(complete_fish 'kbc lint kb/entries/')"
expect "fish: folders for DIR" "kb/entries/" "$(complete_fish 'kbc build --root kb/entries')"
expect "fish: operand words" $'bash\nzsh\nfish' "$(complete_fish 'kbc completion ')"

# zsh: the script parses, defines _kbc as a completion function, and names every command.
if zsh -n _kbc && zsh -fc 'autoload -U compinit; compinit -u -D; source ./_kbc 2>/dev/null; whence -w _kbc' | grep -q function; then
  echo "ok   zsh: parses and defines _kbc"
else
  echo "FAIL zsh: _kbc" && failures=$((failures + 1))
fi

echo "completion: $failures failure(s)"
((failures == 0))
