#!/usr/bin/env python3
"""Writes a wrk Lua script that sends each of N instances of a machine the next line of a
machine script, as `POST /machines/MACHINE/instances/KEY/inputs` with `"create": true`
(benchmarks/serve_bench.sh): request i goes to instance i mod N with line i div N (cycling),
so that every instance follows the script in order. The instances' keys are PREFIX0,
PREFIX1, ... (PREFIX is `k` unless given), so that several wrk processes can each send to
instances of their own.

With `--rate R` the script paces its requests at R a second in all (wrk's `delay()`, on
LuaJIT's monotonic clock), so that wrk measures the latency of a server offered that rate
rather than one kept saturated by every connection. wrk times a request from when it writes
it: a server slower than R is offered less, and the rate wrk reports shows it.

    wrk_bodies.py [--rate R] MACHINE SCRIPT INSTANCES [PREFIX] > inputs.lua
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


# wrk calls delay() before each request of every connection and waits that many
# milliseconds. Each call takes the next of the slots 1/R apart, shared by the connections;
# a server that fell behind by more than 50 ms is not sent a burst to catch up.
PACING = """local ffi = require("ffi")
ffi.cdef[[ typedef struct { long tv_sec; long tv_nsec; } bench_timespec; int clock_gettime(int, bench_timespec *); ]]
local clock = ffi.new("bench_timespec")
local function now_ms()
  ffi.C.clock_gettime(1, clock)
  return tonumber(clock.tv_sec) * 1000 + tonumber(clock.tv_nsec) / 1e6
end
local interval = 1000 / %s
local slot = nil
delay = function()
  local now = now_ms()
  if slot == nil or slot < now - 50 then slot = now end
  slot = slot + interval
  if slot <= now then return 0 end
  return math.floor(slot - now + 0.5)
end"""


def main():
    arguments = sys.argv[1:]
    rate = None
    if arguments[:1] == ["--rate"]:
        rate = float(arguments[1])
        if rate <= 0:
            sys.exit("wrk_bodies.py: --rate must be above 0")
        arguments = arguments[2:]
    machine, script, instances = arguments[0], arguments[1], int(arguments[2])
    prefix = arguments[3] if len(arguments) > 3 else "k"
    bodies = list(lines(script))
    # Each request is two strings made once: the request line of its instance, and the
    # headers and body of its script line (wrk.format() per request cost wrk some 15% of its CPU).
    print("local bodies = {" + ",".join(json.dumps(b) for b in bodies) + "}")
    print(f"local instances = {instances}")
    print("local heads, tails = {}, {}")
    print("init = function(args)")
    print("  for key = 0, instances - 1 do")
    print(f"    heads[key] = 'POST /machines/{machine}/instances/{prefix}' .. key .. '/inputs HTTP/1.1\\r\\n'")
    print("  end")
    print("  for line, body in ipairs(bodies) do")
    print("    tails[line] = 'Host: ' .. wrk.headers['Host'] .. '\\r\\nContent-Type: application/json\\r\\nContent-Length: ' .. #body .. '\\r\\n\\r\\n' .. body")
    print("  end")
    print("end")
    print("local counter = 0")
    print("request = function()")
    print("  local i = counter")
    print("  counter = counter + 1")
    print("  return heads[i % instances] .. tails[math.floor(i / instances) % #bodies + 1]")
    print("end")
    if rate is not None:
        print(PACING % rate)
    print("done = function(summary, latency, requests)")
    print("  io.write(string.format('non2xx %d errors %d\\n', summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))")
    print("end")


main()
