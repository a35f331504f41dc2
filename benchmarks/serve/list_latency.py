#!/usr/bin/env python3
"""Times REQUESTS list requests of `smrun serve` (benchmarks/serve_bench.sh): each asks for
LIMIT instances in STATE, from a random place in the key order (a cursor made from a random
key); prints the p50 and p99 in milliseconds and how many instances the pages held.

    list_latency.py URL MACHINE STATE REQUESTS LIMIT KEYS
"""
import base64
import http.client
import json
import random
import sys
import time
import urllib.parse

url, machine, state, requests, limit, keys = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
parsed = urllib.parse.urlparse(url)
connection = http.client.HTTPConnection(parsed.hostname, parsed.port)
random.seed(1)
times, found = [], 0
for _ in range(requests):
    key = f"c{random.randrange(keys):08d}"
    cursor = base64.urlsafe_b64encode(key.encode()).decode().rstrip("=")
    path = f"/machines/{machine}/instances?state={state}&limit={limit}&cursor={cursor}"
    start = time.perf_counter()
    connection.request("GET", path)
    answer = connection.getresponse()
    body = answer.read()
    times.append((time.perf_counter() - start) * 1000)
    if answer.status != 200:
        sys.exit(f"list_latency.py: {answer.status} {body[:200]!r}")
    found += len(json.loads(body)["instances"])
times.sort()
print(f"p50 {times[len(times) // 2]:.1f} ms, p99 {times[min(len(times) - 1, int(len(times) * 0.99))]:.1f} ms, {found / requests:.0f} instances a page")
