"""A short compiled search for a second solution that flips a cell near a removed clue: most
removals that fail, fail that way, and finding one is cheaper than trimming the puzzle. It only
ever answers "found" with a verified solution; "not found" proves nothing."""

from __future__ import annotations

import numpy as np

from .jit import kernel


# -- a second solution near a removed clue ---------------------------------------------------
# Removing clue c from a puzzle with one solution leaves several exactly when some set D of cells
# can flip (empty -> mine, mine -> empty) with every remaining clue seeing as many new mines as
# lost ones. D meets c's window (else it would flip under c too), avoids the cells trimming's
# rules fixed, and is usually small: a short search from c's window finds it, and then trimming
# cannot solve the puzzle (it is sound), so the long way round is not needed.


@kernel
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


@kernel
def _flip(x, v, d, sign, sm, pf, nf, trail, tlen, active, rows, cols):  # pragma: no cover
    """Decide cell x (v = 1: in D) and put it on the trail."""
    d[x] = v
    trail[tlen] = x
    _tally(x, v, 1, sign, sm, pf, nf, active, rows, cols)
    return tlen + 1


@kernel
def _unflip(mark, tlen, d, sign, sm, pf, nf, trail, active, rows, cols):  # pragma: no cover
    """Undo the decisions on the trail back to length mark."""
    while tlen > mark:
        tlen -= 1
        x = trail[tlen]
        _tally(x, d[x], -1, sign, sm, pf, nf, active, rows, cols)
        d[x] = -1
    return tlen


@kernel
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


@kernel
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


@kernel
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
