#!/usr/bin/env python3
"""The sandbox's start-up cost: `python3 -I -S -c pass` bare against the
same under eddi-sandbox with the read paths the runner gives it
(python/eddi/sandbox.py), ROUNDS runs each, interleaved; prints the
medians and their difference (the target: at most 15 ms more).

  bench_sandbox_start.py EDDI_SANDBOX [ROUNDS]
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
from eddi import sandbox  # noqa: E402


def main():
    program = os.path.abspath(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    python = sandbox.interpreter()
    base = tempfile.mkdtemp(prefix="eddi-sandbox-bench-")
    try:
        given, scratch = sandbox.prepare(base)
        bare = [python, "-I", "-S", "-c", "pass"]
        confined = [program, "--scratch", scratch]
        for path in sandbox.needed_paths(python, given):
            confined += ["--read", path]
        confined += ["--"] + bare
        times = {"bare": [], "sandboxed": []}
        for _ in range(rounds):
            for name, command in (("bare", bare), ("sandboxed", confined)):
                start = time.perf_counter()
                subprocess.run(command, check=True)
                times[name].append((time.perf_counter() - start) * 1000)
        b, s = statistics.median(times["bare"]), statistics.median(times["sandboxed"])
        print(f"{python} -I -S -c pass, {rounds} runs each:")
        print(f"  bare      median {b:.1f} ms")
        print(f"  sandboxed median {s:.1f} ms  (+{s - b:.1f} ms, {s / b:.2f}x)")
    finally:
        shutil.rmtree(base, ignore_errors=True)


main()
