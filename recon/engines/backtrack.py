"""Backtracking: a complete depth-first search with propagation that yields every solution.

Each clue keeps two numbers while the search runs: ``need``, the mines its window still lacks,
and ``free``, its window cells not yet decided. Both bounds of a clue prune: a branch dies when
``need < 0`` (the clue is exceeded) or ``need > free`` (it can no longer be reached). A clue
with ``need == 0`` forces its free cells empty and one with ``need == free`` forces them all
mines; forced cells are propagated before the next guess.

Cells are guessed in anti-diagonal order (r + c, then r). For a full status, that order makes the
cell (r, c) the last undecided cell of the window of clue (r-1, c-1), so propagation forces every
cell except those on the first row and column, and a wrong guess is refuted within a few
diagonals. (Plain row-major order forces the same cells, but decides the whole first row before
any of it is checked, and backtracks through exponentially many first rows.)

The search state (``value``, ``need``, ``free``) is private and undone through a trail; the static
data (which cells a clue sees) is built once.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np

from ..model import Problem, cell_name, window_cells
from ..result import Result, Verdict

NAME = "backtrack"
_UNDECIDED = -1  # private marker in the search state; never summed
_CHECK_CLOCK_EVERY = 2048


class TimeUp(Exception):
    """The time limit was reached."""


class _Search:
    """The static data of a problem and the mutable state of one search over it."""

    def __init__(self, problem: Problem):
        rows, cols = problem.shape
        self.shape = problem.shape
        self.n = rows * cols
        clue_rc = [tuple(rc) for rc in np.argwhere(problem.known)]
        self.clue_rc = clue_rc
        self.clue_cells: list[list[int]] = []
        self.cell_clues: list[list[int]] = [[] for _ in range(self.n)]
        for k, (r, c) in enumerate(clue_rc):
            cells = [rr * cols + cc for rr, cc in window_cells(problem.shape, int(r), int(c))]
            self.clue_cells.append(cells)
            for cell in cells:
                self.cell_clues[cell].append(k)
        self.need = [int(problem.clues[r, c]) for r, c in clue_rc]
        self.free = [len(cells) for cells in self.clue_cells]
        self.value = [_UNDECIDED] * self.n
        self.trail: list[int] = []
        self.order = sorted(range(self.n), key=lambda i: (i // cols + i % cols, i // cols))
        self.nodes = 0
        self.backtracks = 0
        self.forced = 0
        self.conflict: int | None = None

    def describe_conflict(self, k: int) -> str:
        """Say in words why clue k cannot be met in the current state."""
        r, c = self.clue_rc[k]
        need, free = self.need[k], self.free[k]
        total = need + sum(self.value[i] == 1 for i in self.clue_cells[k])
        where = f"clue {cell_name(int(r), int(c))} = {total}"
        if need < 0:
            return f"{where} is exceeded: its window already holds {total - need} mines"
        return f"{where} cannot be reached: it needs {need} more mine(s) but only {free} cell(s) of its window are open"

    def assign(self, cell: int, v: int, queue: list[int]) -> int:
        """Set a cell, update its clues, queue the clues that now force cells; return a conflicting clue or -1."""
        self.value[cell] = v
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
        """Force cells until nothing changes; return False on a conflict."""
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
                    bad = self.assign(cell, v, queue)
                    if bad >= 0:
                        self.conflict = bad
                        queue.clear()
                        return False
        return True

    def undo(self, mark: int) -> None:
        """Undo every assignment made after the trail had length mark."""
        value, need, free, trail, cell_clues = self.value, self.need, self.free, self.trail, self.cell_clues
        while len(trail) > mark:
            cell = trail.pop()
            v = value[cell]
            value[cell] = _UNDECIDED
            for k in cell_clues[cell]:
                free[k] += 1
                need[k] += v

    def start(self) -> bool:
        """Check every clue against its bounds and propagate; return False when the clues contradict."""
        queue = []
        for k in range(len(self.need)):
            nd, f = self.need[k], self.free[k]
            if nd < 0 or nd > f:
                self.conflict = k
                return False
            if nd == 0 or nd == f:
                queue.append(k)
        return self.propagate(queue)

    def iter_solutions(self, deadline: float | None) -> Iterator[list[int]]:
        """Yield every solution as a list of 0/1 values in row-major order."""
        if not self.start():
            return
        order, value, n = self.order, self.value, self.n
        stack: list[tuple[int, int, int]] = []  # (trail mark, position in order, value tried)
        pos = 0
        queue: list[int] = []
        while True:
            while pos < n and value[order[pos]] != _UNDECIDED:
                pos += 1
            if pos == n:
                yield list(value)
                ok = False
            else:
                self.nodes += 1
                if deadline is not None and self.nodes % _CHECK_CLOCK_EVERY == 0 and time.perf_counter() > deadline:
                    raise TimeUp
                stack.append((len(self.trail), pos, 0))
                ok = self.assign(order[pos], 0, queue) < 0 and self.propagate(queue)
                queue.clear()
            while not ok:
                if not stack:
                    return
                self.backtracks += 1
                mark, pos, tried = stack.pop()
                self.undo(mark)
                if tried == 0:
                    stack.append((mark, pos, 1))
                    ok = self.assign(order[pos], 1, queue) < 0 and self.propagate(queue)
                    queue.clear()


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
    solutions: list[np.ndarray] = []
    exhausted = False
    try:
        for values in search.iter_solutions(deadline):
            solutions.append(np.array(values, dtype=bool).reshape(problem.shape))
            if len(solutions) >= limit:
                break
        else:
            exhausted = True
    except TimeUp:
        pass
    seconds = time.perf_counter() - start
    reason = None
    if exhausted and not solutions:
        verdict = Verdict.NONE
        if search.conflict is not None and search.nodes == 0:
            reason = search.describe_conflict(search.conflict)
        else:
            reason = "every way of placing the mines breaks some clue (search exhausted)"
    elif len(solutions) >= 2:
        verdict = Verdict.MULTIPLE
    elif exhausted:
        verdict = Verdict.UNIQUE
    else:
        verdict = Verdict.UNDECIDED
        reason = f"time limit of {time_limit:g} s reached after {search.nodes} nodes"
    stats = {"nodes": search.nodes, "backtracks": search.backtracks, "forced": search.forced}
    return Result(verdict, solutions, exhausted, NAME, seconds, stats, reason)
