"""The cells no clue sees, on a problem without a total.

Such a cell (nothing fixing it) takes either value whatever the others hold. So an engine solves
the rest, those cells fixed empty, and each field it finds stands for 2^free fields, listed here
with the free cells counting up in binary (the first free cell the lowest bit). MILP and SAT work
this way: on a sparse status of millions of cells these cells are most of the grid, and a model
that held them took most of the time (docs/decisions.md).
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np

from ..model import OPEN, Problem, make_problem, status, unseen_open_cells
from ..result import Result, Verdict


def free_cells(problem: Problem) -> np.ndarray:
    """The flat indices of the cells no clue sees and nothing fixes; none when there is a total
    (it ties every cell to the others)."""
    if problem.mines is not None:
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(unseen_open_cells(problem).ravel())


def model_cells(problem: Problem) -> np.ndarray | None:
    """The cells a model needs as variables (flat indices): without a total, the cells clues see,
    once every other cell is fixed (`solve` fixes the free ones); None for every cell."""
    if problem.mines is not None or problem.fixed is None:
        return None
    seen = status(problem.known).ravel() > 0
    if seen.all():
        return None
    if (problem.fixed.ravel()[~seen] == OPEN).any():
        raise ValueError("a cell no clue sees is open: solve fixes such cells first")
    return np.flatnonzero(seen)


def solve(engine: Callable[..., Result], problem: Problem, *, limit: int, time_limit: float | None, given) -> Result:
    """Solve `problem` with `engine` (an engine's solve, taking limit, time_limit and given): as
    it is when no cell is free; else on the rest, the free cells fixed empty, listing up to
    `limit` fields: the given ones first, then each field of the rest with every value of the
    free cells, skipping those already listed."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    start = time.perf_counter()
    free = free_cells(problem)
    if not free.size:
        return engine(problem, limit=limit, time_limit=time_limit, given=given)
    fixed = np.full(problem.shape, OPEN, dtype=np.int8) if problem.fixed is None else problem.fixed.copy()
    fixed.flat[free] = 0
    rest = make_problem(problem.clues, problem.known, fixed)
    ways = 1 << free.size if free.size < 64 else None  # the values of the free cells
    given = [np.asarray(field, dtype=bool) for field in given[:limit]]
    parts: dict[bytes, np.ndarray] = {}  # the given fields with their free cells empty, once each
    for field in given:
        part = field.copy()
        part.flat[free] = False
        parts.setdefault(np.packbits(part).tobytes(), part)
    # enough fields of the rest that with every value of the free cells they make `limit`
    wanted = 1 if ways is None else -(-limit // ways)
    left = None if time_limit is None else max(time_limit - (time.perf_counter() - start), 1e-3)
    result = engine(rest, limit=max(wanted, len(parts)), time_limit=left, given=list(parts.values()))
    fields = list(given)
    listed = {np.packbits(field).tobytes() for field in fields}
    for part in result.solutions:
        j = 0
        while len(fields) < limit and (ways is None or j < ways):
            field = part.copy()
            field.flat[free[[b for b in range(j.bit_length()) if j >> b & 1]]] = True
            j += 1
            key = np.packbits(field).tobytes()
            if key not in listed:
                listed.add(key)
                fields.append(field)
    # every field is listed when the engine listed the rest's and each took every value here;
    # none is listed when the rest has none, however many cells are free
    exhausted = result.count_exact and (not result.solutions or ways is not None and len(fields) == len(result.solutions) * ways)
    stats = {**result.stats, "free": int(free.size)}
    verdict = Verdict.of_search(len(fields), exhausted)
    reason = result.reason if verdict in (Verdict.NONE, Verdict.UNDECIDED) else None
    return Result(verdict, fields, exhausted, result.engine, time.perf_counter() - start, stats, reason)
