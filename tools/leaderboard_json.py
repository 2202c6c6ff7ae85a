#!/usr/bin/env python3
"""The best 2015 scores as the JSON map `hextris store report --against` reads.

Reads the leaderboard table of ../shared/icfp2015/LEADERBOARD.md (or the file named) and prints
{"problem id": best score, ...} from its "best score" column (or the column named with
--column, e.g. "Natsubate! (2nd)"). The data stays in ../shared: write the map to a file outside
the repository, or pipe it:

    tools/leaderboard_json.py > /tmp/best2015.json
    hextris store report solutions -f ../shared/icfp2015/problems --against /tmp/best2015.json
"""
import argparse
import json
import sys


def read_table(path, column):
    scores = {}
    heads = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("|"):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if heads is None:
                heads = cells
                if "problem" not in heads or column not in heads:
                    sys.exit(f"{path}: no 'problem' and {column!r} columns in {heads}")
                continue
            problem = cells[heads.index("problem")]
            if not problem.isdigit():
                continue  # the separator row and the sum
            scores[problem] = int(cells[heads.index(column)].strip("*"))
    if not scores:
        sys.exit(f"{path}: no leaderboard table found")
    return scores


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("leaderboard", nargs="?", default="../shared/icfp2015/LEADERBOARD.md")
    ap.add_argument("--column", default="best score")
    a = ap.parse_args()
    json.dump(read_table(a.leaderboard, a.column), sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
