#!/usr/bin/env python3
"""make bench, the inspector (docs/inspector.md) in headless Chromium against `smrun serve`:

  - a 200-state chart (20 compound states of 9 children each) whose instance has 10,000
    history entries: from a click on the instance's key in the machine's list to its diagram
    with the active state lit (median and worst of BENCH_INSPECTOR_CLICKS clicks);
  - 100 inputs a second for 10 seconds sent by another client to one instance the page shows:
    how long each entry took to appear in the page's history after its answer (p50, p99,
    worst; every entry must appear), and how far behind the lit state was (sampled every
    50 ms: the time since the first answer the page did not show yet; p99 and worst).

Settings, from the environment: SMRUN (default .build/static/release/smrun), BENCH_INSPECTOR_RATE
(100 inputs/s), BENCH_INSPECTOR_SECONDS (10), BENCH_INSPECTOR_ENTRIES (10000),
BENCH_INSPECTOR_CLICKS (5). Needs chromium, chromium-driver and Selenium (`make test-deps`).
"""

import http.client
import json
import os
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests", "Inspector"))
os.environ.setdefault("SMRUN", ".build/static/release/smrun")

try:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    sys.exit("inspector_bench: Selenium is missing: run make test-deps (or: python3 -m pip install selenium)")

from inspector_support import Server, browser

RATE = int(os.environ.get("BENCH_INSPECTOR_RATE", "100"))
SECONDS = int(os.environ.get("BENCH_INSPECTOR_SECONDS", "10"))
ENTRIES = int(os.environ.get("BENCH_INSPECTOR_ENTRIES", "10000"))
CLICKS = int(os.environ.get("BENCH_INSPECTOR_CLICKS", "5"))
GROUPS, CHILDREN = 20, 9


def chart():
    """200 states: g0..g19, each with s0..s8; `next` walks them all in a ring."""
    lines = ["machine: big", "initial: g0s0", "inputs:", "  next:", "states:"]
    order = []
    for group in range(GROUPS):
        lines.append(f"  g{group}:")
        lines.append("    states:")
        for child in range(CHILDREN):
            lines.append(f"      g{group}s{child}:")
            order.append(f"g{group}s{child}")
    lines.append("transitions:")
    for index, state in enumerate(order):
        lines.append(f"  - next | {state} => {order[(index + 1) % len(order)]}")
    return "\n".join(lines) + "\n", order


class Client:
    """One keep-alive connection, as a second client."""

    def __init__(self, port):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method, path, body=None):
        self.connection.request(method, path, body=None if body is None else json.dumps(body), headers={"Content-Type": "application/json"})
        answer = self.connection.getresponse()
        data = answer.read()
        if answer.status >= 300:
            raise RuntimeError(f"{method} {path}: {answer.status} {data[:200]!r}")
        return json.loads(data)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    text, order = chart()
    directory = tempfile.mkdtemp(prefix="inspector-bench-")
    machine = os.path.join(directory, "big.yaml")
    with open(machine, "w") as file:
        file.write(text)
    server = Server([machine])
    driver = browser()
    try:
        client = Client(server.port)
        client.call("POST", "/machines/big/instances", {"key": "long"})
        started = time.monotonic()
        for _ in range(ENTRIES - 1):
            client.call("POST", "/machines/big/instances/long/inputs", {"input": "next"})
        print(f"inspector: {len(order) + GROUPS}-state chart, an instance of {ENTRIES} history entries (written in {time.monotonic() - started:.1f} s)")
        expected = client.call("GET", "/machines/big/instances/long")["configuration"]

        timings = []
        for _ in range(CLICKS):
            driver.get(server.url + "/#/machines/big")
            link = WebDriverWait(driver, 30, 0.01).until(lambda d: next((a for a in d.find_elements(By.TAG_NAME, "a") if a.text == "long"), None))
            clicked = time.monotonic()
            link.click()
            WebDriverWait(driver, 30, 0.01).until(
                lambda d: [e.get_attribute("data-state") for e in d.find_elements(By.CSS_SELECTOR, "[data-state].active")] == expected)
            timings.append(time.monotonic() - clicked)
        print(f"  click on the key to the lit state: median {statistics.median(timings) * 1000:.0f} ms, worst {max(timings) * 1000:.0f} ms ({CLICKS} clicks)")

        # The page records when each entry appears and, every 50 ms, the version it shows.
        driver.execute_script("""
            window.benchSeen = {}; window.benchSamples = [];
            new MutationObserver(() => {
              for (const e of document.querySelectorAll('.timeline [data-seq]')) window.benchSeen[e.dataset.seq] ??= Date.now();
            }).observe(document.querySelector('.timeline'), {childList: true, subtree: true});
            window.benchTimer = setInterval(() => {
              const dd = document.querySelectorAll('.summary dd');
              const lit = [...document.querySelectorAll('[data-state].active')].map(e => e.dataset.state);
              window.benchSamples.push([Date.now(), Number(dd[2].textContent), lit.join(',')]);
            }, 50);
        """)
        first = client.call("GET", "/machines/big/instances/long")["version"] + 1
        answered = {}
        states = {}
        count = RATE * SECONDS
        begin = time.time()
        for index in range(count):
            pause = begin + index / RATE - time.time()
            if pause > 0:
                time.sleep(pause)
            reply = client.call("POST", "/machines/big/instances/long/inputs", {"input": "next"})
            version = reply["instance"]["version"]
            answered[version] = time.time() * 1000
            states[version] = ",".join(reply["instance"]["configuration"])
        sent_for = time.time() - begin
        last = max(answered)
        try:
            WebDriverWait(driver, 10, 0.05).until(lambda d: d.execute_script(f"return window.benchSeen['{last}'] !== undefined"))
        except Exception:
            pass
        time.sleep(1.5)
        seen = driver.execute_script("clearInterval(window.benchTimer); return window.benchSeen")
        samples = driver.execute_script("return window.benchSamples")

        missing = [seq for seq in range(first, last + 1) if str(seq) not in seen]
        lags = [seen[str(seq)] - answered[seq] for seq in answered if str(seq) in seen]
        print(f"  {count} inputs at {RATE}/s (sent in {sent_for:.1f} s), entries shown: {len(lags)} of {count}"
              + (f", MISSING {len(missing)} (first {missing[:5]})" if missing else ""))
        if lags:
            print(f"  an entry in the page after its answer: p50 {percentile(lags, 0.5):.0f} ms, p99 {percentile(lags, 0.99):.0f} ms, worst {max(lags):.0f} ms")
        behind = []
        wrong = 0
        for at, shown, lit in samples:
            if at < answered[first] or at > answered[last] + 1000:
                continue
            waiting = [answered[v] for v in answered if v > shown and answered[v] <= at]
            behind.append(at - min(waiting) if waiting else 0)
            if shown in states and lit != states[shown]:
                wrong += 1
        if behind:
            print(f"  lit state behind the newest answer: p99 {percentile(behind, 0.99):.0f} ms, worst {max(behind):.0f} ms"
                  f" ({len(behind)} samples; {wrong} where the lit state was not the shown version's)")
        if behind and max(behind) > 1000:
            print("  goal not met: the lit state should be current within a second")
        return 1 if missing or not lags else 0
    finally:
        driver.quit()
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
