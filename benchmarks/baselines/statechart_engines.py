#!/usr/bin/env python3
"""The statechart benchmark's Python baselines, and the configurations smrun printed.

    statechart_engines.py sismic MACHINE.sismic.yaml [-t] < INPUTS
    statechart_engines.py python-statemachine MACHINE.scxml [-t] < INPUTS
    statechart_engines.py from-smrun-json < SMRUN_JSON_LINES

The first two run one input per line of standard input on sismic or on python-statemachine
(which reads the SCXML document), and print the active atomic states after each input, sorted
and joined by spaces, as benchmarks/baselines/qt_scxml.cpp does; with -t they print only the
seconds the inputs took (loading excluded) and the input count. An input a state does not take
leaves the configuration as it was, in every engine. The last reads smrun's JSON Lines and prints
the configuration after each script line in the same form: the last result of a line (its
eventless steps and queued inputs included) holds it, in `to` when accepted, else in `from`.
"""
import json
import sys
import time


def read_inputs():
    return [line.rstrip("\r\n") for line in sys.stdin]


def run_sismic(path, timing):
    from sismic.interpreter import Interpreter
    from sismic.io import import_from_yaml

    chart = import_from_yaml(filepath=path)
    interpreter = Interpreter(chart)
    interpreter.execute_once()
    atomic = {name for name in chart.states if not chart.children_for(name)}
    inputs = read_inputs()
    start = time.perf_counter()
    lines = []
    for name in inputs:
        interpreter.queue(name)
        interpreter.execute()
        if not timing:
            lines.append(" ".join(sorted(s for s in interpreter.configuration if s in atomic)))
    return time.perf_counter() - start, len(inputs), lines


def run_python_statemachine(path, timing):
    from statemachine.io import load

    machine = load(path)()
    inputs = read_inputs()
    start = time.perf_counter()
    lines = []
    for name in inputs:
        machine.send(name)
        if not timing:
            lines.append(" ".join(sorted(s.id for s in machine.configuration if not s.states)))
    return time.perf_counter() - start, len(inputs), lines


def from_smrun_json():
    last = {}
    for text in sys.stdin:
        result = json.loads(text)
        configuration = result["to"] if result["ok"] else result["from"]
        last[result["line"]] = configuration
    for line in sorted(last):
        print(" ".join(sorted(last[line])))


def main():
    if sys.argv[1:2] == ["from-smrun-json"]:
        from_smrun_json()
        return
    engine, path, *flags = sys.argv[1:]
    timing = flags == ["-t"]
    run = {"sismic": run_sismic, "python-statemachine": run_python_statemachine}[engine]
    seconds, count, lines = run(path, timing)
    if timing:
        print(f"{seconds:.6f} {count}")
    else:
        sys.stdout.write("".join(line + "\n" for line in lines))


if __name__ == "__main__":
    main()
