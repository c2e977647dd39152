"""Compiled kernels for puzzle generation (optional: the `fast` extra installs numba).

Generation asks thousands of times "do the single-clue rules still solve the puzzle if this clue
goes?". `recon.incremental` answers it in Python by updating one closure; here the same question
is answered by running the rules from scratch in compiled code, for 64 clue sets at once (one per
bit of a uint64), with a work list: a clue is looked at again only when a cell of its window was
fixed in some puzzle. Because the field is known, the rules need no arithmetic: a clue empties
its window once every mine of the window is fixed, and fills it once every empty cell is.

`remove_clues_basic` is the whole removal loop of a basic puzzle: screen 64 candidates at once,
each removed alone (one that fails alone fails later too, since clues only go), then replay the
hopeful ones as prefixes (bit b removes the first b + 1 of them), accepting up to the first that
fails. Its decisions are those of trying each clue in order against the clues kept so far, which
is what the pure Python path in `recon.puzzle` does; tests compare the two.

`trim_outcome` is trimming (`recon.engines.trim`, all its rules) without the written proof, for
the advanced and search grades: the pairwise rules on equations stored as 3x3 bit masks, then
elimination on an exact integer reduced row echelon form, in sparse rows, kept up to date as
cells are fixed, alternating as trim does. Its verdict is trim's (the argument is in its docstring; tests compare
the two on the borderline puzzles of removal paths). Before the elimination, a short search
looks for a second solution near the removed clue: most removals that fail, fail that way.
`window_fixed_nearby` runs the pairwise rules on the clues near one clue only, nearest first,
stopping once that clue's window is fixed: a sound proof about the whole puzzle without the clue
(see its docstring for what it proves).

Without numba, `AVAILABLE` is False and `recon.puzzle` uses the Python path.
"""

from __future__ import annotations

import importlib.util
import math

import numpy as np

from ..rules import trim
from ..rules.closure import ALL, LANES
from ..model import make_problem, status

#: Is numba installed? (Imported only when a kernel is first used: it costs ~0.3 s of start-up.)
AVAILABLE = importlib.util.find_spec("numba") is not None
_ALL = int(ALL)  # a plain int: numba folds it into the compiled code


def _closure64(mine, active, rows, cols):  # pragma: no cover - compiled by numba, tested through it
    """Fixed cells of 64 puzzles at once: bit b of the result for the puzzle whose clues are bit b
    of active (uint64 per cell, row-major); mine is the field (uint8 per cell)."""
    n = rows * cols
    known = np.zeros(n, dtype=np.uint64)
    queue = np.empty(n, dtype=np.int64)
    queued = np.ones(n, dtype=np.bool_)
    for c in range(n):
        queue[c] = c
    head = 0
    count = n
    full = np.uint64(_ALL)
    while count > 0:
        c = queue[head]
        head += 1
        if head == n:
            head = 0
        count -= 1
        queued[c] = False
        a = active[c]
        if a == 0:
            continue
        r, q = c // cols, c % cols
        r0, r1 = max(r - 1, 0), min(r + 1, rows - 1)
        q0, q1 = max(q - 1, 0), min(q + 1, cols - 1)
        open_mine = np.uint64(0)  # lanes where a mine of the window is still open
        open_empty = np.uint64(0)  # lanes where an empty cell of the window is still open
        for i in range(r0, r1 + 1):
            for j in range(q0, q1 + 1):
                x = i * cols + j
                if mine[x]:
                    open_mine |= ~known[x]
                else:
                    open_empty |= ~known[x]
        fires = a & ((open_mine ^ full) | (open_empty ^ full))
        if fires == 0:
            continue
        for i in range(r0, r1 + 1):
            for j in range(q0, q1 + 1):
                x = i * cols + j
                new = fires & ~known[x]
                if new == 0:
                    continue
                known[x] |= new
                # the clues that see x may fire now
                for u in range(max(i - 1, 0), min(i + 1, rows - 1) + 1):
                    for v in range(max(j - 1, 0), min(j + 1, cols - 1) + 1):
                        y = u * cols + v
                        if not queued[y] and active[y] != 0:
                            queued[y] = True
                            tail = head + count
                            if tail >= n:
                                tail -= n
                            queue[tail] = y
                            count += 1
    return known


def _solved_lanes(mine, active, rows, cols):  # pragma: no cover - compiled
    """The puzzles (bits) in which every cell is fixed."""
    known = _closure64(mine, active, rows, cols)
    solved = np.uint64(_ALL)
    for x in range(rows * cols):
        solved &= known[x]
    return solved


def _remove_clues_basic(mine, order, rows, cols, target):  # pragma: no cover - compiled
    n = rows * cols
    keep = np.ones(n, dtype=np.bool_)
    kept = n
    active = np.empty(n, dtype=np.uint64)
    full = np.uint64(_ALL)
    hopeful = np.empty(LANES, dtype=np.int64)
    for first in range(0, order.size, LANES):
        last = min(first + LANES, order.size)
        # 1. each candidate alone against the clues kept so far
        for x in range(n):
            active[x] = full if keep[x] else np.uint64(0)
        for b in range(last - first):
            c = order[first + b]
            active[c] &= ~(np.uint64(1) << np.uint64(b))
        solved = _solved_lanes(mine, active, rows, cols)
        m = 0
        for b in range(last - first):
            if (solved >> np.uint64(b)) & np.uint64(1):
                hopeful[m] = order[first + b]
                m += 1
        # 2. the hopeful ones in order: bit b removes hopeful[i .. i + b]
        i = 0
        while i < m:
            if target >= 0 and kept <= target:
                return keep
            for x in range(n):
                active[x] = full if keep[x] else np.uint64(0)
            for b in range(m - i):
                active[hopeful[i + b]] &= ~(full << np.uint64(b))  # gone from bit b on
            solved = _solved_lanes(mine, active, rows, cols)
            while i < m:
                if target >= 0 and kept <= target:
                    return keep
                ok = (solved & np.uint64(1)) != 0
                solved >>= np.uint64(1)
                if ok:
                    keep[hopeful[i]] = False
                    kept -= 1
                    i += 1
                else:
                    i += 1  # rejected: the next prefixes all contain it, so start again
                    break
        if target >= 0 and kept <= target:
            return keep
    return keep


# -- the pairwise rules (advanced grade) ------------------------------------------------------
# An equation of trimming is always a subset of one clue's window (substitution and the subset
# rule only shrink sets), so it is stored as the top-left corner of its cells' bounding box (the
# anchor, a cell index) and a 9-bit mask over the 3x3 box from there: one canonical form per cell
# set. Two equations can share cells only when their anchors are within 2 rows and 2 columns;
# the pair is compared in a 7x7 frame (49 bits) around the first one.
# Equations live in arrays with one linked list per anchor; meta = [count, overflow, contradiction,
# dead equations still in the lists, equations in the lists]. A substituted equation dies (a new,
# smaller one takes its place): by the end of a 60x60 pairwise phase four in five listed were
# dead, so the lists are rebuilt without them whenever half are (`_drop_dead`).


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


def _popcount(x):  # pragma: no cover - compiled
    k = 0
    while x:
        x &= x - 1
        k += 1
    return k


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


def _low_bit(x):  # pragma: no cover - compiled
    """The index of the lowest set bit of x > 0 (exact: frame masks have under 53 bits)."""
    return math.frexp(float(x & -x))[1] - 1


def _frame(a, mask, fr, fc, cols):  # pragma: no cover - compiled
    """The cells of an equation as bits of the 7x7 frame whose top-left cell is (fr, fc) (a table
    lookup and a shift; a loop over the mask's 9 bits took a quarter of the pairwise rules' time)."""
    ar, ac = a // cols, a % cols
    return _SPREAD[mask] << ((ar - fr) * 7 + ac - fc)


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


def _fix_framed(bits, v, fr, fc, value, anc, msk, cnt, alive, nxt, head, meta, rows, cols):  # pragma: no cover
    """Fix the cells of a 7x7-frame mask to v, lowest bit first."""
    while bits:
        b = _low_bit(bits)
        bits &= bits - 1
        _fix((fr + b // 7) * cols + fc + b % 7, v, value, anc, msk, cnt, alive, nxt, head, meta, rows, cols)


def _pairwise_start(clue, active, value, rows, cols, anc, msk, cnt, alive, nxt, head, meta, order=None):  # pragma: no cover
    """Store one equation per active clue, the fixed cells substituted (in this order of clues:
    row-major if None)."""
    for t in range(rows * cols if order is None else order.size):
        k = t if order is None else order[t]
        if not active[k]:
            continue
        r, c = k // cols, k % cols
        ar, ac = max(r - 1, 0), max(c - 1, 0)
        mask = 0
        need = clue[k]
        for i in range(ar, min(r + 1, rows - 1) + 1):
            for j in range(ac, min(c + 1, cols - 1) + 1):
                x = i * cols + j
                if value[x] < 0:
                    mask |= 1 << ((i - ar) * 3 + j - ac)
                else:
                    need -= value[x]
        _eq_add(ar, ac, mask, need, anc, msk, cnt, alive, nxt, head, meta, cols)


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
        if meta[3] > 256 and 2 * meta[3] > meta[4]:  # no list is being walked here
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


# -- elimination (advanced grade) -------------------------------------------------------------
# The clue equations on the open cells are kept in reduced row echelon form (columns = open cells
# in row-major order, so a row's pivot is its first cell, as in trim's `_eliminate`), exactly, in
# int64, a row divided by the gcd of its entries when they grow. That form is unique, so its rows
# are those trim bounds (up to a factor, which changes no bound). When a cell is fixed its column
# is substituted; a row that loses its pivot takes its next cell as pivot, cleared from the other
# rows: the form stays reduced without starting again. Only rows that changed are bounded again.
#
# Rows are sparse (about 1 entry in 20 is nonzero at 40x40, though a row spans a third of the
# columns): row i's columns, increasing, are pc[st[i] : st[i] + ln[i]] and its values pv[...], in
# a pool where it has room for cp[i] entries; a row that outgrows its room moves to the pool's end
# (top[0]), and a full pool is compacted. occ[col] is a bitset of the rows with an entry in col, so
# the rows a column touches are found without looking at the others.
# Against dense rows, on the trims of one advanced generation each (same run, median): 12.0 to
# 5.9 ms per trim at 40x40, 79 to 22 ms at 60x60.
_BIG = 2.0**62  # past this a coefficient could overflow: trim_outcome then asks trim (Python integers)
#: elimination's return codes (0 done, 1 overflow, 2 contradiction, 3 pool full) as _trim's
_TRIM_CODE = (0, 4, 2, 1)
_ONE = np.uint64(1)


def _gcd(a, b):  # pragma: no cover - compiled
    a, b = abs(a), abs(b)
    while b:
        a, b = b, a % b
    return a


def _rows_in(occ, col, out):  # pragma: no cover - compiled
    """Write the rows with an entry in col to out (increasing); return how many."""
    k = 0
    for w in range(occ.shape[1]):
        word = occ[col, w]
        while word:
            low = word & (~word + _ONE)
            word ^= low
            out[k] = w * 64 + math.frexp(float(low))[1] - 1
            k += 1
    return k


def _mark(occ, col, i, on):  # pragma: no cover - compiled
    bit = _ONE << np.uint64(i & 63)
    if on:
        occ[col, i >> 6] |= bit
    else:
        occ[col, i >> 6] &= ~bit


def _entry(pc, pv, st, ln, i, col):  # pragma: no cover - compiled
    """Row i's entry in col (0 if none)."""
    lo, hi = st[i], st[i] + ln[i] - 1
    while lo <= hi:
        mid = (lo + hi) >> 1
        x = pc[mid]
        if x == col:
            return pv[mid]
        if x < col:
            lo = mid + 1
        else:
            hi = mid - 1
    return 0


def _compact(pc, pv, st, ln, cp, top):  # pragma: no cover - compiled
    """Move every row down to the start of the pool, leaving no room between them."""
    pos = 0
    for i in np.argsort(st):
        s = st[i]
        for t in range(ln[i]):  # pos <= s: copying forward is safe
            pc[pos + t] = pc[s + t]
            pv[pos + t] = pv[s + t]
        st[i] = pos
        cp[i] = ln[i]
        pos += ln[i]
    top[0] = pos


def _room(pc, pv, st, ln, cp, top, i, need):  # pragma: no cover - compiled
    """Make room for `need` entries of row i (its old entries may be lost). False: the pool is full."""
    if need <= cp[i]:
        return True
    room = need + need // 2 + 4
    if top[0] + room > pc.size:
        cp[i] = 0  # its entries are being replaced: do not keep them
        ln[i] = 0
        _compact(pc, pv, st, ln, cp, top)
        if top[0] + need > pc.size:
            return False
        room = min(room, pc.size - top[0])
    st[i] = top[0]
    cp[i] = room
    top[0] += room
    return True


def _normalise(pv, st, ln, rhs, mx, i):  # pragma: no cover - compiled
    """Divide row i by the gcd of its entries (bounds do not change; coefficients stay small)."""
    g = abs(rhs[i])
    for t in range(st[i], st[i] + ln[i]):
        g = _gcd(g, pv[t])
        if g == 1:
            return
    if g > 1:
        for t in range(st[i], st[i] + ln[i]):
            pv[t] //= g
        rhs[i] //= g
        mx[i] //= g


def _clear(pc, pv, st, ln, cp, top, occ, rhs, mx, buf_c, buf_v, i, r, col):  # pragma: no cover - compiled
    """Take row r's multiple from row i so that row i's entry in col is 0. Returns 0, 1 when a
    coefficient could overflow, 3 when the pool is full. mx[i] bounds the magnitude of row i's
    entries and right side."""
    p, f = _entry(pc, pv, st, ln, r, col), _entry(pc, pv, st, ln, i, col)
    g = _gcd(p, f)
    sp, sf = p // g, f // g
    if float(mx[i]) * abs(sp) + float(mx[r]) * abs(sf) >= _BIG:
        return 1
    a, a_end = st[i], st[i] + ln[i]
    b, b_end = st[r], st[r] + ln[r]
    k = 0
    most = 0
    while a < a_end or b < b_end:
        if b == b_end or (a < a_end and pc[a] < pc[b]):
            x, v = pc[a], pv[a] * sp
            a += 1
        elif a == a_end or pc[b] < pc[a]:
            x, v = pc[b], -pv[b] * sf
            b += 1
            _mark(occ, x, i, True)
        else:
            x, v = pc[a], pv[a] * sp - pv[b] * sf
            a += 1
            b += 1
            if v == 0:
                _mark(occ, x, i, False)
                continue
        buf_c[k] = x
        buf_v[k] = v
        k += 1
        most = max(most, abs(v))
    rhs[i] = rhs[i] * sp - rhs[r] * sf
    if not _room(pc, pv, st, ln, cp, top, i, k):
        return 3
    s = st[i]
    for t in range(k):
        pc[s + t] = buf_c[t]
        pv[s + t] = buf_v[t]
    ln[i] = k
    mx[i] = max(most, abs(rhs[i]))
    if mx[i] > 1 << 16:
        _normalise(pv, st, ln, rhs, mx, i)
    return 0


def _reduce(pc, pv, st, ln, cp, top, occ, rhs, mx, piv, row_of, buf_c, buf_v, rows_buf, c):  # pragma: no cover - compiled
    """Gaussian elimination, then back substitution, to reduced row echelon form; piv[i] is row
    i's pivot column (-1: none). Each column's pivot is the shortest row that can take it (less
    fill-in; the form is unique whichever). Returns 0, 1 on overflow, 2 when a row reads
    0 = nonzero, 3 when the pool is full."""
    m = rhs.size
    for i in range(m):
        piv[i] = -1
        mx[i] = max(abs(rhs[i]), 1)
    for col in range(c):
        k = _rows_in(occ, col, rows_buf)
        best = -1
        for t in range(k):
            i = rows_buf[t]
            if piv[i] < 0 and (best < 0 or ln[i] < ln[best]):
                best = i
        if best < 0:
            continue
        for t in range(k):  # forward: clear the column in the rows without a pivot only
            i = rows_buf[t]
            if i != best and piv[i] < 0:
                code = _clear(pc, pv, st, ln, cp, top, occ, rhs, mx, buf_c, buf_v, i, best, col)
                if code:
                    return code
        piv[best] = col
        row_of[col] = best
    for i in range(m):
        if piv[i] < 0 and rhs[i] != 0:  # no entry left
            return 2
    # backward, last pivot first: clear each pivot column above it (each row above is touched
    # once per pivot below it, where clearing as the pivots come would redo the fill-in)
    for col in range(c - 1, -1, -1):
        r = row_of[col]
        if r < 0:
            continue
        k = _rows_in(occ, col, rows_buf)
        for t in range(k):
            if rows_buf[t] != r:
                code = _clear(pc, pv, st, ln, cp, top, occ, rhs, mx, buf_c, buf_v, rows_buf[t], r, col)
                if code:
                    return code
    return 0


def _substitute_all(
    pc, pv, st, ln, cp, top, occ, rhs, mx, piv, row_of, buf_c, buf_v, lst, rows_buf, hit, gone, cols, vals, k, dirty
):  # pragma: no cover - compiled
    """Fix columns cols[:k] to vals[:k] in the reduced form, keeping it reduced. Every column is
    substituted first; only then does a row that lost its pivot take its first cell left as the
    new one, cleared from the other rows (as trim's `_Reduced.substitute` does). Taking new pivots
    one fixed column at a time, as before, gives the same form (it is unique) but often took a
    column fixed next, and clearing those was most of elimination's time: 22.7 to 11.3 ms for a
    40x40 advanced puzzle. lst, rows_buf, hit (False per row) and gone (-1 per column) are
    scratch. Returns as _reduce."""
    touched = 0
    for t in range(k):
        col = cols[t]
        gone[col] = vals[t]
        for s in range(_rows_in(occ, col, lst)):
            i = lst[s]
            if not hit[i]:
                hit[i] = True
                rows_buf[touched] = i
                touched += 1
            _mark(occ, col, i, False)
    for s in range(touched):  # each row that held a fixed column, in one pass
        i = rows_buf[s]
        hit[i] = False
        w = st[i]
        for t in range(st[i], st[i] + ln[i]):
            x = pc[t]
            if gone[x] >= 0:
                rhs[i] -= pv[t] * gone[x]
            else:
                pc[w] = x
                pv[w] = pv[t]
                w += 1
        ln[i] = w - st[i]
        mx[i] = max(mx[i], abs(rhs[i]))
        dirty[i] = True
    lost = 0
    for t in range(k):
        col = cols[t]
        gone[col] = -1
        r = row_of[col]
        if r >= 0:
            row_of[col] = -1
            piv[r] = -1
            rows_buf[lost] = r
            lost += 1
    for t in range(lost):
        r = rows_buf[t]
        if ln[r] == 0:  # the row is gone
            if rhs[r] != 0:
                return 2
            continue
        new = pc[st[r]]  # its first cell: a column no other row pivots on
        piv[r] = new
        row_of[new] = r
        for s in range(_rows_in(occ, new, lst)):
            i = lst[s]
            if i != r:
                code = _clear(pc, pv, st, ln, cp, top, occ, rhs, mx, buf_c, buf_v, i, r, new)
                if code:
                    return code
                dirty[i] = True
    return 0


def _bound_row(pc, pv, st, ln, rhs, i, cells, found):  # pragma: no cover - compiled
    """Trim's `_bound` (mirrored: numba takes no dicts) on row i: record in found the 0/1 values the row forces. False if it
    cannot hold."""
    low, high = 0, 0
    for t in range(st[i], st[i] + ln[i]):
        if pv[t] < 0:
            low += pv[t]
        else:
            high += pv[t]
    b = rhs[i]
    if not low <= b <= high:
        return False
    for t in range(st[i], st[i] + ln[i]):
        v = pv[t]
        rest_low, rest_high = low - min(0, v), high - max(0, v)
        can0 = rest_low <= b <= rest_high
        can1 = rest_low <= b - v <= rest_high
        if not can0 and not can1:
            return False
        if can0 != can1:
            x = cells[pc[t]]
            w = 1 if can1 else 0
            if found[x] >= 0 and found[x] != w:
                return False
            found[x] = w
    return True


def _count_open(value):  # pragma: no cover - compiled
    """The number of open cells (value -1)."""
    k = 0
    for x in range(value.size):
        if value[x] < 0:
            k += 1
    return k


def _group_sizes(active, value, rows, cols, size):  # pragma: no cover - compiled
    """size[x] = the number of open cells in x's group (cells joined by a clue seeing both)."""
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
    count = np.zeros(n, dtype=np.int64)
    for x in range(n):
        if value[x] < 0:
            u = x
            while parent[u] != u:
                u = parent[u]
            parent[x] = u
            count[u] += 1
    for x in range(n):
        size[x] = count[parent[x]] if value[x] < 0 else 0


# -- a second solution near a removed clue ---------------------------------------------------
# Removing clue c from a puzzle with one solution leaves several exactly when some set D of cells
# can flip (empty -> mine, mine -> empty) with every remaining clue seeing as many new mines as
# lost ones. D meets c's window (else it would flip under c too), avoids the cells trimming's
# rules fixed, and is usually small: a short search from c's window finds it, and then trimming
# cannot solve the puzzle (it is sound), so the long way round is not needed.


def _tally(x, v, step, sign, sm, pf, nf, active, rows, cols):  # pragma: no cover - compiled
    """Count cell x, decided v (1: in D), into the sums of the clues that see it (step 1), or
    take it out again (step -1); the last entry of sm counts the cells in D."""
    sm[sm.size - 1] += step * v
    xr, xc = x // cols, x % cols
    for i in range(max(xr - 1, 0), min(xr + 1, rows - 1) + 1):
        for j in range(max(xc - 1, 0), min(xc + 1, cols - 1) + 1):
            k = i * cols + j
            if active[k]:
                if sign[x] > 0:
                    pf[k] -= step
                else:
                    nf[k] -= step
                sm[k] += step * sign[x] * v


def _flip(x, v, d, sign, sm, pf, nf, trail, tlen, active, rows, cols):  # pragma: no cover
    """Decide cell x (v = 1: in D) and put it on the trail."""
    d[x] = v
    trail[tlen] = x
    _tally(x, v, 1, sign, sm, pf, nf, active, rows, cols)
    return tlen + 1


def _unflip(mark, tlen, d, sign, sm, pf, nf, trail, active, rows, cols):  # pragma: no cover
    """Undo the decisions on the trail back to length mark."""
    while tlen > mark:
        tlen -= 1
        x = trail[tlen]
        _tally(x, d[x], -1, sign, sm, pf, nf, active, rows, cols)
        d[x] = -1
    return tlen


def _settle(start, tlen, d, sign, sm, pf, nf, trail, active, rows, cols, bad):  # pragma: no cover
    """Propagate the decisions from trail[start] on: a clue whose balance can only be met one
    way decides its open cells. Returns the new trail length; bad[0] = 1 when a clue cannot
    balance."""
    bad[0] = 0
    p = start
    while p < tlen:
        x = trail[p]
        p += 1
        xr, xc = x // cols, x % cols
        for i in range(max(xr - 1, 0), min(xr + 1, rows - 1) + 1):
            for j in range(max(xc - 1, 0), min(xc + 1, cols - 1) + 1):
                k = i * cols + j
                if not active[k]:
                    continue
                if sm[k] < -pf[k] or sm[k] > nf[k]:
                    bad[0] = 1
                    return tlen
                if pf[k] + nf[k] == 0:
                    continue
                if sm[k] == -pf[k]:
                    up = 1  # every open empty cell flips, no mine does
                elif sm[k] == nf[k]:
                    up = 0  # every open mine flips, no empty cell does
                else:
                    continue
                kr, kc = k // cols, k % cols
                for u in range(max(kr - 1, 0), min(kr + 1, rows - 1) + 1):
                    for w in range(max(kc - 1, 0), min(kc + 1, cols - 1) + 1):
                        y = u * cols + w
                        if d[y] < 0:
                            tlen = _flip(y, up if sign[y] > 0 else 1 - up, d, sign, sm, pf, nf, trail, tlen, active, rows, cols)
    return tlen


def _branch_cell(tlen, d, sm, trail, active, rows, cols):  # pragma: no cover
    """An open cell seen by a clue not yet balanced (latest decisions first), or -1 if none."""
    for p in range(tlen - 1, -1, -1):
        x = trail[p]
        xr, xc = x // cols, x % cols
        for i in range(max(xr - 1, 0), min(xr + 1, rows - 1) + 1):
            for j in range(max(xc - 1, 0), min(xc + 1, cols - 1) + 1):
                k = i * cols + j
                if active[k] and sm[k] != 0:
                    for u in range(max(i - 1, 0), min(i + 1, rows - 1) + 1):
                        for w in range(max(j - 1, 0), min(j + 1, cols - 1) + 1):
                            if d[u * cols + w] < 0:
                                return u * cols + w
    return -1


def _another_solution(mine, active, value, rows, cols, seed, budget):  # pragma: no cover - compiled
    """Is there a solution other than the field `mine` flipping a cell of seed's window? True
    only when one was found (a set D as above), False when `budget` decisions ran out first or
    there is none. Cells fixed in value stay. Small sets D are tried first: the search runs again
    with a cap on the cells of D that doubles each time."""
    n = rows * cols
    d = np.full(n, -1, dtype=np.int8)
    sign = np.zeros(n, dtype=np.int64)
    sm = np.zeros(n + 1, dtype=np.int64)  # per clue: the flips' balance; sm[n]: cells in D
    pf = np.zeros(n, dtype=np.int64)  # per clue: open empty cells not decided
    nf = np.zeros(n, dtype=np.int64)  # per clue: open mines not decided
    trail = np.empty(n, dtype=np.int64)
    st_cell = np.empty(n, dtype=np.int64)
    st_mark = np.empty(n, dtype=np.int64)
    st_val = np.empty(n, dtype=np.int64)
    bad = np.zeros(1, dtype=np.int64)
    nodes = 0
    sr, sc = seed // cols, seed % cols
    cap = 1
    while True:
        for x in range(n):
            d[x] = 0 if value[x] >= 0 else -1
            sign[x] = -1 if mine[x] else 1
            sm[x] = 0
            pf[x] = 0
            nf[x] = 0
        sm[n] = 0
        for k in range(n):
            if active[k]:
                kr, kc = k // cols, k % cols
                for u in range(max(kr - 1, 0), min(kr + 1, rows - 1) + 1):
                    for w in range(max(kc - 1, 0), min(kc + 1, cols - 1) + 1):
                        y = u * cols + w
                        if d[y] < 0:
                            if sign[y] > 0:
                                pf[k] += 1
                            else:
                                nf[k] += 1
        tlen = 0
        capped = False  # did the cap cut the search short?
        for u in range(max(sr - 1, 0), min(sr + 1, rows - 1) + 1):
            for w in range(max(sc - 1, 0), min(sc + 1, cols - 1) + 1):
                first = u * cols + w
                if d[first] >= 0:
                    continue  # fixed, or excluded since
                mark = tlen
                tlen = _flip(first, 1, d, sign, sm, pf, nf, trail, tlen, active, rows, cols)
                tlen = _settle(mark, tlen, d, sign, sm, pf, nf, trail, active, rows, cols, bad)
                depth = 0
                while True:
                    nodes += 1
                    if nodes > budget:
                        return False
                    if not bad[0] and sm[n] > cap:
                        bad[0] = 1
                        capped = True
                    if not bad[0]:
                        x = _branch_cell(tlen, d, sm, trail, active, rows, cols)
                        if x < 0:
                            return True  # every clue balances: D is the flipped cells
                        st_cell[depth], st_mark[depth], st_val[depth] = x, tlen, 1
                        depth += 1
                        t0 = tlen
                        tlen = _flip(x, 1, d, sign, sm, pf, nf, trail, tlen, active, rows, cols)
                        tlen = _settle(t0, tlen, d, sign, sm, pf, nf, trail, active, rows, cols, bad)
                        continue
                    # a clue cannot balance: go back to the last choice with a value left to try
                    while depth > 0 and st_val[depth - 1] == 0:
                        depth -= 1
                    if depth == 0:
                        break
                    top = depth - 1
                    tlen = _unflip(st_mark[top], tlen, d, sign, sm, pf, nf, trail, active, rows, cols)
                    st_val[top] = 0
                    tlen = _flip(st_cell[top], 0, d, sign, sm, pf, nf, trail, tlen, active, rows, cols)
                    tlen = _settle(st_mark[top], tlen, d, sign, sm, pf, nf, trail, active, rows, cols, bad)
                # no D within the cap holds this cell: undo, exclude it, try the next one
                tlen = _unflip(mark, tlen, d, sign, sm, pf, nf, trail, active, rows, cols)
                tlen = _flip(first, 0, d, sign, sm, pf, nf, trail, tlen, active, rows, cols)
                tlen = _settle(mark, tlen, d, sign, sm, pf, nf, trail, active, rows, cols, bad)
                if bad[0]:
                    break
            if bad[0]:
                break
        if not capped:
            return False  # the search was complete: there is no such D
        cap *= 2


def _window_fixed(value, k, rows, cols):  # pragma: no cover - compiled
    """Is every cell of clue k's window fixed?"""
    r, q = k // cols, k % cols
    for i in range(max(r - 1, 0), min(r + 1, rows - 1) + 1):
        for j in range(max(q - 1, 0), min(q + 1, cols - 1) + 1):
            if value[i * cols + j] < 0:
                return False
    return True


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
    value = np.full(h * w, -1, dtype=np.int8)
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


def _root(parent, x):  # pragma: no cover - compiled
    """Union-find: x's root, halving the path on the way."""
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


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


def _pairwise_fixpoint(clue, active, value, rows, cols, capacity):  # pragma: no cover - compiled
    """The pairwise phase of trimming alone, to its fixpoint: value (int8, -1 open) updated in
    place. 0, or 1 when `capacity` equations were not enough, 2 on a contradiction."""
    anc, msk, cnt, alive, nxt, head, meta = _equation_store(capacity, rows * cols)
    _pairwise_start(clue, active, value, rows, cols, anc, msk, cnt, alive, nxt, head, meta)
    _pairwise_run(0, value, rows, cols, anc, msk, cnt, alive, nxt, head, meta)
    return 2 if meta[2] else (1 if meta[1] else 0)


def _trim(clue, active, value, size, rows, cols, capacity, pool, max_cells, mine, seed, budget, verdict_only, solved_with):  # pragma: no cover - compiled
    """Trimming's rules to their fixpoint, as `recon.engines.trim` runs them: the pairwise phase
    until it stalls, then elimination on groups of at most max_cells open cells, then the
    pairwise phase on what that fixed, and so on. value (int8, -1 open) is updated in place; it
    may come with cells fixed already, if the pairwise phase fixes them anyway (a warm start:
    see `trim_verdict`'s start), else all -1.
    Returns 0 when every cell is fixed, 3 when the rules stall, 2 on a contradiction, 1 when
    `capacity` equations or `pool` entries of elimination's rows were not enough, 4 when a
    coefficient could overflow int64, 5 when a
    second solution flipping a cell of seed's window was found (with seed >= 0: mine is then
    the field, and the puzzle with clue seed had one solution) after the pairwise phase.

    A group of more than max_cells open cells after the pairwise phase stays open: elimination
    skips it, and nothing else reaches its cells (no clue sees cells of two groups, so cells
    fixed elsewhere change none of its equations, and the pairwise rules are done with them).
    Its equations are left out of the reduced form (the form of the other groups is the same
    without them), and with verdict_only the answer is 6 at once (the rules stall: as 3), the
    cells fixed so far being fewer than trim fixes. size (zeros, one per cell) then holds each
    open cell's group size, as it does whenever more than max_cells cells are open after the
    pairwise phase.

    solved_with >= 0 (with verdict_only): trimming solved the puzzle with that clue too. If the
    pairwise phase fixes the clue's window, it ends where it ended with the clue (its equation
    reads 0 = 0), and elimination gets the same equations, so trimming runs as it ran with the
    clue: 0 at once (as `window_fixed_nearby`, but with every clue), as soon as the window is
    fixed, without the rest of the phase (its rules only add fixed cells; the puzzle has a
    solution, so no contradiction is missed). Replaying a 60x60 generation's trims, stopping
    there rather than after the phase: 8.22 against 8.69 s (medians of 5, alternating)."""
    n = rows * cols
    anc, msk, cnt, alive, nxt, head, meta = _equation_store(capacity, n)
    _pairwise_start(clue, active, value, rows, cols, anc, msk, cnt, alive, nxt, head, meta)
    # with solved_with, stop as soon as its window is fixed (the rules only add fixed cells, so
    # the phase's fixpoint fixes it too): "trimmed" then, without the rest of the phase
    e = _pairwise_run(0, value, rows, cols, anc, msk, cnt, alive, nxt, head, meta, solved_with if verdict_only else -1)
    if meta[2]:
        return 2
    if meta[1]:
        return 1
    if verdict_only and solved_with >= 0 and _window_fixed(value, solved_with, rows, cols):
        return 0
    if seed >= 0 and not _window_fixed(value, seed, rows, cols):
        if _another_solution(mine, active, value, rows, cols, seed, budget):
            return 5
    open_cells = _count_open(value)
    if open_cells == 0:
        return 0
    if open_cells > max_cells:
        _group_sizes(active, value, rows, cols, size)
    # the reduced form of the clue equations on the cells still open, but for groups too large
    col_of = np.full(n, -1, dtype=np.int64)
    c = 0
    for x in range(n):
        if value[x] < 0:
            if size[x] > max_cells:
                if verdict_only:
                    return 6
            else:
                col_of[x] = c
                c += 1
    if c == 0:
        return 3
    cells = np.empty(c, dtype=np.int64)
    for x in range(n):
        if col_of[x] >= 0:
            cells[col_of[x]] = x
    m = 0
    for k in range(n):
        if active[k]:
            r, q = k // cols, k % cols
            sees = False
            for i in range(max(r - 1, 0), min(r + 1, rows - 1) + 1):
                for j in range(max(q - 1, 0), min(q + 1, cols - 1) + 1):
                    if col_of[i * cols + j] >= 0:
                        sees = True
            if sees:
                m += 1
    # sparse rows (see above), each with room for its 9 cells to start with
    if 9 * m > pool:
        return 1
    pc = np.empty(pool, dtype=np.int32)
    pv = np.empty(pool, dtype=np.int64)
    st = np.empty(m, dtype=np.int64)
    ln = np.zeros(m, dtype=np.int64)
    cp = np.full(m, 9, dtype=np.int64)
    top = np.zeros(1, dtype=np.int64)
    occ = np.zeros((c, (m + 63) // 64), dtype=np.uint64)
    rhs = np.zeros(m, dtype=np.int64)
    i = 0
    for k in range(n):
        if not active[k]:
            continue
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
                    _mark(occ, col_of[x], i, True)
                    got += 1
        if got > 0:
            st[i] = s
            ln[i] = got
            top[0] = s + 9
            rhs[i] = need
            i += 1
    mx = np.empty(m, dtype=np.int64)
    piv = np.full(m, -1, dtype=np.int64)
    row_of = np.full(c, -1, dtype=np.int64)
    buf_c = np.empty(c, dtype=np.int32)
    buf_v = np.empty(c, dtype=np.int64)
    lst = np.empty(m, dtype=np.int64)
    rows_buf = np.empty(m, dtype=np.int64)
    hit = np.zeros(m, dtype=np.bool_)
    gone = np.full(c, -1, dtype=np.int8)
    code = _reduce(pc, pv, st, ln, cp, top, occ, rhs, mx, piv, row_of, buf_c, buf_v, rows_buf, c)
    if code:
        return _TRIM_CODE[code]
    dirty = np.ones(m, dtype=np.bool_)
    synced = value.copy()
    fixed_cols = np.empty(c, dtype=np.int64)
    fixed_vals = np.empty(c, dtype=np.int64)
    found = np.full(n, -1, dtype=np.int8)
    while True:
        if _count_open(value) == 0:
            return 0
        # elimination: bound the rows that changed (every group left is small enough, and stays so)
        any_found = False
        for i in range(m):
            if not dirty[i] or piv[i] < 0:
                continue
            dirty[i] = False
            if not _bound_row(pc, pv, st, ln, rhs, i, cells, found):
                return 2
        for x in range(n):
            if found[x] >= 0:
                if value[x] < 0:
                    any_found = True
                    _fix(x, found[x], value, anc, msk, cnt, alive, nxt, head, meta, rows, cols)
                found[x] = -1
        if not any_found:
            return 3
        e = _pairwise_run(e, value, rows, cols, anc, msk, cnt, alive, nxt, head, meta)
        if meta[2]:
            return 2
        if meta[1]:
            return 1
        k = 0
        for x in range(n):
            if synced[x] < 0 and value[x] >= 0:
                synced[x] = value[x]
                fixed_cols[k] = col_of[x]
                fixed_vals[k] = value[x]
                k += 1
        code = _substitute_all(
            pc, pv, st, ln, cp, top, occ, rhs, mx, piv, row_of, buf_c, buf_v, lst, rows_buf, hit, gone, fixed_cols, fixed_vals, k, dirty
        )
        if code:
            return _TRIM_CODE[code]


_compiled = False
#: Told one line of text when the kernels start loading, if set (recon.puzzle.reporting sets it
#: for `recon generate`'s progress line): a first run compiles them, 20-40 s without a word else.
announce = None


def loaded() -> bool:
    """Has this process loaded the compiled kernels already? (Then using them costs nothing
    more; loading them costs a fresh process 0.6-1 s.)"""
    return _compiled


def _compile() -> None:
    """Replace the kernels by their numba versions (once; numba caches the machine code on disk).
    A kernel calls the others through this module's globals, so all are replaced, callees first."""
    global _compiled, _closure64, _solved_lanes, _remove_clues_basic
    global _equation_store, _popcount, _low_bit, _eq_add, _frame, _add_framed, _fix, _fix_framed, _pairwise_start, _pairwise_run
    global _drop_dead
    global _gcd, _rows_in, _mark, _entry, _compact, _room, _normalise, _clear, _reduce, _substitute_all, _bound_row
    global _count_open, _group_sizes, _trim
    global _tally, _flip, _unflip, _settle, _branch_cell, _another_solution, _local_pairwise, _pairwise_fixpoint
    global _root, _largest_part
    global _window_fixed
    if _compiled:
        return
    if announce is not None:
        announce("loading numba's compiled kernels (a first run compiles them: 20-40 s, then they are cached)")
    import numba

    jit = numba.njit(cache=True, nogil=True)
    _closure64 = jit(_closure64)
    _solved_lanes = jit(_solved_lanes)
    _remove_clues_basic = jit(_remove_clues_basic)
    _equation_store = jit(_equation_store)
    _popcount = jit(_popcount)
    _low_bit = jit(_low_bit)
    _eq_add = jit(_eq_add)
    _frame = jit(_frame)
    _add_framed = jit(_add_framed)
    _fix = jit(_fix)
    _fix_framed = jit(_fix_framed)
    _pairwise_start = jit(_pairwise_start)
    _drop_dead = jit(_drop_dead)
    _gcd = jit(_gcd)
    _rows_in = jit(_rows_in)
    _mark = jit(_mark)
    _entry = jit(_entry)
    _compact = jit(_compact)
    _room = jit(_room)
    _normalise = jit(_normalise)
    _clear = jit(_clear)
    _reduce = jit(_reduce)
    _substitute_all = jit(_substitute_all)
    _bound_row = jit(_bound_row)
    _count_open = jit(_count_open)
    _group_sizes = jit(_group_sizes)
    _tally = jit(_tally)
    _flip = jit(_flip)
    _unflip = jit(_unflip)
    _settle = jit(_settle)
    _branch_cell = jit(_branch_cell)
    _another_solution = jit(_another_solution)
    _window_fixed = jit(_window_fixed)
    _pairwise_run = jit(_pairwise_run)
    _local_pairwise = jit(_local_pairwise)
    _pairwise_fixpoint = jit(_pairwise_fixpoint)
    _root = jit(_root)
    _largest_part = jit(_largest_part)
    _trim = jit(_trim)
    _compiled = True


def closures64(field: np.ndarray, active: np.ndarray) -> np.ndarray:
    """Fixed cells of up to 64 puzzles on one field (see `recon.incremental.basic_closures`)."""
    _compile()
    field = np.asarray(field, dtype=bool)
    rows, cols = field.shape
    known = _closure64(field.ravel().astype(np.uint8), np.ascontiguousarray(active, dtype=np.uint64).ravel(), rows, cols)
    return known.reshape(field.shape)


def remove_clues_basic(field: np.ndarray, order: np.ndarray, target: int | None) -> np.ndarray:
    """The clues kept when each clue in order is removed if the single-clue rules still solve."""
    _compile()
    field = np.asarray(field, dtype=bool)
    rows, cols = field.shape
    keep = _remove_clues_basic(
        field.ravel().astype(np.uint8), np.asarray(order, dtype=np.int64), rows, cols, -1 if target is None else int(target)
    )
    return np.asarray(keep, dtype=bool).reshape(field.shape)


#: Decisions a search for a second solution near a removed clue may take before trimming decides.
SEARCH_BUDGET = 2000


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
) -> tuple[str, np.ndarray]:
    """Run trimming's rules compiled: "trimmed" (every cell fixed), "several" (a second
    solution was found: see below), "stalled" (trimming does not fix every cell) or
    "contradiction" (the clues have no solution; nothing fixed is reported), and the cells fixed
    (int8 per cell: 0, 1, or -1 open; sound: every solution has those values). The cells fixed
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
    on this puzzle or one with fewer clues), where it starts.
    """
    if solved_with >= 0 and not verdict_only:
        raise ValueError("solved_with needs verdict_only: the cells fixed are not all reported")
    code, value, _ = _run_trim(clues, known, field, removed, capacity, pool, verdict_only, solved_with, start)
    return _outcome(code, value, clues, known)


def _outcome(code, value, clues, known) -> tuple[str, np.ndarray]:
    """trim_outcome's answer from _trim's code and cells (an overflow, 4: trim decides)."""
    if code == 4:
        trimmer = trim.Trimmer(make_problem(clues, known))
        try:
            trimmer.load()
            trimmer.run()
        except trim.Contradiction:  # no solution, nothing fixed to report
            return "contradiction", np.full(clues.shape, -1, dtype=np.int8)
        return ("trimmed" if trimmer.is_done else "stalled"), trimmer.value.reshape(clues.shape).astype(np.int8)
    if code == 2:
        return "contradiction", np.full(clues.shape, -1, dtype=np.int8)
    return {0: "trimmed", 5: "several"}.get(code, "stalled"), value.reshape(clues.shape)  # 3 and 6: stalled


_NO_FIELD = np.zeros(0, dtype=np.int8)  # _local_pairwise's field when no cell is given


def _flat(clues, known):
    """The kernels' view of a puzzle: clue counts (int64) and clues in force (bool), flat."""
    return np.ascontiguousarray(clues, dtype=np.int64).ravel(), np.ascontiguousarray(known, dtype=np.bool_).ravel()


def _start_values(start, n):
    """A kernel's cells to start from: a copy of start (int8, flat), or every cell open."""
    return np.full(n, -1, dtype=np.int8) if start is None else np.array(start, dtype=np.int8).ravel()


def _equations_room(n):
    """Room for derived equations to start with on n cells (a kernel out of room gets 4x more)."""
    return 16 * n + 1024


def _run_trim(clues, known, field=None, removed=-1, capacity=None, pool=None, verdict_only=False, solved_with=-1, start=None):
    """_trim on a puzzle, with more room (derived equations, elimination's rows) until it has
    enough: (code, value, group size per open cell when _trim worked them out, else zeros).
    start: cells the pairwise phase fixes anyway (int8 per cell, -1 for the others), or None."""
    _compile()
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
            clue, active, value, size, rows, cols, capacity, pool, trim.ELIMINATION_MAX_CELLS, mine, removed, SEARCH_BUDGET,
            verdict_only, int(solved_with),
        )
        if code != 1:
            return code, value, size
        capacity, pool = 4 * capacity, 4 * pool  # out of room: again with more


def window_fixed_nearby(
    clues: np.ndarray, known: np.ndarray, c: int, radius: int, capacity: int | None = None, start: np.ndarray | None = None
) -> bool:
    """Do the pairwise rules on the clues in force (known) within `radius` rows and columns of
    clue c, without c, fix every cell of c's window?

    Sound, and a proof about the whole puzzle without c: those clues' equations are the whole
    grid's, the cells around them are left free, and the pairwise rules are monotone (more
    equations or fixed cells never stop a rule, and their fixpoint does not depend on the order
    they run in), so trimming's pairwise phase on the whole puzzle without c fixes c's window too.
    Two uses in generation (`recon.puzzle`), where the puzzle with c had the field as its only
    solution and, for advanced, was solved by trimming:

    - every solution without c agrees with the field on c's window, so it meets c too: the field
      is still the only solution (search grade);
    - trimming without c runs as it did with c, and solves the puzzle (advanced grade): with c's
      window fixed, c's equation is 0 = 0, so the pairwise phase ends where it ended with c, and
      elimination, which only takes equations that see an open cell, gets the same equations.

    The answer is monotone as well: more clues in force or a larger radius never turn a yes into
    a no (the same fixpoint argument), which `recon.puzzle` relies on. Its Python twin is
    `recon.puzzle.window_fixed_nearby_python` (tests compare them).

    start: cells the pairwise rules fix on the whole puzzle without c (a warm start, as
    `pairwise_fixed` gives for fewer clues), fixed so from the start: still sound, and it often
    decides at a small radius what otherwise needs the whole grid.
    """
    _compile()
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
    `recon.puzzle._must_stay_python` (tests compare them).

    start: cells the pairwise rules fix on the whole puzzle without c (a warm start, as
    `pairwise_fixed` gives for fewer clues), fixed so from the start too. The same answer,
    sooner: those cells are in the whole-grid fixpoint, which this one holds already, and a
    fixpoint reached from more of its own cells is the same fixpoint."""
    _compile()
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


def trim_grade(clues: np.ndarray, known: np.ndarray, verdict_only: bool = False) -> tuple[str, np.ndarray | None]:
    """The grade trimming shows on a puzzle, compiled, and the cells it fixes: "advanced" when the
    pairwise phase fixes every cell, "elimination" when trimming, going on from that phase's
    fixpoint (it runs once), fixes every cell, "search" when it stalls, "contradiction" (no cells)
    when the clues clash. Whether the single-clue rules alone would do is the caller's to tell.
    verdict_only: as trim_outcome's (sooner; the cells reported may then be fewer)."""
    pairwise = pairwise_fixed(clues, known)
    if pairwise is None:
        return "contradiction", None
    if (pairwise >= 0).all():
        return "advanced", pairwise
    outcome, fixed = trim_outcome(clues, known, verdict_only=verdict_only, start=pairwise)
    if outcome == "contradiction":
        return "contradiction", None
    return ("elimination" if outcome == "trimmed" else "search"), fixed


def trims_fully(clues: np.ndarray, known: np.ndarray, **options) -> bool:
    """Does trimming (all its rules) fix every cell of this puzzle? (See trim_outcome; solved_with=c
    when trimming solved the puzzle with clue c too, as in generation: sometimes a shortcut.)"""
    return trim_outcome(clues, known, verdict_only=True, **options)[0] == "trimmed"


def pairwise_fixed(clues: np.ndarray, known: np.ndarray, start: np.ndarray | None = None) -> np.ndarray | None:
    """The cells trimming's pairwise phase fixes on this puzzle (int8 per cell: 0, 1, or -1
    open), or None if the clues contradict each other.

    The phase is monotone in the clues and its fixpoint does not depend on the order its rules
    run in (see trim_outcome), so on any puzzle that keeps these clues (and maybe more) the phase
    fixes at least these cells, to these values: a warm start for `trim_verdict` there, or for
    this function (start: its answer for a puzzle whose clues are all in force here)."""
    _compile()
    rows, cols = clues.shape
    n = rows * cols
    clue, active = _flat(clues, known)
    capacity = _equations_room(n)
    while True:
        value = _start_values(start, n)
        code = _pairwise_fixpoint(clue, active, value, rows, cols, capacity)
        if code == 0:
            return value.reshape(clues.shape)
        if code == 2:
            return None
        capacity *= 4  # out of room for derived equations: again with more


def trim_verdict(
    clues: np.ndarray, known: np.ndarray, solved_with: int = -1, start: np.ndarray | None = None
) -> tuple[bool, "LargeGroup | None"]:
    """trims_fully's answer, and when trimming fails because the pairwise phase leaves a group of
    open cells too large for elimination (trim.ELIMINATION_MAX_CELLS), that group (see
    LargeGroup: a proof that trimming fails on puzzles with fewer clues too), else None.

    start: `pairwise_fixed` of a puzzle whose clues are all in force here (fewer than here, or
    the same). The pairwise phase then starts from those cells instead of none and reaches the
    same fixpoint (it fixes them anyway), so the answer is the same, sooner: the phase took about
    a quarter of a trim in a 60x60 generation. A start from other clues would not be sound."""
    code, value, size = _run_trim(clues, known, verdict_only=True, solved_with=solved_with, start=start)
    if code == 6:
        return False, LargeGroup(known, size.reshape(clues.shape) > trim.ELIMINATION_MAX_CELLS)
    return _outcome(code, value, clues, known)[0] == "trimmed", None


class LargeGroup:
    """The open cells of too large groups (more than trim.ELIMINATION_MAX_CELLS cells) after the
    pairwise phase of a puzzle without clue c, and the clues in force that join them (a clue that
    sees two or more of them).

    That failure outlives removals. On a puzzle with fewer clues (still without c), the pairwise
    phase fixes no more cells (its rules are monotone in the clues), so these cells stay open, c's
    window stays open too (no early "trimmed"), and each joining clue still in force still joins
    the cells it sees: the groups there contain the parts these cells fall into through the
    joining clues left. If one part still has more than ELIMINATION_MAX_CELLS cells, trimming
    fails there too (`still_too_large`), and `recon.puzzle` keeps c without trimming again."""

    def __init__(self, known: np.ndarray, cells: np.ndarray):
        self.shape = cells.shape
        self.limit = trim.ELIMINATION_MAX_CELLS
        # flat int32 indices only (about 20 KB at 100x100, where a puzzle keeps over a thousand)
        self.member_cells = np.flatnonzero(cells.ravel()).astype(np.int32)
        self.joiners = np.flatnonzero((np.asarray(known, dtype=bool) & (status(cells) >= 2)).ravel()).astype(np.int32)

    def still_too_large(self, known: np.ndarray) -> bool:
        """With these clues in force (flat bool, fewer than when the group was found), does a part
        of these cells joined by the clues left still hold more than the limit? (A union-find,
        compiled: with scipy's connected components it took about 2 ms a call, 1.8 s of a
        100x100 generation.)"""
        left = self.joiners[known[self.joiners]]
        if left.size == self.joiners.size:
            return True  # every joining clue is there: the same group
        _compile()
        rows, cols = self.shape
        return int(_largest_part(self.member_cells, left, rows, cols)) > self.limit
