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


if __name__ == "__main__":
    main()
