#!/usr/bin/env python3
"""Prints what bench.sh measured.

RESULTS files hold one run a line: `LABEL<TAB>wall<TAB>user<TAB>sys<TAB>peak RSS KiB`
(the label, then what measure.c prints).

  report.py table RESULTS BASELINE
      Per label, in the order first seen: the runs, the median wall and CPU (user+sys)
      seconds, the peak RSS over the runs, and both medians as a ratio to BASELINE's.
  report.py growth RESULTS SMALL LARGE
      The peak RSS of labels SMALL and LARGE, and the difference.
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


def table(path, baseline):
    summary = {
        label: (len(runs), statistics.median(w for w, _, _ in runs),
                statistics.median(c for _, c, _ in runs), peak_mib(runs))
        for label, runs in read_results(path).items()
    }
    _, base_wall, base_cpu, _ = summary[baseline]
    width = max(len(label) for label in summary)
    print(f"{'program':<{width}}  runs  wall (s)  CPU (s)  peak RSS (MiB)  wall/C  CPU/C")
    for label, (runs, wall, cpu, rss) in summary.items():
        print(f"{label:<{width}}  {runs:>4}  {wall:>8.3f}  {cpu:>7.3f}  {rss:>14.1f}  "
              f"{wall / base_wall:>6.1f}  {cpu / base_cpu:>5.1f}")
    print("(medians over the runs; CPU is user + sys; peak RSS is the highest of the runs)")


def growth(path, small, large):
    by_label = read_results(path)
    small_rss, large_rss = peak_mib(by_label[small]), peak_mib(by_label[large])
    print(f"peak RSS: {small} {small_rss:.1f} MiB, {large} {large_rss:.1f} MiB, "
          f"difference {large_rss - small_rss:+.1f} MiB")


def main():
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "table":
        table(args[1], args[2])
    elif len(args) == 4 and args[0] == "growth":
        growth(args[1], args[2], args[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
