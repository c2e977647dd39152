"""The top-level functions a notebook user meets first: `read`, `count` and `explain` (with
`recon.solve`), each taking a Problem or clues and a mask of the cells that have one."""

from __future__ import annotations

import numpy as np

from .io.reading import read
from .model import Problem, make_problem

__all__ = ["count", "explain", "read"]


def _problem(clues, known) -> Problem:
    return clues if isinstance(clues, Problem) and known is None else make_problem(clues, known)


def count(clues: np.ndarray | Problem, known: np.ndarray | None = None, *, probabilities: bool = True,
          limit: int = 100_000, time_limit: float | None = None):
    """Count the fields that match (exactly, or a lower bound past `limit` or `time_limit`).

    clues: counts 0-9 (a masked array: the mask means no clue), or a Problem (a classic board
    from `read`). known: True where a cell has a clue (default: everywhere). Returns a Count:
    `count`, `exact`, `probabilities` (exact fractions per cell) and `array` (the same as floats).
    Raises ValueError for clues that are not counts.

        >>> import numpy as np, recon
        >>> c = recon.count(recon.status(np.array([[1, 0]], dtype=bool)))  # counts 1 1: which cell?
        >>> c.count, c.exact, c.array.tolist(), str(c.probabilities[0][0])
        (2, True, [[0.5, 0.5]], '1/2')
    """
    from .counting import count_solutions  # loaded when used: start-up stays short

    return count_solutions(_problem(clues, known), probabilities=probabilities, limit=limit, time_limit=time_limit)


def explain(clues: np.ndarray | Problem, known: np.ndarray | None = None, *, cases: bool = True,
            time_limit: float | None = None, ways: int | None = None) -> list:
    """The trimming proof: a list of steps (`recon.rules.trim.Step`: `rule`, `cells` (0-based),
    `values`, `sources`, `text`, `to_json()`), in order, weakest rules first; with `cases`, case
    splits where the other rules stall, following at most `ways` ways in all (default:
    `rules.trim.case_budget` of the grid). The proof fixes every cell when the grade is below
    search; a contradiction, if any, is the last step.

        >>> import numpy as np, recon
        >>> steps = recon.explain(np.array([[0, 0], [0, 0]]))
        >>> steps[0].rule, steps[0].text
        ('all-empty', 'clue r1c1 = 0: its window r1c1 r1c2 r2c1 r2c2 holds no mine -> all four empty')
    """
    from .engines import trim

    return trim.solve(_problem(clues, known), cases=cases, time_limit=time_limit, ways=ways).trace
