"""The one result type every engine returns, and the errors the library raises."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import numpy as np


class Verdict(str, Enum):
    """What is known about the solutions of a status."""

    UNIQUE = "unique"  # exactly one solution, proved
    MULTIPLE = "multiple"  # at least two solutions, both verified
    NONE = "none"  # no solution, proved
    UNDECIDED = "undecided"  # a time limit stopped the engine before it could prove one of the above

    def __str__(self) -> str:
        return self.value

    @classmethod
    def of_search(cls, found: int, exhausted: bool) -> "Verdict":
        """Return the verdict of an enumeration that found this many solutions and did or did not finish."""
        if found >= 2:
            return cls.MULTIPLE
        if exhausted:
            return cls.UNIQUE if found == 1 else cls.NONE
        return cls.UNDECIDED


class Grade(str, Enum):
    """How hard a puzzle is: the weakest rule set that fixes every cell (`recon explain`)."""

    BASIC = "basic"  # the single-clue rules
    ADVANCED = "advanced"  # the pairwise rules too (two clues that share cells)
    ELIMINATION = "elimination"  # exact elimination too
    SEARCH = "search"  # no rule set finishes: uniqueness is proved by a complete search

    def __str__(self) -> str:
        return self.value

    @property
    def weaker(self) -> "Grade | None":
        """The next weaker grade, None for basic."""
        grades = list(Grade)
        i = grades.index(self)
        return grades[i - 1] if i else None


@dataclass
class Result:
    """What an engine (or the cross-check of several engines) found.

    ``solutions`` holds the solutions found (all of them, or the first ``max_solutions`` of them),
    each verified, as boolean arrays; ``solution_count`` is how many were found and
    ``count_exact`` says whether it was proved that there are no others.
    ``stats`` holds work counters (nodes, backtracks, solves, cuts, ...).
    """

    verdict: Verdict
    solutions: list[np.ndarray]
    count_exact: bool
    engine: str
    seconds: float = 0.0
    stats: dict[str, int] = field(default_factory=dict)
    reason: str | None = None
    engines: dict[str, "Result"] = field(default_factory=dict)
    solution_count: int | None = None  # how many solutions were found; None: len(solutions), set on creation
    # Deduction engines (trimming) also say which cells they fixed, how, and how hard it was:
    decided: np.ndarray | None = None  # bool mask of the cells fixed (None for a contradiction)
    partial: np.ndarray | None = None  # their values (True = mine), read only where decided
    trace: list = field(default_factory=list)  # the deductions, in order (recon.rules.trim.Step)
    grade: Grade | None = None

    def __post_init__(self) -> None:
        if self.solution_count is None:
            self.solution_count = len(self.solutions)
        if self.solution_count < len(self.solutions):
            raise ValueError("solution_count cannot be smaller than the solutions listed")

    @property
    def field(self) -> np.ndarray | None:
        """Return the solution when there is exactly one, else None."""
        return self.solutions[0] if self.verdict is Verdict.UNIQUE else None

    def __repr__(self) -> str:
        """One line: the verdict, the count, the engines and their times (a notebook shows this
        instead of every field and trace)."""
        count = f"{self.solution_count}{'' if self.count_exact else '+'} solution(s)"
        engines = ", ".join(f"{name} {r.seconds:.3g} s" for name, r in self.engines.items()) or f"{self.engine} {self.seconds:.3g} s"
        grade = f", grade {self.grade}" if self.grade else ""
        shape = f" {self.solutions[0].shape[0]}x{self.solutions[0].shape[1]}" if self.solutions else ""
        return f"<Result{shape} {self.verdict.value}: {count}{grade}; {engines}>"

    def _repr_html_(self) -> str:
        """For notebooks: the line above and the first solution as a small grid (up to 40x40)."""
        from html import escape

        html = f"<p><code>{escape(repr(self))}</code></p>"
        if self.solutions and self.solutions[0].shape[0] <= 40 and self.solutions[0].shape[1] <= 40:
            cells = "".join(
                "<tr>" + "".join(f'<td style="width:1em;height:1em;padding:0;background:{"#222" if v else "#eee"}"></td>'
                                 for v in row) + "</tr>"
                for row in self.solutions[0])
            html += f'<table style="border-collapse:collapse">{cells}</table>'
        return html

    def summary(self) -> dict[str, object]:
        """Return this engine's verdict and counters as plain JSON-ready values."""
        return {
            "verdict": self.verdict.value,
            "seconds": round(self.seconds, 6),
            "solution_count": self.solution_count,
            "count_exact": self.count_exact,
            "stats": dict(self.stats),
            **({"reason": self.reason} if self.reason else {}),
            **({"grade": self.grade} if self.grade else {}),
        }


class ReconError(Exception):
    """Base class of recon's own errors."""


class TimeUp(ReconError):
    """A time limit ran out before the work was done. Every rule and engine that stops at a
    deadline raises this one signal; an engine turns it into the verdict `undecided`."""


class EngineError(ReconError):
    """An engine broke its contract (for example returned a field that fails the clues)."""


class EngineDisagreement(ReconError):
    """Two exact engines reached different answers on the same input: a bug in one of them."""

    def __init__(self, message: str, results: dict[str, Result]):
        super().__init__(message)
        self.results = results
