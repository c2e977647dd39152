"""recon: reconstruct hidden mine fields from their 3x3 mine counts, with proved verdicts.

    >>> import numpy as np, recon
    >>> field = recon.random_field(4, 6, 30, np.random.default_rng(1))
    >>> result = recon.solve(recon.status(field))
    >>> result.verdict in (recon.Verdict.UNIQUE, recon.Verdict.MULTIPLE)
    True
"""

from __future__ import annotations

__version__ = "0.1.0"

from .io.text import FormatError, format_field, format_fields, format_status, parse_field, parse_status
from .model import Problem, constraint_matrix, is_solution, make_problem, random_field, status, window_sizes
from .result import EngineDisagreement, EngineError, Grade, ReconError, Result, TimeUp, Verdict
from .solver import solve
from .api import count, explain, read

__all__ = [
    "EngineDisagreement",
    "EngineError",
    "FormatError",
    "Grade",
    "Problem",
    "ReconError",
    "Result",
    "TimeUp",
    "Verdict",
    "__version__",
    "constraint_matrix",
    "count",
    "explain",
    "format_field",
    "format_fields",
    "format_status",
    "is_solution",
    "make_problem",
    "parse_field",
    "parse_status",
    "random_field",
    "read",
    "solve",
    "status",
    "window_sizes",
]
