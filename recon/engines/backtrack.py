"""Backtracking: a complete depth-first search with propagation that yields every solution.

Each clue keeps two numbers while the search runs: ``need``, the mines its window still lacks,
and ``free``, its window cells not yet decided. Both bounds of a clue prune: a branch dies when
``need < 0`` (the clue is exceeded) or ``need > free`` (it can no longer be reached). A clue
with ``need == 0`` forces its free cells empty and one with ``need == free`` forces them all
mines; forced cells are propagated before the next guess.

Which cell to guess:

- full status: anti-diagonal order (r + c, then r). That order makes cell (r, c) the last open
  cell of the window of clue (r-1, c-1), so propagation forces every cell except those on the
  first row and column, and a wrong guess is refuted within a few diagonals. (Plain row-major
  order forces the same cells but decides the whole first row before any of it is checked.)
- partial status: a cell of the open clue with the fewest ways left to place its mines,
  C(free, need), so that the search stays where the clues are tight. Once every clue has its
  mines, the cells still open are seen by none (the total, if any, aside): their fields are
  listed as one block (`leaves`), not guessed cell by cell.

When a branch dies the search does not simply undo the last guess: it works out which guesses the
dead end depends on (following the clue that forced each cell back to guesses) and jumps back to
the latest of them (conflict-directed backjumping). Guesses in between, made in unrelated parts of
the grid, cannot repair the dead end, and plain backtracking would try every combination of them.
After a solution is found the search backtracks one guess at a time, so none is skipped.

The search state (``value``, ``need``, ``free`` and the reasons) is private and undone through a
trail; the static data (which cells a clue sees) is built once.
"""

from __future__ import annotations

import time
from math import comb
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations, product

import numpy as np

from ..model import OPEN, Problem, cell_name, windows_of
from ..result import Result, TimeUp, Verdict

NAME = "backtrack"
_UNDECIDED = -1  # private marker in the search state; never summed
_CHECK_CLOCK_EVERY = 64  # a node on a large grid can take a millisecond of propagation
_WAYS = [[comb(f, k) if 0 <= k <= f else 0 for k in range(10)] for f in range(10)]


class _Search:
    """The static data of a problem and the mutable state of one search over it."""

    def __init__(self, problem: Problem):
        rows, cols = problem.shape
        self.shape = problem.shape
        self.n = rows * cols
        # the windows as one array, then lists: window_cells per clue made this set-up several times
        # slower on large grids (docs/decisions.md)
        ks = np.flatnonzero(np.asarray(problem.known).ravel())
        kr, kc = np.divmod(ks, cols)
        self.clue_rc = list(zip(kr.tolist(), kc.tolist()))
        windows = windows_of(problem.shape, ks)
        self.clue_cells: list[Sequence[int]] = windows.tolist()
        for k in np.flatnonzero((windows < 0).any(axis=1)).tolist():  # (only windows at the border lose cells)
            self.clue_cells[k] = [x for x in self.clue_cells[k] if x >= 0]
        # A total is one more clue, over every cell, after the real ones: the same bounds prune
        # and force with it. It is never the clue a guess is taken from (choose).
        self.clues = len(self.clue_cells)
        self.total = problem.mines
        # the cells no clue sees share one list (on a classic board after one click, nearly every
        # cell: a list each was most of a large board's memory)
        lone: list[int] = [] if problem.mines is None else [self.clues]
        self.cell_clues: list[list[int]] = [lone] * self.n
        for k, cells in enumerate(self.clue_cells):
            for cell in cells:
                here = self.cell_clues[cell]
                if here is lone:
                    self.cell_clues[cell] = [k]
                else:
                    here.append(k)
        self.fixed = problem.fixed
        self.need = np.asarray(problem.clues).ravel()[ks].astype(np.int64).tolist()
        self.free = [len(cells) for cells in self.clue_cells]
        if problem.mines is not None:
            self.clue_cells.append(range(self.n))
            for cells in self.cell_clues:
                if cells is not lone:
                    cells.append(self.clues)
            self.need.append(int(problem.mines))
            self.free.append(self.n)
        # (trail length, the real clues in order that may still have open cells from there on):
        # choose scans the last, not every clue; undo drops what no longer holds
        self.open_clues: list[tuple[int, list[int]]] = [(0, list(range(self.clues)))]
        self.value = [_UNDECIDED] * self.n
        self.level = [0] * self.n  # the guess depth at which a cell was set
        self.why = [-1] * self.n  # the clue that forced a cell, or -1 for a guess
        self.place = [0] * self.n  # the cell's index in the trail
        self.depth = 0
        self.trail: list[int] = []
        self.full = problem.is_full
        self.order: list[int] = []
        if self.full:
            r_all, c_all = np.divmod(np.arange(self.n), cols)
            self.order = np.lexsort((r_all, r_all + c_all)).tolist()  # by anti-diagonal, then row
        self.nodes = 0
        self.backtracks = 0
        self.backjumps = 0
        self.forced = 0
        self.conflict: int | None = None

    def describe_conflict(self, k: int) -> str:
        """Say in words why clue k cannot be met in the current state."""
        need, free = self.need[k], self.free[k]
        total = need + sum(self.value[i] == 1 for i in self.clue_cells[k])
        if k == self.clues:
            if need < 0:
                return f"the total of {total} mines is exceeded: the cells already hold {total - need}"
            return f"the total of {total} mines cannot be reached: {need} more are needed but only {free} cell(s) are open"
        r, c = self.clue_rc[k]
        where = f"clue {cell_name(r, c)} = {total}"
        if need < 0:
            return f"{where} is exceeded: its window already holds {total - need} mines"
        return f"{where} cannot be reached: it needs {need} more mine(s) but only {free} cell(s) of its window are open"

    def assign(self, cell: int, v: int, why: int, queue: list[int]) -> int:
        """Set a cell, update its clues, queue the clues that now force cells; return a conflicting clue or -1."""
        self.value[cell] = v
        self.level[cell] = self.depth
        self.why[cell] = why
        self.place[cell] = len(self.trail)
        self.trail.append(cell)
        need, free = self.need, self.free
        bad = -1
        for k in self.cell_clues[cell]:
            f = free[k] - 1
            free[k] = f
            nd = need[k] - v
            need[k] = nd
            if nd < 0 or nd > f:
                bad = k
            elif f and (nd == 0 or nd == f):
                queue.append(k)
        return bad

    def propagate(self, queue: list[int]) -> bool:
        """Force cells until nothing changes; return False (and set self.conflict) on a conflict."""
        value, need, free, clue_cells = self.value, self.need, self.free, self.clue_cells
        while queue:
            k = queue.pop()
            f = free[k]
            if not f:
                continue
            nd = need[k]
            if nd == 0:
                v = 0
            elif nd == f:
                v = 1
            else:
                continue
            for cell in clue_cells[k]:
                if value[cell] == _UNDECIDED:
                    self.forced += 1
                    bad = self.assign(cell, v, k, queue)
                    if bad >= 0:
                        self.conflict = bad
                        queue.clear()
                        return False
        return True

    def guess(self, cell: int, v: int, queue: list[int]) -> bool:
        """Guess a value at the current depth and propagate; return False on a conflict."""
        bad = self.assign(cell, v, -1, queue)
        if bad >= 0:
            self.conflict = bad
            queue.clear()
            return False
        return self.propagate(queue)

    def culprits(self, k: int) -> set[int]:
        """Return the guess depths that the conflict at clue k follows from."""
        value, level, why, place, clue_cells = self.value, self.level, self.why, self.place, self.clue_cells
        # Too many mines: the mines are to blame; too few open cells: the empty cells are.
        blamed = 1 if self.need[k] < 0 else 0
        todo = [c for c in clue_cells[k] if value[c] == blamed]
        seen = set()
        depths: set[int] = set()
        while todo:
            c = todo.pop()
            if c in seen:
                continue
            seen.add(c)
            d = level[c]
            if d == 0:
                continue
            reason = why[c]
            if reason < 0:
                depths.add(d)
                continue
            # c was forced empty because its clue had all its mines (blame them), or forced a
            # mine because its clue had no room left (blame the empty cells set before c).
            blamed_value = 1 - value[c]
            before = place[c]
            todo.extend(x for x in clue_cells[reason] if value[x] == blamed_value and place[x] < before)
        return depths

    def undo(self, mark: int) -> None:
        """Undo every assignment made after the trail had length mark."""
        value, need, free, trail, cell_clues = self.value, self.need, self.free, self.trail, self.cell_clues
        while self.open_clues[-1][0] > mark:
            self.open_clues.pop()
        while len(trail) > mark:
            cell = trail.pop()
            v = value[cell]
            value[cell] = _UNDECIDED
            for k in cell_clues[cell]:
                free[k] += 1
                need[k] += v

    def start(self) -> bool:
        """Set the fixed cells, check every clue against its bounds and propagate; return False
        when the clues contradict."""
        queue: list[int] = []
        if self.fixed is not None:
            for x in np.flatnonzero(self.fixed.ravel() != OPEN).tolist():
                if self.value[x] != _UNDECIDED:
                    continue  # set by an earlier start (hybrid starts, deduces, then searches)
                bad = self.assign(x, int(self.fixed.flat[x]), -1, queue)
                if bad >= 0:
                    self.conflict = bad
                    return False
            queue.clear()  # every clue is looked at below
        for k in range(len(self.need)):
            nd, f = self.need[k], self.free[k]
            if nd < 0 or nd > f:
                self.conflict = k
                return False
            if nd == 0 or nd == f:
                queue.append(k)
        return self.propagate(queue)

    def choose(self, pos: int) -> tuple[int, int, int]:
        """Return (cell to guess, value to try first, new position in the static order); cell -1
        when no clue is left to take a guess from (full status: when every cell is set)."""
        value = self.value
        if not self.full:
            need, free = self.need, self.free
            best, best_ways = -1, 1 << 30
            candidates = self.open_clues[-1][1]
            closed = 0
            for k in candidates:
                f = free[k]
                if f:
                    ways = _WAYS[f][need[k]]
                    if ways < best_ways:
                        best, best_ways = k, ways
                        if ways == 2:
                            break
                else:
                    closed += 1
            if 2 * closed > len(candidates):  # (kept in order: the clue chosen is the same)
                self.open_clues.append((len(self.trail), [k for k in candidates if free[k]]))
            if best >= 0:
                first = 1 if 2 * need[best] > free[best] else 0
                for cell in self.clue_cells[best]:
                    if value[cell] == _UNDECIDED:
                        return cell, first, pos
            return -1, 0, pos
        order, n = self.order, self.n
        while pos < n and value[order[pos]] != _UNDECIDED:
            pos += 1
        return (order[pos], 0, pos) if pos < n else (-1, 0, n)

    def leaves(self, deadline: float | None) -> Iterator[Sequence[int]]:
        """Every solution from a state where every real clue has its mines. The cells still
        undecided are seen by no real clue: each takes either value, or, with a total, its mines
        missing go to them in every way. Yielded in the order a search guessing them one by one
        in row-major order would give (empty first; with a total, the scarcer value first), without
        a node for each: after one click on a large classic board that was a node per mine."""
        value = self.value
        if len(self.trail) == self.n:  # every cell set (each is on the trail once)
            yield list(value)
            return
        base = np.array(value, dtype=np.int8)
        free = np.flatnonzero(base == _UNDECIDED)
        self.nodes += 1
        if self.total is None:
            scarce = 1
            picks = (ones for bits in product((0, 1), repeat=len(free)) for ones in [np.flatnonzero(bits)])
        else:
            need = self.need[self.clues]  # 0 < need < len(free): else propagation set them all
            scarce = 1 if 2 * need <= len(free) else 0
            picks = combinations(range(len(free)), need if scarce else len(free) - need)
        base[free] = 1 - scarce
        for i, pick in enumerate(picks):
            if deadline is not None and i % _CHECK_CLOCK_EVERY == _CHECK_CLOCK_EVERY - 1 and time.perf_counter() > deadline:
                raise TimeUp
            values = base.copy()
            values[free[np.asarray(pick, dtype=np.int64)]] = scarce
            yield values

    def iter_solutions(self, deadline: float | None) -> Iterator[Sequence[int]]:
        """Yield every solution as 0/1 values in row-major order (a list, or an array from a block
        of cells no clue sees)."""
        if not self.start():
            return
        # One entry per guess depth:
        # [trail mark, cell, value being tried, depths blamed by the first value,
        #  position in the order, whether this is the second value]
        stack: list[list] = []
        queue: list[int] = []
        pos = 0
        while True:
            cell, first, pos = self.choose(pos)
            if cell < 0:
                yield from self.leaves(deadline)
                blamed = set(range(1, self.depth + 1))  # backtrack chronologically after a solution
                ok = False
            else:
                self.nodes += 1
                if deadline is not None and self.nodes % _CHECK_CLOCK_EVERY == 0 and time.perf_counter() > deadline:
                    raise TimeUp
                stack.append([len(self.trail), cell, first, None, pos, False])
                self.depth += 1
                ok = self.guess(cell, first, queue)
                if not ok:
                    blamed = self.culprits(self.conflict)
            while not ok:
                if not stack:
                    return
                entry = stack[-1]
                d = self.depth
                self.undo(entry[0])
                if not entry[5] and d in blamed:
                    self.backtracks += 1
                    blamed.discard(d)
                    entry[2], entry[3], entry[5] = 1 - entry[2], blamed, True
                    ok = self.guess(entry[1], entry[2], queue)
                    if not ok:
                        blamed = self.culprits(self.conflict)
                    pos = entry[4]
                else:
                    if entry[5]:
                        blamed.discard(d)
                        blamed |= entry[3]
                    else:
                        self.backjumps += 1
                    stack.pop()
                    self.depth -= 1


def collect(search: _Search, shape: tuple[int, int], limit: int, deadline: float | None) -> tuple[list[np.ndarray], bool]:
    """Take up to `limit` solutions from a search; return them and whether the search ran out."""
    solutions: list[np.ndarray] = []
    try:
        for values in search.iter_solutions(deadline):
            solutions.append(np.array(values, dtype=bool).reshape(shape))
            if len(solutions) >= limit:
                return solutions, False
    except TimeUp:
        return solutions, False
    return solutions, True


def iter_equation_solutions(
    cells: list[int],
    equations: list[tuple[list[int], int]],
    *,
    first: Callable[[int], int] | None = None,
    deadline: float | None = None,
    max_nodes: int | None = None,
) -> Iterator[dict[int, int]]:
    """Yield every 0/1 assignment of cells that meets the equations (cells, mines among them).

    The same search as above on bare equations (a group of open cells, the fixed cells already
    substituted): cells in the given order, the single-clue rules as propagation. first(x) is the
    value to try first (0 if not given). The dict yielded is valid until the next one. Raises
    TimeUp past the deadline or after max_nodes guesses.
    """
    of_cell: dict[int, list[int]] = {x: [] for x in cells}
    for e, (eq_cells, _) in enumerate(equations):
        for x in eq_cells:
            of_cell[x].append(e)
    need = [count for _, count in equations]
    free = [len(eq_cells) for eq_cells, _ in equations]
    value: dict[int, int] = {}
    trail: list[int] = []
    nodes = [0]

    def assign(x: int, v: int) -> bool:
        value[x] = v
        trail.append(x)
        ok = True
        for e in of_cell[x]:
            need[e] -= v
            free[e] -= 1
            ok = ok and 0 <= need[e] <= free[e]
        return ok

    def undo(mark: int) -> None:
        while len(trail) > mark:
            x = trail.pop()
            v = value.pop(x)
            for e in of_cell[x]:
                need[e] += v
                free[e] += 1

    def propagate(mark: int) -> bool:
        i = mark
        while i < len(trail):
            for e in of_cell[trail[i]]:
                if free[e] and (need[e] == 0 or need[e] == free[e]):
                    v = 0 if need[e] == 0 else 1
                    for y in equations[e][0]:
                        if y not in value and not assign(y, v):
                            return False
            i += 1
        return True

    def search(pos: int) -> Iterator[dict[int, int]]:
        while pos < len(cells) and cells[pos] in value:
            pos += 1
        if pos == len(cells):
            yield value
            return
        nodes[0] += 1
        if (max_nodes is not None and nodes[0] > max_nodes) or (deadline is not None and time.perf_counter() > deadline):
            raise TimeUp
        x = cells[pos]
        v0 = first(x) if first else 0
        for v in (v0, 1 - v0):
            mark = len(trail)
            if assign(x, v) and propagate(mark):
                yield from search(pos + 1)
            undo(mark)

    yield from search(0)


def is_forced(problem: Problem) -> bool:
    """Do the single-clue rules alone (this search's propagation, before any guess) fix every cell?"""
    search = _Search(problem)
    return search.start() and _UNDECIDED not in search.value


def iter_solutions(problem: Problem, *, time_limit: float | None = None) -> Iterator[np.ndarray]:
    """Yield every solution of the problem as a boolean field; raise TimeUp past the time limit."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    search = _Search(problem)
    for values in search.iter_solutions(deadline):
        yield np.array(values, dtype=bool).reshape(problem.shape)


def solve(problem: Problem, *, limit: int = 2, time_limit: float | None = None) -> Result:
    """Find up to `limit` solutions by complete search and say whether there are others."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    search = _Search(problem)
    solutions, exhausted = collect(search, problem.shape, limit, deadline)
    seconds = time.perf_counter() - start
    verdict = Verdict.of_search(len(solutions), exhausted)
    reason = None
    if verdict is Verdict.NONE:
        if search.conflict is not None and search.nodes == 0:
            reason = search.describe_conflict(search.conflict)
        else:
            reason = "every way of placing the mines breaks some clue (search exhausted)"
    elif verdict is Verdict.UNDECIDED:
        reason = f"time limit of {time_limit:g} s reached after {search.nodes} nodes"
    stats = {
        "nodes": search.nodes,
        "backtracks": search.backtracks,
        "backjumps": search.backjumps,
        "forced": search.forced,
    }
    return Result(verdict, solutions, exhausted, NAME, seconds, stats, reason)
