"""The SAT engine: its clauses mean the counts, it agrees with exhaustive search, and the
incremental uniqueness check used by generation answers as a from-scratch count does."""

from __future__ import annotations

import io
from itertools import product

import numpy as np
import pytest

from recon import Verdict, make_problem, status
from recon import solver as solving
from recon.cli import main
from recon.engines import backtrack, sat
from recon.generate import random_field

from conftest import brute_force, keys

needs_sat = pytest.mark.skipif(not sat.AVAILABLE, reason="python-sat is not installed")
SHAPES = [(1, 1), (1, 2), (1, 7), (7, 1), (2, 2), (2, 6), (6, 2), (3, 3), (3, 5)]


@pytest.mark.parametrize("shape", [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 2), (3, 3)])
def test_clauses_of_a_clue_hold_exactly_when_its_window_has_the_count(shape):
    """Every window size that occurs (1, 2, 3, 4, 6, 9 cells), every count, every assignment."""
    rows, cols = shape
    n = rows * cols
    for c in range(n):
        r0, c0 = divmod(c, cols)
        window = [r * cols + q for r in range(max(r0 - 1, 0), min(r0 + 2, rows)) for q in range(max(c0 - 1, 0), min(c0 + 2, cols))]
        for k in range(len(window) + 1):
            clauses = sat.clue_clauses(shape, np.array([c]), np.array([k]))
            assert all(abs(lit) - 1 in window for clause in clauses for lit in clause)
            for bits in product((False, True), repeat=n):
                holds = all(any((lit > 0) == bits[abs(lit) - 1] for lit in clause) for clause in clauses)
                assert holds == (sum(bits[x] for x in window) == k), (shape, c, k, bits)


@needs_sat
@pytest.mark.parametrize("shape", SHAPES)
def test_sat_lists_exactly_the_solutions_brute_force_finds(shape):
    rng = np.random.default_rng(sum(shape) * 7 + shape[0])
    for _ in range(12):
        field = rng.random(shape) < rng.uniform(0.2, 0.7)
        known = rng.random(shape) < rng.uniform(0.2, 1.0)
        clues = status(field)
        expected = brute_force(clues, known)
        result = sat.solve(make_problem(clues, known), limit=len(expected) + 1)
        assert result.count_exact and keys(result.solutions) == expected
        assert result.verdict is Verdict.of_search(len(expected), True)


@needs_sat
def test_sat_says_none_for_impossible_and_contradictory_clues():
    clues = np.array([[5, 0, 0]])  # a corner window of 2 cells cannot hold 5 mines
    result = sat.solve(make_problem(clues))
    assert result.verdict is Verdict.NONE and "holds only 2 cells" in result.reason
    contradictory = np.array([[2, 0]])  # both cells mines, then the second clue sees 2, not 0
    result = sat.solve(make_problem(contradictory))
    assert result.verdict is Verdict.NONE and result.count_exact


@needs_sat
@pytest.mark.parametrize("shape", [(2, 8), (8, 2), (5, 5)])
def test_sat_given_solutions_are_listed_first_and_the_rest_found(shape):
    field = random_field(*shape, 50, np.random.default_rng(11))
    known = np.random.default_rng(12).random(shape) < 0.5
    problem = make_problem(status(field), known)
    complete = backtrack.solve(problem, limit=10_000)
    assert complete.count_exact
    result = sat.solve(problem, limit=10_000, given=[field])
    assert np.array_equal(result.solutions[0], field)
    assert keys(result.solutions) == keys(complete.solutions)
    assert result.count_exact and result.stats["given"] == 1


@needs_sat
def test_sat_out_of_time_is_undecided_never_a_guess():
    field = random_field(9, 9, 50, np.random.default_rng(3))
    result = sat.solve(make_problem(status(field)), time_limit=1e-9)
    assert result.verdict is Verdict.UNDECIDED and not result.count_exact
    assert "time limit" in result.reason


@needs_sat
def test_sat_interrupted_mid_search_is_undecided_or_right():
    """A real interrupt (the solver is stopped by a timer while it works): undecided with the
    reason, or, on a machine fast enough to finish, the verdict of the unlimited run."""
    field = random_field(90, 70, 50, np.random.default_rng(1))
    known = np.random.default_rng(2).random(field.shape) < 0.35
    problem = make_problem(status(field), known)
    limited = sat.solve(problem, limit=3, time_limit=0.01)
    if limited.verdict is Verdict.UNDECIDED:
        assert "time limit" in limited.reason and not limited.count_exact
    else:
        assert limited.verdict is sat.solve(problem, limit=3).verdict


def test_without_python_sat_the_engine_says_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setattr(sat, "AVAILABLE", False)
    problem = make_problem(np.array([[1, 1]]))
    with pytest.raises(sat.Unavailable, match=r"pip install 'recon\[sat\]'"):
        sat.solve(problem)
    assert "sat" not in solving.plan(problem, "all")
    path = tmp_path / "s.txt"
    path.write_text("11\n")
    out, err = io.StringIO(), io.StringIO()
    assert main(["solve", str(path), "--engine", "sat"], stdout=out, stderr=err) == 2
    assert "python-sat" in err.getvalue() and "Traceback" not in err.getvalue()


@needs_sat
@pytest.mark.parametrize("shape", [(1, 9), (9, 1), (2, 7), (4, 5)])
def test_second_solution_answers_as_counting_from_scratch(shape):
    """Along a removal path, "another solution without c?" equals a complete count of the clues
    kept so far minus c, whichever way each answer goes."""
    rng = np.random.default_rng(shape[0] * 10 + shape[1])
    answers, used = set(), 0
    for _ in range(300):  # 2 x k: few fields have a unique full status (T_2 is singular)
        if used == 3:
            break
        field = rng.random(shape) < rng.uniform(0.1, 0.6)
        clues = status(field)
        if backtrack.solve(make_problem(clues), limit=2).verdict is not Verdict.UNIQUE:
            continue
        used += 1
        known = np.ones(field.size, dtype=bool)
        with sat.SecondSolution(field) as oracle:
            for c in rng.permutation(field.size):
                c = int(c)
                fewer = known.copy()
                fewer[c] = False
                expected = backtrack.solve(make_problem(clues, fewer.reshape(shape)), limit=2).verdict is Verdict.MULTIPLE
                answer = oracle.another_without(c)
                assert answer == expected, (shape, c)
                oracle.decide(c, answer)
                known[c] = answer
                answers.add(answer)
    assert used == 3 and answers == {True, False}  # both kinds of answer were checked
