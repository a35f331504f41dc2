#!/usr/bin/env python3
"""Prints what bench.sh measured.

RESULTS files hold one run a line: `LABEL<TAB>wall<TAB>user<TAB>sys<TAB>peak RSS KiB`
(the label, then what measure.c prints).

  report.py table RESULTS BASELINE
      Per label, in the order first seen: the runs, the median wall and CPU (user+sys)
      seconds, the peak RSS over the runs, and both medians as a ratio to BASELINE's.
      Options, before RESULTS: --ms shows times in milliseconds; --vs NAME heads the
      ratio columns wall/NAME and CPU/NAME (wall/C and CPU/C without it).
  report.py growth RESULTS SMALL LARGE
      The peak RSS of labels SMALL and LARGE, and the difference.
  report.py per-line RESULTS LINES LABEL...
      Each LABEL's median wall divided by LINES, in nanoseconds.
"""

import statistics
import sys


def read_results(path):
    """Returns {label: [(wall, cpu, rss_kib), ...]}, labels in the order first seen."""
    by_label = {}
    with open(path) as lines:
        for line in lines:
            label, wall, user, system, rss = line.rstrip("\n").split("\t")
            by_label.setdefault(label, []).append((float(wall), float(user) + float(system), int(rss)))
    return by_label


def peak_mib(runs):
    return max(rss for _, _, rss in runs) / 1024


def table(path, baseline, unit="s", name="C"):
    summary = {
        label: (len(runs), statistics.median(w for w, _, _ in runs),
                statistics.median(c for _, c, _ in runs), peak_mib(runs))
        for label, runs in read_results(path).items()
    }
    _, base_wall, base_cpu, _ = summary[baseline]
    scale = 1000 if unit == "ms" else 1
    width = max(len(label) for label in summary)
    wall_head, cpu_head = f"wall/{name}", f"CPU/{name}"
    wall_width, cpu_width = len(f"wall ({unit})"), len(f"CPU ({unit})")
    ratio_width, cpu_ratio_width = max(6, len(wall_head)), max(5, len(cpu_head))
    print(f"{'program':<{width}}  runs  wall ({unit})  CPU ({unit})  peak RSS (MiB)  "
          f"{wall_head:>{ratio_width}}  {cpu_head:>{cpu_ratio_width}}")
    for label, (runs, wall, cpu, rss) in summary.items():
        cpu_ratio = f"{cpu / base_cpu:>{cpu_ratio_width}.1f}" if base_cpu > 0 else f"{'-':>{cpu_ratio_width}}"
        print(f"{label:<{width}}  {runs:>4}  {wall * scale:>{wall_width}.3f}  {cpu * scale:>{cpu_width}.3f}  "
              f"{rss:>14.1f}  {wall / base_wall:>{ratio_width}.1f}  {cpu_ratio}")
    print("(medians over the runs; CPU is user + sys; peak RSS is the highest of the runs)")


def growth(path, small, large):
    by_label = read_results(path)
    small_rss, large_rss = peak_mib(by_label[small]), peak_mib(by_label[large])
    print(f"peak RSS: {small} {small_rss:.1f} MiB, {large} {large_rss:.1f} MiB, "
          f"difference {large_rss - small_rss:+.1f} MiB")


def per_line(path, lines, labels):
    by_label = read_results(path)
    parts = [f"{label} {statistics.median(w for w, _, _ in by_label[label]) / lines * 1e9:.0f}"
             for label in labels if label in by_label]
    print("ns per script line (median wall / lines): " + ", ".join(parts))


def main():
    args = sys.argv[1:]
    if args[:1] == ["table"]:
        options = {"unit": "s", "name": "C"}
        rest = args[1:]
        while rest and rest[0].startswith("--"):
            if rest[0] == "--ms":
                options["unit"] = "ms"
                rest = rest[1:]
            elif rest[0] == "--vs" and len(rest) > 1:
                options["name"] = rest[1]
                rest = rest[2:]
            else:
                sys.exit(__doc__)
        if len(rest) != 2:
            sys.exit(__doc__)
        table(rest[0], rest[1], **options)
    elif len(args) == 4 and args[0] == "growth":
        growth(args[1], args[2], args[3])
    elif len(args) >= 4 and args[0] == "per-line":
        per_line(args[1], int(args[2]), args[3:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
