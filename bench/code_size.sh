#!/usr/bin/env bash
# How far the sources are from "no file over 600 lines, no function over 60" (tables excepted):
# lists the files of compiler/ over 600 lines and the functions over 60, longest first, with
# their counts. A function is read as a definition that starts at the left margin (a line with a
# '(', its '{' on that line or a later one) and ends at the next '}' there; lambdas, and methods
# defined inside a class, count within what encloses them. The lines of a table (a `static
# const ... = {` initializer inside the function, to its `};`) are not counted. Exits 1 when
# there is any: the ctest `code-size` holds the sources to it.
#   bench/code_size.sh [MAX_FILE_LINES] [MAX_FUNCTION_LINES]
set -euo pipefail
cd "$(dirname "$0")/../compiler"
max_file=${1:-600} max_function=${2:-60}

files=$(find . -name '*.cc' -o -name '*.h' | sed 's|^\./||' | sort | xargs wc -l |
  awk -v max="$max_file" '$2 != "total" && $1 > max { printf "  %5d  %s\n", $1, $2 }' | sort -rn)
echo "files over $max_file lines:"
[[ -z $files ]] || echo "$files"
echo "  ($(grep -c . <<<"$files" || true) files)"

functions=$(find . -name '*.cc' | sed 's|^\./||' | sort | while read -r file; do
  awk -v file="$file" -v max="$max_function" '
    !start && /^[A-Za-z].*\(/ && !/;$/ && !/^(namespace|struct|class|enum|union|using|template)/ {
      start = NR; name = $0; opened = 0 }
    start && !opened && /;$/ { start = 0 }           # a declaration over several lines
    start && !opened && /\{$/ { opened = 1; table = 0 }
    start && opened && /^ +static const .*= \{$/ { in_table = NR; next }
    in_table && /^ +\};$/ { table += NR - in_table + 1; in_table = 0; next }
    start && opened && /^\}/ { size = NR - start + 1 - table
      if (size > max) { sub(/\(.*/, "", name); n = split(name, words, " ")
                        printf "  %5d  %s:%d %s\n", size, file, start, words[n] }
      start = 0 }' "$file"
done | sort -rn)
echo "functions over $max_function lines:"
[[ -z $functions ]] || echo "$functions"
echo "  ($(grep -c . <<<"$functions" || true) functions)"
[[ -z $files && -z $functions ]]
