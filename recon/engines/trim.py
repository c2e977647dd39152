"""The trim engine: trimming's deductions (recon.rules.trim) as an engine, with the written proof.

Sound but incomplete: unique when every cell is fixed, none on a contradiction, else undecided
with the cells it fixed.
"""

from __future__ import annotations

import time

import numpy as np

from ..model import Problem
from ..result import Grade, Result, TimeUp, Verdict

NAME = "trim"
#: With compiled=None and the kernels in numba's cache, the case splits follow their ways
#: compiled from this split on: before it, loading the kernels would cost more than it saves
#: (docs/performance.md, "Case splits compiled").
COMPILED_AFTER_SPLITS = 800


class _SplitProbe:
    """The trimmer's split_probe: the ways of the first `after` splits are followed in Python
    (None), the rest by `recon.compiled.split_ways`."""

    def __init__(self, after: int):
        self.after = after
        self.splits = 0

    def __call__(self, *split):
        self.splits += 1
        if self.splits <= self.after:
            return None
        from .. import compiled

        return compiled.split_ways(*split)


def split_probe(compiled: bool | None):
    """The probe for `Trimmer(split_probe=...)`: compiled True, from the first split; None, where
    numba's cache holds the kernels (or they are loaded), from the COMPILED_AFTER_SPLITS-th;
    False, or without numba, none (as hybrid's compiled_trim). The proof and every answer are
    the same either way."""
    from .. import compiled as kernels

    after = 0
    if compiled is None:
        compiled, after = kernels.is_loaded() or kernels.cached(), COMPILED_AFTER_SPLITS
    return _SplitProbe(after) if compiled and kernels.AVAILABLE else None


def solve(problem: Problem, *, limit: int = 2, time_limit: float | None = None, max_cells: int | None = None,
          cases: bool = False, ways: int | None = None, compiled: bool | None = None) -> Result:
    """Trim the problem; unique when every cell is fixed, none on a contradiction, else undecided.
    max_cells: elimination runs on connected groups of open cells up to this size (default:
    rules.trim.ELIMINATION_MAX_CELLS). cases: split
    cases where the other rules stall (a longer proof, grade search, where a search would decide).
    ways: the most ways the splits follow in all (default: rules.trim.case_budget); the stats say
    how many they followed and whether a split was left for want of more. compiled: follow the
    splits' ways with `recon.compiled` (`split_probe`): the same proof, faster."""
    from ..rules.trim import BASIC, ELIMINATION_MAX_CELLS, GRADES, Contradiction, Trimmer  # loaded when used

    start = time.perf_counter()
    trimmer = Trimmer(problem, ELIMINATION_MAX_CELLS if max_cells is None else max_cells, cases=cases, ways=ways,
                      split_probe=split_probe(compiled) if cases else None)
    budget = trimmer.ways_left
    reason = None
    verdict = Verdict.UNDECIDED
    solutions: list[np.ndarray] = []
    deadline = None if time_limit is None else start + time_limit
    try:
        trimmer.load(deadline)
        trimmer.run(deadline)
        if trimmer.is_done:
            verdict = Verdict.UNIQUE
            solutions = [trimmer.value.reshape(problem.shape) == 1]
        else:
            open_cells = int((trimmer.value < 0).sum())
            reason = f"trimming stalls with {open_cells} of {problem.cells} cells open; a search must decide them"
    except Contradiction as stop:
        trimmer.steps.append(stop.step)
        verdict = Verdict.NONE
        reason = stop.step.text
    except TimeUp:
        reason = f"time limit of {time_limit:g} s reached"
    level = max((step.level for step in trimmer.steps), default=BASIC)
    counts: dict[str, int] = {}
    for step in trimmer.steps:
        counts[step.rule] = counts.get(step.rule, 0) + 1
    decided = verdict is not Verdict.NONE
    return Result(
        verdict,
        solutions,
        verdict in (Verdict.UNIQUE, Verdict.NONE),
        NAME,
        time.perf_counter() - start,
        {"steps": len(trimmer.steps), "cases": cases, **({"timed_out": True} if trimmer.timed_out else {}),
         **({"ways": budget - trimmer.ways_left, "ways_budget": budget, "out_of_ways": trimmer.out_of_ways}
            if cases else {}),
         **{f"rule:{k}": v for k, v in sorted(counts.items())}},
        reason,
        decided=(trimmer.value >= 0).reshape(problem.shape) if decided else None,
        partial=(trimmer.value == 1).reshape(problem.shape) if decided else None,
        trace=list(trimmer.steps),
        grade=GRADES[level] if verdict in (Verdict.UNIQUE, Verdict.NONE) else Grade.SEARCH,
    )
