"""Puzzle generation: remove clues from a full status while a grade still solves it uniquely.

| module | what it does |
|---|---|
| options | `Options` (backends, tuning, progress, time limit), `Job`, the errors |
| grades | each grade's check, compiled where it pays, and the final certificate |
| local | exact proofs about one clue from the pairwise rules near it |
| warm | warm starts for whole-grid trims |
| in_turn | removal in turn (basic; search and elimination without SAT) |
| with_sat | removal with an incremental SAT solver asked first |
| advanced | advanced generation (the pairwise rules are monotone) |
| elimination | elimination generation (passes until one removes none) |
| make | `make_puzzle`, `generate_puzzle`, `Puzzle` |
"""

from __future__ import annotations

import importlib

from .options import GenerationFailed, GenerationTimeout, Job, Options

_FROM_MAKE = ("DIFFICULTIES", "Puzzle", "generate_puzzle", "impossible_request", "make_puzzle", "parse_clue_target")


def __getattr__(name: str):
    """The puzzle makers load on first use: a classic board (generation.classic) needs none of
    them, nor the solver they bring, so `recon generate --classic` starts sooner."""
    if name in _FROM_MAKE:
        return getattr(importlib.import_module(".make", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "DIFFICULTIES", "GenerationFailed", "GenerationTimeout", "Job", "Options", "Puzzle", "generate_puzzle",
    "impossible_request", "make_puzzle", "parse_clue_target",
]
