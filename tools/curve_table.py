#!/usr/bin/env python3
"""Turns the output of `hextris bench DIR -t 1,10,60` into the score-against-time table of docs/results.md.

Usage: tools/curve_table.py CURVE.txt [--leaderboard PATH]

CURVE.txt holds one bench table per budget, each headed `budget S s per problem`. The best 2015
score per problem is read from ../shared/icfp2015/LEADERBOARD.md (never copied into this repo by
hand). A score at least the best 2015 score is bold; the last rows give the totals and how many
problems reach the best 2015 score at each budget.
"""

import argparse
import re
import sys

from results_table import read_leaderboard


def read_curve(path):
    """Budgets in order, and per budget: problem -> score."""
    budgets, tables = [], {}
    current = None
    with open(path) as f:
        for line in f:
            m = re.match(r"budget (\S+) s per problem", line)
            if m:
                current = m.group(1)
                budgets.append(current)
                tables[current] = {}
                continue
            parts = line.split()
            if current and len(parts) >= 6 and parts[0].isdigit():
                tables[current][int(parts[0])] = int(parts[4])
    if not budgets:
        sys.exit(f"{path}: no 'budget S s per problem' tables found")
    return budgets, tables


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("curve")
    ap.add_argument("--leaderboard", default="../shared/icfp2015/LEADERBOARD.md")
    a = ap.parse_args()
    budgets, tables = read_curve(a.curve)
    # The best 2015 score per problem (the first field of the leaderboard's row).
    best = {p: row[0] for p, row in read_leaderboard(a.leaderboard).items()}
    head = ["problem"] + [f"{b} s" for b in budgets] + ["best of 2015"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    problems = sorted(set().union(*(t.keys() for t in tables.values())))
    for p in problems:
        cells = [str(p)]
        for b in budgets:
            s = tables[b].get(p)
            if s is None:
                cells.append("")
            else:
                mark = "**" if p in best and s >= best[p] else ""
                cells.append(f"{mark}{s:,}{mark}")
        cells.append(f"{best[p]:,}" if p in best else "")
        print("| " + " | ".join(cells) + " |")
    totals = [sum(tables[b].values()) for b in budgets]
    print("| **total** | " + " | ".join(f"**{t:,}**" for t in totals)
          + f" | {sum(best[p] for p in problems if p in best):,} |")
    reach = [sum(1 for p, s in tables[b].items() if p in best and s >= best[p]) for b in budgets]
    print("| at best 2015 | " + " | ".join(f"{r} of {len(tables[b])}" for r, b in zip(reach, budgets))
          + " | |")


if __name__ == "__main__":
    main()
