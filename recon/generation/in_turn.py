"""Removal in turn: try each clue in order, keep it when the puzzle without it fails the grade.

Each check is incremental (recon.rules.closure): the single-clue closure is updated, not
recomputed, and only the groups of open cells a removal touches are trimmed or searched. For
basic, 64 removals are screened at once, one per bit, or the whole loop runs compiled
(`recon.compiled.basic`). For search with python-sat, and elimination with both extras, the loop
is `with_sat`'s. The decisions equal those of re-checking the whole puzzle after every removal.
"""

from __future__ import annotations

import numpy as np

from .. import compiled
from ..engines import backtrack
from ..model import OPEN
from ..result import Grade, TimeUp
from ..rules import trim
from ..rules.closure import ALL, LANES, Closure, basic_closures
from .options import GenerationFailed, Job
from .with_sat import remove_with_sat


def remove_in_turn(job: Job, field: np.ndarray, order: np.ndarray, grade: Grade, target: int | None, known: np.ndarray | None = None) -> np.ndarray:
    """Try removing each clue in order; keep it when the puzzle without it fails the grade's check.

    The answer is the same as re-checking the whole puzzle after every removal, but each check
    is incremental (recon.rules.closure): the single-clue closure is updated, not recomputed, and
    only the open groups a removal touches are trimmed or searched. For basic puzzles, 64
    removals are first tried at once against the current clues (`basic_closures`, one bit per
    removal); a removal that fails there fails later too (clues only go), so only the ones that
    pass are replayed one by one. With numba, that basic loop runs compiled (`recon.compiled.basic`), with
    the same decisions.

    known: start from these clues (the clues not in it are gone already; for another pass).
    """
    if known is not None and grade is Grade.BASIC:
        raise ValueError("the basic removal loop starts from every clue")
    if grade is Grade.BASIC and job.compiled_pays(field.size):
        job.load_kernels()
        return compiled.remove_clues_basic(field, order, target)
    if job.options.use_sat and (grade is Grade.SEARCH or (grade is Grade.ELIMINATION and job.options.use_kernels)):
        return remove_with_sat(job, field, order, target, grade, known)[0]
    closure = Closure(field, None if known is None else known.ravel())
    cache: dict = {}
    kept = int(sum(closure.active))
    order = [int(c) for c in order if closure.active[int(c)]]
    for first in range(0, len(order), LANES):
        job.tick(first, len(order), kept, field.size)
        batch = order[first : first + LANES]
        hopeful = screen(closure, field, batch) if grade is Grade.BASIC else [True] * len(batch)
        for c, ok in zip(batch, hopeful):
            if target is not None and kept <= target:
                break
            if not ok:
                continue
            closure.remove(c)
            if still_solved(job, closure, c, grade, cache):
                kept -= 1
            else:
                closure.restore(c)
    return np.array(closure.active, dtype=bool).reshape(field.shape)


def screen(closure: Closure, field: np.ndarray, batch: list[int]) -> list[bool]:
    """Which clues of the batch could go, each alone, with the single-clue rules still solving?"""
    active = np.where(np.array(closure.active, dtype=bool), ALL, np.uint64(0)).reshape(field.shape)
    times = np.array(closure.time).reshape(field.shape)
    known = np.zeros(field.shape, dtype=np.uint64)
    for b, c in enumerate(batch):
        bit = np.uint64(1) << np.uint64(b)
        active.flat[c] &= ~bit
        # cells fixed before c first fired keep a derivation without c: start from them
        fired = [closure.time[y] for y in closure.fixed[c] if closure.known[y] and closure.by[y] == c]
        if fired:
            known[times < min(fired)] |= bit
        else:
            known |= bit  # c fixes nothing: the closure does not change
    fixed = basic_closures(field, active, known)
    solved = int(np.bitwise_and.reduce(fixed, axis=None))
    return [bool(solved >> b & 1) for b in range(len(batch))]


def still_solved(job: Job, closure: Closure, c: int, grade: Grade, cache: dict) -> bool:
    """After closure.remove(c): does the grade's check still solve the puzzle?"""
    if closure.is_done:
        return True
    if grade is Grade.BASIC:
        return False
    if job.options.use_kernels:
        # compiled trimming decides elimination; for search, trimming's success proves uniqueness
        # and a second solution found near c disproves it, so only the rest needs the exact check
        known = np.array(closure.active, dtype=bool).reshape(closure.shape)
        outcome, fixed = compiled.trim_outcome(
            closure.clues, known, field=closure.field, removed=c, max_cells=job.options.elimination_max_cells
        )
        if grade is Grade.ELIMINATION or outcome is not compiled.Outcome.STALLED:
            return outcome is compiled.Outcome.TRIMMED
        # the cells trimming fixed are the same in every solution: search the others
        fixed = fixed.ravel()
        cells = [int(x) for x in np.flatnonzero(fixed == OPEN)]
        win, active, given, truth = closure.win, closure.active, closure.clue, closure.truth
        equations = []
        for k in sorted({k for x in cells for k in win[x] if active[k]}):
            here = [y for y in win[k] if fixed[y] == OPEN]
            equations.append((here, given[k] - sum(truth[y] for y in win[k] if fixed[y] != OPEN)))
        return not another_solution(cells, equations, closure.truth)
    seeds = closure.changed | {x for x in closure.win[c] if x in closure.open}
    for cells, clues in closure.open_groups(seeds):
        key = (frozenset(cells), frozenset(clues))
        if key not in cache:
            cache[key] = group_solved(job, closure, cells, clues, grade)
        if not cache[key]:
            return False
    return True


def group_solved(job: Job, closure: Closure, cells: list[int], clues: list[int], grade: Grade) -> bool:
    """Is one group of open cells fixed by trimming (elimination) or proved unique (search)?"""
    equations = closure.equations(clues)
    if grade is Grade.SEARCH:
        return not another_solution(cells, [(eq_cells, need) for _, eq_cells, need in equations], closure.truth)
    return trim.Trimmer.on_cells(closure.shape, cells, equations, job.options.elimination_max_cells, proof=False).fixes_all()


def another_solution(cells: list[int], equations: list[tuple[list[int], int]], truth: list[int]) -> bool:
    """Do the equations (cells, mines) over these 0/1 cells have a solution other than truth?

    The equation search of the backtracking engine, trying the value truth does not have first;
    it is exact. Past a node budget (small groups only: past it MILP is faster than a Python
    search) it hands over to MILP, also exact.
    """
    try:
        for value in backtrack.iter_equation_solutions(cells, equations, first=lambda x: 1 - truth[x], max_nodes=40):
            if any(value[x] != truth[x] for x in cells):
                return True
        return False
    except (TimeUp, RecursionError):
        return another_solution_milp(cells, equations, truth)


def another_solution_milp(cells: list[int], equations: list[tuple[list[int], int]], truth: list[int]) -> bool:
    """The same question as another_solution, asked of MILP."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    index = {x: i for i, x in enumerate(cells)}
    a = np.zeros((len(equations), len(cells)))
    counts = np.zeros(len(equations))
    for e, (eq_cells, count) in enumerate(equations):
        a[e, [index[x] for x in eq_cells]] = 1
        counts[e] = count
    t = np.array([truth[x] for x in cells], dtype=float)
    # the solution farthest from truth (minimise agreement, zero gap; see recon.engines.milp):
    # truth is the only one exactly when the proved optimum is truth's own agreement, sum(t)
    result = milp(2 * t - 1, constraints=LinearConstraint(a, counts, counts),
                  integrality=np.ones(len(cells)), bounds=Bounds(0, 1), options={"mip_rel_gap": 0.0})
    if result.status != 0:
        raise GenerationFailed(f"MILP could not decide a group of {len(cells)} cells: {result.message}")
    return result.fun < t.sum() - 0.5

