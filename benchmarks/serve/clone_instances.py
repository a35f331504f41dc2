#!/usr/bin/env python3
"""Fills a store of `smrun serve` with copies of the instances already in it
(benchmarks/serve_bench.sh): instance i of N is a copy of template i mod T (the templates in
key order), with its history, index rows and timers; a timer's due time is moved to
BASE + i * SPREAD / N milliseconds when BASE is given. SQL only, in one transaction.

    clone_instances.py STORE MACHINE N [BASE SPREAD]
"""
import sqlite3
import sys

store, machine, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
base = int(sys.argv[4]) if len(sys.argv) > 4 else None
spread = int(sys.argv[5]) if len(sys.argv) > 5 else 0
db = sqlite3.connect(store)
db.execute("PRAGMA journal_mode=WAL")
templates = [row[0] for row in db.execute("SELECT key FROM instances WHERE machine = ? ORDER BY key", (machine,))]
if not templates:
    sys.exit(f"clone_instances.py: no instance of '{machine}' in {store} to copy")
db.execute("CREATE TEMP TABLE plan (n INTEGER PRIMARY KEY, template TEXT NOT NULL, key TEXT NOT NULL UNIQUE)")
db.executemany(
    "INSERT INTO plan VALUES (?, ?, ?)",
    ((i, templates[i % len(templates)], f"c{i:08d}") for i in range(count)))
db.execute("""INSERT INTO instances SELECT i.machine, p.key, i.fingerprint, i.status, i.snapshot, i.version, i.created, i.updated
              FROM plan p JOIN instances i ON i.machine = ? AND i.key = p.template""", (machine,))
db.execute("""INSERT INTO active_states SELECT s.machine, p.key, s.state
              FROM plan p JOIN active_states s ON s.machine = ? AND s.key = p.template""", (machine,))
db.execute("""INSERT INTO history (machine, key, seq, at, kind, input, arg, timer, results)
              SELECT h.machine, p.key, h.seq, h.at, h.kind, h.input, h.arg, h.timer, h.results
              FROM plan p JOIN history h ON h.machine = ? AND h.key = p.template ORDER BY p.n, h.seq""", (machine,))
due = "t.due" if base is None else f"{base} + p.n * {spread} / {count}"
db.execute(f"""INSERT INTO timers SELECT t.machine, p.key, t.n, {due}, t.timer
               FROM plan p JOIN timers t ON t.machine = ? AND t.key = p.template""", (machine,))
if base is not None:
    # A snapshot lists its timers with their due times: the first one's moves with the index.
    db.execute("""UPDATE instances SET snapshot = CAST(replace(CAST(snapshot AS TEXT),
                      '"due": ' || (SELECT t.due FROM plan p JOIN timers t ON t.machine = instances.machine
                                    AND t.key = p.template AND t.n = 0 WHERE p.key = instances.key),
                      '"due": ' || (SELECT t.due FROM timers t WHERE t.machine = instances.machine
                                    AND t.key = instances.key AND t.n = 0)) AS BLOB)
                  WHERE machine = ? AND key IN (SELECT key FROM plan)""", (machine,))
db.commit()
print(db.execute("SELECT count(*) FROM instances WHERE machine = ?", (machine,)).fetchone()[0])
