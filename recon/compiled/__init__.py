"""Compiled kernels (optional: the `fast` extra installs numba), each beside the rule it speeds up.

| module | speeds up | Python rule |
|---|---|---|
| basic | the single-clue rules, 64 puzzles at once, and the basic removal loop | recon.rules.closure |
| pairwise | the subset and overlap rules, whole grid or near one clue; the ways of a case split; a Minesweeper player's rules opening what they prove safe | recon.rules.trim, recon.rules.sweeper |
| elimination | exact elimination on a sparse reduced form | recon.rules.trim |
| search | a short search for a second solution near a removed clue | (a complete engine decides) |
| trim | the rules above alternating, as trimming runs them | recon.rules.trim |

Every kernel gives the Python rule's answer; tests hold each pair equal. They are plain Python
until `load` compiles them (`jit`); without numba, `AVAILABLE` is False and callers use the
Python rules.
"""

from __future__ import annotations

from .jit import AVAILABLE, cached, is_loaded, load

# the kernels' modules load on first use (PEP 562): defining them costs a command that never
# compiles (a full-status solve, a count) a twentieth of a second at start-up
_WHERE = {
    "closures64": "basic", "remove_clues_basic": "basic",
    "must_stay": "pairwise", "pairwise_fixed": "pairwise", "pairwise_window_fixed": "pairwise", "split_ways": "pairwise",
    "window_fixed_nearby": "pairwise",
    "SEARCH_BUDGET": "trim", "IndexTooLarge": "trim", "LargeGroup": "trim", "Outcome": "trim", "trim_grade": "trim", "trim_outcome": "trim",
    "trim_verdict": "trim", "trims_fully": "trim",
}


def __getattr__(name: str):
    if name in _WHERE:
        from importlib import import_module

        return getattr(import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "AVAILABLE", "SEARCH_BUDGET", "cached", "IndexTooLarge", "LargeGroup", "Outcome", "closures64", "is_loaded", "load", "must_stay",
    "pairwise_fixed", "pairwise_window_fixed", "remove_clues_basic", "split_ways", "trim_grade", "trim_outcome", "trim_verdict", "trims_fully", "window_fixed_nearby",
]
