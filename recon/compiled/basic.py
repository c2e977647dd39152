"""The single-clue rules compiled, for 64 puzzles at once (one per bit of a uint64); the Python
rule is `recon.rules.closure`.

Generation asks thousands of times "do the single-clue rules still solve the puzzle if this clue
goes?". `recon.rules.closure` answers it in Python by updating one closure; here the same question
is answered by running the rules from scratch, with a work list: a clue is looked at again only
when a cell of its window was fixed in some puzzle. Because the field is known, the rules need no
arithmetic: a clue empties its window once every mine of the window is fixed, and fills it once
every empty cell is.

`remove_clues_basic` is the whole removal loop of a basic puzzle: screen 64 candidates at once,
each removed alone (one that fails alone fails later too, since clues only go), then replay the
hopeful ones as prefixes (bit b removes the first b + 1 of them), accepting up to the first that
fails. Its decisions are those of trying each clue in order against the clues kept so far, which
is what the Python loop in `recon.generation.in_turn` does; tests compare the two.
"""

from __future__ import annotations

import numpy as np

from ..rules.closure import ALL, LANES
from .jit import kernel, load


_ALL = int(ALL)  # a plain int: numba folds it into the compiled code


@kernel
def _anchors(mine, rows, cols):  # pragma: no cover - compiled
    """The cells whose window is all empty or all mines: with nothing fixed, only their clues can
    fire."""
    n = rows * cols
    out = np.empty(n, dtype=np.int64)
    count = 0
    for c in range(n):
        r, q = c // cols, c % cols
        mines = 0
        cells = 0
        for i in range(max(r - 1, 0), min(r + 1, rows - 1) + 1):
            for j in range(max(q - 1, 0), min(q + 1, cols - 1) + 1):
                mines += mine[i * cols + j]
                cells += 1
        if mines == 0 or mines == cells:
            out[count] = c
            count += 1
    return out[:count]


@kernel
def _closure64(mine, active, rows, cols, anchors):  # pragma: no cover - compiled by numba, tested through it
    """Fixed cells of 64 puzzles at once: bit b of the result for the puzzle whose clues are bit b
    of active (uint64 per cell, row-major); mine is the field (uint8 per cell), anchors its
    `_anchors`. The work list starts with the anchors' clues: any other clue is queued when a
    cell of its window is fixed, before which it cannot fire."""
    n = rows * cols
    known = np.zeros(n, dtype=np.uint64)
    queue = np.empty(n, dtype=np.int64)
    queued = np.zeros(n, dtype=np.bool_)
    count = 0
    for c in anchors:
        if active[c] != 0:
            queue[count] = c
            queued[c] = True
            count += 1
    head = 0
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


@kernel
def _solved_lanes(mine, active, rows, cols, anchors):  # pragma: no cover - compiled
    """The puzzles (bits) in which every cell is fixed."""
    known = _closure64(mine, active, rows, cols, anchors)
    solved = np.uint64(_ALL)
    for x in range(rows * cols):
        solved &= known[x]
    return solved


@kernel
def _remove_clues_basic(mine, order, rows, cols, target):  # pragma: no cover - compiled
    n = rows * cols
    keep = np.ones(n, dtype=np.bool_)
    kept = n
    active = np.empty(n, dtype=np.uint64)
    full = np.uint64(_ALL)
    hopeful = np.empty(LANES, dtype=np.int64)
    anchors = _anchors(mine, rows, cols)
    for first in range(0, order.size, LANES):
        last = min(first + LANES, order.size)
        # 1. each candidate alone against the clues kept so far
        for x in range(n):
            active[x] = full if keep[x] else np.uint64(0)
        for b in range(last - first):
            c = order[first + b]
            active[c] &= ~(np.uint64(1) << np.uint64(b))
        solved = _solved_lanes(mine, active, rows, cols, anchors)
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
            solved = _solved_lanes(mine, active, rows, cols, anchors)
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


def closures64(field: np.ndarray, active: np.ndarray) -> np.ndarray:
    """Fixed cells of up to 64 puzzles on one field (see `recon.rules.closure.basic_closures`)."""
    load()
    field = np.asarray(field, dtype=bool)
    rows, cols = field.shape
    mine = field.ravel().astype(np.uint8)
    known = _closure64(mine, np.ascontiguousarray(active, dtype=np.uint64).ravel(), rows, cols, _anchors(mine, rows, cols))
    return known.reshape(field.shape)


def remove_clues_basic(field: np.ndarray, order: np.ndarray, target: int | None) -> np.ndarray:
    """The clues kept when each clue in order is removed if the single-clue rules still solve."""
    load()
    field = np.asarray(field, dtype=bool)
    rows, cols = field.shape
    keep = _remove_clues_basic(
        field.ravel().astype(np.uint8), np.asarray(order, dtype=np.int64), rows, cols, -1 if target is None else int(target)
    )
    return np.asarray(keep, dtype=bool).reshape(field.shape)
