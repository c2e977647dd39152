"""Random fields: every cell is a mine independently with probability p percent."""

from __future__ import annotations

import math

import numpy as np


def random_field(rows: int, cols: int, p: float, rng: np.random.Generator | int | None = None) -> np.ndarray:
    """Draw a rows x cols field in which each cell is a mine with probability p percent (0..100)."""
    for name, value in (("rows", rows), ("cols", cols)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
    if isinstance(p, bool) or not isinstance(p, (int, float, np.integer, np.floating)) or not math.isfinite(p) or not 0 <= p <= 100:
        raise ValueError(f"p must be a percentage from 0 to 100, got {p!r}")
    rng = np.random.default_rng(rng)
    return rng.random((int(rows), int(cols))) < p / 100
