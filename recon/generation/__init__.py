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

from .make import DIFFICULTIES, Puzzle, generate_puzzle, impossible_request, make_puzzle, parse_clue_target
from .options import GenerationFailed, GenerationTimeout, Job, Options

__all__ = [
    "DIFFICULTIES", "GenerationFailed", "GenerationTimeout", "Job", "Options", "Puzzle", "generate_puzzle",
    "impossible_request", "make_puzzle", "parse_clue_target",
]
