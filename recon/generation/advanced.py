"""Advanced generation: remove clues while the pairwise rules still fix every cell.

Those rules are monotone, so one pass gives a minimal puzzle, and each removal is decided by the
cheapest exact local proof that answers (`local`), the whole grid last.
"""

from __future__ import annotations

import numpy as np

from ..model import status
from .grades import pairwise_window, window_all_fixed
from .local import must_stay, window_fixed_nearby
from .options import Job
from .warm import WarmStarts


# -- advanced: the pairwise rules, which are monotone ------------------------------------------


def remove_advanced(job: Job, field: np.ndarray, order: np.ndarray, target: int | None, stage: str = "") -> np.ndarray:
    """Remove clues, in order, while trimming's basic and pairwise rules still fix every cell.

    Those rules are monotone (a clue more or a cell fixed more never stops one of them, and their
    fixpoint does not depend on the order they run in), so a clue that cannot go cannot go later
    either, and one pass gives a minimal puzzle, checked exhaustively. And the puzzle without a
    clue c is still solved exactly when the rules fix c's window without c: then c's equation is
    0 = 0 and the rules reach the fixpoint they reached with c, every cell. Each removal is
    decided by the first of these that answers, each exact:

    1. first, every clue in order: the rules on the clues within `Options.pairwise_near`
       rows and columns of c, the cells beyond left free, fix c's window (`local_proof`'s
       check): yes, it goes. The others are tried in the same order after that part:
    2. the warm start, the rules' fixpoint on the puzzle without the next `Options.warm_block` clues to be
       tried (`WarmStarts`), fixes c's window: it goes (the fixpoint without c holds that one);
    3. `advanced_keeps`: the rules cannot fix c's window even when every cell farther than
       `Options.pairwise_given`[0] rows or columns from c is given its value in the field (`must_stay`):
       it stays; the check near c at `Options.pairwise_far`, from the warm start, fixes it: it goes; the
       same as before at `Options.pairwise_given`[1]: it stays;
    4. else the rules on the whole grid without c, from the warm start, fix c's window (they stop
       there; the fixpoint is then every cell).

    The cheap proofs decide all but a few percent of the removals; `bench/bench_puzzle.py
    --advanced-proofs` counts them, and docs/decisions.md has the counts at 60x60.

    stage: what the progress report calls this removal when it is part of another (elimination's).
    """
    clues = status(field)
    shape, size = field.shape, field.size
    known = np.ones(size, dtype=bool)
    kept = size
    rest = []
    job.at(part=f" ({stage}the clues the check near them settles)")
    for step, c in enumerate(order):
        if target is not None and kept <= target:
            break
        job.tick(step, len(order), kept, size)
        c = int(c)
        known[c] = False
        if window_fixed_nearby(job, clues, known.reshape(shape), c, job.options.pairwise_near):
            kept -= 1
        else:
            known[c] = True
            rest.append(c)
    job.at(part=f" ({stage}the others)" if stage else "")
    rest = np.array(rest, dtype=np.int64)
    warm = WarmStarts(job, shape)
    for step, c in enumerate(rest.tolist()):
        if target is not None and kept <= target:
            break
        job.tick(step, len(rest), kept, size)
        known[c] = False
        start = warm.for_trim(clues, known, rest, step)
        if start is None or not window_all_fixed(start, c):
            if advanced_keeps(job, field, clues, known.reshape(shape), c, start):
                known[c] = True
                continue
        kept -= 1
        warm.gone(c)
    return known.reshape(shape)


def advanced_keeps(job: Job, field: np.ndarray, clues: np.ndarray, known: np.ndarray, c: int, start: np.ndarray | None) -> bool:
    """Must clue c stay (c out of known already)? The local checks first, cheapest first, each
    exact when it answers: the far cells given at the first `Options.pairwise_given` radius (a yes: it
    stays), the check near the clue at `Options.pairwise_far` (a yes: it goes), the far cells given at the
    second radius; then the whole-grid fixpoint from the warm start decides."""
    if must_stay(job, field, clues, known, c, job.options.pairwise_given[0], start):
        return True
    if window_fixed_nearby(job, clues, known, c, job.options.pairwise_far, start):
        return False
    if must_stay(job, field, clues, known, c, job.options.pairwise_given[1], start):
        return True
    # the whole puzzle is solved without c exactly when c's window is (remove_advanced), and the
    # rules can stop there: a third less time on the removals that go (100x100)
    return not pairwise_window(job, clues, known, c, start)

