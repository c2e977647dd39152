"""The exact engines. Each takes a Problem and returns a Result; none reads files or prints."""

from __future__ import annotations

from collections.abc import Callable

from ..model import Problem
from ..result import Result
from . import backtrack, milp

EngineFn = Callable[..., Result]

#: Every complete engine by name: solve(problem, *, limit, time_limit) -> Result.
ENGINES: dict[str, EngineFn] = {
    backtrack.NAME: backtrack.solve,
    milp.NAME: milp.solve,
}

__all__ = ["ENGINES", "EngineFn", "Problem", "Result"]
