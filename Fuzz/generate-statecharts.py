#!/usr/bin/env python3
"""Writes random statechart machine files, as seeds for the FuzzMachineFile corpus.

    Fuzz/generate-statecharts.py DIRECTORY COUNT SEED

Byte-level mutation of YAML rarely builds a statechart that loads, so libFuzzer alone seldom
reaches the runner's deeper paths. These files do: random trees of compound, parallel, final and
history states (up to 5 levels), transitions with one or two targets, eventless ones with
guards, `type: internal`, `in()`, entry/exit effects that count and send. About half of them
load; the others exercise the checks. Each run of one SEED writes the same files.
"""
import os
import random
import sys


def machine(rng):
    names, kinds = [], {}

    def state(depth):
        name = f"s{len(names)}"
        names.append(name)
        options = {}
        roll = rng.random()
        if depth < 4 and roll < 0.35:
            kinds[name] = "compound"
            children = [state(depth + 1) for _ in range(rng.randint(1, 3))]
            if rng.random() < 0.3:
                history = f"h{len(names)}"
                names.append(history)
                kinds[history] = "history"
                children.append((history, {"history": rng.choice(["shallow", "deep"])}))
            if rng.random() < 0.2:
                options["initial"] = rng.choice(children)[0]
            options["states"] = children
        elif depth < 4 and roll < 0.5:
            kinds[name] = "parallel"
            options["parallel"] = "true"
            options["states"] = [state(depth + 1) for _ in range(rng.randint(1, 3))]
        elif roll < 0.62:
            kinds[name] = "final"
            options["final"] = "true"
        else:
            kinds[name] = "atomic"
        if rng.random() < 0.2:
            options["entry"] = "[count]"
        if rng.random() < 0.15:
            options["exit"] = "[ping]"
        return name, options

    top = [state(0) for _ in range(rng.randint(1, 4))]
    while kinds[top[0][0]] == "final":
        top.insert(0, state(0))
    inputs = ["a", "b", "c"]
    done = [f"done.state.{n}" for n in names if kinds[n] in ("compound", "parallel")][:3]
    lines = [
        f"initial: {top[0][0]}",
        "inputs: [a, b, c]",
        "context: { n: 0 }",
        "effects:",
        "  count: { set: { n: n + 1 } }",
        "  ping: { send: [b] }",
        "  reset: { set: { n: 0 } }",
        "states:",
    ]

    def emit(states, indent):
        for name, options in states:
            lines.append(" " * indent + f"{name}:")
            for key, value in options.items():
                if key == "states":
                    lines.append(" " * (indent + 2) + "states:")
                    emit(value, indent + 4)
                else:
                    lines.append(" " * (indent + 2) + f"{key}: {value}")

    emit(top, 2)
    lines.append("transitions:")
    for _ in range(rng.randint(1, 10)):
        lines.append(f"  - from: {rng.choice(names)}")
        eventless = rng.random() >= 0.85
        if eventless:
            lines.append(f"    when: n < {rng.randint(0, 5)}")
        else:
            lines.append("    input: " + rng.choice(inputs + done + ['"*"']))
        roll = rng.random()
        if roll < 0.6:
            lines.append(f"    to: {rng.choice(names)}")
        elif roll < 0.68:
            lines.append(f"    to: [{rng.choice(names)}, {rng.choice(names)}]")
        if rng.random() < 0.2:
            lines.append("    type: internal")
        if not eventless and rng.random() < 0.3:
            lines.append("    when: " + rng.choice(["n > 1", f"in({rng.choice(names)})", "n == 0"]))
        if rng.random() < 0.4:
            lines.append("    effects: [" + rng.choice(["count", "ping", "reset", "count, ping"]) + "]")
    return "\n".join(lines) + "\n"


def main():
    directory, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    os.makedirs(directory, exist_ok=True)
    for index in range(count):
        with open(os.path.join(directory, f"generated-statechart-{seed}-{index}.yaml"), "w") as file:
            file.write(machine(rng))


if __name__ == "__main__":
    main()
