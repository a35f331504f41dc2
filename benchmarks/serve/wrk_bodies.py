#!/usr/bin/env python3
"""Writes a wrk Lua script that sends each of N instances of a machine the next line of a
machine script, as `POST /machines/MACHINE/instances/KEY/inputs` with `"create": true`
(benchmarks/serve_bench.sh): request i goes to instance i mod N with line i div N (cycling),
so that every instance follows the script in order. The instances' keys are PREFIX0,
PREFIX1, ... (PREFIX is `k` unless given), so that several wrk processes can each send to
instances of their own.

    wrk_bodies.py MACHINE SCRIPT INSTANCES [PREFIX] > inputs.lua
"""
import json
import sys


def lines(path):
    for raw in open(path, encoding="utf-8"):
        line = raw.strip()
        if not line or line.startswith("#") or line.startswith("@"):
            continue
        name, _, arg = line.partition(" ")
        body = {"input": name, "create": True}
        if arg:
            body["arg"] = json.loads(arg) if arg[0] in '"-0123456789tf' else arg
        yield json.dumps(body, separators=(",", ":"))


def main():
    machine, script, instances = sys.argv[1], sys.argv[2], int(sys.argv[3])
    prefix = sys.argv[4] if len(sys.argv) > 4 else "k"
    bodies = list(lines(script))
    print("wrk.method = 'POST'")
    print("wrk.headers['Content-Type'] = 'application/json'")
    print("local bodies = {" + ",".join(json.dumps(b) for b in bodies) + "}")
    print(f"local instances = {instances}")
    print("local counter = 0")
    print("request = function()")
    print("  local i = counter")
    print("  counter = counter + 1")
    print("  local key = i % instances")
    print("  local line = math.floor(i / instances) % #bodies + 1")
    print(f"  return wrk.format(nil, '/machines/{machine}/instances/{prefix}' .. key .. '/inputs', nil, bodies[line])")
    print("end")
    print("done = function(summary, latency, requests)")
    print("  io.write(string.format('non2xx %d errors %d\\n', summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))")
    print("end")


main()
