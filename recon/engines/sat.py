"""SAT: the clues as cardinality constraints over one boolean per cell, decided by a CDCL solver (optional).

Needs python-sat (``pip install 'recon[sat]'``); without it, asking for this engine raises
`Unavailable` and everything else works as before.

Clause learning is what makes SAT fast where backtracking is slow: a conflict teaches the solver
a clause that prunes every later branch like it. Two uses:

- `solve`: an engine like the others, on Gluecard 4 (Glucose with native cardinality constraints):
  a clue "w cells hold k mines" is two constraints, at most k of the cells and at most w-k of
  their negations. The difference of every two neighbouring clues is added the same way
  (`clue_pairs`): implied by the clues, it spares the solver nine conflicts in ten on hard
  puzzles. Each solution found gets a blocking clause, and the next solve looks for another one;
  "unsatisfiable" proves there is none.
- `SecondSolution`: for puzzle generation. It answers, clue after clue in a given order,
  "without this clue, is there a solution other than the field?" The clues in force are plain
  constraints; the next batch of clues in the order are switched on by selector variables
  (a guarded clue is two native constraints whose slack helper variables fill when its selector
  is off), and a decided clue's selector becomes a unit fact. The solver keeps what it learned
  until the batch is used up and the next solver is built. On large grids, `LocalWitness` is
  asked first: small solvers, one per tile of the grid, find the second solutions that differ
  from the field only near the clue, without a whole-grid solution per "yes".

The solvers were chosen by measurement on generated search puzzles (docs/decisions.md):
Gluecard 4's native cardinality constraints beat Minicard, and Glucose on a clausal encoding spent
most of its time building clauses in Python; for generation, batches beat one solver holding
every clue under a selector.
"""

from __future__ import annotations

import importlib.util
import threading
import time
from collections import deque
from functools import partial

import numpy as np

from ..model import OPEN, Problem, cell_name, components, impossible_clue_reason, is_solution, status, window_index, windows_of
from ..result import ReconError, Result, TimeUp, Verdict
from . import unseen

NAME = "sat"
#: python-sat's solver for `solve` (native cardinality constraints).
SOLVER = "gluecard4"
#: ... and for `SecondSolution` (Gluecard 3 and Minicard were no faster).
ORACLE_BATCH_SOLVER = "gluecard4"
#: Gluecard 4 hears an interrupt only at its next restart, which on a large model can come seconds
#: after the deadline; Minicard hears it at once. Under a deadline, a model of more than
#: INTERRUPT_CELLS cells uses Minicard, and its solves skip the quick try below (a thousand
#: conflicts there are no longer quick). docs/performance.md, "Time limits".
INTERRUPT_CELLS = 22_500
INTERRUPTIBLE_SOLVER = "minicard"
#: A batch of SecondSolution holds max(BATCH_MIN, cells // BATCH_PARTS) clues: about ten solvers
#: are built per puzzle (batch sizes from 200 to 1000 measured alike; one solver with every clue
#: under a selector was slower: docs/decisions.md).
BATCH_MIN = 200
BATCH_PARTS = 10
#: A solve with a deadline first runs this many conflicts without a timer thread (see
#: _solve_limited; those conflicts may overrun the deadline, by milliseconds).
QUICK_CONFLICTS = 1000
#: Local witnesses for SecondSolution (`LocalWitness`): the grid is cut into tiles of TILE_CORE x
#: TILE_CORE clues, each with a small solver over its cells and TILE_MARGIN cells around them ...
TILE_CORE = 6
TILE_MARGIN = 5
#: ... asked first while at least LOCAL_MIN_KEEPS of the last LOCAL_WINDOW answers were "another
#: solution" (early on, nearly every clue goes and the local question would be wasted) ...
LOCAL_WINDOW = 50
LOCAL_MIN_KEEPS = 25
#: ... on grids of at least this many cells: below, the tiles cost more than they save
#: (bench/bench_puzzle.py --local-ab).
LOCAL_MIN_CELLS = 2500
#: A total number of mines over more open cells than this is not given to SAT by `auto` or the
#: count: with such a total the solver can run for minutes without seeing its interrupt, far past
#: any time limit (half-opened classic boards; docs/decisions.md, "Measurements behind the
#: constants"). MILP and the group count take them.
TOTAL_OPEN_CELLS = 100
#: `_field_by_parts` solves a part of more than SWEEP_CELLS open cells in bands of SWEEP_BAND
#: cells in row order (`_sweep_part`): one solver over a part that spans the grid spends its time
#: undoing far-off choices after each conflict (docs/decisions.md, "a large part in bands").
SWEEP_CELLS = 10_000
SWEEP_BAND = 5_000
#: ... or of SWEEP_BAND_SPANS times the widest constraint's span, if more: on a wide grid a band of
#: 5,000 is narrower than the margin solved again before it (docs/decisions.md, "a band no
#: narrower than its margin").
SWEEP_BAND_SPANS = 2
#: ... and takes the smaller parts, in order, into one solver each up to BATCH_CELLS cells: on a
#: sparse grid most parts are a few cells, and a solver each cost more than solving them.
BATCH_CELLS = 2_000
INSTALL_HINT = "the sat engine needs python-sat: pip install 'recon[sat]'"

#: Is python-sat installed? (Looked up, not imported: the import would slow every command.)
AVAILABLE = importlib.util.find_spec("pysat") is not None


class Unavailable(ReconError):
    """The sat engine was asked for, but python-sat is not installed."""


def takes_total(problem: Problem) -> bool:
    """Is the problem's total (if any) over few enough open cells for SAT (TOTAL_OPEN_CELLS)?"""
    if problem.mines is None:
        return True
    open_cells = problem.cells if problem.fixed is None else int((problem.fixed == OPEN).sum())
    return open_cells <= TOTAL_OPEN_CELLS


def _new_solver(name: str):
    if not AVAILABLE:
        raise Unavailable(INSTALL_HINT)
    from pysat.solvers import Solver

    return Solver(name=name)


def _limited_solver(cells: int, deadline: float | None):
    """(a solver for a model over `cells` cells, whether its solves may try QUICK_CONFLICTS
    first): Minicard without the quick try for a large model under a deadline (INTERRUPT_CELLS),
    else SOLVER."""
    large = deadline is not None and cells > INTERRUPT_CELLS
    return _new_solver(INTERRUPTIBLE_SOLVER if large else SOLVER), not large


def window_grid(shape: tuple[int, int], cells: np.ndarray | None = None, numbers: np.ndarray | None = None) -> np.ndarray:
    """Return, for every cell in row-major order (or for `cells`, flat indices: a few clues on a
    large grid), the literals (cell index + 1) of its window as a 3x3 block in place (position
    [i, j] is the cell i - 1 rows down, j - 1 columns right), 0 where the window leaves the grid.
    numbers: the literal of each cell, at index cell + 1 (0 at index 0), where it is not cell + 1."""
    index = window_index(shape) if cells is None else windows_of(shape, cells)
    literals = index + 1
    return (literals if numbers is None else numbers[literals]).reshape(-1, 3, 3)


def window_literals(shape: tuple[int, int], cells: np.ndarray | None = None,
                    numbers: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Return (cells, sizes): for every cell in row-major order (or for `cells`), the literals
    (cell index + 1, or `numbers`' as in window_grid) of its window, in row-major order, padded
    with 0, and how many there are."""
    out = window_grid(shape, cells, numbers).reshape(-1, 9)
    sizes = (out > 0).sum(axis=1)
    # pack the cells of each window to the left, keeping their row-major order
    order = np.argsort(out == 0, axis=1, kind="stable")
    return np.take_along_axis(out, order, axis=1), sizes


#: The clue pairs whose difference `clue_pairs` adds, as offsets (rows, cols) from the first clue:
#: the neighbours to the right and below. The diagonal pairs as well made generation slower, and
#: `solve` too: building their constraints cost more than the conflicts they spared
#: (docs/decisions.md).
PAIR_OFFSETS = ((0, 1), (1, 0))


def clue_pairs(shape: tuple[int, int], known: np.ndarray, counts: np.ndarray, offsets=PAIR_OFFSETS,
               numbers: np.ndarray | None = None):
    """The difference of every two nearby clues, as "exactly k of these literals are true".

    Clues a at x and b at y see their shared cells once each, so a - b = mines(only x sees) -
    mines(only y sees): mines(only x) + empties(only y) = a - b + |only y|. The constraint is implied
    by the two clues, so adding it changes no solution, but it gives the solver in one step what
    it would otherwise learn from conflicts again and again (docs/performance.md).

    Returns (pairs, contradiction): pairs is a list of (first clue, second clue, literals, k), and
    contradiction names the first two clues that no 0/1 cells can meet together, or is None.
    numbers: the cells' literals, as in window_grid. (`clue_pairs_flat` gives the same as arrays.)
    """
    blocks, clash = _pair_blocks(shape, known, counts, offsets, numbers)
    pairs = []
    for first, second, lits, present, k in blocks:
        # most windows lie inside the grid: their rows need no zeros dropped (a Python loop per
        # pair was a fifth of a small puzzle's solve)
        rows_here = lits.tolist()
        for i in np.flatnonzero(~present.all(axis=1)).tolist():
            rows_here[i] = [x for x in rows_here[i] if x]
        pairs.extend(zip(first.tolist(), second.tolist(), rows_here, k.tolist()))
    return pairs, clash


def clue_pairs_flat(shape: tuple[int, int], known: np.ndarray, counts: np.ndarray, offsets=PAIR_OFFSETS,
                    numbers: np.ndarray | None = None):
    """clue_pairs as arrays: (first clues, second clues, the pairs' literals end to end, their
    numbers, the ks, contradiction). On a large grid a list a pair took a second to build and
    kept Python's collector busy."""
    blocks, clash = _pair_blocks(shape, known, counts, offsets, numbers)
    columns = [[b[0] for b in blocks], [b[1] for b in blocks], [b[2][b[3]] for b in blocks],
               [b[3].sum(axis=1) for b in blocks], [b[4] for b in blocks]]
    return (*(np.concatenate(c).astype(np.int64) if c else np.zeros(0, dtype=np.int64) for c in columns), clash)


def _pair_blocks(shape, known, counts, offsets, numbers):
    """clue_pairs' pairs, a block for each offset: (first clues, second clues, literals a row
    each with 0 where a pair has fewer, where they are present, ks), and the contradiction."""
    rows, cols = shape
    known = np.asarray(known, dtype=bool).ravel()
    counts = np.asarray(counts, dtype=np.int64).ravel()
    blocks = []
    ks = np.flatnonzero(known)  # (the clues alone: on a large grid they may be few)
    grid = window_grid(shape, ks, numbers)  # row i: clue ks[i]
    r, c = np.divmod(ks, cols)
    pos = np.indices((3, 3)) - 1  # (2, 3, 3): row and column offsets of the window positions
    for dr, dc in offsets:
        rr, cc = r + dr, c + dc
        ok = (rr >= 0) & (rr < rows) & (cc >= 0) & (cc < cols)
        at = np.flatnonzero(ok)
        second = rr[at] * cols + cc[at]
        keep = known[second]
        at, second = at[keep], second[keep]
        first = ks[at]
        grid_a, grid_b = grid[at], grid[np.searchsorted(ks, second)]
        # window positions of the first clue that the second does not see, and the other way round
        only_a = (np.abs(pos[0] - dr) > 1) | (np.abs(pos[1] - dc) > 1)
        only_b = (np.abs(pos[0] + dr) > 1) | (np.abs(pos[1] + dc) > 1)
        lits = np.concatenate([grid_a[:, only_a], -grid_b[:, only_b]], axis=1)
        present = lits != 0
        sizes = present.sum(axis=1)
        k = counts[first] - counts[second] + (grid_b[:, only_b] != 0).sum(axis=1)
        bad = np.flatnonzero((k < 0) | (k > sizes))
        end = bad[0] if bad.size else len(first)
        use = np.flatnonzero(sizes[:end] > 0)  # a pair with no cell of its own (k is then 0) says nothing
        blocks.append((first[use], second[use], lits[use], present[use], k[use]))
        if bad.size:
            return blocks, (int(first[end]), int(second[end]))
    return blocks, None


def _clash_reason(problem: Problem, a: int, b: int) -> str:
    """Say why two nearby clues cannot both hold (see clue_pairs)."""
    cols = problem.shape[1]
    (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
    return (
        f"clues {cell_name(ra, ca)} = {int(problem.clues[ra, ca])} and {cell_name(rb, cb)} = "
        f"{int(problem.clues[rb, cb])} cannot both be met: they differ by more than the cells "
        "only one of them sees allow"
    )


def _add_exactly(solver, lits: list[int], k: int, negated: list[int] | None = None) -> None:
    """Add "exactly k of these literals are true" as two native cardinality constraints
    (negated: the literals negated, where the caller has them)."""
    if k < len(lits):
        solver.add_atmost(lits, k)
    if k > 0:
        solver.add_atmost([-x for x in lits] if negated is None else negated, len(lits) - k)


def _add_guarded(solver, lits: list[int], k: int, guard: list[int], fresh: int) -> int:
    """Add "exactly k of lits", binding when every guard literal is false, with helper variables
    numbered from `fresh`; return the next unused variable.

    Helper variables h, each true when the guard is off (clause guard + h), fill the slack of two
    native constraints: at most w of lits + (w - k) helpers, and at most w of their negations + k
    helpers."""
    w = len(lits)
    helpers = list(range(fresh, fresh + max(k, w - k)))
    for h in helpers:
        solver.add_clause([*guard, h])
    if k < w:
        solver.add_atmost(lits + helpers[: w - k], w)
    if k > 0:
        solver.add_atmost([-x for x in lits] + helpers[:k], w)
    return fresh + len(helpers)


def _solve_limited(solver, deadline: float | None, quick: bool = True) -> bool | None:
    """Solve; None when the deadline passes first."""
    return _solve_limited_assuming(solver, [], deadline, quick)


def _solve_limited_assuming(solver, assumptions: list[int], deadline: float | None, quick: bool = True) -> bool | None:
    """Solve under assumptions; None when the deadline passes first. quick: try QUICK_CONFLICTS
    conflicts before starting a timer (see _limited_solver)."""
    if deadline is None:
        return solver.solve(assumptions=assumptions)
    remaining = deadline - time.perf_counter()
    if remaining <= 0:
        return None
    if quick:
        # most solves take a few conflicts: try without a timer thread first (starting one costs
        # more than such a solve)
        solver.conf_budget(QUICK_CONFLICTS)
        answer = solver.solve_limited(assumptions=assumptions)
        solver.conf_budget(-1)
        if answer is not None:
            return answer
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            return None
    timer = threading.Timer(remaining, solver.interrupt)
    timer.start()
    try:
        answer = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
    finally:
        timer.cancel()
    solver.clear_interrupt()
    return answer


def _add_clues(solver, problem: Problem, pairs, stats: dict | None = None, deadline: float | None = None,
               numbers: np.ndarray | None = None) -> None:
    """The clues (and the differences of neighbouring clues, `pairs`) as cardinality constraints
    on cell literals 1..cells (row-major), or on `numbers`' literals (window_grid; a cell numbered
    0 is left out: no clue sees it, and there is no total). Raises TimeUp at the deadline (a
    large model takes seconds to build)."""
    ks = np.flatnonzero(problem.known.ravel())
    windows, widths = window_literals(problem.shape, ks, numbers)
    counts = problem.clues.ravel()[ks]
    constraints = int((counts < widths).sum() + (counts > 0).sum())
    for i, (lits, k, w) in enumerate(zip(windows.tolist(), counts.tolist(), widths.tolist())):
        if deadline is not None and i & 1023 == 0 and time.perf_counter() > deadline:
            raise TimeUp
        _add_exactly(solver, lits[:w], k)  # the window's literals are packed left, 0 after
    for i, (_, _, lits, k) in enumerate(pairs):
        if deadline is not None and i & 1023 == 0 and time.perf_counter() > deadline:
            raise TimeUp
        _add_exactly(solver, lits, k)
    if problem.fixed is not None:  # a fixed cell: a unit clause (none for a cell left out)
        fixed = problem.fixed.ravel()
        given = np.flatnonzero(fixed != OPEN)
        literals = given + 1 if numbers is None else numbers[given + 1]
        held = literals != 0
        for lit in np.where(fixed[given[held]] == 1, literals[held], -literals[held]).tolist():
            solver.add_clause([lit])
    if problem.mines is not None:  # the total: one native cardinality constraint over every cell
        if numbers is not None:
            raise ValueError("with a total every cell is a variable")
        _add_exactly(solver, list(range(1, problem.cells + 1)), problem.mines)
    last = problem.cells if numbers is None else int(numbers.max(initial=0))
    if last:
        solver.add_clause([last, -last])  # every cell is a variable, even with no clue on it
    if stats is not None:
        stats["constraints"] += constraints
        stats["pairs"] = len(pairs)


def backbone(problem: Problem, cells, deadline: float | None = None) -> tuple[dict[int, int], set[int], bool]:
    """Which of these cells (flat indices) hold the same value in every solution?

    Returns ({cell: value} proved the same in every solution, {cells} proved to differ between two
    solutions, complete). One solution first; then each cell not yet seen to vary is asked the
    other way round (an assumption): unsatisfiable proves it, and a solution found marks every
    cell in which it differs from the first as varying. At the deadline the answer so far, not
    complete. No solution: nothing proved, complete (there is nothing to vary)."""
    pairs, clash = clue_pairs(problem.shape, problem.known, problem.clues)
    if clash is not None or impossible_clue_reason(problem):
        return {}, set(), True
    solver, quick = _limited_solver(problem.cells, deadline)
    fixed: dict[int, int] = {}
    varying: set[int] = set()
    try:
        try:
            _add_clues(solver, problem, pairs, deadline=deadline)
        except TimeUp:
            return {}, set(), False
        answer = _solve_limited(solver, deadline, quick)
        if not answer:
            return {}, set(), answer is not None
        first = np.array(solver.get_model()[: problem.cells]) > 0
        for x in cells:
            x = int(x)
            if x in varying:
                continue
            lit = x + 1 if first[x] else -(x + 1)
            solver_answer = _solve_limited_assuming(solver, [-lit], deadline, quick)
            if solver_answer is None:
                return fixed, varying, False
            if solver_answer:
                other = np.array(solver.get_model()[: problem.cells]) > 0
                varying.update(int(y) for y in np.flatnonzero(other != first))
            else:
                fixed[x] = int(first[x])
                solver.add_clause([lit])
    finally:
        solver.delete()
    return fixed, varying, True


def solve(
    problem: Problem,
    *,
    limit: int = 2,
    time_limit: float | None = None,
    given: list[np.ndarray] | tuple[np.ndarray, ...] = (),
    deduced: np.ndarray | None = None,
    sweep_cells: int = SWEEP_CELLS,
) -> Result:
    """Find up to `limit` solutions by SAT with blocking clauses and say whether there are others.

    given: solutions already found and checked by another engine; they are blocked from the
    start and listed first, so the solver only has to prove there is no other one.
    deduced: each cell's value as another engine's deductions fixed it (0 or 1, -1 open). Where
    one field is all that is asked (the cells no clue sees make it several, as on a large random
    status) and there is no total, it is looked for under those values first, one solver for each
    part of the open cells that no clue joins, which finds it far sooner (docs/performance.md);
    where none meets them the whole model is asked without them. No verdict rests on them.
    sweep_cells: a part with more open cells than this is solved in bands (`_sweep_part`).

    Without a total, the cells no clue sees take no part in the model: those nothing fixes are
    listed with every value (`unseen`), the others hold their given value.
    """
    engine = _solve if deduced is None else partial(_solve, deduced=deduced, sweep_cells=sweep_cells)
    return unseen.solve(engine, problem, limit=limit, time_limit=time_limit, given=given)


def _solve(problem: Problem, *, limit: int, time_limit: float | None, given, deduced: np.ndarray | None = None,
           sweep_cells: int = SWEEP_CELLS) -> Result:
    """solve, on a problem whose cells no clue sees are fixed (or under a total)."""
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    n = problem.cells
    stats = {"solves": 0, "constraints": 0}
    reason = impossible_clue_reason(problem)
    if deduced is not None and limit == 1 and not given and problem.mines is None and problem.known.any() and not reason:
        # one field is all that is asked (cells no clue sees then make it several): looked for
        # under the deductions first, part by part. Where the solver must go on to prove that no
        # other field exists, its own search from the start was faster (docs/decisions.md).
        try:
            field = _field_by_parts(problem, deduced, deadline, stats, sweep_cells=sweep_cells)
        except TimeUp:
            return Result(Verdict.UNDECIDED, [], False, NAME, time.perf_counter() - start, stats,
                          f"time limit of {time_limit:g} s reached")
        stats["by_parts"] = field is not None  # (False: no field meets the deductions)
        if field is not None:
            stats["given"] = 0
            return Result(Verdict.of_search(1, False), [field], False, NAME, time.perf_counter() - start, stats, None)
    kept, numbers = unseen.model_cells(problem), None
    if kept is not None:  # a literal for each cell the model needs, at index cell + 1
        numbers = np.zeros(n + 1, dtype=np.int64)
        numbers[kept + 1] = np.arange(1, kept.size + 1)
    m = n if kept is None else kept.size
    pairs, clash = clue_pairs(problem.shape, problem.known, problem.clues, numbers=numbers)
    if clash is not None and not reason:
        reason = _clash_reason(problem, *clash)
    if reason:
        return Result(Verdict.NONE, [], True, NAME, time.perf_counter() - start, stats, reason)
    solutions: list[np.ndarray] = []
    exhausted = timed_out = False
    solver, quick = _limited_solver(m, deadline)
    try:
        try:
            _add_clues(solver, problem, pairs, stats, deadline, numbers)
        except TimeUp:
            return Result(Verdict.UNDECIDED, [], False, NAME, time.perf_counter() - start, stats,
                          f"time limit of {time_limit:g} s reached while building the SAT model")
        # the field before the model's cells are read in: the cells no clue sees as fixed
        base = np.zeros(n, dtype=bool) if kept is None else (problem.fixed.ravel() == 1)

        def block(field: np.ndarray) -> None:
            lits = np.arange(1, m + 1)
            here = field.ravel() if kept is None else field.ravel()[kept]
            solver.add_clause(np.where(here, -lits, lits).tolist())

        for field in given[:limit]:
            solutions.append(np.asarray(field, dtype=bool))
            block(solutions[-1])
        stats["given"] = len(solutions)
        while len(solutions) < limit:
            stats["solves"] += 1
            answer = _solve_limited(solver, deadline, quick)
            if answer is None:
                timed_out = True
                break
            if not answer:
                exhausted = True
                break
            model = np.array(solver.get_model()[:m]) if m else np.zeros(0, dtype=np.int64)
            field = base.copy()
            field[slice(None) if kept is None else kept] = model > 0
            solutions.append(field.reshape(problem.shape))
            if m == 0:
                exhausted = True  # nothing varies: this field is the only one
                break
            block(solutions[-1])
    finally:
        solver.delete()
    verdict = Verdict.of_search(len(solutions), exhausted)
    reason = None
    if verdict is Verdict.NONE:
        reason = "the SAT solver proved the clues unsatisfiable"
    elif verdict is Verdict.UNDECIDED and timed_out:
        reason = f"time limit of {time_limit:g} s reached"
    return Result(verdict, solutions, exhausted, NAME, time.perf_counter() - start, stats, reason)


def _pairs_by_part(problem: Problem, ks: np.ndarray, need: np.ndarray, part: np.ndarray, literal: np.ndarray):
    """The differences of nearby clues (`clue_pairs`) on the open cells, each clue counting the
    mines its open cells hold (need, for the clues ks), as arrays: each pair's part, its literals
    end to end, their number and its k. part: each cell's part (-1 where not open); literal:
    each open cell's literal in its model (its part's batch). A pair across two parts is left
    out (each clue holds whole in its own part there, so the pair adds nothing). None when two
    clues clash.
    (Arrays, not a list a pair: a million small lists kept Python's collector busy while the
    models were built.)"""
    numbers = np.zeros(problem.cells + 1, dtype=np.int64)
    open_cells = np.flatnonzero(part >= 0)
    numbers[open_cells + 1] = open_cells + 1  # (cell + 1 here; the others left out)
    counts = np.zeros(problem.cells, dtype=np.int64)
    counts[ks] = need
    _, _, flat, lengths, k, clash = clue_pairs_flat(problem.shape, problem.known, counts.reshape(problem.shape),
                                                     numbers=numbers)
    if clash is not None:
        return None
    if not lengths.size:  # (no pair: reduceat below needs one)
        return lengths, flat, lengths, k  # (all four empty)
    offsets = np.r_[0, np.cumsum(lengths)[:-1]]
    where = part[np.abs(flat) - 1]
    chosen = np.flatnonzero(np.minimum.reduceat(where, offsets) == np.maximum.reduceat(where, offsets))
    local = np.where(flat > 0, literal[np.abs(flat) - 1], -literal[np.abs(flat) - 1])
    return where[offsets[chosen]], local[_segments(offsets[chosen], lengths[chosen])], lengths[chosen], k[chosen]


def _segments(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The indices of these segments of an array (start, length), end to end."""
    return np.repeat(starts, lengths) + _within(lengths)


def _field_by_parts(problem: Problem, deduced: np.ndarray, deadline: float | None, stats: dict, *,
                    sweep_cells: int = SWEEP_CELLS, band: int = SWEEP_BAND, band_spans: int = SWEEP_BAND_SPANS,
                    batch_cells: int = BATCH_CELLS) -> np.ndarray | None:
    """One field of a problem without a total that keeps every deduced value (0 or 1, -1 open),
    or None when there is none (or the values clash with the fixed cells): the caller then asks
    the whole model, so no verdict rests on the deductions. The field is checked against every
    clue before it is returned. Raises TimeUp at the deadline.

    With the deduced cells in place, the open cells fall into parts that no clue joins, and each
    part is a model of its own: one solver per part, which finds its field far sooner than one
    solver over the grid (docs/decisions.md, "one field part by part"). Each part's model holds
    its clues and, as the whole model does, the differences of nearby clues. An open cell no
    clue sees is left empty. A part of more than sweep_cells cells is solved in bands of `band`
    cells, or `band_spans` spans of its widest constraint if more (`_sweep_part`); the others go
    in order into batches of up to batch_cells cells (or one part), a solver each, the parts'
    literals side by side."""
    value = np.asarray(deduced, dtype=np.int8).ravel().copy()
    if problem.fixed is not None:
        fixed = problem.fixed.ravel()
        given = fixed != OPEN
        if ((value[given] >= 0) & (value[given] != fixed[given])).any():
            return None
        value[given] = fixed[given]
    ks = np.flatnonzero(problem.known.ravel())
    windows = windows_of(problem.shape, ks)
    inside = windows >= 0
    here = np.where(inside, value[np.where(inside, windows, 0)], 0)
    is_open = inside & (here < 0)
    need = problem.clues.ravel()[ks].astype(np.int64) - (inside & (here > 0)).sum(axis=1)
    width = is_open.sum(axis=1)
    if ((need < 0) | (need > width)).any():
        return None
    rows = np.flatnonzero(width > 0)
    field = value > 0
    if rows.size:
        owner = np.repeat(np.arange(rows.size), width[rows])
        cells = windows[rows][is_open[rows]]  # row by row, each row's cells in window order
        _, row_part = np.unique(components(owner, cells, rows.size), return_inverse=True)
        row_part = row_part.ravel()
        # each open cell's part, and its literal there: 1, 2, ... in cell order within the part
        members, first = np.unique(cells, return_index=True)
        member_part = row_part[owner[first]]
        order = np.lexsort((members, member_part))
        sizes = np.bincount(member_part, minlength=int(row_part.max()) + 1)
        batch, largest = _batches(sizes, sweep_cells, batch_cells), int(sizes.max())
        batch_sizes = np.bincount(batch, weights=sizes).astype(np.int64)
        part = np.full(problem.cells, -1, dtype=np.int64)
        part[members] = member_part
        # each open cell's literal in its batch's model: 1, 2, ... by part, then cell
        literal = np.zeros(problem.cells, dtype=np.int64)
        literal[members[order]] = _within(batch_sizes) + 1
        pairs = _pairs_by_part(problem, ks, need, part, literal)
        if pairs is None:
            return None
        pair_part, pair_flat, pair_width, pair_k = pairs
        row_part, pair_part, sizes = batch[row_part], batch[pair_part], batch_sizes  # batches from here on
        pair_start = np.r_[0, np.cumsum(pair_width)[:-1]]
        row_flat, row_width, row_need = literal[cells], width[rows], need[rows]
        row_start = np.r_[0, np.cumsum(row_width)[:-1]]
        # each constraint's literals are sliced from these lists when it is added, not kept as
        # a list of its own
        row_lits, pair_lits = row_flat.tolist(), pair_flat.tolist()
        rows_of = np.split(np.argsort(row_part, kind="stable"), np.cumsum(np.bincount(row_part))[:-1])
        pairs_of = np.split(np.argsort(pair_part, kind="stable"), np.cumsum(np.bincount(pair_part, minlength=sizes.size))[:-1])
        cells_of = np.split(members[order], np.cumsum(sizes)[:-1])
        stats["parts"] = int(batch.size)
        stats["largest_part"] = largest
        stats["batches"] = int(sizes.size)
        stats["swept"] = 0
        for p in range(sizes.size):
            ri, pj = rows_of[p], pairs_of[p]
            if sizes[p] > sweep_cells:
                flat = np.concatenate([row_flat[_segments(row_start[ri], row_width[ri])],
                                       pair_flat[_segments(pair_start[pj], pair_width[pj])]])
                found = _sweep_part(flat, np.r_[row_width[ri], pair_width[pj]], np.r_[row_need[ri], pair_k[pj]],
                                    int(sizes[p]), band, deadline, stats, band_spans)
                if found is None:
                    return None
                field[cells_of[p]] = found
                stats["swept"] += 1
                continue
            solver, quick = _limited_solver(int(sizes[p]), deadline)
            try:
                for a, w, k in zip(row_start[ri].tolist(), row_width[ri].tolist(), row_need[ri].tolist()):
                    _add_exactly(solver, row_lits[a:a + w], k)
                for a, w, k in zip(pair_start[pj].tolist(), pair_width[pj].tolist(), pair_k[pj].tolist()):
                    _add_exactly(solver, pair_lits[a:a + w], k)
                answer = _solve_limited(solver, deadline, quick)
                if answer is None:
                    raise TimeUp
                if not answer:
                    return None
                field[cells_of[p]] = np.array(solver.get_model()[: sizes[p]]) > 0
            finally:
                solver.delete()
    field = field.reshape(problem.shape)
    # (never false yet: the parts hold every clue with an open cell, and the rest is fixed)
    return field if is_solution(field, problem) else None


def _batches(sizes: np.ndarray, alone: int, cells: int) -> np.ndarray:
    """Each part's batch (0, 1, ... in part order): a part of more than `alone` cells is a batch
    of its own; the others join the batch before them while it holds at most `cells` cells."""
    batch = np.empty(sizes.size, dtype=np.int64)
    b, held = -1, cells + 1
    for p, size in enumerate(sizes.tolist()):
        if size > alone or held + size > cells:
            b, held = b + 1, 0
        batch[p] = b
        held = cells + 1 if size > alone else held + size
    return batch


def _within(sizes: np.ndarray) -> np.ndarray:
    """For groups of these sizes laid end to end, each item's place in its group (0, 1, ...)."""
    return np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)


def _sweep_part(flat: np.ndarray, lengths: np.ndarray, counts: np.ndarray, size: int, band: int,
                deadline: float | None, stats: dict, band_spans: int = 0) -> np.ndarray | None:
    """Values (bool) for literals 1..size meeting every constraint ("exactly counts[i] of
    constraint i's literals", their literals end to end in flat, lengths[i] of them), or None
    when there are none. Raises TimeUp at the deadline.

    The literals go in row order, so a constraint spans a few rows' literals. They are solved
    band by band: each band's solver holds every constraint that reaches it, the literals before
    it taken as found and those after it free. The margin before the band, whose constraints
    reach into it, is solved again, its values from the band before tried first. A band that
    cannot be met frees more literals before it, a margin that doubles each time; with nothing
    taken as found, its constraints are some of the part's, and none met means none for the
    part. A band holds `band` literals, or band_spans times the widest constraint's span if
    more. stats counts the `bands` solved and the times a band was `widened`."""
    starts = np.r_[0, np.cumsum(lengths)[:-1]]
    var = np.abs(flat)
    low, high = np.minimum.reduceat(var, starts), np.maximum.reduceat(var, starts)
    reach = int((high - low).max())
    band = max(band, band_spans * reach + 1)
    # the constraints by their first literal, so that a band finds those that reach it without a
    # pass over them all (a constraint reaching [lo, b) starts in [lo - reach, b))
    by_low = np.argsort(low, kind="stable")
    low_sorted = low[by_low]
    value = np.zeros(size + 1, dtype=np.int64)  # at index literal; 1 a mine
    a = 1
    while a <= size:
        b = min(a + band, size + 1)
        margin = 2 * reach + 1  # the literals before the band whose constraints reach into it, and more
        while True:
            lo = max(1, a - margin)
            near = by_low[np.searchsorted(low_sorted, lo - reach):np.searchsorted(low_sorted, b)]
            chosen = np.sort(near[high[near] >= lo])  # (in their order, as the field found depends on it)
            owner = np.repeat(np.arange(chosen.size), lengths[chosen])
            lits = flat[starts[chosen][owner] + _within(lengths[chosen])]
            v = np.abs(lits)
            before = v < lo
            mines = np.where(lits > 0, value[v], 1 - value[v])
            need = counts[chosen] - np.bincount(owner, weights=mines * before, minlength=chosen.size).astype(np.int64)
            free = np.bincount(owner, weights=~before, minlength=chosen.size).astype(np.int64)
            answer = False
            if not ((need < 0) | (need > free)).any():
                local = np.where(lits > 0, v - lo + 1, -(v - lo + 1))[~before]
                local, negated = local.tolist(), (-local).tolist()
                ends = np.cumsum(free).tolist()
                solver, quick = _limited_solver(b - lo, deadline)
                try:
                    if a > lo:
                        # the solver tries the values found for the margin first: most of them
                        # extend into the band, and the search starts near a field
                        margin_lits = np.arange(1, a - lo + 1)
                        solver.set_phases(np.where(value[lo:a] > 0, margin_lits, -margin_lits).tolist())
                    begin = 0
                    for end, k in zip(ends, need.tolist()):
                        if end > begin:
                            _add_exactly(solver, local[begin:end], k, negated[begin:end])
                        begin = end
                    answer = _solve_limited(solver, deadline, quick)
                    if answer is None:
                        raise TimeUp
                    if answer:
                        model = np.array(solver.get_model()[: b - lo], dtype=np.int64)
                        value[lo:b] = 0  # (a literal in no constraint is not in the model)
                        value[lo - 1 + np.abs(model[model > 0])] = 1
                finally:
                    solver.delete()
            if answer:
                break
            if lo == 1:
                return None
            stats["widened"] = stats.get("widened", 0) + 1
            margin *= 2
        stats["bands"] = stats.get("bands", 0) + 1
        a = b
    return value[1:] > 0


def iter_equation_solutions(cells: list[int], equations, deadline: float | None = None):
    """Yield every 0/1 solution ({cell: value}) of equations (cells, mines) over these cells, as
    backtrack.iter_equation_solutions does, by SAT with a blocking clause per solution on these
    cells only; raise TimeUp at the deadline. Fast where the search is hard but the
    solutions are few (an ambiguous search-grade puzzle's open group), slow where they are many
    (a solve per solution)."""

    if any(not 0 <= need <= len(eq_cells) for eq_cells, need in equations):
        return  # an equation no 0/1 values meet: no solution
    index = {x: i + 1 for i, x in enumerate(cells)}
    solver, quick = _limited_solver(len(cells), deadline)
    try:
        for eq_cells, need in equations:
            _add_exactly(solver, [index[x] for x in eq_cells], int(need))
        if cells:
            solver.add_clause([len(cells), -len(cells)])  # every cell is a variable
        while True:
            answer = _solve_limited(solver, deadline, quick)
            if answer is None:
                raise TimeUp
            if not answer:
                return
            model = solver.get_model()[: len(cells)] if cells else []
            yield {x: int(model[i] > 0) for i, x in enumerate(cells)}
            if not cells:
                return
            solver.add_clause([-lit for lit in model])
    finally:
        solver.delete()


class LocalWitness:
    """Second solutions that differ from the field only near a clue, found by small solvers.

    SecondSolution's question for clue c, "is there a solution other than the field without c?",
    needs a solver over the whole grid, and a "yes" costs it a full assignment, in proportion to
    the grid. But most second solutions differ from the field
    only near c. So the grid is cut into tiles of `core` x `core` clues; a tile's solver has a
    variable for each cell within `margin` cells of its core, and every other cell is fixed to
    the field. Its constraints are the clues that see one of its cells (a clue's count minus the
    field's mines outside the tile): the undecided clues of the core under selectors, the other
    clues present when it was built as plain constraints. A solution of that solver that differs
    from the field in c's window, with the field outside the tile, meets every clue in force but
    c: it is a second solution, a proved "yes". `witness` returns it, checked against the clues.
    No such solution proves nothing: SecondSolution then asks its whole-grid solver.

    A clue of the margin removed after the tile was built stays in the tile's solver: the tile is
    then stricter than the puzzle (its witnesses are still witnesses), and it is rebuilt when the
    whole-grid solver finds a second solution it missed (`missed`).
    """

    def __init__(self, field: np.ndarray, clues: np.ndarray, state: np.ndarray, core: int | None = None, margin: int | None = None):
        self.field = np.asarray(field, dtype=bool)
        self.shape = self.field.shape
        self.clues = clues  # flat, shared with SecondSolution
        self.state = state  # flat, shared: -1 undecided, 0 removed, 1 kept
        self.core = TILE_CORE if core is None else core
        self.margin = TILE_MARGIN if margin is None else margin
        if self.core < 1 or self.margin < 1:  # a clue's window must lie in its tile
            raise ValueError(f"tiles need a core and a margin of at least 1, got {self.core} and {self.margin}")
        self._grid = window_grid(self.shape).reshape(-1, 9)
        self._mine = np.concatenate([[0], self.field.ravel().astype(np.int64)])  # by literal
        self._tiles: dict[tuple[int, int], dict] = {}
        self.builds = 0

    def _key(self, c: int) -> tuple[int, int]:
        r, q = divmod(c, self.shape[1])
        return r // self.core, q // self.core

    def _bounds(self, key: tuple[int, int]) -> tuple[int, int, int, int]:
        rows, cols = self.shape
        core, margin = self.core, self.margin
        return (max(0, key[0] * core - margin), min(rows, (key[0] + 1) * core + margin),
                max(0, key[1] * core - margin), min(cols, (key[1] + 1) * core + margin))

    def _local(self, literals: np.ndarray, bounds: tuple[int, int, int, int]) -> np.ndarray:
        """The tile's variables for grid literals (cell + 1; 0 for none): 0 outside the tile."""
        r0, r1, c0, c1 = bounds
        r, q = np.divmod(literals - 1, self.shape[1])
        inside = (literals > 0) & (r >= r0) & (r < r1) & (q >= c0) & (q < c1)
        return np.where(inside, (r - r0) * (c1 - c0) + (q - c0) + 1, 0)

    def _build(self, key: tuple[int, int]) -> dict:
        rows, cols = self.shape
        r0, r1, c0, c1 = self._bounds(key)
        h, w = r1 - r0, c1 - c0
        kr, kc = np.mgrid[max(0, r0 - 1) : min(rows, r1 + 1), max(0, c0 - 1) : min(cols, c1 + 1)]
        ks = (kr * cols + kc).ravel()
        here = self.state[ks] != 0
        ks = ks[here]
        guarded = ((kr.ravel()[here] // self.core == key[0]) & (kc.ravel()[here] // self.core == key[1])
                   & (self.state[ks] < 0))
        window = self._grid[ks]
        inside = self._local(window, (r0, r1, c0, c1))
        need = self.clues[ks] - np.where(inside == 0, self._mine[window], 0).sum(axis=1)
        solver = _new_solver(ORACLE_BATCH_SOLVER)
        fresh = h * w + 1
        selector = {}
        for k, row, d, g in zip(ks.tolist(), inside.tolist(), need.tolist(), guarded.tolist()):
            lits = [x for x in row if x]
            if g:
                selector[k] = fresh
                fresh = _add_guarded(solver, lits, d, [-fresh], fresh + 1)
            else:
                _add_exactly(solver, lits, d)
        solver.add_clause([h * w, -(h * w)])  # every cell of the tile is a variable
        self.builds += 1
        tile = {"solver": solver, "selector": selector, "next": fresh, "bounds": (r0, r1, c0, c1), "stale": False}
        self._tiles[key] = tile
        return tile

    def witness(self, c: int) -> np.ndarray | None:
        """A second solution of the clues in force without c that differs from the field near c
        (checked against the clues), or None if this tile has none."""
        key = self._key(c)
        tile = self._tiles.get(key)
        if tile is None:
            tile = self._build(key)
        solver, r0, r1, c0, c1 = tile["solver"], *tile["bounds"]
        switch = tile["next"]
        tile["next"] += 1
        rows, cols = self.shape
        r, q = divmod(c, cols)
        differs = []  # a cell of c's window (all in the tile) differs from the field
        for y in range(max(r - 1, 0), min(r + 2, rows)):
            for x in range(max(q - 1, 0), min(q + 2, cols)):
                v = (y - r0) * (c1 - c0) + (x - c0) + 1
                differs.append(-v if self._mine[y * cols + x + 1] else v)
        solver.add_clause([-switch, *differs])
        assumptions = [switch, -tile["selector"][c], *(v for k, v in tile["selector"].items() if k != c)]
        found = solver.solve(assumptions=assumptions)
        model = solver.get_model() if found else None
        solver.add_clause([-switch])
        if not found:
            return None
        other = self.field.copy()
        other[r0:r1, c0:c1] = (np.array(model[: (r1 - r0) * (c1 - c0)]) > 0).reshape(r1 - r0, c1 - c0)
        self._check(other, c, (r0, r1, c0, c1))
        return other

    def _check(self, other: np.ndarray, c: int, bounds: tuple[int, int, int, int]) -> None:
        """Raise unless `other` differs from the field in c's window and meets every clue in force
        but c (only clues that see the tile can differ: the rest see the field)."""
        rows, cols = self.shape
        r0, r1, c0, c1 = bounds
        pr0, pr1, pc0, pc1 = max(0, r0 - 2), min(rows, r1 + 2), max(0, c0 - 2), min(cols, c1 + 2)
        qr0, qr1, qc0, qc1 = max(0, r0 - 1), min(rows, r1 + 1), max(0, c0 - 1), min(cols, c1 + 1)
        counts = status(other[pr0:pr1, pc0:pc1])[qr0 - pr0 : qr1 - pr0, qc0 - pc0 : qc1 - pc0]
        ks = (np.arange(qr0, qr1)[:, None] * cols + np.arange(qc0, qc1)[None, :])
        binding = (self.state[ks] != 0) & (ks != c)
        window = self._grid[c][self._grid[c] > 0] - 1
        if (counts[binding] != self.clues[ks][binding]).any() or not (other.ravel()[window] != self.field.ravel()[window]).any():
            raise RuntimeError(f"internal error: the local witness for clue {c} is not a second solution")

    def decide(self, c: int, keep: bool) -> None:
        """Clue c stays (keep) or goes: a unit fact in its tile; a removal makes the tiles whose
        margin sees it stricter than the puzzle (stale)."""
        key = self._key(c)
        tile = self._tiles.get(key)
        if tile is not None and c in tile["selector"]:
            v = tile["selector"].pop(c)
            tile["solver"].add_clause([v if keep else -v])
        if keep:
            return
        r, q = divmod(c, self.shape[1])
        reach = self.margin + 1
        for i in range((r - reach) // self.core, (r + reach) // self.core + 1):
            for j in range((q - reach) // self.core, (q + reach) // self.core + 1):
                other = self._tiles.get((i, j))
                if other is not None and (i, j) != key:
                    r0, r1, c0, c1 = other["bounds"]
                    if r0 - 1 <= r <= r1 and c0 - 1 <= q <= c1:
                        other["stale"] = True

    def missed(self, c: int) -> None:
        """The whole grid had a second solution without c that c's tile did not find: if the tile
        is stale, drop it, to be rebuilt from the clues then in force when next asked."""
        key = self._key(c)
        tile = self._tiles.get(key)
        if tile is not None and tile["stale"]:
            tile["solver"].delete()
            del self._tiles[key]

    def close(self) -> None:
        for tile in self._tiles.values():
            tile["solver"].delete()
        self._tiles.clear()


class SecondSolution:
    """Incremental SAT for generation: the clues of a field go one by one in a given order, and
    each time the solver is asked whether the field is still the only solution.

    The question for clue c: with the clues kept so far and those not asked about yet, but
    without c, is there a solution other than the field? The solver also requires a cell of c's
    window to differ from the field. That is enough: while the field is the only solution with c,
    any other solution without c breaks c, so it differs from the field in c's window, and the
    clause keeps the search there.

    The clues in force are plain constraints (Gluecard 4's native cardinality constraints),
    except a batch of the next `batch` clues in the order, each switched on by a selector that
    the solver assumes while the clue is undecided; a decided clue's selector becomes a unit fact.
    When the questions leave the batch, a new solver is built from the clues then in force: a
    plain constraint cannot be taken back. Why batches: with every clue under a selector in one
    solver, each question re-derived the whole grid from the assumed selectors before any search;
    plain constraints are propagated once, at level 0, and stay.

    The difference of every two side-by-side clues (`clue_pairs`) is
    added too: plain when both clues are, else guarded by the selectors involved. Implied by the
    clues, it spares the solver most of its conflicts.

    local (default: grids of LOCAL_MIN_CELLS cells or more): ask `LocalWitness` first while at
    least LOCAL_MIN_KEEPS of the last LOCAL_WINDOW answers were "yes". Its "yes" is a checked
    second solution; its "no" proves nothing, and the whole-grid solver decides. The answers are
    the same either way (tested); only the time differs (bench/bench_puzzle.py --local-ab).
    """

    def __init__(self, field: np.ndarray, order, batch: int | None = None, local: bool | None = None):
        self.field = np.asarray(field, dtype=bool)
        self.shape = self.field.shape
        n = self.field.size
        self._n = n
        self.order = [int(c) for c in order]
        self._rank = {c: i for i, c in enumerate(self.order)}
        self.clues = status(self.field).ravel()
        self.state = np.full(n, -1, dtype=np.int8)  # per clue: -1 undecided, 0 removed, 1 kept
        self.batch = batch if batch is not None else max(BATCH_MIN, n // BATCH_PARTS)
        self._cells, self._sizes = window_literals(self.shape)
        self._pairs, _ = clue_pairs(self.shape, np.ones(self.shape, dtype=bool), self.clues)
        self._solver = None
        self._selector = np.zeros(n, dtype=np.int64)  # per clue in the batch: its selector, else 0
        self._members = np.zeros(0, dtype=np.int64)
        self.builds = 0
        if local is None:
            local = n >= LOCAL_MIN_CELLS
        self.local = LocalWitness(self.field, self.clues, self.state) if local else None
        self._recent: deque[bool] = deque(maxlen=LOCAL_WINDOW)
        self.local_found = 0  # questions answered by a local witness

    def _build(self, c: int) -> None:
        """A new solver, its batch the next undecided clues in the order from c on."""
        if self._solver is not None:
            self._solver.delete()
        n, cells, sizes = self._n, self._cells, self._sizes
        start = self._rank[c]
        members = [x for x in self.order[start:] if self.state[x] < 0][: self.batch]
        self._members = np.array(members, dtype=np.int64)
        self._selector[:] = 0
        self._selector[self._members] = n + 1 + np.arange(len(members))
        self._next = n + len(members) + 1  # fresh variables: helpers, "differs near c" switches
        solver = self._solver = _new_solver(ORACLE_BATCH_SOLVER)
        present = self.state != 0
        plain = present & (self._selector == 0)
        for k in np.flatnonzero(plain).tolist():
            _add_exactly(solver, cells[k, : sizes[k]].tolist(), int(self.clues[k]))
        for m in self._members.tolist():
            self._add_guarded(cells[m, : sizes[m]].tolist(), int(self.clues[m]), [-int(self._selector[m])])
        for a, b, lits, k in self._pairs:
            if not (present[a] and present[b]):
                continue
            guard = [-int(self._selector[x]) for x in (a, b) if self._selector[x]]
            if guard:
                self._add_guarded(lits, k, guard)
            else:
                _add_exactly(solver, lits, k)
        solver.add_clause([n, -n])  # every cell is a variable of the solver, even with no clue on it
        self.builds += 1

    def _add_guarded(self, lits: list[int], k: int, guard: list[int]) -> None:
        """Exactly k of lits, binding when every guard literal is false (see `_add_guarded`)."""
        self._next = _add_guarded(self._solver, lits, k, guard, self._next)

    def another_without(self, c: int) -> bool:
        """With the clues kept so far and the undecided ones, minus c: is there another solution?

        Assumes the field is the only solution with c (true for the whole status of a field
        whose answer is unique, and kept true by removing only clues for which this says no).
        """
        if self.state[c] >= 0:
            raise ValueError(f"clue {c} is decided already")
        asked_local = self.local is not None and sum(self._recent) >= LOCAL_MIN_KEEPS
        if asked_local and self.local.witness(c) is not None:
            self.local_found += 1
            self._recent.append(True)
            return True
        answer = self._ask(c)
        if answer and asked_local:
            self.local.missed(c)
        self._recent.append(answer)
        return answer

    def _ask(self, c: int) -> bool:
        """The question of another_without, asked of the whole-grid solver."""
        if self._solver is None or not self._selector[c]:
            self._build(c)
        switch = self._next
        self._next += 1
        window = self._cells[c, : self._sizes[c]]
        differs = np.where(self.field.ravel()[window - 1], -window, window)
        self._solver.add_clause([-switch, *differs.tolist()])
        others = self._members[(self.state[self._members] < 0) & (self._members != c)]
        assumptions = [switch, -int(self._selector[c]), *self._selector[others].tolist()]
        answer = self._solver.solve(assumptions=assumptions)
        self._solver.add_clause([-switch])
        return bool(answer)

    def decide(self, c: int, keep: bool) -> None:
        """Record that clue c stays (keep) or goes for good."""
        self.state[c] = 1 if keep else 0
        if self._solver is not None and self._selector[c]:
            self._solver.add_clause([int(self._selector[c]) if keep else -int(self._selector[c])])
        if self.local is not None:
            self.local.decide(c, keep)

    def close(self) -> None:
        if self._solver is not None:
            self._solver.delete()
            self._solver = None
        if self.local is not None:
            self.local.close()

    def __enter__(self) -> "SecondSolution":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
