#!/usr/bin/env python3
"""Writes a large, valid machine file (docs/machine-files.md) for the load benchmark to stdout.

Usage: gen_big_machine.py STATES TRANSITIONS INPUTS SEED

The machine has STATES states (the last one final), INPUTS declared inputs and exactly
TRANSITIONS transitions: mostly rows (`INPUT | FROM => TO | EFFECTS`, a few with several
sources), about one in ten in mapping form with a guard over the context variables `count`
and `mode`, and one `*` row. A ring through every state keeps each reachable and gives each
a way out, and no unguarded transition repeats a (state, input) pair, so the file is free of
warnings as well as of errors: `smrun validate` has nothing to print. With 10,000 states,
100,000 transitions and 200 inputs it is some 10 MB. The same arguments give the same file.
"""

import random
import sys

AREAS = ("order", "payment", "shipment", "invoice", "account", "ticket", "claim", "booking")
STAGES = ("in_review", "inspecting", "awaiting_approval", "on_hold", "ready_to_ship",
          "refunding", "escalated", "archived")
VERBS = ("customer_asked", "operator_confirmed", "system_detected", "carrier_reported",
         "auditor_flagged", "timer_fired", "partner_cancelled", "gateway_declined")
OBJECTS = ("refund", "address_change", "delivery_delay", "fraud_signal", "price_update",
           "document_upload", "timeout", "manual_override")
# Effects with bodies (over the context variables) and hooks (no body).
BODIES = {
    "bump_attempts": "{ set: { count: count + 1 } }",
    "reset_attempts": "{ set: { count: 0 } }",
    "switch_to_express": "{ set: { mode: '\"express\"' } }",
    "switch_to_standard": "{ set: { mode: '\"standard\"' } }",
}
HOOKS = ("notify_customer_by_email", "write_audit_log_entry", "update_search_index",
         "publish_domain_event", "refresh_dashboard_metrics")
GUARDS = ("count < 3", "count >= 3", 'mode == "express"', 'mode != "express" && count < 5',
          "count * 2 > 7 || mode == \"standard\"", "'!(count == 0)'")


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: gen_big_machine.py STATES TRANSITIONS INPUTS SEED")
    n_states, n_transitions, n_inputs, seed = map(int, sys.argv[1:])
    rng = random.Random(seed)
    states = [f"{rng.choice(AREAS)}_{rng.choice(STAGES)}_{i:05d}" for i in range(n_states)]
    inputs = [f"{rng.choice(VERBS)}_{rng.choice(OBJECTS)}_{i:03d}" for i in range(n_inputs)]
    final = n_states - 1
    # The `*` row's input is used by nothing else, so that no other transition is shadowed.
    any_input, inputs_for_rows = inputs[-1], inputs[:-1]
    effects = list(BODIES) + list(HOOKS)

    taken = set()  # (state, input) cells with an unguarded transition

    def fresh_input(state):
        while True:
            name = rng.choice(inputs_for_rows)
            if (state, name) not in taken:
                return name

    def effect_suffix():
        roll = rng.random()
        if roll < 0.7:
            return ""
        return " | " + ", ".join(rng.sample(effects, 1 if roll < 0.9 else 2))

    def target_other_than(*sources):
        while True:
            target = rng.randrange(n_states)
            if target not in sources:
                return target

    out = []
    # The ring, first: state i -> i + 1, so every state is reachable and has a way out.
    for i in range(final):
        name = fresh_input(i)
        taken.add((i, name))
        out.append(f"  - {name} | {states[i]} => {states[i + 1]}{effect_suffix()}\n")
    while len(out) < n_transitions - 1:
        roll = rng.random()
        if roll < 0.1:  # mapping form with a guard; guarded transitions may share a cell
            sources = rng.sample(range(final), rng.choice((1, 1, 2)))
            name = rng.choice(inputs_for_rows)
            if any((s, name) in taken for s in sources):
                continue  # an earlier unguarded transition would shadow it
            source_text = states[sources[0]] if len(sources) == 1 else "[" + ", ".join(states[s] for s in sources) + "]"
            lines = [f"  - input: {name}\n", f"    from: {source_text}\n"]
            if rng.random() < 0.8:
                lines.append(f"    to: {states[target_other_than(*sources)]}\n")
            lines.append(f"    when: {rng.choice(GUARDS)}\n")
            if rng.random() < 0.5:
                lines.append(f"    effects: [{', '.join(rng.sample(effects, rng.choice((1, 2))))}]\n")
            out.append("".join(lines))
            continue
        sources = rng.sample(range(final), 1 if roll < 0.95 else rng.choice((2, 3)))
        name = rng.choice(inputs_for_rows)
        if any((s, name) in taken for s in sources):
            continue
        taken.update((s, name) for s in sources)
        target = "" if rng.random() < 0.05 else f" => {states[target_other_than(*sources)]}"
        out.append(f"  - {name} | {', '.join(states[s] for s in sources)}{target}{effect_suffix()}\n")
    out.append(f"  - {any_input} | *\n")

    write = sys.stdout.write
    write(f"# Generated by benchmarks/gen_big_machine.py {' '.join(sys.argv[1:])}; do not edit.\n")
    write("machine: big-generated\n")
    write("description: A generated machine for the load benchmark.\n")
    write(f"initial: {states[0]}\n")
    write("context:\n  count: 0\n  mode: standard\n")
    write("inputs:\n")
    write("".join(f"  - {name}\n" for name in inputs))
    write("states:\n")
    for i, name in enumerate(states):
        if i == final:
            write(f"  {name}: {{ final: true }}\n")
        elif rng.random() < 0.05:
            write(f"  {name}: {{ entry: [{rng.choice(effects)}], exit: [{rng.choice(HOOKS)}] }}\n")
        else:
            write(f"  {name}:\n")
    write("effects:\n")
    write("".join(f"  {name}: {body}\n" for name, body in BODIES.items()))
    # Hooks are declared too (keys without a body): an undeclared one is an `undeclared-effect` warning.
    write("".join(f"  {name}:\n" for name in HOOKS))
    write("transitions:\n")
    write("".join(out))


if __name__ == "__main__":
    main()
