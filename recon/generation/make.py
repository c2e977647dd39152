"""Puzzle generation: remove clues from a full status while the answer stays unique at a grade.

The candidate maker may fail often; the checker never errs. A clue is removed only if the puzzle
without it is still solved by the asked grade's rules:

- basic: the two single-clue rules alone ("count 0 empties its window", "count = open cells
  fills them");
- advanced: trimming's pairwise rules too (subset and overlap: two clues that share cells);
- elimination: trimming with exact elimination too;
- search: uniqueness, proved exactly: with python-sat (the `sat` extra), by an incremental SAT
  solver that keeps what it learns from removal to removal (recon.engines.sat.SecondSolution);
  on large grids, small solvers over tiles of the grid are asked first for a second solution
  near the clue; without python-sat, by trimming, a small search, or MILP. With python-sat and
  numba, elimination asks the same SAT solver first: a second solution settles a removal without
  trimming. And the pairwise rules are run on the clues near the removed one only
  (`local_proof`): if they fix its window, trimming without the clue runs as it ran with it, so
  it still solves the puzzle, a proof that needs no whole-grid trimming. Elimination-grade
  generation first removes clues as advanced generation does (each such removal keeps the puzzle
  solved by the pairwise rules, so by trimming), and only then tries the others with SAT and
  trimming (FIRST_PART).

Advanced generation (`_remove_clues_advanced`) relies on the pairwise rules being monotone: the
check near the clue first, then per clue a warm start, a proof that the clue must stay (the rules
fail even with the far cells given), and a whole-grid run of the rules; no SAT, no elimination.

Each check is incremental (recon.incremental): the single-clue closure is updated, not recomputed,
and only the groups of open cells that a removal touches are trimmed or searched; for basic, 64
removals are screened at once, one per bit. The decisions equal those of re-checking the whole
puzzle after every removal, and `tests/test_puzzle.py` re-checks them from scratch. With numba
(the `fast` extra), the checks run compiled (`recon.kernels`) with the same decisions: the basic
loop whole; the pairwise rules; for elimination, trimming itself; for search, trimming proves a
removal keeps the answer unique and a short search near the clue finds a second solution, leaving
the exact search or MILP only the removals neither decides.

Minimal means that no single clue can be removed, checked exhaustively. For basic, advanced and
search, one pass over the clues in random order gives that: a removal never helps the single-clue
or pairwise rules (they are monotone) and never removes a solution, so a clue that could not go
when it was tried cannot go later either. Trimming with elimination is not monotone that way:
elimination bounds the rows of a reduced form, and one equation fewer changes those rows, so it
can fix cells it could not fix with the equation (on random partial puzzles of 8x11, a case
turned up within a few dozen tries; on 40x40 removal paths, about once in a thousand checks). So
elimination-grade puzzles get more passes over the kept clues until one removes none
(`_remove_clues_elimination`; with SAT, only over the clues that trimming failed: a clue kept for
a second solution can never go). A grade is exact when the next weaker rule set does not solve
the result; orders are retried until it does not. The final puzzle is certified unique by a
complete engine before it is returned.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from ..compiled import kernels
from ..engines import algebra, backtrack, milp, sat
from ..rules import quiet, trim
from ..rules.closure import ALL, LANES, Closure, basic_closures
from ..model import Problem, is_solution, make_problem, status, window_cells
from ..result import ReconError, Verdict

DIFFICULTIES = ("basic", "advanced", "elimination", "search")
#: Use the compiled checks (recon.kernels) when numba is installed: the same decisions, faster.
USE_KERNELS = kernels.AVAILABLE
#: Below this many cells the Python basic loop finishes before numba has loaded its compiled code
#: (about 0.9 s for a fresh process), so basic puzzles that small are made without it, unless the
#: process has loaded it already (a batch run): then 30x30 takes 0.03 s instead of 0.6 s.
BASIC_KERNEL_CELLS = 1000
#: The one trimming check of a search-grade puzzle (is it too easy?) runs compiled from this many
#: cells: below, Python trimming takes at most about 0.1 s, less than numba's 0.9 s load.
TRIM_KERNEL_CELLS = 1000
#: Decide search-grade removals with an incremental SAT solver when python-sat is installed: the
#: same decisions (uniqueness is a fact, whoever proves it), 25-50x faster at 20x20-30x30
#: (bench/bench_puzzle.py). With numba too, elimination-grade generation asks it first.
USE_SAT = sat.AVAILABLE
#: The complete engine that certifies advanced, elimination and search puzzles (see certify): SAT when
#: python-sat is installed, MILP otherwise.
CERTIFIER = sat.NAME if sat.AVAILABLE else milp.NAME
#: How elimination-grade generation's first pass starts (`_remove_clues_elimination`):
#: "advanced": remove clues while the pairwise rules alone still solve the puzzle (the advanced
#: grade's exhaustive one-pass removal, `_remove_clues_advanced`, all local checks): every such
#: removal keeps the puzzle trimmed. Only then are the clues left tried, in the same order, with
#: SAT and whole-grid trimming: fewer clues are left (about 1580 against 1900 at 60x60), fewer of
#: them reach a trim (212-330 trims against about 800) and each trim costs less (3-6 against
#: about 10 ms), though it is still global (1200-2100 cells open after the pairwise rules, in
#: docs/performance.md). Against "local", the same fields in the same run
#: (bench/bench_puzzle.py --first-part-ab, 3 seeds, 2026-11-24): 0.39 against 0.44 s at 30x30,
#: 4.50 against 8.94 s at 60x60, 17.5 against 38.2 s at 100x100 (median ratios 1.23, 1.51, 2.18),
#: with fewer clues (42.2 against 43.2 %, 42.8 against 43.1 %, 42.8 against 43.8 %).
#: "local": the former first part: remove, in the order drawn, every clue whose removal the
#: pairwise rules near it prove harmless (`local_proof`: the clues within LOCAL_RADII[-1] rows
#: and columns, without it, fix its window, so trimming without it runs as it ran with it), then
#: the others, in the same order. Against one pass in turn (with this check as a shortcut), the
#: same fields in the same run: 0.97 against 1.15 s at 30x30, 2.82 against 3.81 s at 40x40, 21.8
#: against 37.9 s at 60x60, and fewer clues (42.1 against 43.3 %, 42.6 against 44.2 %, 43.4
#: against 44.7 %): the clues that need trimming are tried when the puzzle is sparser, where SAT
#: turns more of them down at once.
#: None: one pass that tries each clue in turn.
FIRST_PART: str | None = "advanced"
FIRST_PARTS = ("advanced", "local", None)
#: The radii the check near a clue is run at, in turn: the answer is monotone in the radius (a yes
#: at 4 is a yes at 10), so the last one decides and the others only save time. (4, 10), (4, 8)
#: and (3, 6, 10) took 1.04, 1.04 and 1.03 s median over 6 seeds at 30x30 as a shortcut in the
#: one-pass loop (same run). Search does not use it, though its proof would hold there too (the
#: field was the only solution with the clue): a SAT "no" early on costs about 0.04 ms, and with
#: the check search generation was slower, 3.66 against 3.18 s at 60x60 and 22.7 against 21.0 s at
#: 100x100; asked only when the tiles found no second solution (late, where a SAT "no" costs
#: most), it proved 20 of 641 questions at 60x60.
LOCAL_RADII = (4, 10)
#: Elimination-grade generation's whole-grid trims start their pairwise phase warm: from the cells that
#: phase fixes on the puzzle without the next WARM_BLOCK clues to be tried (`kernels.pairwise_fixed`,
#: found once for the block; `_WarmStarts`). The phase is monotone in the clues, so while every
#: clue removed since is one of the block, each trim of a clue of the block reaches the same
#: fixpoint from there: the same decisions, sooner. 0: start cold. With and without, back to back
#: (bench/bench_puzzle.py --warm-ab, 3 seeds, same puzzles): 60x60 10.45 against 11.53 s, 100x100
#: 44.4 against 59.2 s. Blocks of 8 and 16 were within noise of each other (one run, 60x60 seeds
#: 0-2: 10.9, 13.7, 5.5 against 10.8, 13.3, 5.5 s).
#: The block's own start is found warm the same way, from the puzzle without the next WARM_OUTER
#: clues (found cold once for them): in a 100x100 generation the blocks' starts took 2.85 s in
#: all without it, 1.55 s with 64, 1.69 s with 256.
WARM_BLOCK = 16
WARM_OUTER = 64
#: Advanced (pairwise) generation: the check near a clue in its first part, at this radius alone
#: (`local_proof` at LOCAL_RADII[0]): ...
PAIRWISE_NEAR = 4
#: ... and the proof that a clue must stay: the pairwise rules cannot fix its window without it
#: even when every cell farther than this many rows or columns from it is given (`_must_stay`),
#: tried at the first radius, then (after the check near the clue at PAIRWISE_FAR) the second.
PAIRWISE_GIVEN = (6, 14)
PAIRWISE_FAR = 10


class GenerationFailed(ReconError):
    """No puzzle of the asked grade was found within the tries allowed."""


#: Seconds between two progress reports (see `reporting`).
PROGRESS_SECONDS = 1.0


class _Progress:
    """Where a generation is, told to a callback at most every PROGRESS_SECONDS: one line of
    text such as "pass 2: 120 of 211 clues tried, 1572 of 3600 left, 12 s" (with the field and
    the order of removal first when they are not the first)."""

    def __init__(self, callback):
        self.callback = callback
        self.start = time.perf_counter()
        self.last = self.start
        self.field = self.order = self.passes = 1
        self.part = ""

    def tick(self, tried: int, total: int, left: int, cells: int) -> None:
        now = time.perf_counter()
        if now - self.last < PROGRESS_SECONDS:
            return
        self.last = now
        where = "".join(f"{name} {n}, " for name, n in (("field", self.field), ("order", self.order)) if n > 1)
        where += f"pass {self.passes}{self.part}"
        self.callback(f"{where}: {tried} of {total} clues tried, {left} of {cells} left, {now - self.start:.0f} s")


_progress: _Progress | None = None


@contextmanager
def reporting(callback):
    """Within this block, generation tells `callback` (a function of one line of text) where it
    is, at most every PROGRESS_SECONDS: which field and removal order it is on, which pass over the
    clues, how many it has tried and how many are left; and, when it happens, that numba's kernels
    are being loaded (compiled on a first run). recon generate shows it on a terminal."""
    global _progress
    outer, _progress = _progress, _Progress(callback)
    outer_announce, kernels.announce = kernels.announce, callback  # at once: loading them may take long
    try:
        yield
    finally:
        _progress = outer
        kernels.announce = outer_announce


def _tick(tried: int, total: int, left: int, cells: int) -> None:
    if _progress is not None:
        _progress.tick(tried, total, left, cells)


def _at(**where) -> None:
    """Record which field, order, pass or part of a pass generation is on (for `reporting`)."""
    if _progress is not None:
        for name, value in where.items():
            setattr(_progress, name, value)


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
    certificate: str  # the complete engine that proved the answer unique
    passes: int = 1  # passes over the clues (elimination, minimal: until one removes none)

    @property
    def clue_count(self) -> int:
        """Return how many clues the puzzle keeps."""
        return int(self.known.sum())


def is_basic(problem: Problem) -> bool:
    """Do the single-clue rules alone fix every cell?"""
    return backtrack.is_forced(problem)


def is_advanced(problem: Problem) -> bool:
    """Do trimming's basic and pairwise rules alone (no elimination) fix every cell?"""
    trimmer = quiet.QuietTrimmer.of(problem)
    try:
        trimmer.load()
        trimmer.run_pairwise()
    except trim.Contradiction:
        return False
    return trimmer.is_done


def is_trimmed(problem: Problem) -> bool:
    """Does trimming (all its rules) fix every cell? (trim's answer, without its written proof)"""
    return quiet.QuietTrimmer.of(problem).fixes_all()


def certify(problem: Problem, difficulty: str, field: np.ndarray | None = None) -> str | None:
    """Prove the puzzle has one solution by a complete engine; return its name, None if not.

    Basic puzzles: backtracking (pure Python, no start-up cost; its propagation forces a basic
    puzzle without guessing), SAT or MILP if it ever needs more than a second. Harder grades need
    guessing there, so SAT (with python-sat; CERTIFIER) or MILP. All are exact. With the planted
    field (checked against the clues here), the engine only has to prove that no other solution
    exists: one solve instead of two.

    The SAT check is a fresh solver built from the final clues alone (`sat.solve`), not the
    incremental solvers, with their selectors and batches, that decided the removals of a
    search-grade puzzle (`sat.SecondSolution`). It replaced MILP there because
    MILP's proof grows fastest with size: 1.2 s at 40x40 and 7.5 s at 60x60 (a third of the
    whole generation) against 0.14 and 0.42 s (bench/bench_puzzle.py, issue 5 note).
    """
    if field is not None and not is_solution(field, problem):
        raise ValueError("the field given to certify does not meet the clues")
    if difficulty == "basic":
        result = backtrack.solve(problem, limit=2, time_limit=1.0)
        if result.verdict is Verdict.UNIQUE:
            return "backtrack"
        if result.verdict is not Verdict.UNDECIDED:
            return None
    given = [] if field is None else [np.asarray(field, dtype=bool)]
    engine = sat if CERTIFIER == sat.NAME else milp
    return engine.NAME if engine.solve(problem, limit=2, time_limit=60.0, given=given).verdict is Verdict.UNIQUE else None


def is_unique(problem: Problem, time_limit: float = 10.0) -> bool:
    """Is there exactly one solution (proved by MILP; False when undecided)?"""
    return milp.solve(problem, limit=2, time_limit=time_limit).verdict is Verdict.UNIQUE


CHECKS = {"basic": is_basic, "advanced": is_advanced, "elimination": is_trimmed, "search": is_unique}
WEAKER = {"basic": None, "advanced": is_basic, "elimination": is_advanced, "search": is_trimmed}


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
    field = np.asarray(field, dtype=bool)
    clues = status(field)
    check, weaker = CHECKS[difficulty], WEAKER[difficulty]
    everything = np.ones(clues.shape, dtype=bool)
    if difficulty == "elimination" and USE_KERNELS:
        solved = kernels.trims_fully(clues, everything)
    elif difficulty == "advanced":
        solved = _all_fixed(_pairwise_values(clues, everything))
    elif difficulty == "search":
        # a full status: exact algebra counts its solutions in O(cells)
        solved = algebra.solve(make_problem(clues, everything), limit=2).verdict is Verdict.UNIQUE
    else:
        solved = check(make_problem(clues, everything))
    if not solved:
        if difficulty == "search":
            raise GenerationFailed("the full status of this field has several solutions" + _singular_hint(field.shape))
        raise GenerationFailed(f"the full status of this field is not solved by the {difficulty} rules")
    for attempt in range(1, tries + 1):
        _at(order=attempt, passes=1, part="")
        order = rng.permutation(clues.size)
        passes = 1
        if difficulty == "elimination":
            known, passes = _remove_clues_elimination(field, order, target)
        elif difficulty == "advanced":
            known = _remove_clues_advanced(field, order, target)
        else:
            known = _remove_clues(field, order, difficulty, target)
        minimal = target is None or known.sum() > target
        problem = make_problem(clues, known)
        if weaker is not None and _solves(weaker, problem):
            continue  # easier than asked: try another order
        # Certify from scratch, by the engines themselves, not the incremental bookkeeping. For
        # search, the grade's own check is uniqueness, which is what certify proves. Advanced's
        # and elimination's checks run compiled when numba is loaded (`_solves`: the pairwise
        # rules' fixpoint, or trimming, with quiet's answers, tested): in Python they took 0.3 s
        # of a 60x60 advanced puzzle's 3 s and 0.25 s of an elimination one's 4.8 s.
        solved = difficulty == "search" or (check(problem) if difficulty == "basic" else _solves(check, problem))
        certificate = certify(problem, difficulty, field) if solved else None
        if certificate is None:
            raise GenerationFailed("internal check failed: the puzzle is not proved unique")  # never expected
        return Puzzle(clues, known, field, difficulty, minimal, attempt, time.perf_counter() - start, certificate, passes)
    raise GenerationFailed(
        f"no {difficulty} puzzle found in {tries} orders of clue removal (every result was easier); "
        "try another seed, size or density"
    )


def _singular_hint(shape: tuple[int, int]) -> str:
    """' (a side of 2 cells: ...)' when a side is 2 (mod 3), where full statuses can be ambiguous."""
    sides = [k for k in shape if k % 3 == 2]
    if not sides:
        return ""
    return (f" (a side of {sides[0]} cells, and {sides[0]} mod 3 = 2: the status map is singular there, so a "
            "full status can have several fields)")


def _compiled(problem: Problem) -> bool:
    """Run trimming's checks compiled? When numba is there (the same answers) and its code is
    loaded already or the puzzle is large enough to pay for loading it (TRIM_KERNEL_CELLS)."""
    return USE_KERNELS and (problem.cells >= TRIM_KERNEL_CELLS or kernels.loaded())


def _solves(check, problem: Problem) -> bool:
    """Run a grade's check, compiled where `_compiled` says so."""
    if _compiled(problem) and check is is_trimmed:
        return kernels.trims_fully(problem.clues, problem.known)
    if _compiled(problem) and check is is_advanced:
        return _all_fixed(kernels.pairwise_fixed(problem.clues, problem.known))
    return check(problem)


def _needs_elimination(problem: Problem) -> bool:
    """Is the puzzle of the elimination grade: trimmed, and not by the pairwise rules alone? One
    run of the rules, where `is_advanced` and then `is_trimmed` would run the pairwise phase twice:
    compiled, `kernels.trim_grade` (as hybrid grades); in Python, quiet's trimmer says whether
    elimination fixed a cell (it runs the pairwise rules to their fixpoint first, so it
    eliminates only when they do not finish)."""
    if _compiled(problem):
        return kernels.trim_grade(problem.clues, problem.known, verdict_only=True)[0] == "elimination"
    trimmer = quiet.QuietTrimmer.of(problem)
    return trimmer.fixes_all() and trimmer.grade == "elimination"


# -- advanced: the pairwise rules, which are monotone ------------------------------------------


def _remove_clues_advanced(field: np.ndarray, order: np.ndarray, target: int | None, stage: str = "") -> np.ndarray:
    """Remove clues, in order, while trimming's basic and pairwise rules still fix every cell.

    Those rules are monotone (a clue more or a cell fixed more never stops one of them, and their
    fixpoint does not depend on the order they run in), so a clue that cannot go cannot go later
    either, and one pass gives a minimal puzzle, checked exhaustively. And the puzzle without a
    clue c is still solved exactly when the rules fix c's window without c: then c's equation is
    0 = 0 and the rules reach the fixpoint they reached with c, every cell. Each removal is
    decided by the first of these that answers, each exact:

    1. first, every clue in order: the rules on the clues within PAIRWISE_NEAR
       rows and columns of c, the cells beyond left free, fix c's window (`local_proof`'s
       check): yes, it goes. The others are tried in the same order after that part:
    2. the warm start, the rules' fixpoint on the puzzle without the next WARM_BLOCK clues to be
       tried (`_WarmStarts`), fixes c's window: it goes (the fixpoint without c holds that one);
    3. `_advanced_keeps`: the rules cannot fix c's window even when every cell farther than
       PAIRWISE_GIVEN[0] rows or columns from c is given its value in the field (`_must_stay`):
       it stays; the check near c at PAIRWISE_FAR, from the warm start, fixes it: it goes; the
       same as before at PAIRWISE_GIVEN[1]: it stays;
    4. else the rules' whole-grid fixpoint without c, from the warm start, fixes every cell.

    At 60x60 (seeds 0 and 1), of about 1900 clues left after part 1, the first proof that a clue
    stays settled 1144 and 1083, the second 375 and 402, the check at radius 10 37 and 45, and
    the whole grid 333 and 330 (docs/performance.md).

    stage: what the progress report calls this removal when it is part of another (elimination's).
    """
    clues = status(field)
    shape, size = field.shape, field.size
    known = np.ones(size, dtype=bool)
    kept = size
    rest = []
    _at(part=f" ({stage}the clues the check near them settles)")
    for step, c in enumerate(order):
        if target is not None and kept <= target:
            break
        _tick(step, len(order), kept, size)
        c = int(c)
        known[c] = False
        if _window_fixed_nearby(clues, known.reshape(shape), c, PAIRWISE_NEAR):
            kept -= 1
        else:
            known[c] = True
            rest.append(c)
    _at(part=f" ({stage}the others)" if stage else "")
    rest = np.array(rest, dtype=np.int64)
    warm = _WarmStarts(shape)
    for step, c in enumerate(rest.tolist()):
        if target is not None and kept <= target:
            break
        _tick(step, len(rest), kept, size)
        known[c] = False
        start = warm.for_trim(clues, known, rest, step)
        if start is None or not _window_all_fixed(start, c):
            if _advanced_keeps(field, clues, known.reshape(shape), c, start):
                known[c] = True
                continue
        kept -= 1
        warm.gone(c)
    return known.reshape(shape)


def _advanced_keeps(field: np.ndarray, clues: np.ndarray, known: np.ndarray, c: int, start: np.ndarray | None) -> bool:
    """Must clue c stay (c out of known already)? The local checks first, cheapest first, each
    exact when it answers: the far cells given at the first PAIRWISE_GIVEN radius (a yes: it
    stays), the check near the clue at PAIRWISE_FAR (a yes: it goes), the far cells given at the
    second radius; then the whole-grid fixpoint from the warm start decides."""
    if _must_stay(field, clues, known, c, PAIRWISE_GIVEN[0], start):
        return True
    if _window_fixed_nearby(clues, known, c, PAIRWISE_FAR, start):
        return False
    if _must_stay(field, clues, known, c, PAIRWISE_GIVEN[1], start):
        return True
    return not _all_fixed(_pairwise_values(clues, known, start))


def _pairwise_values(clues: np.ndarray, known: np.ndarray, start: np.ndarray | None = None) -> np.ndarray | None:
    """The fixpoint of trimming's basic and pairwise rules on a puzzle: each cell's value (int8,
    -1 open), or None if the clues contradict each other; start: cells known to be fixed there
    already (a warm start, -1 for the others). Compiled with numba (`kernels.pairwise_fixed`),
    else recon.engines.quiet: the same fixpoint."""
    if USE_KERNELS:
        return kernels.pairwise_fixed(clues, known, start)
    return _pairwise_values_python(clues, known, start)


def _pairwise_values_python(clues: np.ndarray, known: np.ndarray, start: np.ndarray | None = None) -> np.ndarray | None:
    """`_pairwise_values` by recon.engines.quiet (`kernels.pairwise_fixed`'s twin)."""
    rows, cols = clues.shape
    value = np.full(clues.size, -1, dtype=np.int8) if start is None else np.asarray(start, dtype=np.int8).ravel().copy()
    equations = []
    for r, c in zip(*np.nonzero(known)):
        cells = [y * cols + x for y, x in window_cells(clues.shape, int(r), int(c))]
        mines = sum(int(value[x]) for x in cells if value[x] > 0)
        equations.append(("", [x for x in cells if value[x] < 0], int(clues[r, c]) - mines))
    trimmer = quiet.QuietTrimmer(clues.shape, np.flatnonzero(value < 0).tolist(), equations)
    try:
        trimmer.load()
        trimmer.run_pairwise()
    except trim.Contradiction:
        return None
    found = trimmer.value
    return np.where(value < 0, found, value).reshape(clues.shape).astype(np.int8)


def _all_fixed(value: np.ndarray | None) -> bool:
    """Is every cell fixed (and the clues not contradictory)?"""
    return value is not None and bool((value >= 0).all())


def _window_all_fixed(value: np.ndarray, c: int) -> bool:
    """Is every cell of clue c's window fixed in value (flat index c)?"""
    rows, cols = value.shape
    r, q = divmod(c, cols)
    return bool((value[max(r - 1, 0) : r + 2, max(q - 1, 0) : q + 2] >= 0).all())


def _window_fixed_nearby(clues: np.ndarray, known: np.ndarray, c: int, radius: int, start: np.ndarray | None = None) -> bool:
    """`local_proof`'s check at one radius (from a warm start if given): compiled with numba, else
    its Python twin."""
    if USE_KERNELS:
        return kernels.window_fixed_nearby(clues, known, c, radius, start=start)
    return window_fixed_nearby_python(clues, known, c, radius, start)


def _must_stay(field: np.ndarray, clues: np.ndarray, known: np.ndarray, c: int, given: int, start: np.ndarray | None = None) -> bool:
    """`kernels.must_stay` with numba, else its Python twin `_must_stay_python` (the same answer)."""
    if USE_KERNELS:
        return kernels.must_stay(clues, known, field, c, given, start)
    return _must_stay_python(field, clues, known, c, given, start)


def _must_stay_python(
    field: np.ndarray, clues: np.ndarray, known: np.ndarray, c: int, given: int, start: np.ndarray | None = None
) -> bool:
    """A proof that the pairwise rules cannot fix clue c's window on the puzzle without c (known,
    c out already): they do not fix it even when every cell farther than `given` rows or columns
    from c is given its value in the field (`kernels.must_stay`'s twin).

    Sound: the rules are sound and the field meets every clue, so whatever they fix on the whole
    puzzle is the field's value; giving more cells can only fix more (they are monotone). So the
    fixpoint with those cells given holds the whole-grid one. The clues within `given` + 1 are
    enough: one farther sees given cells only, and says nothing more. start: a warm start (cells
    the rules fix on the whole puzzle without c), fixed from the start too: the same answer."""
    return _local_window_fixed(clues, known, c, given + 1, start=start, field=field, given=given) is False


def _local_window_fixed(
    clues: np.ndarray, known: np.ndarray, c: int, radius: int, start: np.ndarray | None = None,
    field: np.ndarray | None = None, given: int = -1,
) -> bool | None:
    """The pairwise rules on the clues in force within `radius` rows and columns of clue c (c
    left out), over the cells they see and one ring around (free, or fixed where start fixes
    them, or, beyond `given` rows or columns from c, to their value in field); is c's window
    fixed at the fixpoint? None when those clues contradict each other. In Python, what the
    compiled `kernels._local_pairwise` does for `window_fixed_nearby` and `must_stay`."""
    rows, cols = clues.shape
    r, q = divmod(c, cols)
    y0, y1 = max(r - radius - 1, 0), min(r + radius + 2, rows)
    x0, x1 = max(q - radius - 1, 0), min(q + radius + 2, cols)
    ys, xs = np.mgrid[y0:y1, x0:x1]
    # the outer ring (unless it is the grid's edge) holds cells but no clues
    inner = (
        ((ys > y0) | (ys == 0)) & ((ys < y1 - 1) | (ys == rows - 1))
        & ((xs > x0) | (xs == 0)) & ((xs < x1 - 1) | (xs == cols - 1))
    )
    inner[r - y0, q - x0] = False
    value = np.full(ys.shape, -1, dtype=np.int8)
    if start is not None:
        value[:] = np.asarray(start, dtype=np.int8).reshape(clues.shape)[y0:y1, x0:x1]
    if given >= 0:
        far = np.maximum(np.abs(ys - r), np.abs(xs - q)) > given
        value[far] = np.asarray(field, dtype=np.int8)[y0:y1, x0:x1][far]
    fixed = _pairwise_values_python(clues[y0:y1, x0:x1], known[y0:y1, x0:x1] & inner, value)
    if fixed is None:
        return None
    return _window_all_fixed(fixed, (r - y0) * (x1 - x0) + q - x0)


def _remove_clues_elimination(field: np.ndarray, order: np.ndarray, target: int | None = None) -> tuple[np.ndarray, int]:
    """Remove clues to an elimination-grade puzzle that is minimal (or has `target` clues), and the
    number of passes it took.

    The first pass has two parts (FIRST_PART): clues go, in order, while the pairwise rules alone
    still solve the puzzle (`_remove_clues_advanced`: each such removal keeps it trimmed, since
    trimming runs those rules first); then the clues left are tried in the same order as in any
    pass, with elimination. (FIRST_PART "local": first every clue the check near it proves
    removable goes, `_remove_local`.) The first part's checks are not asked again: its answers
    only turn from yes to no as clues go (the pairwise rules are monotone).

    Trimming is not monotone (see the module docstring): a clue kept because trimming failed
    without it may become removable once others have gone. So after the first pass, pass over the
    kept clues again, in the same order, until a pass removes none. With python-sat and numba, a
    later pass tries only the clues kept because trimming failed: a clue kept because the puzzle
    without it had a second solution can never go (with fewer clues that solution is still one).
    When no clue is left to try, the next pass would remove none: it is counted, not run, so both
    paths report the same number of passes. A clue last tried on the puzzle a pass starts from
    (no clue went after it in the pass before) would fail again: it is kept without asking until
    a clue goes (`_remove_clues_sat`'s settled). So would a clue whose trim failed because the
    pairwise phase left a group of open cells too large for elimination, while the clues left
    still join a part of it that is too large (`kernels.LargeGroup`; `stalls` remembers them).

    target (a clue count): removal stops there, on the same path as without it, so the puzzle is
    one the minimal path goes through. That path's puzzles need elimination from its first removal
    after advanced's part on (advanced's part tried every clue left, so the pairwise rules cannot
    do without any of them, and with fewer clues they do no better); before it they are solved by
    the pairwise rules. So when advanced's part gets to the target already, the path is followed to
    its first puzzle that needs elimination, and clues are added back to that one (`_add_back`).
    When that does not get there either (the path has no such puzzle, or too few clues can come
    back), or FIRST_PART is not "advanced", removal runs one pass in turn toward the target
    instead (`_toward`), as before 2026-11-24.
    """
    if FIRST_PART not in FIRST_PARTS:
        raise ValueError(f"FIRST_PART must be one of {FIRST_PARTS}, got {FIRST_PART!r}")
    if target is not None and FIRST_PART != "advanced":
        return _toward(field, order, target)
    known = None
    if FIRST_PART == "advanced":
        known = _remove_clues_advanced(field, order, None, stage="the pairwise rules: ")
        rest = order[known.ravel()[order]]
        _at(part=" (elimination)")
        if target is not None and known.sum() <= target:
            first = _elimination_pass(field, rest, known, stalls={}, target=int(known.sum()) - 1)[0]
            grown = _add_back(field, order, first, target) if first.sum() < known.sum() else None
            if grown is not None:
                return grown, 1
            _at(part="")
            return _toward(field, order, target)
        order = rest
    elif FIRST_PART == "local":
        known, order = _remove_local(field, order)
    stalls: dict[int, kernels.LargeGroup] = {}
    known, held, settled = _elimination_pass(field, order, known, stalls=stalls, target=target)
    passes = 1
    while held.any() and not (target is not None and known.sum() <= target):
        passes += 1
        _at(passes=passes, part="")
        again, held, settled = _elimination_pass(field, order[held[order]], known, settled, stalls, target)
        if again.sum() == known.sum():
            return known, passes
        known = again
    if target is not None and known.sum() <= target:
        return known, passes  # stopped at the target
    return known, passes + 1  # the next pass, with no clue to try, would remove none


def _add_back(field: np.ndarray, order: np.ndarray, known: np.ndarray, target: int) -> np.ndarray | None:
    """Add clues back to an elimination-grade puzzle (known) until it has `target` clues: the clues
    gone, last drawn first, each kept only if trimming still solves the puzzle (elimination is not
    monotone: a clue more can stop it) and the pairwise rules alone still do not (a clue more can
    let them). The clues then kept, or None when too few could come back. Each check is the
    grade's own (`_needs_elimination`), and a puzzle trimming solves is unique."""
    clues = status(field)
    known = known.copy()
    count = int(known.sum())
    for c in reversed(order.tolist()):
        if count >= target:
            break
        if known.flat[c]:
            continue
        known.flat[c] = True
        if not _needs_elimination(make_problem(clues, known)):
            known.flat[c] = False
        else:
            count += 1
    return known if count == target else None


def _toward(field: np.ndarray, order: np.ndarray, target: int) -> tuple[np.ndarray, int]:
    """Elimination-grade removal toward a clue target in one pass that tries each clue in turn, then
    `_more_passes` if it did not get there; the clues kept and the passes."""
    _at(passes=1)
    known = _remove_clues(field, order, "elimination", target)
    if known.sum() > target:
        return _more_passes(field, order, known, target)
    return known, 1


def _more_passes(field: np.ndarray, order: np.ndarray, known: np.ndarray, target: int) -> tuple[np.ndarray, int]:
    """An elimination-grade removal toward a clue target that one pass did not reach: pass over the kept
    clues again, in order, until the target is reached or a pass removes none (then the puzzle is
    minimal, as without a target: trimming is not monotone, so one pass does not show that); the
    clues kept and the number of passes, that last one included."""
    passes = 1
    while known.sum() > target:
        passes += 1
        _at(passes=passes)
        again = _remove_clues(field, order[known.ravel()[order]], "elimination", target, known)
        if again.sum() == known.sum():
            break
        known = again
    return known, passes


def _remove_local(field: np.ndarray, order: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Remove, in order, every clue that `local_proof` shows trimming can do without: the clues
    left, and the part of the order they make up (to be tried next)."""
    clues = status(field)
    known = np.ones(field.shape, dtype=bool)
    rest = []
    _at(part=" (the clues the check near them settles)")
    for tried, c in enumerate(order):
        _tick(tried, len(order), field.size - (tried - len(rest)), field.size)
        c = int(c)
        known.flat[c] = False
        if not local_proof(clues, known, c):
            known.flat[c] = True
            rest.append(c)
    _at(part="")
    return known, np.array(rest, dtype=np.int64)


def local_proof(clues: np.ndarray, known: np.ndarray, c: int) -> bool:
    """Do the pairwise rules on the clues in force within LOCAL_RADII[-1] rows and columns of
    clue c, without c, fix c's window? (`kernels.window_fixed_nearby`, compiled, with numba; else
    its Python twin, the same answer.) If the puzzle with c was solved by trimming, a yes proves
    the puzzle without c is too: trimming runs as it ran with c (see window_fixed_nearby)."""
    check = kernels.window_fixed_nearby if USE_KERNELS else window_fixed_nearby_python
    return any(check(clues, known, c, r) for r in LOCAL_RADII)  # a yes at a smaller radius is a yes at the last


def window_fixed_nearby_python(
    clues: np.ndarray, known: np.ndarray, c: int, radius: int, start: np.ndarray | None = None
) -> bool:
    """`kernels.window_fixed_nearby` in Python: trim's basic and pairwise rules (no elimination)
    on the clues in force within `radius` rows and columns of clue c, without c, over the cells
    they see and one ring around, free (or, with start, fixed where start fixes them); is c's
    window fixed at their fixpoint? The fixpoint does not depend on the order the rules run in,
    so this is the compiled answer (tests compare). (recon.engines.quiet's pairwise rules: the
    Trimmer's, which wrote their proof, took 1.5 of the 2.1 s of a 10x10 generation of the
    elimination grade, then called advanced, without numba.) Contradictory clues: no proof."""
    return bool(_local_window_fixed(clues, known, c, radius, start))


def _elimination_pass(
    field: np.ndarray, order: np.ndarray, known: np.ndarray | None, settled: np.ndarray | None = None,
    stalls: dict[int, kernels.LargeGroup] | None = None, target: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """One pass of elimination-grade removals over `order`: the clues kept, (flat) those that a later
    pass must try again (with SAT, the ones trimming failed; without, every one kept), and (flat,
    with SAT) those of them last tried on the puzzle the pass ends with (see _remove_clues_sat). It
    stops when `target` clues are left."""
    if USE_SAT and USE_KERNELS:
        return _remove_clues_sat(field, order, target, "elimination", known, settled, stalls)
    kept = _remove_clues(field, order, "elimination", target, known)
    return kept, kept.ravel(), None


def _remove_clues(field: np.ndarray, order: np.ndarray, difficulty: str, target: int | None, known: np.ndarray | None = None) -> np.ndarray:
    """Try removing each clue in order; keep it when the puzzle without it fails the grade's check.

    The answer is the same as re-checking the whole puzzle after every removal, but each check
    is incremental (recon.incremental): the single-clue closure is updated, not recomputed, and
    only the open groups a removal touches are trimmed or searched. For basic puzzles, 64
    removals are first tried at once against the current clues (`basic_closures`, one bit per
    removal); a removal that fails there fails later too (clues only go), so only the ones that
    pass are replayed one by one. With numba, that basic loop runs compiled (`recon.kernels`), with
    the same decisions.

    known: start from these clues (the clues not in it are gone already; for another pass).
    """
    if known is not None and difficulty == "basic":
        raise ValueError("the basic removal loop starts from every clue")
    if difficulty == "basic" and USE_KERNELS and (field.size >= BASIC_KERNEL_CELLS or kernels.loaded()):
        return kernels.remove_clues_basic(field, order, target)
    if USE_SAT and (difficulty == "search" or (difficulty == "elimination" and USE_KERNELS)):
        return _remove_clues_sat(field, order, target, difficulty, known)[0]
    closure = Closure(field, None if known is None else known.ravel())
    cache: dict = {}
    kept = int(sum(closure.active))
    order = [int(c) for c in order if closure.active[int(c)]]
    for first in range(0, len(order), LANES):
        _tick(first, len(order), kept, field.size)
        batch = order[first : first + LANES]
        hopeful = _screen(closure, field, batch) if difficulty == "basic" else [True] * len(batch)
        for c, ok in zip(batch, hopeful):
            if target is not None and kept <= target:
                break
            if not ok:
                continue
            closure.remove(c)
            if _still_solved(closure, c, difficulty, cache):
                kept -= 1
            else:
                closure.restore(c)
    return np.array(closure.active, dtype=bool).reshape(field.shape)


def _remove_clues_sat(
    field: np.ndarray,
    order: np.ndarray,
    target: int | None,
    difficulty: str = "search",
    known: np.ndarray | None = None,
    settled: np.ndarray | None = None,
    stalls: dict[int, kernels.LargeGroup] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The removal loop with an incremental SAT solver (`sat.SecondSolution`) asked first; the
    clues kept, those of them kept only because trimming failed (elimination), and those of these
    last tried on the puzzle the loop ends with (no clue went after them).

    settled (flat, elimination, a later pass): clues kept because trimming failed without them, on
    the very puzzle this pass starts from. While no clue has gone in this pass, the puzzle is that
    one, and both checks would answer as they did: such a clue is kept without asking.

    search: its answer decides. elimination: a second solution without the clue means trimming
    cannot solve the puzzle either (it is sound), so the clue stays; otherwise compiled trimming
    decides. Asking SAT first halved this generation at 30x30 and 40x40 (3.8 to 1.9 s, 21.6
    to 10.7 s), since trimming a puzzle it cannot solve was the slowest check (issue 5 note).

    stalls (elimination, filled and read across passes): for a clue whose trim failed on a group of
    open cells too large for elimination, that group (`kernels.LargeGroup`). While the clues
    left still join a part of it too large, trimming without the clue fails again: it is kept
    without asking (the decision SAT and trimming would make).

    Each whole-grid trim starts warm (WARM_BLOCK, `_WarmStarts`): a start is dropped as soon as
    a clue goes that was in force when it was found, so it is always sound.

    known: the clues still in force (after the first part of a pass, or a later pass; only the
    clues in `order` are tried). Without it (a first pass in turn: a clue target, or FIRST_PART
    None), elimination asks `local_proof` before SAT; a yes settles the removal (the same
    decision, sooner). With it, the check is not asked: the first part said no to these clues
    already (the pairwise rules, which the check runs, did not solve the puzzle without them),
    and that stays no with fewer clues.
    """
    local = difficulty == "elimination" and known is None
    known = np.ones(field.size, dtype=bool) if known is None else known.ravel().copy()
    kept = int(known.sum())
    shape = field.shape
    held = np.zeros(field.size, dtype=bool)
    since = []  # clues held since the last removal
    start = kept  # no clue has gone in this pass while kept == start
    warm = _WarmStarts(field.shape)
    with sat.SecondSolution(field, order) as oracle:
        clues = oracle.clues.reshape(shape)
        tried = np.zeros(field.size, dtype=bool)
        tried[np.asarray(order, dtype=np.int64)] = True
        for c in np.flatnonzero(~known | ~tried).tolist():
            oracle.decide(c, bool(known[c]))  # gone before this pass, or not tried in it
        for step, c in enumerate(order):
            if target is not None and kept <= target:
                break
            _tick(step, len(order), kept, field.size)
            c = int(c)
            if not known[c]:
                continue
            if (settled is not None and settled[c] and kept == start) or _large_group_holds(stalls, c, known):
                held[c] = True
                since.append(c)
                oracle.decide(c, True)
                continue
            known[c] = False
            if local and local_proof(clues, known.reshape(shape), c):
                keep = False
            else:
                keep = oracle.another_without(c)
                if not keep and difficulty == "elimination":
                    # the puzzle with c was solved by trimming (every removal so far kept it so)
                    solved, large = kernels.trim_verdict(
                        clues, known.reshape(shape), solved_with=c, start=warm.for_trim(clues, known, order, step)
                    )
                    keep = held[c] = not solved
                    if large is not None and stalls is not None:
                        stalls[c] = large
            oracle.decide(c, keep)
            known[c] = keep
            kept -= not keep
            if not keep:
                since.clear()
                warm.gone(c)
            elif held[c]:
                since.append(c)
    now_settled = np.zeros(field.size, dtype=bool)
    now_settled[np.array(since, dtype=np.int64)] = True
    return known.reshape(shape), held, now_settled


class _WarmStarts:
    """The warm starts of one removal loop's whole-grid trims (see WARM_BLOCK).

    A start holds the cells trimming's pairwise phase fixes on the puzzle without a block of
    clues: the one being tried and the next clues in force that the order tries. It is sound for
    a trim of any clue of the block while every other clue it was found with is still in force,
    so `gone` drops it when one of those goes. The block's start is itself found warm, from a
    start for the next WARM_OUTER clues kept the same way."""

    def __init__(self, shape: tuple[int, int]):
        self.shape = shape
        self.start = self.block = None  # the trims' start, and (flat) the clues left out of it
        self.outer_start = self.outer = None  # the blocks' start, and the clues left out of it

    def for_trim(self, clues: np.ndarray, known: np.ndarray, order: np.ndarray, step: int) -> np.ndarray | None:
        """The start for trimming without order[step] (gone from known, flat, already), found
        when the block held is not for it; None when WARM_BLOCK is 0."""
        if self.start is not None and self.block[int(order[step])]:
            return self.start
        if WARM_BLOCK <= 0:
            return None
        self.block = _next_clues(known, order, step, WARM_BLOCK)
        if self.outer_start is None or np.any(self.block & ~self.outer):
            self.outer = _next_clues(known, order, step, max(WARM_OUTER, WARM_BLOCK))
            self.outer_start = _pairwise_values(clues, (known & ~self.outer).reshape(self.shape))
        self.start = _pairwise_values(clues, (known & ~self.block).reshape(self.shape), start=self.outer_start)
        return self.start

    def gone(self, c: int) -> None:
        """Clue c went: drop each start found with c in force."""
        if self.start is not None and not self.block[c]:
            self.start = None
        if self.outer_start is not None and not self.outer[c]:
            self.outer_start = None


def _next_clues(known: np.ndarray, order: np.ndarray, step: int, count: int) -> np.ndarray:
    """(flat) order[step] and the next count - 1 clues in force in the order after it."""
    chosen = np.zeros(known.size, dtype=bool)
    chosen[int(order[step])] = True
    later = np.asarray(order[step + 1 :], dtype=np.int64)
    chosen[later[known[later]][: max(count - 1, 0)]] = True
    return chosen


def _large_group_holds(stalls: dict | None, c: int, known: np.ndarray) -> bool:
    """Does c's LargeGroup proof (if any) still show that trimming without c fails? A proof that
    no longer holds never holds again (clues only go, and parts only split): it is dropped, so
    later passes do not rebuild its joins for nothing."""
    if stalls is None or c not in stalls:
        return False
    if stalls[c].still_too_large(known):
        return True
    del stalls[c]
    return False


def _screen(closure: Closure, field: np.ndarray, batch: list[int]) -> list[bool]:
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


def _still_solved(closure: Closure, c: int, difficulty: str, cache: dict) -> bool:
    """After closure.remove(c): does the grade's check still solve the puzzle?"""
    if closure.is_done:
        return True
    if difficulty == "basic":
        return False
    if USE_KERNELS:
        # compiled trimming decides elimination; for search, trimming's success proves uniqueness
        # and a second solution found near c disproves it, so only the rest needs the exact check
        known = np.array(closure.active, dtype=bool).reshape(closure.shape)
        outcome, fixed = kernels.trim_outcome(closure.clues, known, field=closure.field, removed=c)
        if difficulty == "elimination" or outcome != "stalled":
            return outcome == "trimmed"
        # the cells trimming fixed are the same in every solution: search the others
        fixed = fixed.ravel()
        cells = [int(x) for x in np.flatnonzero(fixed < 0)]
        win, active, given, truth = closure.win, closure.active, closure.clue, closure.truth
        equations = []
        for k in sorted({k for x in cells for k in win[x] if active[k]}):
            here = [y for y in win[k] if fixed[y] < 0]
            equations.append((here, given[k] - sum(truth[y] for y in win[k] if fixed[y] >= 0)))
        return not _another_solution(cells, equations, closure.truth)
    seeds = closure.changed | {x for x in closure.win[c] if x in closure.open}
    for cells, clues in closure.open_groups(seeds):
        key = (frozenset(cells), frozenset(clues))
        if key not in cache:
            cache[key] = _group_solved(closure, cells, clues, difficulty)
        if not cache[key]:
            return False
    return True


def _group_solved(closure: Closure, cells: list[int], clues: list[int], difficulty: str) -> bool:
    """Is one group of open cells fixed by trimming (elimination) or proved unique (search)?"""
    equations = closure.equations(clues)
    if difficulty == "search":
        return not _another_solution(cells, [(eq_cells, need) for _, eq_cells, need in equations], closure.truth)
    return quiet.QuietTrimmer(closure.shape, cells, equations).fixes_all()  # trim's answer, without the proof


def _another_solution(cells: list[int], equations: list[tuple[list[int], int]], truth: list[int]) -> bool:
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
    except (backtrack.TimeUp, RecursionError):
        return _another_solution_milp(cells, equations, truth)


def _another_solution_milp(cells: list[int], equations: list[tuple[list[int], int]], truth: list[int]) -> bool:
    """The same question as _another_solution, asked of MILP."""
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


def generate_puzzle(
    rows: int,
    cols: int,
    p: float,
    rng: np.random.Generator,
    *,
    difficulty: str = "basic",
    target: int | None = None,
    fields: int = 200,
) -> Puzzle:
    """Draw fields at density p until one yields a puzzle of the asked grade (at most `fields`)."""
    from ..model import random_field

    impossible = impossible_request(difficulty, p)
    if impossible:
        raise GenerationFailed(impossible)
    reasons = []
    for number in range(1, fields + 1):
        _at(field=number)
        field = random_field(rows, cols, p, rng)
        try:
            return make_puzzle(field, rng, difficulty=difficulty, target=target)
        except GenerationFailed as err:
            reasons.append(str(err))
    raise GenerationFailed(f"no {difficulty} puzzle from {fields} random fields; last: {reasons[-1]}")
