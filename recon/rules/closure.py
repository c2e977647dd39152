"""Incremental checking for puzzle generation: what a clue removal changes, and nothing else.

Generation removes clues one at a time from the status of a known field and asks, each time,
whether the puzzle is still solved. Re-solving from scratch costs the whole grid per removal, so
generation would grow with the square of the cells. Here the work per removal is local:

- `Closure` keeps the closure of the two single-clue rules ("count 0 empties its window", "count
  = open cells fills them") under clue removal. Every fixed cell remembers the clue that fixed it
  and when. A removal deletes the cells that clue fixed and, transitively, every later firing that
  relied on a deleted cell (an all-empty firing relies on the mines its window already had, an
  all-mines firing on the empties), then lets the rules fire again around the deleted cells. This
  is the delete-and-rederive method of incremental Datalog: the kept cells keep a derivation that
  does not use the removed clue, and re-firing reaches the one fixpoint of the rules, so the result
  is exactly the closure of the smaller clue set. Undoing a removal is re-adding the clue.
- `open_groups` splits the cells the rules leave open into independent groups (cells joined by a
  clue that sees both); a removal changes only the groups that touch it, so only those are
  re-checked, by trimming (advanced) or by an exact search for a second solution (search).

The field is known, so every fixed cell equals it: nothing here can meet a contradiction.
Correctness of generated puzzles never rests on this module alone: `recon.generation` certifies every
puzzle from scratch before it is returned.
"""

from __future__ import annotations

import heapq
from collections import deque

import numpy as np

from ..model import status, window_cells


def windows(shape: tuple[int, int]) -> list[list[int]]:
    """Return, for each cell (row-major index), the cells of its 3x3 window (row-major indices)."""
    rows, cols = shape
    return [[r * cols + c for r, c in window_cells(shape, i, j)] for i in range(rows) for j in range(cols)]


class Closure:
    """The cells the single-clue rules fix for a field's puzzle, kept up to date as clues go."""

    def __init__(self, field: np.ndarray, known: np.ndarray | None = None):
        field = np.asarray(field, dtype=bool)
        self.shape = field.shape
        n = field.size
        self.win = windows(self.shape)
        self.truth = field.ravel().astype(int).tolist()
        self.field = field
        self.clues = status(field)
        self.clue = self.clues.ravel().astype(int).tolist()
        self.active = (np.ones(n, bool) if known is None else np.asarray(known, bool)).ravel().tolist()
        self.size = [len(w) for w in self.win]
        # needs[k][v]: the cells of k's window that must be fixed for k to fix a cell to v
        self.needs = [([y for y in w if self.truth[y]], [y for y in w if not self.truth[y]]) for w in self.win]
        self.known = [False] * n
        self.time = [0] * n  # when a fixed cell was fixed
        self.by = [-1] * n  # the clue that fixed it
        self.kind = [-1] * n  # per clue: 0 it fired all-empty, 1 all-mines, -1 never
        self.fixed: list[list[int]] = [[] for _ in range(n)]  # per clue: cells it fixed (may hold stale ones)
        self.mines = [0] * n  # per clue: fixed mines in its window
        self.empties = [0] * n  # per clue: fixed empty cells in its window
        self.open = set(range(n))
        self.clock = 0
        self.changed: set[int] = set()  # cells opened by the last removal and still open
        self.propagate([k for k in range(n) if self.active[k]])

    @property
    def is_done(self) -> bool:
        """Is every cell fixed?"""
        return not self.open

    def propagate(self, start: list[int]) -> None:
        """Fire every rule that applies, starting from the clues given, to the fixpoint.

        Clues are taken first in, first out, so cells are fixed in rounds and each is derived
        in as few steps as possible: short derivations keep later removals local.
        """
        win, known, truth, active = self.win, self.known, self.truth, self.active
        mines, empties, size, clue = self.mines, self.empties, self.size, self.clue
        queue = deque(start)
        while queue:
            k = queue.popleft()
            if not active[k]:
                continue
            m = mines[k]
            free = size[k] - m - empties[k]
            if free == 0:
                continue
            need = clue[k] - m
            if need == 0:
                kind = 0
            elif need == free:
                kind = 1
            else:
                continue
            self.clock += 1
            self.kind[k] = kind
            cells = [x for x in win[k] if not known[x]]
            self.fixed[k] = [y for y in self.fixed[k] if known[y] and self.by[y] == k] + cells
            for x in cells:
                known[x] = True
                self.time[x] = self.clock
                self.by[x] = k
                self.open.discard(x)
                counts = mines if truth[x] else empties
                for j in win[x]:
                    counts[j] += 1
                    queue.append(j)

    def remove(self, c: int) -> None:
        """Drop clue c and bring the closure up to date.

        The cells c fixed, and then every cell whose firing relied on a cell that goes, are taken
        in the order they were fixed. Each keeps its time if another active clue could have fixed
        it then, from cells fixed before it (so derivations stay acyclic); otherwise it opens.
        The rules then fire again around the opened cells.
        """
        self.active[c] = False
        win, known, truth, time, by, kind = self.win, self.known, self.truth, self.time, self.by, self.kind
        heap = [(time[y], y) for y in self.fixed[c] if known[y] and by[y] == c]
        heapq.heapify(heap)
        self.fixed[c] = []
        deleted = []
        while heap:
            tx, x = heapq.heappop(heap)
            if not known[x] or (by[x] != c and self.supports(by[x], x)):
                continue  # already opened, or taken over by another clue
            v = truth[x]
            other = next((j for j in win[x] if j != by[x] and self.supports(j, x)), None)
            if other is not None:
                by[x] = other
                kind[other] = v
                self.fixed[other].append(x)
                continue
            known[x] = False
            deleted.append(x)
            counts = self.mines if v else self.empties
            for k in win[x]:
                counts[k] -= 1
                if kind[k] == 1 - v:  # k's firings after x relied on it
                    for y in self.fixed[k]:
                        if known[y] and by[y] == k and time[y] > tx:
                            heapq.heappush(heap, (time[y], y))
        self.open.update(deleted)
        self.propagate([k for x in deleted for k in win[x]])
        self.changed = {x for x in deleted if not known[x]}

    def supports(self, j: int, x: int) -> bool:
        """Could clue j have fixed cell x at x's time, from the cells fixed before then?

        An all-empty firing needs every mine of j's window fixed, an all-mines firing every empty.
        """
        if not self.active[j]:
            return False
        v = self.truth[x]
        if self.kind[j] == 1 - v:
            return False
        tx, known, time = self.time[x], self.known, self.time
        return all(known[y] and time[y] < tx for y in self.needs[j][v])

    def restore(self, c: int) -> None:
        """Put clue c back (undoes remove(c): the closure is the same fixpoint as before)."""
        self.active[c] = True
        self.propagate([c])
        self.changed = set()

    def open_groups(self, seeds) -> list[tuple[list[int], list[int]]]:
        """Return the groups of open cells reached from the seeds: (cells, active clues seeing them).

        Two open cells are in one group when an active clue sees both. A group's clues, with the
        fixed cells substituted, are equations on its cells alone, so each group is solved apart.
        """
        win, active, open_ = self.win, self.active, self.open
        seen: set[int] = set()
        groups = []
        for seed in seeds:
            if seed not in open_ or seed in seen:
                continue
            cells, clues, todo = [seed], set(), [seed]
            seen.add(seed)
            while todo:
                x = todo.pop()
                for k in win[x]:
                    if active[k] and k not in clues:
                        clues.add(k)
                        for y in win[k]:
                            if y in open_ and y not in seen:
                                seen.add(y)
                                cells.append(y)
                                todo.append(y)
            groups.append((cells, sorted(clues)))
        return groups

    def equations(self, clues: list[int]) -> list[tuple[int, list[int], int]]:
        """Return (clue, open cells of its window, mines still needed) for the given clues."""
        open_ = self.open
        return [(k, [y for y in self.win[k] if y in open_], self.clue[k] - self.mines[k]) for k in clues]


ALL = np.uint64(0xFFFF_FFFF_FFFF_FFFF)
LANES = 64


def _and3x3(a: np.ndarray) -> np.ndarray:
    """AND over each cell's 3x3 window; cells outside the grid count as all ones."""
    p = np.full((a.shape[0] + 2, a.shape[1] + 2), ALL)
    p[1:-1, 1:-1] = a
    h = p[:, :-2] & p[:, 1:-1] & p[:, 2:]
    return h[:-2] & h[1:-1] & h[2:]


def _or3x3(a: np.ndarray) -> np.ndarray:
    """OR over each cell's 3x3 window; cells outside the grid count as zero."""
    p = np.zeros((a.shape[0] + 2, a.shape[1] + 2), dtype=np.uint64)
    p[1:-1, 1:-1] = a
    h = p[:, :-2] | p[:, 1:-1] | p[:, 2:]
    return h[:-2] | h[1:-1] | h[2:]


def basic_closures(field: np.ndarray, active: np.ndarray, known: np.ndarray | None = None) -> np.ndarray:
    """Run the single-clue rules on up to 64 clue sets at once, one per bit of a uint64.

    active[r, c] has bit b set when clue (r, c) is given in puzzle b; known[r, c] bit b when
    the cell starts fixed in puzzle b (it must be a cell the rules fix there anyway). Because the
    field is known, the rules need no counting: a clue empties its window once every mine of the
    window is fixed, and fills it once every empty cell is. So one round is a few ANDs and ORs
    over shifted arrays for all 64 puzzles together, and rounds repeat to the fixpoint. Returns
    the fixed cells, bit b for puzzle b.
    """
    mine = np.asarray(field, dtype=bool)
    known = np.zeros(mine.shape, dtype=np.uint64) if known is None else known.copy()
    while True:
        all_mines_fixed = _and3x3(np.where(mine, known, ALL))
        all_empties_fixed = _and3x3(np.where(mine, ALL, known))
        fixed = known | np.where(mine, _or3x3(active & all_empties_fixed), _or3x3(active & all_mines_fixed))
        if np.array_equal(fixed, known):
            return known
        known = fixed
