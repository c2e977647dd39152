"""Trimming compiled, without the written proof: the pairwise rules (`.pairwise`), then
elimination (`.elimination`), alternating as `recon.rules.trim` runs them, with a short search for
a second solution near a removed clue (`.search`) before elimination.

`trim_outcome` says what trimming does on a puzzle (`Outcome`); `trim_grade` grades it;
`trim_verdict` also returns, when trimming fails on a group of open cells too large for
elimination, that group (`LargeGroup`), a proof that outlives removals.
"""

from __future__ import annotations

from enum import Enum, IntEnum

import numpy as np

from ..model import OPEN, make_problem, status
from ..result import Grade
from ..rules import trim
from .elimination import _bound_row, _mark, _reduce, _substitute_all
from .jit import kernel, load
from .pairwise import _equation_store, _fix, _flat, _equations_room, _pairwise_run, _pairwise_start, _start_values, _window_fixed, pairwise_fixed
from .search import _another_solution


class Code(IntEnum):
    """What the `_trim` kernel returns."""

    TRIMMED = 0  # every cell fixed
    OUT_OF_ROOM = 1  # more room for equations or elimination's rows needed: run again with more
    CONTRADICTION = 2
    STALLED = 3
    OVERFLOW = 4  # a coefficient could overflow int64: the Python rules decide
    SEVERAL = 5  # a second solution near the removed clue was found
    TOO_LARGE = 6  # (verdict_only) a group too large for elimination is left: stalled
    NO_ROOM = 7  # elimination's index of rows by column would pass max_words


class Outcome(str, Enum):
    """What trimming does on a puzzle (`trim_outcome`)."""

    TRIMMED = "trimmed"  # every cell fixed
    SEVERAL = "several"  # a second solution was found, so trimming cannot fix every cell
    STALLED = "stalled"  # some cell stays open
    CONTRADICTION = "contradiction"  # the clues have no solution

    def __str__(self) -> str:
        return self.value


# the kernels see plain ints, which numba compiles in as constants
TRIMMED, OUT_OF_ROOM, CONTRADICTION, STALLED, OVERFLOW, SEVERAL, TOO_LARGE, NO_ROOM = (int(code) for code in Code)
#: elimination's return codes (0 done, 1 overflow, 2 contradiction, 3 pool full) as _trim's
_TRIM_CODE = (TRIMMED, OVERFLOW, CONTRADICTION, OUT_OF_ROOM)


@kernel
def _count_open(value):  # pragma: no cover - compiled
    """The number of open cells (value -1)."""
    k = 0
    for x in range(value.size):
        if value[x] < 0:
            k += 1
    return k


@kernel
def _group_sizes(root, value, size):  # pragma: no cover - compiled
    """size[x] = the number of open cells in x's group (root: `_group_roots`)."""
    count = np.zeros(value.size, dtype=np.int64)
    for x in range(value.size):
        if value[x] < 0:
            count[root[x]] += 1
    for x in range(value.size):
        size[x] = count[root[x]] if value[x] < 0 else 0


@kernel
def _group_roots(active, value, rows, cols):  # pragma: no cover - compiled
    """Each open cell's group (cells joined by a clue seeing both), as one cell of it (the
    others' entries are not meaningful)."""
    n = rows * cols
    parent = np.arange(n)
    for k in range(n):
        if not active[k]:
            continue
        r, q = k // cols, k % cols
        first = -1
        for i in range(max(r - 1, 0), min(r + 1, rows - 1) + 1):
            for j in range(max(q - 1, 0), min(q + 1, cols - 1) + 1):
                x = i * cols + j
                if value[x] >= 0:
                    continue
                if first < 0:
                    first = x
                    continue
                u, w = first, x
                while parent[u] != u:
                    parent[u] = parent[parent[u]]
                    u = parent[u]
                while parent[w] != w:
                    parent[w] = parent[parent[w]]
                    w = parent[w]
                if u != w:
                    parent[max(u, w)] = min(u, w)
    for x in range(n):
        if value[x] < 0:
            u = x
            while parent[u] != u:
                u = parent[u]
            parent[x] = u
    return parent


@kernel
def _root(parent, x):  # pragma: no cover - compiled
    """Union-find: x's root, halving the path on the way."""
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@kernel
def _largest_part(members, joiners, rows, cols):  # pragma: no cover - compiled
    """The most cells in one part of these cells (flat indices) when each clue of joiners (flat
    indices) joins the members its window sees (`LargeGroup.still_too_large`)."""
    local = np.full(rows * cols, -1, dtype=np.int64)
    for i in range(members.size):
        local[members[i]] = i
    parent = np.arange(members.size)
    for t in range(joiners.size):
        k = joiners[t]
        r, q = k // cols, k % cols
        first = -1
        for i in range(max(r - 1, 0), min(r + 1, rows - 1) + 1):
            for j in range(max(q - 1, 0), min(q + 1, cols - 1) + 1):
                m = local[i * cols + j]
                if m < 0:
                    continue
                if first < 0:
                    first = _root(parent, m)
                else:
                    other = _root(parent, m)
                    if other != first:
                        parent[other] = first
    size = np.zeros(members.size, dtype=np.int64)
    best = 0
    for i in range(members.size):
        x = _root(parent, i)
        size[x] += 1
        best = max(best, size[x])
    return best


@kernel
def _trim(clue, active, value, size, rows, cols, capacity, pool, max_cells, mine, seed, budget, verdict_only, solved_with, max_words):  # pragma: no cover - compiled
    """Trimming's rules to their fixpoint, as `recon.rules.trim` runs them: the pairwise phase
    until it stalls, then elimination on groups of at most max_cells open cells, then the
    pairwise phase on what that fixed, and so on. value (int8, OPEN where not fixed) is updated in place; it
    may come with cells fixed already, if the pairwise phase fixes them anyway (a warm start:
    see `trim_verdict`'s start), else all -1.
    Returns a `Code`: TRIMMED when every cell is fixed, STALLED when the rules stall,
    CONTRADICTION, OUT_OF_ROOM when `capacity` equations or `pool` entries of elimination's rows
    were not enough, NO_ROOM when elimination's index (a bit per open cell and row of its group) would take
    more than max_words 64-bit words, OVERFLOW when a coefficient could overflow int64, SEVERAL when a second
    solution flipping a cell of seed's window was found (with seed >= 0: mine is then the field,
    and the puzzle with clue seed had one solution) after the pairwise phase.

    A group of more than max_cells open cells after the pairwise phase stays open: elimination
    skips it, and nothing else reaches its cells (no clue sees cells of two groups, so cells
    fixed elsewhere change none of its equations, and the pairwise rules are done with them).
    Its equations are left out of the reduced form (the form of the other groups is the same
    without them), and with verdict_only the answer is TOO_LARGE at once (the rules stall), the
    cells fixed so far being fewer than trim fixes. size (zeros, one per cell) then holds each
    open cell's group size, as it does whenever more than max_cells cells are open after the
    pairwise phase.

    solved_with >= 0 (with verdict_only): trimming solved the puzzle with that clue too. If the
    pairwise phase fixes the clue's window, it ends where it ended with the clue (its equation
    reads 0 = 0), and elimination gets the same equations, so trimming runs as it ran with the
    clue: TRIMMED at once (as `window_fixed_nearby`, but with every clue), as soon as the window is
    fixed, without the rest of the phase (its rules only add fixed cells; the puzzle has a
    solution, so no contradiction is missed)."""
    n = rows * cols
    anc, msk, cnt, alive, nxt, head, meta = _equation_store(capacity, n)
    _pairwise_start(clue, active, value, rows, cols, anc, msk, cnt, alive, nxt, head, meta)
    # with solved_with, stop as soon as its window is fixed (the rules only add fixed cells, so
    # the phase's fixpoint fixes it too): "trimmed" then, without the rest of the phase
    e = _pairwise_run(0, value, rows, cols, anc, msk, cnt, alive, nxt, head, meta, solved_with if verdict_only else -1)
    if meta[2]:
        return CONTRADICTION
    if meta[1]:
        return OUT_OF_ROOM
    if verdict_only and solved_with >= 0 and _window_fixed(value, solved_with, rows, cols):
        return TRIMMED
    if seed >= 0 and not _window_fixed(value, seed, rows, cols):
        if _another_solution(mine, active, value, rows, cols, seed, budget):
            return SEVERAL
    open_cells = _count_open(value)
    if open_cells == 0:
        return TRIMMED
    root = _group_roots(active, value, rows, cols)  # (the groups, for the sizes and the index below)
    if open_cells > max_cells:
        _group_sizes(root, value, size)
    # the reduced form of the clue equations on the cells still open, but for groups too large
    col_of = np.full(n, -1, dtype=np.int64)
    c = 0
    for x in range(n):
        if value[x] < 0:
            if size[x] > max_cells:
                if verdict_only:
                    return TOO_LARGE
            else:
                col_of[x] = c
                c += 1
    if c == 0:
        return STALLED
    cells = np.empty(c, dtype=np.int64)
    for x in range(n):
        if col_of[x] >= 0:
            cells[col_of[x]] = x
    # each row's group (that of the open cells it sees: its clue joins them), rows numbered group
    # by group, so that a column's rows, all in its group, lie in one short run of the index
    row_group = np.full(n, -1, dtype=np.int64)
    per = np.zeros(n, dtype=np.int64)
    m = 0
    for k in range(n):
        if active[k]:
            r, q = k // cols, k % cols
            for i in range(max(r - 1, 0), min(r + 1, rows - 1) + 1):
                for j in range(max(q - 1, 0), min(q + 1, cols - 1) + 1):
                    if col_of[i * cols + j] >= 0:
                        row_group[k] = root[i * cols + j]
            if row_group[k] >= 0:
                per[row_group[k]] += 1
                m += 1
    first = np.zeros(n, dtype=np.int64)
    t = 0
    for x in range(n):
        if per[x] > 0:
            first[x] = t
            t += per[x]
    # column col's bits for rows i are occ[seg[col, 0] + i // 64], words seg[col, 1] to seg[col, 2]
    seg = np.empty((c, 3), dtype=np.int64)
    words = 0
    for col in range(c):
        g = root[cells[col]]
        lo, hi = first[g] >> 6, (first[g] + per[g] - 1) >> 6
        if per[g] == 0:  # (an open cell no clue sees)
            lo, hi = 0, -1
        seg[col, 0], seg[col, 1], seg[col, 2] = words - lo, lo, hi
        words += hi - lo + 1
    if words > max_words:
        return NO_ROOM  # (the index below is the one allocation that grows with the groups' sizes squared)
    # sparse rows (see above), each with room for its 9 cells to start with
    if 9 * m > pool:
        return OUT_OF_ROOM
    pc = np.empty(pool, dtype=np.int32)
    pv = np.empty(pool, dtype=np.int64)
    st = np.empty(m, dtype=np.int64)
    ln = np.zeros(m, dtype=np.int64)
    cp = np.full(m, 9, dtype=np.int64)
    top = np.zeros(1, dtype=np.int64)
    occ = np.zeros(max(words, 1), dtype=np.uint64)
    rhs = np.zeros(m, dtype=np.int64)
    for k in range(n):
        if row_group[k] < 0:
            continue
        i = first[row_group[k]]
        first[row_group[k]] += 1
        r, q = k // cols, k % cols
        need = clue[k]
        s = top[0]
        got = 0
        for u in range(max(r - 1, 0), min(r + 1, rows - 1) + 1):
            for w in range(max(q - 1, 0), min(q + 1, cols - 1) + 1):
                x = u * cols + w
                if value[x] >= 0:
                    need -= value[x]
                elif col_of[x] >= 0:  # row-major cells: the columns come in increasing order
                    pc[s + got] = col_of[x]
                    pv[s + got] = 1
                    _mark(occ, seg, col_of[x], i, True)
                    got += 1
        st[i] = s
        ln[i] = got
        top[0] = s + 9
        rhs[i] = need
    mx = np.empty(m, dtype=np.int64)
    piv = np.full(m, -1, dtype=np.int64)
    row_of = np.full(c, -1, dtype=np.int64)
    buf_c = np.empty(c, dtype=np.int32)
    buf_v = np.empty(c, dtype=np.int64)
    lst = np.empty(m, dtype=np.int64)
    rows_buf = np.empty(m, dtype=np.int64)
    hit = np.zeros(m, dtype=np.bool_)
    gone = np.full(c, -1, dtype=np.int8)
    code = _reduce(pc, pv, st, ln, cp, top, occ, seg, rhs, mx, piv, row_of, buf_c, buf_v, rows_buf, c)
    if code:
        return _TRIM_CODE[code]
    dirty = np.ones(m, dtype=np.bool_)
    synced = value.copy()
    fixed_cols = np.empty(c, dtype=np.int64)
    fixed_vals = np.empty(c, dtype=np.int64)
    found = np.full(n, OPEN, dtype=np.int8)
    while True:
        if _count_open(value) == 0:
            return TRIMMED
        # elimination: bound the rows that changed (every group left is small enough, and stays so)
        any_found = False
        for i in range(m):
            if not dirty[i] or piv[i] < 0:
                continue
            dirty[i] = False
            if not _bound_row(pc, pv, st, ln, rhs, i, cells, found):
                return CONTRADICTION
        for x in range(n):
            if found[x] >= 0:
                if value[x] < 0:
                    any_found = True
                    _fix(x, found[x], value, anc, msk, cnt, alive, nxt, head, meta, rows, cols)
                found[x] = OPEN
        if not any_found:
            return STALLED
        e = _pairwise_run(e, value, rows, cols, anc, msk, cnt, alive, nxt, head, meta)
        if meta[2]:
            return CONTRADICTION
        if meta[1]:
            return OUT_OF_ROOM
        k = 0
        for x in range(n):
            if synced[x] < 0 and value[x] >= 0:
                synced[x] = value[x]
                fixed_cols[k] = col_of[x]
                fixed_vals[k] = value[x]
                k += 1
        code = _substitute_all(
            pc, pv, st, ln, cp, top, occ, seg, rhs, mx, piv, row_of, buf_c, buf_v, lst, rows_buf, hit, gone, fixed_cols, fixed_vals, k, dirty
        )
        if code:
            return _TRIM_CODE[code]


#: Decisions a search for a second solution near a removed clue may take before trimming decides.
SEARCH_BUDGET = 2000
_NO_BOUND = 1 << 62  # max_words when the index is not bounded


class IndexTooLarge(Exception):
    """Elimination's index of rows by column would pass the bound the caller gave: the Python
    trimmer, which keeps sparse rows without one, is the one to run."""


def trim_outcome(
    clues: np.ndarray,
    known: np.ndarray,
    *,
    field: np.ndarray | None = None,
    removed: int = -1,
    capacity: int | None = None,
    pool: int | None = None,
    verdict_only: bool = False,
    solved_with: int = -1,
    start: np.ndarray | None = None,
    max_cells: int = trim.ELIMINATION_MAX_CELLS,
    max_index_bytes: int | None = None,
) -> tuple[Outcome, np.ndarray]:
    """Run trimming's rules compiled: "trimmed" (every cell fixed), "several" (a second
    solution was found: see below), "stalled" (trimming does not fix every cell) or
    "contradiction" (the clues have no solution; nothing fixed is reported), and the cells fixed
    (int8 per cell: 0, 1, or OPEN; sound: every solution has those values). The cells fixed
    are trim's too (tests compare them).

    "trimmed" exactly when the Trimmer fixes every cell (`recon.rules.trim`) on a consistent puzzle, without
    the written proof. It is the same answer, not an approximation: the pairwise rules fix the
    same cells whatever order they run in (a fixed cell or a derived equation never stops a rule
    from applying), and elimination's result depends only on the cells fixed (the reduced row
    echelon form of the clue equations is unique), so each round fixes what trim's round fixes.
    Tests compare the two. Where an int64 coefficient could overflow (never seen), trim decides.

    With the field and a clue `removed` from a puzzle that had one solution, a short search for
    a second solution that flips a cell of that clue's window runs after the pairwise phase:
    when it finds one, trimming cannot solve the puzzle (it is sound): "several", at once.

    verdict_only: stop as soon as some cell can never be fixed (a group of open cells too large
    for elimination is left after the pairwise phase); the outcome is the same, but the cells
    reported may then be fewer than trim's. solved_with (a clue not in known, with verdict_only):
    trimming solved the puzzle with that clue; "trimmed" as soon as the pairwise phase fixes its
    window (see _trim). start: cells the pairwise phase fixes anyway (`pairwise_fixed`'s answer
    on this puzzle or one with fewer clues), where it starts. max_cells: elimination runs on
    groups of open cells up to this size, as trim's. max_index_bytes: raise IndexTooLarge rather
    than let elimination's index (a bit per open cell and row of its group) take more.
    """
    if solved_with >= 0 and not verdict_only:
        raise ValueError("solved_with needs verdict_only: the cells fixed are not all reported")
    code, value, _ = _run_trim(clues, known, field, removed, capacity, pool, verdict_only, solved_with, start, max_cells,
                               max_index_bytes)
    return _outcome(code, value, clues, known, max_cells)


def _outcome(code, value, clues, known, max_cells) -> tuple[Outcome, np.ndarray]:
    """trim_outcome's answer from _trim's code and cells (on an overflow, the Python rules decide)."""
    if code == Code.OVERFLOW:
        trimmer = trim.Trimmer(make_problem(clues, known), max_cells)
        try:
            trimmer.load()
            trimmer.run()
        except trim.Contradiction:  # no solution, nothing fixed to report
            return Outcome.CONTRADICTION, np.full(clues.shape, OPEN, dtype=np.int8)
        return (Outcome.TRIMMED if trimmer.is_done else Outcome.STALLED), trimmer.value.reshape(clues.shape).astype(np.int8)
    if code == Code.CONTRADICTION:
        return Outcome.CONTRADICTION, np.full(clues.shape, OPEN, dtype=np.int8)
    if code in (Code.TRIMMED, Code.SEVERAL):
        return Outcome(Code(code).name.lower()), value.reshape(clues.shape)
    return Outcome.STALLED, value.reshape(clues.shape)  # STALLED or TOO_LARGE


def _run_trim(clues, known, field=None, removed=-1, capacity=None, pool=None, verdict_only=False, solved_with=-1, start=None,
              max_cells=trim.ELIMINATION_MAX_CELLS, max_index_bytes=None):
    """_trim on a puzzle, with more room (derived equations, elimination's rows) until it has
    enough: (code, value, group size per open cell when _trim worked them out, else zeros).
    start: cells the pairwise phase fixes anyway (int8 per cell, OPEN for the others), or None.
    Raises IndexTooLarge when elimination's index would pass max_index_bytes (None: no bound)."""
    load()
    rows, cols = clues.shape
    n = rows * cols
    clue, active = _flat(clues, known)
    capacity = _equations_room(n) if capacity is None else capacity
    pool = 8 * capacity if pool is None else pool
    mine = np.zeros(n, dtype=np.uint8) if field is None else np.ascontiguousarray(field, dtype=np.uint8).ravel()
    removed = removed if field is not None else -1
    while True:
        value = _start_values(start, n)
        size = np.zeros(n, dtype=np.int64)
        code = _trim(
            clue, active, value, size, rows, cols, capacity, pool, max_cells, mine, removed, SEARCH_BUDGET,
            verdict_only, int(solved_with), _NO_BOUND if max_index_bytes is None else int(max_index_bytes) // 8,
        )
        if code == Code.NO_ROOM:
            raise IndexTooLarge(f"elimination's index would pass {max_index_bytes} bytes")
        if code != Code.OUT_OF_ROOM:
            return code, value, size
        capacity, pool = 4 * capacity, 4 * pool  # out of room: again with more


def trim_grade(
    clues: np.ndarray, known: np.ndarray, verdict_only: bool = False, max_cells: int = trim.ELIMINATION_MAX_CELLS,
    max_index_bytes: int | None = None,
) -> tuple[Grade | None, np.ndarray | None]:
    """The grade trimming shows on a puzzle, compiled, and the cells it fixes: advanced when the
    pairwise phase fixes every cell, elimination when trimming, going on from that phase's
    fixpoint (it runs once), fixes every cell, search when it stalls; (None, None) when the clues
    clash. Whether the single-clue rules alone would do is the caller's to tell.
    verdict_only: as trim_outcome's (sooner; the cells reported may then be fewer).
    max_index_bytes: as trim_outcome's (IndexTooLarge)."""
    pairwise = pairwise_fixed(clues, known)
    if pairwise is None:
        return None, None
    if (pairwise != OPEN).all():
        return Grade.ADVANCED, pairwise
    outcome, fixed = trim_outcome(clues, known, verdict_only=verdict_only, start=pairwise, max_cells=max_cells,
                                  max_index_bytes=max_index_bytes)
    if outcome is Outcome.CONTRADICTION:
        return None, None
    return (Grade.ELIMINATION if outcome is Outcome.TRIMMED else Grade.SEARCH), fixed


def trims_fully(clues: np.ndarray, known: np.ndarray, **options) -> bool:
    """Does trimming (all its rules) fix every cell of this puzzle? (See trim_outcome; solved_with=c
    when trimming solved the puzzle with clue c too, as in generation: sometimes a shortcut.)"""
    return trim_outcome(clues, known, verdict_only=True, **options)[0] is Outcome.TRIMMED


def trim_verdict(
    clues: np.ndarray, known: np.ndarray, solved_with: int = -1, start: np.ndarray | None = None,
    max_cells: int = trim.ELIMINATION_MAX_CELLS,
) -> tuple[bool, "LargeGroup | None"]:
    """trims_fully's answer, and when trimming fails because the pairwise phase leaves a group of
    open cells too large for elimination (more than max_cells), that group (see
    LargeGroup: a proof that trimming fails on puzzles with fewer clues too), else None.

    start: `pairwise_fixed` of a puzzle whose clues are all in force here (fewer than here, or
    the same). The pairwise phase then starts from those cells instead of none and reaches the
    same fixpoint (it fixes them anyway), so the answer is the same, sooner: the phase took about
    a quarter of a trim in a 60x60 generation. A start from other clues would not be sound."""
    code, value, size = _run_trim(clues, known, verdict_only=True, solved_with=solved_with, start=start, max_cells=max_cells)
    if code == Code.TOO_LARGE:
        return False, LargeGroup(known, size.reshape(clues.shape) > max_cells, max_cells)
    return _outcome(code, value, clues, known, max_cells)[0] is Outcome.TRIMMED, None


class LargeGroup:
    """The open cells of too large groups (more than `limit` cells) after the
    pairwise phase of a puzzle without clue c, and the clues in force that join them (a clue that
    sees two or more of them).

    That failure outlives removals. On a puzzle with fewer clues (still without c), the pairwise
    phase fixes no more cells (its rules are monotone in the clues), so these cells stay open, c's
    window stays open too (no early "trimmed"), and each joining clue still in force still joins
    the cells it sees: the groups there contain the parts these cells fall into through the
    joining clues left. If one part still has more than `limit` cells, trimming fails there too
    (`still_too_large`), and generation keeps c without trimming again."""

    def __init__(self, known: np.ndarray, cells: np.ndarray, limit: int):
        self.shape = cells.shape
        self.limit = limit
        # flat int32 indices only (about 20 KB at 100x100, where a puzzle keeps over a thousand)
        self.member_cells = np.flatnonzero(cells.ravel()).astype(np.int32)
        self.joiners = np.flatnonzero((np.asarray(known, dtype=bool) & (status(cells) >= 2)).ravel()).astype(np.int32)

    def still_too_large(self, known: np.ndarray) -> bool:
        """With these clues in force (flat bool, fewer than when the group was found), does a part
        of these cells joined by the clues left still hold more than the limit? (A union-find,
        compiled: scipy's connected components cost more than the question, asked thousands of
        times a generation.)"""
        left = self.joiners[known[self.joiners]]
        if left.size == self.joiners.size:
            return True  # every joining clue is there: the same group
        load()
        rows, cols = self.shape
        return int(_largest_part(self.member_cells, left, rows, cols)) > self.limit
