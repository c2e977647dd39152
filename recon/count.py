"""Exact solution counts and per-cell mine probabilities.

A full status is counted by the algebra engine (exactly, however large the number). A partial
status is first deduced as far as the rules go (the hybrid engine's single-clue rules and
trimming: every solution agrees there); the cells left open split into independent groups
(cells joined by an open clue that sees both, as classic Minesweeper analysers split the
frontier), each group is enumerated on its own, and the count is the product of the group counts
(times 2 for each cell no clue sees). So two far-apart ambiguous corners cost the sum of their
enumerations, not the product. Small grids are also counted by plain enumeration with the
backtracking engine and must agree.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .engines import algebra, backtrack, hybrid
from .engines.backtrack import TimeUp
from .model import Problem
from .result import EngineDisagreement, Result, Verdict

#: Full grids up to this many cells are also counted by enumeration, as a cross-check.
CROSSCHECK_CELLS = 400
CROSSCHECK_COUNT = 2_000
#: Plain enumeration of a partial status (the check of the group count) gives up after this long.
CROSSCHECK_SECONDS = 5.0


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
    deadline = None if time_limit is None else start + time_limit
    n, exhausted, tally, groups = _by_groups(problem, limit, deadline)
    method = f"deduction, then {groups} independent group(s) enumerated"
    if problem.cells <= CROSSCHECK_CELLS and exhausted and n <= CROSSCHECK_COUNT:
        plain, plain_exhausted, _ = _enumerated(problem, CROSSCHECK_COUNT, CROSSCHECK_SECONDS, False)
        if plain_exhausted and plain != n:
            raise EngineDisagreement(
                f"exact counts differ: groups {n}, plain enumeration {plain}",
                {
                    "hybrid": Result(Verdict.MULTIPLE if n > 1 else Verdict.UNIQUE, [], True, "hybrid", solution_count=n),
                    "backtrack": Result(
                        Verdict.MULTIPLE if plain > 1 else Verdict.UNIQUE, [], plain_exhausted, "backtrack", solution_count=plain
                    ),
                },
            )
        method += ", checked by plain enumeration" if plain_exhausted else " (plain enumeration ran out of time)"
    probs = None
    reason = None
    if exhausted and n and probabilities:
        probs = [[tally[r][c] for c in range(cols)] for r in range(rows)]
    if not exhausted:
        reason = (
            f"a group had more than {limit} solutions" + (f" or {time_limit:g} s ran out" if time_limit else "")
            + f": at least {n} (a lower bound)"
        )
    return Count(n, exhausted, method, time.perf_counter() - start, probs, reason)


def _by_groups(problem: Problem, limit: int, deadline: float | None):
    """Count a partial status group by group: (count, exact, per-cell Fractions, number of groups)."""
    rows, cols = problem.shape
    search, _, _ = hybrid.deduce(problem, deadline)
    if search is None:
        return 0, True, None, 0
    value = search.value
    undecided = backtrack._UNDECIDED
    # open clue equations, and groups of open cells joined by them (union-find)
    equations = []
    parent = {x: x for x in range(problem.cells) if value[x] == undecided}

    def root(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    seen_by_clue = set()
    for k, cells in enumerate(search.clue_cells):
        if search.free[k]:
            open_here = [x for x in cells if value[x] == undecided]
            equations.append((open_here, search.need[k]))
            seen_by_clue.update(open_here)
            for x in open_here[1:]:
                parent[root(x)] = root(open_here[0])
    members: dict[int, list[int]] = {}
    for x in seen_by_clue:
        members.setdefault(root(x), []).append(x)
    group_eqs: dict[int, list] = {g: [] for g in members}
    for eq in equations:
        group_eqs[root(eq[0][0])].append(eq)
    prob = [[Fraction(value[r * cols + c]) if value[r * cols + c] != undecided else Fraction(1, 2) for c in range(cols)] for r in range(rows)]
    total, exact = 1 << (len(parent) - len(seen_by_clue)), True  # cells no open clue sees: free
    for g, cells in members.items():
        count, tally, complete = _enumerate_group(sorted(cells), group_eqs[g], limit, deadline)
        total *= count
        exact &= complete
        if count and complete:
            for x in cells:
                prob[x // cols][x % cols] = Fraction(tally[x], count)
    return total, exact, prob if exact else None, len(members)


def _enumerate_group(cells: list[int], equations, limit: int, deadline: float | None):
    """Enumerate the 0/1 solutions of equations (cells, mines) over cells: (count, mines per cell, complete)."""
    tally = dict.fromkeys(cells, 0)
    found = 0
    try:
        for value in backtrack.iter_equation_solutions(cells, equations, deadline=deadline):
            found += 1
            for x in cells:
                tally[x] += value[x]
            if found > limit:
                return limit, tally, False
    except TimeUp:
        return found, tally, False
    return found, tally, True
