"""Warm starts for whole-grid trims: the pairwise fixpoint without a block of clues to be tried.

The pairwise phase is monotone in the clues, so while every clue removed since is one of the
block, a trim of a clue of the block reaches the same fixpoint from there: the same decisions,
sooner (`Options.warm_block`, `Options.warm_outer`).
"""

from __future__ import annotations

import numpy as np

from .grades import pairwise_values
from .options import Job


class WarmStarts:
    """The warm starts of one removal loop's whole-grid trims (see `Options.warm_block`).

    A start holds the cells trimming's pairwise phase fixes on the puzzle without a block of
    clues: the one being tried and the next clues in force that the order tries. It is sound for
    a trim of any clue of the block while every other clue it was found with is still in force,
    so `gone` drops it when one of those goes. The block's start is itself found warm, from a
    start for the next `Options.warm_outer` clues kept the same way."""

    def __init__(self, job: Job, shape: tuple[int, int]):
        self.job = job
        self.shape = shape
        self.start = self.block = None  # the trims' start, and (flat) the clues left out of it
        self.outer_start = self.outer = None  # the blocks' start, and the clues left out of it

    def for_trim(self, clues: np.ndarray, known: np.ndarray, order: np.ndarray, step: int) -> np.ndarray | None:
        """The start for trimming without order[step] (gone from known, flat, already), found
        when the block held is not for it; None when warm_block is 0."""
        if self.start is not None and self.block[int(order[step])]:
            return self.start
        if self.job.options.warm_block <= 0:
            return None
        self.block = next_clues(known, order, step, self.job.options.warm_block)
        if self.outer_start is None or np.any(self.block & ~self.outer):
            self.outer = next_clues(known, order, step, max(self.job.options.warm_outer, self.job.options.warm_block))
            self.outer_start = pairwise_values(self.job, clues, (known & ~self.outer).reshape(self.shape))
        self.start = pairwise_values(self.job, clues, (known & ~self.block).reshape(self.shape), start=self.outer_start)
        return self.start

    def gone(self, c: int) -> None:
        """Clue c went: drop each start found with c in force."""
        if self.start is not None and not self.block[c]:
            self.start = None
        if self.outer_start is not None and not self.outer[c]:
            self.outer_start = None


def next_clues(known: np.ndarray, order: np.ndarray, step: int, count: int) -> np.ndarray:
    """(flat) order[step] and the next count - 1 clues in force in the order after it."""
    chosen = np.zeros(known.size, dtype=bool)
    chosen[int(order[step])] = True
    later = np.asarray(order[step + 1 :], dtype=np.int64)
    chosen[later[known[later]][: max(count - 1, 0)]] = True
    return chosen

