"""Check recon's Tatham Mosaic game IDs with Simon Tatham's own code, and solve his puzzles
(issue: classic play's sibling, the Fill-a-Pix formats).

    python bench/check_mosaic_ids.py --checker PATH --maker PATH2 --puzzles 300 --seed 1

PATH and PATH2 are bench/tatham/id_check.c (with -DMOSAIC) and id_make.c (with mosaic.c), built beside his sources
(see those files; they stay outside this repository).
- His puzzles: --maker makes them with his generator (random sizes 3x3 to 40x40), each solvable
  by his own solver; recon must read each to the clues his new_game reads, and prove its one
  solution (verdict unique, the solution's status matching every clue).
- recon's IDs: `recon generate R C P --puzzle --format mosaic`, run in process as the command
  line runs it, for random sizes 1x1 to 30x30 (1xk, kx1 and 2xk included): his validate_params
  and validate_desc must take every ID of a grid he allows (at least 3x3, at most 10,000 cells)
  and read recon's clues, and recon must warn on every ID of a grid he refuses. (A grid two wide
  often has no basic puzzle: exit 4, counted.)
Prints counts; 0 wrong expected.
"""

from __future__ import annotations

import argparse
import collections
import io
import subprocess
import sys
import time

import numpy as np

from recon import FormatError, Verdict, make_problem, solve, status
from recon.cli import main
from recon.io.foreign import parse_mosaic

from check_mines_ids import his_answers  # bench/, beside this script


def same_clues(rows: list[str], clues: np.ndarray, known: np.ndarray) -> bool:
    theirs = np.array([[ch != "." for ch in row] for row in rows])
    values = np.array([[int(ch) if ch != "." else 0 for ch in row] for row in rows])
    return theirs.shape == known.shape and np.array_equal(theirs, known) and np.array_equal(values[known], clues[known])


def read_back(text: str) -> tuple[np.ndarray, np.ndarray]:
    """recon's reading of its own ID (nothing at all where it refuses it)."""
    try:
        return parse_mosaic(text)
    except FormatError:
        return np.zeros((0, 0), dtype=np.uint8), np.zeros((0, 0), dtype=bool)


def main_(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checker", required=True, metavar="PATH", help="bench/tatham/id_check.c, built with -DMOSAIC")
    parser.add_argument("--maker", required=True, metavar="PATH2", help="bench/tatham/id_make.c, built with mosaic.c")
    parser.add_argument("--puzzles", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=60.0, help="recon's limit for each of his puzzles")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    tally: collections.Counter = collections.Counter()
    wrong: list[tuple] = []
    start = time.perf_counter()

    asks = []
    for _ in range(args.puzzles):
        asks += [f"{int(rng.integers(3, 41))}x{int(rng.integers(3, 41))}", str(int(rng.integers(1 << 30)))]
    ids = subprocess.run([args.maker, *asks], capture_output=True, text=True, check=True).stdout.splitlines()
    solving = 0.0
    for line, (head, rows) in zip(ids, his_answers(args.checker, [line + "\n" for line in ids]), strict=True):
        tally["his puzzles"] += 1
        try:
            clues, known = parse_mosaic(line)
        except FormatError as err:
            wrong.append((line, "recon refused his puzzle", str(err)))
            continue
        if not head.startswith("OK") or not same_clues(rows, clues, known):
            wrong.append((line, "recon reads other clues than his new_game", head))
            continue
        t = time.perf_counter()
        result = solve(make_problem(clues, known), time_limit=args.time_limit)
        solving += time.perf_counter() - t
        if result.verdict is not Verdict.UNIQUE:
            wrong.append((line, f"recon's verdict on his puzzle: {result.verdict.name}"))
        elif not np.array_equal(status(result.solutions[0])[known], clues[known]):
            wrong.append((line, "recon's solution breaks a clue"))
        else:
            tally["his puzzles proved unique"] += 1

    cases = []
    for _ in range(args.puzzles):
        kind = rng.integers(5)
        long = int(rng.integers(1, 31))
        rows, cols = [(1, long), (long, 1), (2, long), (long, 2), (int(rng.integers(1, 31)), int(rng.integers(1, 31)))][kind]
        out, err = io.StringIO(), io.StringIO()
        code = main(["generate", str(rows), str(cols), str(int(rng.integers(10, 90))), "--puzzle", "--format", "mosaic",
                     "--seed", str(int(rng.integers(1 << 30)))], out, err)
        if code != 0:  # exit 4: no puzzle of the grade found (grids two wide: full status is singular)
            tally[f"not made (exit {code})"] += 1
            continue
        cases.append(((rows, cols), out.getvalue(), err.getvalue()))
    for ((rows, cols), text, err), (head, his_rows) in zip(cases, his_answers(args.checker, [c[1] for c in cases]),
                                                           strict=True):
        allowed = min(rows, cols) >= 3 and rows * cols <= 10_000
        warned = "Tatham's Mosaic will not" in err
        tally["recon's IDs"] += 1
        if allowed != head.startswith("OK") or allowed == warned:
            wrong.append(((rows, cols), "his verdict and recon's warning disagree", head, err))
        elif allowed and not same_clues(his_rows, *read_back(text)):
            wrong.append(((rows, cols), "his new_game reads other clues than recon's reader", text))
        else:
            tally["recon's IDs taken" if allowed else "recon's IDs warned of"] += 1
    for case in wrong[:10]:
        print(*case, sep="\n  ", file=sys.stderr)
    print(f"seed {args.seed}, {time.perf_counter() - start:.0f} s (recon solving his puzzles {solving:.1f} s): "
          + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())) + f"; wrong: {len(wrong)}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main_())
