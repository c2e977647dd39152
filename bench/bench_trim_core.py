"""Benchmark for the open step of the redesign (docs/design.md, "Open: one trimming core").

    python bench/bench_trim_core.py --sizes 40 50 --seeds 3

A proof recorded on top of quiet's bookkeeping needs quiet to run the basic rules to a standstill
before any pairwise rule, as the Trimmer does, so that the strongest rule in the trace is the
puzzle's grade (from there on the order does not change the grade: once a pairwise rule is needed
the grade is at least advanced, and whether elimination is needed depends only on the pairwise
fixpoint). This measures what that order costs against quiet's
interleaved one, on the trims hybrid runs (the cells the single-clue rules leave open), for
minimal advanced and elimination puzzles: each order back to back per puzzle, medians of
--repeats, and the median ratio. Both orders must fix the same cells (checked): the rules are
monotone, so the fixpoint does not depend on the order.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from recon import make_problem
from recon.engines import backtrack
from recon.generation import generate_puzzle
from recon.model import cell_name
from recon.rules import quiet
from recon.rules.quiet import QuietTrimmer


class WeakestFirst(QuietTrimmer):
    """quiet's rules with the basic ones run to a standstill before the pairwise ones start."""

    def run(self, deadline: float | None = None) -> None:
        # the basic rules to a standstill once, first: after that the pairwise rules are needed,
        # and whether elimination is needed does not depend on the order (the rules are monotone),
        # so the grade a trace would show is right with quiet's own order from there on
        self._basic_standstill()
        super().run(deadline)

    def _basic_standstill(self) -> None:
        msk, cnt, alive = self._msk, self._cnt, self._alive
        changed = True
        while changed:
            changed = False
            for e in range(len(msk)):
                if alive[e]:
                    mine, ce = msk[e], cnt[e]
                    if ce == 0 or ce == quiet._POP[mine]:
                        self._fix_mask(self._ar[e], self._ac[e], mine, 0 if ce == 0 else 1)
                        changed = True


def hybrid_trim_input(problem):
    """The open cells and equations hybrid gives its trimmer after the single-clue rules."""
    search = backtrack._Search(problem)
    search.start()
    open_cells = [i for i, v in enumerate(search.value) if v == backtrack._UNDECIDED]
    equations = []
    for k, cells in enumerate(search.clue_cells):
        if search.free[k]:
            r, c = search.clue_rc[k]
            equations.append((cell_name(r, c), [x for x in cells if search.value[x] == backtrack._UNDECIDED], search.need[k]))
    return open_cells, equations


def timed(cls, shape, open_cells, equations):
    start = time.perf_counter()
    trimmer = cls.on_cells(shape, open_cells, equations)
    trimmer.load()
    trimmer.run()
    return time.perf_counter() - start, trimmer.value


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[40, 50])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    print("| size | grade | interleaved s | weakest first s | median ratio | puzzles |")
    print("|---|---|---|---|---|---|")
    for n in args.sizes:
        for grade in ("advanced", "elimination"):
            times = {QuietTrimmer: [], WeakestFirst: []}
            ratios = []
            for seed in range(args.seeds):
                puzzle = generate_puzzle(n, n, 50, np.random.default_rng(seed), difficulty=grade)
                problem = make_problem(puzzle.clues, puzzle.known)
                open_cells, equations = hybrid_trim_input(problem)
                per = {QuietTrimmer: [], WeakestFirst: []}
                values = {}
                for rep in range(args.repeats):
                    for cls in ((QuietTrimmer, WeakestFirst) if rep % 2 == 0 else (WeakestFirst, QuietTrimmer)):
                        seconds, values[cls] = timed(cls, problem.shape, open_cells, equations)
                        per[cls].append(seconds)
                if not np.array_equal(values[QuietTrimmer], values[WeakestFirst]):
                    raise SystemExit(f"the two orders fixed different cells at {n}x{n}, seed {seed}")
                for cls in per:
                    times[cls].append(statistics.median(per[cls]))
                ratios.append(times[WeakestFirst][-1] / times[QuietTrimmer][-1])
            print(f"| {n}x{n} | {grade} | {statistics.median(times[QuietTrimmer]):.4f} | "
                  f"{statistics.median(times[WeakestFirst]):.4f} | {statistics.median(ratios):.2f} | {args.seeds} |", flush=True)


if __name__ == "__main__":
    main()
