#!/usr/bin/env python3
"""Turns the table of `hextris bench` into the results table of docs/results.md.

Usage: tools/results_table.py BENCH.txt [NO_PHRASES_BENCH.txt] [--leaderboard PATH]

BENCH.txt is the output of `hextris bench DIR -t 10` (with the 18 phrases); the optional second
file is `hextris bench DIR -t 10 --no-phrases`, whose move scores become a column of their own.
The 2015 columns are read from ../shared/icfp2015/LEADERBOARD.md (never copied into this repo by
hand): the best score of any team, Unagi's (1st), and the 2nd-place program run here for 10 s.
"""

import argparse
import re
import sys


def read_bench(path):
    """Rows of a bench table: problem -> (seeds, move, power, score, time)."""
    rows = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 6 and parts[0].isdigit():
                rows[int(parts[0])] = (
                    int(parts[1]),
                    int(parts[2]),
                    int(parts[3]),
                    int(parts[4]),
                    parts[5],
                )
    if not rows:
        sys.exit(f"{path}: no bench rows found")
    return rows


def read_leaderboard(path):
    """Leaderboard rows: problem -> (best, by, unagi, second_program_here)."""
    rows = {}
    with open(path) as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) >= 10 and cells[0].isdigit():
                rows[int(cells[0])] = (int(cells[4]), cells[5], int(cells[6]), int(cells[9]))
    if not rows:
        sys.exit(f"{path}: no leaderboard rows found")
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bench")
    ap.add_argument("plain", nargs="?")
    ap.add_argument("--leaderboard", default="../shared/icfp2015/LEADERBOARD.md")
    a = ap.parse_args()
    bench = read_bench(a.bench)
    plain = read_bench(a.plain) if a.plain else None
    board = read_leaderboard(a.leaderboard)
    head = ["problem", "seeds", "move", "power", "hextris 10 s"]
    if plain:
        head.append("move, no phrases")
    head += ["best of 2015 (team)", "Unagi (1st)", "2nd-place program, 10 s here"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    sums = [0] * 6
    for p in sorted(bench):
        seeds, move, power, score, _ = bench[p]
        best, by, unagi, second = board.get(p, (0, "?", 0, 0))
        mark = "**" if score >= best else ""
        cells = [str(p), str(seeds), str(move), str(power), f"{mark}{score}{mark}"]
        if plain:
            cells.append(str(plain[p][1]) if p in plain else "")
        cells += [f"{best} ({by})", str(unagi), str(second)]
        print("| " + " | ".join(cells) + " |")
        for i, v in enumerate([move, power, score, plain[p][1] if plain and p in plain else 0, best, unagi]):
            sums[i] += v
    second_sum = sum(board[p][3] for p in bench if p in board)
    cells = ["**sum**", "", str(sums[0]), str(sums[1]), f"**{sums[2]}**"]
    if plain:
        cells.append(str(sums[3]))
    cells += [str(sums[4]), str(sums[5]), str(second_sum)]
    print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
