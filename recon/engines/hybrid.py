"""Hybrid: deduce what the rules can, then search the rest. The fastest exact engine on puzzles.

1. The single-clue rules run as the search's propagation (cheap, counts only).
2. If cells stay open, trimming (pairwise rules, elimination: recon.rules.trim, run without its
   written proof) works on the open cells alone, with the fixed cells substituted into the clues.
3. Every cell fixed so far is a fact (deduced, never guessed: no solution differs there). When
   every cell is fixed, that is the one solution; otherwise backtracking with propagation and
   backjumping enumerates the rest from that state.

Steps 1 and 2 are sound, and step 3 is complete, so the engine is complete: the count it reports
is exact when the search runs out. It also grades the puzzle like `recon explain`: basic when step
1 fixes every cell, advanced when step 2's pairwise rules are needed and enough, elimination when
step 2 needs elimination too, search otherwise. Backtracking alone
can take minutes on puzzles that need the pairwise rules (bench/bench_partial.py); starting from the
trimmed state it does not. With a total (a classic board's mine count), steps 1 and 2 leave it out
and the search takes it as one more clue over every cell; the grade is then trimming's to give.
"""

from __future__ import annotations

import time

import numpy as np

from .. import compiled
from ..model import Problem, cell_name, unseen_open_cells, windows_of
from ..result import EngineError, Grade, Result, TimeUp, Verdict
from . import backtrack, child

NAME = "hybrid"
#: The compiled trimmer gives way to the Python one (sparse rows, no index) where elimination's
#: index of rows by column (a bit per open cell and row of its group) would pass 1 GiB.
COMPILED_INDEX_BYTES = 1 << 30
#: `solve` trims compiled, when the kernels are cached, from this many clues (below it loading
#: them costs more than trimming in Python) up to COMPILED_MAX_CELLS cells, the largest grid
#: measured (docs/decisions.md).
COMPILED_MIN_CLUES = 60_000
COMPILED_MAX_CELLS = 16_000_000
#: Where no search follows, hybrid trims in Python without its search state on a grid of more
#: than this many cells a clue (docs/decisions.md, "hybrid without its search state").
STATE_CELLS_PER_CLUE = 3
#: `_compiled_trim`'s answer when its child was stopped at the deadline.
TIMED_OUT = "timed out"


def compiled_pays(problem: Problem, *, min_clues: int = COMPILED_MIN_CLUES, max_cells: int = COMPILED_MAX_CELLS) -> bool:
    """Would the compiled trimmer be the faster one here? Numba at hand with this package's
    kernels in its cache (or loaded), and min_clues clues or more on at most max_cells cells. The
    answer changes the time only: both trimmers fix the same cells and give the same grade."""
    if not (compiled.AVAILABLE and problem.cells <= max_cells and int(problem.known.sum()) >= min_clues):
        return False
    return compiled.is_loaded() or compiled.cached()


def deduce(
    problem: Problem, deadline: float | None = None, stats: dict | None = None, *, compiled_trim: bool = False,
    max_index_bytes: int = COMPILED_INDEX_BYTES,
):
    """Steps 1 and 2: return (search state with every deduced cell set, grade, None), or
    (None, grade, reason) when the clues contradict. The grade is basic, advanced, elimination or
    search. compiled_trim: trim with `recon.compiled` (the same cells, faster once loaded, but
    loading costs a fresh process about a second), unless its index would pass max_index_bytes,
    the problem has fixed cells (it takes clues alone) or there is a deadline and no child
    process to run it in (it cannot stop part way, the Python trimmer can: `_compiled_trim`).
    stats["trimmer"] says which one ran."""
    stats = {} if stats is None else stats
    search, grade, reason, fixed, _ = _trim(problem, deadline, stats, compiled_trim, max_index_bytes)
    if fixed is None:
        return search, grade, reason
    return _take_fixed(search, fixed, grade, stats)


def _trim(problem: Problem, deadline, stats: dict, compiled_trim: bool, max_index_bytes: int, trimmed=None):
    """Steps 1 and 2 without setting what step 2 fixed in the search state: (search state,
    grade, reason, each cell's value as trimming left it or None when trimming did not run, the
    search state's values as an array or None). The search is None when the clues contradict
    (reason says how). trimmed: `_compiled_trim`'s answer when the caller has it already."""
    search = backtrack._Search(problem)
    if not search.start():
        return None, Grade.BASIC, search.describe_conflict(search.conflict), None, None
    value = np.array(search.value, dtype=np.int8)
    is_open = value == backtrack._UNDECIDED
    if not is_open.any():
        return search, Grade.BASIC, None, None, value
    if trimmed is None and compiled_trim:
        trimmed = _compiled_trim(problem, max_index_bytes, deadline)
    if trimmed is TIMED_OUT:  # (nothing it fixed is known)
        stats.update(trimmer="compiled", trim_timed_out=True)
        return search, None, None, value.copy(), value
    if trimmed is not None:
        stats["trimmer"] = "compiled"
        return search, trimmed[0], None, trimmed[1], value
    stats["trimmer"] = "python"
    equations = _open_windows(problem, search.need, value)
    # trimming gets the open cells some clue sees: no rule fixes the others (the total is left to
    # the search), and on a sparse status they are most of the grid (docs/decisions.md)
    unseen = is_open & unseen_open_cells(problem).ravel()
    open_cells = np.flatnonzero(is_open & ~unseen).tolist()
    # without the written proof (the same cells, faster); on a contradiction, again with it,
    # which names the clues that clash
    trimmer = _trimmed(problem.shape, open_cells, equations, deadline, written=False)
    if trimmer is None:
        trimmer = _trimmed(problem.shape, open_cells, equations, deadline, written=True)
        if isinstance(trimmer, tuple):
            text, grade = trimmer
            return None, grade, text, None, None
    fixed = value.copy()  # the search state's values, with what trimming fixed
    fixed[is_open & ~unseen] = trimmer.values(open_cells)
    if trimmer.timed_out:
        stats["trim_timed_out"] = True
        return search, None, None, fixed, value  # trimming did not finish: the grade is not known
    return search, Grade.SEARCH if unseen.any() else trimmer.grade, None, fixed, value


def _compiled_trim(problem: Problem, max_index_bytes: int, deadline: float | None = None):
    """(grade, each cell's value or -1, flat) from the compiled trimmer, or None where it does not
    take the problem (fixed cells: it takes clues alone) or gives way to the Python trimmer: on
    a contradiction, which the Python one names, or an index past max_index_bytes. Its cells
    include all that the single-clue rules fix; its grade never says basic (the caller tells).
    It cannot stop part way: under a deadline it runs in a forked child, stopped at the deadline
    (TIMED_OUT then), and where no child can be had the Python trimmer, which stops, runs instead."""
    if not compiled.AVAILABLE or problem.fixed is not None:
        return None
    if deadline is None:
        return _compiled_trim_grade(problem.clues, problem.known, max_index_bytes)
    if not child.can_fork():
        return None
    compiled.load()  # here, not in the child: it inherits the kernels, and this process keeps them
    try:
        answered, answer = child.run(_compiled_trim_grade, (problem.clues, problem.known, max_index_bytes), deadline)
    except child.ChildFailed as err:
        raise EngineError(f"the compiled trimmer failed in its process: {err}") from None
    return answer if answered else TIMED_OUT


def _compiled_trim_grade(clues: np.ndarray, known: np.ndarray, max_index_bytes: int):
    """`_compiled_trim`'s answer, worked out in this process."""
    try:
        grade, fixed = compiled.trim_grade(clues, known, max_index_bytes=max_index_bytes)
    except compiled.IndexTooLarge:
        return None
    return None if grade is None else (grade, fixed.ravel())


def _python_trim_alone(problem: Problem):
    """(grade, each cell's value or -1, flat) from the Python trimmer on every clue as given, with
    no search state before it, or None on a contradiction (the state's path then names it)."""
    ks = np.flatnonzero(problem.known.ravel())
    equations = _open_windows(problem, problem.clues.ravel()[ks], np.full(problem.cells, -1, dtype=np.int8))
    seen = ~unseen_open_cells(problem).ravel()
    open_cells = np.flatnonzero(seen).tolist()
    trimmer = _trimmed(problem.shape, open_cells, equations, None, written=False)
    if trimmer is None:
        return None
    fixed = np.full(problem.cells, -1, dtype=np.int8)
    fixed[seen] = trimmer.values(open_cells)
    return Grade.SEARCH if not seen.all() else trimmer.grade, fixed


def _open_windows(problem: Problem, need, value: np.ndarray) -> list[tuple[str, int, int, int, int]]:
    """Each clue that still has open cells, as trimming takes it (`Trimmer.on_masks`): its name,
    its window's anchor (one row up and one column left), the mask of the window's open cells,
    and the mines they hold. Built for all clues at once: one at a time it was a tenth of a
    small puzzle's trim. need: each clue's mines still to place (in clue order; a total after
    them is not read); value: each cell's value, -1 open."""
    ks = np.flatnonzero(problem.known.ravel())
    windows = windows_of(problem.shape, ks)  # 3x3 positions in row-major order, -1 outside
    open_here = (windows >= 0) & (value[windows] < 0)
    masks = open_here.astype(np.int64) @ (1 << np.arange(9))
    need = np.asarray(need, dtype=np.int64)
    free = np.flatnonzero(masks)
    r, c = np.divmod(ks[free], problem.shape[1])
    return [(cell_name(y, x), y - 1, x - 1, m, n)
            for y, x, m, n in zip(r.tolist(), c.tolist(), masks[free].tolist(), need[free].tolist())]


def _trimmed(shape, open_cells, equations, deadline, *, written: bool):
    """Trim the open cells to the fixpoint or the deadline; on a contradiction, None (without
    the written proof) or (with it) the text that names the clash and the grade, as `trim.solve`
    gives it: the strongest rule in the trace, the clash included."""
    from ..rules import trim  # here: only a puzzle that deduction leaves open needs it

    trimmer = trim.Trimmer.on_masks(shape, open_cells, equations, proof=written)
    try:
        trimmer.load(deadline)
        trimmer.run(deadline)
    except trim.Contradiction as stop:
        if not written:
            return None
        level = max((step.level for step in [*trimmer.steps, stop.step]))
        return stop.step.text, trim.GRADES[level]
    except TimeUp:
        pass  # trimmer.timed_out says so
    return trimmer


def _take_fixed(search, fixed, grade: Grade, stats: dict):
    """deduce's result from the cells trimming fixed (fixed >= 0; the compiled trimmer fixes the
    same cells as the Python one) and the grade trimming showed: each cell is set in the search
    state and propagated."""
    queue: list[int] = []
    stats["trimmed"] = 0
    for x in np.flatnonzero(fixed >= 0).tolist():
        if search.value[x] == backtrack._UNDECIDED:
            stats["trimmed"] += 1
            bad = search.assign(x, int(fixed[x]), -1, queue)
            if bad >= 0:  # trimming is sound: only a total, which it leaves out, can break here
                return None, Grade.ADVANCED, search.describe_conflict(bad)
    if not search.propagate(queue):  # (likewise)
        return None, Grade.ADVANCED, search.describe_conflict(search.conflict)
    return search, grade, None


def solve(
    problem: Problem,
    *,
    limit: int = 2,
    time_limit: float | None = None,
    search_seconds: float | None = None,
    search_cells: int | None = None,
    compiled_trim: bool = False,
) -> Result:
    """Deduce, then search from the deduced state; list up to `limit` solutions and say if there are others.

    search_seconds bounds the search alone (the deductions are polynomial, the search is not), and
    with more than search_cells cells left open there is no search at all: `solve(engine="auto")`
    sets both and lets SAT or MILP decide what the deductions leave. compiled_trim: see `deduce`;
    where no search can follow, the compiled trimmer's cells are the answer's deduced cells,
    without the search state (which would add none to them), and so are the Python trimmer's on
    a grid of more than STATE_CELLS_PER_CLUE cells a clue.
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    stats = {"deduced": 0, "trimmed": 0, "nodes": 0}
    trimmed = None
    if search_cells is not None and problem.mines is None and (deadline is None or compiled_trim):
        # Perhaps no search follows. Then no search state is built if trimming alone can say so:
        # its cells are the single rules' and more, and the state would add nothing to them.
        alone, trimmer = None, "compiled"
        if compiled_trim:
            # (on a large grid the state is most of this engine's time: docs/decisions.md)
            alone = trimmed = _compiled_trim(problem, COMPILED_INDEX_BYTES, deadline)
            compiled_trim = False  # asked once: on a contradiction the Python trimmer names the clash
            if alone is TIMED_OUT:
                del stats["trimmed"]
                stats.update(trimmer=trimmer, trim_timed_out=True)
                return Result(Verdict.UNDECIDED, [], False, NAME, time.perf_counter() - start, stats,
                              "the time limit was reached while trimming")
        elif problem.fixed is None and problem.cells > STATE_CELLS_PER_CLUE * int(np.count_nonzero(problem.known)):
            # (the state costs a list entry a cell, trimming a row a clue: on a sparse grid most
            # cells are seen by no clue)
            alone, trimmer = _python_trim_alone(problem), "python"
        left = -1 if alone is None else int(np.count_nonzero(alone[1] < 0))
        if left > search_cells:
            del stats["trimmed"]  # (which rule fixed a cell is not known without the state)
            stats.update(trimmer=trimmer, deduced=problem.cells - left)
            reason = f"trimming stalls with {left} of {problem.cells} cells open, too many to search here"
            state = alone[1].reshape(problem.shape)
            # (cells are open, so the grade is search)
            return Result(Verdict.UNDECIDED, [], False, NAME, time.perf_counter() - start, stats, reason,
                          grade=alone[0], decided=state >= 0, partial=state == 1)
    search, grade, reason, fixed, before = _trim(problem, deadline, stats, compiled_trim, COMPILED_INDEX_BYTES, trimmed)
    if search is not None and fixed is not None:
        whole = np.where(before >= 0, before, fixed)
        if grade is not None and (whole >= 0).all() and problem.mines is None:
            # deduced to the last cell, soundly: the one solution (the caller checks it against
            # every clue), with no search to set up (a total, which trimming here leaves out, is
            # checked by the search state, one more clue in it)
            stats.update(trimmed=int((before < 0).sum()), deduced=problem.cells)
            field = whole.astype(bool).reshape(problem.shape)
            return Result(Verdict.UNIQUE, [field], True, NAME, time.perf_counter() - start, stats, None, grade=grade)
        search, grade, reason = _take_fixed(search, fixed, grade, stats)
    grade = _graded(problem, grade)
    if search is None:
        return Result(Verdict.NONE, [], True, NAME, time.perf_counter() - start, stats, reason, grade=grade)
    stats["deduced"] = problem.cells - search.value.count(backtrack._UNDECIDED)
    left = problem.cells - stats["deduced"]
    if stats.get("trim_timed_out"):
        reason = f"the time limit was reached while trimming, with {left} of {problem.cells} cells still open"
        return Result(Verdict.UNDECIDED, [], False, NAME, time.perf_counter() - start, stats, reason,
                      **_deduced(search, problem.shape))
    if search_cells is not None and left > search_cells:
        reason = f"trimming stalls with {left} of {problem.cells} cells open, too many to search here"
        return Result(Verdict.UNDECIDED, [], False, NAME, time.perf_counter() - start, stats, reason, grade=grade,
                      **_deduced(search, problem.shape))
    if search_seconds is not None:
        end = time.perf_counter() + search_seconds
        deadline = end if deadline is None else min(deadline, end)
    solutions, exhausted = backtrack.collect(search, problem.shape, limit, deadline)
    stats["nodes"] = search.nodes
    verdict = Verdict.of_search(len(solutions), exhausted)
    reason = None
    if verdict is Verdict.NONE:
        reason = "every way of placing the mines in the cells left open breaks some clue (search exhausted)"
    elif verdict is Verdict.UNDECIDED:
        reason = f"time limit reached after {search.nodes} nodes of search"
    seconds = time.perf_counter() - start
    return Result(verdict, solutions, exhausted, NAME, seconds, stats, reason, grade=grade if solutions else None)


def _deduced(search, shape: tuple[int, int]) -> dict:
    """An answer left undecided before the search still says what the deductions fixed: the
    engine that decides next looks there first (`sat.solve(deduced=...)`), and cross_check
    holds them to its fields. (Made only then: on a grid of millions of cells it takes a
    noticeable part of a solve.)"""
    state = np.array(search.value, dtype=np.int8).reshape(shape)
    return {"decided": state >= 0, "partial": state == 1}


def _graded(problem: Problem, grade: Grade | None) -> Grade | None:
    """The grade to report: none with a total, which the deductions here leave to the search, so
    that trimming, which reasons with it, may grade the same board lower (`recon explain`)."""
    return None if problem.mines is not None else grade
