"""Linear trimming: sound deductions on the clue equations, and the proof they write.

Every clue is an *equation*: a set of cells not yet fixed and the number of mines among them.
The rules below fix cells or derive new equations; each is small, sound, and named. They run to a
fixpoint, weakest first (basic rules until they stall, then the pairwise rules, then elimination),
so the strongest rule that appears in the trace is the one the puzzle needs: its *grade*
("basic", "advanced" or "elimination"; "search" when trimming cannot finish).

basic (grade "basic"):
  substitute   a fixed cell leaves every equation; a mine lowers the count.
  all-empty    an equation with count 0: every cell of it is empty.
  all-mines    an equation whose count equals its number of cells: every cell is a mine.
  contradiction an equation with count < 0 (too many mines) or count > cells (too few left).
  total        with the total number of mines given (a classic board), once the other rules
               stall: no mine left empties every open cell, as many left as open cells fills them.
pairwise (grade "advanced"):
  subset       if A's cells lie inside B's, B minus A is a new equation with count cB - cA.
  overlap      for overlapping A and B, the mines in the shared part lie between
               max(0, cA - |A only|, cB - |B only|) and min(|shared|, cA, cB); when that leaves
               "A only" no room or no choice, its cells are fixed (and likewise for B). This is
               the pairwise rule of Tatham's Mines and of the IOCCC 2020 endoh1 solver.
elimination (grade "elimination"):
  elimination  exact integer Gaussian elimination (fraction-free, never floats) on each connected
               group of open equations; every derived equation sum(a_i x_i) = b over 0/1 cells is
               bounded: a cell whose one value would put b out of reach is fixed to the other
               (so x_a - x_b = 1 fixes x_a = 1, x_b = 0).
  mine-count   (grade "advanced", with the total) equations that share no cell hold the sum of
               their counts; the total less that is what the other open cells hold, those no
               number sees among them: when it is none, or all of them, they are fixed.
case split (grade "search"; only when asked, for `recon explain`):
  case-split   every way to meet one equation is followed by the basic and pairwise rules on the
               equations around it; the ways that end in a contradiction are dropped, and a cell
               every remaining way fixes alike is fixed (LEGUP's "Satisfy Number").

Trimming never guesses: when it stalls, the verdict is ``undecided`` with the cells it fixed.

This is the one Python statement of trimming. `Trimmer(..., proof=False)` runs the same rules
without writing the steps down, for the callers that read only the cells and the grade (the
hybrid engine, puzzle generation without numba); `recon.compiled` holds the compiled twin, and
the tests hold the two equal.

Elimination is not monotone in the equations: its bounds come from the rows of a reduced form,
and one equation fewer changes those rows, so a puzzle can yield more to it with a clue fewer
(tests/test_trim.py has a case; recon.generation.elimination allows for it).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb, gcd

import numpy as np

from .. import model
from ..model import OPEN, Problem, cell_name, window_cells
from ..result import Grade, TimeUp

BASIC, ADVANCED, ELIMINATION, SEARCH = 1, 2, 3, 4
#: The grades, weakest first: the pairwise rules reason about two clues that share cells, which
#: a person does; elimination combines hundreds or thousands of equations at once (a minimal
#: puzzle of that grade leaves most of the grid to it), and it is not monotone, so it is a grade
#: of its own (as part of "advanced" it made generating those puzzles far slower).
GRADES = {BASIC: Grade.BASIC, ADVANCED: Grade.ADVANCED, ELIMINATION: Grade.ELIMINATION, SEARCH: Grade.SEARCH}
RULE_LEVEL = {
    "all-empty": BASIC,
    "all-mines": BASIC,
    "contradiction": BASIC,
    "subset": ADVANCED,
    "overlap": ADVANCED,
    "elimination": ELIMINATION,
    "total": BASIC,
    "mine-count": ADVANCED,
    "case-split": SEARCH,
}
#: Elimination runs on connected groups of open cells up to this size.
ELIMINATION_MAX_CELLS = 3000
#: Elimination's groups are joined at once in numpy (`Trimmer._joined`) from this many equations
#: to join again; fewer are joined one by one in Python, which then costs less.
JOIN_AT_ONCE = 100
#: Case splits, in stages: (most ways, reach). A split follows its ways on the equations anchored
#: up to `reach` rows and columns around the one split. The narrow stage is what a person does
#: (few ways, short chains) and is tried first; the wide one only when it gives nothing, since a
#: way there costs a trimmer over some 170 equations.
CASE_STAGES = ((10, 3), (70, 6))
#: One run follows at most CASE_BUDGET + CASE_BUDGET_PER_CELL * cells ways in all, and never more
#: than CASE_BUDGET_MAX: a bound on what splits in vain cost (on a puzzle with several solutions
#: every split is in vain). docs/performance.md has what a way costs.
CASE_BUDGET = 2000
CASE_BUDGET_PER_CELL = 8
CASE_BUDGET_MAX = 12_000


def case_budget(rows: int, cols: int) -> int:
    """The ways case splits follow at most by default on a grid of this size."""
    return min(CASE_BUDGET + CASE_BUDGET_PER_CELL * rows * cols, CASE_BUDGET_MAX)


def _in_window(cells, cols: int) -> tuple[int, int, int] | None:
    """Cells given as row-major indices on a grid `cols` wide, as the 3x3 window they lie in:
    (its anchor row, anchor column, the cells' mask); None when they lie in no one window."""
    ar = min(cells) // cols  # the first cell in row-major order is in the first row
    ac = min([x % cols for x in cells])
    mask = 0
    for x in cells:
        r, c = divmod(x, cols)
        r -= ar
        c -= ac
        if r > 2 or c > 2:
            return None
        mask |= 1 << (r * 3 + c)
    return ar, ac, mask


def overlap_rule(count_a: int, only_a: int, shared: int, count_b: int, only_b: int) -> tuple[int, int, int, int]:
    """The overlap rule (recon.compiled.pairwise holds its compiled twin). Two equations
    with count_a and count_b mines share `shared` cells and have only_a and only_b cells of their
    own (both at least one). The shared cells hold between low and high mines; each private part
    is then left no choice when its equation's count equals low (no mine there: 0) or exceeds high
    by exactly its size (all mines: 1). Returns (low, high, fix_a, fix_b), a fix being 0, 1 or
    -1 for none; low > high means the two equations contradict each other."""
    # max(0, count_a - only_a, count_b - only_b) and min(shared, count_a, count_b), written out:
    # the Trimmer calls this for every overlapping pair, and the builtins cost more than the comparisons
    low, high = count_a - only_a, shared
    if count_b - only_b > low:
        low = count_b - only_b
    if low < 0:
        low = 0
    if count_a < high:
        high = count_a
    if count_b < high:
        high = count_b
    fix_a = 0 if count_a == low else (1 if count_a - high == only_a else -1)
    fix_b = 0 if count_b == low else (1 if count_b - high == only_b else -1)
    return low, high, fix_a, fix_b


@dataclass(frozen=True)
class Step:
    """One deduction: the rule, the cells it fixed (0-based (row, col)) and the equations it used."""

    rule: str
    cells: tuple[tuple[int, int], ...]
    values: tuple[int, ...]
    sources: tuple[str, ...]
    text: str
    derived: str | None = None  # the name of an equation this step added, if any
    kind: str | None = None  # a contradiction's kind: "too-many" or "too-few" mines for one equation
    cases: tuple[dict, ...] = ()  # a case split's ways: mines, empty, outcome and the steps followed
    combination: tuple[tuple[int, str], ...] = ()  # elimination: (multiplier, equation) summed into its row
    equation: tuple | None = None  # elimination: the row, ((coefficient, cell name), ...), right side

    @property
    def level(self) -> int:
        """Return the grade level of the rule: 1 basic, 2 advanced, 3 elimination, 4 search."""
        return RULE_LEVEL[self.rule]

    def to_json(self) -> dict[str, object]:
        """Return the step as a JSON-ready record."""
        record: dict[str, object] = {
            "rule": self.rule,
            "grade": GRADES[self.level],
            "cells": [cell_name(r, c) for r, c in self.cells],
            "values": list(self.values),
            "sources": list(self.sources),
            "derived": self.derived,
            "text": self.text,
        }
        if self.cases:
            record["cases"] = [dict(case) for case in self.cases]
        if self.combination:
            record["combination"] = [[k, name] for k, name in self.combination if name != "x"]
            record["divided_by"] = next((k for k, name in self.combination if name == "x"), 1)
        if self.equation is not None:
            terms, rhs = self.equation
            record["equation"] = {"terms": [[k, cell] for k, cell in terms], "rhs": rhs}
        return record


def _is_clue(name: str) -> bool:
    return name.startswith("r")


def _clue_cell(name: str) -> tuple[int, int]:
    """The 0-based cell of a clue named 'r2c3'."""
    r, c = name[1:].split("c")
    return int(r) - 1, int(c) - 1


def _endoh1_pair(problem: Problem, value: list[list[int]], names, cells, mine: bool) -> str | None:
    """endoh1's rule 3 or 4 if it applies, as he states it, to numbers named `names` on the board
    as it stands (`value`: 0, 1 or OPEN per cell), fixing `cells`; else None.

    Rule 3: A == B - (B's covered or flagged neighbours that A does not see): A's covered
    neighbours that B does not see are safe. Rule 4: B == A - (A's covered or flagged neighbours
    that B does not see): they are mines."""
    shape = problem.shape
    for a_name, b_name in (names, names[::-1]):
        a, b = _clue_cell(a_name), _clue_cell(b_name)
        near_a, near_b = set(window_cells(shape, *a)) - {a}, set(window_cells(shape, *b)) - {b}
        only_a = {x for x in near_a - near_b if value[x[0]][x[1]] != 0}  # covered or flagged
        only_b = {x for x in near_b - near_a if value[x[0]][x[1]] != 0}
        covered_a = {x for x in only_a if value[x[0]][x[1]] == OPEN}
        if set(cells) != covered_a:
            continue
        na, nb = int(problem.clues[a]), int(problem.clues[b])
        if not mine and na == nb - len(only_b):
            return "rule 3"
        if mine and nb == na - len(only_a):
            return "rule 4"
    return None


def classic_names(trace, problem: Problem) -> list[dict[str, str | None]]:
    """Each step's rule as the classic vocabularies name it: {"legup": ..., "endoh1": ...}, None
    where that vocabulary has no such rule.

    LEGUP's Minesweeper rules: Finish With Mines / Empty (one number), Non Touching Shared Bomb /
    Empty (two numbers, one's cells the other does not see), Satisfy Number (a case split on one
    number), Too Many / Too Few Bombs (a number broken). endoh1's (IOCCC 2020): rule 1 (a number's
    flags are all its mines: the rest are safe), rule 2 (its covered and flagged neighbours are
    all its mines), rules 3 and 4 (two numbers, checked as he states them on the board as it
    stands: `_endoh1_pair`), and his final rule (the mines left fill the covered cells). A subset
    step derives an equation from two numbers; the step that then fixes its cells is a two-number
    rule, in both vocabularies."""
    rows, cols = problem.shape
    value = [[OPEN] * cols for _ in range(rows)]
    if problem.fixed is not None:
        value = problem.fixed.astype(int).tolist()
    pair_of: dict[str, tuple[str, ...]] = {}
    names = []
    for step in trace:
        legup = endoh1 = None
        if step.rule == "subset" and step.derived and all(_is_clue(n) for n in step.sources):
            pair_of[step.derived] = step.sources
        mine = bool(step.values and step.values[0])
        pair = None
        if step.rule in ("all-empty", "all-mines"):
            source = step.sources[0] if step.sources else ""
            if _is_clue(source):
                legup = "Finish With Mines" if mine else "Finish With Empty"
                endoh1 = "rule 2" if mine else "rule 1"
            elif source in pair_of:
                pair = pair_of[source]
        elif step.rule == "overlap" and all(_is_clue(n) for n in step.sources):
            pair = step.sources
        elif step.rule == "total":
            legup = "Finish With Mines" if mine else "Finish With Empty"
            endoh1 = "final rule"
        elif step.rule == "case-split" and step.sources and _is_clue(step.sources[0]):
            legup = "Satisfy Number"
        elif step.rule == "contradiction" and step.kind and len(step.sources) == 1 and _is_clue(step.sources[0]):
            legup = "Too Many Bombs" if step.kind == "too-many" else "Too Few Bombs"
        if pair is not None:
            legup = "Non Touching Shared Bomb" if mine else "Non Touching Shared Empty"
            endoh1 = _endoh1_pair(problem, value, pair, step.cells, mine)
        names.append({"legup": legup, "endoh1": endoh1})
        for (r, c), v in zip(step.cells, step.values):
            value[r][c] = v
    return names


class Contradiction(Exception):
    """The clues cannot all hold; the step says which equation broke."""

    def __init__(self, step: Step):
        super().__init__(step.text)
        self.step = step


# -- the bookkeeping: equations as 3x3 bit masks ---------------------------------------------
# An equation is a 3x3 bit mask (bit 3*i + j: row i, column j of the box whose top-left cell is
# its anchor) and a count. Two equations whose anchors are at most 2 rows and columns apart are
# compared through a table that moves a mask from one box into the other, so a pair costs a few
# integer operations instead of set operations and a new object per equation.

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
_BITS = [[1 << b for b in range(9) if m >> b & 1] for m in range(512)]  # each mask's cells as bits, in order
_BOXES: dict[int, list] = {}  # padded width -> for each mask, the boxes around it (_boxes_of)


def _boxes_of(mask: int, wide: int) -> list[tuple[int, int, int, int]]:
    """The boxes that can hold a cell of a normalised mask (it starts at its anchor): anchored
    up to 2 rows and columns before its first cell and not after its last, in row-major order,
    as (index step on the padded anchor grid of this width, _SHIFT's row, rows down, columns
    right). Kept per width and mask, made when first asked for (all 512 at once cost a small
    puzzle's solve a few milliseconds more)."""
    boxes = _BOXES.setdefault(wide, [None] * 512)
    if boxes[mask] is None:
        boxes[mask] = [(dr * wide + dc, (dr + 2) * 5 + dc + 2, dr, dc)
                       for dr in range(-2, _HEIGHT[mask]) for dc in range(-2, _WIDTH[mask])]
    return boxes[mask]


def _offsets(cols: int) -> list[tuple[int, ...]]:
    """For each mask, the row-major offsets of its cells from the anchor, on a grid this wide."""
    if cols not in _OFFSETS:
        _OFFSETS[cols] = [tuple((b // 3) * cols + b % 3 for b in range(9) if m >> b & 1) for m in range(512)]
    return _OFFSETS[cols]


class Trimmer:
    """Trim the open cells of a grid: `load`, `run`, then read `value`, `is_done`, `grade` and,
    with the proof, `steps`. The rules can also be run one phase at a time (`rule_basic`,
    `rule_pairwise`, `rule_elimination`: each returns whether it made progress).

    proof: write each step down (the trace `recon explain` prints). Without it the same rules
    fix the same cells and show the same grade, faster (several cells fixed by one rule leave the
    equations at once: `_fix_mask`), and a contradiction says only that the clues clash.
    max_cells: elimination runs on connected groups of open cells up to this size.
    cases: split cases (`rule_cases`) when every other rule stalls: a proof a person can follow
    further, where the solvers would search instead. ways: how many ways the splits may follow
    in all (default: `case_budget` of the grid); `out_of_ways` says whether they ran out.
    split_probe: follows a split's ways without the proof, in its place (`recon.compiled`'s
    `split_ways`, which the trim engine passes; the same answers, faster); when it returns None,
    the ways are followed here.
    """

    def __init__(self, problem: Problem, max_cells: int = ELIMINATION_MAX_CELLS, *, proof: bool = True,
                 cases: bool = False, ways: int | None = None, split_probe: Callable | None = None):
        """Every cell open but the fixed ones (substituted into the clues); a total number of
        mines is used by `rule_total` once the other rules stall."""
        rows, cols = problem.shape
        fixed = None if problem.fixed is None else problem.fixed.ravel().tolist()
        clues = []
        substituted: set[str] = set()  # clues whose window lost fixed cells before loading
        windows: dict[str, tuple[int, list[int]]] = {}  # clue -> its value and window (for contradictions)
        for rc, cells, count in model.equations(problem):
            flat = [y * cols + x for y, x in cells]
            if fixed is not None:
                count -= sum(fixed[x] for x in flat if fixed[x] > 0)
                flat = [x for x in flat if fixed[x] == OPEN]
            clues.append((cell_name(*rc), flat, count))
            if fixed is not None and len(flat) != len(cells):
                substituted.add(cell_name(*rc))
            if proof:  # read only to word a contradiction
                windows[cell_name(*rc)] = (int(problem.clues[rc]), [y * cols + x for y, x in cells])
        open_cells = range(rows * cols) if fixed is None else [x for x in range(rows * cols) if fixed[x] == OPEN]
        self._setup(problem.shape, open_cells, clues, max_cells, proof)
        self.cases = cases
        self._probe = split_probe
        if ways is not None:
            if isinstance(ways, bool) or not isinstance(ways, (int, np.integer)) or ways < 0:
                raise ValueError(f"ways must be a whole number >= 0, got {ways!r}")
            self.ways_left = ways
        self._substituted = substituted
        self._windows = windows
        self.mines = problem.mines
        if fixed is not None:
            for x in range(rows * cols):
                if fixed[x] > 0:
                    self._value[x] = 1

    @classmethod
    def on_cells(cls, shape: tuple[int, int], open_cells, equations, max_cells: int = ELIMINATION_MAX_CELLS,
                 *, proof: bool = True) -> "Trimmer":
        """A trimmer for some open cells of a grid, the others fixed already (their values unused).

        equations: (name, open cells as row-major indices, mines among them), the cells of each
        inside one 3x3 window: clues with the fixed cells substituted, say. Puzzle generation and
        the hybrid engine trim the cells left open this way.
        """
        trimmer = cls.__new__(cls)
        trimmer._setup(shape, open_cells, equations, max_cells, proof)
        trimmer.cases = False
        trimmer._windows = {}
        trimmer.mines = None
        trimmer._substituted = set()
        return trimmer

    @classmethod
    def on_masks(cls, shape: tuple[int, int], open_cells, rows, max_cells: int = ELIMINATION_MAX_CELLS,
                 *, proof: bool = True) -> "Trimmer":
        """`on_cells`, with each equation given as (name, anchor row, anchor column, mask, mines):
        the mask's bit 3*i + j is the cell i rows below and j columns right of the anchor, which
        may lie outside the grid where the mask does not (a clue's window is anchored one row
        up and one column left of it). The hybrid engine builds these for all clues at once."""
        trimmer = cls.on_cells(shape, open_cells, (), max_cells, proof=proof)
        trimmer._masks = list(rows)
        return trimmer

    def _setup(self, shape, open_cells, equations, max_cells, proof) -> None:
        self.rows, self.cols = shape
        self._corner = (0, 0)  # where row 0, column 0 lies on the grid the cells are named on
        self.max_cells = max_cells
        self.proof = proof
        self._value = [0] * (self.rows * self.cols)  # 0, 1, or OPEN
        for x in open_cells:
            self._value[x] = OPEN
        self.open = self._value.count(OPEN)
        self.steps: list[Step] = []
        self.level = 0  # the strongest rule that fixed a cell or derived an equation
        self.eliminated = False  # did elimination fix a cell?
        self.timed_out = False  # did run() stop at its deadline (rules left to apply)?
        self._offsets = _offsets(self.cols)
        self._input = [(name, list(cells), count) for name, cells, count in equations]
        self._masks: list[tuple[str, int, int, int, int]] = []  # or the equations as masks (on_masks)
        # the equations, by number in the order they were made; an equation never changes:
        # fixing one of its cells kills it and adds one without the cell
        self._ar: list[int] = []
        self._ac: list[int] = []
        self._msk: list[int] = []
        self._cnt: list[int] = []
        self._alive: list[bool] = []
        self._label: list[int] = []  # index into _names: the clue or e<k> it stems from
        self._names: list[str] = []
        self._loaded = 0  # equations 0.._loaded-1 are the clues as given (whole)
        self._derived = 0
        self._derived_from: dict[str, tuple[str, str]] = {}  # e<k> -> the two it came from (proof)
        # by anchor (row-major): the live equations anchored there, in the order made (a fix
        # drops the ones it kills); two rows above and two columns left of the grid too, None, so
        # that the boxes around an equation need no clipping: anchor (r, c) is at
        # (r + 2) * _wide + c + 2
        self._wide = self.cols + 2
        self._at: list[list[int] | None] = [None] * ((self.rows + 2) * self._wide)
        self._boxes = _BOXES.setdefault(self._wide, [None] * 512)
        self._key: dict[int, int] = {}  # anchor * 512 + mask -> the live equation on those cells
        self._basic_at = 0  # the first equation the basic rules have not looked at
        self._pair_at = 0  # the first equation the pairwise rules have not looked at
        self._fixed: list[int] = []  # every cell fixed, in order
        self._reduced: _Reduced | None = None
        self._live: list[int] = []  # the live equations when _live_equations last looked
        self._live_end = 0  # ... and how many equations had been made then
        # _groups' groups by number: (cells, equations, the first equation), as arrays
        self._group: dict[int, tuple[np.ndarray, np.ndarray, int]] = {}
        self._group_of: dict[int, int] = {}  # equation -> its group's number
        self._group_at: np.ndarray | None = None  # cell -> its group's number (-1: none), made when first needed
        self._grouped = 0  # how many equations had been made when _groups last looked
        self._next_group = 0
        self._barren: set[frozenset[int]] = set()  # groups elimination last found nothing in (above max_cells)
        self._synced = 0  # how many of _fixed the reduced form has taken in
        self._step_of: dict[int, int] = {}  # cell -> the step (1-based) that fixed it (proof)
        self._prefix = "e"  # derived equations are named e1, e2, ... (s1, ... inside a case split)
        self._split_at: dict[tuple[int, int], int] = {}  # (stage, equation) -> len(_fixed) when its split last gave nothing
        self._fixed_when: np.ndarray | None = None  # each cell's index in _fixed (-1: open), made when first needed
        self._fixed_known = 0  # ... for the first this many of _fixed
        # the ways case splits may still follow, and whether a split was refused for want of them
        self.ways_left = case_budget(self.rows, self.cols)
        self.out_of_ways = False
        self._probe: Callable | None = None

    # -- reading the state -----------------------------------------------------------------
    @property
    def value(self) -> np.ndarray:
        """Each cell's value: 0, 1, or OPEN (a new int8 array)."""
        return np.array(self._value, dtype=np.int8)

    def values(self, cells: list[int]) -> np.ndarray:
        """The values (0, 1 or OPEN) of these cells (row-major indices), as an int8 array: on a
        grid of millions of cells, when few of them were given to trim."""
        return np.fromiter(map(self._value.__getitem__, cells), dtype=np.int8, count=len(cells))

    @property
    def is_done(self) -> bool:
        """Is every cell fixed?"""
        return self.open == 0

    def all_fixed(self, cells) -> bool:
        """Are these cells (row-major indices) all fixed?"""
        return all(self._value[x] >= 0 for x in cells)

    @property
    def grade(self) -> Grade:
        """The grade the rules run so far show: the strongest rule that fixed a cell or derived
        an equation, once every cell is fixed (search while cells are open)."""
        if self.open:
            return Grade.SEARCH
        return GRADES[max(self.level, BASIC)]

    # -- naming (for the proof) ------------------------------------------------------------
    def name(self, cell: int) -> str:
        """Name a cell r<row>c<col>, 1-based (on the whole grid, for a case split's trimmer on
        part of it)."""
        r, c = divmod(cell, self.cols)
        return cell_name(r + self._corner[0], c + self._corner[1])

    def names(self, cells) -> str:
        """Name cells in row-major order, separated by spaces."""
        return " ".join(self.name(c) for c in sorted(cells))

    def _open_cells(self) -> list[int]:
        """The open cells in order, found by list.index (the rules that ask, near the end of a
        game, find a few hundred among a million cells)."""
        value, out, x = self._value, [], -1
        if 8 * self.open > len(value):  # many: one pass is cheaper than a call per cell
            return [x for x, v in enumerate(value) if v == OPEN]
        try:
            while True:
                x = value.index(OPEN, x + 1)
                out.append(x)
        except ValueError:
            return out

    def _cells(self, ar: int, ac: int, mask: int) -> list[int]:
        a = ar * self.cols + ac
        return [a + off for off in self._offsets[mask]]

    def _label_of(self, e: int) -> str:
        """Name equation e in a sentence: 'clue r2c3' or 'e4'."""
        name = self._names[self._label[e]]
        return f"clue {name}" if name.startswith("r") else name

    def _log(self, rule: str, cells, v, sources, text: str, derived: str | None = None) -> None:
        """Record a step that fixed cells (to v, or to the values given per cell)."""
        cells = sorted(cells)
        values = tuple(v) if isinstance(v, (list, tuple)) else (v,) * len(cells)
        rc = tuple(divmod(c, self.cols) for c in cells)
        self.steps.append(Step(rule, rc, values, tuple(sources), text, derived))
        for c in cells:
            self._step_of[c] = len(self.steps)

    def _clash(self, sources, text, kind: str | None = None) -> Contradiction:
        """The contradiction to raise: with the proof, text() names what broke, and a derived
        equation is traced back to the clues it came from, so that the message stands alone."""
        if not self.proof:
            return Contradiction(Step("contradiction", (), (), (), "the clues contradict each other"))
        return Contradiction(Step("contradiction", (), (), tuple(sources), text() + self._origin(sources), kind=kind))

    def _origin(self, names) -> str:
        """' (e3 and e5 from clues r1c1, r1c2, r2c2)' when some of the named equations are
        derived, else ''."""
        derived = sorted((n for n in set(names) if n in self._derived_from), key=_name_key)
        if not derived:
            return ""
        clues: set[str] = set()
        todo = list(names)
        while todo:
            name = todo.pop()
            if name in self._derived_from:
                todo.extend(self._derived_from[name])
            else:
                clues.add(name)
        return f" ({' and '.join(derived)} from clues {_list(clues)})"

    def _broken(self, label: int, ar: int, ac: int, mask: int, count: int, other: int | None = None) -> Contradiction:
        """An equation that cannot hold: a count out of 0..cells, or another equation on the
        same cells asking for another count."""
        if not self.proof:
            return self._clash((), str)
        name = self._names[label]
        cells = self._cells(ar, ac, mask)
        if other is not None:
            oname = self._names[self._label[other]]
            return self._clash((name, oname), lambda: (
                f"{name} and {oname} both speak of {self.names(cells)} but ask for {count} and {self._cnt[other]} mines"))
        if name in self._windows:
            value, window = self._windows[name]
            placed = [x for x in window if self._value[x] == 1]
            where = ", ".join(f"{self.name(x)} ({f'step {self._step_of[x]}' if x in self._step_of else 'given'})" for x in placed)
            if count < 0:
                return self._clash((name,), lambda: (
                    f"clue {name} = {value} is exceeded: {len(placed)} mine(s) around it: {where}"), "too-many")
            free = [x for x in window if self._value[x] == OPEN]
            return self._clash((name,), lambda: (
                f"clue {name} = {value} cannot be met: {len(placed)} mine(s) around it" + (f" ({where})" if placed else "")
                + f" and {len(free)} open cell(s)" + (f" ({self.names(free)})" if free else "")
                + f", {value - len(placed) - len(free)} short"), "too-few")
        if count < 0:
            return self._clash((name,), lambda: f"{name} is exceeded: its cells already hold {-count} mine(s) too many", "too-many")
        return self._clash((name,), lambda: (
            f"{name} cannot be met: it needs {count} more mine(s) but only {len(cells)} cell(s) are open: {self.names(cells)}"), "too-few")

    # -- equations -------------------------------------------------------------------------
    def _add(self, ar: int, ac: int, mask: int, count: int, label: int) -> bool:
        """Add the equation on a mask's cells unless one on the same cells lives; was it new?"""
        if not mask:
            if count:
                raise self._broken(label, ar, ac, mask, count)
            return False
        dr, dc, mask = _NORM[mask]
        ar += dr
        ac += dc
        if count < 0 or count > _POP[mask]:
            raise self._broken(label, ar, ac, mask, count)
        a = ar * self.cols + ac
        e = self._key.get(a * 512 + mask)
        if e is not None:
            if self._cnt[e] != count:
                raise self._broken(label, ar, ac, mask, count, other=e)
            return False
        e = len(self._msk)
        self._ar.append(ar)
        self._ac.append(ac)
        self._msk.append(mask)
        self._cnt.append(count)
        self._alive.append(True)
        self._label.append(label)
        self._key[a * 512 + mask] = e
        b = (ar + 2) * self._wide + ac + 2
        here = self._at[b]
        if here is None:
            self._at[b] = [e]
        else:
            here.append(e)
        return True

    def _add_cells(self, cells, count: int, label: int) -> None:
        """Add the equation on cells given as row-major indices (inside one 3x3 window)."""
        if not cells:
            self._add(0, 0, 0, count, label)
            return
        anchored = _in_window(cells, self.cols)
        if anchored is None:
            raise ValueError(f"an equation's cells must lie in one 3x3 window: {self.names(cells)}")
        self._add(*anchored, count, label)

    def _fix(self, x: int, v: int) -> None:
        """Fix cell x to v (rule: substitute): every equation holding it is replaced by one
        without it. Without the proof, as `_fix_mask` fixes a mask's cells."""
        if not self.proof:
            self._fix_mask(*divmod(x, self.cols), 1, v)
            return
        value = self._value
        if value[x] >= 0:
            if value[x] != v:
                raise self._clash((), lambda: f"{self.name(x)} would have to be both empty and a mine")
            return
        value[x] = v
        self.open -= 1
        self._fixed.append(x)
        cols, at, msk, alive = self.cols, self._at, self._msk, self._alive
        for ar, ac, b, bit in self._boxes_holding(x):
            here = at[b]
            if not here:
                continue
            killed = False
            for e in here:  # an equation added meanwhile lacks the bit
                m = msk[e]
                if m & bit and alive[e]:
                    alive[e] = False
                    killed = True
                    del self._key[(ar * cols + ac) * 512 + m]
                    self._add(ar, ac, m & ~bit, self._cnt[e] - v, self._label[e])
            if killed:  # the pairwise rules walk these lists: most of their steps were dead ones
                at[b] = [e for e in here if alive[e]]

    def _boxes_holding(self, x: int):
        """The boxes that may hold cell x: (anchor row, column, the anchor's index in _at, x's
        bit in the box's mask) each."""
        xr, xc = divmod(x, self.cols)
        wide = self._wide
        for i in range(3):
            ar = xr - i
            if ar < 0:
                break
            for j in range(3):
                ac = xc - j
                if ac < 0:
                    break
                yield ar, ac, (ar + 2) * wide + ac + 2, 1 << (i * 3 + j)

    def recount(self, cells, truth) -> None:
        """The field under these open cells changed (the classic generator moves mines there):
        each live equation holding one of them is replaced by one with the new count, read from
        `truth` (each cell's value, row-major). Every live equation lies on open cells and holds
        on the field, and each is the same sum of clues less fixed cells as before, so the new
        count is the field's sum over its cells: the rules go on as from the clues read again."""
        cols, at, msk, alive, value = self.cols, self._at, self._msk, self._alive, self._value
        hit: dict[int, int] = {}  # equation -> the index of its anchor's list in _at
        for x in cells:
            if value[x] != OPEN:
                raise ValueError(f"{self.name(x)} is fixed: only open cells can change under the equations")
            for _, _, b, bit in self._boxes_holding(x):
                for e in at[b] or ():
                    if alive[e] and msk[e] & bit:
                        hit[e] = b
        for e in hit:
            alive[e] = False
            del self._key[(self._ar[e] * cols + self._ac[e]) * 512 + msk[e]]
        for b in set(hit.values()):
            at[b] = [e for e in at[b] if alive[e]]
        for e in hit:
            a = self._ar[e] * cols + self._ac[e]
            count = sum(int(truth[a + off]) for off in self._offsets[msk[e]])
            self._add(self._ar[e], self._ac[e], msk[e], count, self._label[e])
        self._reduced = None

    def _fix_mask(self, ar: int, ac: int, mask: int, v: int) -> None:
        """Fix the cells of a mask to v. With the proof, one by one (`_fix`), so that the steps
        come in the order a person takes them. Without it, at once: each equation holding some of
        the cells is replaced by one without them, where one at a time made one per cell (a
        quarter of the equations a trim makes). The same cells are fixed either way (the tests
        hold both to trimming by the book); the equations between come in another order."""
        cols, value = self.cols, self._value
        a = ar * cols + ac
        if self.proof:
            for off in self._offsets[mask]:
                self._fix(a + off, v)
            return
        fresh = 0  # the mask's cells still open, as bits of its box
        for off, bit in zip(self._offsets[mask], _BITS[mask]):
            x = a + off
            if value[x] < 0:
                value[x] = v
                self._fixed.append(x)
                fresh |= bit
            elif value[x] != v:
                raise self._clash((), str)  # without the proof the clash is not put in words
        if not fresh:
            return
        self.open -= _POP[fresh]
        at, msk, alive, cnt, label, key = self._at, self._msk, self._alive, self._cnt, self._label, self._key
        dr, dc, fresh = _NORM[fresh]
        ar += dr
        ac += dc
        base = (ar + 2) * self._wide + ac + 2
        for delta, d, br, bc in self._boxes[fresh] or _boxes_of(fresh, self._wide):
            here = at[base + delta]
            if not here:
                continue
            bits = _SHIFT[24 - d][fresh]  # the fixed cells as bits of the box at (ar + br, ac + bc)
            if not bits:
                continue
            killed = False
            for e in here:  # an equation added meanwhile lacks the bits
                m = msk[e]
                hit = m & bits
                if hit and alive[e]:
                    alive[e] = False
                    killed = True
                    pr, pc = ar + br, ac + bc
                    del key[(pr * cols + pc) * 512 + m]
                    self._add(pr, pc, m & ~hit, cnt[e] - v * _POP[hit], label[e])
            if killed:
                at[base + delta] = [e for e in here if alive[e]]

    # -- rules -----------------------------------------------------------------------------
    def _basic(self, e: int) -> None:
        """all-empty or all-mines on equation e (its count is 0 or its number of cells)."""
        ar, ac, mask, count = self._ar[e], self._ac[e], self._msk[e], self._cnt[e]
        v = 0 if count == 0 else 1
        if self.level < BASIC:
            self.level = BASIC
        if self.proof:
            cells = self._cells(ar, ac, mask)
            label, n, shown = self._label_of(e), len(cells), self.names(cells)
            if e < self._loaded and self._names[self._label[e]] not in self._substituted:  # the whole window
                said = "holds no mine" if v == 0 else "is full"
                text = f"{label} = {count}: its window {shown} {said} -> {_all(n, v)}"
            elif e < self._loaded:  # a classic number: its covered neighbours
                said = "hold no mine" if v == 0 else f"hold {count} mine(s)"
                text = f"{label} = {count}: its covered neighbours {shown} {said} -> {_all(n, v)}"
            elif v == 0:
                text = f"{label} has no mine left for {shown} -> {_all(n, 0)}"
            else:
                text = f"{label} still needs {count} mine(s) and has just {n} open cell(s) {shown} -> {_all(n, 1)}"
            self._log("all-empty" if v == 0 else "all-mines", cells, v, (self._names[self._label[e]],), text)
        self._fix_mask(ar, ac, mask, v)

    def rule_basic(self, deadline: float | None = None) -> bool:
        """Apply all-empty and all-mines to every equation not looked at yet (those they make
        too) until none is left; did they fix a cell?"""
        before = self.open
        msk, cnt, alive = self._msk, self._cnt, self._alive
        e = self._basic_at
        while e < len(msk):
            if deadline is not None and e & 4095 == 0 and time.perf_counter() > deadline:
                self._basic_at = e
                self.timed_out = True
                raise TimeUp
            if alive[e] and (cnt[e] == 0 or cnt[e] == _POP[msk[e]]):
                self._basic(e)
            e += 1
        self._basic_at = e
        return self.open < before

    def rule_pairwise(self, deadline: float | None = None) -> bool:
        """Apply subset and overlap (and the basic rules) to their fixpoint; did they fix a cell
        or derive an equation?

        Each equation is looked at once, in the order made: the basic rules, then the pairwise
        rules with every earlier equation sharing a cell with it (a later one meets it when that
        one is looked at: each pair once). An equation never changes (fixing a cell replaces it
        by a new one, looked at in its turn), so a pair gives all it can the first time."""
        before_open, before_made = self.open, self._derived
        msk, cnt, alive = self._msk, self._cnt, self._alive
        e = self._pair_at
        while e < len(msk):
            if not alive[e]:
                e += 1
                continue
            if e & 511 == 0 and deadline is not None and time.perf_counter() > deadline:
                self.timed_out = True
                raise TimeUp
            ce = cnt[e]
            if ce == 0 or ce == _POP[msk[e]]:
                self._basic(e)
            else:
                self._pair(e)
            e += 1
        self._pair_at = self._basic_at = e
        return self.open < before_open or self._derived > before_made

    def _pair(self, e: int) -> None:
        """Compare equation e with every earlier live equation sharing a cell with it, until e
        dies (a later one meets e when that one is looked at, if e still lives: so every two
        equations that live at the end were compared)."""
        msk, cnt, alive, at = self._msk, self._cnt, self._alive, self._at
        overlap = overlap_rule
        er, ec, mine, ce = self._ar[e], self._ac[e], msk[e], cnt[e]
        base = (er + 2) * self._wide + ec + 2
        for delta, d, dr, dc in self._boxes[mine] or _boxes_of(mine, self._wide):
            here = at[base + delta]
            if not here:
                continue
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
                    self._subset(e, f, er + dr, ec + dc, only_f, cf - ce)
                elif not only_f:
                    self._subset(f, e, er, ec, only_e, ce - cf)
                elif ce - cf >= _POP[only_e] or cf - ce >= _POP[only_f] or cf == 0 or cf == _POP[mf]:
                    # overlap: bound the shared mines; fix private parts left no choice. With e's
                    # count strictly between 0 and its cells (else the basic rules took it), the
                    # rule acts exactly when this holds: most pairs skip the call
                    low, high, fix_e, fix_f = overlap(ce, _POP[only_e], _POP[shared], cf, _POP[only_f])
                    self._overlap(f, e, (er + dr, ec + dc, only_f, fix_f), (er, ec, only_e, fix_e), shared, low, high)
                if not alive[e]:
                    return

    def _subset(self, small: int, big: int, ar: int, ac: int, mask: int, count: int) -> None:
        """subset: big's cells outside small's (a mask anchored at ar, ac) hold count mines."""
        if not self.proof:  # no name needed: the label is read for the proof only
            if self._add(ar, ac, mask, count, 0):
                self._derived += 1
                if self.level < ADVANCED:
                    self.level = ADVANCED
                self.rule_basic()
            return
        dr, dc, m = _NORM[mask]
        known = self._key.get(((ar + dr) * self.cols + ac + dc) * 512 + m)
        if known is not None and self._cnt[known] == count:
            return  # an equation we have
        self._derived += 1
        name = f"{self._prefix}{self._derived}"
        label = len(self._names)
        self._names.append(name)
        if self.level < ADVANCED:
            self.level = ADVANCED
        if self.proof:
            sources = (self._names[self._label[small]], self._names[self._label[big]])
            self._derived_from[name] = sources
            s, b = self._label_of(small), self._label_of(big)
            cs, cb = self._cnt[small], self._cnt[big]
            text = (
                f"the open cells of {s} lie inside those of {b}, so the rest, {self.names(self._cells(ar, ac, mask))}, "
                f"hold {cb} - {cs} = {count} mine(s) (call this {name})"
            )
            self.steps.append(Step("subset", (), (), sources, text, name))
        if self._add(ar, ac, mask, count, label):
            self.rule_basic()  # what the new equation gives at once, so the proof reads in order

    def _overlap(self, a: int, b: int, part_a, part_b, shared: int, low: int, high: int) -> None:
        """overlap: a and b share cells (`shared`, a mask of b's box) holding low to high mines;
        each part (anchor row, column, private mask, value or -1) left no choice is fixed."""
        na, nb = self._names[self._label[a]], self._names[self._label[b]]
        br, bc = self._ar[b], self._ac[b]
        if low > high:
            raise self._clash((na, nb), lambda: f"{na} and {nb} would need between {low} and {high} mines in their shared cells")
        if self.level < ADVANCED:
            self.level = ADVANCED
        parts = [(part, e) for part, e in ((part_a, a), (part_b, b)) if part[3] >= 0]
        if self.proof:  # both follow from the same bounds: log both, then fix
            la, lb = self._label_of(a), self._label_of(b)
            ca, cb = self._cnt[a], self._cnt[b]
            oa, ob, n_shared = _POP[part_a[2]], _POP[part_b[2]], _POP[shared]
            for (ar, ac, mask, v), e in parts:
                only = self._cells(ar, ac, mask)
                what = "no mine" if v == 0 else f"all {len(only)} mine(s)"
                mine, other = (la, lb) if e == a else (lb, la)
                c_mine, c_other, o_other = (ca, cb, ob) if e == a else (cb, ca, oa)
                if v == 0:  # the shared cells hold at least what the other needs beyond its own cells
                    why = (f"at least {low}, as {other} needs {c_other} and has {o_other} cell(s) of its own; "
                           f"that is all {mine} needs")
                else:  # at most what the other holds (or the shared cells' number)
                    cap = f"{other} needs only {c_other}" if high == c_other else f"they are {n_shared} cell(s)"
                    why = f"at most {high}, as {cap}; {mine} needs {c_mine}, {c_mine - high} more than that"
                text = (f"{la} and {lb} share {self.names(self._cells(br, bc, shared))}, which hold {why}; "
                        f"so {self.names(only)}, seen only by {self._label_of(e)}, hold {what} -> {_all(len(only), v)}")
                self._log("overlap", only, v, (na, nb), text)
        for (ar, ac, mask, v), _ in parts:
            self._fix_mask(ar, ac, mask, v)
        self.rule_basic()

    def rule_elimination(self, deadline: float | None = None) -> bool:
        """Eliminate exactly within each connected group of open equations (up to max_cells open
        cells) and bound every row; did that fix a cell? The reduced form is kept from round to
        round, with the cells fixed since substituted: it is unique, so it is the one a fresh
        elimination would give."""
        if self.open <= self.max_cells:
            if self._reduced is None:
                rows = self._live_rows()
                if self.mines is not None:  # the total is one more row, over every open cell
                    open_cells = self._open_cells()
                    placed = self._value.count(1)
                    rows.append((dict.fromkeys(open_cells, 1), self.mines - placed, ("the total",) if self.proof else ()))
                self._reduced = _Reduced(rows, deadline)
            else:
                self._reduced.substitute({c: self._value[c] for c in self._fixed[self._synced :]})
            self._synced = len(self._fixed)
            bounded = self._reduced.bound_changed()
        else:  # some groups may be small enough: each from scratch (this is rare and large)
            bounded, barren = [], set()
            for cells, eqs in self._groups():
                # (one equation alone bounds its cells only as the single-clue rule does, and
                # that rule has run: elimination comes after it finds nothing)
                if len(cells) <= self.max_cells and len(eqs) > 1:
                    # an equation never changes, so a group of the same equations gives nothing again
                    eqs = eqs.tolist()
                    key = frozenset(eqs)
                    if key in self._barren:
                        barren.add(key)
                        continue
                    found = _Reduced(self._live_rows(eqs), deadline).bound_changed()
                    if not found:
                        barren.add(key)
                    bounded += found
            self._barren = barren
        found: dict[int, int] = {}
        for coefs, rhs, sources, fixed in bounded:
            if fixed is None:
                names = _sorted_names(sources)
                combination = self._combination(names, coefs, rhs)
                step = self._clash(names, lambda: (
                    f"{self._combined(combination, sources)} gives {self.show(coefs, rhs)}, which 0/1 cells cannot meet: "
                    f"{_range(coefs, rhs)}"))
                if self.proof:
                    step = Contradiction(Step("contradiction", (), (), names, step.step.text, combination=combination,
                                              equation=self._row(coefs, rhs)))
                raise step
            fixed = {c: v for c, v in fixed.items() if self._value[c] < 0 and found.get(c) != v}
            if not fixed:
                continue
            for c, v in fixed.items():
                if c in found:
                    raise self._clash(_sorted_names(sources), lambda: (
                        f"combining {_list(sources)} gives {self.show(coefs, rhs)}, "
                        f"so {self.name(c)} would have to be both empty and a mine"))
            found.update(fixed)
            if self.proof:
                cells = sorted(fixed)
                names = _sorted_names(sources)
                if any(c in found for c in coefs):  # an earlier step of this round fixed some: the row as a reader has it
                    rhs = rhs - sum(a * found[c] for c, a in coefs.items() if c in found and c not in fixed)
                    coefs = {c: a for c, a in coefs.items() if c not in found or c in fixed}
                combination = self._combination(names, coefs, rhs, {c: v for c, v in found.items() if c not in fixed})
                shown = ", ".join(f"{self.name(c)} = {fixed[c]}" for c in cells)
                text = (f"{self._combined(combination, sources)} gives {self.show(coefs, rhs)}; {_range(coefs, rhs)}, "
                        f"so {shown}")
                self._log("elimination", cells, [fixed[c] for c in cells], names, text)
                step = self.steps[-1]
                self.steps[-1] = Step(step.rule, step.cells, step.values, step.sources, step.text, combination=combination,
                                      equation=self._row(coefs, rhs))
        for c, v in sorted(found.items()):  # in cell order, whatever order the rows came in
            self._fix(c, v)
        if found:
            self.level = ELIMINATION
            self.eliminated = True
        return bool(found)

    def _live_rows(self, keep=None):
        """The live equations (of `keep` only, if given) as elimination's rows ({cell: 1},
        count, names: with the proof only), in the order made."""
        msk, names, label, cols, offsets = self._msk, self._names, self._label, self.cols, self._offsets
        chosen = self._live_equations() if keep is None else sorted(keep)
        rows = []
        for e in chosen:
            a = self._ar[e] * cols + self._ac[e]
            rows.append(({a + off: 1 for off in offsets[msk[e]]}, self._cnt[e], (names[label[e]],) if self.proof else ()))
        return rows

    def _live_equations(self) -> list[int]:
        """The live equations, in the order made. The list is kept from call to call, so that a
        call looks at those live last time and those made since, not at every equation ever made
        (a player the generator keeps across perturbations makes hundreds of thousands)."""
        alive = self._alive
        live = [e for e in self._live if alive[e]]
        live += [e for e in range(self._live_end, len(alive)) if alive[e]]
        self._live, self._live_end = live, len(alive)
        return live

    def _groups(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """The connected groups of live equations (sharing cells): (cells, equations) each, as
        arrays, in the order of their first equations. Kept from call to call: only the groups
        that lost an equation or share a cell with a new one are joined again (a few of hundreds,
        between two calls of a game's player); many equations to join again (a puzzle's one
        large group, after each case split) are joined at once (`_joined`). Which group holds a
        cell is a grid, so that a large group is taken apart and put back in numpy."""
        alive, groups, group_of = self._alive, self._group, self._group_of
        if self._group_at is None:
            self._group_at = np.full(self.rows * self.cols, -1, dtype=np.int32)
        group_at = self._group_at
        new = [e for e in range(self._grouped, len(alive)) if alive[e]]
        self._grouped = len(alive)
        redo = {g for e, g in group_of.items() if not alive[e]}
        cells_of = {}
        if groups or len(new) < JOIN_AT_ONCE:  # (with no group yet, none is joined again)
            cells_of = {e: self._cells(self._ar[e], self._ac[e], self._msk[e]) for e in new}
        if cells_of:
            hit = group_at[[x for cells in cells_of.values() for x in cells]]
            redo.update(hit[hit >= 0].tolist())
        again = []  # the live equations of the groups joined again
        for g in redo:
            cells, eqs, _ = groups.pop(g)
            group_at[cells] = -1
            for e in eqs.tolist():
                del group_of[e]
                if alive[e]:
                    again.append(e)
        if len(new) + len(again) >= JOIN_AT_ONCE:
            made = self._joined([*new, *again])
        else:
            for e in again:
                cells_of[e] = self._cells(self._ar[e], self._ac[e], self._msk[e])
            joined = model.Groups()
            for cells in cells_of.values():
                joined.join(cells)
            by_root: dict[int, tuple[set[int], list[int]]] = {}
            for e, cells in cells_of.items():
                cells_here, eqs = by_root.setdefault(joined.find(cells[0]), (set(), []))
                cells_here.update(cells)
                eqs.append(e)
            made = [(np.fromiter(cells, np.int64, len(cells)), np.array(eqs, dtype=np.int64)) for cells, eqs in by_root.values()]
        for cells, eqs in made:
            g = self._next_group
            self._next_group += 1
            groups[g] = (cells, eqs, int(eqs.min()))
            group_at[cells] = g
            group_of.update(dict.fromkeys(eqs.tolist(), g))
        return [(cells, eqs) for cells, eqs, _ in sorted(groups.values(), key=lambda group: group[2])]

    def _joined(self, equations: list[int]) -> list[tuple[np.ndarray, np.ndarray]]:
        """The groups of these equations (sharing cells) as (cells, equations), arrays, joined at
        once (`model.components`): the same groups as `model.Groups` joining them one by one."""
        ar, ac, msk, cols = self._ar, self._ac, self._msk, self.cols
        anchor = np.array([ar[e] * cols + ac[e] for e in equations], dtype=np.int64)
        bits = (np.array([msk[e] for e in equations], dtype=np.int64)[:, None] >> np.arange(9)) & 1
        owner, k = np.nonzero(bits)
        cell = anchor[owner] + (k // 3) * cols + k % 3
        label = model.components(owner, cell, len(equations))
        eqs = np.array(equations, dtype=np.int64)
        by_eq = np.argsort(label, kind="stable")
        eq_cuts = np.flatnonzero(np.diff(label[by_eq])) + 1
        # each cell once, by group
        cells = self.rows * cols
        pair_label, pair_cell = np.divmod(np.unique(label[owner] * cells + cell), cells)
        cell_cuts = np.flatnonzero(np.diff(pair_label)) + 1
        return list(zip(np.split(pair_cell, cell_cuts), np.split(eqs[by_eq], eq_cuts)))

    def _combination(self, names, coefs: dict[int, int], rhs: int, known: dict[int, int] | None = None
                     ) -> tuple[tuple[int, str], ...]:
        """Integer multipliers of the named equations (as they stand: fixed cells substituted)
        whose sum is a multiple of the row (coefs, rhs): what a person adds up to check the row.
        Solved after the fact, exactly, over the few equations the row came from; () if some
        equation is no longer live (all its cells fixed: it adds nothing)."""
        live = {}
        for e in self._live_equations():  # not every equation ever made: hundreds of thousands on a large grid
            live[self._names[self._label[e]]] = e
        total = "the total" in names
        names = [n for n in names if n in live]
        columns = []  # per equation: {cell: 1}, count
        for n in names:
            e = live[n]
            columns.append((dict.fromkeys(self._cells(self._ar[e], self._ac[e], self._msk[e]), 1), self._cnt[e]))
        if total:
            open_cells = self._open_cells()
            placed = self._value.count(1)
            names.append("the total")
            columns.append((dict.fromkeys(open_cells, 1), self.mines - placed))
        if known:  # cells fixed by an earlier step of this round: out of every equation, as a reader has them
            columns = [({x: 1 for x in col if x not in known}, count - sum(known[x] for x in col if x in known))
                       for col, count in columns]
        g = gcd(*coefs.values(), rhs) if coefs else 1
        solved = _solve_combination(columns, {c: a // g for c, a in coefs.items()}, rhs // g)
        if solved is None:
            return ()
        lam, m = solved
        return tuple((k, n) for k, n in zip(lam, names) if k) + (((m, "x"),) if m != 1 else ())

    def _row(self, coefs: dict[int, int], rhs: int) -> tuple:
        """A row in lowest terms, cells by name: (((coefficient, 'r1c2'), ...), right side)."""
        g = gcd(*coefs.values(), rhs) if coefs else 1
        return tuple((a // g, self.name(c)) for c, a in sorted(coefs.items())), rhs // g

    def _combined(self, combination, sources) -> str:
        """'adding 2 x clue r1c1 - clue r1c3 + e5' (the clues as they stand, fixed cells
        substituted), or the sources listed when no multipliers are known."""
        if not combination:
            return f"combining {_list(sources)}"
        parts = []
        for k, name in combination:
            if name == "x":
                continue
            label = f"clue {name}" if _is_clue(name) else name
            mag = "" if abs(k) == 1 else f"{abs(k)} x "
            parts.append(("- " if k < 0 else "+ ") + mag + label)
        text = " ".join(parts)
        text = "adding " + (text[2:] if text.startswith("+ ") else "-" + text[2:])
        m = next((k for k, name in combination if name == "x"), 1)
        return text + (f" (then dividing by {m})" if m != 1 else "")

    def show(self, coefs: dict[int, int], rhs: int) -> str:
        """Write a linear equation over cells in lowest terms, e.g. 'r2c2 - r3c5 = 1'."""
        g = gcd(*coefs.values(), rhs) if coefs else 1
        if g > 1:
            coefs, rhs = {c: a // g for c, a in coefs.items()}, rhs // g
        terms = []
        for c in sorted(coefs):
            a = coefs[c]
            sign = "-" if a < 0 else "+"
            mag = "" if abs(a) == 1 else f"{abs(a)} "
            terms.append(f"{sign} {mag}{self.name(c)}")
        text = " ".join(terms).removeprefix("+ ")
        if text.startswith("- "):
            text = "-" + text[2:]
        return f"{text or '0'} = {rhs}"

    # -- driver ----------------------------------------------------------------------------
    def load(self, deadline: float | None = None) -> None:
        """Add one equation per clue (raises Contradiction for a clue its window cannot hold,
        TimeUp at the deadline)."""
        for i, (name, cells, count) in enumerate(self._input):
            if deadline is not None and i & 4095 == 0 and time.perf_counter() > deadline:
                self.timed_out = True
                raise TimeUp
            self._names.append(name)
            self._add_cells(cells, count, len(self._names) - 1)
        for i, (name, ar, ac, mask, count) in enumerate(self._masks):
            if deadline is not None and i & 4095 == 0 and time.perf_counter() > deadline:
                self.timed_out = True
                raise TimeUp
            self._names.append(name)
            self._add(ar, ac, mask, count, len(self._names) - 1)
        self._loaded = len(self._msk)

    def run(self, deadline: float | None = None) -> None:
        """Apply the rules, weakest first, until every cell is fixed or nothing applies: the
        basic rules to a standstill, then the pairwise rules to their fixpoint, then a round of
        elimination, and again from the basic rules on what it fixed. So the strongest rule in
        the trace is the one the puzzle needs. At the deadline: TimeUp, with timed_out set."""
        try:
            self.rule_basic(deadline)
            while self.open:
                self.rule_pairwise(deadline)
                if not self.open:
                    break
                if deadline is not None and time.perf_counter() > deadline:
                    raise TimeUp
                if not (self.rule_total() or self.rule_count() or self.rule_elimination(deadline)
                        or (self.cases and self.rule_cases(deadline))):
                    break
                self.rule_basic(deadline)
            self.rule_total()  # with every cell fixed: the total must hold
        except TimeUp:
            self.timed_out = True
            raise

    def rule_total(self) -> bool:
        """The total number of mines, if given (endoh1's final rule): no mine left leaves every
        open cell empty, as many mines left as open cells fills them all; with every cell fixed,
        the count must be the total. Did it fix a cell?"""
        if self.mines is None:
            return False
        placed = self._value.count(1)
        left = self.mines - placed
        if left < 0 or left > self.open:
            raise self._clash(("the total",), lambda: (
                f"the board holds {self.mines} mines in all, but {placed} are placed and {self.open} cell(s) are open"))
        if not self.open or 0 < left < self.open:
            return False
        v = 1 if left else 0
        cells = self._open_cells()
        if self.level < BASIC:
            self.level = BASIC
        if self.proof:
            what = "no mine is left" if v == 0 else f"{left} mine(s) are left for as many open cells"
            text = (f"the board holds {self.mines} mines in all and {placed} are placed: {what} -> "
                    f"{self.names(cells) if len(cells) <= 12 else f'{len(cells)} cells'} {_all(len(cells), v)}")
            self._log("total", cells, v, ("the total",), text)
        for x in cells:
            self._fix(x, v)
        return True

    def rule_count(self) -> bool:
        """mine-count, with the total: equations that share no cell hold the sum of their counts,
        so the other open cells hold what the total leaves. Two packings are tried, one with
        the most mines (the rest may then hold none) and one with the most empty cells (the rest
        may then be all mines); each is the most there is (`_packing`), as Tatham's solver tries
        every union of disjoint sets. Did it fix a cell?"""
        if self.mines is None or not self.open:
            return False
        msk, cnt = self._msk, self._cnt
        live = [e for e in range(len(msk)) if self._alive[e]]
        if not live:
            return False  # the total alone: rule_total
        placed = self._value.count(1)
        left = self.mines - placed
        cells_of = [self._cells(self._ar[e], self._ac[e], msk[e]) for e in live]
        seen = {x for cells in cells_of for x in cells}
        for v in (0, 1):
            # the packing with the most mines (v = 0) or the most empty cells, if it may be enough
            weights = [cnt[e] if v == 0 else _POP[msk[e]] - cnt[e] for e in live]
            picked = _packing(cells_of, weights, left if v == 0 else self.open - left)
            if picked is None:
                continue
            chosen = [live[i] for i in picked]
            used = {x for i in picked for x in cells_of[i]}
            held = sum(cnt[e] for e in chosen)
            rest = [x for x in self._open_cells() if x not in used]
            if not rest:
                continue
            names = tuple(self._names[self._label[e]] for e in chosen) if self.proof else ()

            def told() -> tuple[str, str, str]:  # the proof's words: only on the rare events
                labels = [self._label_of(e) for e in sorted(chosen)]
                unseen = sum(1 for x in rest if x not in seen)
                packed = f"{labels[0]} holds {held}" if len(labels) == 1 else f"{_list(labels)} share no cell and hold {held}"
                others = (f"the other {len(rest)} open cell(s) ("
                          + (self.names(rest) if len(rest) <= 12 else f"{len(rest)} cells")
                          + (f"; {unseen} seen by no number" if unseen else "") + ")")
                return f"the board holds {self.mines} mines and {placed} are placed, so {left} are left", packed, others

            if not 0 <= left - held <= len(rest):
                raise self._clash(("the total", *names), lambda: "{0}; {1}, which leaves {3} for {2}".format(*told(), left - held))
            if left - held != (0 if v == 0 else len(rest)):
                continue
            if self.level < ADVANCED:
                self.level = ADVANCED
            if self.proof:
                start, packed, others = told()
                what = "none" if v == 0 else f"all {len(rest)}"
                text = f"{start} for the {self.open} open cells; {packed}, so {others} hold {what} -> {_all(len(rest), v)}"
                self._log("mine-count", rest, v, ("the total", *names), text)
            for x in rest:
                self._fix(x, v)
            return True
        return False

    def rule_cases(self, deadline: float | None = None) -> bool:
        """case-split: for one equation at a time, follow every way to meet it (the basic and
        pairwise rules on the equations around it); when the ways that do not end in a
        contradiction fix a cell alike, fix it (and when none is left, the clues clash). The
        stages of CASE_STAGES in turn, the next only when one gives nothing. The equations not yet
        split at the stage first, then those that gave nothing, each only once a cell near it is
        fixed; fewest ways first within each. Did it fix a cell?"""
        msk, cnt = self._msk, self._cnt
        for stage, (most, reach) in enumerate(CASE_STAGES):
            # a split tried again after a fix near it seldom gives more, and the later it comes
            # the more fixes near it count at once: the first tries go first
            tries = sorted(((stage, e) in self._split_at, ways, not _is_clue(self._names[self._label[e]]), e)
                           for e in range(len(msk)) if self._alive[e] and (ways := comb(_POP[msk[e]], cnt[e])) <= most)
            for _, ways, _, e in tries:
                if ways > self.ways_left:
                    self.out_of_ways = True
                    return False
                if deadline is not None and time.perf_counter() > deadline:
                    self.timed_out = True
                    raise TimeUp
                since = self._split_at.get((stage, e))
                if since is not None and not self._fixed_near(self._ar[e], self._ac[e], reach + 2, since):
                    continue  # nothing near it changed since it gave nothing
                if self._split(e, reach, proof=False) and (not self.proof or self._split(e, reach, proof=True)):
                    return True
                self._split_at[stage, e] = len(self._fixed)
        return False

    def _fixed_near(self, ar: int, ac: int, d: int, since: int) -> bool:
        """Is a cell at most d rows and d columns from (ar, ac) among those fixed from index
        `since` of _fixed on? The cells fixed since, when they are fewer than the square's cells;
        else the latest fix in the square, from a grid of when each cell was fixed (on a large
        puzzle most tries come after thousands of fixes, and scanning them for each was most of
        explain's time, and then looking each of the square's cells up in a dict)."""
        fixed, cols = self._fixed, self.cols
        if len(fixed) - since <= (2 * d + 1) ** 2:
            return any(abs(x // cols - ar) <= d and abs(x % cols - ac) <= d for x in fixed[since:])
        if self._fixed_when is None:
            self._fixed_when = np.full((self.rows, cols), -1, dtype=np.int32)
        if self._fixed_known < len(fixed):  # (brought up to date here only: fixing a cell stays as cheap)
            new = np.array(fixed[self._fixed_known:], dtype=np.int64)
            self._fixed_when.flat[new] = np.arange(self._fixed_known, len(fixed))
            self._fixed_known = len(fixed)
        square = self._fixed_when[max(0, ar - d) : max(0, ar + d + 1), max(0, ac - d) : max(0, ac + d + 1)]
        return bool(square.size) and int(square.max()) >= since

    def _split(self, e: int, reach: int, proof: bool) -> bool:
        """Split on equation e's ways, following them on the equations anchored up to `reach`
        rows and columns around it (see rule_cases); did that fix a cell? Without the proof it
        only tells, fixing nothing (unless every way fails: then it raises Contradiction), and
        the split_probe, if any, follows the ways in this loop's place."""
        ar, ac, cols = self._ar[e], self._ac[e], self.cols
        cells = self._cells(ar, ac, self._msk[e])
        around = []  # the live equations anchored near e, e first
        for r in range(max(0, ar - reach), min(self.rows, ar + reach + 1)):
            for c in range(max(0, ac - reach), min(cols, ac + reach + 1)):
                around += [f for f in self._at[(r + 2) * self._wide + c + 2] or () if self._alive[f] and f != e]
        near = [e, *sorted(around)]
        anchors, masks = [self._ar[f] for f in near], [self._msk[f] for f in near]
        region = sorted({x for f in near for x in self._cells(self._ar[f], self._ac[f], self._msk[f])})
        # each way is followed on the region's bounding box alone (a trimmer over the whole grid
        # made and counted a list of every cell per way: most of explain's time on a large sparse
        # status); its steps name the cells as on the grid. A mask starts in its anchor's row and
        # column, so the box starts at the least anchor row and column
        r0, c0 = min(anchors), min(self._ac[f] for f in near)
        wide = max(self._ac[f] + _WIDTH[m] for f, m in zip(near, masks)) - c0
        local = {x: (x // cols - r0) * wide + x % cols - c0 for x in region}
        box = (max(r + _HEIGHT[m] for r, m in zip(anchors, masks)) - r0, wide)
        open_here = [local[x] for x in region]
        # the equations as masks on the box (the same masks, anchored on it), made once for every way
        rows = [(self._names[self._label[f]], self._ar[f] - r0, self._ac[f] - c0, self._msk[f], self._cnt[f]) for f in near]
        cases, held = [], 0  # the ways followed; how many of them hold
        alike: dict[int, int] = {}  # open cell -> the value every way that holds gave it alike
        probed = None
        if not proof and self._probe is not None:  # (every cell of a live equation is open: all are watched)
            probed = self._probe(box, rows, open_here, [local[x] for x in cells], self._cnt[e])
        if probed is not None:  # the same loop, compiled: it says what held, not how
            followed, held, same = probed
            self.ways_left -= followed
            if same:
                on_grid = {i: x for x, i in local.items()}
                alike = {on_grid[i]: v for i, v in same.items()}
        for way in () if probed is not None else combinations(cells, self._cnt[e]):
            if held >= 2 and not alike:
                return False  # two ways that hold already disagree on every cell: nothing to fix
            if not proof:  # the budget counts the ways followed (rule_cases saw that all of them fit)
                self.ways_left -= 1
            sub = Trimmer.on_masks(box, open_here, rows, proof=proof)
            sub._corner = (self._corner[0] + r0, self._corner[1] + c0)
            sub._prefix = "s"
            mines = set(way)
            record = {"mines": [self.name(x) for x in way], "empty": [self.name(x) for x in cells if x not in mines]}
            try:
                sub.load()
                sub._loaded = 0  # its equations are this one's as they stand: say what is left of them
                for x in cells:
                    sub._fix(local[x], 1 if x in mines else 0)
                sub.run_pairwise()
            except Contradiction as stop:
                sub.steps.append(stop.step)
                record.update(outcome="fails", steps=[step.text for step in sub.steps])
            else:
                record.update(outcome="holds", steps=[step.text for step in sub.steps])
                if held:
                    alike = {x: v for x, v in alike.items() if sub._value[local[x]] == v}
                else:
                    alike = {x: v for x in region if self._value[x] == OPEN and (v := sub._value[local[x]]) >= 0}
                held += 1
            cases.append(record)
        name = self._names[self._label[e]]
        ways = f"{self._label_of(e)} = {self._cnt[e]} among {self.names(cells)} ({len(cases)} ways)"

        def told(chains_held: bool) -> str:
            parts = []
            for case in cases:
                mines = " ".join(case["mines"])
                what = f"if {mines} {'is the mine' if len(case['mines']) == 1 else 'are the mines'}"
                if case["outcome"] == "fails":
                    parts.append(f"{what}: {'; '.join(case['steps'])}: impossible")
                elif chains_held and case["steps"]:
                    parts.append(f"{what}: {'; '.join(case['steps'])}: possible")
                else:
                    parts.append(f"{what}: possible")
            return ". ".join(parts)

        if not held:
            if self.proof and not proof:
                return True  # to be told with the proof
            step = self._clash((name,), lambda: f"every way to meet {ways} fails. {told(False)}")
            if self.proof:
                step = Contradiction(Step("contradiction", (), (), (name,), step.step.text, cases=tuple(cases)))
            raise step
        # the split equation's own cells first: they need only the failed ways' chains; cells
        # beyond it, fixed alike by every way left, need those ways' chains too
        found = {x: v for x, v in alike.items() if x in cells} or alike
        if not found or (self.proof and not proof):
            return bool(found)
        self.level = max(self.level, SEARCH)
        if self.proof:
            order = sorted(found)
            shown = ", ".join(f"{self.name(x)} = {found[x]}" for x in order)
            beyond = any(x not in cells for x in found)
            kept = "the one way left" if held == 1 else f"each of the {held} ways left"
            text = f"split {ways}. {told(beyond)}. So {kept} gives {shown}"
            self.steps.append(Step("case-split", tuple(divmod(x, cols) for x in order), tuple(found[x] for x in order),
                                   (name,), text, cases=tuple(cases)))
        for x in sorted(found):
            self._fix(x, found[x])
        return True

    def run_pairwise(self) -> None:
        """The basic and pairwise rules alone, to their fixpoint (no elimination), once loaded."""
        self.rule_basic()
        self.rule_pairwise()

    def fixes_all(self, deadline: float | None = None) -> bool:
        """Load and run; does trimming fix every cell (False on a contradiction)?"""
        try:
            self.load()
            self.run(deadline)
        except Contradiction:
            return False
        return self.is_done


class _Reduced:
    """A reduced row echelon form of 0/1 equations, kept reduced as cells are fixed. Each row is
    {cell: coefficient}, a right side and its sources (a bit mask over `names`). A row that only
    loses cells is not rescaled as `_eliminate` scales rows: bounds do not depend on a row's
    scale. (An index of the rows holding each cell, so that fixing a cell or moving a pivot would
    look at those rows only, saved nothing measurable at 50x50: keeping it up to date costs what
    it saves.)"""

    def __init__(self, rows, deadline: float | None = None):
        self.rows: list[dict[int, int]] = []
        self.rhs: list[int] = []
        self.src: list[int] = []
        self.pivot: list[int] = []
        self.names: list[str] = []
        for coefs, rhs, sources in _eliminate(rows, deadline):
            self.rows.append(dict(coefs))
            self.rhs.append(rhs)
            self.src.append(sources.mask)
            self.names = sources.names
            self.pivot.append(min(coefs) if coefs else -1)
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
                    self.rows[i], self.rhs[i], self.src[i] = _combine(
                        row, self.rhs[i], self.src[i], (self.rows[r], self.rhs[r], self.src[r]), new)
                    self.changed.add(i)

    def bound_changed(self) -> list:
        """Bound the rows changed since the last call; for each that fixes a cell or cannot hold:
        (coefficients, right side, sources, the cells it fixes or None if 0/1 cells cannot meet it)."""
        out = []
        for i in sorted(self.changed):
            fixed = _bound(self.rows[i], self.rhs[i])
            if fixed != {}:  # most rows fix nothing
                out.append((self.rows[i], self.rhs[i], _Sources(self.src[i], self.names), fixed))
        self.changed.clear()
        return out


#: Work of `_packing`'s search in one call (candidates looked at); past it a group's packing is
#: taken greedily.
PACKING_WORK = 50_000


def _packing(cells_of: list[list[int]], weights: list[int], target: int,
             work: int = PACKING_WORK) -> list[int] | None:
    """Sets (cells_of[i], each weighing weights[i] > 0) that share no cell, of the most weight in
    all: their indices, or None when no such packing can weigh target (nothing to fix then; a
    packing never weighs more, or the clues clash). Sets that share cells form groups, each packed
    on its own (`_pack_group`); each group's bound gives each cell at most its sets' weight per
    cell, and the search stops once the bounds cannot reach target. A group whose search passes
    `work` (all groups share it) is packed greedily, heaviest first: a packing all the same, so
    the rule stays sound, only weaker."""
    joined = model.Groups()
    for cells in cells_of:
        joined.join(cells)
    groups: dict[int, list[int]] = {}
    for i, cells in enumerate(cells_of):
        groups.setdefault(joined.find(cells[0]), []).append(i)
    share: dict[int, float] = {}
    for i, cells in enumerate(cells_of):
        w = weights[i] / len(cells)
        for x in cells:
            if share.get(x, 0.0) < w:
                share[x] = w
    bounds = {g: min(sum(weights[i] for i in members),
                     int(sum(share[x] for x in {x for i in members for x in cells_of[i]}) + 1e-9))
              for g, members in groups.items()}
    everything = sum(bounds.values())
    if everything < target:
        return None
    picked: list[int] = []
    budget = [work]
    for g, members in sorted(groups.items(), key=lambda item: len(item[1])):  # small groups first
        best = _pack_group(members, cells_of, weights, bounds[g], target - (everything - bounds[g]), budget)
        if best is None:
            return None
        everything += sum(weights[i] for i in best) - bounds[g]
        picked.extend(best)
    return sorted(picked)


def _pack_group(members: list[int], cells_of: list[list[int]], weights: list[int], bound: int,
                need: int, budget: list[int]) -> list[int] | None:
    """The heaviest packing of one group of sets (see `_packing`), or None if it weighs less than
    need. Branch and bound: a set is in, or out; before each branch, a candidate set is taken
    when no better packing leaves it out (it clashes with no other candidate, or its clashing
    candidates all clash with each other and weigh no more than it: a chain of windows along a
    frontier is packed without a branch). Exact while budget[0] lasts (spent here, a unit per
    candidate looked at), else the better of the greedy packing (heaviest first) and the best
    found; a greedy packing is never None."""
    order = sorted(members, key=lambda i: (-weights[i], len(cells_of[i]), i))
    if len(order) == 1:
        return order if weights[order[0]] >= need else None
    k = len(order)
    w = [weights[i] for i in order]
    holders: dict[int, int] = {}  # each cell: the sets that hold it, as bits
    for a, i in enumerate(order):
        for x in cells_of[i]:
            holders[x] = holders.get(x, 0) | 1 << a
    clash = [0] * k
    for a, i in enumerate(order):
        for x in cells_of[i]:
            clash[a] |= holders[x]
        clash[a] &= ~(1 << a)
    best_value, best = need - 1, None

    def bits(m: int):
        while m:
            low = m & -m
            yield low.bit_length() - 1
            m ^= low

    def search(cand: int, value: int, taken: int) -> None:
        nonlocal best_value, best
        todo = list(bits(cand))
        budget[0] -= len(todo)
        if budget[0] < 0:
            raise _Spent
        while todo:
            a = todo.pop()
            if not cand >> a & 1:
                continue
            near = clash[a] & cand
            if near and (any(w[b] > w[a] or near & ~clash[b] & ~(1 << b) for b in bits(near))):
                continue
            value += w[a]
            taken |= 1 << a
            cand &= ~(near | 1 << a)
            for b in bits(near):
                todo.extend(bits(clash[b] & cand))
        if not cand:
            if value > best_value:
                best_value, best = value, taken
            return
        if value + sum(w[a] for a in bits(cand)) <= best_value:
            return
        a = max(bits(cand), key=lambda a: ((clash[a] & cand).bit_count(), w[a]))  # the most clashes
        search(cand & ~clash[a] & ~(1 << a), value + w[a], taken | 1 << a)
        if best_value < bound:
            search(cand & ~(1 << a), value, taken)

    try:
        search((1 << k) - 1, 0, 0)
    except _Spent:
        greedy = 0
        for a in range(k):
            if not clash[a] & greedy:
                greedy |= 1 << a
        if best is None or sum(w[a] for a in bits(greedy)) > best_value:
            best = greedy
    return None if best is None else [order[a] for a in range(k) if best >> a & 1]


class _Spent(Exception):
    """`_packing`'s work is spent."""


def _all(n: int, v: int) -> str:
    """Say that n cells are all empty (v = 0) or all mines (v = 1)."""
    if n == 1:
        return "empty" if v == 0 else "a mine"
    what = "empty" if v == 0 else "mines"
    return {2: f"both {what}", 3: f"all three {what}", 4: f"all four {what}"}.get(n, f"all {n} {what}")


def _list(names, most: int = 8) -> str:
    names = sorted(names, key=_name_key)
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def _name_key(name: str):
    """Clues in reading order (r2c10 after r2c9), then e1, e2, ..., then any other label."""
    if name[:1] == "r" and name[1:].replace("c", "", 1).isdigit() and "c" in name:
        r, c = name[1:].split("c")
        return (0, int(r), int(c), "")
    if name[:1] == "e" and name[1:].isdigit():
        return (1, int(name[1:]), 0, "")
    return (2, 0, 0, name)


def _sorted_names(names) -> tuple[str, ...]:
    return tuple(sorted(names, key=_name_key))


def _eliminate(rows, deadline: float | None = None):
    """Return the rows in reduced row echelon form, by exact fraction-free elimination (integers only).

    Forward elimination (each new row loses the pivots it leads with, until it leads with a new
    cell), then back substitution from the last pivot to the first. The result is the unique
    reduced form (rows scaled to coprime integers, leading coefficient positive), the same as
    Gauss-Jordan's, in the same order, with half the work on 30x30 puzzles: Gauss-Jordan cleared
    each new pivot from every earlier row at once, filling them with cells that later pivots
    clear again. Each row keeps the names of the clues combined into it.
    """
    # each row's sources as a bit mask over the names: a union is one integer "or" where a set
    # union cost its size (a fifth of the whole elimination on 50x50 puzzles); decoded on demand
    names: list[str] = []
    bit: dict[str, int] = {}

    def mask(src) -> int:
        m = 0
        for name in src:
            if name not in bit:
                bit[name] = len(names)
                names.append(name)
            m |= 1 << bit[name]
        return m

    rows = [(dict(coefs), rhs, mask(src)) for coefs, rhs, src in rows]
    reduced = []
    pivots: dict[int, int] = {}  # cell -> index in reduced
    for i, (coefs, rhs, src) in enumerate(rows):
        if deadline is not None and i & 63 == 0 and time.perf_counter() > deadline:
            raise TimeUp
        while coefs:
            lead = min(coefs)
            if lead not in pivots:
                break
            coefs, rhs, src = _combine(coefs, rhs, src, reduced[pivots[lead]], lead)
        if not coefs:
            if rhs != 0:  # 0 = rhs: the clues contradict each other
                reduced.append((coefs, rhs, src))
            continue
        pivots[min(coefs)] = len(reduced)
        reduced.append((coefs, rhs, src))
    # back substitution, last pivot first: the rows of later pivots are reduced already, so
    # they share no pivot column but their own, and a row takes all of them at once: scaled by
    # the lcm of their leading coefficients, one sum, one gcd (the same row as taking them one
    # by one, which copied and divided the row each time)
    for done, pivot in enumerate(sorted(pivots, reverse=True)):
        if deadline is not None and done & 63 == 0 and time.perf_counter() > deadline:
            raise TimeUp
        i = pivots[pivot]
        coefs, rhs, src = reduced[i]
        later = [c for c in coefs if c != pivot and c in pivots]
        if not later:
            continue
        scale = 1
        for c in later:
            lead = reduced[pivots[c]][0][c]
            scale = scale * lead // gcd(scale, lead)
        out = dict(coefs) if scale == 1 else {c: v * scale for c, v in coefs.items()}
        rhs *= scale
        get = out.get
        for c in later:
            row, row_rhs, row_src = reduced[pivots[c]]
            f = out[c] // row[c]
            for x, v in row.items():
                out[x] = get(x, 0) - f * v
            rhs -= f * row_rhs
            src |= row_src
        out = {x: v for x, v in out.items() if v}
        g = gcd(*out.values(), rhs)  # the lead stays positive: every scale was
        if g > 1:
            out = {x: v // g for x, v in out.items()}
            rhs //= g
        reduced[i] = (out, rhs, src)
    return [(coefs, rhs, _Sources(src, names)) for coefs, rhs, src in reduced]


class _Sources:
    """The names of the clues combined into a reduced row, read from a bit mask when asked for."""

    __slots__ = ("mask", "names")

    def __init__(self, mask: int, names: list[str]):
        self.mask, self.names = mask, names

    def __iter__(self):
        mask = self.mask
        while mask:
            low = mask & -mask
            yield self.names[low.bit_length() - 1]
            mask ^= low

    def __len__(self) -> int:
        return bin(self.mask).count("1")


def _combine(coefs, rhs, src, pivot_row, cell):
    """Eliminate cell from (coefs, rhs) using pivot_row, keeping integer coefficients (src and
    the pivot row's sources are bit masks: their union is the new row's)."""
    pc, pr, ps = pivot_row
    a, p = coefs[cell], pc[cell]
    out = dict(coefs) if p == 1 else {c: v * p for c, v in coefs.items()}
    for c, v in pc.items():
        w = out.get(c, 0) - a * v
        if w:
            out[c] = w
        else:
            del out[c]
    new_rhs = rhs * p - a * pr
    g = gcd(*out.values(), new_rhs) if out else (abs(new_rhs) or 1)
    if g > 1:
        out = {c: v // g for c, v in out.items()}
        new_rhs //= g
    if out and out[min(out)] < 0:
        out = {c: -v for c, v in out.items()}
        new_rhs = -new_rhs
    return out, new_rhs, src | ps


def _range(coefs: dict[int, int], rhs: int) -> str:
    """The bound argument of a 0/1 row in words: the least and the most its left side can be,
    and how far the right side is from each (a cell whose coefficient is larger has one value)."""
    g = gcd(*coefs.values(), rhs) if coefs else 1
    if g > 1:
        coefs, rhs = {c: a // g for c, a in coefs.items()}, rhs // g
    low = sum(a for a in coefs.values() if a < 0)
    high = sum(a for a in coefs.values() if a > 0)
    if not low <= rhs <= high:
        return f"with 0/1 cells its left side lies between {low} and {high}"
    if rhs == high:
        return f"with 0/1 cells its left side is at most {high}, reached only with every + cell a mine and every - cell empty"
    if rhs == low:
        return f"with 0/1 cells its left side is at least {low}, reached only with every + cell empty and every - cell a mine"
    return (f"with 0/1 cells its left side lies between {low} and {high}; {rhs} is {rhs - low} above the least and "
            f"{high - rhs} below the most, so a cell whose coefficient is larger than that has one value")


def _solve_combination(columns, coefs: dict[int, int], rhs: int):
    """(integers k_j, m): sum_j k_j * equation_j = m * (coefs, rhs), m > 0 whole, solved exactly
    with the free multipliers 0; None when there is none.

    Gauss-Jordan elimination over the integers on sparse rows (one per cell, one for the counts;
    column j an equation, column n the row asked for), each row kept divided by the gcd of its
    entries: the reduced form, and so the multipliers, are those of elimination over fractions,
    which took seconds a step on large groups (docs/decisions.md)."""
    n = len(columns)
    by_cell: dict[int, dict[int, int]] = {}
    for j, (col, _) in enumerate(columns):
        for x, a in col.items():
            if a:
                by_cell.setdefault(x, {})[j] = a
    for x, a in coefs.items():
        if a:
            by_cell.setdefault(x, {})[n] = a
    counts = {j: count for j, (_, count) in enumerate(columns) if count}
    if rhs:
        counts[n] = rhs
    rows = [by_cell[x] for x in sorted(by_cell)] + [counts]
    pivots = []
    r = 0
    for c in range(n):
        p = next((i for i in range(r, len(rows)) if rows[i].get(c)), None)
        if p is None:
            continue
        rows[r], rows[p] = rows[p], rows[r]
        pivot = rows[r]
        lead = pivot[c]
        for i in range(len(rows)):
            f = rows[i].get(c) if i != r else None
            if not f:
                continue
            row = {k: lead * v for k, v in rows[i].items()}
            for k, v in pivot.items():
                w = row.get(k, 0) - f * v
                if w:
                    row[k] = w
                else:
                    row.pop(k, None)
            g = gcd(*row.values()) if row else 1
            rows[i] = {k: v // g for k, v in row.items()} if g > 1 else row
        pivots.append(c)
        r += 1
    if any(row.get(n) for row in rows[r:]):
        return None
    lam = [Fraction(0)] * n
    for i, c in enumerate(pivots):
        lam[c] = Fraction(rows[i].get(n, 0), rows[i][c])
    scale = 1
    for v in lam:
        scale = scale * v.denominator // gcd(scale, v.denominator)
    return [int(v * scale) for v in lam], scale


def _bound(coefs: dict[int, int], rhs: int) -> dict[int, int] | None:
    """Return the cells a 0/1 equation fixes ({} if none), or None if it cannot hold."""
    values = coefs.values()
    total, size = sum(values), sum(map(abs, values))
    low, high = (total - size) // 2, (total + size) // 2  # the sums of the negative, positive ones
    if not low <= rhs <= high:
        return None
    # a cell can take either value unless its coefficient exceeds the slack on one side (both
    # cases below reduce to that), which on long rows it rarely does
    slack = min(rhs - low, high - rhs)
    if max(map(abs, values), default=0) <= slack:
        return {}
    fixed = {}
    for c, a in coefs.items():
        rest_low, rest_high = low - min(0, a), high - max(0, a)
        can0 = rest_low <= rhs <= rest_high
        can1 = rest_low <= rhs - a <= rest_high
        if not can0 and not can1:
            return None
        if can0 != can1:
            fixed[c] = 1 if can1 else 0
    return fixed
