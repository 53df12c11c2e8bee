#!/usr/bin/env python3
"""The real-world evaluation of `kbc match`: real error texts and clean logs, labelled beforehand.

Each case of bench/realworld/cases.jsonl names a text in bench/realworld/cases/ (copied verbatim
from the public page at its `url`), its `kind` (error: a corpus entry explains it; clean: output
of something that worked; uncovered: a real error no entry explains), the corpus entries that
explain it (`expect`, any of them counts as right) and its `key_line`. Every case is run twice
through the real binary, as a user would: the whole text on standard input, and the key line as
the argument, each with `kbc match --json --top 10`.

Printed, per way of giving the entries (--root, --bundle) and per input (whole log, key line):
for the error cases, the share with a right entry first (top-1), in the first three (top-3) and
the mean reciprocal rank of the first right entry in the top 10 (MRR); for the others, how many
were answered above the threshold (false positives), and how many got near matches only.
--show prints each case that missed.

Usage: bench/realworld.py KBC ROOT [--bundle KB_JSON] [--show] [--cases FILE]
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load_cases(path):
    cases = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.strip():
                case = json.loads(line)
                case["line_number"] = number
                cases.append(case)
    return cases


def run_match(kbc, source, text, as_argument, extra):
    command = [kbc, "match", *source, "--json", "--top", "10", *extra]
    if as_argument:
        result = subprocess.run(command + ["--", text], capture_output=True)
    else:
        result = subprocess.run(command + ["-"], input=text.encode("utf-8"), capture_output=True)
    if result.returncode not in (0, 1):
        sys.exit(f"kbc match failed ({result.returncode}): {result.stderr.decode()}")
    return json.loads(result.stdout)["hits"]


def all_entries_known(source, expect):
    """False when none of the expected entries is among those `source` gives (a bundle leaves out
    the entries with errors)."""
    if source[0] != "--bundle":
        return True
    if source[1] not in BUNDLE_IDS:
        with open(source[1], encoding="utf-8") as f:
            BUNDLE_IDS[source[1]] = {record["id"] for record in json.load(f)}
    return any(e in BUNDLE_IDS[source[1]] for e in expect)


BUNDLE_IDS = {}


def first_right(hits, expect):
    for position, hit in enumerate(hits, 1):
        if hit["id"] in expect:
            return position
    return None


def evaluate(kbc, source, cases, as_argument, extra, show):
    errors = [c for c in cases if c["kind"] == "error"]
    others = [c for c in cases if c["kind"] != "error"]
    top1 = top3 = 0
    reciprocal = 0.0
    answered = near_only = 0
    absent = 0
    misses = []
    for case in cases:
        with open(os.path.join(HERE, "realworld", "cases", case["case"] + ".log"),
                  encoding="utf-8") as f:
            text = f.read()
        hits = run_match(kbc, source, case["key_line"] if as_argument else text, as_argument,
                         extra)
        if case["kind"] == "error":
            if not all_entries_known(source, case["expect"]):
                absent += 1
            position = first_right(hits, set(case["expect"]))
            top1 += position == 1
            top3 += position is not None and position <= 3
            reciprocal += 1 / position if position else 0
            if position != 1:
                misses.append((case, position, hits))
        elif hits and not hits[0].get("near"):
            answered += 1
            misses.append((case, None, hits))
        elif hits:
            near_only += 1
            misses.append((case, None, hits))
    n = max(1, len(errors))
    figures = {
        "errors": len(errors), "top1": top1 / n, "top3": top3 / n, "mrr": reciprocal / n,
        "negatives": len(others), "answered": answered, "near_only": near_only,
        "absent": absent,
    }
    if show:
        for case, position, hits in misses:
            got = ", ".join(f"{h['id']}{' (near)' if h.get('near') else ''}" for h in hits[:3])
            print(f"  {case['case']:8} {case['kind']:9} right at {position}: {got or '-'}")
            if case["kind"] == "error":
                print(f"           want {', '.join(case['expect'])}")
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kbc")
    parser.add_argument("root")
    parser.add_argument("--bundle")
    parser.add_argument("--show", action="store_true")
    parser.add_argument("--cases", default=os.path.join(HERE, "realworld", "cases.jsonl"))
    parser.add_argument("--extra", action="append", default=[],
                        help="a further option for kbc match, e.g. --extra=--min-score=0")
    args = parser.parse_args()
    cases = load_cases(args.cases)
    kinds = {k: sum(c["kind"] == k for c in cases) for k in ("error", "clean", "uncovered")}
    print(f"{len(cases)} cases: {kinds['error']} errors, {kinds['clean']} clean logs, "
          f"{kinds['uncovered']} uncovered errors")
    sources = [("--root", ["--root", args.root])]
    if args.bundle:
        sources.append(("--bundle", ["--bundle", args.bundle]))
    print(f"{'entries':9} {'input':9} {'top-1':>6} {'top-3':>6} {'MRR':>6} "
          f"{'negatives answered':>19} {'near only':>9}")
    for name, source in sources:
        for as_argument in (False, True):
            figures = evaluate(args.kbc, source, cases, as_argument, args.extra, args.show)
            print(f"{name:9} {'key line' if as_argument else 'whole log':9} "
                  f"{figures['top1']:6.1%} {figures['top3']:6.1%} {figures['mrr']:6.3f} "
                  f"{figures['answered']:>10} of {figures['negatives']} {figures['near_only']:>9}")
        if figures["absent"]:
            print(f"  ({name}: {figures['absent']} error cases have none of their entries in it)")


if __name__ == "__main__":
    main()
