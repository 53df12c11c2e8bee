#!/usr/bin/env bash
# The folders of compiler/ are layers, and an #include may only point to its own folder or to a
# lower layer (ARCHITECTURE.md, "Layers"). Fails, naming the file and line, for an include that
# points up or sideways, and for a folder that is not in the table.
#   check_layers.sh SOURCE_DIR
set -euo pipefail
cd "$1/compiler"

# Folder -> rank. Folders of one rank stand beside each other and may not include each other.
# The files at the top of compiler/, by name: resources and version belong to base, pipeline has
# its own rank, main is above everything.
declare -A rank=(
  [base]=0 [resources]=0 [version]=0
  [load]=1
  [validate]=2
  [model]=3
  [match]=4 [search]=4
  [lint]=5
  [render]=6 [import]=6 [stats]=6 [verify]=6
  [site]=7 [mcp]=7
  [serve]=8
  [pipeline]=9
  [cli]=10
  [main]=11
)
layer_of() {  # "lint/rules/xref.cc" -> lint; "pipeline.h" -> pipeline
  local path=$1
  if [[ $path == */* ]]; then echo "${path%%/*}"; else echo "${path%.*}"; fi
}

problems=0 includes=0
while IFS=: read -r file line text; do
  target=$(sed -E 's/^#include "([^"]+)".*/\1/' <<<"$text")
  from=$(layer_of "$file") to=$(layer_of "$target")
  includes=$((includes + 1))
  for layer in "$from" "$to"; do
    if [ -z "${rank[$layer]+set}" ]; then
      echo "compiler/$file:$line: '$layer' is in no layer of tests/layers/check_layers.sh"
      problems=$((problems + 1))
      continue 2
    fi
  done
  [ "$from" = "$to" ] && continue
  if ((rank[$to] >= rank[$from])); then
    kind=$([ "${rank[$to]}" -eq "${rank[$from]}" ] && echo sideways || echo upward)
    echo "compiler/$file:$line: $from (layer ${rank[$from]}) includes $target, $kind (layer ${rank[$to]})"
    problems=$((problems + 1))
  fi
done < <(grep -rn --include='*.h' --include='*.cc' '^#include "' . | sed 's|^\./||')

echo "layers: $includes includes between kbc's own files, $problems against the layers"
((problems == 0))
