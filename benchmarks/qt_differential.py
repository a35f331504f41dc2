#!/usr/bin/env python3
"""Differential test of smrun against Qt 6 SCXML on random statecharts (run by hand).

    benchmarks/qt_differential.py [--charts N] [--inputs N] [--seed S] [--smrun PATH] [--keep DIR]

Writes N random SCXML documents (datamodel="null": compound, parallel, final and history
states, `<initial>`, events with several descriptors and `*`, `In()` conditions, eventless,
targetless, internal and two-target transitions, done events, `<raise>` in entries, exits and
transitions), runs the same random inputs through Qt SCXML (benchmarks/baselines/qt_scxml.cpp,
built here with pkg-config) and through `smrun run --format json`, and compares the active
atomic states after each input. A document that either engine refuses, or on which either one
loops (smrun's step limit, a Qt run that does not end), is counted and skipped, not compared.
Prints the first differences (document, inputs, both configurations) and a summary; exits 1
when a configuration differs, 0 otherwise, and 0 with a note when Qt is not installed.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EVENTS = ["a", "b", "c"]


class Chart:
    """A random state tree and its SCXML text."""

    def __init__(self, rng):
        self.rng = rng
        self.kinds = {}  # id -> atomic | compound | parallel | final | history
        self.parent = {}
        self.children = {}
        self.order = []
        top = [self.state(0, None) for _ in range(rng.randint(1, 3))]
        self.top = top
        self.real = [s for s in self.order if self.kinds[s] != "history"]

    def state(self, depth, parent):
        rng = self.rng
        name = f"s{len(self.order)}"
        self.order.append(name)
        self.parent[name] = parent
        self.children[name] = []
        roll = rng.random()
        if depth < 3 and roll < 0.35:
            self.kinds[name] = "compound"
            for _ in range(rng.randint(1, 3)):
                self.children[name].append(self.state(depth + 1, name))
            if rng.random() < 0.35:
                history = f"h{len(self.order)}"
                self.order.append(history)
                self.kinds[history] = "history"
                self.parent[history] = name
                self.children[history] = []
                self.children[name].append(history)
        elif depth < 3 and roll < 0.5:
            self.kinds[name] = "parallel"
            for _ in range(rng.randint(2, 3)):
                self.children[name].append(self.state(depth + 1, name))
        elif depth > 0 and roll < 0.62 and self.kinds[parent] != "parallel":
            # SCXML has no final region.
            self.kinds[name] = "final"
        else:
            self.kinds[name] = "atomic"
        return name

    def ancestors(self, state):
        result = []
        while self.parent[state] is not None:
            state = self.parent[state]
            result.append(state)
        return result

    def descendants(self, state):
        result = []
        for child in self.children[state]:
            result.append(child)
            result += self.descendants(child)
        return result

    def target(self):
        """One or two targets: two only in different regions of one parallel state."""
        rng = self.rng
        parallels = [s for s in self.real if self.kinds[s] == "parallel"]
        if parallels and rng.random() < 0.12:
            p = rng.choice(parallels)
            regions = rng.sample(self.children[p], 2)
            picks = []
            for region in regions:
                inside = [region] + [d for d in self.descendants(region) if self.kinds[d] != "history"]
                picks.append(rng.choice(inside))
            return " ".join(picks)
        histories = [s for s in self.order if self.kinds[s] == "history"]
        if histories and rng.random() < 0.12:
            return rng.choice(histories)
        return rng.choice(self.real)

    def condition(self):
        return f"In({self.rng.choice(self.real)})" if self.rng.random() < 0.5 else None

    def raises(self, probability):
        return f"<raise event=\"{self.rng.choice(EVENTS)}\"/>" if self.rng.random() < probability else ""

    def transitions(self, state, indent):
        rng = self.rng
        out = []
        for _ in range(rng.randint(0, 3)):
            attributes = []
            roll = rng.random()
            eventless = roll < 0.07
            if not eventless:
                done = [f"done.state.{s}" for s in [state] + self.ancestors(state) if self.kinds[s] in ("compound", "parallel")]
                if done and rng.random() < 0.15:
                    attributes.append(f'event="{rng.choice(done)}"')
                else:
                    descriptors = rng.sample(EVENTS + EVENTS + ["*"], rng.choice([1, 1, 1, 2]))
                    descriptors = sorted(set(descriptors), key=descriptors.index)
                    attributes.append(f'event="{" ".join(descriptors)}"')
            condition = self.condition() if not eventless else f"In({rng.choice(self.real)})"
            if condition:
                attributes.append(f'cond="{condition}"')
            if eventless or rng.random() > 0.1:
                attributes.append(f'target="{self.target()}"')
            if rng.random() < 0.15:
                attributes.append('type="internal"')
            body = self.raises(0.2)
            if body:
                out.append(f'{indent}<transition {" ".join(attributes)}>{body}</transition>')
            else:
                out.append(f'{indent}<transition {" ".join(attributes)}/>')
        return out

    def write(self, state, indent):
        kind = self.kinds[state]
        if kind == "history":
            # SCXML gives every history a default transition: to a child of its parent when
            # shallow, to any descendant when deep.
            deep = self.rng.random() < 0.5
            parent = self.parent[state]
            candidates = [s for s in (self.descendants(parent) if deep else self.children[parent]) if self.kinds[s] != "history"]
            target = self.rng.choice(candidates)
            kind_attribute = ' type="deep"' if deep else ""
            return [f'{indent}<history id="{state}"{kind_attribute}><transition target="{target}"/></history>']
        element = {"atomic": "state", "compound": "state", "parallel": "parallel", "final": "final"}[kind]
        attributes = f'id="{state}"'
        real_children = [c for c in self.children[state] if self.kinds[c] != "history"]
        use_initial_element = False
        if kind == "compound" and self.rng.random() < 0.3:
            first = self.rng.choice(real_children)
            if self.rng.random() < 0.5:
                attributes += f' initial="{first}"'
            else:
                use_initial_element = first
        lines = [f"{indent}<{element} {attributes}>"]
        inner = indent + "  "
        entry, leave = self.raises(0.2), self.raises(0.15)
        if entry:
            lines.append(f"{inner}<onentry>{entry}</onentry>")
        if leave:
            lines.append(f"{inner}<onexit>{leave}</onexit>")
        if use_initial_element:
            lines.append(f'{inner}<initial><transition target="{use_initial_element}"/></initial>')
        if kind != "final":
            lines += self.transitions(state, inner)
        for child in self.children[state]:
            lines += self.write(child, inner)
        lines.append(f"{indent}</{element}>")
        return lines

    def scxml(self):
        lines = ['<?xml version="1.0" encoding="UTF-8"?>',
                 '<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" name="random">']
        for state in self.top:
            lines += self.write(state, "  ")
        # A state never entered that names every event: smrun refuses an event that a document
        # does not name (docs/scxml.md), where Qt gives it to `*`.
        lines.append(f'  <state id="names"><transition event="{" ".join(EVENTS)}"/></state>')
        lines.append("</scxml>")
        return "\n".join(lines) + "\n"


def build_qt(work):
    if shutil.which("pkg-config") is None or subprocess.run(["pkg-config", "--exists", "Qt6Scxml"]).returncode != 0:
        return None
    binary = os.path.join(work, "qt_scxml")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "Qt6Scxml", "Qt6Core"], capture_output=True, text=True).stdout.split()
    built = subprocess.run(["g++", "-O2", "-fPIC", "-std=c++17", "-o", binary, os.path.join(HERE, "baselines", "qt_scxml.cpp")] + flags,
                           capture_output=True, text=True)
    if built.returncode != 0:
        sys.stderr.write(built.stderr)
        return None
    return binary


def run_qt(qt, document, inputs):
    """The active atomic states after each input, or why there are none (Qt refuses the
    document, or loops)."""
    try:
        result = subprocess.run([qt, document], input="\n".join(inputs) + "\n", capture_output=True, text=True, timeout=10)
    except subprocess.TimeoutExpired:
        return "Qt does not end (an eventless loop)"
    if result.returncode != 0:
        return "Qt refuses the document"
    lines = result.stdout.split("\n")[:len(inputs)]
    return [sorted(line.split()) for line in lines]


def run_smrun(smrun, document, inputs):
    """The active atomic states after each input, or why there are none (smrun refuses the
    document, or stops a run at its step limit)."""
    # A low step limit: a document that loops is skipped, and finding that out is quick.
    result = subprocess.run([smrun, "run", document, "--format", "json", "--max-steps", "200"], input="\n".join(inputs) + "\n",
                            capture_output=True, text=True, timeout=60)
    if result.returncode not in (0, 1):
        return "smrun refuses the document"
    configurations = {}
    finished = False
    for line in result.stdout.splitlines():
        record = json.loads(line)
        if "step-limit" in line:
            return "smrun stops at its step limit (an eventless loop)"
        if "line" not in record:
            continue
        configuration = record.get("to", record.get("from"))
        if isinstance(configuration, str):
            configuration = [configuration]
        configurations[record["line"]] = sorted(configuration or [])
    if not configurations and inputs:
        return "smrun printed no result"
    out = []
    previous = []
    for number in range(1, len(inputs) + 1):
        previous = configurations.get(number, previous)
        out.append(previous)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--charts", type=int, default=500)
    parser.add_argument("--inputs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--smrun", default=os.path.join(ROOT, ".build", "release", "smrun"))
    parser.add_argument("--keep", help="a directory to keep the differing documents in")
    parser.add_argument("--show", type=int, default=3, help="how many differences to print")
    parser.add_argument("--verbose", action="store_true", help="say why each skipped document was skipped")
    options = parser.parse_args()
    if not os.path.exists(options.smrun):
        options.smrun = os.path.join(ROOT, ".build", "debug", "smrun")
    work = tempfile.mkdtemp(prefix="qt-differential-")
    try:
        qt = build_qt(work)
        if qt is None:
            print("note: Qt 6 SCXML (qt6-scxml-dev, pkg-config Qt6Scxml) is missing: nothing compared")
            return 0
        rng = random.Random(options.seed)
        compared = differing = 0
        skipped = {}
        for number in range(options.charts):
            chart = Chart(rng)
            text = chart.scxml()
            document = os.path.join(work, f"chart{number}.scxml")
            with open(document, "w") as f:
                f.write(text)
            inputs = [rng.choice(EVENTS) for _ in range(options.inputs)]
            ours = run_smrun(options.smrun, document, inputs)
            theirs = run_qt(qt, document, inputs) if isinstance(ours, list) else None
            reason = ours if isinstance(ours, str) else theirs if isinstance(theirs, str) else None
            if reason is None and len(theirs) != len(inputs):
                reason = "Qt printed too few configurations"
            if reason:
                skipped[reason] = skipped.get(reason, 0) + 1
                if options.verbose:
                    print(f"skipped chart {number}: {reason}")
                continue
            compared += 1
            for step, (mine, qts) in enumerate(zip(ours, theirs)):
                # Qt empties its configuration once a top-level final state stops the machine.
                if qts == [] and mine and all(chart.kinds[s] == "final" and chart.parent[s] is None for s in mine):
                    break
                if mine != qts:
                    differing += 1
                    if differing <= options.show:
                        print(f"--- chart {number}: after input {step + 1} of {' '.join(inputs)}")
                        print(f"smrun: {' '.join(mine)}\nqt:    {' '.join(qts)}")
                        print(text)
                    if options.keep:
                        os.makedirs(options.keep, exist_ok=True)
                        shutil.copy(document, options.keep)
                        with open(os.path.join(options.keep, f"chart{number}.inputs"), "w") as f:
                            f.write("\n".join(inputs) + "\n")
                    break
        print(f"{options.charts} charts: {compared} compared, {sum(skipped.values())} skipped, {differing} differing")
        for reason, count in sorted(skipped.items()):
            print(f"  skipped: {count}: {reason}")
        return 1 if differing else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
