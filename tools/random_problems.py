#!/usr/bin/env python3
"""Writes random problems for held-out checks: the solver is tuned on some problems and its
changes confirmed on problems it never saw (the official ones are not enough to tell a general
gain from a fit to them).

Usage: tools/random_problems.py OUT_DIR [--count N] [--seed S] [--first-id ID] [--families LIST]

Each problem is drawn from one of the families of --families, in turn, so that every kind of game
is there. The default set (pits,letters,mixed,wide) is the one of the earlier held-out checks
and gives the same problems as before for the same seed:
- `pits`: a small board whose lower rows are full of walls with a few holes and pockets (like
  official problems 21 and 23), 1-cell units whose pivot is their cell, a short source;
- `letters`: a square board with filled strokes in the middle rows (like problems 1, 17 and 19),
  1-cell units, 100 units;
- `mixed`: a small empty board (8 to 12 wide), 1-cell units and random shapes of 2 to 4 cells
  (like problems 6 and 8), a long source, several seeds;
- `wide`: a wider board (20 to 40) with a few filled cells, random shapes of 1 to 6 cells, some
  pivots off their shape.
Three more families make sets of their own (`--families survival`, `--families tiny`,
`--families long`):
- `survival`: a board of 10 to 30 by 12 to 30 with a tall filled stack (30 to 60 % of the
  rows, 55 to 85 % of their cells) and, three times in five, a floating shelf of filled cells
  in the upper middle rows (like problem 18), a long source (300 to 1,000 units) and one of
  three unit sets: single cells with a few big units of 6 to 16 cells (compact, or scattered in
  a box like problem 18's), shapes of 2 to 6 cells, or single cells and shapes of 2 to 8 cells. Games there end early unless the planner
  keeps room for the units to spawn and fall.
- `tiny`: a board of 6 to 12 by 6 to 10, its lower half to two thirds filled at 60 to 80 %, and
  a source of 1 to 3 units drawn from 1 to 4 shapes of 1 to 5 cells, 1 to 3 seeds: problems
  whose every game can be enumerated (the exhaustive search of issue 36). (Before commit
  3f2f39a its units were drawn in a box half the board wide.)
- `long`: a small empty board (8 to 16 by 10 to 30), shapes of 2 to 6 cells with up to two
  single cells, a long source (2,000 to 5,000 units), 1 to 3 seeds: runs whose time goes to
  many short tasks on small boards (the work counts' check on long sources, issue 43).
The problems are valid by the organisers' rules (members in rows from 0, cells on the board).

With --reseed PROBLEM.json, it writes instead --count copies of that problem, each with one
source seed of its own (copy i, from 0: (i + 1) x 7919 x --seed) and the id --first-id + i: the
same board and units, other sources (issue 44 checks survival rules on problem 18's board so:
`--reseed problem_18.json --count 12 --first-id 1801`).
"""

import argparse
import json
import os
import random
import sys

# Hex neighbours in offset coordinates, odd rows shifted right.
def neighbours(x, y):
    if y % 2 == 0:
        d = [(1, 0), (-1, 0), (-1, 1), (0, 1), (-1, -1), (0, -1)]
    else:
        d = [(1, 0), (-1, 0), (0, 1), (1, 1), (0, -1), (1, -1)]
    return [(x + dx, y + dy) for dx, dy in d]


def random_shape(rng, size):
    """A connected set of `size` cells, moved so that its smallest x and y are 0, with y shifted
    by an even amount so that the hex geometry is kept."""
    cells = {(0, 0)}
    while len(cells) < size:
        x, y = rng.choice(sorted(cells))
        n = rng.choice(neighbours(x, y))
        cells.add(n)
    min_y = min(y for _, y in cells)
    shift_y = min_y - (min_y % 2)
    cells = {(x, y - shift_y) for x, y in cells}
    # Rows must start at 0: a shape whose top row is odd is moved down one row as a whole hex
    # shape would not be; instead such a draw is retried by the caller.
    min_x = min(x for x, _ in cells)
    return sorted((x - min_x, y) for x, y in cells)


def unit(rng, size, off_pivot=0.0):
    while True:
        cells = random_shape(rng, size)
        if min(y for _, y in cells) == 0:
            break
    if rng.random() < off_pivot:
        px = rng.randint(-1, max(x for x, _ in cells) + 1)
        py = rng.randint(0, max(y for _, y in cells) + 1)
    else:
        px, py = rng.choice(cells)
    return {
        "members": [{"x": x, "y": y} for x, y in cells],
        "pivot": {"x": px, "y": py},
    }


def bounded_unit(rng, size, max_w, max_h):
    """A unit of `size` cells no wider than `max_w` columns and no taller than `max_h` rows
    (retried until it is), its pivot on a member."""
    for _ in range(1000):
        u = unit(rng, size)
        xs = [c["x"] for c in u["members"]]
        ys = [c["y"] for c in u["members"]]
        if max(xs) < max_w and max(ys) < max_h:
            return u
    return one_cell()


def sparse_unit(rng, size, max_w, max_h):
    """A unit of `size` cells scattered in a box of at most `max_w` by `max_h` (members need not
    touch, like problem 18's units of 9 and 17 cells, which leave holes wherever they lock), its
    pivot in the middle of the box."""
    bw = rng.randint(min(3, max_w), max(min(3, max_w), max_w))
    bh = rng.randint(min(3, max_h), max_h)
    box = [(x, y) for y in range(bh) for x in range(bw)]
    size = min(size, len(box))
    while True:
        cells = sorted(rng.sample(box, size))
        if min(y for _, y in cells) == 0:
            break
    min_x = min(x for x, _ in cells)
    cells = [(x - min_x, y) for x, y in cells]
    return {
        "members": [{"x": x, "y": y} for x, y in cells],
        "pivot": {"x": bw // 2, "y": bh // 2},
    }


def fill_rows(rng, filled, w, rows, density):
    for y in rows:
        for x in range(w):
            if rng.random() < density:
                filled.add((x, y))


def one_cell():
    return {"members": [{"x": 0, "y": 0}], "pivot": {"x": 0, "y": 0}}


def problem(rng, family, pid):
    filled = set()
    if family == "pits":
        w, h = rng.randint(8, 12), rng.randint(7, 10)
        top = rng.randint(2, 4)
        for y in range(top, h):
            for x in range(w):
                if rng.random() < 0.8:
                    filled.add((x, y))
        units, length, seeds = [one_cell()], rng.randint(15, 40), 1
    elif family == "letters":
        w = h = rng.randint(12, 16)
        for _ in range(rng.randint(4, 8)):
            x, y = rng.randint(1, w - 2), rng.randint(h // 4, 3 * h // 4)
            horizontal = rng.random() < 0.5
            for k in range(rng.randint(2, 5)):
                c = (x + k, y) if horizontal else (x, y + k)
                if 0 <= c[0] < w and 0 <= c[1] < h:
                    filled.add(c)
        units, length, seeds = [one_cell()], 100, 1
    elif family == "mixed":
        w, h = rng.randint(8, 12), rng.randint(8, 10)
        units = [one_cell() for _ in range(rng.randint(1, 4))]
        units += [unit(rng, rng.randint(2, 4)) for _ in range(rng.randint(1, 4))]
        length, seeds = rng.randint(150, 400), rng.randint(2, 5)
    elif family == "survival":
        w, h = rng.randint(10, 30), rng.randint(12, 30)
        stack = int(h * rng.uniform(0.3, 0.6))
        fill_rows(rng, filled, w, range(h - stack, h), rng.uniform(0.55, 0.85))
        if rng.random() < 0.6:
            # A floating shelf in the upper middle rows, a third to two thirds of the board wide.
            sw = rng.randint(max(2, w // 3), max(2, 2 * w // 3))
            x0 = rng.randint(0, w - sw)
            y0 = rng.randint(max(3, h // 5), max(3, (h - stack) // 2))
            for y in range(y0, min(y0 + rng.randint(2, 5), h - stack)):
                for x in range(x0, x0 + sw):
                    if rng.random() < 0.8:
                        filled.add((x, y))
        style = rng.choice(["cells", "shapes", "mixed"])
        if style == "cells":
            units = [one_cell() for _ in range(rng.randint(3, 20))]
            big = bounded_unit if rng.random() < 0.5 else sparse_unit
            units += [
                big(rng, rng.randint(6, 16), max(3, w // 3), 6) for _ in range(rng.randint(1, 6))
            ]
        elif style == "shapes":
            units = [bounded_unit(rng, rng.randint(2, 6), w // 2, 4) for _ in range(rng.randint(4, 10))]
        else:
            units = [one_cell() for _ in range(rng.randint(1, 4))]
            units += [bounded_unit(rng, rng.randint(2, 8), w // 2, 5) for _ in range(rng.randint(2, 8))]
        length, seeds = rng.randint(300, 1000), rng.randint(1, 2)
    elif family == "tiny":
        w, h = rng.randint(6, 12), rng.randint(6, 10)
        fill = rng.uniform(0.6, 0.8)
        for y in range(rng.randint(h // 3, h // 2), h):
            for x in range(w):
                if rng.random() < fill:
                    filled.add((x, y))
        units = [unit(rng, rng.randint(1, 5)) for _ in range(rng.randint(1, 4))]
        length, seeds = rng.randint(1, 3), rng.randint(1, 3)
    elif family == "long":
        w, h = rng.randint(8, 16), rng.randint(10, 30)
        units = [one_cell() for _ in range(rng.randint(0, 2))]
        units += [unit(rng, rng.randint(2, 6)) for _ in range(rng.randint(3, 8))]
        length, seeds = rng.randint(2000, 5000), rng.randint(1, 3)
    else:
        w, h = rng.randint(20, 40), rng.randint(15, 25)
        for _ in range(rng.randint(0, w)):
            filled.add((rng.randrange(w), rng.randint(h // 2, h - 1)))
        units = [unit(rng, rng.randint(1, 6), off_pivot=0.2) for _ in range(rng.randint(3, 10))]
        length, seeds = rng.randint(80, 200), rng.randint(1, 3)
    # No row full at the start.
    for y in range(h):
        if all((x, y) in filled for x in range(w)):
            filled.discard((rng.randrange(w), y))
    return {
        "id": pid,
        "width": w,
        "height": h,
        "filled": [{"x": x, "y": y} for x, y in sorted(filled)],
        "sourceLength": length,
        "sourceSeeds": [rng.randrange(2**15) for _ in range(seeds)],
        "units": units,
        "_family": family,
    }


DEFAULT_FAMILIES = ["pits", "letters", "mixed", "wide"]
FAMILIES = DEFAULT_FAMILIES + ["survival", "tiny", "long"]


def reseed(a):
    """Copies of problem `a.reseed`, each with a source seed of its own (see the module's doc)."""
    try:
        with open(a.reseed) as f:
            base = json.load(f)
    except (OSError, ValueError) as e:
        print(f"{a.reseed}: {e}", file=sys.stderr)
        sys.exit(2)
    os.makedirs(a.out, exist_ok=True)
    for i in range(a.count):
        p = dict(base)
        p["id"] = a.first_id + i
        p["sourceSeeds"] = [(i + 1) * 7919 * a.seed]
        path = os.path.join(a.out, f"reseed_{p['id']}.json")
        with open(path, "w") as f:
            json.dump(p, f)
        print(path)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("out", help="the folder to write the problems to")
    ap.add_argument("--count", type=int, default=12, help="problems to write (default 12)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the draw (default 1)")
    ap.add_argument("--first-id", type=int, default=5000, help="the first problem id (default 5000)")
    ap.add_argument(
        "--families",
        default=",".join(DEFAULT_FAMILIES),
        help="comma-separated families, drawn in turn (default %(default)s; also: survival, tiny, long)",
    )
    ap.add_argument(
        "--reseed",
        metavar="PROBLEM",
        help="write copies of this problem with other source seeds instead of random problems",
    )
    a = ap.parse_args()
    if a.reseed:
        reseed(a)
        return
    families = a.families.split(",")
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        ap.error(f"unknown families {unknown} (known: {', '.join(FAMILIES)})")
    rng = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    for i in range(a.count):
        p = problem(rng, families[i % len(families)], a.first_id + i)
        family = p.pop("_family")
        path = os.path.join(a.out, f"random_{p['id']}_{family}.json")
        with open(path, "w") as f:
            json.dump(p, f)
        print(path)


if __name__ == "__main__":
    main()
