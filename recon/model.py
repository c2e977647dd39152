"""The model: one definition of a count, the constraint matrix built from it, and the Problem.

Glossary (used everywhere in recon):

- *field*: the hidden mines, a boolean array of shape (rows, cols); True is a mine.
- *window*: the 3x3 block centred on a cell, the cell itself included, clipped at the border.
- *status* (or *counts*): for every cell, the number of mines in its window (0..9).
- *clue*: one known count; a *partial* status has cells without a clue, marked by ``known``.
- *equation*: a clue read as "the cells of this window hold this many mines".
- *solution*: a field whose status equals every clue.
- *value*: what a deduction knows of each cell, an int8 array: 0 empty, 1 mine, OPEN not known.

Arrays are in (rows, cols) order. Unknown clues are a separate boolean mask ``known``; the
``clues`` array holds 0 where there is no clue and that 0 is never read.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import scipy.sparse as sp

#: A cell's value while no rule has fixed it (in the int8 value arrays of the rules and kernels).
OPEN = -1

#: The 1-D window: a cell and its neighbours on either side along one axis. The 3x3 window is
#: this along rows times this along columns; it is the only definition of "neighbourhood" in recon.
LINE: tuple[int, ...] = (-1, 0, 1)
#: The 3x3 window of a cell, as (row, col) offsets.
WINDOW: tuple[tuple[int, int], ...] = tuple((dr, dc) for dr in LINE for dc in LINE)


def line_sums(a: np.ndarray, axis: int) -> np.ndarray:
    """Return, for each entry, the sum over its 1-D window along an axis (zeros past the ends)."""
    out = a.copy()
    n = a.shape[axis]
    for d in LINE:
        if d == 0 or n <= abs(d):
            continue
        target = [slice(None)] * a.ndim
        source = [slice(None)] * a.ndim
        target[axis] = slice(max(-d, 0), n - max(d, 0))
        source[axis] = slice(max(d, 0), n - max(-d, 0))
        out[tuple(target)] += a[tuple(source)]
    return out


def status(field: np.ndarray) -> np.ndarray:
    """Return the status of a field: the mines in each cell's 3x3 window, the cell included."""
    field = np.asarray(field)
    if field.ndim != 2:
        raise ValueError(f"field must be a 2-D array, got {field.ndim} dimension(s)")
    return line_sums(line_sums(field.astype(np.uint8), 0), 1)


def line_matrix(k: int) -> sp.csr_array:
    """Return T_k, the k x k matrix of the 1-D window (tridiagonal ones), as a sparse matrix."""
    import scipy.sparse as sp  # here, not at the top: it would slow every command's start-up

    rows = np.concatenate([np.arange(max(-d, 0), k - max(d, 0)) for d in LINE])
    cols = np.concatenate([np.arange(max(d, 0), k - max(-d, 0)) for d in LINE])
    return sp.csr_array((np.ones(rows.size, dtype=np.int8), (rows, cols)), shape=(k, k))


def window_sizes(shape: tuple[int, int]) -> np.ndarray:
    """Return how many cells each window holds (4 in a corner, 6 on an edge, 9 inside).

    This is status(all mines); the window is separable, so it is the outer product of the 1-D
    window sizes along each axis: one array of the grid's size instead of status's temporaries.
    """
    rows, cols = (line_sums(np.ones(k, dtype=np.uint8), 0) for k in shape)
    return np.multiply.outer(rows, cols)


def constraint_matrix(shape: tuple[int, int], known: np.ndarray | None = None) -> sp.csr_array:
    """Return the sparse 0/1 matrix A with A @ field.ravel() == status(field)[known].

    Row k belongs to the k-th known cell in row-major order; column j to cell j of the field.
    A = T_rows (x) T_cols, the Kronecker product of the 1-D windows, because
    status(X) = T_rows X T_cols.
    """
    rows, cols = shape
    import scipy.sparse as sp

    matrix = sp.csr_array(sp.kron(line_matrix(rows), line_matrix(cols), format="csr"))
    if known is not None:
        matrix = matrix[np.flatnonzero(np.asarray(known).ravel())]
    return matrix


def window_cells(shape: tuple[int, int], r: int, c: int) -> list[tuple[int, int]]:
    """Return the cells of the window centred on (r, c), in row-major order."""
    rows, cols = shape
    return [
        (r + dr, c + dc)
        for dr, dc in WINDOW
        if 0 <= r + dr < rows and 0 <= c + dc < cols
    ]


def window_index(shape: tuple[int, int]) -> np.ndarray:
    """Every cell's window at once: an array (cells, 9) whose row x holds, in WINDOW's order
    (row-major, as window_cells lists them), the flat index of each cell of x's window, -1 where
    the window leaves the grid. Read-only: one array per shape, shared by its callers."""
    rows, cols = shape
    return _window_index(int(rows), int(cols))


@lru_cache(maxsize=8)
def _window_index(rows: int, cols: int) -> np.ndarray:
    out = _windows((rows, cols), np.arange(rows * cols))
    out.flags.writeable = False
    return out


#: Up to this many cells `windows_of` indexes the cached `window_index`; past it, it makes the
#: rows asked for afresh, so that a few clues on a large grid do not keep the whole grid's array
#: (72 bytes a cell) in the cache. Made afresh, rows cost several times more than indexed.
CACHED_WINDOW_CELLS = 250_000


def windows_of(shape: tuple[int, int], cells: np.ndarray) -> np.ndarray:
    """The rows of `window_index` for some cells only (flat indices): a new array."""
    if shape[0] * shape[1] <= CACHED_WINDOW_CELLS:
        return window_index(shape)[np.asarray(cells, dtype=np.int64)]
    return _windows(shape, cells)


def _windows(shape: tuple[int, int], cells) -> np.ndarray:
    rows, cols = shape
    r, c = np.divmod(np.asarray(cells, dtype=np.int64), cols)
    out = np.full((len(r), len(WINDOW)), -1, dtype=np.int64)
    for i, (dr, dc) in enumerate(WINDOW):
        rr, cc = r + dr, c + dc
        inside = (rr >= 0) & (rr < rows) & (cc >= 0) & (cc < cols)
        out[inside, i] = (rr * cols + cc)[inside]
    return out


def equations(problem: "Problem") -> list[tuple[tuple[int, int], list[tuple[int, int]], int]]:
    """Return one equation per clue: (clue cell, the cells of its window, the count)."""
    return [
        ((int(r), int(c)), window_cells(problem.shape, int(r), int(c)), int(problem.clues[r, c]))
        for r, c in np.argwhere(problem.known)
    ]


#: The largest grid recon takes by default (4000 x 4000 cells, where a full status still solves in
#: seconds and a count fits in memory); `--max-cells` and the readers' max_cells raise it.
MAX_CELLS = 16_000_000


def check_size(rows: int, cols: int, max_cells: int = MAX_CELLS, what: str = "the grid") -> None:
    """Raise ValueError for a grid larger than max_cells, before anything of its size is made."""
    if rows * cols > max_cells:
        raise ValueError(
            f"{what} is {rows}x{cols} = {rows * cols:,} cells; recon takes up to {max_cells:,} cells "
            "(--max-cells raises the limit, if the memory is there)"
        )


def cell_name(r: int, c: int) -> str:
    """Name a 0-based cell the way a person reads it: 1-based, 'r2c3'."""
    return f"r{r + 1}c{c + 1}"


@dataclass(frozen=True, eq=False)
class Problem:
    """A status to reconstruct: clue values and the mask of cells that carry a clue, and
    optionally cells whose value is given and the total number of mines.

    A classic Minesweeper board is such a problem: an opened cell is empty, so its count of the 8
    neighbours is its 3x3 count, the cell included; it is a clue and a cell fixed empty, a flag a
    cell fixed a mine, and the board may say how many mines there are in all (`recon.classic`)."""

    clues: np.ndarray  # uint8, shape (rows, cols); read only where known
    known: np.ndarray  # bool, shape (rows, cols)
    fixed: np.ndarray | None = None  # int8, shape (rows, cols): 0, 1, or OPEN (not given)
    mines: int | None = None  # the total number of mines, if known

    @property
    def has_conditions(self) -> bool:
        """Are there fixed cells or a total, beyond the clues?"""
        return self.fixed is not None or self.mines is not None

    @property
    def shape(self) -> tuple[int, int]:
        """Return (rows, cols)."""
        return self.clues.shape  # type: ignore[return-value]

    @property
    def cells(self) -> int:
        """Return the number of cells."""
        return int(self.clues.size)

    @property
    def is_full(self) -> bool:
        """Does every cell carry a clue?"""
        return bool(self.known.all())

    @cached_property
    def sizes(self) -> np.ndarray:
        """Return the window size of every cell."""
        return window_sizes(self.shape)


def make_problem(clues: np.ndarray, known: np.ndarray | None = None, fixed: np.ndarray | None = None,
                 mines: int | None = None) -> Problem:
    """Validate clues and mask (and the fixed cells and total, if given) and return a Problem;
    raise ValueError naming the argument.

    clues: counts 0-9, a 2-D integer array; a numpy masked array's mask means "no clue" there.
    known: True where a cell has a clue (default: everywhere; with a masked array, also where
    it is not masked). fixed: 0 or 1 where a cell's value is given, OPEN (-1) elsewhere. mines:
    the total number of mines.

        >>> import numpy as np
        >>> clues = np.ma.masked_array([[1, 1], [1, 1]], mask=[[False, True], [True, True]])
        >>> make_problem(clues).known.tolist()
        [[True, False], [False, False]]
    """
    hidden = None  # a masked array's mask: no clue there (taken out of known once known is checked)
    masked = sys.modules.get("numpy.ma")  # a masked array means numpy.ma is loaded; else not worth loading
    if masked is not None and isinstance(clues, masked.MaskedArray):
        hidden = masked.getmaskarray(clues)
        clues = masked.getdata(clues)
    clues = np.asarray(clues)
    if clues.ndim != 2 or clues.shape[0] < 1 or clues.shape[1] < 1:
        raise ValueError(f"clues must be a non-empty 2-D array, got shape {clues.shape}")
    if not (np.issubdtype(clues.dtype, np.integer) or clues.dtype == bool):
        if np.issubdtype(clues.dtype, np.floating) and np.all(np.isfinite(clues)) and np.all(clues == np.round(clues)):
            clues = clues.astype(np.int64)
        else:
            raise ValueError(f"clues must hold whole numbers, got dtype {clues.dtype}")
    if known is None:
        known = np.ones(clues.shape, dtype=bool)
    else:
        known = np.asarray(known)
        if known.shape != clues.shape:
            raise ValueError(f"known must have the shape of clues {clues.shape}, got {known.shape}")
        if known.dtype != bool:
            raise ValueError(f"known must be a boolean mask, got dtype {known.dtype}")
    if hidden is not None:
        known = known & ~hidden
    # Cells without a clue are stored as 0; range-check the stored values in their own dtype (no
    # wide copy: this runs on every input, up to millions of cells).
    stored = clues if known.all() else np.where(known, clues, 0)
    if stored.min() < 0 or stored.max() > 9:
        bad = np.argwhere((stored < 0) | (stored > 9))[0]
        raise ValueError(
            f"clues must be counts 0..9, got {int(clues[tuple(bad)])} at {cell_name(*bad)}"
        )
    stored = stored.astype(np.uint8)  # always a copy of its own, so the caller's array stays theirs
    stored.setflags(write=False)
    known = known.copy()
    known.setflags(write=False)
    if fixed is not None:
        fixed = np.asarray(fixed)
        # (comparisons, not np.isin, which sorts: slow on a board of millions of cells)
        if fixed.shape != stored.shape or not ((fixed == OPEN) | (fixed == 0) | (fixed == 1)).all():
            raise ValueError(f"fixed must have the shape of clues {stored.shape} and hold 0, 1 or {OPEN}")
        fixed = fixed.astype(np.int8)  # a copy of its own
        fixed.setflags(write=False)
        if (fixed == OPEN).all():
            fixed = None
    if mines is not None:
        if isinstance(mines, bool) or not isinstance(mines, (int, np.integer)) or not 0 <= mines <= stored.size:
            raise ValueError(f"mines must be a whole number from 0 to the {stored.size} cells, got {mines!r}")
        mines = int(mines)
    return Problem(stored, known, fixed, mines)


def unseen_open_cells(problem: Problem) -> np.ndarray:
    """The cells no clue sees and nothing fixes (a bool mask). Without a total each takes either
    value in every solution, whatever the other cells hold."""
    unseen = status(problem.known) == 0
    return unseen if problem.fixed is None else unseen & (problem.fixed == OPEN)


def is_solution(field: np.ndarray, problem: Problem) -> bool:
    """Is this field a solution of the problem: its clues, and its fixed cells and total if any?"""
    field = np.asarray(field)
    if field.shape != problem.shape:
        return False
    if problem.fixed is not None and (field.astype(np.int8) != problem.fixed)[problem.fixed != OPEN].any():
        return False
    if problem.mines is not None and int(np.count_nonzero(field)) != problem.mines:
        return False
    counts = status(field)
    if problem.is_full:
        return bool(np.array_equal(counts, problem.clues))
    return bool(np.array_equal(counts[problem.known], problem.clues[problem.known]))


def violated_clues(field: np.ndarray, problem: Problem) -> np.ndarray:
    """Return the (row, col) of every clue the field does not reproduce."""
    return np.argwhere(problem.known & (status(field) != problem.clues))


def impossible_clues(problem: Problem) -> np.ndarray:
    """Return the (row, col) of clues larger than their window: no field can meet them."""
    return np.argwhere(problem.known & (problem.clues > problem.sizes))


def impossible_clue_reason(problem: Problem) -> str | None:
    """Say which clue is larger than its window (no field can meet it), or None if none is."""
    bad = impossible_clues(problem)
    if not bad.size:
        return None
    r, c = (int(v) for v in bad[0])
    return (
        f"clue {cell_name(r, c)} = {int(problem.clues[r, c])} cannot be met: "
        f"its window holds only {int(problem.sizes[r, c])} cells"
    )


def random_field(rows: int, cols: int, p: float, rng: np.random.Generator | int | None = None) -> np.ndarray:
    """Draw a rows x cols field in which each cell is a mine with probability p percent (0..100)."""
    for name, value in (("rows", rows), ("cols", cols)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
    if isinstance(p, bool) or not isinstance(p, (int, float, np.integer, np.floating)) or not math.isfinite(p) or not 0 <= p <= 100:
        raise ValueError(f"p must be a percentage from 0 to 100, got {p!r}")
    rng = np.random.default_rng(rng)
    return rng.random((int(rows), int(cols))) < p / 100


class Groups:
    """Disjoint groups of items (union-find with path halving): the one helper that says which
    cells or equations are joined, for counting, elimination and the algebra's coupled lines.
    (The compiled kernels keep their own, `compiled.trim._largest_part`, tested against it.)"""

    def __init__(self, items=()):
        self.parent = {x: x for x in items}

    def find(self, x):
        """The representative of x's group (x joins as a group of its own if new)."""
        parent = self.parent
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(self, items) -> None:
        """Put these items in one group."""
        items = list(items)
        if items:
            first = self.find(items[0])
            for x in items[1:]:
                other = self.find(x)
                if other != first:
                    self.parent[other] = first

    def members(self, items) -> dict:
        """The groups of these items: representative -> its items, in the order given."""
        out: dict = {}
        for x in items:
            out.setdefault(self.find(x), []).append(x)
        return out


def components(owner: np.ndarray, item: np.ndarray, owners: int) -> np.ndarray:
    """A group label for each of `owners` owners: two owners holding a common item, directly or
    through a chain of owners each sharing an item with the next, get the same label. owner[k]
    holds item[k], with owner nondecreasing; an owner with no item is a group of its own. What
    `Groups` does one join at a time, for many at once, in numpy (scipy's connected components
    are no faster, and importing them slows a command's start): each item points to an item of
    its group (first itself); each round, every owner's items and the items they point to take
    the least pointer among the owner's items, and pointers are then followed to their ends.
    Pointers only fall, so the rounds end, and only once every owner's items point alike
    (docs/decisions.md has how many rounds it takes)."""
    if not owner.size:
        return np.arange(owners)
    _, index = np.unique(item, return_inverse=True)
    index = index.ravel()
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
    sizes = np.diff(np.r_[starts, index.size])
    points = np.arange(int(index.max()) + 1)
    while True:
        least = np.repeat(np.minimum.reduceat(points[index], starts), sizes)
        moved = points.copy()
        np.minimum.at(moved, points[index], least)
        np.minimum.at(moved, index, least)
        while True:
            further = moved[moved]
            if np.array_equal(further, moved):
                break
            moved = further
        if np.array_equal(moved, points):
            break
        points = moved
    labels = np.arange(owners) + points.size  # (owners with no item)
    labels[owner[starts]] = points[index[starts]]
    return labels
