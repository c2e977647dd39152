"""The engines. Each takes a Problem and returns a Result; none reads files or prints.

backtrack and milp are complete: they enumerate solutions and prove the count. trim is sound but
incomplete: it fixes cells by deduction and says ``undecided`` when its rules stall.
"""

from __future__ import annotations

from collections.abc import Callable

from ..model import Problem
from ..result import Result
from . import backtrack, milp, trim

EngineFn = Callable[..., Result]

#: Every engine by name: solve(problem, *, limit, time_limit) -> Result.
ENGINES: dict[str, EngineFn] = {
    backtrack.NAME: backtrack.solve,
    milp.NAME: milp.solve,
    trim.NAME: trim.solve,
}
#: The engines that enumerate every solution and prove the count.
COMPLETE = (backtrack.NAME, milp.NAME)

__all__ = ["COMPLETE", "ENGINES", "EngineFn", "Problem", "Result"]
