#!/usr/bin/env python3
"""Writes an empty board of a given size with the units of an existing problem, on its first seed:
the large boards of the stage benchmark (`hextris bench --stages --board WxH:N`, which builds the
same problem in memory), as a file that `hextris solve` and `play_icfp2015` can read.

Usage: tools/big_board.py PROBLEM.json WIDTH HEIGHT UNITS [-o OUT.json]

For instance the 100 x 100 board with 4,000 units of problem 24:
  tools/big_board.py ../shared/icfp2015/problems/problem_24.json 100 100 4000 -o /tmp/b100.json
The problem keeps its id and units; the board is empty, the source `UNITS` long, and the seeds
only the first one.
"""

import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("problem")
    ap.add_argument("width", type=int)
    ap.add_argument("height", type=int)
    ap.add_argument("units", type=int)
    ap.add_argument("-o", "--out")
    a = ap.parse_args()
    if min(a.width, a.height, a.units) < 1:
        sys.exit("width, height and units must be at least 1")
    with open(a.problem) as f:
        p = json.load(f)
    p["width"], p["height"] = a.width, a.height
    p["filled"] = []
    p["sourceLength"] = a.units
    p["sourceSeeds"] = p["sourceSeeds"][:1] or [0]
    text = json.dumps(p)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
