"""Benchmark: exact counts of long strips, each way round.

    python bench/bench_count_strips.py --seeds 3

A random field (P = 40 %) on a wide strip (ROWS x COLS, COLS much larger), its status with a
share of the clues hidden, counted with every cell's probability (`count_solutions`, in
process). The peer is the same status transposed (COLS x ROWS), counted in the same run: the
count and every probability must be the same (checked), and so should the time be. Medians over
seeds; "exact" says on how many seeds each way finished within --time-limit (past it the count
is a lower bound).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from recon.counting import count_solutions
from recon.model import make_problem, status

SIZES = ((1, 9000), (2, 5000), (3, 1000), (3, 3000), (5, 400), (8, 300))


def timed(clues, known, time_limit):
    start = time.perf_counter()
    counted = count_solutions(make_problem(clues, known), probabilities=True, time_limit=time_limit)
    return time.perf_counter() - start, counted


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--hidden", type=float, default=0.6, help="share of the clues hidden")
    parser.add_argument("--time-limit", type=float, default=60.0)
    args = parser.parse_args(argv)
    print("| strip | clues hidden | wide s | tall (peer) s | wide / tall | exact, wide / tall | digits of the count |")
    print("|---|---|---|---|---|---|---|")
    for rows, cols in SIZES:
        wide, tall, exact_wide, exact_tall, digits = [], [], 0, 0, []
        for seed in range(args.seeds):
            rng = np.random.default_rng(seed)
            field = (rng.random((rows, cols)) < 0.4).astype(np.int8)
            clues, known = status(field), rng.random((rows, cols)) >= args.hidden
            t_wide, a = timed(clues, known, args.time_limit)
            t_tall, b = timed(clues.T.copy(), known.T.copy(), args.time_limit)
            if a.exact and b.exact:
                if a.count != b.count or (a.probabilities is not None and b.probabilities is not None and any(
                        a.probabilities[r][c] != b.probabilities[c][r] for r in range(rows) for c in range(cols))):
                    raise SystemExit(f"{rows}x{cols} seed {seed}: the strip and its transpose count differently")
            wide.append(t_wide)
            tall.append(t_tall)
            exact_wide += a.exact
            exact_tall += b.exact
            digits.append(len(str(max(a.count, b.count))))
        w, t = statistics.median(wide), statistics.median(tall)
        print(f"| {rows}x{cols} | {args.hidden:.0%} | {w:.2f} | {t:.2f} | {w / t:.1f}x | "
              f"{exact_wide}/{args.seeds}, {exact_tall}/{args.seeds} | {statistics.median(digits):.0f} |", flush=True)


if __name__ == "__main__":
    main()
