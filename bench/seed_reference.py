"""The seed algorithm, for reference only: naive row-major search, pruning on the upper bound.

This is how the problem statement recon grew from searched: place cells in row-major order and
give up on a branch only when some clue is exceeded; check the lower bound only when the grid is
full. It is kept here to show in bench/ why recon's engines prune with both bounds and propagate.
"""

from __future__ import annotations

import time

import numpy as np

from recon.model import Problem, window_cells


class GaveUp(Exception):
    """The time budget ran out."""


def solve_naive(problem: Problem, *, limit: int = 2, budget: float = 10.0) -> tuple[list[np.ndarray], bool, int]:
    """Return (solutions up to limit, whether the search finished, nodes visited)."""
    rows, cols = problem.shape
    n = rows * cols
    clue_of = []  # for each cell, the clues whose window holds it
    clue_cells = {}
    for r in range(rows):
        for c in range(cols):
            if problem.known[r, c]:
                clue_cells[(r, c)] = window_cells(problem.shape, r, c)
    for i in range(n):
        r, c = divmod(i, cols)
        clue_of.append([k for k in window_cells(problem.shape, r, c) if k in clue_cells])
    target = {k: int(problem.clues[k]) for k in clue_cells}
    mines = dict.fromkeys(clue_cells, 0)
    value = [0] * n
    solutions: list[np.ndarray] = []
    deadline = time.perf_counter() + budget
    nodes = 0
    top = 0  # cells [0, top) are assigned: depth-first in row-major order keeps them a prefix
    stack = [(0, 1), (0, 0)]  # (cell, value to try), popped last-in first-out
    while stack:
        i, v = stack.pop()
        while top > i:
            top -= 1
            if value[top]:
                value[top] = 0
                for k in clue_of[top]:
                    mines[k] -= 1
        nodes += 1
        if nodes % 4096 == 0 and time.perf_counter() > deadline:
            raise GaveUp(nodes)
        value[i] = v
        top = i + 1
        if v:
            for k in clue_of[i]:
                mines[k] += 1
            if any(mines[k] > target[k] for k in clue_of[i]):
                continue
        if top == n:
            if all(mines[k] == target[k] for k in clue_cells):
                solutions.append(np.array(value, dtype=bool).reshape(problem.shape))
                if len(solutions) >= limit:
                    return solutions, False, nodes
            continue
        stack.append((top, 1))
        stack.append((top, 0))
    return solutions, True, nodes
