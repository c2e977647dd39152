"""Compiled kernels (optional: the `fast` extra installs numba), each beside the rule it speeds up.

| module | speeds up | Python rule |
|---|---|---|
| basic | the single-clue rules, 64 puzzles at once, and the basic removal loop | recon.rules.closure |
| pairwise | the subset and overlap rules, whole grid or near one clue | recon.rules.trim |
| elimination | exact elimination on a sparse reduced form | recon.rules.trim |
| search | a short search for a second solution near a removed clue | (a complete engine decides) |
| trim | the rules above alternating, as trimming runs them | recon.rules.trim |

Every kernel gives the Python rule's answer; tests hold each pair equal. They are plain Python
until `load` compiles them (`jit`); without numba, `AVAILABLE` is False and callers use the
Python rules.
"""

from __future__ import annotations

from .basic import closures64, remove_clues_basic
from .jit import AVAILABLE, is_loaded, load
from .pairwise import must_stay, pairwise_fixed, window_fixed_nearby
from .trim import SEARCH_BUDGET, LargeGroup, Outcome, trim_grade, trim_outcome, trim_verdict, trims_fully

__all__ = [
    "AVAILABLE", "SEARCH_BUDGET", "LargeGroup", "Outcome", "closures64", "is_loaded", "load", "must_stay",
    "pairwise_fixed", "remove_clues_basic", "trim_grade", "trim_outcome", "trim_verdict", "trims_fully", "window_fixed_nearby",
]
