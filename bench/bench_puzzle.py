"""Benchmark: puzzle generation time, clue fraction and grade per difficulty (issue 5 targets).

    python bench/bench_puzzle.py --sizes 10 20 --seeds 3

Each row: median seconds to a certified minimal puzzle at P = 50 %, the median fraction of clues
kept, and how many seeds produced a puzzle of the asked grade.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from recon.puzzle import DIFFICULTIES, GenerationFailed, generate_puzzle


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 20, 30])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--p", type=float, default=50)
    args = parser.parse_args(argv)
    print("| size | difficulty | median s | median clue fraction | puzzles |")
    print("|---|---|---|---|---|")
    for n in args.sizes:
        for difficulty in DIFFICULTIES:
            times, fractions, made = [], [], 0
            for seed in range(args.seeds):
                start = time.perf_counter()
                try:
                    puzzle = generate_puzzle(n, n, args.p, np.random.default_rng(seed), difficulty=difficulty)
                    made += 1
                    fractions.append(puzzle.clue_count / (n * n))
                except GenerationFailed:
                    pass
                times.append(time.perf_counter() - start)
            frac = f"{statistics.median(fractions):.1%}" if fractions else "-"
            print(f"| {n}x{n} | {difficulty} | {statistics.median(times):.2f} | {frac} | {made}/{args.seeds} |", flush=True)


if __name__ == "__main__":
    main()
