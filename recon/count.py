"""Exact solution counts and per-cell mine probabilities.

A full status is counted by the algebra engine (exactly, however large the number); a partial
status by complete enumeration with the backtracking engine, up to a limit. Small full grids are
counted both ways and must agree.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .engines import algebra, backtrack
from .engines.backtrack import TimeUp
from .model import Problem
from .result import EngineDisagreement, Result, Verdict

#: Full grids up to this many cells are also counted by enumeration, as a cross-check.
CROSSCHECK_CELLS = 400
CROSSCHECK_COUNT = 2_000


@dataclass
class Count:
    """How many fields match a status, and how often each cell is a mine among them."""

    count: int
    exact: bool
    method: str
    seconds: float
    probabilities: list[list[Fraction]] | None = None
    reason: str | None = None


def _enumerated(problem: Problem, limit: int, time_limit: float | None, want_probabilities: bool):
    """Count by enumeration: (count, exhausted, mine tallies or None)."""
    tally = np.zeros(problem.shape, dtype=np.int64) if want_probabilities else None
    count = 0
    try:
        for field in backtrack.iter_solutions(problem, time_limit=time_limit):
            count += 1
            if tally is not None:
                tally += field
            if count > limit:
                return count - 1, False, None
    except TimeUp:
        return count, False, None
    return count, True, tally


def count_solutions(
    problem: Problem, *, probabilities: bool = False, limit: int = 100_000, time_limit: float | None = None
) -> Count:
    """Count the solutions of a status exactly (or give a lower bound past the limit)."""
    start = time.perf_counter()
    rows, cols = problem.shape
    if problem.is_full:
        sols = algebra.Solutions(problem)
        probs = sols.probabilities() if probabilities else None
        reason = sols.reason
        if not sols.count_exact:
            reason = f"more than {algebra.COUNT_BUDGET} solutions in one group of coupled lines: a lower bound"
        result = Count(sols.count, sols.count_exact, "algebra", 0.0, probs, reason)
        if problem.cells <= CROSSCHECK_CELLS and sols.count <= CROSSCHECK_COUNT:
            n, exhausted, _ = _enumerated(problem, CROSSCHECK_COUNT, None, False)
            if not exhausted or n != sols.count:
                raise EngineDisagreement(
                    f"exact counts differ: algebra {sols.count}, backtrack {n}",
                    {
                        "algebra": Result(Verdict.MULTIPLE if sols.count > 1 else Verdict.UNIQUE, [], True, "algebra", solution_count=sols.count),
                        "backtrack": Result(Verdict.MULTIPLE if n > 1 else Verdict.UNIQUE, [], exhausted, "backtrack", solution_count=n),
                    },
                )
            result.method = "algebra, checked by enumeration"
        if probabilities and probs is None and sols.count:
            result.reason = (result.reason + "; " if result.reason else "") + "probabilities need an exact, enumerable count"
        result.seconds = time.perf_counter() - start
        return result
    n, exhausted, tally = _enumerated(problem, limit, time_limit, probabilities)
    probs = None
    reason = None
    if exhausted and tally is not None and n:
        probs = [[Fraction(int(tally[r, c]), n) for c in range(cols)] for r in range(rows)]
    if not exhausted:
        reason = f"stopped after {n} solutions (limit {limit}" + (f" or {time_limit:g} s" if time_limit else "") + "): a lower bound"
    return Count(n, exhausted, "enumeration (backtrack)", time.perf_counter() - start, probs, reason)
