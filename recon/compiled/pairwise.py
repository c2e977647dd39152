"""The pairwise rules compiled (subset and overlap, with the basic rules); the Python rules are
`recon.rules.trim`'s.

`pairwise_fixed` runs them to their fixpoint on a whole puzzle, `pairwise_window_fixed` until one
clue's window is fixed. `window_fixed_nearby` runs them on the clues near one clue only, stopping
once that clue's window is fixed: a sound proof about the whole puzzle without the clue (see its
docstring). `must_stay` is the converse proof, with the far cells given their value in the field.
"""

from __future__ import annotations

import math

import numpy as np

from ..model import OPEN
from .jit import kernel, load


# -- the pairwise rules (advanced grade) ------------------------------------------------------
# An equation of trimming is always a subset of one clue's window (substitution and the subset
# rule only shrink sets), so it is stored as the top-left corner of its cells' bounding box (the
# anchor, a cell index) and a 9-bit mask over the 3x3 box from there: one canonical form per cell
# set. Two equations can share cells only when their anchors are within 2 rows and 2 columns;
# the pair is compared in a 7x7 frame (49 bits) around the first one.
# Equations live in arrays with one linked list per anchor; meta = [count, overflow, contradiction,
# dead equations still in the lists, equations in the lists]. A substituted equation dies (a new,
# smaller one takes its place): by the end of a 60x60 pairwise phase four in five listed were
# dead, so the lists are rebuilt without them whenever half are (`_drop_dead`), and at least one
# for every 64 anchors: a rebuild walks every anchor's list, and a sweep of a large board
# (`_sweep_run`) keeps few equations alive, so half of them died many times over.


@kernel
def _equation_store(capacity, n):  # pragma: no cover - compiled
    """Empty arrays for `capacity` equations on a grid of n cells (see above)."""
    anc = np.empty(capacity, dtype=np.int32)
    msk = np.empty(capacity, dtype=np.int16)
    cnt = np.empty(capacity, dtype=np.int16)
    alive = np.zeros(capacity, dtype=np.bool_)
    nxt = np.empty(capacity, dtype=np.int32)
    head = np.full(n, -1, dtype=np.int32)
    meta = np.zeros(5, dtype=np.int64)
    return anc, msk, cnt, alive, nxt, head, meta


@kernel
def _popcount(x):  # pragma: no cover - compiled
    k = 0
    while x:
        x &= x - 1
        k += 1
    return k


@kernel
def _eq_add(ar, ac, mask, count, anc, msk, cnt, alive, nxt, head, meta, cols):  # pragma: no cover
    """Add the equation on the cells of mask (3x3 box from (ar, ac)) unless one on them exists."""
    if mask == 0:
        if count != 0:
            meta[2] = 1
        return
    while mask & 0b000000111 == 0:  # no cell in the box's first row: move down
        mask >>= 3
        ar += 1
    while mask & 0b001001001 == 0:  # none in its first column: move right
        mask = (mask >> 1) & 0b011011011
        ac += 1
    if count < 0 or count > _popcount(mask):
        meta[2] = 1
        return
    a = ar * cols + ac
    e = head[a]
    while e >= 0:
        if alive[e] and msk[e] == mask:
            if cnt[e] != count:
                meta[2] = 1
            return
        e = nxt[e]
    size = meta[0]
    if size == anc.size:
        meta[1] = 1
        return
    anc[size] = a
    msk[size] = mask
    cnt[size] = count
    alive[size] = True
    nxt[size] = head[a]
    head[a] = size
    meta[0] = size + 1
    meta[4] += 1


def _spread_table():
    """For each 3x3 mask (bit 3*i + j: row i, column j of the box), the same cells as bits of a
    7x7 frame whose top-left cell is the box's (bit 7*i + j)."""
    table = np.zeros(512, dtype=np.int64)
    for mask in range(512):
        for i in range(9):
            if (mask >> i) & 1:
                table[mask] |= 1 << ((i // 3) * 7 + i % 3)
    return table


_SPREAD = _spread_table()  # a global array: numba compiles it in as a constant


@kernel
def _low_bit(x):  # pragma: no cover - compiled
    """The index of the lowest set bit of x > 0 (exact: frame masks have under 53 bits)."""
    return math.frexp(float(x & -x))[1] - 1


@kernel
def _frame(a, mask, fr, fc, cols):  # pragma: no cover - compiled
    """The cells of an equation as bits of the 7x7 frame whose top-left cell is (fr, fc) (a table
    lookup and a shift; a loop over the mask's 9 bits took a quarter of the pairwise rules' time)."""
    ar, ac = a // cols, a % cols
    return _SPREAD[mask] << ((ar - fr) * 7 + ac - fc)


@kernel
def _add_framed(bits, count, fr, fc, anc, msk, cnt, alive, nxt, head, meta, cols):  # pragma: no cover
    """Add the equation on the cells of a 7x7-frame mask (they lie in one 3x3 box)."""
    if bits == 0:
        _eq_add(fr, fc, 0, count, anc, msk, cnt, alive, nxt, head, meta, cols)
        return
    r0 = _low_bit(bits) // 7  # the lowest bit is in the first row
    columns = 0
    for r in range(7):
        columns |= (bits >> (7 * r)) & 0x7F
    c0 = _low_bit(columns)
    mask = 0
    for i in range(3):  # the box's three rows, from (r0, c0)
        mask |= ((bits >> ((r0 + i) * 7 + c0)) & 7) << (3 * i)
    _eq_add(fr + r0, fc + c0, mask, count, anc, msk, cnt, alive, nxt, head, meta, cols)


@kernel
def _fix(x, v, value, anc, msk, cnt, alive, nxt, head, meta, rows, cols):  # pragma: no cover
    """Fix cell x to v and substitute it into every equation holding it."""
    if value[x] >= 0:
        if value[x] != v:
            meta[2] = 1
        return
    value[x] = v
    xr, xc = x // cols, x % cols
    for ar in range(max(xr - 2, 0), xr + 1):
        for ac in range(max(xc - 2, 0), xc + 1):
            bit = (xr - ar) * 3 + xc - ac
            e = head[ar * cols + ac]
            while e >= 0:
                if alive[e] and (msk[e] >> bit) & 1:
                    alive[e] = False
                    meta[3] += 1
                    _eq_add(ar, ac, msk[e] & ~(1 << bit), cnt[e] - v, anc, msk, cnt, alive, nxt, head, meta, cols)
                e = nxt[e]


@kernel
def _fix_framed(bits, v, fr, fc, value, anc, msk, cnt, alive, nxt, head, meta, rows, cols):  # pragma: no cover
    """Fix the cells of a 7x7-frame mask to v, lowest bit first."""
    while bits:
        b = _low_bit(bits)
        bits &= bits - 1
        _fix((fr + b // 7) * cols + fc + b % 7, v, value, anc, msk, cnt, alive, nxt, head, meta, rows, cols)


@kernel
def _pairwise_start(clue, active, value, rows, cols, anc, msk, cnt, alive, nxt, head, meta, order=None):  # pragma: no cover
    """Store one equation per active clue, the fixed cells substituted (in this order of clues:
    row-major if None)."""
    for t in range(rows * cols if order is None else order.size):
        k = t if order is None else order[t]
        if active[k]:
            _clue_add(k, clue[k], value, rows, cols, anc, msk, cnt, alive, nxt, head, meta)


@kernel
def _clue_add(k, need, value, rows, cols, anc, msk, cnt, alive, nxt, head, meta):  # pragma: no cover - compiled
    """Store clue k's equation (need mines in its window), the fixed cells substituted."""
    r, c = k // cols, k % cols
    ar, ac = max(r - 1, 0), max(c - 1, 0)
    mask = 0
    for i in range(ar, min(r + 1, rows - 1) + 1):
        for j in range(ac, min(c + 1, cols - 1) + 1):
            x = i * cols + j
            if value[x] < 0:
                mask |= 1 << ((i - ar) * 3 + j - ac)
            else:
                need -= value[x]
    _eq_add(ar, ac, mask, need, anc, msk, cnt, alive, nxt, head, meta, cols)


@kernel
def _drop_dead(alive, nxt, head, meta):  # pragma: no cover - compiled
    """Unlink the dead equations from every anchor's list, keeping the order of the others."""
    for a in range(head.size):
        last = -1
        f = head[a]
        head[a] = -1
        while f >= 0:
            after = nxt[f]
            if alive[f]:
                if last < 0:
                    head[a] = f
                else:
                    nxt[last] = f
                last = f
            f = after
        if last >= 0:
            nxt[last] = -1
    meta[4] -= meta[3]
    meta[3] = 0


@kernel
def _pairwise_run(e, value, rows, cols, anc, msk, cnt, alive, nxt, head, meta, watch=-1):  # pragma: no cover
    """Run trimming's basic, subset and overlap rules to their fixpoint, from equation e on.

    Each equation is looked at once, in the order it was made: the basic rules, then every
    equation sharing a cell with it (a later one meets it when that one is looked at). Returns
    the next equation to look at, so that the run goes on when cells are fixed from outside.
    watch >= 0: stop as soon as every cell of that clue's window is fixed.
    """
    while e < meta[0]:
        if meta[1] or meta[2]:
            return e
        if meta[3] > max(256, head.size >> 6) and 2 * meta[3] > meta[4]:  # no list is being walked here
            _drop_dead(alive, nxt, head, meta)
        if watch >= 0 and _window_fixed(value, watch, rows, cols):
            return e
        if not alive[e]:
            e += 1
            continue
        er, ec = anc[e] // cols, anc[e] % cols
        fr, fc = er - 2, ec - 2
        mine = _frame(anc[e], msk[e], fr, fc, cols)
        if cnt[e] == 0 or cnt[e] == _popcount(mine):
            _fix_framed(mine, 0 if cnt[e] == 0 else 1, fr, fc, value, anc, msk, cnt, alive, nxt, head, meta, rows, cols)
            e += 1
            continue
        for ar in range(max(er - 2, 0), min(er + 2, rows - 1) + 1):
            for ac in range(max(ec - 2, 0), min(ec + 2, cols - 1) + 1):
                f = head[ar * cols + ac]
                while f >= 0 and alive[e]:
                    if f == e or not alive[f]:
                        f = nxt[f]
                        continue
                    other = _frame(anc[f], msk[f], fr, fc, cols)
                    shared = mine & other
                    if shared == 0:
                        f = nxt[f]
                        continue
                    only_e, only_f = mine & ~other, other & ~mine
                    ce, cf = np.int64(cnt[e]), np.int64(cnt[f])
                    after = nxt[f]
                    if only_e == 0:  # subset: the rest of f is an equation
                        _add_framed(only_f, cf - ce, fr, fc, anc, msk, cnt, alive, nxt, head, meta, cols)
                    elif only_f == 0:
                        _add_framed(only_e, ce - cf, fr, fc, anc, msk, cnt, alive, nxt, head, meta, cols)
                    else:  # overlap: bound the shared mines, fix private parts left no choice
                        ne, nf, ns = _popcount(only_e), _popcount(only_f), _popcount(shared)
                        low = max(0, ce - ne, cf - nf)
                        high = min(ns, ce, cf)
                        if low > high:
                            meta[2] = 1
                        fix_e = 0 if ce - low == 0 else (1 if ce - high == ne else -1)
                        fix_f = 0 if cf - low == 0 else (1 if cf - high == nf else -1)
                        if fix_e >= 0:
                            _fix_framed(only_e, fix_e, fr, fc, value, anc, msk, cnt, alive, nxt, head, meta, rows, cols)
                        if fix_f >= 0:
                            _fix_framed(only_f, fix_f, fr, fc, value, anc, msk, cnt, alive, nxt, head, meta, rows, cols)
                    f = after
        e += 1
    return e


@kernel
def _window_fixed(value, k, rows, cols):  # pragma: no cover - compiled
    """Is every cell of clue k's window fixed?"""
    r, q = k // cols, k % cols
    for i in range(max(r - 1, 0), min(r + 1, rows - 1) + 1):
        for j in range(max(q - 1, 0), min(q + 1, cols - 1) + 1):
            if value[i * cols + j] < 0:
                return False
    return True


@kernel
def _local_pairwise(clue, active, rows, cols, c, radius, capacity, mine, given, preset):  # pragma: no cover - compiled
    """Do the pairwise rules on the active clues within `radius` rows and columns of clue c (c
    itself excluded) fix every cell of c's window? 1 or 0; -1 when `capacity` equations were not
    enough. A relaxation: those clues' equations are the whole grid's, and the cells around them
    that no such clue covers are left free. With given >= 0, every cell farther than `given` rows
    or columns from c starts fixed to its value in mine (the field) instead: a bound the other
    way (see `must_stay`); a contradiction then answers 1 (no proof of anything). preset (int8
    per cell of the grid, or empty): cells known to be fixed on the puzzle without c, fixed so
    from the start (a warm start: a stronger relaxation, still sound)."""
    r, q = c // cols, c % cols
    r0, r1 = max(r - radius - 1, 0), min(r + radius + 2, rows)
    c0, c1 = max(q - radius - 1, 0), min(q + radius + 2, cols)
    h, w = r1 - r0, c1 - c0
    sub_clue = np.zeros(h * w, dtype=np.int64)
    sub_active = np.zeros(h * w, dtype=np.bool_)
    dist = np.full(h * w, h + w, dtype=np.int64)  # from c, in rows and columns; no clue: last
    for i in range(h):
        for j in range(w):
            gi, gj = r0 + i, c0 + j
            # the outer ring (unless it is the grid's edge) holds cells but no clues
            inner = (i > 0 or r0 == 0) and (i < h - 1 or r1 == rows) and (j > 0 or c0 == 0) and (j < w - 1 or c1 == cols)
            k = gi * cols + gj
            if inner and active[k] and k != c:
                sub_active[i * w + j] = True
                sub_clue[i * w + j] = clue[k]
                dist[i * w + j] = max(abs(gi - r), abs(gj - q))
    anc, msk, cnt, alive, nxt, head, meta = _equation_store(capacity, h * w)
    value = np.full(h * w, OPEN, dtype=np.int8)
    for i in range(h):
        for j in range(w):
            gi, gj = r0 + i, c0 + j
            if given >= 0 and max(abs(gi - r), abs(gj - q)) > given:
                value[i * w + j] = mine[gi * cols + gj]
            elif preset.size:
                value[i * w + j] = preset[gi * cols + gj]
    # the equations nearest c first: the run stops as soon as c's window is fixed
    order = np.argsort(dist, kind="mergesort")
    _pairwise_start(sub_clue, sub_active, value, h, w, anc, msk, cnt, alive, nxt, head, meta, order)
    here = (r - r0) * w + q - c0
    _pairwise_run(0, value, h, w, anc, msk, cnt, alive, nxt, head, meta, here)
    if meta[1]:
        return -1
    if meta[2]:
        return 1 if given >= 0 else 0  # contradictory clues: no proof here
    return 1 if _window_fixed(value, here, h, w) else 0


@kernel
def _pairwise_fixpoint(clue, active, value, rows, cols, capacity, watch):  # pragma: no cover - compiled
    """The pairwise phase of trimming alone, to its fixpoint: value (int8, OPEN where not fixed) updated in
    place. 0, or 1 when `capacity` equations were not enough, 2 on a contradiction. watch >= 0:
    stop as soon as that clue's window is fixed (3 then)."""
    anc, msk, cnt, alive, nxt, head, meta = _equation_store(capacity, rows * cols)
    _pairwise_start(clue, active, value, rows, cols, anc, msk, cnt, alive, nxt, head, meta)
    _pairwise_run(0, value, rows, cols, anc, msk, cnt, alive, nxt, head, meta, watch)
    if watch >= 0 and _window_fixed(value, watch, rows, cols):
        return 3
    return 2 if meta[2] else (1 if meta[1] else 0)


@kernel
def _split_ways(rows, cols, anc, msk, cnt, start, cells, mines, watch, capacity, alike):  # pragma: no cover - compiled
    """The ways of one case split (`recon.rules.trim.Trimmer._split`, its loop over the ways,
    without the proof): for each way to place `mines` mines among `cells` (flat indices, ways in
    itertools.combinations' order), the equations (anchor index, 3x3 mask, count; the split one
    first) are stored on a box of rows x cols cells (value `start`: OPEN on the equations'
    cells), the way's cells fixed in order, and the basic and pairwise rules run to their
    fixpoint: the way fails on a contradiction, else holds. alike (int8, a cell each): the value
    every way that holds gave a cell of `watch`, else OPEN. As the Python loop does, it stops
    before following a way once two ways hold and no cell is alike. Returns (code, ways
    followed, ways that hold); code 1 when `capacity` equations were not enough."""
    n, k = cells.size, mines
    pick = np.arange(k)
    alike[:] = OPEN
    ways = held = same = 0
    while True:
        if held >= 2 and same == 0:
            return 0, ways, held
        ways += 1
        anc_, msk_, cnt_, alive, nxt, head, meta = _equation_store(capacity, rows * cols)
        value = start.copy()
        for i in range(anc.size):
            _eq_add(anc[i] // cols, anc[i] % cols, msk[i], cnt[i], anc_, msk_, cnt_, alive, nxt, head, meta, cols)
        j = 0
        for t in range(n):
            if meta[2]:
                break
            chosen = j < k and pick[j] == t
            if chosen:
                j += 1
            _fix(cells[t], 1 if chosen else 0, value, anc_, msk_, cnt_, alive, nxt, head, meta, rows, cols)
        if not meta[2]:
            _pairwise_run(0, value, rows, cols, anc_, msk_, cnt_, alive, nxt, head, meta)
        if meta[1]:
            return 1, ways, held
        if not meta[2]:  # the way holds
            for x in watch:
                if held == 0 and value[x] >= 0:
                    alike[x] = value[x]
                    same += 1
                elif held > 0 and alike[x] >= 0 and value[x] != alike[x]:
                    alike[x] = OPEN
                    same -= 1
            held += 1
        i = k - 1  # the next way: itertools.combinations' order
        while i >= 0 and pick[i] == n - k + i:
            i -= 1
        if i < 0:
            return 0, ways, held
        pick[i] += 1
        for t in range(i + 1, k):
            pick[t] = pick[t - 1] + 1


def split_ways(shape, equations, open_cells, cells, mines):
    """`_split_ways` on a case split's box (`recon.rules.trim.Trimmer._split` passes it as its
    `split_probe`): shape (rows, cols); equations (name, anchor row, anchor column, 3x3 mask,
    count), the split one first; open_cells, the equations' cells (all open); cells, the split
    equation's cells in order. Returns (ways followed, ways that hold, {cell: value} for each
    open cell that every way that holds fixed alike)."""
    load()
    rows, cols = shape
    anc = np.array([ar * cols + ac for _, ar, ac, _, _ in equations], dtype=np.int64)
    msk = np.array([mask for _, _, _, mask, _ in equations], dtype=np.int64)
    cnt = np.array([count for *_, count in equations], dtype=np.int64)
    seen = np.asarray(open_cells, dtype=np.int64)
    start = np.zeros(rows * cols, dtype=np.int8)
    start[seen] = OPEN
    at = np.asarray(cells, dtype=np.int64)
    alike = np.empty(rows * cols, dtype=np.int8)
    capacity = _equations_room(rows * cols)
    while True:
        code, ways, held = _split_ways(rows, cols, anc, msk, cnt, start, at, mines, seen, capacity, alike)
        if code == 0:
            return ways, held, {int(x): int(alike[x]) for x in seen if alike[x] >= 0}
        capacity *= 4  # out of room for derived equations: again with more


@kernel
def _sweep_run(number, opened, value, rows, cols, capacity):  # pragma: no cover - compiled
    """A Minesweeper player's basic and pairwise rules to their fixpoint, each cell they prove
    safe opened as they go: its number (its 3x3 count, the cell being empty) joins as one more
    equation, so a zero's fixes its neighbours, which open in turn, as the game's flood does.
    opened (bool) and value (int8: 0 safe, 1 a mine, OPEN undecided) updated in place; 0, or 1
    when `capacity` equations were not enough, 2 on a contradiction.

    Rounds: the rules run to their fixpoint on the equations so far, then every cell fixed safe
    is opened. Every cell the rules fix lies in an equation, so in the window of an opened cell:
    a round looks only at the undecided cells beside opened ones (`todo`)."""
    n = rows * cols
    anc, msk, cnt, alive, nxt, head, meta = _equation_store(capacity, n)
    listed = np.zeros(n, dtype=np.bool_)
    todo = np.empty(n, dtype=np.int64)
    later = np.empty(n, dtype=np.int64)
    size = 0
    for x in range(n):
        if opened[x]:
            size = _sweep_open(x, number, listed, todo, size, value, rows, cols, anc, msk, cnt, alive, nxt, head, meta)
    e = 0
    while True:
        e = _pairwise_run(e, value, rows, cols, anc, msk, cnt, alive, nxt, head, meta)
        if meta[2]:
            return 2
        if meta[1]:
            return 1
        kept = 0
        grown = size
        for t in range(size):  # cells opened here list their neighbours after `size`, in todo
            x = todo[t]
            if value[x] < 0:
                later[kept] = x
                kept += 1
            elif value[x] == 0 and not opened[x]:
                opened[x] = True
                grown = _sweep_open(x, number, listed, todo, grown, value, rows, cols, anc, msk, cnt, alive, nxt, head, meta)
        if e == meta[0]:  # no cell opened, so no new equation: the fixpoint
            return 0
        for t in range(size, grown):
            later[kept] = todo[t]
            kept += 1
        todo, later = later, todo
        size = kept


@kernel
def _sweep_open(x, number, listed, todo, size, value, rows, cols, anc, msk, cnt, alive, nxt, head, meta):  # pragma: no cover
    """Opened cell x: its equation stored, its undecided neighbours listed in todo from `size`
    (once each); returns the new size."""
    _clue_add(x, number[x], value, rows, cols, anc, msk, cnt, alive, nxt, head, meta)
    r, c = x // cols, x % cols
    for i in range(max(r - 1, 0), min(r + 1, rows - 1) + 1):
        for j in range(max(c - 1, 0), min(c + 1, cols - 1) + 1):
            y = i * cols + j
            if value[y] < 0 and not listed[y]:
                listed[y] = True
                todo[size] = y
                size += 1
    return size


def sweep_fixed(numbers: np.ndarray, opened: np.ndarray, known: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """What a Minesweeper player's single and pairwise rules open and mark from this board, as
    `recon.rules.sweeper.Sweeper` runs them: each cell they prove safe is opened and its number
    read, until nothing more follows. numbers: each cell's count of mines around it (its 3x3
    count, read only where opened); opened: the cells open (bool); known: 0 safe, 1 a known mine,
    OPEN undecided (int8; opened cells 0). Returns the cells opened and known after (new arrays).
    Their fixpoint does not depend on the order the rules run in, so this is the Python player's
    answer (tests hold the two equal). ValueError when the numbers contradict each other."""
    load()
    rows, cols = known.shape
    n = rows * cols
    number = np.require(numbers, dtype=np.int64, requirements=["C", "W"]).ravel()
    capacity = _equations_room(n)
    while True:
        now = np.array(opened, dtype=np.bool_).ravel()
        value = np.array(known, dtype=np.int8).ravel()
        code = _sweep_run(number, now, value, rows, cols, capacity)
        if code == 2:
            raise ValueError("the numbers shown contradict each other")
        if code == 0:
            return now.reshape(rows, cols), value.reshape(rows, cols)
        capacity *= 4  # out of room for derived equations: again with more


_NO_FIELD = np.zeros(0, dtype=np.int8)  # _local_pairwise's field when no cell is given


def _flat(clues, known):
    """The kernels' view of a puzzle: clue counts (int64) and clues in force (bool), flat and
    writable (a read-only array is another type to numba: one more specialisation to compile
    and to load from its cache)."""
    return (np.require(clues, dtype=np.int64, requirements=["C", "W"]).ravel(),
            np.require(known, dtype=np.bool_, requirements=["C", "W"]).ravel())


def _start_values(start, n):
    """A kernel's cells to start from: a copy of start (int8, flat), or every cell open."""
    return np.full(n, OPEN, dtype=np.int8) if start is None else np.array(start, dtype=np.int8).ravel()


def _equations_room(n):
    """Room for derived equations to start with on n cells (a kernel out of room gets 4x more)."""
    return 16 * n + 1024


def window_fixed_nearby(
    clues: np.ndarray, known: np.ndarray, c: int, radius: int, capacity: int | None = None, start: np.ndarray | None = None
) -> bool:
    """Do the pairwise rules on the clues in force (known) within `radius` rows and columns of
    clue c, without c, fix every cell of c's window?

    Sound, and a proof about the whole puzzle without c: those clues' equations are the whole
    grid's, the cells around them are left free, and the pairwise rules are monotone (more
    equations or fixed cells never stop a rule, and their fixpoint does not depend on the order
    they run in), so trimming's pairwise phase on the whole puzzle without c fixes c's window too.
    Two uses in generation (`recon.generation`), where the puzzle with c had the field as its only
    solution and, for advanced, was solved by trimming:

    - every solution without c agrees with the field on c's window, so it meets c too: the field
      is still the only solution (search grade);
    - trimming without c runs as it did with c, and solves the puzzle (advanced grade): with c's
      window fixed, c's equation is 0 = 0, so the pairwise phase ends where it ended with c, and
      elimination, which only takes equations that see an open cell, gets the same equations.

    The answer is monotone as well: more clues in force or a larger radius never turn a yes into
    a no (the same fixpoint argument), which `recon.generation` relies on. Its Python twin is
    `recon.generation.local.window_fixed_nearby_python` (tests compare them).

    start: cells the pairwise rules fix on the whole puzzle without c (a warm start, as
    `pairwise_fixed` gives for fewer clues), fixed so from the start: still sound, and it often
    decides at a small radius what otherwise needs the whole grid.
    """
    load()
    rows, cols = clues.shape
    clue, active = _flat(clues, known)
    start = _NO_FIELD if start is None else np.ascontiguousarray(start, dtype=np.int8).ravel()
    side = 2 * radius + 3
    capacity = _equations_room(side * side) if capacity is None else capacity
    while True:
        answer = _local_pairwise(clue, active, rows, cols, int(c), int(radius), capacity, _NO_FIELD, -1, start)
        if answer >= 0:
            return bool(answer)
        capacity *= 4  # out of room for derived equations: again with more


def must_stay(clues: np.ndarray, known: np.ndarray, field: np.ndarray, c: int, given: int, start: np.ndarray | None = None) -> bool:
    """Do the pairwise rules on the clues in force (known, clue c left out already) fail to fix
    c's window even when every cell farther than `given` rows or columns from c starts fixed to
    its value in the field (which meets every clue)? Then they fail on the whole puzzle without
    c: they are sound (whatever they fix is the field's value) and monotone (more cells fixed
    never stops one), so the whole-grid fixpoint holds no more than this one. Clues farther than
    given + 1 see given cells only and are left out: they say nothing more. Its Python twin is
    `recon.generation.local.must_stay_python` (tests compare them).

    start: cells the pairwise rules fix on the whole puzzle without c (a warm start, as
    `pairwise_fixed` gives for fewer clues), fixed so from the start too. The same answer,
    sooner: those cells are in the whole-grid fixpoint, which this one holds already, and a
    fixpoint reached from more of its own cells is the same fixpoint."""
    load()
    rows, cols = clues.shape
    clue, active = _flat(clues, known)
    mine = np.ascontiguousarray(field, dtype=np.int8).ravel()
    start = _NO_FIELD if start is None else np.ascontiguousarray(start, dtype=np.int8).ravel()
    side = 2 * given + 5
    capacity = _equations_room(side * side)
    while True:
        answer = _local_pairwise(clue, active, rows, cols, int(c), int(given) + 1, capacity, mine, int(given), start)
        if answer >= 0:
            return not answer
        capacity *= 4


def pairwise_fixed(clues: np.ndarray, known: np.ndarray, start: np.ndarray | None = None) -> np.ndarray | None:
    """The cells trimming's pairwise phase fixes on this puzzle (int8 per cell: 0, 1, or
    OPEN), or None if the clues contradict each other.

    The phase is monotone in the clues and its fixpoint does not depend on the order its rules
    run in (see trim_outcome), so on any puzzle that keeps these clues (and maybe more) the phase
    fixes at least these cells, to these values: a warm start for `trim_verdict` there, or for
    this function (start: its answer for a puzzle whose clues are all in force here)."""
    code, value = _fixpoint(clues, known, start, -1)
    return None if code == 2 else value.reshape(clues.shape)


def pairwise_window_fixed(clues: np.ndarray, known: np.ndarray, c: int, start: np.ndarray | None = None) -> bool:
    """Does trimming's pairwise phase on the whole puzzle (known) fix clue c's window? It stops
    as soon as it does: cells once fixed stay fixed, so the fixpoint fixes the window too (the
    answer of `pairwise_fixed`, sooner). start: as for `pairwise_fixed`. Contradictory clues: no."""
    return _fixpoint(clues, known, start, int(c))[0] == 3


def _fixpoint(clues: np.ndarray, known: np.ndarray, start: np.ndarray | None, watch: int) -> tuple[int, np.ndarray]:
    """`_pairwise_fixpoint` from start (or every cell open), with more room for derived equations
    until it has enough: its code (0, 2 or 3) and the cells."""
    load()
    rows, cols = clues.shape
    n = rows * cols
    clue, active = _flat(clues, known)
    capacity = _equations_room(n)
    while True:
        value = _start_values(start, n)
        code = _pairwise_fixpoint(clue, active, value, rows, cols, capacity, watch)
        if code != 1:
            return code, value
        capacity *= 4  # out of room for derived equations: again with more
