"""The grades' checks: does a rule set fix every cell of a puzzle, and the certificate at the end.

`CHECKS` holds each grade's check in Python (the rules of `recon.rules`); `solves` runs one as
the job's options say, compiled where that pays (the same answers: tests compare). A grade is
exact when its check passes and the next weaker grade's (`Grade.weaker`) does not.
"""

from __future__ import annotations

import numpy as np

from .. import compiled
from ..engines import backtrack, milp, sat
from ..model import OPEN, Problem, is_solution, window_cells
from ..result import Grade, Verdict
from ..rules import trim
from .options import Job


def is_basic(problem: Problem) -> bool:
    """Do the single-clue rules alone fix every cell?"""
    return backtrack.is_forced(problem)


def is_advanced(problem: Problem) -> bool:
    """Do trimming's basic and pairwise rules alone (no elimination) fix every cell?"""
    trimmer = trim.Trimmer(problem, proof=False)
    try:
        trimmer.load()
        trimmer.run_pairwise()
    except trim.Contradiction:
        return False
    return trimmer.is_done


def is_trimmed(problem: Problem, max_cells: int = trim.ELIMINATION_MAX_CELLS) -> bool:
    """Does trimming (all its rules) fix every cell? (trim's answer, without its written proof)"""
    return trim.Trimmer(problem, max_cells, proof=False).fixes_all()


def is_unique(problem: Problem, time_limit: float = 10.0) -> bool:
    """Is there exactly one solution (proved by MILP; False when undecided)?"""
    return milp.solve(problem, limit=2, time_limit=time_limit).verdict is Verdict.UNIQUE


CHECKS = {Grade.BASIC: is_basic, Grade.ADVANCED: is_advanced, Grade.ELIMINATION: is_trimmed, Grade.SEARCH: is_unique}


def solves(job: Job, grade: Grade, problem: Problem) -> bool:
    """Does the grade's rule set fix every cell? Compiled where `Job.compiled_pays` says so."""
    if grade is Grade.ELIMINATION:
        if job.compiled_pays(problem.cells):
            return compiled.trims_fully(problem.clues, problem.known, max_cells=job.options.elimination_max_cells)
        return is_trimmed(problem, job.options.elimination_max_cells)
    if grade is Grade.ADVANCED and job.compiled_pays(problem.cells):
        return all_fixed(compiled.pairwise_fixed(problem.clues, problem.known))
    return CHECKS[grade](problem)


def needs_elimination(job: Job, problem: Problem) -> bool:
    """Is the puzzle of the elimination grade: trimmed, and not by the pairwise rules alone? One
    run of the rules, where `is_advanced` and then `is_trimmed` would run the pairwise phase twice:
    compiled, `compiled.trim_grade` (as hybrid grades); in Python, the Trimmer's grade says whether
    elimination fixed a cell (it runs the pairwise rules to their fixpoint first, so it
    eliminates only when they do not finish)."""
    max_cells = job.options.elimination_max_cells
    if job.compiled_pays(problem.cells):
        return compiled.trim_grade(problem.clues, problem.known, verdict_only=True, max_cells=max_cells)[0] is Grade.ELIMINATION
    trimmer = trim.Trimmer(problem, max_cells, proof=False)
    return trimmer.fixes_all() and trimmer.grade is Grade.ELIMINATION


def certify(job: Job, problem: Problem, grade: Grade, field: np.ndarray | None = None) -> str | None:
    """Prove the puzzle has one solution by a complete engine; return its name, None if not.

    Basic puzzles: backtracking (pure Python, no start-up cost; its propagation forces a basic
    puzzle without guessing), SAT or MILP if it ever needs more than a second. Harder grades need
    guessing there, so the job's certifier (SAT with python-sat, else MILP). All are exact. With
    the planted field (checked against the clues here), the engine only has to prove that no
    other solution exists: one solve instead of two. The SAT check is a fresh solver built from
    the final clues alone, not the incremental solvers that decided the removals.
    """
    if field is not None and not is_solution(field, problem):
        raise ValueError("the field given to certify does not meet the clues")
    if grade is Grade.BASIC:
        result = backtrack.solve(problem, limit=2, time_limit=1.0)
        if result.verdict is Verdict.UNIQUE:
            return backtrack.NAME
        if result.verdict is not Verdict.UNDECIDED:
            return None
    given = [] if field is None else [np.asarray(field, dtype=bool)]
    engine = sat if job.options.certifier_name == sat.NAME else milp
    return engine.NAME if engine.solve(problem, limit=2, time_limit=60.0, given=given).verdict is Verdict.UNIQUE else None


def pairwise_values(job: Job, clues: np.ndarray, known: np.ndarray, start: np.ndarray | None = None) -> np.ndarray | None:
    """The fixpoint of trimming's basic and pairwise rules on a puzzle: each cell's value (int8,
    OPEN where not fixed), or None if the clues contradict each other; start: cells known to be
    fixed there already (a warm start, OPEN for the others). Compiled (`compiled.pairwise_fixed`)
    or by recon.rules.trim: the same fixpoint."""
    if job.options.use_kernels:
        return compiled.pairwise_fixed(clues, known, start)
    return pairwise_values_python(clues, known, start)


def pairwise_values_python(clues: np.ndarray, known: np.ndarray, start: np.ndarray | None = None) -> np.ndarray | None:
    """`pairwise_values` by recon.rules.trim (`compiled.pairwise_fixed`'s twin)."""
    rows, cols = clues.shape
    value = np.full(clues.size, OPEN, dtype=np.int8) if start is None else np.asarray(start, dtype=np.int8).ravel().copy()
    equations = []
    for r, c in zip(*np.nonzero(known)):
        cells = [y * cols + x for y, x in window_cells(clues.shape, int(r), int(c))]
        mines = sum(int(value[x]) for x in cells if value[x] > 0)
        equations.append(("", [x for x in cells if value[x] == OPEN], int(clues[r, c]) - mines))
    trimmer = trim.Trimmer.on_cells(clues.shape, np.flatnonzero(value == OPEN).tolist(), equations, proof=False)
    try:
        trimmer.load()
        trimmer.run_pairwise()
    except trim.Contradiction:
        return None
    return np.where(value == OPEN, trimmer.value, value).reshape(clues.shape).astype(np.int8)


def pairwise_window(job: Job, clues: np.ndarray, known: np.ndarray, c: int, start: np.ndarray | None = None) -> bool:
    """Does the fixpoint of `pairwise_values` fix clue c's window? Compiled, the rules stop as soon
    as it is fixed (`compiled.pairwise_window_fixed`); in Python, the whole fixpoint: the same answer."""
    if job.options.use_kernels:
        return compiled.pairwise_window_fixed(clues, known, c, start)
    value = pairwise_values_python(clues, known, start)
    return value is not None and window_all_fixed(value, c)


def all_fixed(value: np.ndarray | None) -> bool:
    """Is every cell fixed (and the clues not contradictory)?"""
    return value is not None and bool((value != OPEN).all())


def window_all_fixed(value: np.ndarray, c: int) -> bool:
    """Is every cell of clue c's window fixed in value (flat index c)?"""
    rows, cols = value.shape
    r, q = divmod(c, cols)
    return bool((value[max(r - 1, 0) : r + 2, max(q - 1, 0) : q + 2] != OPEN).all())
