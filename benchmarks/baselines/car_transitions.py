#!/usr/bin/env python3
"""Baseline: the self-driving car run by the `transitions` package (pytransitions).

Reads an input script on stdin and prints smrun's text output for each line. Each
input fires the machine's trigger; effects are `after` callbacks that update the model.
"""

import sys

from transitions import Machine, MachineError

from car_machine import ARG, EFFECTS, INITIAL, INPUTS, STATES, TRANSITIONS, parse_line


class Car:
    """The model: the machine's context, and the effects that the last input ran."""

    def __init__(self):
        self.passengers = 0
        self.location = None
        self.ran = []


def effect_callback(name):
    """An `after` callback that applies effect `name` and records that it ran."""
    key, value = EFFECTS[name]

    def run(event):
        setattr(event.model, key, event.args[0] if value is ARG else value)
        event.model.ran.append(name)

    return run


def build_machine(car):
    machine = Machine(car, states=list(STATES), initial=INITIAL, auto_transitions=False, send_event=True)
    for name, sources, target, effects in TRANSITIONS:
        machine.add_transition(name, list(sources), target, after=[effect_callback(e) for e in effects])
    for name in INPUTS:
        if name not in machine.events:
            machine.add_transition(name, [], None)  # an input with no transition at all
    return machine


def main():
    car = Car()
    build_machine(car)
    write = sys.stdout.write
    for number, line in enumerate(sys.stdin, 1):
        try:
            name, arg, label = parse_line(line)
        except ValueError as error:
            sys.exit(f"car_transitions.py: line {number}: {error}")
        source = car.state
        car.ran.clear()
        try:
            car.trigger(name, *([] if arg is None else [arg]))
        except MachineError:
            write(f"line {number}: {label}: {source}: rejected: no-transition: no transition for '{name}' from '{source}'\n")
            continue
        shown = " / " + ", ".join(car.ran) if car.ran else ""
        write(f"{label}: {source} -> {car.state}{shown}\n")


if __name__ == "__main__":
    main()
