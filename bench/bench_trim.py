"""Benchmark: how much linear trimming decides alone, and its time against the complete engines.

    python bench/bench_trim.py

For random full status grids per size (grouped by size mod 3) and mine density: the fraction of
fields trimming decides alone, the grade it needs, and the median time of trim, backtrack and milp
on the same inputs in the same run. A second table does the same for partial status (a fraction
of clues kept), where deduction has less to work with.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

import numpy as np

from recon import Verdict, make_problem, random_field, status
from recon.engines import ENGINES


def timed(name, problem):
    start = time.perf_counter()
    result = ENGINES[name](problem, limit=2, time_limit=30)
    return time.perf_counter() - start, result


def table(title, sizes, probs, seeds, fraction):
    print(f"## {title}\n")
    print("| size | size mod 3 | P % | trim decides | grades | trim s | backtrack s | milp s | trim / backtrack | trim / milp |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for n in sizes:
        for p in probs:
            decided, grades, times = 0, Counter(), {name: [] for name in ENGINES}
            for seed in range(seeds):
                rng = np.random.default_rng(seed)
                field = random_field(n, n + 1, p, rng)
                known = rng.random(field.shape) < fraction if fraction < 1 else None
                problem = make_problem(status(field), known)
                for name in ENGINES:
                    seconds, result = timed(name, problem)
                    times[name].append(seconds)
                    if name == "trim":
                        decided += result.verdict is not Verdict.UNDECIDED
                        grades[result.grade] += 1
            med = {k: statistics.median(v) for k, v in times.items()}
            shape = f"{n}x{n + 1}"
            print(
                f"| {shape} | {n % 3},{(n + 1) % 3} | {p:g} | {decided}/{seeds} | "
                f"{', '.join(f'{g} {c}' for g, c in sorted(grades.items()))} | {med['trim']:.4f} | "
                f"{med['backtrack']:.4f} | {med['milp']:.4f} | {med['trim'] / med['backtrack']:.1f}x | "
                f"{med['trim'] / med['milp']:.1f}x |",
                flush=True,
            )
    print()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[6, 7, 8, 30, 31, 32, 100])
    parser.add_argument("--probs", type=float, nargs="+", default=[10, 30, 50])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--partial-sizes", type=int, nargs="+", default=[10, 15])
    parser.add_argument("--fraction", type=float, default=0.7)
    args = parser.parse_args(argv)
    table("Full status (n x n+1 grids, so both size classes show)", args.sizes, args.probs, args.seeds, 1.0)
    table(f"Partial status, {args.fraction:.0%} of clues kept", args.partial_sizes, args.probs, args.seeds, args.fraction)


if __name__ == "__main__":
    main()
