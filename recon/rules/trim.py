"""Linear trimming: sound deductions on the clue equations, recorded as a readable proof.

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

Trimming never guesses: when it stalls, the verdict is ``undecided`` with the cells it fixed.

Elimination is not monotone in the equations: its bounds come from the rows of a reduced form,
and one equation fewer changes those rows, so a puzzle can yield more to it with a clue fewer
(tests/test_trim.py has a case; recon.generation.elimination allows for it).

Where the proof is not read (the hybrid engine's grade, puzzle generation), `recon.rules.quiet`
fixes the same cells faster: bit masks for the pairwise rules, and a reduced form kept from round
to round with the cells fixed since substituted.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass
from math import gcd

import numpy as np

from ..model import OPEN, Problem, cell_name, window_cells
from ..result import Grade, TimeUp

BASIC, ADVANCED, ELIMINATION = 1, 2, 3
#: The grades, weakest first: the pairwise rules reason about two clues that share cells, which
#: a person does; elimination combines hundreds or thousands of equations at once (a minimal
#: puzzle of that grade leaves most of the grid to it), and it is not monotone, so it is a grade
#: of its own (as part of "advanced" it made generating those puzzles far slower).
GRADES = {BASIC: Grade.BASIC, ADVANCED: Grade.ADVANCED, ELIMINATION: Grade.ELIMINATION}
RULE_LEVEL = {
    "all-empty": BASIC,
    "all-mines": BASIC,
    "contradiction": BASIC,
    "subset": ADVANCED,
    "overlap": ADVANCED,
    "elimination": ELIMINATION,
}
#: Elimination runs on connected groups of open cells up to this size.
ELIMINATION_MAX_CELLS = 3000


def overlap_rule(count_a: int, only_a: int, shared: int, count_b: int, only_b: int) -> tuple[int, int, int, int]:
    """The overlap rule, the one Python statement of it (the Trimmer, which writes the proof, and
    recon.rules.quiet both call it; recon.compiled.pairwise is its compiled twin). Two equations
    with count_a and count_b mines share `shared` cells and have only_a and only_b cells of their
    own (both at least one). The shared cells hold between low and high mines; each private part
    is then left no choice when its equation's count equals low (no mine there: 0) or exceeds high
    by exactly its size (all mines: 1). Returns (low, high, fix_a, fix_b), a fix being 0, 1 or
    -1 for none; low > high means the two equations contradict each other."""
    # max(0, count_a - only_a, count_b - only_b) and min(shared, count_a, count_b), written out:
    # quiet calls this for every overlapping pair, and the builtins cost more than the comparisons
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

    @property
    def level(self) -> int:
        """Return the grade level of the rule: 1 basic, 2 advanced (pairwise), 3 elimination."""
        return RULE_LEVEL[self.rule]

    def to_json(self) -> dict[str, object]:
        """Return the step as a JSON-ready record."""
        return {
            "rule": self.rule,
            "grade": GRADES[self.level],
            "cells": [cell_name(r, c) for r, c in self.cells],
            "values": list(self.values),
            "sources": list(self.sources),
            "derived": self.derived,
            "text": self.text,
        }


@dataclass
class Equation:
    """Open cells (row-major indices) holding `count` mines; `name` is a clue (r2c3) or e<k>."""

    cells: frozenset[int]
    count: int
    name: str
    sources: tuple[str, ...]
    whole: bool = False  # still the clue's whole window, nothing substituted yet

    @property
    def label(self) -> str:
        """Name the equation in a sentence: 'clue r2c3' or 'e4'."""
        return f"clue {self.name}" if self.name.startswith("r") else self.name


class Contradiction(Exception):
    """The clues cannot all hold; the step says which equation broke."""

    def __init__(self, step: Step):
        super().__init__(step.text)
        self.step = step


class Trimmer:
    """The equations of a problem and the cells fixed so far; rules mutate it and log steps.
    max_cells: elimination runs on connected groups of open cells up to this size."""

    def __init__(self, problem: Problem, max_cells: int = ELIMINATION_MAX_CELLS):
        rows, cols = problem.shape
        self.problem = problem
        self._setup(problem.shape, np.full(rows * cols, OPEN, dtype=np.int8), max_cells)
        for r, c in np.argwhere(problem.known):
            r, c = int(r), int(c)
            cells = frozenset(rr * cols + cc for rr, cc in window_cells(problem.shape, r, c))
            self.clue_equations.append((cell_name(r, c), cells, int(problem.clues[r, c])))

    @classmethod
    def on_cells(cls, shape: tuple[int, int], open_cells, equations, max_cells: int = ELIMINATION_MAX_CELLS) -> "Trimmer":
        """A trimmer for some open cells of a grid, the others fixed already (their values unused).

        equations: (name, open cells as row-major indices, mines among them), e.g. clues with
        the fixed cells substituted. Puzzle generation trims one group of open cells this way.
        """
        value = np.zeros(shape[0] * shape[1], dtype=np.int8)
        value[list(open_cells)] = OPEN
        trimmer = cls.__new__(cls)
        trimmer.problem = None
        trimmer._setup(shape, value, max_cells)
        trimmer.clue_equations = [(name, frozenset(cells), count) for name, cells, count in equations]
        return trimmer

    def _setup(self, shape: tuple[int, int], value: np.ndarray, max_cells: int) -> None:
        self.cols = shape[1]
        self.max_cells = max_cells
        self.value = value  # 0, 1, or OPEN (private)
        self.equations: dict[int, Equation] = {}
        self.by_cell: defaultdict[int, set[int]] = defaultdict(set)
        self.by_cells: dict[frozenset[int], int] = {}
        self.steps: list[Step] = []
        self.pending: list[int] = []  # equations added or changed since the basic rules last looked
        self.unpaired: set[int] = set()  # equations added or changed since the pairwise rules last looked
        self.next_key = 0
        self.derived_count = 0
        self.clue_equations: list[tuple[str, frozenset[int], int]] = []
        self.timed_out = False  # did run() stop at its deadline (rules left to apply)?

    def load(self) -> None:
        """Add one equation per clue (raises Contradiction for a clue its window cannot hold)."""
        for name, cells, count in self.clue_equations:
            self.add(Equation(cells, count, name, (), whole=True))

    # -- helpers ---------------------------------------------------------------------------
    def name(self, cell: int) -> str:
        """Name a cell r<row>c<col>, 1-based."""
        return cell_name(*divmod(cell, self.cols))

    def names(self, cells) -> str:
        """Name cells in row-major order, separated by spaces."""
        return " ".join(self.name(c) for c in sorted(cells))

    def add(self, eq: Equation) -> int | None:
        """Add an equation unless one on the same cells exists; return its id or None."""
        if not eq.cells:
            if eq.count != 0:
                self.contradict(eq)
            return None
        if eq.cells in self.by_cells:
            other = self.equations[self.by_cells[eq.cells]]
            if other.count != eq.count:
                self.contradict(eq, other)
            return None
        if eq.count < 0 or eq.count > len(eq.cells):
            self.contradict(eq)
        key = self.next_key
        self.next_key += 1
        self.pending.append(key)
        self.unpaired.add(key)
        self.equations[key] = eq
        self.by_cells[eq.cells] = key
        for c in eq.cells:
            self.by_cell[c].add(key)
        return key

    def remove(self, key: int) -> None:
        """Drop an equation."""
        eq = self.equations.pop(key)
        del self.by_cells[eq.cells]
        for c in eq.cells:
            self.by_cell[c].discard(key)

    def contradict(self, eq: Equation, other: Equation | None = None) -> None:
        """Raise Contradiction for an equation that cannot hold. A derived equation (e<k>) is
        traced back to the clues it came from, so that the message stands without the proof."""
        if other is not None:
            text = (
                f"{eq.name} and {other.name} both speak of {self.names(eq.cells)} "
                f"but ask for {eq.count} and {other.count} mines"
            )
            sources = (eq.name, other.name)
        elif eq.count < 0:
            text = f"{eq.name} is exceeded: its cells already hold {-eq.count} mine(s) too many"
            sources = (eq.name,)
        else:
            text = (
                f"{eq.name} cannot be met: it needs {eq.count} more mine(s) "
                f"but only {len(eq.cells)} cell(s) are open: {self.names(eq.cells)}"
            )
            sources = (eq.name,)
        raise Contradiction(Step("contradiction", (), (), sources, text + self._origin(sources)))

    def _origin(self, names) -> str:
        """' (e3 and e5 from clues r1c1, r1c2, r2c2)' when some of the named equations are
        derived (by the subset rule, whose steps name what each e<k> came from), else ''."""
        derived_from = {step.derived: step.sources for step in self.steps if step.derived}
        derived = sorted((n for n in set(names) if n in derived_from), key=_name_key)
        if not derived:
            return ""
        clues: set[str] = set()
        todo = list(names)
        while todo:
            name = todo.pop()
            if name in derived_from:
                todo.extend(derived_from[name])
            else:
                clues.add(name)
        return f" ({' and '.join(derived)} from clues {_list(clues)})"

    def fix(self, cells, v: int) -> None:
        """Fix cells to v and substitute them into every equation (rule: substitute)."""
        for cell in cells:
            if self.value[cell] >= 0:
                if self.value[cell] != v:
                    raise Contradiction(
                        Step("contradiction", (), (), (), f"{self.name(cell)} would have to be both empty and a mine")
                    )
                continue
            self.value[cell] = v
            for key in list(self.by_cell[cell]):
                eq = self.equations[key]
                self.remove(key)
                self.add(Equation(eq.cells - {cell}, eq.count - v, eq.name, eq.sources))

    def log(self, rule: str, cells, v, sources, text: str, derived: str | None = None) -> None:
        """Record a step that fixed cells (to v, or to the values given per cell)."""
        cells = sorted(cells)
        values = tuple(v) if isinstance(v, (list, tuple)) else (v,) * len(cells)
        rc = tuple(divmod(c, self.cols) for c in cells)
        self.steps.append(Step(rule, rc, values, tuple(sources), text, derived))

    @property
    def is_done(self) -> bool:
        """Is every cell fixed?"""
        return bool((self.value >= 0).all())

    @property
    def grade(self) -> str:
        """As recon.rules.quiet's: advanced when the rules run so far fixed every cell without
        elimination, elimination with it, search when cells are still open (the single-clue
        rules alone are the caller's to tell)."""
        if not self.is_done:
            return Grade.SEARCH
        return Grade.ELIMINATION if any(step.level == ELIMINATION for step in self.steps) else Grade.ADVANCED

    # -- rules -----------------------------------------------------------------------------
    def rule_basic(self) -> bool:
        """Apply all-empty and all-mines to every changed equation until nothing changes."""
        progress = False
        while self.pending:
            eq = self.equations.get(self.pending.pop())
            if eq is None:
                continue
            if eq.count == 0:
                cells = sorted(eq.cells)
                if eq.whole:
                    text = f"{eq.label} = 0: its window {self.names(cells)} holds no mine -> {_all(len(cells), 0)}"
                else:
                    text = f"{eq.label} has no mine left for {self.names(cells)} -> {_all(len(cells), 0)}"
                self.log("all-empty", cells, 0, (eq.name,), text)
                self.fix(cells, 0)
                progress = True
            elif eq.count == len(eq.cells):
                cells = sorted(eq.cells)
                if eq.whole:
                    text = f"{eq.label} = {eq.count}: its window {self.names(cells)} is full -> {_all(len(cells), 1)}"
                else:
                    text = (
                        f"{eq.label} still needs {eq.count} mine(s) and has just {len(cells)} open "
                        f"cell(s) {self.names(cells)} -> {_all(len(cells), 1)}"
                    )
                self.log("all-mines", cells, 1, (eq.name,), text)
                self.fix(cells, 1)
                progress = True
        return progress

    def rule_pairwise(self) -> bool:
        """Apply subset and overlap to pairs of overlapping equations, the basic rules after each fix.

        Only pairs with an equation added or changed since the last call are looked at: a pair of
        unchanged equations gave all it can the first time (and substitution replaces an equation
        by a new one, so a change is always a new key).
        """
        progress = False
        todo = sorted(self.unpaired)
        self.unpaired = set()
        done: set[int] = set()
        for key in todo:
            if key not in self.equations:
                continue
            done.add(key)
            partners = set().union(*(self.by_cell[c] for c in self.equations[key].cells)) - done
            for other in sorted(partners):
                a, b = self.equations.get(key), self.equations.get(other)
                if a is None:
                    break
                if b is None:
                    continue
                if a.cells < b.cells or b.cells < a.cells:
                    small, big = (a, b) if a.cells < b.cells else (b, a)
                    rest = big.cells - small.cells
                    if rest in self.by_cells:
                        continue
                    self.derived_count += 1
                    name = f"e{self.derived_count}"
                    self.steps.append(
                        Step(
                            "subset",
                            (),
                            (),
                            (small.name, big.name),
                            f"the open cells of {small.label} lie inside those of {big.label}, so the rest, "
                            f"{self.names(rest)}, hold {big.count} - {small.count} = {big.count - small.count} mine(s) "
                            f"(call this {name})",
                            name,
                        )
                    )
                    self.add(Equation(rest, big.count - small.count, name, (small.name, big.name)))
                    progress |= self.rule_basic()
                elif self.overlap(a, b) if key < other else self.overlap(b, a):
                    progress = True
                    self.rule_basic()
        return progress

    def overlap(self, a: Equation, b: Equation) -> bool:
        """Bound the shared mines of two equations and fix private cells that have no choice left."""
        shared = a.cells & b.cells
        ns = len(shared)
        na, nb = len(a.cells) - ns, len(b.cells) - ns  # the private parts' sizes
        if not na or not nb:
            return False
        low, high, fix_a, fix_b = overlap_rule(a.count, na, ns, b.count, nb)
        if low > high:
            self.contradict_pair(a, b, low, high)
        fixes = []
        for eq, v in ((a, fix_a), (b, fix_b)):
            if v >= 0:  # most pairs fix nothing: the part's text is made only here
                only = eq.cells - shared
                what = "no mine" if v == 0 else f"all {len(only)} mine(s)"
                text = (
                    f"{a.label} and {b.label} share {self.names(shared)}, which hold "
                    + (f"{low} to {high}" if high != low else f"{low}")
                    + f" mine(s); so {self.names(only)}, seen only by {eq.label}, hold {what}"
                    + f" -> {_all(len(only), v)}"
                )
                fixes.append((only, v, text))
        for only, v, text in fixes:  # both follow from the same bounds: log both, then fix
            self.log("overlap", only, v, (a.name, b.name), text)
        for only, v, _ in fixes:
            self.fix(only, v)
        return bool(fixes)

    def contradict_pair(self, a: Equation, b: Equation, low: int, high: int) -> None:
        """Raise Contradiction for two equations whose shared part cannot be filled."""
        text = f"{a.name} and {b.name} would need between {low} and {high} mines in their shared cells"
        raise Contradiction(Step("contradiction", (), (), (a.name, b.name), text))

    def rule_elimination(self) -> bool:
        """Eliminate exactly within each connected group of open equations and bound every row."""
        for group in self.groups():
            if len(group["cells"]) > self.max_cells:
                continue
            rows = []
            for key in group["equations"]:
                eq = self.equations[key]
                rows.append(({c: 1 for c in eq.cells}, eq.count, {eq.name}))
            reduced = _eliminate(rows)
            found: dict[int, int] = {}
            for coefs, rhs, sources in reduced:
                fixed = _bound(coefs, rhs)
                if fixed is None:
                    text = f"combining {_list(sources)} gives {self.show(coefs, rhs)}, which 0/1 cells cannot meet"
                    text += self._origin(sources)
                    raise Contradiction(Step("contradiction", (), (), tuple(sorted(sources, key=_name_key)), text))
                fixed = {c: v for c, v in fixed.items() if c not in found}
                if not fixed:
                    continue
                cells = sorted(fixed)
                shown = ", ".join(f"{self.name(c)} = {fixed[c]}" for c in cells)
                text = f"combining {_list(sources)} gives {self.show(coefs, rhs)}; with 0/1 cells: {shown}"
                self.log("elimination", cells, [fixed[c] for c in cells], sorted(sources, key=_name_key), text)
                found.update(fixed)
            if found:
                for c, v in sorted(found.items()):  # in cell order, whatever order the rows came in
                    self.fix([c], v)
                return True
        return False

    def groups(self) -> list[dict[str, set[int]]]:
        """Return the connected groups of open equations (sharing cells)."""
        seen: set[int] = set()
        out = []
        for start in sorted(self.equations):
            if start in seen:
                continue
            todo, eqs, cells = [start], set(), set()
            seen.add(start)
            while todo:
                key = todo.pop()
                eqs.add(key)
                for c in self.equations[key].cells:
                    if c in cells:
                        continue
                    cells.add(c)
                    for other in self.by_cell[c]:
                        if other not in seen:
                            seen.add(other)
                            todo.append(other)
            out.append({"equations": eqs, "cells": cells})
        return out

    def show(self, coefs: dict[int, int], rhs: int) -> str:
        """Write a linear equation over cells, e.g. 'r2c2 - r3c5 = 1'."""
        terms = []
        for c in sorted(coefs):
            a = coefs[c]
            sign = "-" if a < 0 else "+"
            mag = "" if abs(a) == 1 else f"{abs(a)} "
            terms.append(f"{sign} {mag}{self.name(c)}")
        text = " ".join(terms).removeprefix("+ ")
        if text.startswith("- "):
            text = "-" + text[2:]
        return f"{text} = {rhs}"

    # -- driver ----------------------------------------------------------------------------
    def run(self, deadline: float | None = None) -> None:
        """Apply the rules, weakest first, until every cell is fixed or nothing applies."""
        self.rule_basic()
        while not self.is_done:
            if deadline is not None and time.perf_counter() > deadline:
                self.timed_out = True
                raise TimeUp
            # equations the last pass derived have not been paired yet: pair them before moving on
            if self.rule_pairwise() or self.unpaired:
                continue
            if self.rule_elimination():
                self.rule_basic()
                continue
            return


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
    if name.startswith("r"):
        r, c = name[1:].split("c")
        return (0, int(r), int(c))
    return (1, int(name[1:]), 0)


def _eliminate(rows):
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
    for coefs, rhs, src in rows:
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
    for pivot in sorted(pivots, reverse=True):
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
