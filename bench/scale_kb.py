#!/usr/bin/env python3
"""Writes a knowledge base of COUNT entries under OUT/entries by replicating the corpus.

Usage: bench/scale_kb.py CORPUS_ENTRIES OUT COUNT

Replica r of an entry gets its own id (`<domain>/<name>-r<r>/<variant>`), a signature
that begins with its own token (`K<r> `) and a regex that requires that token, so every replica
has a unique id, signature and regex, and its regex matches its own replica's signatures only, as
the regexes of a real knowledge base match their own errors. Links between entries
(`error_id:`) point into the same replica; replica 0 keeps the corpus's ids. The text is edited
line by line, so the files keep the corpus's layout and quoting.
"""
import os
import re
import sys

ID_LINE = re.compile(r"^(\s*(?:- )?(?:id|error_id): )(\S+)\s*$")


def replica_id(entry_id, replica):
    parts = entry_id.split("/")
    if replica == 0 or len(parts) < 2:
        return entry_id
    parts[1] = "%s-r%d" % (parts[1], replica)
    return "/".join(parts)


def unquote(value):
    if value.startswith("'") and value.endswith("'") and len(value) >= 2:
        return value[1:-1].replace("''", "'")
    if value.startswith('"'):
        return None  # not in the corpus; left as it is
    return value


def quote(text):
    return "'" + text.replace("'", "''") + "'"


def with_token_regex(regex, token):
    flags = ""
    match = re.match(r"^\(\?[a-zA-Z]+\)", regex)
    if match:
        flags, regex = match.group(0), regex[match.end():]
    if regex.startswith("^"):
        return flags + "^" + token + "(?:" + regex[1:] + ")"
    return flags + token + ".*?(?:" + regex + ")"


def replicate(text, replica):
    token = "K%d " % replica
    out = []
    lines = text.split("\n")
    for i, line in enumerate(lines):
        id_match = ID_LINE.match(line)
        if id_match:
            line = id_match.group(1) + replica_id(id_match.group(2), replica)
        elif line.startswith("signature: "):
            value = unquote(line[len("signature: "):])
            if value is not None and value[:1] not in ("|", ">"):
                line = "signature: " + quote(token + value)
            elif value is not None and i + 1 < len(lines):
                lines[i + 1] = re.sub(r"^(\s+)", r"\g<1>" + token, lines[i + 1], count=1)
        elif line.startswith("regex: "):
            value = unquote(line[len("regex: "):])
            if value is not None:
                line = "regex: " + quote(with_token_regex(value, token))
        out.append(line)
    return "\n".join(out)


def main():
    corpus, out, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    sources = []
    for folder, _, names in sorted(os.walk(corpus)):
        for name in sorted(names):
            if name.endswith(".yaml"):
                path = os.path.join(folder, name)
                sources.append((os.path.relpath(path, corpus), open(path, encoding="utf-8").read()))
    written = 0
    replica = 0
    while written < count:
        for relative, text in sources:
            if written == count:
                break
            parts = relative.split(os.sep)
            if replica and len(parts) >= 3:
                parts[1] = "%s-r%d" % (parts[1], replica)
            target = os.path.join(out, "entries", *parts)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8") as f:
                f.write(replicate(text, replica))
            written += 1
        replica += 1


if __name__ == "__main__":
    main()
