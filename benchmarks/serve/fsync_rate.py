#!/usr/bin/env python3
"""Prints how many 4 KiB write+fsync pairs a second the disk under DIRECTORY takes: what a
durable commit costs there (benchmarks/serve_bench.sh).

    fsync_rate.py DIRECTORY [SECONDS]
"""
import os
import sys
import time

directory = sys.argv[1]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
path = os.path.join(directory, "fsync-probe")
block = b"x" * 4096
count = 0
with open(path, "wb") as probe:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        probe.write(block)
        probe.flush()
        os.fsync(probe.fileno())
        count += 1
os.remove(path)
print(round(count / seconds))
