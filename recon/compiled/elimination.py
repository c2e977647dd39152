"""Trimming's elimination compiled: an exact integer reduced row echelon form in sparse rows,
kept up to date as cells are fixed, and the bounds on its rows. The Python rule is
`recon.rules.trim` (`_eliminate`, `_bound`, `_Reduced`)."""

from __future__ import annotations

import math

import numpy as np

from .jit import kernel


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
# (top[0]), and a full pool is compacted. Each column has a bitset of the rows with an entry in
# it, so the rows a column touches are found without looking at the others (sparse rows beat
# dense ones: docs/decisions.md). A column's rows are all in its group (elimination never mixes
# two), and the rows are numbered group by group, so its bitset covers only its group's rows:
# words seg[col, 1] to seg[col, 2] of the row index, at occ[seg[col, 0] + word].
_BIG = 2.0**62  # past this a coefficient could overflow: trim_outcome then asks trim (Python integers)


_ONE = np.uint64(1)


@kernel
def _gcd(a, b):  # pragma: no cover - compiled
    a, b = abs(a), abs(b)
    while b:
        a, b = b, a % b
    return a


@kernel
def _rows_in(occ, seg, col, out):  # pragma: no cover - compiled
    """Write the rows with an entry in col to out (increasing); return how many."""
    k = 0
    for w in range(seg[col, 1], seg[col, 2] + 1):
        word = occ[seg[col, 0] + w]
        while word:
            low = word & (~word + _ONE)
            word ^= low
            out[k] = w * 64 + math.frexp(float(low))[1] - 1
            k += 1
    return k


@kernel
def _mark(occ, seg, col, i, on):  # pragma: no cover - compiled
    bit = _ONE << np.uint64(i & 63)
    if on:
        occ[seg[col, 0] + (i >> 6)] |= bit
    else:
        occ[seg[col, 0] + (i >> 6)] &= ~bit


@kernel
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


@kernel
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


@kernel
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


@kernel
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


@kernel
def _clear(pc, pv, st, ln, cp, top, occ, seg, rhs, mx, buf_c, buf_v, i, r, col):  # pragma: no cover - compiled
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
            _mark(occ, seg, x, i, True)
        else:
            x, v = pc[a], pv[a] * sp - pv[b] * sf
            a += 1
            b += 1
            if v == 0:
                _mark(occ, seg, x, i, False)
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


@kernel
def _reduce(pc, pv, st, ln, cp, top, occ, seg, rhs, mx, piv, row_of, buf_c, buf_v, rows_buf, c):  # pragma: no cover - compiled
    """Gaussian elimination, then back substitution, to reduced row echelon form; piv[i] is row
    i's pivot column (-1: none). Each column's pivot is the shortest row that can take it (less
    fill-in; the form is unique whichever). Returns 0, 1 on overflow, 2 when a row reads
    0 = nonzero, 3 when the pool is full."""
    m = rhs.size
    for i in range(m):
        piv[i] = -1
        mx[i] = max(abs(rhs[i]), 1)
    for col in range(c):
        k = _rows_in(occ, seg, col, rows_buf)
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
                code = _clear(pc, pv, st, ln, cp, top, occ, seg, rhs, mx, buf_c, buf_v, i, best, col)
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
        k = _rows_in(occ, seg, col, rows_buf)
        for t in range(k):
            if rows_buf[t] != r:
                code = _clear(pc, pv, st, ln, cp, top, occ, seg, rhs, mx, buf_c, buf_v, rows_buf[t], r, col)
                if code:
                    return code
    return 0


@kernel
def _substitute_all(
    pc, pv, st, ln, cp, top, occ, seg, rhs, mx, piv, row_of, buf_c, buf_v, lst, rows_buf, hit, gone, cols, vals, k, dirty
):  # pragma: no cover - compiled
    """Fix columns cols[:k] to vals[:k] in the reduced form, keeping it reduced. Every column is
    substituted first; only then does a row that lost its pivot take its first cell left as the
    new one, cleared from the other rows (as trim's `_Reduced.substitute` does). Taking new pivots
    one fixed column at a time, as before, gives the same form (it is unique) but often took a
    column fixed next, and clearing those was most of elimination's time. lst, rows_buf, hit (False per row) and gone (-1 per column) are
    scratch. Returns as _reduce."""
    touched = 0
    for t in range(k):
        col = cols[t]
        gone[col] = vals[t]
        for s in range(_rows_in(occ, seg, col, lst)):
            i = lst[s]
            if not hit[i]:
                hit[i] = True
                rows_buf[touched] = i
                touched += 1
            _mark(occ, seg, col, i, False)
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
        for s in range(_rows_in(occ, seg, new, lst)):
            i = lst[s]
            if i != r:
                code = _clear(pc, pv, st, ln, cp, top, occ, seg, rhs, mx, buf_c, buf_v, i, r, new)
                if code:
                    return code
                dirty[i] = True
    return 0


@kernel
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
