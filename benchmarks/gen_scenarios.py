#!/usr/bin/env python3
"""Writes a scenario file of N scenarios of STEPS steps for machines/self-driving-car.yaml, and
the script of the same inputs, for timing `smrun test` against `smrun run`.

Usage: gen_scenarios.py N STEPS SEED MACHINE SCENARIOS SCRIPT

MACHINE is the path the scenario file's `machine:` names (relative to the scenario file's
folder, or absolute). Each scenario is a random walk from the initial state, as gen_script.py
walks (about 5% of inputs have no transition and are rejected); each step sends one input and
expects the state after it, and a rejected one `ok: false` too, so that every step checks
something. SCRIPT gets the same inputs, one per line, scenario after scenario. The same
arguments give the same files.
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


def argument(rng, name):
    """Returns the argument of an input as a script writes it and as YAML does, or None."""
    kind = INPUTS[name]
    if kind is int:
        number = str(rng.randint(0, MAX_PASSENGERS))
        return number, number
    if kind is str:
        text = json.dumps(rng.choice(PLACES))
        return text, text
    return None


def main():
    if len(sys.argv) != 7:
        sys.exit("usage: gen_scenarios.py N STEPS SEED MACHINE SCENARIOS SCRIPT")
    count, steps, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    machine, scenario_path, script_path = sys.argv[4:7]
    table = transition_table()
    accepted = {s: [i for i in INPUTS if (s, i) in table] for s in STATES}
    rejected = {s: [i for i in INPUTS if (s, i) not in table] for s in STATES}

    rng = random.Random(seed)
    yaml = [f"machine: {machine}\nscenarios:\n"]
    script = []
    for index in range(count):
        yaml.append(f"  - name: walk {index}\n    steps:\n")
        state = INITIAL
        for _ in range(steps):
            ok = rng.random() >= REJECTED_SHARE
            if ok:
                name = rng.choice(accepted[state])
                state = table[(state, name)][0]
            else:
                name = rng.choice(rejected[state])
            arg = argument(rng, name)
            send = name if arg is None else f"{{ input: {name}, arg: {arg[1]} }}"
            expect = f"state: {state}" if ok else f"ok: false, state: {state}"
            yaml.append(f"      - send: {send}\n        expect: {{ {expect} }}\n")
            script.append(name if arg is None else f"{name} {arg[0]}")
    with open(scenario_path, "w") as out:
        out.write("".join(yaml))
    with open(script_path, "w") as out:
        out.write("\n".join(script) + "\n")


if __name__ == "__main__":
    main()
