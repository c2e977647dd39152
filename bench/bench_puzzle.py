"""Benchmark: puzzle generation time, clue fraction and grade per difficulty (issue 5 targets).

    python bench/bench_puzzle.py --sizes 10 20 --seeds 3

Each row: median seconds to a certified minimal puzzle at P = 50 %, the median fraction of clues
kept, how many seeds produced a puzzle, the grade `trim` (what `recon explain` prints) gives each
puzzle, and how many removal orders were tried (an order is retried when the result is easier
than asked). --only basic --sizes 60 runs one difficulty.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

import numpy as np

from recon import make_problem
from recon.engines import trim
from recon.puzzle import DIFFICULTIES, GenerationFailed, generate_puzzle


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 20, 30])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--p", type=float, default=50)
    parser.add_argument("--only", choices=DIFFICULTIES, nargs="+", default=list(DIFFICULTIES))
    args = parser.parse_args(argv)
    print("| size | difficulty | median s | median clue fraction | puzzles | grades (explain) | orders tried |")
    print("|---|---|---|---|---|---|---|")
    for n in args.sizes:
        for difficulty in args.only:
            times, fractions, made, grades, tries = [], [], 0, Counter(), []
            for seed in range(args.seeds):
                start = time.perf_counter()
                try:
                    puzzle = generate_puzzle(n, n, args.p, np.random.default_rng(seed), difficulty=difficulty)
                except GenerationFailed:
                    times.append(time.perf_counter() - start)
                    continue
                times.append(time.perf_counter() - start)
                made += 1
                fractions.append(puzzle.clue_count / (n * n))
                grades[trim.solve(make_problem(puzzle.clues, puzzle.known)).grade] += 1
                tries.append(puzzle.tries)
            frac = f"{statistics.median(fractions):.1%}" if fractions else "-"
            print(f"| {n}x{n} | {difficulty} | {statistics.median(times):.2f} | {frac} | {made}/{args.seeds} | {dict(grades)} | {tries} |", flush=True)


if __name__ == "__main__":
    main()
