"""Jester's self-driving car (machines/self-driving-car.yaml), transcribed for Python.

Shared by the Python baselines and by gen_script.py. Keep it in step with the machine
file: bench.sh compares every baseline's output with smrun's, which catches drift.
"""

INITIAL = "unstarted"

STATES = (
    "unstarted",
    "drivingAround",
    "drivingToLocation",
    "parked",
    "pickingUpPassengers",
    "droppingOffPassengers",
)

# Input name -> type of its argument (None: the input takes no argument).
INPUTS = {
    "startEngine": None,
    "driveAround": None,
    "park": None,
    "pickUpPassengers": None,
    "passengersHaveEntered": int,
    "driveToLocation": str,
    "dropOffPassengers": None,
    "noMapInput": None,
    "noFailInput": None,
}

# Stands for "the input's argument" as the value an effect sets.
ARG = object()

# Effect name -> (context key it sets, value).
EFFECTS = {
    "pickedUpPassengers": ("passengers", ARG),
    "driveToLocation": ("location", ARG),
    "dropOffPassengers": ("passengers", 0),
}

# (input, from-states, to-state, effects), as in the machine file; to-state None stays put.
TRANSITIONS = (
    ("startEngine", ("unstarted",), "parked", ()),
    ("driveAround", ("parked", "droppingOffPassengers"), "drivingAround", ()),
    ("park", ("drivingAround",), "parked", ()),
    ("park", ("drivingToLocation",), "parked", ()),
    ("pickUpPassengers", ("parked",), "pickingUpPassengers", ()),
    ("passengersHaveEntered", ("pickingUpPassengers",), "pickingUpPassengers", ("pickedUpPassengers",)),
    ("driveToLocation", ("pickingUpPassengers",), "drivingToLocation", ("driveToLocation",)),
    ("dropOffPassengers", ("parked",), "droppingOffPassengers", ("dropOffPassengers",)),
    ("noFailInput", STATES, None, ()),
)


def transition_table():
    """Returns {(from-state, input): (to-state, effects)} for every transition."""
    table = {}
    for name, sources, target, effects in TRANSITIONS:
        for source in sources:
            table[(source, name)] = (target or source, effects)
    return table


def parse_line(line):
    """Splits one script line, `INPUT` or `INPUT ARG`, into (input, argument, label).

    The argument is None for an input that takes none. The label is `INPUT[ ARG]` as
    smrun echoes it: an int argument in decimal, a string one JSON-quoted. Strings stay
    in their JSON form, undecoded (gen_script.py writes none with escapes).
    Raises ValueError for an unknown input or a missing or wrong argument.
    """
    name, _, text = line.rstrip("\n").partition(" ")
    if name not in INPUTS:
        raise ValueError(f"unknown input: {name!r}")
    kind = INPUTS[name]
    if kind is None:
        if text:
            raise ValueError(f"{name} takes no argument: {text!r}")
        return name, None, name
    if kind is int:
        value = int(text)
        return name, value, f"{name} {value}"
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"{name} needs a JSON string: {text!r}")
    return name, text, f"{name} {text}"
