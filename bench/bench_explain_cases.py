"""Benchmark: what case splits cost `recon explain` (trim.solve with cases=True against without,
in one run). Two kinds of input per size:

- "ambiguous": a random partial status (P = 40 %, 60 % of the clues hidden), with many solutions,
  where every split is in vain: the cost the split budget bounds;
- "search": a minimal search-grade puzzle (`generate --puzzle --difficulty search`), where the
  splits finish the proof.

    python bench/bench_explain_cases.py --seeds 3

Medians over seeds, in process; "finished" counts the inputs whose proof fixed every cell.

    python bench/bench_explain_cases.py --seeds 3 --sizes 30,50 --ways 8000 30000 100000

The search puzzles only, with each budget of ways (`explain --ways N`) in turn: the time, the
ways the splits followed and how many proofs finished.

    python bench/bench_explain_cases.py --seeds 3 --sizes 30,50,60 --compiled

Both inputs with splits, their ways followed in Python against `recon.compiled.split_ways`
(trim.solve's `compiled` False and True, the kernels loaded first), in one run: the times, the
ways followed, and whether the two proofs are the same word for word.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from recon.engines import trim
from recon.generation import generate_puzzle
from recon.model import make_problem, status
from recon.result import Verdict


def timed(problem, cases: bool):
    start = time.perf_counter()
    result = trim.solve(problem, cases=cases)
    return time.perf_counter() - start, result.verdict is Verdict.UNIQUE


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--sizes", default="10,20,30,50")
    parser.add_argument("--ways", type=int, nargs="+", help="instead: the search puzzles with each budget of ways")
    parser.add_argument("--compiled", action="store_true", help="instead: splits followed in Python against compiled")
    args = parser.parse_args()
    if args.ways:
        return budgets(args)
    if args.compiled:
        return compiled(args)
    print("| size | input | without splits | with splits | ratio | finished without / with |")
    print("|---|---|---|---|---|---|")
    for n in (int(s) for s in args.sizes.split(",")):
        for kind in ("ambiguous", "search"):
            rows = []
            for seed in range(args.seeds):
                rng = np.random.default_rng(seed)
                if kind == "ambiguous":
                    field = rng.random((n, n)) < 0.4
                    problem = make_problem(status(field), rng.random((n, n)) > 0.6)
                else:
                    puzzle = generate_puzzle(n, n, 40, rng, difficulty="search")
                    problem = make_problem(puzzle.clues, puzzle.known)
                rows.append((timed(problem, False), timed(problem, True)))
            before = statistics.median(r[0][0] for r in rows)
            after = statistics.median(r[1][0] for r in rows)
            done = f"{sum(r[0][1] for r in rows)} / {sum(r[1][1] for r in rows)} of {len(rows)}"
            print(f"| {n}x{n} | {kind} | {before:.3f} s | {after:.3f} s | {after / before:.1f} | {done} |", flush=True)


def inputs(n: int, seed: int):
    """The two inputs of size n for a seed: (kind, problem)."""
    rng = np.random.default_rng(seed)
    field = rng.random((n, n)) < 0.4
    yield "ambiguous", make_problem(status(field), rng.random((n, n)) > 0.6)
    puzzle = generate_puzzle(n, n, 40, np.random.default_rng(seed), difficulty="search")
    yield "search", make_problem(puzzle.clues, puzzle.known)


def compiled(args) -> None:
    """Each input's splits followed in Python and compiled, alternately (the table in performance.md)."""
    from recon import compiled as kernels

    kernels.load()
    print("| size | input | Python | compiled | ratio | ways followed | same proof |")
    print("|---|---|---|---|---|---|---|")
    for n in (int(s) for s in args.sizes.split(",")):
        for seed in range(args.seeds):
            for kind, problem in inputs(n, seed):
                times, traces = {}, {}
                for way in (False, True):
                    start = time.perf_counter()
                    result = trim.solve(problem, cases=True, compiled=way)
                    times[way], traces[way] = time.perf_counter() - start, [step.text for step in result.trace]
                ratio = times[False] / times[True]
                print(f"| {n}x{n} seed {seed} | {kind} | {times[False]:.2f} s | {times[True]:.2f} s | {ratio:.2f} | "
                      f"{result.stats['ways']:,} | {'yes' if traces[False] == traces[True] else 'NO'} |", flush=True)


def budgets(args) -> None:
    """Search puzzles explained with each budget of ways (the table in performance.md)."""
    print("| size | ways allowed | time | ways followed | finished |")
    print("|---|---|---|---|---|")
    for n in (int(s) for s in args.sizes.split(",")):
        puzzles = []
        for seed in range(args.seeds):
            puzzle = generate_puzzle(n, n, 40, np.random.default_rng(seed), difficulty="search")
            puzzles.append(make_problem(puzzle.clues, puzzle.known))
        for ways in args.ways:
            rows = []
            for problem in puzzles:
                start = time.perf_counter()
                result = trim.solve(problem, cases=True, ways=ways)
                rows.append((time.perf_counter() - start, result.stats["ways"], result.verdict is Verdict.UNIQUE))
            times = ", ".join(f"{r[0]:.1f}" for r in rows)
            followed = ", ".join(f"{r[1]:,}" for r in rows)
            print(f"| {n}x{n} | {ways:,} | {times} s | {followed} | {sum(r[2] for r in rows)} of {len(rows)} |", flush=True)


if __name__ == "__main__":
    main()
