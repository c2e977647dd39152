"""Elimination generation: advanced's removals first, then passes with SAT and trimming.

Trimming with elimination is not monotone (one equation fewer changes the reduced form), so a
clue kept in one pass may go in a later one: passes run until one removes none (minimal,
checked exhaustively). A clue target stops on the minimal path, or adds clues back.
"""

from __future__ import annotations

import numpy as np

from .. import compiled
from ..model import make_problem, status
from ..result import Grade
from .advanced import remove_advanced
from .grades import needs_elimination
from .in_turn import remove_in_turn
from .local import local_proof
from .options import Job
from .with_sat import remove_with_sat


def remove_elimination(job: Job, field: np.ndarray, order: np.ndarray, target: int | None = None) -> tuple[np.ndarray, int]:
    """Remove clues to an elimination-grade puzzle that is minimal (or has `target` clues), and the
    number of passes it took.

    The first pass has two parts (`Options.first_part`): clues go, in order, while the pairwise rules alone
    still solve the puzzle (`remove_advanced`: each such removal keeps it trimmed, since
    trimming runs those rules first); then the clues left are tried in the same order as in any
    pass, with elimination. (`Options.first_part` "local": first every clue the check near it proves
    removable goes, `remove_local`.) The first part's checks are not asked again: its answers
    only turn from yes to no as clues go (the pairwise rules are monotone).

    Trimming is not monotone (see the module docstring): a clue kept because trimming failed
    without it may become removable once others have gone. So after the first pass, pass over the
    kept clues again, in the same order, until a pass removes none. With python-sat and numba, a
    later pass tries only the clues kept because trimming failed: a clue kept because the puzzle
    without it had a second solution can never go (with fewer clues that solution is still one).
    When no clue is left to try, the next pass would remove none: it is counted, not run, so both
    paths report the same number of passes. A clue last tried on the puzzle a pass starts from
    (no clue went after it in the pass before) would fail again: it is kept without asking until
    a clue goes (`remove_with_sat`'s settled). So would a clue whose trim failed because the
    pairwise phase left a group of open cells too large for elimination, while the clues left
    still join a part of it that is too large (`compiled.LargeGroup`; `stalls` remembers them).

    target (a clue count): removal stops there, on the same path as without it, so the puzzle is
    one the minimal path goes through. That path's puzzles need elimination from its first removal
    after advanced's part on (advanced's part tried every clue left, so the pairwise rules cannot
    do without any of them, and with fewer clues they do no better); before it they are solved by
    the pairwise rules. So when advanced's part gets to the target already, the path is followed to
    its first puzzle that needs elimination, and clues are added back to that one (`add_back`).
    When that does not get there either (the path has no such puzzle, or too few clues can come
    back), or first_part is not "advanced", removal runs one pass in turn toward the target
    instead (`toward`).
    """
    if target is not None and job.options.first_part != "advanced":
        return toward(job, field, order, target)
    known = None
    if job.options.first_part == "advanced":
        known = remove_advanced(job, field, order, None, stage="the pairwise rules: ")
        rest = order[known.ravel()[order]]
        job.at(part=" (elimination)")
        if target is not None and known.sum() <= target:
            first = elimination_pass(job, field, rest, known, stalls=_stalls(job), target=int(known.sum()) - 1)[0]
            grown = add_back(job, field, order, first, target) if first.sum() < known.sum() else None
            if grown is not None:
                return grown, 1
            job.at(part="")
            return toward(job, field, order, target)
        order = rest
    elif job.options.first_part == "local":
        known, order = remove_local(job, field, order)
    stalls = _stalls(job)
    known, held, settled = elimination_pass(job, field, order, known, stalls=stalls, target=target)
    passes = 1
    while held.any() and not (target is not None and known.sum() <= target):
        passes += 1
        job.at(passes=passes, part="")
        again, held, settled = elimination_pass(job, field, order[held[order]], known, settled, stalls, target)
        if again.sum() == known.sum():
            return known, passes
        known = again
    if target is not None and known.sum() <= target:
        return known, passes  # stopped at the target
    return known, passes + 1  # the next pass, with no clue to try, would remove none


def _stalls(job: Job) -> dict[int, compiled.LargeGroup] | None:
    """Where a pass remembers the LargeGroup proofs of the clues it kept, None when they are off."""
    return {} if job.options.large_group_proofs else None


def elimination_pass(job: Job, field: np.ndarray, order: np.ndarray, known: np.ndarray | None, settled: np.ndarray | None = None,
    stalls: dict[int, compiled.LargeGroup] | None = None, target: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """One pass of elimination-grade removals over `order`: the clues kept, (flat) those that a later
    pass must try again (with SAT, the ones trimming failed; without, every one kept), and (flat,
    with SAT) those of them last tried on the puzzle the pass ends with (see remove_with_sat). It
    stops when `target` clues are left."""
    if job.options.use_sat and job.options.use_kernels:
        return remove_with_sat(job, field, order, target, Grade.ELIMINATION, known, settled, stalls)
    kept = remove_in_turn(job, field, order, Grade.ELIMINATION, target, known)
    return kept, kept.ravel(), None


def add_back(job: Job, field: np.ndarray, order: np.ndarray, known: np.ndarray, target: int) -> np.ndarray | None:
    """Add clues back to an elimination-grade puzzle (known) until it has `target` clues: the clues
    gone, last drawn first, each kept only if trimming still solves the puzzle (elimination is not
    monotone: a clue more can stop it) and the pairwise rules alone still do not (a clue more can
    let them). The clues then kept, or None when too few could come back. Each check is the
    grade's own (`needs_elimination`), and a puzzle trimming solves is unique."""
    clues = status(field)
    known = known.copy()
    count = int(known.sum())
    for c in reversed(order.tolist()):
        if count >= target:
            break
        if known.flat[c]:
            continue
        known.flat[c] = True
        if not needs_elimination(job, make_problem(clues, known)):
            known.flat[c] = False
        else:
            count += 1
    return known if count == target else None


def toward(job: Job, field: np.ndarray, order: np.ndarray, target: int) -> tuple[np.ndarray, int]:
    """Elimination-grade removal toward a clue target in one pass that tries each clue in turn, then
    `more_passes` if it did not get there; the clues kept and the passes."""
    job.at(passes=1)
    known = remove_in_turn(job, field, order, Grade.ELIMINATION, target)
    if known.sum() > target:
        return more_passes(job, field, order, known, target)
    return known, 1


def more_passes(job: Job, field: np.ndarray, order: np.ndarray, known: np.ndarray, target: int) -> tuple[np.ndarray, int]:
    """An elimination-grade removal toward a clue target that one pass did not reach: pass over the kept
    clues again, in order, until the target is reached or a pass removes none (then the puzzle is
    minimal, as without a target: trimming is not monotone, so one pass does not show that); the
    clues kept and the number of passes, that last one included."""
    passes = 1
    while known.sum() > target:
        passes += 1
        job.at(passes=passes)
        again = remove_in_turn(job, field, order[known.ravel()[order]], Grade.ELIMINATION, target, known)
        if again.sum() == known.sum():
            break
        known = again
    return known, passes


def remove_local(job: Job, field: np.ndarray, order: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Remove, in order, every clue that `local_proof` shows trimming can do without: the clues
    left, and the part of the order they make up (to be tried next)."""
    clues = status(field)
    known = np.ones(field.shape, dtype=bool)
    rest = []
    job.at(part=" (the clues the check near them settles)")
    for tried, c in enumerate(order):
        job.tick(tried, len(order), field.size - (tried - len(rest)), field.size)
        c = int(c)
        known.flat[c] = False
        if not local_proof(job, clues, known, c):
            known.flat[c] = True
            rest.append(c)
    job.at(part="")
    return known, np.array(rest, dtype=np.int64)

