#!/usr/bin/env python3
"""Writes an event log for `smrun run --by-key` (benchmarks/serve_bench.sh): LINES lines,
keys drawn uniformly from KEYS, each key following SCRIPT's inputs in order, cycling.

    keyed_log.py SCRIPT LINES KEYS [SEED] > log
"""
import random
import sys

script, lines, keys = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
random.seed(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
inputs = [line.strip() for line in open(script, encoding="utf-8") if line.strip() and not line.startswith(("#", "@"))]
names = [f"k{key}" for key in range(keys)]
position = [0] * keys
out = sys.stdout
chunk = []
draw = random.randrange
for _ in range(lines):
    key = draw(keys)
    chunk.append(f"{names[key]} {inputs[position[key]]}\n")
    position[key] = (position[key] + 1) % len(inputs)
    if len(chunk) == 65536:
        out.write("".join(chunk))
        chunk = []
out.write("".join(chunk))
