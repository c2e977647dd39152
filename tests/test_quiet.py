"""Trimming without the written proof (recon.rules.quiet) fixes exactly the cells trim fixes."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recon import Verdict, make_problem, random_field, status
from recon.engines import trim
from recon.rules.trim import ELIMINATION_MAX_CELLS
from recon.result import TimeUp
from recon.rules.quiet import QuietTrimmer
from recon.rules.trim import Contradiction, Trimmer
from recon.generation import generate_puzzle
from recon.generation.grades import is_advanced, is_trimmed


def _written(problem, max_cells=ELIMINATION_MAX_CELLS):
    """Cells fixed by the Trimmer (with its proof), or "contradiction"."""
    trimmer = Trimmer(problem, max_cells)
    try:
        trimmer.load()
        trimmer.run()
    except Contradiction:
        return "contradiction"
    return trimmer.value.copy()


def _quiet(problem, max_cells=ELIMINATION_MAX_CELLS):
    trimmer = QuietTrimmer.of(problem, max_cells)
    try:
        trimmer.load()
        trimmer.run()
    except Contradiction:
        return "contradiction"
    assert trimmer.is_done == bool((trimmer.value >= 0).all())
    return trimmer.value


def _same(problem, max_cells=ELIMINATION_MAX_CELLS) -> str:
    written, fast = _written(problem, max_cells), _quiet(problem, max_cells)
    if isinstance(written, str) or isinstance(fast, str):
        assert isinstance(written, str) and isinstance(fast, str), (written, fast)
        return "contradiction"
    assert np.array_equal(fast, written)
    return "done" if (written >= 0).all() else "stalled"


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(1, 11), (11, 1), (2, 9), (9, 2), (6, 8), (10, 13)])
def test_quiet_fixes_the_cells_trim_fixes(shape):
    """On random counts (mostly contradictions) and along removal paths of random fields (a clue
    is kept when trimming no longer solves the puzzle without it), where elimination does the
    most: the same cells fixed, the same contradictions, on thin grids too (edges everywhere)."""
    rng = np.random.default_rng(sum(shape) * 7)
    kinds, eliminated = set(), 0
    for _ in range(20):
        kinds.add(_same(make_problem(rng.integers(0, 6, size=shape), rng.random(shape) < 0.7)))
    for _ in range(2):
        field = rng.random(shape) < rng.uniform(0.3, 0.7)
        clues, known = status(field), np.ones(shape, dtype=bool)
        for c in rng.permutation(field.size):
            known.flat[c] = False
            problem = make_problem(clues, known)
            kind = _same(problem)
            kinds.add(kind)
            eliminated += any(step.rule == "elimination" for step in trim.solve(problem).trace)
            if kind != "done":
                known.flat[c] = True
    assert kinds >= {"contradiction", "stalled"}, kinds
    if min(shape) >= 6:  # on thin grids elimination finds nothing the pairwise rules miss
        assert "done" in kinds and eliminated >= 3, (kinds, eliminated)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.integers(1, 9), cols=st.integers(1, 9), p=st.integers(10, 90), keep=st.integers(20, 100),
    seed=st.integers(0, 2**32 - 1),
)
def test_quiet_agrees_with_trim_on_random_partial_statuses(rows, cols, p, keep, seed):
    rng = np.random.default_rng(seed)
    field = random_field(rows, cols, p, rng)
    _same(make_problem(status(field), rng.random((rows, cols)) < keep / 100))


@pytest.mark.parametrize("seed", [0, 1])
def test_quiet_keeps_the_reduced_form_on_minimal_search_puzzles(seed):
    """A generated minimal search-grade 23 x 26 puzzle, where trimming eliminates over hundreds
    of rows, fixes some cells and stalls: the same cells fixed, the reduced form carried through
    the rounds instead of rebuilt."""
    puzzle = generate_puzzle(23, 26, 50, np.random.default_rng(seed), difficulty="search")
    problem = make_problem(puzzle.clues, puzzle.known)
    assert trim.solve(problem).verdict is Verdict.UNDECIDED
    trimmer = QuietTrimmer.of(problem)
    trimmer.load()
    trimmer.run()
    assert len(trimmer._reduced.rows) > 100 and not trimmer.is_done
    assert np.array_equal(trimmer.value, _written(problem))


def _removal_path(field, rng):
    """The clues left after removing clues in random order while trimming solves the puzzle."""
    clues, known = status(field), np.ones(field.shape, dtype=bool)
    for c in rng.permutation(field.size):
        known.flat[c] = False
        if _same(make_problem(clues, known)) != "done":
            known.flat[c] = True
    return known


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(6, 6), (6, 8)])
def test_quiet_eliminates_group_by_group_when_the_open_cells_are_too_many(monkeypatch, shape):
    """Past ELIMINATION_MAX_CELLS open cells, elimination runs on each group small enough alone
    (as trim does) and skips the others. With a limit of 22 for both: a puzzle that needs elimination,
    then 3 columns of empty cells with their clues, then 4 columns without a clue (open cells in
    no equation): both fix the same cells, and eliminating group by group fixes some."""
    by_group = []
    eliminate = QuietTrimmer._eliminate

    def spy(self):
        many = self.open > 22
        found = eliminate(self)
        by_group.append(many and found)
        return found

    monkeypatch.setattr(QuietTrimmer, "_eliminate", spy)
    rng = np.random.default_rng(sum(shape))
    for _ in range(40):
        field = rng.random(shape) < rng.uniform(0.3, 0.7)
        known = _removal_path(field, rng)
        rows = shape[0]
        wide = np.hstack([field, np.zeros((rows, 7), dtype=bool)])
        wide_known = np.hstack([known, np.ones((rows, 3), dtype=bool), np.zeros((rows, 4), dtype=bool)])
        by_group.clear()
        assert _same(make_problem(status(wide), wide_known), 22) == "stalled"  # the 4 columns stay open
        if any(by_group):
            break
    assert any(by_group)


def test_quiet_stops_at_the_deadline():
    puzzle = generate_puzzle(12, 17, 50, np.random.default_rng(3), difficulty="advanced")
    problem = make_problem(puzzle.clues, puzzle.known)
    trimmer = QuietTrimmer.of(problem)
    trimmer.load()
    with pytest.raises(TimeUp):
        trimmer.run(time.perf_counter() - 1)
    assert trimmer.timed_out and not trimmer.is_done
    again = QuietTrimmer.of(problem)
    assert again.fixes_all() and not again.timed_out


@pytest.mark.slow
@pytest.mark.parametrize("difficulty", ["basic", "advanced", "elimination", "search"])
def test_the_grade_checks_are_trims_verdicts(difficulty):
    """is_trimmed is trim's verdict, is_advanced its pairwise rules alone, and quiet's grade (of
    the cells the single-clue rules leave, as hybrid runs it) is the one trim's trace shows."""
    for seed in range(3):
        puzzle = generate_puzzle(7, 16, 50, np.random.default_rng(seed), difficulty=difficulty)
        problem = make_problem(puzzle.clues, puzzle.known)
        result = trim.solve(problem)
        assert is_trimmed(problem) == (result.verdict is Verdict.UNIQUE) == (difficulty != "search")
        assert is_advanced(problem) == (difficulty in ("basic", "advanced"))
        trimmer = QuietTrimmer.of(problem)
        trimmer.load()
        trimmer.run()
        assert trimmer.grade == ("advanced" if difficulty == "basic" else difficulty) == (
            "advanced" if result.grade == "basic" else result.grade)


def test_a_contradiction_is_reported_without_naming_clues():
    problem = make_problem(np.array([[3, 0, 0]]), np.ones((1, 3), dtype=bool))
    with pytest.raises(Contradiction, match="contradict"):
        QuietTrimmer.of(problem).load()
    assert not QuietTrimmer.of(problem).fixes_all()
