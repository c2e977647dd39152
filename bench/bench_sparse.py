"""Benchmark: sparse statuses, most cells seen by no clue, decided by SAT and by MILP.

    python bench/bench_sparse.py --seeds 3 [--sizes 300,1000,2000]

A random field (P = 30 %) on an N x N grid, its status with one cell in K a clue (K grows with
the grid, so that most cells are seen by no clue: they take either value, and SAT and MILP leave
them out of their models, `engines/unseen.py`). `solve` under `auto` with python-sat (hybrid, then SAT)
and as on a base install (hybrid, then MILP: SAT marked unavailable), in process, in the same run; both must say "multiple" and every field they list is checked by `solve`. Medians
over seeds; the ratio is MILP's time over SAT's.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from recon import solve
from recon.engines import sat
from recon.model import make_problem, status, unseen_open_cells
from recon.result import Verdict

#: one cell in K a clue, by grid side
CLUE_EVERY = {300: 20, 1000: 100, 2000: 500, 4000: 2000}


def timed(problem, with_sat: bool):
    """solve under auto, with python-sat or as on a base install (hybrid, then MILP)."""
    installed = sat.AVAILABLE
    sat.AVAILABLE = installed and with_sat
    try:
        start = time.perf_counter()
        result = solve(problem)
        return time.perf_counter() - start, result
    finally:
        sat.AVAILABLE = installed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--sizes", default="300,1000,2000", help="grid sides, from " + ", ".join(map(str, CLUE_EVERY)))
    args = parser.parse_args(argv)
    if not sat.AVAILABLE:
        raise SystemExit("this benchmark compares SAT with MILP: pip install 'recon[sat]'")
    print("| grid | a clue every | cells no clue sees | auto (SAT) s | hybrid + MILP s | MILP / SAT |")
    print("|---|---|---|---|---|---|")
    for n in (int(side) for side in args.sizes.split(",")):
        every = CLUE_EVERY[n]
        with_sat, with_milp, unseen = [], [], []
        for seed in range(args.seeds):
            rng = np.random.default_rng(seed)
            field = rng.random((n, n)) < 0.3
            problem = make_problem(status(field), rng.random((n, n)) < 1 / every)
            unseen.append(float(unseen_open_cells(problem).mean()))
            t_sat, a = timed(problem, True)
            t_milp, b = timed(problem, False)
            if a.verdict is not Verdict.MULTIPLE or b.verdict is not Verdict.MULTIPLE:
                raise SystemExit(f"{n}x{n} seed {seed}: {a.verdict} and {b.verdict}, expected multiple")
            with_sat.append(t_sat)
            with_milp.append(t_milp)
        s, m = statistics.median(with_sat), statistics.median(with_milp)
        print(f"| {n}x{n} | {every} | {statistics.median(unseen):.0%} | {s:.2f} | {m:.2f} | {m / s:.1f}x |", flush=True)


if __name__ == "__main__":
    main()
