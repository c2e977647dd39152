"""Benchmark: recon.solve (auto: its verdict proved and cross-checked) against a plain MILP model,
in one run, in process (issue: speed at every size).

The peer is the model a user would write with `scipy.optimize.milp`: one binary per cell, one
equality per clue, solved once for a field and once more with a no-good cut that excludes it (a
second solution, or a proof of uniqueness). recon's time includes its cross-check.

    python bench/bench_peers.py --seeds 3
    python bench/bench_peers.py --puzzles --seeds 3      # minimal generated puzzles of each grade
    python bench/bench_peers.py --published              # the published puzzles at hand, one row each

Each row: the median over seeds of both times, and the median of the per-input ratios peer / recon
(above 1: recon is faster), with the worst ratio. Each time is the best of --repeats runs.

Puzzles get a second recon column, `batch`: solve(compiled_trim=True), hybrid trimming with the
compiled kernels, the option for a process that solves many puzzles (loading the kernels costs
most of a second once, paid before timing). Without numba that column is left out.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import recon
from recon import compiled
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


def best(repeats: int, fn, *args, **kwargs) -> float:
    """The shortest of `repeats` runs, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn(*args, **kwargs)
        times.append(time.perf_counter() - start)
    return min(times)


def ratios_cell(theirs: list[float], ours: list[float]) -> str:
    ratios = [t / o for t, o in zip(theirs, ours)]
    return f"{statistics.median(ratios):.2f} | {min(ratios):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--sizes", default="20,50,100,200")
    parser.add_argument("--puzzles", action="store_true")
    parser.add_argument("--published", action="store_true",
                        help="hakank's, the IST examples and the LEGUP files in ../shared/data")
    parser.add_argument("--repeats", type=int, default=3, help="each time is the best of this many runs")
    args = parser.parse_args()
    warm = make_problem(recon.status(np.zeros((3, 3), bool)))
    plain_milp(warm)  # load scipy.optimize before timing
    recon.solve(warm)
    puzzles = args.puzzles or args.published
    batch = puzzles and compiled.AVAILABLE
    if batch:  # load the compiled kernels before timing: a batch pays that once
        from recon.generation import generate_puzzle

        p = generate_puzzle(12, 12, 50, np.random.default_rng(0), difficulty="elimination")
        recon.solve(make_problem(p.clues, p.known), compiled_trim=True)
    head = "| input | recon solve | plain MILP | ratio MILP / recon: median | worst |"
    if batch:
        head += " recon batch | ratio MILP / batch: median | worst |"
    print(head + " recon's engines |")
    print("|---" * head.count("|") + "|")  # one more column: the engines
    if args.published:
        published(args.repeats, batch)
        return
    kinds = ["advanced", "elimination", "search"] if args.puzzles else ["full"]
    for n in (int(s) for s in args.sizes.split(",")):
        for kind in kinds:
            ours, theirs, batched, engines = [], [], [], ""
            for seed in range(args.seeds):
                rng = np.random.default_rng(seed)
                if kind == "full":
                    problem = make_problem(recon.status(rng.random((n, n)) < 0.4))
                else:
                    from recon.generation import generate_puzzle

                    puzzle = generate_puzzle(n, n, 50, rng, difficulty=kind)
                    problem = make_problem(puzzle.clues, puzzle.known)
                result, found = recon.solve(problem), plain_milp(problem)
                assert (found >= 2) == (result.solution_count >= 2)
                ours.append(best(args.repeats, recon.solve, problem))
                theirs.append(best(args.repeats, plain_milp, problem))
                if batch:
                    assert recon.solve(problem, compiled_trim=True).solutions[0].tolist() == result.solutions[0].tolist()
                    batched.append(best(args.repeats, recon.solve, problem, compiled_trim=True))
                engines = result.engine
            row = (f"| {n}x{n} {kind} | {statistics.median(ours):.4f} s | {statistics.median(theirs):.4f} s | "
                   f"{ratios_cell(theirs, ours)} |")
            if batch:
                row += f" {statistics.median(batched):.4f} s | {ratios_cell(theirs, batched)} |"
            print(row + f" {engines} |", flush=True)


def published(repeats: int, batch: bool) -> None:
    """One row per published puzzle, then the median and worst ratios."""
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
    ours, theirs, batched = [], [], []
    for name, problem in puzzles:
        result, found = recon.solve(problem), plain_milp(problem)
        assert (found >= 2) == (result.solution_count >= 2), name
        ours.append(best(repeats, recon.solve, problem))
        theirs.append(best(repeats, plain_milp, problem))
        row = f"| {name} {problem.shape[0]}x{problem.shape[1]} | {ours[-1]:.4f} s | {theirs[-1]:.4f} s | {theirs[-1] / ours[-1]:.2f} | |"
        if batch:
            batched.append(best(repeats, recon.solve, problem, compiled_trim=True))
            row += f" {batched[-1]:.4f} s | {theirs[-1] / batched[-1]:.2f} | |"
        print(row + f" {result.engine} |", flush=True)
    row = f"| all {len(ours)} | | | {ratios_cell(theirs, ours)} |"
    if batch:
        row += f" | {ratios_cell(theirs, batched)} |"
    print(row + " |")


if __name__ == "__main__":
    main()
