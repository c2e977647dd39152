"""Incremental checks for generation agree with checking from scratch after every change."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import ODD_SHAPES
from recon import make_problem, status
from recon.engines import backtrack
from recon.rules.closure import LANES, Closure, basic_closures
from recon.generation.in_turn import another_solution as _another_solution, another_solution_milp as _another_solution_milp

SHAPES = ODD_SHAPES + [(9, 13), (13, 9), (2, 30)]


@pytest.mark.parametrize("shape", SHAPES)
def test_closure_under_removal_and_restore_equals_closure_from_scratch(shape):
    rng = np.random.default_rng(shape[0] * 31 + shape[1])
    for density in (0.3, 0.5, 0.7):
        field = rng.random(shape) < density
        closure = Closure(field)
        known = np.ones(shape, dtype=bool)
        for cell in rng.permutation(field.size):
            cell = int(cell)
            closure.remove(cell)
            known.flat[cell] = False
            assert closure.open == Closure(field, known).open
            assert closure.is_done == backtrack.is_forced(make_problem(status(field), known))
            if rng.random() < 0.4:
                closure.restore(cell)
                known.flat[cell] = True
                assert closure.open == Closure(field, known).open


@pytest.mark.parametrize("shape", SHAPES)
def test_64_clue_sets_at_once_match_one_at_a_time(shape):
    rng = np.random.default_rng(shape[0] * 17 + shape[1])
    field = rng.random(shape) < 0.5
    sets = [rng.random(shape) < rng.uniform(0.2, 1.0) for _ in range(LANES)]
    active = np.zeros(shape, dtype=np.uint64)
    for b, known in enumerate(sets):
        active |= known.astype(np.uint64) << np.uint64(b)
    fixed = basic_closures(field, active)
    for b, known in enumerate(sets):
        lane = (fixed >> np.uint64(b)) & np.uint64(1)
        open_cells = {int(i) for i in np.flatnonzero(lane == 0)}
        assert open_cells == Closure(field, known).open


def test_second_solution_search_agrees_with_milp():
    rng = np.random.default_rng(5)
    for _ in range(60):
        n = int(rng.integers(2, 9))
        truth = (rng.random(n) < 0.5).astype(int).tolist()
        equations = []
        for _ in range(int(rng.integers(1, 6))):
            cells = sorted(rng.choice(n, size=int(rng.integers(1, n + 1)), replace=False).tolist())
            equations.append((cells, sum(truth[x] for x in cells)))
        cells = list(range(n))
        # brute force over all 2**n assignments
        others = any(
            any(((mask >> x) & 1) != truth[x] for x in cells)
            and all(sum((mask >> x) & 1 for x in eq) == count for eq, count in equations)
            for mask in range(2**n)
        )
        assert _another_solution(cells, equations, truth) == others
        assert _another_solution_milp(cells, equations, truth) == others
