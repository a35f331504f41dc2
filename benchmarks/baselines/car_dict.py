#!/usr/bin/env python3
"""Baseline: the self-driving car as a plain Python dict loop.

Reads an input script on stdin and prints smrun's text output for each line.
"""

import sys

from car_machine import ARG, EFFECTS, INITIAL, parse_line, transition_table


def main():
    table = transition_table()
    context = {"passengers": 0, "location": None}
    state = INITIAL
    write = sys.stdout.write
    for number, line in enumerate(sys.stdin, 1):
        try:
            name, arg, label = parse_line(line)
        except ValueError as error:
            sys.exit(f"car_dict.py: line {number}: {error}")
        transition = table.get((state, name))
        if transition is None:
            write(f"line {number}: {label}: {state}: rejected: no-transition: no transition for '{name}' from '{state}'\n")
            continue
        target, effects = transition
        for effect in effects:
            key, value = EFFECTS[effect]
            context[key] = arg if value is ARG else value
        shown = " / " + ", ".join(effects) if effects else ""
        write(f"{label}: {state} -> {target}{shown}\n")
        state = target


if __name__ == "__main__":
    main()
