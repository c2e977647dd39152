"""Trimming without its written proof: the cells `recon.rules.trim` fixes, found faster.

The hybrid engine grades every puzzle it solves, and puzzle generation checks that a puzzle is
advanced (without numba, removal after removal); neither reads the proof, both need the cells
trimming fixes and whether it fixes them all. This module finds exactly those cells, in pure
Python, by doing what the compiled kernels do (`recon.compiled`), faster than the Trimmer
(docs/performance.md).

- An equation is a 3x3 bit mask (bit 3*i + j: row i, column j of the box whose top-left cell is
  its anchor) and a count. Two equations whose anchors are at most 2 rows and columns apart are
  compared through a table that moves a mask from one box into the other, so a pair costs a few
  integer operations instead of set operations on cell indices and a new object per equation.
- Each equation is looked at once, in the order it was made: the basic rules, then the subset
  and overlap rules with every earlier equation sharing a cell with it (a later one meets it
  when that one is looked at: each pair once). Fixing a cell replaces each equation holding it
  by a new one, looked at in its turn.
- When the pairwise rules stall, elimination keeps its reduced row echelon form from round to
  round and substitutes the cells fixed since (`_Reduced`).

Why the cells are trim's: the basic and pairwise rules are monotone (a fixed cell or an equation
more never stops one of them), so they reach the same fixpoint in any order; the reduced form
depends only on the cells fixed (it is unique), and elimination runs on the same groups of open
cells, up to `trim.ELIMINATION_MAX_CELLS`. tests/test_quiet.py compares the two on random counts
and along removal paths. The only thing lost is the proof: on a contradiction this module says
that the clues clash, not which ones (the hybrid engine then asks the Trimmer).
"""

from __future__ import annotations

import time

import numpy as np

from .. import model
from ..result import Grade, TimeUp
from . import trim

_POP = [bin(m).count("1") for m in range(512)]


def _shift_table() -> list[list[int]]:
    """_SHIFT[(dr + 2) * 5 + dc + 2][mask]: the cells of a mask of the box anchored at (r + dr,
    c + dc) that lie in the box anchored at (r, c), as bits of the latter."""
    masks = np.arange(512)
    box_rows = [(masks >> (3 * i)) & 7 for i in range(3)]
    table = []
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            out = np.zeros(512, dtype=np.int64)
            for i in range(3):
                if 0 <= i + dr < 3:
                    moved = (box_rows[i] << dc) & 7 if dc >= 0 else box_rows[i] >> -dc
                    out |= moved << (3 * (i + dr))
            table.append(out.tolist())
    return table


def _norm_table() -> list[tuple[int, int, int]]:
    """_NORM[mask]: (rows down, columns right, mask) that move a nonempty mask's box so that its
    first row and first column hold a cell: one anchor and mask for each set of cells."""
    table = [(0, 0, 0)]
    for mask in range(1, 512):
        dr = dc = 0
        while not mask & 0b000000111:
            mask >>= 3
            dr += 1
        while not mask & 0b001001001:
            mask = (mask >> 1) & 0b011011011
            dc += 1
        table.append((dr, dc, mask))
    return table


_SHIFT = _shift_table()
_HEIGHT = [max((b // 3 + 1 for b in range(9) if m >> b & 1), default=0) for m in range(512)]
_WIDTH = [max((b % 3 + 1 for b in range(9) if m >> b & 1), default=0) for m in range(512)]
_NORM = _norm_table()
_OFFSETS: dict[int, list[tuple[int, ...]]] = {}  # columns -> for each mask, its cells' offsets


def _offsets(cols: int) -> list[tuple[int, ...]]:
    """For each mask, the row-major offsets of its cells from the anchor, on a grid this wide."""
    if cols not in _OFFSETS:
        _OFFSETS[cols] = [tuple((b // 3) * cols + b % 3 for b in range(9) if m >> b & 1) for m in range(512)]
    return _OFFSETS[cols]


class _Reduced:
    """A reduced row echelon form of 0/1 equations (rows: {cell: coefficient}, right side), kept
    reduced as cells are fixed. A row that only loses cells is not rescaled as `trim._eliminate`
    scales rows: bounds do not depend on a row's scale. (An index of the rows holding each cell,
    so that fixing a cell or moving a pivot would look at those rows only, saved nothing
    measurable at 50x50: keeping it up to date costs what it saves.)"""

    def __init__(self, rows):
        self.rows: list[dict[int, int]] = []
        self.rhs: list[int] = []
        self.pivot: list[int] = []
        for coefs, rhs, _ in trim._eliminate(rows):
            if not coefs:
                raise _clash(f"combining the clues gives 0 = {rhs}")
            self.rows.append(dict(coefs))
            self.rhs.append(rhs)
            self.pivot.append(min(coefs))
        self.changed = set(range(len(self.rows)))

    def substitute(self, fixed: dict[int, int]) -> None:
        """Fix cells (cell -> value): take them out of every row; a row that pivoted on one of
        them pivots on its next cell (a column no other row pivots on), cleared from the others."""
        cells = fixed.keys()
        lost = []
        for i, row in enumerate(self.rows):
            here = row.keys() & cells
            if here:
                self.rhs[i] -= sum(row.pop(c) * fixed[c] for c in here)
                self.changed.add(i)
                if self.pivot[i] in here:
                    lost.append(i)
        for r in lost:
            if not self.rows[r]:
                self.pivot[r] = -1
                continue  # bounded as changed: 0 = rhs holds or is a contradiction
            new = self.pivot[r] = min(self.rows[r])
            for i, row in enumerate(self.rows):
                if i != r and new in row:
                    self._clear(i, r, new)
                    self.changed.add(i)

    def _clear(self, i: int, r: int, col: int) -> None:
        """Take row r's multiple from row i so that row i's entry in col is 0 (`trim._combine`)."""
        self.rows[i], self.rhs[i], _ = trim._combine(self.rows[i], self.rhs[i], 0, (self.rows[r], self.rhs[r], 0), col)

    def bound_changed(self) -> dict[int, int]:
        """Bound the rows changed since the last call; return the cells they fix."""
        found: dict[int, int] = {}
        for i in sorted(self.changed):
            fixed = trim._bound(self.rows[i], self.rhs[i])
            if fixed is None:
                raise _clash("combining the clues gives an equation that 0/1 cells cannot meet")
            for c, v in fixed.items():
                if found.setdefault(c, v) != v:
                    raise _clash(f"combining the clues makes cell {c} both empty and a mine")
        self.changed.clear()
        return found


def _clash(text: str = "the clues contradict each other (trimming without the written proof)") -> trim.Contradiction:
    return trim.Contradiction(trim.Step("contradiction", (), (), (), text))


class QuietTrimmer:
    """Trim some open cells of a grid (the others fixed already): `load`, `run`, then read
    `value` and `is_done`, as with `trim.Trimmer` (or `fixes_all`).

    equations: (name or other label, open cells as row-major indices, mines among them), the
    cells of each inside one 3x3 window, as `trim.Trimmer.on_cells` takes them. `load` and `run`
    raise trim.Contradiction (without saying which clues clash); `run` raises TimeUp at the
    deadline (`timed_out` is then set). max_cells: elimination runs on groups of open cells up to
    this size, as trim's.
    """

    def __init__(self, shape: tuple[int, int], open_cells, equations, max_cells: int = trim.ELIMINATION_MAX_CELLS):
        self.rows, self.cols = shape
        self.max_cells = max_cells
        self._value = [0] * (self.rows * self.cols)  # 0, 1, or OPEN
        for x in open_cells:
            self._value[x] = -1
        self.open = sum(1 for v in self._value if v < 0)
        self.timed_out = False
        self.eliminated = False  # did elimination fix a cell? (then the grade is elimination)
        self._offsets = _offsets(self.cols)
        # the equations, by number in the order they were made
        self._ar: list[int] = []
        self._ac: list[int] = []
        self._msk: list[int] = []
        self._cnt: list[int] = []
        self._alive: list[bool] = []
        # by anchor (row-major): the equations anchored there, dead ones too
        self._at: list[list[int] | None] = [None] * (self.rows * self.cols)
        self._key: dict[int, int] = {}  # anchor * 512 + mask -> the live equation on those cells
        self._dead = 0
        self._fixed: list[int] = []  # every cell fixed, in order
        self._reduced: _Reduced | None = None
        self._synced = 0  # how many of _fixed the reduced form has taken in
        self._equations = [(cells, count) for _, cells, count in equations]

    @classmethod
    def on_cells(cls, shape: tuple[int, int], open_cells, equations, max_cells: int = trim.ELIMINATION_MAX_CELLS) -> "QuietTrimmer":
        """The same as the constructor, named as trim.Trimmer's."""
        return cls(shape, open_cells, equations, max_cells)

    @classmethod
    def of(cls, problem, max_cells: int = trim.ELIMINATION_MAX_CELLS) -> "QuietTrimmer":
        """A quiet trimmer for a whole problem: every cell open, one equation per clue."""
        rows, cols = problem.shape
        clues = [("", [y * cols + x for y, x in cells], count) for _, cells, count in model.equations(problem)]
        return cls(problem.shape, range(rows * cols), clues, max_cells)

    def fixes_all(self, deadline: float | None = None) -> bool:
        """Load and run; does trimming fix every cell (False on a contradiction)?"""
        try:
            self.load()
            self.run(deadline)
        except trim.Contradiction:
            return False
        return self.is_done

    @property
    def value(self) -> np.ndarray:
        """Each cell's value: 0, 1, or OPEN (a new int8 array)."""
        return np.array(self._value, dtype=np.int8)

    @property
    def is_done(self) -> bool:
        """Is every cell fixed?"""
        return self.open == 0

    @property
    def grade(self) -> str:
        """The grade the rules run so far show, as trim.Trimmer's trace would (once run): advanced
        when the pairwise rules fixed every open cell, elimination when that needed elimination
        too, search when cells are still open. (The single-clue rules alone are the caller's
        to tell: hybrid's propagation runs them first.)"""
        if not self.is_done:
            return Grade.SEARCH
        return Grade.ELIMINATION if self.eliminated else Grade.ADVANCED

    # -- equations -------------------------------------------------------------------------
    def _add(self, ar: int, ac: int, mask: int, count: int) -> None:
        """Add the equation on a mask's cells unless one on the same cells lives."""
        if not mask:
            if count:
                raise _clash()
            return
        dr, dc, mask = _NORM[mask]
        ar += dr
        ac += dc
        if count < 0 or count > _POP[mask]:
            raise _clash()
        a = ar * self.cols + ac
        e = self._key.get(a * 512 + mask)
        if e is not None:
            if self._cnt[e] != count:
                raise _clash()
            return
        e = len(self._msk)
        self._ar.append(ar)
        self._ac.append(ac)
        self._msk.append(mask)
        self._cnt.append(count)
        self._alive.append(True)
        self._key[a * 512 + mask] = e
        here = self._at[a]
        if here is None:
            self._at[a] = [e]
        else:
            here.append(e)

    def _add_cells(self, cells, count: int) -> None:
        """Add the equation on cells given as row-major indices (inside one 3x3 window)."""
        if not cells:
            self._add(0, 0, 0, count)
            return
        places = [divmod(x, self.cols) for x in cells]
        ar, ac = min(r for r, _ in places), min(c for _, c in places)
        mask = 0
        for r, c in places:
            mask |= 1 << ((r - ar) * 3 + c - ac)
        self._add(ar, ac, mask, count)

    def _fix(self, x: int, v: int) -> None:
        """Fix cell x to v; every equation holding it is replaced by one without it."""
        value = self._value
        if value[x] >= 0:
            if value[x] != v:
                raise _clash()
            return
        value[x] = v
        self.open -= 1
        self._fixed.append(x)
        cols, at, msk, alive = self.cols, self._at, self._msk, self._alive
        xr, xc = divmod(x, cols)
        for i in range(3):
            ar = xr - i
            if ar < 0:
                break
            for j in range(3):
                ac = xc - j
                if ac < 0:
                    break
                here = at[ar * cols + ac]
                if not here:
                    continue
                bit = 1 << (i * 3 + j)
                for e in here:  # an equation added meanwhile lacks the bit
                    m = msk[e]
                    if m & bit and alive[e]:
                        alive[e] = False
                        self._dead += 1
                        del self._key[(ar * cols + ac) * 512 + m]
                        self._add(ar, ac, m & ~bit, self._cnt[e] - v)

    def _fix_mask(self, ar: int, ac: int, mask: int, v: int) -> None:
        a = ar * self.cols + ac
        for off in self._offsets[mask]:
            self._fix(a + off, v)

    def _drop_dead(self) -> None:
        """Forget the dead equations in the lists by anchor (once half are dead)."""
        alive = self._alive
        self._at = [None if here is None else [e for e in here if alive[e]] for here in self._at]
        self._dead = 0

    # -- rules -----------------------------------------------------------------------------
    def _pairwise(self, e: int, deadline: float | None) -> int:
        """The basic, subset and overlap rules to their fixpoint, from equation e on; returns
        the number of equations looked at (where to go on after cells are fixed from outside)."""
        msk, cnt, alive = self._msk, self._cnt, self._alive
        while e < len(msk):
            if not alive[e]:
                e += 1
                continue
            if e & 511 == 0:
                if deadline is not None and time.perf_counter() > deadline:
                    self.timed_out = True
                    raise TimeUp
                if self._dead > 256 and 2 * self._dead > len(self._key):
                    self._drop_dead()
            mine, ce = msk[e], cnt[e]
            if ce == 0 or ce == _POP[mine]:
                self._fix_mask(self._ar[e], self._ac[e], mine, 0 if ce == 0 else 1)
            else:
                self._pair(e)
            e += 1
        return e

    def _pair(self, e: int) -> None:
        """Compare equation e with every earlier live equation sharing a cell with it, until e
        dies (a later one meets e when that one is looked at, if e still lives: so every two
        equations that live at the end were compared)."""
        msk, cnt, alive, at = self._msk, self._cnt, self._alive, self._at
        cols, overlap = self.cols, trim.overlap_rule
        er, ec, mine, ce = self._ar[e], self._ac[e], msk[e], cnt[e]
        # the boxes that can hold a cell of e: anchored up to 2 rows and columns before its
        # first cell, and not after its last (its mask is normalised: it starts at the anchor)
        last_r, last_c = er + _HEIGHT[mine] - 1, ec + _WIDTH[mine] - 1
        first_c = ec - 2 if ec >= 2 else 0
        for pr in range(er - 2 if er >= 2 else 0, last_r + 1):
            d_row = (pr - er + 2) * 5 + 2 - ec
            for pc in range(first_c, last_c + 1):
                here = at[pr * cols + pc]
                if not here:
                    continue
                d = d_row + pc
                into_e, into_f = _SHIFT[d], _SHIFT[24 - d]
                for f in here:  # in the order made: the earlier ones only
                    if f >= e:
                        break
                    if not alive[f]:
                        continue
                    mf = msk[f]
                    other = into_e[mf]
                    shared = mine & other
                    if not shared:
                        continue
                    only_e, only_f = mine & ~other, mf & ~into_f[mine]
                    cf = cnt[f]
                    if not only_e:  # subset: the rest of f is an equation
                        self._add(pr, pc, only_f, cf - ce)
                    elif not only_f:
                        self._add(er, ec, only_e, ce - cf)
                    else:  # overlap: bound the shared mines; fix private parts left no choice
                        low, high, fix_e, fix_f = overlap(ce, _POP[only_e], _POP[shared], cf, _POP[only_f])
                        if low > high:
                            raise _clash()
                        if fix_e >= 0:
                            self._fix_mask(er, ec, only_e, fix_e)
                        if fix_f >= 0:
                            self._fix_mask(pr, pc, only_f, fix_f)
                    if not alive[e]:
                        return

    def _live_rows(self, keep=None):
        """The live equations (of `keep` only, if given) as elimination's rows ({cell: 1},
        count, no names), in the order made."""
        cols, offsets, msk = self.cols, self._offsets, self._msk
        chosen = (e for e in range(len(msk)) if self._alive[e]) if keep is None else sorted(keep)
        rows = []
        for e in chosen:
            a = self._ar[e] * cols + self._ac[e]
            rows.append(({a + off: 1 for off in offsets[msk[e]]}, self._cnt[e], ()))
        return rows

    def _groups(self) -> list[tuple[set[int], set[int]]]:
        """The connected groups of live equations (sharing cells): (cells, equations) each."""
        joined = model.Groups()
        cols, offsets = self.cols, self._offsets
        cells_of = {}
        for e, m in enumerate(self._msk):
            if self._alive[e]:
                a = self._ar[e] * cols + self._ac[e]
                cells_of[e] = [a + off for off in offsets[m]]
                joined.join(cells_of[e])
        groups: dict[int, tuple[set[int], set[int]]] = {}
        for e, cells in cells_of.items():
            cells_here, eqs = groups.setdefault(joined.find(cells[0]), (set(), set()))
            cells_here.update(cells)
            eqs.add(e)
        return list(groups.values())

    def _eliminate(self) -> bool:
        """Elimination's round: bound the reduced form's rows; fix what they fix."""
        if self.open <= self.max_cells:
            if self._reduced is None:
                self._reduced = _Reduced(self._live_rows())
            else:
                self._reduced.substitute({c: self._value[c] for c in self._fixed[self._synced :]})
            self._synced = len(self._fixed)
            found = self._reduced.bound_changed()
        else:  # some groups may be small enough: each from scratch (this is rare and large)
            found = {}
            for cells, eqs in self._groups():
                if len(cells) <= self.max_cells:
                    found.update(_Reduced(self._live_rows(eqs)).bound_changed())
        found = {c: v for c, v in found.items() if self._value[c] < 0}
        for c, v in sorted(found.items()):
            self._fix(c, v)
        self.eliminated |= bool(found)
        return bool(found)

    # -- driver ----------------------------------------------------------------------------
    def load(self) -> None:
        """Add one equation per clue."""
        for cells, count in self._equations:
            self._add_cells(cells, count)

    def run_pairwise(self) -> None:
        """The basic and pairwise rules alone, to their fixpoint (no elimination), once loaded."""
        self._pairwise(0, None)

    def all_fixed(self, cells) -> bool:
        """Are these cells (row-major indices) all fixed?"""
        return all(self._value[x] >= 0 for x in cells)

    def run(self, deadline: float | None = None) -> None:
        """Apply the rules until every cell is fixed or nothing applies."""
        e = 0
        while True:
            e = self._pairwise(e, deadline)
            if not self.open:
                return
            if deadline is not None and time.perf_counter() > deadline:
                self.timed_out = True
                raise TimeUp
            if not self._eliminate():
                return
