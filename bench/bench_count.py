"""Benchmark: `recon count` of ambiguous partial status, exact or not within the time limit.

    python bench/bench_count.py --seeds 3 --time-limit 20

Two kinds of input, each counted with every cell's probability (`count_solutions`, in process):
- random: a random field (P = 40 %) with a share of its clues hidden (many solutions, often
  more than any list reaches: counted only by super cells and along the frontier);
- search: a minimal search-grade puzzle at 40 % (`generate_puzzle`, one a seed) with 1, 2 or 4
  clues dropped at random (few solutions in one large group, which SAT's backbone settles).
The peer, timed in the same run on the same input: the count without super cells
(`super_cells=False`: SAT's backbone, then SAT's and the search's lists). Each row gives the
median seconds over seeds and on how many seeds each was exact; where both are exact, the counts
must be equal (checked).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from recon.counting import count_solutions
from recon.generation.make import generate_puzzle
from recon.model import make_problem, status

RANDOM = ((20, 20, 0.5), (30, 30, 0.5), (12, 40, 0.6), (8, 300, 0.6))
SEARCH = ((30, 30), (40, 40))
DROPPED = (1, 2, 4)


def timed(problem, time_limit, super_cells):
    start = time.perf_counter()
    counted = count_solutions(problem, probabilities=True, time_limit=time_limit, super_cells=super_cells)
    return time.perf_counter() - start, counted


def row(name, problems, time_limit):
    ours, peers = [], []
    for problem in problems:
        ours.append(timed(problem, time_limit, True))
        peers.append(timed(problem, time_limit, False))
        a, b = ours[-1][1], peers[-1][1]
        if a.exact and b.exact and a.count != b.count:
            raise SystemExit(f"{name}: the counts differ: {a.count} against {b.count}")
    t, p = statistics.median(t for t, _ in ours), statistics.median(t for t, _ in peers)
    exact = sum(c.exact for _, c in ours), sum(c.exact for _, c in peers)
    print(f"| {name} | {t:.2f} | {p:.2f} | {p / t:.1f}x | {exact[0]}/{len(problems)}, {exact[1]}/{len(problems)} |", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=20.0)
    args = parser.parse_args(argv)
    print("| input | recon count s | without super cells (peer) s | peer / count | exact, count / peer |")
    print("|---|---|---|---|---|")
    for rows, cols, hidden in RANDOM:
        problems = []
        for seed in range(args.seeds):
            rng = np.random.default_rng(seed)
            field = rng.random((rows, cols)) < 0.4
            problems.append(make_problem(status(field), rng.random((rows, cols)) >= hidden))
        row(f"random {rows}x{cols}, {hidden:.0%} of clues hidden", problems, args.time_limit)
    for rows, cols in SEARCH:
        puzzles = [generate_puzzle(rows, cols, 40, np.random.default_rng(seed), difficulty="search") for seed in range(args.seeds)]
        for dropped in DROPPED:
            problems = []
            for seed, puzzle in enumerate(puzzles):
                known = puzzle.known.copy()
                where = np.flatnonzero(known)
                known.flat[np.random.default_rng(seed).choice(where, dropped, replace=False)] = False
                problems.append(make_problem(puzzle.clues, known))
            row(f"search {rows}x{cols}, {dropped} clue(s) dropped", problems, args.time_limit)


if __name__ == "__main__":
    main()
