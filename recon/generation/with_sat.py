"""Removal with an incremental SAT solver asked first (`recon.engines.sat.SecondSolution`).

Search: its answer decides. Elimination: a second solution without the clue means trimming cannot
solve the puzzle either (it is sound), so the clue stays; otherwise compiled trimming decides,
warm-started (`warm`), and a group too large for elimination is remembered (`LargeGroup`).
"""

from __future__ import annotations

import numpy as np

from .. import compiled
from ..engines import sat
from ..result import Grade
from .local import local_proof
from .options import Job
from .warm import WarmStarts


def remove_with_sat(job: Job, field: np.ndarray,
    order: np.ndarray,
    target: int | None,
    grade: Grade = Grade.SEARCH,
    known: np.ndarray | None = None,
    settled: np.ndarray | None = None,
    stalls: dict[int, compiled.LargeGroup] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The removal loop with an incremental SAT solver (`sat.SecondSolution`) asked first; the
    clues kept, those of them kept only because trimming failed (elimination), and those of these
    last tried on the puzzle the loop ends with (no clue went after them).

    settled (flat, elimination, a later pass): clues kept because trimming failed without them, on
    the very puzzle this pass starts from. While no clue has gone in this pass, the puzzle is that
    one, and both checks would answer as they did: such a clue is kept without asking.

    search: its answer decides. elimination: a second solution without the clue means trimming
    cannot solve the puzzle either (it is sound), so the clue stays; otherwise compiled trimming
    decides. SAT goes first because trimming a puzzle it cannot solve is the slowest check, and
    most removals that fail have a second solution.

    stalls (elimination, filled and read across passes): for a clue whose trim failed on a group of
    open cells too large for elimination, that group (`compiled.LargeGroup`). While the clues
    left still join a part of it too large, trimming without the clue fails again: it is kept
    without asking (the decision SAT and trimming would make).

    Each whole-grid trim starts warm (`Options.warm_block`, `WarmStarts`): a start is dropped as soon as
    a clue goes that was in force when it was found, so it is always sound.

    known: the clues still in force (after the first part of a pass, or a later pass; only the
    clues in `order` are tried). Without it (a first pass in turn: a clue target, or `Options.first_part`
    None), elimination asks `local_proof` before SAT; a yes settles the removal (the same
    decision, sooner). With it, the check is not asked: the first part said no to these clues
    already (the pairwise rules, which the check runs, did not solve the puzzle without them),
    and that stays no with fewer clues.
    """
    local = grade is Grade.ELIMINATION and known is None
    known = np.ones(field.size, dtype=bool) if known is None else known.ravel().copy()
    kept = int(known.sum())
    shape = field.shape
    held = np.zeros(field.size, dtype=bool)
    since = []  # clues held since the last removal
    start = kept  # no clue has gone in this pass while kept == start
    warm = WarmStarts(job, field.shape)
    with sat.SecondSolution(field, order, local=job.options.sat_tiles) as oracle:
        clues = oracle.clues.reshape(shape)
        tried = np.zeros(field.size, dtype=bool)
        tried[np.asarray(order, dtype=np.int64)] = True
        for c in np.flatnonzero(~known | ~tried).tolist():
            oracle.decide(c, bool(known[c]))  # gone before this pass, or not tried in it
        for step, c in enumerate(order):
            if target is not None and kept <= target:
                break
            job.tick(step, len(order), kept, field.size)
            c = int(c)
            if not known[c]:
                continue
            if (settled is not None and settled[c] and kept == start) or large_group_holds(stalls, c, known):
                held[c] = True
                since.append(c)
                oracle.decide(c, True)
                continue
            known[c] = False
            if local and local_proof(job, clues, known.reshape(shape), c):
                keep = False
            else:
                keep = oracle.another_without(c)
                if not keep and grade is Grade.ELIMINATION:
                    # the puzzle with c was solved by trimming (every removal so far kept it so)
                    solved, large = compiled.trim_verdict(
                        clues, known.reshape(shape), solved_with=c, start=warm.for_trim(clues, known, order, step),
                        max_cells=job.options.elimination_max_cells,
                    )
                    keep = held[c] = not solved
                    if large is not None and stalls is not None:
                        stalls[c] = large
            oracle.decide(c, keep)
            known[c] = keep
            kept -= not keep
            if not keep:
                since.clear()
                warm.gone(c)
            elif held[c]:
                since.append(c)
    now_settled = np.zeros(field.size, dtype=bool)
    now_settled[np.array(since, dtype=np.int64)] = True
    return known.reshape(shape), held, now_settled


def large_group_holds(stalls: dict | None, c: int, known: np.ndarray) -> bool:
    """Does c's LargeGroup proof (if any) still show that trimming without c fails? A proof that
    no longer holds never holds again (clues only go, and parts only split): it is dropped, so
    later passes do not rebuild its joins for nothing."""
    if stalls is None or c not in stalls:
        return False
    if stalls[c].still_too_large(known):
        return True
    del stalls[c]
    return False

