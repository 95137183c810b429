#!/usr/bin/env python3
"""Times Python's m3u8 package on a playlist file: prints seconds to parse and to dump.

Usage: compare.py PLAYLIST. Runs in a virtual environment under .build-bench/venv, which it
creates (and installs m3u8 into from PyPI) when missing, then runs itself again there.
"""
import os
import subprocess
import sys
import time

VENV = os.path.join(".build-bench", "venv")
PYTHON = os.path.join(VENV, "bin", "python")
M3U8_VERSION = "6.0.0"


def ensure_venv():
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    if not os.path.exists(PYTHON):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True, stdout=sys.stderr)
        subprocess.run([PYTHON, "-m", "pip", "install", "--quiet", f"m3u8=={M3U8_VERSION}"],
                       check=True, stdout=sys.stderr)
    os.execv(PYTHON, [PYTHON] + sys.argv)


def best_of(runs, work):
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main():
    ensure_venv()
    import m3u8

    with open(sys.argv[1], encoding="utf-8") as handle:
        text = handle.read()
    playlist = m3u8.loads(text, uri="https://media.example.com/vod/index.m3u8")
    assert len(playlist.segments) == 100_000, len(playlist.segments)
    parse = best_of(2, lambda: m3u8.loads(text, uri="https://media.example.com/vod/index.m3u8"))
    dump = best_of(2, playlist.dumps)
    print(f"{parse:.6f} {dump:.6f}")


if __name__ == "__main__":
    main()
