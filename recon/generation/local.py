"""Local proofs about one clue: the pairwise rules run near it only.

`window_fixed_nearby`: the rules on the clues within a radius of clue c, without c, fix c's
window, so trimming without c runs as it ran with c (a removal is safe). `must_stay`: they do not
fix it even with the far cells given their value in the field, so the whole-grid rules cannot
either (the clue must stay). Both are exact because the pairwise rules are sound and monotone.
Each runs compiled (`recon.compiled.pairwise`) or in Python (`local_window_fixed`, on
recon.rules.trim), with the same answer.
"""

from __future__ import annotations

import numpy as np

from .. import compiled
from ..model import OPEN
from .grades import pairwise_values_python, window_all_fixed
from .options import Job


def local_proof(job: Job, clues: np.ndarray, known: np.ndarray, c: int) -> bool:
    """Do the pairwise rules on the clues in force within `Options.local_radii`[-1] rows and columns of
    clue c, without c, fix c's window? (`compiled.window_fixed_nearby`, compiled, with numba; else
    its Python twin, the same answer.) If the puzzle with c was solved by trimming, a yes proves
    the puzzle without c is too: trimming runs as it ran with c (see window_fixed_nearby)."""
    # a yes at a smaller radius is a yes at the last: the others only save time
    return any(window_fixed_nearby(job, clues, known, c, r) for r in job.options.local_radii)


def window_fixed_nearby(job: Job, clues: np.ndarray, known: np.ndarray, c: int, radius: int, start: np.ndarray | None = None) -> bool:
    """`local_proof`'s check at one radius (from a warm start if given): compiled with numba, else
    its Python twin."""
    if job.options.use_kernels:
        return compiled.window_fixed_nearby(clues, known, c, radius, start=start)
    return window_fixed_nearby_python(clues, known, c, radius, start)


def window_fixed_nearby_python(
    clues: np.ndarray, known: np.ndarray, c: int, radius: int, start: np.ndarray | None = None
) -> bool:
    """`compiled.window_fixed_nearby` in Python: trim's basic and pairwise rules (no elimination)
    on the clues in force within `radius` rows and columns of clue c, without c, over the cells
    they see and one ring around, free (or, with start, fixed where start fixes them); is c's
    window fixed at their fixpoint? The fixpoint does not depend on the order the rules run in,
    so this is the compiled answer (tests compare). It runs the Trimmer's pairwise rules without
    the proof: nobody reads it here. Contradictory clues: no proof."""
    return bool(local_window_fixed(clues, known, c, radius, start))


def must_stay(job: Job, field: np.ndarray, clues: np.ndarray, known: np.ndarray, c: int, given: int, start: np.ndarray | None = None) -> bool:
    """`compiled.must_stay` with numba, else its Python twin `must_stay_python` (the same answer)."""
    if job.options.use_kernels:
        return compiled.must_stay(clues, known, field, c, given, start)
    return must_stay_python(field, clues, known, c, given, start)


def must_stay_python(
    field: np.ndarray, clues: np.ndarray, known: np.ndarray, c: int, given: int, start: np.ndarray | None = None
) -> bool:
    """A proof that the pairwise rules cannot fix clue c's window on the puzzle without c (known,
    c out already): they do not fix it even when every cell farther than `given` rows or columns
    from c is given its value in the field (`compiled.must_stay`'s twin).

    Sound: the rules are sound and the field meets every clue, so whatever they fix on the whole
    puzzle is the field's value; giving more cells can only fix more (they are monotone). So the
    fixpoint with those cells given holds the whole-grid one. The clues within `given` + 1 are
    enough: one farther sees given cells only, and says nothing more. start: a warm start (cells
    the rules fix on the whole puzzle without c), fixed from the start too: the same answer."""
    return local_window_fixed(clues, known, c, given + 1, start=start, field=field, given=given) is False


def local_window_fixed(
    clues: np.ndarray, known: np.ndarray, c: int, radius: int, start: np.ndarray | None = None,
    field: np.ndarray | None = None, given: int = -1,
) -> bool | None:
    """The pairwise rules on the clues in force within `radius` rows and columns of clue c (c
    left out), over the cells they see and one ring around (free, or fixed where start fixes
    them, or, beyond `given` rows or columns from c, to their value in field); is c's window
    fixed at the fixpoint? None when those clues contradict each other. In Python, what the
    compiled `compiled._local_pairwise` does for `window_fixed_nearby` and `must_stay`."""
    rows, cols = clues.shape
    r, q = divmod(c, cols)
    y0, y1 = max(r - radius - 1, 0), min(r + radius + 2, rows)
    x0, x1 = max(q - radius - 1, 0), min(q + radius + 2, cols)
    ys, xs = np.mgrid[y0:y1, x0:x1]
    # the outer ring (unless it is the grid's edge) holds cells but no clues
    inner = (
        ((ys > y0) | (ys == 0)) & ((ys < y1 - 1) | (ys == rows - 1))
        & ((xs > x0) | (xs == 0)) & ((xs < x1 - 1) | (xs == cols - 1))
    )
    inner[r - y0, q - x0] = False
    value = np.full(ys.shape, OPEN, dtype=np.int8)
    if start is not None:
        value[:] = np.asarray(start, dtype=np.int8).reshape(clues.shape)[y0:y1, x0:x1]
    if given >= 0:
        far = np.maximum(np.abs(ys - r), np.abs(xs - q)) > given
        value[far] = np.asarray(field, dtype=np.int8)[y0:y1, x0:x1][far]
    fixed = pairwise_values_python(clues[y0:y1, x0:x1], known[y0:y1, x0:x1] & inner, value)
    if fixed is None:
        return None
    return window_all_fixed(fixed, (r - y0) * (x1 - x0) + q - x0)

