"""Endgames played perfectly: when few fields are left, search every line of play.

With the fields that fit the board listed (each equally likely), the chance of winning from a
set S of them with best play is 1 when one field is left; otherwise the best, over the cells
that are a mine in some field but not all, of: the fields where that cell is safe, split by the
number it would show, each part played on the same way. A cell safe in every field whose number
differs between them is opened first for free (information never hurts). The sets met are
memoised; a cell that cannot beat the best found (its chance of being safe is an upper bound on
its value) is not searched.

This is DavidNHill's brute-force analysis in its simplest form: exhaustive, so its choice is
optimal, and bounded (`Budget`) so that a big endgame falls back to the one-move look-ahead.
"""

from __future__ import annotations


class Budget(Exception):
    """The search met more sets of fields than it was allowed, or a line of play longer than DEPTH."""


#: The search recurses once a guess along a line of play (three Python frames each) and Python's
#: stack holds about a thousand frames: a longer line (a corridor of cells, one mine somewhere
#: along it) is not searched, as a search too big (Budget).
DEPTH = 150


def best_guess(fields: list[int], neighbours: list[int], budget: int) -> tuple[int, float]:
    """The cell (index into the fields' bits) to guess and the chance of winning with best play.

    fields: bit masks (bit i: a mine at cell i); neighbours[i]: the mask of cell i's neighbours
    among those cells. Raises Budget when the search would visit more than `budget` sets."""
    n_cells = len(neighbours)
    memo: dict[tuple[int, ...], float] = {}
    left = [budget]

    def split(group: tuple[int, ...], i: int) -> list[tuple[int, ...]]:
        """The fields where cell i is safe, by the number it shows."""
        parts: dict[int, list[int]] = {}
        bit, around = 1 << i, neighbours[i]
        for f in group:
            if not f & bit:
                parts.setdefault((f & around).bit_count(), []).append(f)
        return [tuple(p) for p in parts.values()]

    def value(group: tuple[int, ...], depth: int) -> float:
        if len(group) == 1:
            return 1.0
        known = memo.get(group)
        if known is not None:
            return known
        left[0] -= 1
        if left[0] < 0 or depth > DEPTH:
            raise Budget
        best = _best(group, depth)[1]
        memo[group] = best
        return best

    def _best(group: tuple[int, ...], depth: int = 0) -> tuple[int, float]:
        n = len(group)
        some, every = 0, ~0
        for f in group:
            some |= f
            every &= f
        differ = some & ~every
        for i in range(n_cells):  # a free cell that tells something (it sees a cell that differs): open it first
            if not (some >> i) & 1 and neighbours[i] & differ:
                parts = split(group, i)
                if len(parts) > 1:
                    return i, sum(len(p) * value(p, depth + 1) for p in parts) / n
        varying = [i for i in range(n_cells) if (differ >> i) & 1]
        safe = {i: sum(1 for f in group if not (f >> i) & 1) for i in varying}
        varying.sort(key=lambda i: -safe[i])
        best_cell, best = varying[0], -1.0
        for i in varying:
            if safe[i] / n <= best:
                break
            v = sum(len(p) * value(p, depth + 1) for p in split(group, i)) / n
            if v > best:
                best_cell, best = i, v
        return best_cell, best

    group = tuple(sorted(set(fields)))
    return _best(group)
