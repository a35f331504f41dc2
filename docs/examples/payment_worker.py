#!/usr/bin/env python3
"""Carries out the `chargeCard` hook of docs/examples/order.yaml for `smrun serve`.

It follows the machine's events feed; for each history entry whose results ran `chargeCard`,
it charges the card (here: it prints a line) and answers the instance with `paymentSucceeded`.
The feed is delivered at least once: the answer carries an Idempotency-Key made of the
instance's key and the entry's seq, so that a repeat is answered, not applied, twice. The last
event id seen is kept in a file, so that a restarted worker resumes where it stopped.

    python3 payment_worker.py [--server http://127.0.0.1:8080] [--cursor FILE] [--count N]
"""
import argparse
import json
import os
import urllib.request


def events(server, cursor_file):
    """Yields (event id, entry) from the order machine's feed, resuming after the saved id."""
    request = urllib.request.Request(f"{server}/machines/order/events")
    if cursor_file and os.path.exists(cursor_file):
        with open(cursor_file) as saved:
            request.add_header("Last-Event-ID", saved.read().strip())
    with urllib.request.urlopen(request) as stream:
        event_id, data = None, None
        for raw in stream:
            line = raw.decode("utf-8").rstrip("\n")
            if line.startswith("id: "):
                event_id = line[4:]
            elif line.startswith("data: "):
                data = line[6:]
            elif line == "" and data is not None:
                yield event_id, json.loads(data)
                event_id, data = None, None


def send(server, key, input_name, idempotency_key):
    body = json.dumps({"input": input_name}).encode()
    request = urllib.request.Request(
        f"{server}/machines/order/instances/{key}/inputs", data=body, method="POST",
        headers={"Content-Type": "application/json", "Idempotency-Key": idempotency_key})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", default="http://127.0.0.1:8080")
    parser.add_argument("--cursor", help="file that keeps the last event id seen")
    parser.add_argument("--count", type=int, help="stop after this many charges")
    options = parser.parse_args()
    charged = 0
    for event_id, entry in events(options.server, options.cursor):
        if any("chargeCard" in result.get("effects", []) for result in entry["results"]):
            total = entry["results"][-1].get("context", {}).get("total")
            print(f"charged order {entry['key']}: {total}", flush=True)
            send(options.server, entry["key"], "paymentSucceeded", f"charge-{entry['key']}-{entry['seq']}")
            charged += 1
        if options.cursor:
            with open(options.cursor, "w") as saved:
                saved.write(event_id)
        if options.count is not None and charged >= options.count:
            return


if __name__ == "__main__":
    main()
