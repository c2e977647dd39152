"""The engines. Each takes a Problem and returns a Result; none reads files or prints.

backtrack, hybrid, milp and sat are complete: they enumerate solutions and prove the count (hybrid
deduces by trimming first and searches from there; sat needs the optional python-sat). algebra is exact
and complete for a full status only (every cell a clue). trim is sound but incomplete: it fixes
cells by deduction and says ``undecided`` when its rules stall.
"""

from __future__ import annotations

from typing import Protocol

from ..model import Problem
from ..result import Result
from . import algebra, backtrack, hybrid, milp, sat, trim


class EngineFn(Protocol):
    """What every engine is: list up to `limit` solutions of the problem, each verified, and say
    whether the count is exact. At `time_limit` seconds it stops and says `undecided` (inside,
    its loops raise `recon.result.TimeUp`; nothing else signals a timeout)."""

    def __call__(self, problem: Problem, *, limit: int = 2, time_limit: float | None = None) -> Result: ...


#: Every engine by name.
ENGINES: dict[str, EngineFn] = {
    algebra.NAME: algebra.solve,
    backtrack.NAME: backtrack.solve,
    hybrid.NAME: hybrid.solve,
    milp.NAME: milp.solve,
    sat.NAME: sat.solve,
    trim.NAME: trim.solve,
}
#: The engines that enumerate every solution and prove the count (algebra: full status only).
COMPLETE = (backtrack.NAME, hybrid.NAME, milp.NAME, sat.NAME)
#: Engines that need a full status.
FULL_ONLY = (algebra.NAME,)
#: What each engine takes beyond the clues: cells given a value ("fixed") and the total number of
#: mines ("mines"), as a classic Minesweeper board has them (`recon.classic`).
TAKES = {
    algebra.NAME: frozenset(),
    backtrack.NAME: frozenset({"fixed", "mines"}),
    hybrid.NAME: frozenset({"fixed", "mines"}),
    milp.NAME: frozenset({"fixed", "mines"}),
    sat.NAME: frozenset({"fixed", "mines"}),
    trim.NAME: frozenset({"fixed", "mines"}),
}


def conditions(problem: Problem) -> frozenset:
    """What the problem has beyond its clues: "fixed", "mines", both or neither."""
    return frozenset(name for name, there in (("fixed", problem.fixed is not None), ("mines", problem.mines is not None)) if there)


def takes(name: str, problem: Problem) -> bool:
    """Can the engine take this problem (its fixed cells and total, and a partial status)?"""
    return (conditions(problem) <= TAKES[name] and (problem.is_full or name not in FULL_ONLY)
            and (name != sat.NAME or sat.takes_total(problem)))


def available(name: str) -> bool:
    """Is the engine's optional dependency installed? ("all" leaves out engines that are not;
    asking for one by name raises its own error, sat.Unavailable, with the install command.)"""
    return name != sat.NAME or sat.AVAILABLE

__all__ = ["COMPLETE", "ENGINES", "FULL_ONLY", "TAKES", "EngineFn", "Problem", "Result", "available", "conditions", "takes"]
