#!/usr/bin/env python3
"""Writes a deterministic input script for machines/self-driving-car.yaml to stdout.

Usage: gen_script.py N SEED

The script is N lines, `INPUT` or `INPUT ARG`: a random walk over the machine that,
simulating it, mostly picks an input with a transition from the current state, and in
about 5% of lines a known input with none (which smrun rejects, leaving the state as it
was). passengersHaveEntered gets a small int, driveToLocation a JSON-quoted place.
The same N and SEED give the same script, and a shorter script is a prefix of a longer.
"""

import json
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "baselines"))
from car_machine import INITIAL, INPUTS, STATES, transition_table  # noqa: E402

REJECTED_SHARE = 0.05
PLACES = ("The Witches Brew", "Jester's Garage", "Main Street", "Airport", "Pier 39")
MAX_PASSENGERS = 7
LINES_PER_WRITE = 65536


def arg_text(rng, name):
    """Returns ` ARG` for an input that takes an argument, else ""."""
    kind = INPUTS[name]
    if kind is int:
        return f" {rng.randint(0, MAX_PASSENGERS)}"
    if kind is str:
        return " " + json.dumps(rng.choice(PLACES))
    return ""


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen_script.py N SEED")
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    table = transition_table()
    accepted = {s: [i for i in INPUTS if (s, i) in table] for s in STATES}
    rejected = {s: [i for i in INPUTS if (s, i) not in table] for s in STATES}

    rng = random.Random(seed)
    state = INITIAL
    lines = []
    for _ in range(count):
        if rng.random() < REJECTED_SHARE:
            name = rng.choice(rejected[state])
        else:
            name = rng.choice(accepted[state])
            state = table[(state, name)][0]
        lines.append(name + arg_text(rng, name) + "\n")
        if len(lines) == LINES_PER_WRITE:
            sys.stdout.write("".join(lines))
            lines.clear()
    sys.stdout.write("".join(lines))


if __name__ == "__main__":
    main()
