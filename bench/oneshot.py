#!/usr/bin/env python3
"""One-shot `kbc match --bundle`: the whole process, median of several runs, per kind of text.

Usage: bench/oneshot.py KBC BUNDLE [--runs N]

A one-shot match compiles only the regexes that may match its text, from the regexes' plans kept
in the user's cache (regex_plans.h). "first run" is a run with an empty cache (it computes the
plans and stores them); "later runs" find them. The cache is a temporary XDG_CACHE_HOME, so the
user's own is never touched. The runs of each kind alternate, so that a noisy minute weighs on
all of them alike.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TEXTS = [
    ("error message with a hit", "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB"),
    ("error code alone", "CUDNN_STATUS_BAD_PARAM"),
    ("text that matches nothing", "hello there, all is well"),
]


def run(kbc, bundle, text, cache, stdin=None):
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    argv = [kbc, "match", "--bundle", bundle, "-" if stdin is not None else text]
    start = time.perf_counter()
    subprocess.run(argv, input=stdin, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main():
    args = sys.argv[1:]
    runs = 15
    if "--runs" in args:
        at = args.index("--runs")
        runs = int(args[at + 1])
        del args[at:at + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    kbc, bundle = args
    here = os.path.dirname(os.path.abspath(__file__))
    log_path = os.path.join(here, "realworld", "cases", "ml-01.log")
    kinds = list(TEXTS)
    if os.path.exists(log_path):
        with open(log_path, "rb") as f:
            kinds.append(("a real log on standard input", f.read()))
    warm = tempfile.mkdtemp()
    try:
        run(kbc, bundle, "warm the cache", warm)
        first, later = {}, {}
        for _ in range(runs):
            for name, text in kinds:
                stdin = text if isinstance(text, bytes) else None
                cold = tempfile.mkdtemp()
                first.setdefault(name, []).append(run(kbc, bundle, text, cold, stdin))
                shutil.rmtree(cold)
                later.setdefault(name, []).append(run(kbc, bundle, text, warm, stdin))
        print(f"one-shot kbc match --bundle, whole process, median of {runs} runs (ms):")
        print(f"  {'first run':>10} {'later runs':>11}  text")
        for name, _ in kinds:
            print(f"  {statistics.median(first[name]) * 1e3:10.0f} "
                  f"{statistics.median(later[name]) * 1e3:11.0f}  {name}")
    finally:
        shutil.rmtree(warm)


if __name__ == "__main__":
    main()
