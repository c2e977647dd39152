"""Benchmark: recon.solve (auto: its verdict proved and cross-checked) against a plain MILP model,
in one run, in process (issue: speed at every size).

The peer is the model a user would write with `scipy.optimize.milp`: one binary per cell, one
equality per clue, solved once for a field and once more with a no-good cut that excludes it (a
second solution, or a proof of uniqueness). recon's time includes its cross-check.

    python bench/bench_peers.py --seeds 3
    python bench/bench_peers.py --puzzles --seeds 3      # minimal generated puzzles of each grade
    python bench/bench_peers.py --published              # the published puzzles at hand, one row each

Each row: the median over seeds of both times, and the median of the per-input ratios peer / recon
(above 1: recon is faster), with the worst ratio.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import recon
from recon.model import constraint_matrix, make_problem


def plain_milp(problem) -> int:
    """The peer: how many solutions it finds, up to 2."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    a = constraint_matrix(problem.shape, problem.known).astype(float)
    s = problem.clues[problem.known].astype(float)
    n = problem.cells
    constraints = [LinearConstraint(a, s, s)]
    found = 0
    for _ in range(2):
        res = milp(np.zeros(n), constraints=constraints, integrality=np.ones(n), bounds=Bounds(0, 1))
        if res.status != 0:
            break
        x = np.round(res.x)
        found += 1
        # no-good cut: at least one cell differs from x
        row = np.where(x == 1, -1.0, 1.0)
        constraints.append(LinearConstraint(row[None, :], 1 - x.sum(), np.inf))
    return found


def timed(fn, *args):
    start = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--sizes", default="20,50,100,200")
    parser.add_argument("--puzzles", action="store_true")
    parser.add_argument("--published", action="store_true",
                        help="hakank's, the IST examples and the LEGUP files in ../shared/data (best of 5 each)")
    args = parser.parse_args()
    plain_milp(make_problem(recon.status(np.zeros((3, 3), bool))))  # load scipy.optimize before timing
    recon.solve(recon.status(np.zeros((3, 3), bool)))
    print("| input | recon solve | plain MILP | ratio MILP / recon: median | worst | recon's engines |")
    print("|---|---|---|---|---|---|")
    if args.published:
        published()
        return
    kinds = ["advanced", "elimination", "search"] if args.puzzles else ["full"]
    for n in (int(s) for s in args.sizes.split(",")):
        for kind in kinds:
            ours, theirs, ratios, engines = [], [], [], ""
            for seed in range(args.seeds):
                rng = np.random.default_rng(seed)
                if kind == "full":
                    problem = make_problem(recon.status(rng.random((n, n)) < 0.4))
                else:
                    from recon.generation import generate_puzzle

                    puzzle = generate_puzzle(n, n, 50, rng, difficulty=kind)
                    problem = make_problem(puzzle.clues, puzzle.known)
                t_ours, result = timed(recon.solve, problem)
                t_theirs, found = timed(plain_milp, problem)
                assert (found >= 2) == (result.solution_count >= 2)
                ours.append(t_ours)
                theirs.append(t_theirs)
                ratios.append(t_theirs / t_ours)
                engines = result.engine
            print(f"| {n}x{n} {kind} | {statistics.median(ours):.4f} s | {statistics.median(theirs):.4f} s | "
                  f"{statistics.median(ratios):.2f} | {min(ratios):.2f} | {engines} |", flush=True)


def published() -> None:
    """One row per published puzzle (best of 5 runs each side), then the median and worst ratio."""
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root / "tests"))
    from conftest import load_fillapix

    from recon.io.foreign import read_any_status

    puzzles = [(name, make_problem(clues, known)) for name, (clues, known, _, _) in load_fillapix().items()]
    legup = root.parent / "shared" / "data" / "legup" / "fillapix"
    for path in sorted(legup.glob("*.xml")) if legup.is_dir() else []:
        clues, known, _ = read_any_status(path.read_bytes(), str(path))  # read in place: their licence
        puzzles.append((path.stem, make_problem(clues, known)))
    ratios = []
    for name, problem in puzzles:
        t_ours = min(timed(recon.solve, problem)[0] for _ in range(5))
        t_theirs = min(timed(plain_milp, problem)[0] for _ in range(5))
        result, found = recon.solve(problem), plain_milp(problem)
        assert (found >= 2) == (result.solution_count >= 2), name
        ratios.append(t_theirs / t_ours)
        print(f"| {name} {problem.shape[0]}x{problem.shape[1]} | {t_ours:.4f} s | {t_theirs:.4f} s | {ratios[-1]:.2f} | | "
              f"{result.engine} |", flush=True)
    print(f"| all {len(ratios)} | | | {statistics.median(ratios):.2f} | {min(ratios):.2f} | |")


if __name__ == "__main__":
    main()
