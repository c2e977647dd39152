"""solve(): planning, verification of every engine answer, and the cross-check between engines."""

from __future__ import annotations

import numpy as np
import pytest

from recon import EngineDisagreement, EngineError, Result, Verdict, is_solution, make_problem, random_field, solve, status
from recon.engines import ENGINES, available
import recon.solver as solving
from conftest import keys


def test_plan_auto_full_checks_algebra_with_backtracking_and_small_ones_with_trimming():
    assert solving.plan(make_problem(np.zeros((4, 5), np.uint8)), "auto") == ["algebra", "backtrack", "trim"]
    assert solving.plan(make_problem(np.zeros((11, 10), np.uint8)), "auto") == ["algebra", "backtrack"]
    assert solving.plan(make_problem(np.zeros((101, 100), np.uint8)), "auto") == ["algebra"]


def _decider(monkeypatch, use_sat):
    """Say which engine decides after an undecided lead, and make it so."""
    from recon.engines import sat

    if use_sat and not sat.AVAILABLE:
        pytest.skip("python-sat is not installed")
    monkeypatch.setattr(sat, "AVAILABLE", use_sat)
    return "sat" if use_sat else "milp"


@pytest.mark.parametrize("use_sat", [True, False])
def test_plan_auto_partial_runs_hybrid_first_and_sat_or_milp_checks_it(monkeypatch, use_sat):
    decider = _decider(monkeypatch, use_sat)
    problem = make_problem(np.zeros((4, 5), np.uint8), np.eye(4, 5, dtype=bool))
    assert solving.plan(problem, "auto") == ["hybrid", decider]


def test_plan_auto_large_runs_one_engine(monkeypatch):
    monkeypatch.setattr(solving, "CROSSCHECK_CELLS", 10)
    problem = make_problem(np.zeros((4, 5), np.uint8))
    assert solving.plan(problem, "auto") == ["algebra"]
    assert solving.plan(problem, "all") == [name for name in ENGINES if available(name)]
    partial = make_problem(np.zeros((4, 5), np.uint8), np.eye(4, 5, dtype=bool))
    assert solving.plan(partial, "auto") == ["hybrid"]
    assert "algebra" not in solving.plan(partial, "all")


def test_algebra_on_partial_status_is_refused():
    with pytest.raises(ValueError, match="algebra needs a full status"):
        solve(np.zeros((2, 3), np.uint8), np.eye(2, 3, dtype=bool), engine="algebra")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"engine": "magic"}, "engine must be one of"),
        ({"max_solutions": 0}, "max_solutions must be"),
        ({"max_solutions": 1.5}, "max_solutions must be"),
        ({"time_limit": 0}, "time_limit must be"),
        ({"time_limit": -1.0}, "time_limit must be"),
    ],
)
def test_bad_arguments_raise_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        solve(np.zeros((2, 3), np.uint8), **kwargs)


def test_result_of_auto_names_both_engines(seed_examples):
    clues, solutions = seed_examples["seed-5x5"]
    result = solve(clues)
    assert result.verdict is Verdict.MULTIPLE
    assert result.count_exact and result.solution_count == 2
    assert set(result.engines) == {"algebra", "backtrack", "trim"}
    assert result.engines["backtrack"].verdict is Verdict.MULTIPLE
    assert result.engines["algebra"].verdict is Verdict.MULTIPLE
    assert result.engines["trim"].verdict is Verdict.UNDECIDED and result.grade == "search"


def test_max_solutions_truncates_but_keeps_the_count():
    known = np.zeros((2, 2), bool)
    result = solve(np.zeros((2, 2), np.uint8), known, max_solutions=3)
    assert len(result.solutions) == 3
    assert result.solution_count >= 4 and not result.count_exact
    assert result.verdict is Verdict.MULTIPLE


def _liar(verdict, solutions, exact):
    def engine(problem, *, limit, time_limit, **_):
        return Result(verdict, [np.array(s, dtype=bool) for s in solutions], exact, "milp")

    return engine


def test_exact_counts_that_differ_are_caught(monkeypatch, seed_examples):
    clues, solutions = seed_examples["seed-5x5"]

    def inflated(problem, *, limit, time_limit):
        return Result(Verdict.MULTIPLE, list(solutions), True, "algebra", solution_count=7)

    monkeypatch.setitem(ENGINES, "algebra", inflated)
    with pytest.raises(EngineDisagreement, match="exact solution counts differ"):
        solve(clues, engine="all")


def test_an_engine_that_misses_a_solution_is_caught(monkeypatch, seed_examples):
    clues, solutions = seed_examples["seed-5x5"]
    monkeypatch.setitem(ENGINES, "milp", _liar(Verdict.UNIQUE, solutions[:1], True))
    with pytest.raises(EngineDisagreement, match="engines disagree") as info:
        solve(clues, engine="all")
    assert set(info.value.results) == {name for name in ("algebra", "backtrack", "hybrid", "milp", "sat", "trim") if available(name)}


def test_an_engine_that_claims_none_is_caught(monkeypatch, seed_examples):
    clues, _ = seed_examples["seed-3x3"]
    monkeypatch.setitem(ENGINES, "milp", _liar(Verdict.NONE, [], True))
    with pytest.raises(EngineDisagreement, match="no solution"):
        solve(clues, engine="all")


def test_an_engine_that_returns_a_wrong_field_is_caught(monkeypatch, seed_examples):
    clues, solutions = seed_examples["seed-3x3"]
    monkeypatch.setitem(ENGINES, "milp", _liar(Verdict.UNIQUE, [~solutions[0]], True))
    with pytest.raises(EngineError, match="breaks clue"):
        solve(clues, engine="milp")


def test_an_engine_that_repeats_a_solution_is_caught(monkeypatch, seed_examples):
    clues, solutions = seed_examples["seed-3x3"]
    monkeypatch.setitem(ENGINES, "milp", _liar(Verdict.MULTIPLE, [solutions[0], solutions[0]], False))
    with pytest.raises(EngineError, match="same solution twice"):
        solve(clues, engine="milp")


def test_undecided_engine_does_not_hide_a_decided_one(monkeypatch, seed_examples):
    clues, solutions = seed_examples["seed-7x7"]
    monkeypatch.setitem(ENGINES, "milp", _liar(Verdict.UNDECIDED, [], False))
    result = solve(clues, engine="all")
    assert result.verdict is Verdict.UNIQUE
    assert result.engines["milp"].verdict is Verdict.UNDECIDED


def test_solve_accepts_a_problem_and_a_non_square_field():
    field = random_field(2, 9, 40, 5)
    problem = make_problem(status(field))
    result = solve(problem, max_solutions=10_000)
    assert result.count_exact
    assert any(np.array_equal(s, field) for s in result.solutions)


def test_milp_confirms_a_many_solution_puzzle_with_one_solve(monkeypatch):
    """When the lead finds more solutions than are shown, MILP gets the first and must find a
    second on its own: one solve, and the combined answer is still not unique nor exact."""
    _decider(monkeypatch, False)
    field = random_field(2, 9, 50, np.random.default_rng(5))
    known = np.zeros((2, 9), dtype=bool)
    known[0, ::2] = True  # few clues, every cell seen by one: many solutions
    result = solve(status(field), known, max_solutions=2)
    assert result.verdict is Verdict.MULTIPLE and not result.count_exact
    check = result.engines["milp"]
    assert check.stats["given"] == 1 and check.stats["solves"] == 1 and len(check.solutions) == 2
    assert not np.array_equal(check.solutions[0], check.solutions[1]) and "free" not in check.stats
    # with cells no clue sees, the first field with one of them changed is the second: no solve
    known[:] = False
    known[:, ::3] = True
    result = solve(status(field), known, max_solutions=2)
    check = result.engines["milp"]
    assert result.verdict is check.verdict is Verdict.MULTIPLE and check.stats["solves"] == 0
    assert check.stats["free"] == 2 and np.array_equal(check.solutions[0], result.engines["hybrid"].solutions[0])


def test_with_sat_hybrid_leaves_a_stalled_puzzle_to_sat_at_once(monkeypatch):
    """With python-sat, hybrid does not search when trimming stalls: SAT lists the solutions,
    and every cell trimming fixed is checked against them."""
    _decider(monkeypatch, True)
    field = random_field(2, 9, 50, np.random.default_rng(5))
    known = np.zeros((2, 9), dtype=bool)
    known[:, ::4] = True  # few clues: many solutions
    result = solve(status(field), known, max_solutions=2)
    assert list(result.engines) == ["hybrid", "sat"]
    lead, check = result.engines["hybrid"], result.engines["sat"]
    assert lead.verdict is Verdict.UNDECIDED and lead.stats["nodes"] == 0 and lead.grade == "search"
    assert result.verdict is Verdict.MULTIPLE and not result.count_exact
    assert check.stats["given"] == 0 and len(keys(check.solutions)) == 3


def test_a_lead_that_invents_several_solutions_is_caught_by_milp(monkeypatch):
    """The lead says 'many' on a unique puzzle (with one true and two bogus fields it would fail
    verification, so: the true field only, and a wrong claim of more): MILP finds no second one."""
    field = random_field(3, 7, 40, np.random.default_rng(2))
    problem = make_problem(status(field))
    truth = ENGINES["backtrack"](problem, limit=2)
    assert truth.verdict is Verdict.UNIQUE

    def liar(problem, *, limit, time_limit, **_):
        return Result(Verdict.MULTIPLE, [field], False, "hybrid", solution_count=5)

    monkeypatch.setitem(ENGINES, "hybrid", liar)
    monkeypatch.setattr(solving, "plan", lambda problem, engine: ["hybrid", "milp"])
    with pytest.raises(EngineDisagreement):
        solve(status(field))


def _undecided_lead(found):
    """A lead whose search ran out of time, having found `found` (verified) solutions."""

    def engine(problem, *, limit, time_limit, search_seconds=None, **_):
        assert search_seconds is not None and search_seconds < 1  # auto bounds the lead's search
        return Result(Verdict.UNDECIDED, list(found), False, "hybrid")

    return engine


@pytest.mark.parametrize("use_sat", [True, False])
@pytest.mark.parametrize("shape", [(2, 9), (9, 2), (5, 6)])
def test_a_complete_engine_decides_when_the_leads_search_runs_out(monkeypatch, shape, use_sat):
    decider = _decider(monkeypatch, use_sat)
    field = random_field(*shape, 50, np.random.default_rng(sum(shape)))
    known = np.random.default_rng(1).random(shape) < 0.7
    expected = ENGINES["backtrack"](make_problem(status(field), known), limit=3)
    monkeypatch.setitem(ENGINES, "hybrid", _undecided_lead([field]))
    result = solve(status(field), known)
    assert result.verdict is expected.verdict and result.verdict is not Verdict.UNDECIDED
    assert list(result.engines) == ["hybrid", decider]
    assert result.engines["hybrid"].verdict is Verdict.UNDECIDED
    problem = make_problem(status(field), known)
    assert result.solutions and all(is_solution(f, problem) for f in result.solutions)
    if expected.verdict is Verdict.UNIQUE:
        assert np.array_equal(result.solutions[0], expected.solutions[0])


@pytest.mark.parametrize("use_sat", [True, False])
def test_large_puzzle_runs_a_second_engine_only_when_hybrid_is_undecided(monkeypatch, use_sat):
    decider = _decider(monkeypatch, use_sat)
    monkeypatch.setattr(solving, "CROSSCHECK_CELLS", 10)
    field = random_field(4, 7, 40, np.random.default_rng(3))
    known = np.ones((4, 7), dtype=bool)
    known[0, :2] = False
    assert ENGINES["trim"](make_problem(status(field), known)).verdict is Verdict.UNIQUE  # hybrid decides
    decided = solve(status(field), known)
    assert set(decided.engines) == {"hybrid"} and decided.verdict is not Verdict.UNDECIDED
    monkeypatch.setitem(ENGINES, "hybrid", _undecided_lead([]))
    fallback = solve(status(field), known)
    assert set(fallback.engines) == {"hybrid", decider} and fallback.verdict is decided.verdict


@pytest.mark.parametrize("shape", [(2, 40), (40, 2), (12, 12)])
def test_hybrid_does_not_search_a_large_open_region_under_auto(monkeypatch, shape):
    """With more open cells than LEAD_SEARCH_CELLS left by trimming, hybrid stops at once with
    its grade; the decider's verdict equals backtracking's, and trimming's cells are checked."""
    from recon.engines import hybrid

    field = random_field(*shape, 50, np.random.default_rng(5))
    known = np.random.default_rng(6).random(shape) < 0.3
    problem = make_problem(status(field), known)
    open_cells = problem.cells - sum(v != -1 for v in hybrid.deduce(problem)[0].value)
    assert open_cells > 0
    stopped = hybrid.solve(problem, limit=3, search_cells=open_cells - 1)
    assert stopped.verdict is Verdict.UNDECIDED and stopped.grade == "search"
    assert f"{open_cells} of {problem.cells} cells open" in stopped.reason
    monkeypatch.setattr(solving, "LEAD_SEARCH_CELLS", open_cells - 1)
    result = solve(status(field), known)
    expected = ENGINES["backtrack"](problem, limit=3)
    assert result.verdict is expected.verdict
    assert result.engines["hybrid"].verdict is Verdict.UNDECIDED and len(result.engines) == 2


def test_hybrid_search_budget_gives_undecided_not_a_guess():
    """A search-grade puzzle whose search is cut off says undecided; it never claims unique."""
    from recon.engines import hybrid

    field = random_field(12, 12, 50, np.random.default_rng(7))
    known = np.random.default_rng(8).random((12, 12)) < 0.35
    problem = make_problem(status(field), known)
    result = hybrid.solve(problem, limit=2, search_seconds=0.0)
    full = ENGINES["milp"](problem, limit=2)
    if result.verdict is Verdict.UNDECIDED:
        assert "time limit" in result.reason and not result.count_exact
    else:  # the deductions alone decided it
        assert result.verdict is full.verdict


@pytest.mark.skipif(not available("sat"), reason="python-sat is not installed")
@pytest.mark.parametrize("shape", [(2, 5001), (5001, 2)])
def test_past_the_cross_check_sat_decides_under_hybrids_deductions(shape):
    """Past 10,000 cells hybrid stops where trimming stalls and SAT, asked for one field (cells no
    clue sees make it several), looks under hybrid's deductions first. The cells they fix have
    probability 0 or 1 in the exact count (an independent oracle) with the value hybrid gives,
    SAT's fields meet them, and the verdict is the count's."""
    from recon.counting import count_solutions

    rng = np.random.default_rng(5)
    field = rng.random(shape) < 0.4
    problem = make_problem(status(field), rng.random(shape) > 0.6)
    result = solve(problem)
    lead = result.engines["hybrid"]
    assert lead.verdict is Verdict.UNDECIDED and lead.decided.any() and not lead.decided.all()
    counted = count_solutions(problem, probabilities=True)
    assert counted.exact and counted.count >= 2 and result.verdict is Verdict.MULTIPLE
    odds = np.asarray(counted.probabilities, dtype=float)[lead.decided]
    assert np.array_equal(odds, lead.partial[lead.decided].astype(float))
    for found in result.solutions:
        assert is_solution(found, problem)
        assert np.array_equal(found[lead.decided], lead.partial[lead.decided])
