"""Make a puzzle: draw a field, remove clues while the asked grade still solves it, certify it.

The candidate maker may fail often; the checker never errs. A clue is removed only if the puzzle
without it is still solved by the asked grade's rules (`Grade`); the removal strategy of each
grade has its module (docs/design.md says how each works and why):

- basic: `in_turn` (incremental single-clue closure, or the compiled loop of 64 lanes);
- advanced: `advanced` (the pairwise rules are monotone: one pass, local proofs first);
- elimination: `elimination` (advanced's removals first, then passes with SAT and trimming until
  one removes none, since elimination is not monotone);
- search: `in_turn`, with an incremental SAT solver (`with_sat`) when python-sat is installed.

A grade is exact when the next weaker rule set does not solve the result; orders are retried
until it does not. The final puzzle is certified unique by a complete engine before it is
returned. The options (`Options`) choose backends and tuning, never the puzzle (but for those
that order the clues tried: see `Options`): the same seed gives the same puzzle with or without
numba and python-sat. Above basic the clues are tried tile by tile (`removal_order`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .. import compiled
from ..engines import algebra
from ..model import make_problem, random_field, status
from ..result import Grade, Verdict
from .advanced import remove_advanced
from .elimination import remove_elimination
from .grades import CHECKS, all_fixed, certify, is_trimmed, pairwise_values, solves
from .in_turn import remove_in_turn
from .options import GenerationFailed, GenerationTimeout, Job, Options

DIFFICULTIES = tuple(grade.value for grade in Grade)


@dataclass
class Puzzle:
    """A generated puzzle: the clues kept, its planted field, and how it was checked."""

    clues: np.ndarray
    known: np.ndarray
    field: np.ndarray
    grade: Grade
    minimal: bool
    tries: int
    seconds: float
    certificate: str  # the complete engine that proved the answer unique
    passes: int = 1  # passes over the clues (elimination, minimal: until one removes none)

    @property
    def clue_count(self) -> int:
        """Return how many clues the puzzle keeps."""
        return int(self.known.sum())


#: Orders of clue removal tried per field before the next field is drawn.
ORDERS = 20
#: Strips one cell wide: every puzzle with one solution up to this many cells is solved by the
#: pairwise rules (tests/test_puzzle.py checks it to 10 cells, docs/decisions.md to 14), so an
#: elimination or search request there tries one field and one order, not 200 fields of 20.
STRIP_CHECKED = 14


def make_puzzle(
    field: np.ndarray,
    rng: np.random.Generator,
    *,
    difficulty: str = "basic",
    target: int | None = None,
    tries: int = ORDERS,
    options: Options | None = None,
) -> Puzzle:
    """Remove clues from the status of a field while the asked grade still solves it uniquely."""
    grade = _grade(difficulty)
    return _make(Job((options or Options()).for_grid(np.asarray(field).size, grade)), field, rng, grade, target, tries)


def generate_puzzle(
    rows: int,
    cols: int,
    p: float,
    rng: np.random.Generator,
    *,
    difficulty: str = "basic",
    target: int | None = None,
    fields: int = 200,
    options: Options | None = None,
) -> Puzzle:
    """Draw fields at density p until one yields a puzzle of the asked grade (at most `fields`)."""
    grade = _grade(difficulty)
    impossible = impossible_request(grade, p)
    if impossible:
        raise GenerationFailed(impossible)
    job = Job((options or Options()).for_grid(rows * cols, grade))
    strip = min(rows, cols) == 1 and grade in (Grade.ELIMINATION, Grade.SEARCH)
    tries = 1 if strip else ORDERS
    fields = min(fields, 1) if strip else fields
    reasons = []
    for number in range(1, fields + 1):
        job.check_time()
        job.at(field=number)
        field = random_field(rows, cols, p, rng)
        try:
            return _make(job, field, rng, grade, target, tries)
        except GenerationTimeout:
            raise
        except GenerationFailed as err:
            reasons.append(str(err))
    if strip:
        raise GenerationFailed(
            f"no {grade} puzzle on a {rows}x{cols} strip: on strips one cell wide the pairwise rules solved every "
            f"puzzle with one solution in an exhaustive check up to {STRIP_CHECKED} cells, so {grade} puzzles may "
            f"not exist there; use at least 3 rows and columns (one field and one order of removal were tried: "
            f"{reasons[-1].split(';')[0]})")
    raise GenerationFailed(f"no {grade} puzzle from {fields} random fields; last: {reasons[-1]}")


def _grade(difficulty: str) -> Grade:
    """The Grade named, or a ValueError that lists them."""
    try:
        return Grade(difficulty)
    except ValueError:
        raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, got {difficulty!r}") from None


def _make(job: Job, field: np.ndarray, rng: np.random.Generator, grade: Grade, target: int | None, tries: int) -> Puzzle:
    """make_puzzle within a job (one field)."""
    start = time.perf_counter()
    field = np.asarray(field, dtype=bool)
    clues = status(field)
    if job.options.use_kernels and (grade in (Grade.ADVANCED, Grade.ELIMINATION) or (grade is Grade.SEARCH and not job.options.use_sat)):
        job.load_kernels()  # these grades run compiled throughout
    everything = np.ones(clues.shape, dtype=bool)
    if grade is Grade.ELIMINATION and job.options.use_kernels:
        solved = compiled.trims_fully(clues, everything, max_cells=job.options.elimination_max_cells)
    elif grade is Grade.ELIMINATION:
        solved = is_trimmed(make_problem(clues, everything), job.options.elimination_max_cells)
    elif grade is Grade.ADVANCED:
        solved = all_fixed(pairwise_values(job, clues, everything))
    elif grade is Grade.SEARCH:
        # a full status: exact algebra counts its solutions in O(cells)
        solved = algebra.solve(make_problem(clues, everything), limit=2).verdict is Verdict.UNIQUE
    else:
        solved = CHECKS[grade](make_problem(clues, everything))
    if not solved:
        if grade is Grade.SEARCH:
            raise GenerationFailed("the full status of this field has several solutions" + singular_hint(field.shape))
        raise GenerationFailed(f"the full status of this field is not solved by the {grade} rules")
    for attempt in range(1, tries + 1):
        job.check_time()
        job.at(order=attempt, passes=1, part="")
        order = removal_order(clues.shape, rng, 1 if grade is Grade.BASIC else job.options.order_tile)
        passes = 1
        if grade is Grade.ELIMINATION:
            known, passes = remove_elimination(job, field, order, target)
        elif grade is Grade.ADVANCED:
            known = remove_advanced(job, field, order, target)
        else:
            known = remove_in_turn(job, field, order, grade, target)
        minimal = target is None or known.sum() > target
        problem = make_problem(clues, known)
        if grade.weaker is not None and solves(job, grade.weaker, problem):
            continue  # easier than asked: try another order
        # certify from scratch, by the rules and engines themselves, not the incremental
        # bookkeeping; for search, the grade's own check is uniqueness, which certify proves
        solved = grade is Grade.SEARCH or solves(job, grade, problem)
        certificate = certify(job, problem, grade, field) if solved else None
        if certificate is None:
            raise GenerationFailed("internal check failed: the puzzle is not proved unique")  # never expected
        return Puzzle(clues, known, field, grade, minimal, attempt, time.perf_counter() - start, certificate, passes)
    raise GenerationFailed(
        f"no {grade} puzzle found in {tries} order{'s' if tries != 1 else ''} of clue removal (every result was easier); "
        "try another seed, size or density"
    )


def removal_order(shape: tuple[int, int], rng: np.random.Generator, tile: int) -> np.ndarray:
    """An order of removal of a grid's clues (flat indices): the grid cut into tiles of
    tile x tile cells (smaller at the right and bottom edges), the tiles in random order, and the
    clues of each tile in random order, one tile after the other. tile 1: a random permutation.

    Why tiles: a check after a check on a neighbouring clue finds the solver's learnt clauses,
    warm starts and local tiles still about the right place (docs/performance.md)."""
    rows, cols = shape
    if tile == 1 or rows * cols == 0:
        return rng.permutation(rows * cols)
    r, c = np.divmod(np.arange(rows * cols), cols)
    across = -(-cols // tile)
    tiles = (r // tile) * across + c // tile
    shuffled = rng.permutation(int(tiles.max()) + 1)[tiles]
    return np.lexsort((rng.random(rows * cols), shuffled))


def singular_hint(shape: tuple[int, int]) -> str:
    """' (a side of 2 cells: ...)' when a side is 2 (mod 3), where full statuses can be ambiguous."""
    sides = [k for k in shape if k % 3 == 2]
    if not sides:
        return ""
    return (f" (a side of {sides[0]} cells, and {sides[0]} mod 3 = 2: the status map is singular there, so a "
            "full status can have several fields)")


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


def impossible_request(difficulty: str, p: float) -> str | None:
    """Why no puzzle of this grade can come from fields of density p (percent), or None.

    At 0 % or 100 % every field is the same, all empty or all mines, and each of its clues is
    settled by a single-clue rule (a 0 empties its window, a full count fills it): every puzzle
    of it with one solution is basic. Said at once, not after 200 fields of tries (a 20x20
    search request took almost 4 minutes to fail)."""
    if difficulty != "basic" and p in (0, 100):
        return (f"no {difficulty} puzzle exists at P = {p:g} %: every cell is {'empty' if p == 0 else 'a mine'}, "
                "so the single-clue rules settle every clue (basic); use a density between 0 and 100")
    return None
