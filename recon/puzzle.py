"""Puzzle generation: remove clues from a full status while the answer stays unique at a grade.

The candidate maker may fail often; the checker never errs. A clue is removed only if the puzzle
without it is still solved by the asked grade's rules:

- basic: the two single-clue rules alone (propagation of the backtracking engine's start, which
  applies exactly "count 0 empties its window" and "count = open cells fills them");
- advanced: the trimming engine (pairwise rules and elimination too);
- search: uniqueness proved by a complete engine (MILP with a no-good cut, the fastest on partial
  status: bench/bench_partial.py).

Removing a clue never makes a puzzle easier (fewer equations allow no more deductions and no
fewer solutions), so one pass over the clues in random order leaves a puzzle from which no single
clue can be removed: minimal, and checked exhaustively. A grade is exact when the next weaker rule
set does not solve the result; orders are retried until it does not. The final puzzle is certified
unique by a complete engine before it is returned.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .engines import backtrack, milp, trim
from .model import Problem, make_problem, status
from .result import ReconError, Verdict

DIFFICULTIES = ("basic", "advanced", "search")


class GenerationFailed(ReconError):
    """No puzzle of the asked grade was found within the tries allowed."""


@dataclass
class Puzzle:
    """A generated puzzle: the clues kept, its planted field, and how it was checked."""

    clues: np.ndarray
    known: np.ndarray
    field: np.ndarray
    grade: str
    minimal: bool
    tries: int
    seconds: float

    @property
    def clue_count(self) -> int:
        """Return how many clues the puzzle keeps."""
        return int(self.known.sum())


def is_basic(problem: Problem) -> bool:
    """Do the single-clue rules alone fix every cell?"""
    return backtrack.is_forced(problem)


def is_advanced(problem: Problem) -> bool:
    """Does trimming (all its rules) fix every cell?"""
    return trim.solve(problem).verdict is Verdict.UNIQUE


def is_unique(problem: Problem, time_limit: float = 10.0) -> bool:
    """Is there exactly one solution (proved by MILP with a no-good cut; False when undecided)?"""
    return milp.solve(problem, limit=2, time_limit=time_limit).verdict is Verdict.UNIQUE


CHECKS = {"basic": is_basic, "advanced": is_advanced, "search": is_unique}
WEAKER = {"basic": None, "advanced": is_basic, "search": is_advanced}


def make_puzzle(
    field: np.ndarray,
    rng: np.random.Generator,
    *,
    difficulty: str = "basic",
    target: int | None = None,
    tries: int = 20,
) -> Puzzle:
    """Remove clues from the status of a field while the asked grade still solves it uniquely."""
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, got {difficulty!r}")
    start = time.perf_counter()
    clues = status(field)
    check, weaker = CHECKS[difficulty], WEAKER[difficulty]
    full = make_problem(clues)
    if not check(full):
        raise GenerationFailed(f"the full status of this field is not solved by the {difficulty} rules")
    for attempt in range(1, tries + 1):
        known = np.ones(clues.shape, dtype=bool)
        order = rng.permutation(clues.size)
        for cell in order:
            if target is not None and known.sum() <= target:
                break
            r, c = divmod(int(cell), clues.shape[1])
            known[r, c] = False
            if not check(make_problem(clues, known)):
                known[r, c] = True
        minimal = target is None or known.sum() > target
        problem = make_problem(clues, known)
        if weaker is not None and weaker(problem):
            continue  # easier than asked: try another order
        if not is_unique(problem, time_limit=60.0):
            raise GenerationFailed("internal check failed: the puzzle is not proved unique")  # never expected
        return Puzzle(clues, known, field, difficulty, minimal, attempt, time.perf_counter() - start)
    raise GenerationFailed(
        f"no {difficulty} puzzle found in {tries} orders of clue removal (every result was easier); "
        "try another seed, size or density"
    )


def parse_clue_target(text: str, cells: int) -> int | None:
    """Read --clues: 'minimal' (None), a whole number, or a fraction of the cells in (0, 1)."""
    if text == "minimal":
        return None
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"--clues must be 'minimal', a whole number or a fraction in (0, 1), got {text!r}") from None
    if 0 < value < 1:
        return max(0, round(value * cells))
    if value >= 0 and value == int(value):
        return int(value)
    raise ValueError(f"--clues must be 'minimal', a whole number or a fraction in (0, 1), got {text!r}")


def generate_puzzle(
    rows: int,
    cols: int,
    p: float,
    rng: np.random.Generator,
    *,
    difficulty: str = "basic",
    target: int | None = None,
    fields: int = 20,
) -> Puzzle:
    """Draw fields at density p until one yields a puzzle of the asked grade (at most `fields`)."""
    from .generate import random_field

    reasons = []
    for _ in range(fields):
        field = random_field(rows, cols, p, rng)
        try:
            return make_puzzle(field, rng, difficulty=difficulty, target=target)
        except GenerationFailed as err:
            reasons.append(str(err))
    raise GenerationFailed(f"no {difficulty} puzzle from {fields} random fields; last: {reasons[-1]}")
