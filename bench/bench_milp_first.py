"""Benchmark: MILP's first solve (any solution), with the mine count as its objective or none.

    python bench/bench_milp_first.py --seeds 3 --sizes 40 60 80 100

`recon.engines.milp` asks HiGHS for a first solution by minimising the mines with a gap tolerance
of 100 % (it stops at the first solution found). The peer, timed in the same run on the same
model: a zero objective, which any solution meets. On a base install (no python-sat) that solve
is half of a search-grade puzzle's proof. Inputs: minimal search-grade puzzles (P = 50 %, one a
seed and size; generating them wants python-sat), and random statuses with a share of the clues
kept (many solutions). Each time is the median of --repeats, the two objectives alternating.
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

from recon.engines.milp import _model
from recon.generation.make import generate_puzzle
from recon.model import make_problem, status

RANDOM = ((50, 0.5, 0.3), (100, 0.5, 0.3), (100, 0.7, 0.5), (100, 0.2, 0.3), (150, 0.15, 0.4))


def first_solve(problem, objective: str) -> float:
    a, b, low, high = _model(problem)
    m = len(low)
    goal = np.ones(m) if objective == "mines" else np.zeros(m)
    gap = 1.0 if objective == "mines" else 0.0
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = milp(goal, constraints=[LinearConstraint(a, b, b)], integrality=np.ones(m), bounds=Bounds(low, high),
                   options={"disp": False, "presolve": True, "mip_rel_gap": gap})
    if res.status != 0:
        raise SystemExit(f"HiGHS found no solution ({res.message})")
    return time.perf_counter() - start


def row(name: str, problem, repeats: int) -> tuple[float, float]:
    times = {"mines": [], "zero": []}
    for r in range(repeats):
        for objective in (("mines", "zero") if r % 2 == 0 else ("zero", "mines")):
            times[objective].append(first_solve(problem, objective))
    ours, peer = statistics.median(times["mines"]), statistics.median(times["zero"])
    print(f"| {name} | {ours:.2f} | {peer:.2f} | {peer / ours:.2f}x |", flush=True)
    return ours, peer


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[40, 60, 80], help="sizes of the search-grade puzzles")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    print("| input | mines, first solution s | zero objective (peer) s | peer / mines |")
    print("|---|---|---|---|")
    results = []
    for size in args.sizes:
        for seed in range(1, args.seeds + 1):
            puzzle = generate_puzzle(size, size, 50, np.random.default_rng(seed), difficulty="search")
            results.append(row(f"search {size}x{size}, seed {seed}", make_problem(puzzle.clues, puzzle.known), args.repeats))
    for size, kept, density in RANDOM:
        for seed in range(1, args.seeds + 1):
            rng = np.random.default_rng(seed)
            field = rng.random((size, size)) < density
            problem = make_problem(status(field), rng.random((size, size)) < kept)
            results.append(row(f"random {size}x{size}, P {density:.0%}, {kept:.0%} of clues, seed {seed}", problem, args.repeats))
    ratios = [peer / ours for ours, peer in results]
    print(f"\nmedian ratio {statistics.median(ratios):.2f}x (from {min(ratios):.2f}x to {max(ratios):.2f}x); "
          f"in all {sum(o for o, _ in results):.1f} s against {sum(p for _, p in results):.1f} s")


if __name__ == "__main__":
    main()
