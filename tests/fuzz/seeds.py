#!/usr/bin/env python3
"""Writes the seed corpus of each fuzz target (tests/fuzz/corpus/<target>/) from the shipped
entries and the test fixtures. Run it again when they change; the output is committed.
Usage: tests/fuzz/seeds.py
"""
import glob
import hashlib
import json
import os
import re
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def yaml_files():
    files = sorted(glob.glob(os.path.join(ROOT, "entries", "**", "*.yaml"), recursive=True))
    files += sorted(glob.glob(os.path.join(ROOT, "tests", "lint", "*", "fail", "entries", "**",
                                           "*.yaml"), recursive=True))
    return [f for f in files if not os.path.islink(f)]


def write(target, data):
    if isinstance(data, str):
        data = data.encode()
    folder = os.path.join(HERE, "corpus", target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, hashlib.sha1(data).hexdigest()[:16]), "wb") as f:
        f.write(data)


def text(value):
    data = value.encode()
    return struct.pack("<I", len(data)) + data


def last_lint_seeds():
    """The last lint's two parts (lint/last_lint.cc), as this machine's byte order writes them."""
    findings = b"kbc last lint findings 2\n" + text("kb-1") + text("benign-1") + struct.pack("<Q", 2)
    for line, error, message in [(2, 0, "m"), (7, 1, "two\nlines")]:
        findings += struct.pack("<iiB", line, 3, error)
        for value in [message, "rule-x", "  x: 1", "/x", "entries/a.yaml"]:
            findings += text(value)
    write("last_lint", findings)
    facts = b"kbc last lint facts 2\n" + text("kb-1") + struct.pack("<Q", 2)
    for path in ["entries/a.yaml", "entries/b.yaml"]:
        facts += text(path) + text("file-1") + struct.pack("<B", 1)
        facts += struct.pack("<I", 2) + text("abc") + text("de")  # atoms
        facts += struct.pack("<I", 1) + struct.pack("<III", 2, 0, 1)  # one clause of both
        facts += struct.pack("<I", 1) + text("entries/c.yaml") + text("/signature")  # hits
        facts += struct.pack("<iI", 4, 2) + struct.pack("<II", 1, 7)  # benign lines
        facts += struct.pack("<I", 1) + text("entries/a.yaml") + text("entries/a.yaml")
        facts += bytes(range(16)) + bytes(range(16, 32))
    write("last_lint", facts)


def main():
    shutil.rmtree(os.path.join(HERE, "corpus"), ignore_errors=True)
    texts = []
    for path in yaml_files():
        with open(path, "rb") as f:
            data = f.read()
        write("entry", data)
        text = data.decode("utf-8", "replace")
        if "kbc-disable" in text:
            write("suppressions", data)
        for key, value in re.findall(r"^(regex|signature|signature_zh): '(.*)'$", text, re.M):
            value = value.replace("''", "'")
            if key == "regex":
                write("js_regex", value)
            else:
                texts.append(value)
    for text in texts[:40]:
        write("search_tokens", text)
    write("suppressions", "# kbc-disable-next-line regex-overlap\nregex: x  # kbc-disable-line\n")
    records = glob.glob(os.path.join(ROOT, "tests", "golden", "*", "expected", "api", "**", "*.json"),
                        recursive=True)
    loaded = [json.load(open(r)) for r in sorted(records)][:3]
    write("bundle", json.dumps(loaded, ensure_ascii=False))
    write("bundle", "[]")
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-03-26", "capabilities": {},
                    "clientInfo": {"name": "fuzz", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
         "params": {"name": "lookup_error", "arguments": {"error": "CUDA error: out of memory",
                                                          "top": 3}}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call",
         "params": {"name": "search", "arguments": {"query": "out of memory"}}},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call",
         "params": {"name": "get_entry", "arguments": {"id": "cuda/oom", "language": "zh"}}},
        {"jsonrpc": "2.0", "id": 6, "method": "ping"},
    ]
    for request in requests:
        write("mcp", json.dumps(request))
    last_lint_seeds()


if __name__ == "__main__":
    main()
