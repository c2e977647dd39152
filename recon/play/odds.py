"""Exact mine odds on a classic board in play, fast enough to look one guess ahead.

The covered cells next to an opened number (the frontier) split into groups joined by a number
that sees both; each group's solutions are enumerated by backtracking and tallied by their mine
count. The cells no number sees (the interior) are interchangeable: k mines among q of them can
lie C(q, k) ways. So a field's weight is the product of one solution per group times C(q, the
mines left over), and every count here is an exact integer: a cell is safe (or a mine) exactly
when its mine weight is 0 (or the whole weight), never by rounding. This is the classic analysers'
method (DavidNHill's probability engine, minesweepr); `recon.counting` counts the same boards by
the general route and tests hold the two equal.

A group's enumeration is cached by its equations, so asking "what if this cell opens showing v?"
re-enumerates only the group the new number joins: that is what makes `Board.outlook` (the
secondary safety of a guess) cheap enough to ask of a dozen candidates at every guess.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np

from ..io.classic import numbers_beside_covered
from ..model import window_cells, window_index
from ..stats import comb as large_comb

#: A group whose backtracking visits more nodes than this is not enumerated (`TooMany`).
NODES = 200_000


class TooMany(Exception):
    """A group has too many solutions to enumerate here."""


Equation = tuple[tuple[int, ...], int]  # (covered cells, mines among them)


def _super_cells(cells: list[int], equations: list[Equation]) -> tuple[list[list[int]], list[list[int]]]:
    """A group's super cells (cells that lie in the same equations), in the order the equations
    meet them so that each equation closes early, and the equations each one lies in."""
    signature: dict[int, list[int]] = {}
    for e, (eq, _) in enumerate(equations):
        for x in eq:
            signature.setdefault(x, []).append(e)
    supers: dict[tuple[int, ...], list[int]] = {}
    for eq, _ in equations:
        for x in eq:
            supers.setdefault(tuple(signature[x]), [])
    for x in cells:
        supers[tuple(signature[x])].append(x)
    return [m for m in supers.values() if m], [list(sig) for sig, m in supers.items() if m]


def _walk(size: list[int], touches: list[list[int]], need: list[int], left: list[int], value: list[int],
          nodes: int | None = None, what: str = "", total: int | None = None):
    """Every solution of a group's super cells, depth first: yield (mines, ways) with `value`
    holding each super cell's mines (k mines among s cells lie C(s, k) ways). `need` and `left`
    (each equation's mines and cells not yet given a value) are updated in place, and restored
    when the walk runs to its end.
    A loop, not recursion: a frontier can join thousands of super cells. nodes: TooMany past that
    many super cells entered; total: only solutions with exactly that many mines."""
    n = len(size)
    if n == 0:
        if not total:
            yield 0, 1
        return
    room = [0] * (n + 1)  # cells from super cell i on: how many mines can still come
    for i in range(n - 1, -1, -1):
        room[i] = room[i + 1] + size[i]
    high = [0] * n
    mines = [0] * (n + 1)  # placed before super cell i
    ways = [1] * (n + 1)
    budget = -1 if nodes is None else nodes
    i, entering = 0, True
    while True:
        s, cons = size[i], touches[i]
        if entering:
            budget -= 1
            if budget == -1:
                raise TooMany(what)
            low, top = 0, s
            for e in cons:  # what the equations allow this super cell
                low = max(low, need[e] - (left[e] - s))
                top = min(top, need[e])
            if total is not None:  # and the total: the cells after this one take the rest
                low = max(low, total - mines[i] - room[i + 1])
                top = min(top, total - mines[i])
            if low > top:
                i -= 1
                if i < 0:
                    return
                entering = False
                continue
            high[i], v = top, low
        else:
            v = value[i]
            for e in cons:
                left[e] += s
                need[e] += v
            v += 1
            if v > high[i]:
                value[i] = 0
                i -= 1
                if i < 0:
                    return
                continue
        for e in cons:
            left[e] -= s
            need[e] -= v
        value[i] = v
        mines[i + 1] = mines[i] + v
        ways[i + 1] = ways[i] * comb(s, v) if 0 < v < s else ways[i]
        if i + 1 == n:
            yield mines[n], ways[n]
            entering = False
        else:
            i, entering = i + 1, True


def _enumerate(cells: list[int], equations: list[Equation], nodes: int):
    """A group's solutions by mine count: {m: (count, {cell: mines at that cell over those solutions})}.

    Cells that lie in the same equations are one super cell: k mines among its s cells lie
    C(s, k) ways, and each cell holds a mine in C(s-1, k-1) of them."""
    members, touches = _super_cells(cells, equations)
    size = [len(m) for m in members]
    n = len(members)
    need = [k for _, k in equations]
    left = [len(eq) for eq, _ in equations]
    if any(k < 0 or k > free for k, free in zip(need, left)):
        return {}
    found: dict[int, list[int]] = {}  # mine count -> [ways, then mines times ways per super cell]
    value = [0] * n
    for mines, ways in _walk(size, touches, need, left, value, nodes, f"a group of {len(cells)} cells"):
        row = found.get(mines)
        if row is None:
            row = found[mines] = [0] * (n + 1)
        row[n] += ways
        for j in range(n):
            if value[j]:
                row[j] += ways * value[j]
    out = {}
    for m, row in found.items():
        tally = {}
        for j in range(n):
            per_cell = row[j] // size[j]  # each of the s cells holds the mine in 1/s of them
            for x in members[j]:
                tally[x] = per_cell
        out[m] = (row[n], tally)
    return out


def _draw_solution(cells: list[int], equations: list[Equation], mines: int, rnd: random.Random, nodes: int) -> list[int]:
    """The mines of one of a group's solutions with `mines` mines, drawn with chance proportional
    to the ways it lies, so that each placement on the cells is equally likely: the super cells'
    values by one walk that keeps each solution with chance ways / (ways so far), then each super
    cell's mines among its cells."""
    members, touches = _super_cells(cells, equations)
    value = [0] * len(members)
    kept, seen = None, 0
    for _, ways in _walk([len(m) for m in members], touches, [k for _, k in equations], [len(eq) for eq, _ in equations],
                         value, nodes, f"a group of {len(cells)} cells", total=mines):
        seen += ways
        if rnd.randrange(seen) < ways:
            kept = list(value)
    if kept is None:
        raise ValueError(f"the group has no solution with {mines} mines")
    return [x for j, v in enumerate(kept) for x in rnd.sample(members[j], v)]


def _pick(rnd: random.Random, weights: dict[int, int]) -> int:
    """A key drawn with chance proportional to its (exact, integer) weight."""
    r = rnd.randrange(sum(weights.values()))
    for key in sorted(weights):
        r -= weights[key]
        if r < 0:
            return key
    raise AssertionError("unreachable: r < the sum of the weights")


def _groups(equations: list[Equation]) -> list[tuple[list[int], list[Equation]]]:
    """The equations split into groups that share no cell."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for eq, _ in equations:
        for x in eq:
            parent.setdefault(x, x)
        root = find(eq[0])
        for x in eq[1:]:
            other = find(x)
            if other != root:
                parent[other] = root
    by_root: dict[int, tuple[list[int], list[Equation]]] = {}
    for x in parent:
        by_root.setdefault(find(x), ([], []))[0].append(x)
    for eq in equations:
        by_root[find(eq[0][0])][1].append(eq)
    return list(by_root.values())


#: Boards up to this many cells list every cell's neighbours at once; a larger board finds a
#: cell's neighbours when first asked, since its whole table would take seconds to build.
TABLE_CELLS = 250_000


class _Neighbours:
    """Each cell's neighbours, as _neighbour_table lists them, found when first asked."""

    def __init__(self, rows: int, cols: int):
        self.rows, self.cols = rows, cols
        self._found: dict[int, tuple[int, ...]] = {}

    def __getitem__(self, x: int) -> tuple[int, ...]:
        found = self._found.get(x)
        if found is None:
            r, c = divmod(x, self.cols)
            found = self._found[x] = tuple(y * self.cols + z for y, z in window_cells((self.rows, self.cols), r, c)
                                           if (y, z) != (r, c))
        return found


@lru_cache(maxsize=16)
def _neighbour_table(rows: int, cols: int) -> list[tuple[int, ...]] | _Neighbours:
    """Each cell's neighbours (flat indices, row-major): its window without itself."""
    if rows * cols > TABLE_CELLS:
        return _Neighbours(rows, cols)
    return [tuple(y for y in row if y >= 0 and y != x) for x, row in enumerate(window_index((rows, cols)).tolist())]


class Binomials:
    """C(n, k) exactly (0 outside 0 <= k <= n), each from the nearest value already known by exact
    one-step ratios: C(n, k + 1) = C(n, k) (n - k) / (k + 1), C(n + 1, k) = C(n, k) (n + 1) /
    (n + 1 - k), and back. On a board of a million cells C(n, k) has hundreds of thousands of bits
    and is slow afresh, while the next move asks a dozen values a few steps away (its interior has
    a few cells fewer), each step one multiplication and one division. The latest KEEP values are
    kept."""

    KEEP = 64
    #: Farther than this many steps from every known value, computing afresh is cheaper.
    STEPS = 2_000

    def __init__(self):
        self.known: dict[tuple[int, int], int] = {}

    def __call__(self, n: int, k: int) -> int:
        if not 0 <= k <= n:
            return 0
        value = self.known.get((n, k))
        if value is not None:
            return value
        near = min(self.known, key=lambda key: abs(key[0] - n) + abs(key[1] - k), default=None)
        if near is None or abs(near[0] - n) + abs(near[1] - k) > self.STEPS:
            value = large_comb(n, k)
        else:
            m, j = near
            value = self.known[near]
            # every value on the way has 0 <= j <= m: move k first when n shrinks, n first when it grows
            for move in ("k", "n") if n < m else ("n", "k"):
                while move == "k" and j < k:
                    value, j = value * (m - j) // (j + 1), j + 1
                while move == "k" and j > k:
                    value, j = value * j // (m - j + 1), j - 1
                while move == "n" and m < n:
                    value, m = value * (m + 1) // (m + 1 - j), m + 1
                while move == "n" and m > n:
                    value, m = value * (m - j) // m, m - 1
        if len(self.known) >= self.KEEP:
            del self.known[next(iter(self.known))]
        self.known[n, k] = value
        return value


def _convolve(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for i, x in a.items():
        for j, y in b.items():
            out[i + j] = out.get(i + j, 0) + x * y
    return out


@dataclass
class Odds:
    """The exact odds of one board: `weight` fields in all, `mine_weight[x]` of them with a mine
    at covered cell x (every undecided cell has an entry)."""

    weight: int
    mine_weight: dict[int, int]
    interior: list[int]

    def safe(self) -> list[int]:
        return [x for x, w in self.mine_weight.items() if w == 0]

    def mines(self) -> list[int]:
        return [x for x, w in self.mine_weight.items() if w == self.weight]

    def best_safety(self) -> float:
        """The chance that the safest undecided cell is safe (1 when one is certainly safe)."""
        if not self.mine_weight:
            return 1.0
        return 1.0 - min(self.mine_weight.values()) / self.weight


class Board:
    """A classic board as the player sees it, ready for odds: `known` per cell (-1 undecided,
    0 opened, 1 a known mine), the opened cells' numbers, the mines in all (None: not told)."""

    def __init__(self, rows: int, cols: int, known: list[int], numbers: list[int], mines: int | None,
                 nodes: int = NODES, cache: dict | None = None, *, numbered: list[int] | None = None):
        """numbered: the opened cells that may see an undecided cell, in increasing order
        (default every cell); the others give no equation."""
        self.rows, self.cols = rows, cols
        self.known = known
        self.numbers = numbers
        self.mines = mines
        self.nodes = nodes
        self._neighbours = _neighbour_table(rows, cols)
        # each group's table by its equations, and "binomials": the interiors' C(q, k) (Binomials)
        self._cache: dict = {} if cache is None else cache
        self.undecided = [x for x in range(rows * cols) if known[x] == -1]
        self.left = None if mines is None else mines - known.count(1)
        self.numbered: list[int] = []
        self.equations: list[Equation] = []
        for x in range(rows * cols) if numbered is None else numbered:
            if known[x] == 0:
                eq = self.equation(x, numbers[x])
                if eq is not None:
                    self.numbered.append(x)
                    self.equations.append(eq)

    @classmethod
    def from_cells(cls, cells, mines: int | None, nodes: int = NODES, cache: dict | None = None) -> "Board":
        """From a board in recon.io.classic's codes (0-8 opened, -1 covered, -2 a flag). `cache`:
        group enumerations kept from earlier boards of the same game (a group's equations decide
        its solutions, so they stay true)."""
        rows, cols = cells.shape
        known = np.where(cells >= 0, 0, np.where(cells == -2, 1, -1)).ravel().tolist()
        # only numbers beside a covered cell give equations: found at once, so that a large board
        # costs its frontier, not its area
        numbered = np.flatnonzero(numbers_beside_covered(cells)).tolist()
        numbers = np.maximum(cells, 0).ravel().tolist()
        return cls(rows, cols, known, numbers, mines, nodes, cache, numbered=numbered)

    def neighbours(self, x: int) -> tuple[int, ...]:
        return self._neighbours[x]

    def equation(self, x: int, number: int) -> Equation | None:
        """Opened cell x showing `number` as an equation on its undecided neighbours (None when
        it has none)."""
        cells = tuple(y for y in self._neighbours[x] if self.known[y] == -1)
        if not cells:
            return None
        return cells, number - sum(1 for y in self._neighbours[x] if self.known[y] == 1)

    def _tables(self, groups: list[tuple[list[int], list[Equation]]]) -> list[dict] | None:
        """Each group's solutions by mine count (`_enumerate`), kept in the cache by its equations;
        None when a group has none."""
        tables = []
        for cells, eqs in groups:
            key = tuple(sorted(eqs))
            table = self._cache.get(key)
            if table is None:
                table = self._cache[key] = _enumerate(cells, eqs, self.nodes)
            if not table:
                return None
            tables.append(table)
        return tables

    def _parts(self, equations: list[Equation], opened: int = -1):
        """The groups of these equations, each one's solutions by mine count (`_tables`), the
        interior (the undecided cells no equation holds, but `opened`), and each group's count of
        solutions by mine count; None when a group has no solution."""
        groups = _groups(equations)
        tables = self._tables(groups)
        if tables is None:
            return None
        frontier = {x for cells, _ in groups for x in cells}
        interior = [x for x in self.undecided if x not in frontier and x != opened]
        return groups, tables, interior, [{m: row[0] for m, row in t.items()} for t in tables]

    def _binomials(self) -> Binomials:
        """C(q, k) for the interior's q cells, stepped from those of earlier calls and moves of
        the game (kept in the cache)."""
        binomials = self._cache.get("binomials")
        if binomials is None:
            binomials = self._cache["binomials"] = Binomials()
        return binomials

    def odds(self, equations: list[Equation] | None = None, opened: int = -1) -> Odds | None:
        """The exact odds with these equations (default the board's), `opened` taken as opened;
        None when no field fits."""
        parts = self._parts(self.equations if equations is None else equations, opened)
        if parts is None:
            return None
        groups, tables, interior, polys = parts
        q = len(interior)
        # the weight of the other groups and the interior, for each count of mines in one group
        prefix = [{0: 1}]
        for p in polys:
            prefix.append(_convolve(prefix[-1], p))
        suffix = [{0: 1}]
        for p in reversed(polys):
            suffix.append(_convolve(suffix[-1], p))
        suffix.reverse()
        left = self.left

        binomials = self._binomials()

        def choose(k: int) -> int:
            return binomials(q, k)

        def fill(s: int) -> int:  # ways to place the rest in the interior given s mines in groups
            return 1 << q if left is None else choose(left - s)

        everything = prefix[-1]
        weight = sum(n * fill(s) for s, n in everything.items())
        if weight == 0:
            return None
        mine_weight: dict[int, int] = {}
        for k, table in enumerate(tables):
            others = _convolve(prefix[k], suffix[k + 1])
            for m, (_, tally) in table.items():
                rest = sum(n * fill(m + s) for s, n in others.items())
                if rest:
                    for x, t in tally.items():
                        mine_weight[x] = mine_weight.get(x, 0) + t * rest
        for cells, _ in groups:
            for x in cells:
                mine_weight.setdefault(x, 0)
        if q:
            if left is None:
                inner = weight // 2
            else:
                # the fields with a mine at one interior cell: C(q - 1, k - 1) = C(q, k) k / q
                inner = sum(n * (choose(left - s) * (left - s) // q) for s, n in everything.items())
            for x in interior:
                mine_weight[x] = inner
        return Odds(weight, mine_weight, interior)

    def outlook(self, base: Odds, x: int) -> tuple[float, float, bool]:
        """Open undecided cell x in thought: (the chance it is safe and the next move is safe too
        (1 for a certainly safe cell, else the safest cell's chance), the chance it is safe and
        shows a number that makes a cell certain, whether x is dead: it can show one number
        only, so opening it tells nothing but that it is safe)."""
        around = [y for y in self._neighbours[x] if self.known[y] == -1]
        # x is safe: the equations that see it lose it
        equations = []
        for cells, k in self.equations:
            if x in cells:
                cells = tuple(y for y in cells if y != x)
                if not cells:
                    continue
            equations.append((cells, k))
        survive = progress = 0.0
        numbers = 0
        for v in range(len(around) + 1):
            new = equations + [(tuple(around), v)] if around else equations
            if not around and v:
                break
            odds = self.odds(new, opened=x)
            if odds is None:
                continue
            numbers += 1
            chance = odds.weight / base.weight
            if odds.safe() or len(odds.mines()) == len(odds.mine_weight):  # a safe move, or won
                survive += chance
                progress += chance
            else:
                survive += chance * odds.best_safety()
        return survive, progress, numbers == 1

    def opened_showing(self, x: int, mines_around: int) -> "Board":
        """This board with undecided cell x opened, `mines_around` mines among its undecided
        neighbours (the group tables cache is shared)."""
        known, numbers = list(self.known), list(self.numbers)
        known[x] = 0
        numbers[x] = mines_around + sum(1 for y in self._neighbours[x] if self.known[y] == 1)
        numbered = sorted(self.numbered + [x])  # opening x can only take undecided cells away
        return Board(self.rows, self.cols, known, numbers, self.mines, self.nodes, self._cache, numbered=numbered)

    def outlook_two(self, base: Odds, x: int, width: int) -> float:
        """Open undecided cell x in thought, then play the best next guess looked ahead one move
        (`outlook`) among the `width` safest cells: the chance of surviving x and the next two
        moves, where a move that is certain is survived for sure."""
        around = [y for y in self._neighbours[x] if self.known[y] == -1]
        total = 0.0
        for v in range(len(around) + 1):
            after = self.opened_showing(x, v)
            odds = after.odds()
            if odds is None:
                continue
            chance = odds.weight / base.weight
            if odds.safe() or len(odds.mines()) == len(odds.mine_weight):
                total += chance
                continue
            best = 0.0
            for y in sorted(odds.mine_weight, key=odds.mine_weight.__getitem__)[:width]:
                if 1 - odds.mine_weight[y] / odds.weight <= best:
                    break  # surviving two moves is at most surviving one
                best = max(best, after.outlook(odds, y)[0])
            total += chance * best
        return total

    def draw(self, rnd: random.Random) -> list[int] | None:
        """The undecided cells that hold a mine in a field drawn from those that fit, each field
        equally likely (None when none fits): how many mines each group holds, drawn with the
        groups' and the interior's exact weights (the total shared out from the last group back),
        then a solution of each group with that many, then the interior's mines."""
        parts = self._parts(self.equations)
        if parts is None:
            return None
        groups, _, interior, polys = parts
        if self.left is None:  # no total: each group and each interior cell on its own
            counts = [_pick(rnd, p) for p in polys]
            inner = [x for x in interior if rnd.getrandbits(1)]
        else:
            prefix = [{0: 1}]
            for p in polys:
                prefix.append(_convolve(prefix[-1], p))
            q, left = len(interior), self.left
            binomials = self._binomials()
            ends = {s: n * binomials(q, left - s) for s, n in prefix[-1].items()}
            if not any(ends.values()):
                return None
            placed = _pick(rnd, ends)  # mines in all the groups
            counts = [0] * len(polys)
            for k in range(len(polys) - 1, -1, -1):
                options = {m: n * prefix[k].get(placed - m, 0) for m, n in polys[k].items()}
                counts[k] = _pick(rnd, options)
                placed -= counts[k]
            inner = rnd.sample(interior, left - sum(counts))
        drawn = [x for (cells, eqs), m in zip(groups, counts) for x in _draw_solution(cells, eqs, m, rnd, self.nodes)]
        return sorted(drawn + inner)

    def fields(self, limit: int) -> list[int] | None:
        """Every field that fits, as bit masks over `self.undecided` (bit i: a mine at the i-th
        undecided cell), or None when there are more than `limit`."""
        cells = self.undecided
        index = {x: i for i, x in enumerate(cells)}
        # equations' cells first, in the order the equations meet them, then the interior
        order: list[int] = []
        seen = set()
        for eq, _ in self.equations:
            for x in eq:
                if x not in seen:
                    seen.add(x)
                    order.append(x)
        order += [x for x in cells if x not in seen]
        touches: list[list[int]] = [[] for _ in order]
        position = {x: i for i, x in enumerate(order)}
        for e, (eq, _) in enumerate(self.equations):
            for x in eq:
                touches[position[x]].append(e)
        need = [k for _, k in self.equations]
        left = [len(eq) for eq, _ in self.equations]
        bits = [1 << index[x] for x in order]
        value = [0] * len(order)
        out: list[int] = []
        for _ in _walk([1] * len(order), touches, need, left, value, total=self.left):
            if len(out) == limit:
                return None
            out.append(sum(bit for bit, v in zip(bits, value) if v))
        return out
