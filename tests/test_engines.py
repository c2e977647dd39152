"""The complete engines: every solution found, none missed, verdicts proved, counts exact."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ODD_SHAPES, brute_force, keys
from recon import Grade, Verdict, is_solution, make_problem, random_field, solve, status
from recon.engines import COMPLETE, ENGINES, available, backtrack

# (an engine whose optional dependency is not installed is skipped, as "all" leaves it out)
ENGINE_NAMES = [pytest.param(name, marks=pytest.mark.skipif(not available(name), reason=f"{name} is not installed"))
                for name in sorted(COMPLETE)]


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_seed_examples(seed_examples, engine):
    for name, (clues, solutions) in seed_examples.items():
        result = ENGINES[engine](make_problem(clues), limit=10)
        assert result.count_exact, name
        assert keys(result.solutions) == keys(solutions), name
        expected = Verdict.UNIQUE if len(solutions) == 1 else Verdict.MULTIPLE
        assert result.verdict is expected, name


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINE_NAMES)
@pytest.mark.parametrize("shape", [(1, 4), (4, 1), (2, 3), (3, 2), (2, 5), (3, 3), (1, 8), (3, 4)])
def test_every_status_of_a_small_shape_against_brute_force(engine, shape):
    """Group all 2**cells fields by status; each engine must return exactly each group."""
    rows, cols = shape
    rng = np.random.default_rng(rows * 100 + cols)
    groups: dict[bytes, list[np.ndarray]] = {}
    for bits in range(2 ** (rows * cols)):
        field = np.array([(bits >> i) & 1 for i in range(rows * cols)], dtype=bool).reshape(shape)
        groups.setdefault(status(field).tobytes(), []).append(field)
    statuses = list(groups)
    picked = [statuses[i] for i in rng.choice(len(statuses), size=min(40, len(statuses)), replace=False)]
    picked += [s for s in statuses if len(groups[s]) > 1][:20]
    for key in picked:
        clues = np.frombuffer(key, dtype=np.uint8).reshape(shape)
        result = ENGINES[engine](make_problem(clues), limit=100)
        assert result.count_exact
        assert keys(result.solutions) == keys(groups[key])


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_partial_status_against_brute_force(engine):
    rng = np.random.default_rng(7)
    for trial in range(60):
        shape = (int(rng.integers(1, 4)), int(rng.integers(1, 5)))
        field = rng.random(shape) < 0.4
        known = rng.random(shape) < 0.6
        clues = status(field)
        expected = brute_force(clues, known)
        result = ENGINES[engine](make_problem(clues, known), limit=5000)
        assert result.count_exact
        assert keys(result.solutions) == expected, (trial, shape)


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_inconsistent_status_has_no_solution(engine):
    clues = np.array([[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 0]], dtype=np.uint8)
    assert not brute_force(clues)
    result = ENGINES[engine](make_problem(clues), limit=2)
    assert result.verdict is Verdict.NONE and result.count_exact and not result.solutions
    assert result.reason


def test_backtrack_names_the_clue_that_cannot_be_met():
    clues = np.array([[0, 0, 3], [0, 0, 0]], dtype=np.uint8)
    result = backtrack.solve(make_problem(clues))
    assert result.verdict is Verdict.NONE
    assert "clue r1c3 = 3" in result.reason


def test_milp_names_an_impossible_clue():
    result = ENGINES["milp"](make_problem(np.array([[5, 0], [0, 0]])), limit=2)
    assert result.verdict is Verdict.NONE and "r1c1 = 5" in result.reason


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_limit_stops_enumeration_and_count_is_not_exact(engine):
    clues = np.zeros((2, 2), dtype=np.uint8)
    known = np.zeros((2, 2), dtype=bool)  # no clue at all: 16 solutions
    few = ENGINES[engine](make_problem(clues, known), limit=3)
    assert few.verdict is Verdict.MULTIPLE and few.solution_count == 3 and not few.count_exact
    every = ENGINES[engine](make_problem(clues, known), limit=100)
    assert every.count_exact and every.solution_count == 16


def test_backtrack_time_limit_gives_undecided(monkeypatch):
    monkeypatch.setattr(backtrack, "_CHECK_CLOCK_EVERY", 1)
    clues, known = np.zeros((4, 4), np.uint8), np.zeros((4, 4), bool)
    result = backtrack.solve(make_problem(clues, known), limit=2, time_limit=1e-9)
    assert result.verdict is Verdict.UNDECIDED and not result.count_exact
    assert "time limit" in result.reason


def test_milp_time_limit_gives_undecided():
    field = random_field(30, 30, 50, np.random.default_rng(3))
    result = ENGINES["milp"](make_problem(status(field)), limit=2, time_limit=1e-9)
    assert result.verdict is Verdict.UNDECIDED and "time limit" in result.reason


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINE_NAMES)
@pytest.mark.parametrize("shape", ODD_SHAPES)
def test_thin_shapes_find_the_planted_field_and_transpose(engine, shape):
    rng = np.random.default_rng(sum(shape))
    for _ in range(5):
        field = rng.random(shape) < 0.4
        result = ENGINES[engine](make_problem(status(field)), limit=20_000)
        assert result.count_exact and field.tobytes() in keys(result.solutions)
        flipped = ENGINES[engine](make_problem(status(field.T)), limit=20_000)
        assert keys(flipped.solutions) == keys(s.T for s in result.solutions)


planted = st.tuples(st.integers(1, 7), st.integers(1, 7), st.integers(0, 100), st.integers(0, 2**32 - 1))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(planted)
def test_planted_full_status_is_reconstructed_and_engines_agree(spec):
    rows, cols, p, seed = spec
    field = random_field(rows, cols, p, np.random.default_rng(seed))
    result = solve(status(field), engine="all", max_solutions=64)
    assert result.verdict in (Verdict.UNIQUE, Verdict.MULTIPLE)
    if result.count_exact:
        assert field.tobytes() in keys(result.solutions)
    if rows % 3 != 2 and cols % 3 != 2:
        assert result.verdict is Verdict.UNIQUE  # T_rows and T_cols are invertible
        assert np.array_equal(result.solutions[0], field)
    runs = result.engines
    assert set(runs) == {name for name in ENGINES if available(name)}
    assert runs["trim"].verdict in (result.verdict, Verdict.UNDECIDED)
    exact = [r for name, r in runs.items() if r.count_exact and name in COMPLETE]
    for r in exact:
        assert keys(r.solutions) == keys(exact[0].solutions)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(planted, st.integers(10, 100))
def test_planted_partial_status_engines_agree(spec, clue_percent):
    rows, cols, p, seed = spec
    rng = np.random.default_rng(seed)
    field = random_field(min(rows, 4), min(cols, 4), p, rng)
    known = rng.random(field.shape) < clue_percent / 100
    result = solve(status(field), known, engine="all", max_solutions=20)
    assert result.verdict in (Verdict.UNIQUE, Verdict.MULTIPLE)
    if result.count_exact:
        assert field.tobytes() in keys(result.solutions)
        assert keys(result.solutions) == brute_force(status(field), known)


def test_full_status_of_every_size_class_is_unique_when_no_side_is_2_mod_3():
    rng = np.random.default_rng(11)
    for rows, cols in [(3, 4), (4, 6), (6, 7), (9, 10)]:
        field = rng.random((rows, cols)) < 0.5
        result = solve(status(field), engine="all")
        assert result.verdict is Verdict.UNIQUE and np.array_equal(result.field, field)


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_published_fill_a_pix_puzzles(engine):
    from conftest import load_fillapix

    puzzles = load_fillapix()
    assert len(puzzles) == 11
    for name, (clues, known, solutions, count) in puzzles.items():
        result = ENGINES[engine](make_problem(clues, known), limit=3, time_limit=60)
        problem = make_problem(clues, known)
        assert all(is_solution(s, problem) for s in solutions), name  # the published answer
        if count == 1:  # proved unique by the data's authors: we must prove it too
            assert result.verdict is Verdict.UNIQUE and result.count_exact, name
            assert keys(result.solutions) == keys(solutions), name
        else:  # the data counted "up to 2": several solutions
            assert result.verdict is Verdict.MULTIPLE, name
    assert puzzles["e1"][3] == puzzles["e7"][3] == 2


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(6, 7), (7, 6), (3, 12), (12, 3)])
def test_backjumping_search_matches_milp_enumeration_on_partial_status(shape):
    rng = np.random.default_rng(shape[0] * 31 + shape[1])
    for _ in range(6):
        field = rng.random(shape) < rng.uniform(0.2, 0.7)
        known = rng.random(shape) < rng.uniform(0.5, 0.9)
        problem = make_problem(status(field), known)
        a = ENGINES["backtrack"](problem, limit=60)
        b = ENGINES["milp"](problem, limit=60)
        assert a.count_exact == b.count_exact
        if a.count_exact:
            assert keys(a.solutions) == keys(b.solutions)
            assert field.tobytes() in keys(a.solutions)


@pytest.mark.slow
@pytest.mark.parametrize("difficulty", ["basic", "advanced", "elimination", "search"])
@pytest.mark.parametrize("shape", [(5, 9), (9, 5), (3, 14)])
def test_hybrid_grades_puzzles_like_explain_and_agrees_with_milp(difficulty, shape):
    from recon.engines import hybrid, milp, trim
    from recon.generation import GenerationFailed, generate_puzzle

    density = 25 if difficulty == "basic" else 45  # dense fields rarely give basic puzzles
    try:
        puzzle = generate_puzzle(*shape, density, np.random.default_rng(sum(shape)), difficulty=difficulty)
    except GenerationFailed:
        pytest.skip(f"no {difficulty} puzzle of this shape from these seeds")
    problem = make_problem(puzzle.clues, puzzle.known)
    result = hybrid.solve(problem, limit=3)
    assert result.verdict is Verdict.UNIQUE and np.array_equal(result.solutions[0], puzzle.field)
    assert result.grade == trim.solve(problem).grade == difficulty
    assert (result.stats["trimmed"] > 0) == (difficulty in ("advanced", "elimination")) or difficulty == "search"
    # an ambiguous variant: drop clues until there are several solutions; counts must agree
    known = puzzle.known.copy()
    for r, c in np.argwhere(known)[:2]:
        known[r, c] = False
    fewer = make_problem(puzzle.clues, known)
    a, b = hybrid.solve(fewer, limit=64), milp.solve(fewer, limit=64)
    assert a.verdict is b.verdict and a.count_exact == b.count_exact
    if a.count_exact:
        assert {s.tobytes() for s in a.solutions} == {s.tobytes() for s in b.solutions}


@pytest.mark.parametrize("shape", [(1, 9), (9, 1), (2, 7), (6, 8), (8, 6)])
def test_hybrid_with_compiled_trimming_reports_what_the_python_trimmer_does(monkeypatch, shape):
    """With compiled_trim, hybrid trims with the compiled kernels: the same verdict, grade,
    solutions, cells fixed by trimming and reasons, on random clues (many contradictory ones:
    those go to the Python trimmer, which names the clash) and on fields' partial statuses."""
    pytest.importorskip("numba")
    from recon.engines import hybrid

    rng = np.random.default_rng(sum(shape) * 3)
    grades = set()
    for i in range(120):
        if i % 2:
            clues = rng.integers(0, 5, size=shape)
        else:
            clues = status(rng.random(shape) < 0.5)
        problem = make_problem(clues, rng.random(shape) < rng.uniform(0.4, 0.9))
        python = hybrid.solve(problem, limit=4)
        compiled = hybrid.solve(problem, limit=4, compiled_trim=True)
        assert (compiled.verdict, compiled.grade, compiled.count_exact, compiled.reason) == (
            python.verdict, python.grade, python.count_exact, python.reason), (shape, i)
        assert keys(compiled.solutions) == keys(python.solutions)
        assert compiled.stats.get("trimmed") == python.stats.get("trimmed")
        grades.add((python.verdict, python.grade))
    assert len(grades) >= 3


@pytest.mark.parametrize("shape", [(1, 9), (9, 1), (2, 7), (6, 8)])
def test_the_search_state_lists_each_cells_clues_in_order(shape):
    """backtrack's state lists, for each cell, the clues whose windows hold it, in clue order,
    and then the total where there is one (a cell no clue sees: the total alone)."""
    rng = np.random.default_rng(sum(shape) + 9)
    rows, cols = shape
    for i in range(12):
        field = rng.random(shape) < 0.4
        known = rng.random(shape) < rng.uniform(0.1, 1.0)
        problem = make_problem(status(field), known, mines=int(field.sum()) if i % 2 else None)
        search = backtrack._Search(problem)
        clues = np.flatnonzero(known.ravel()).tolist()
        for cell in range(field.size):
            r, c = divmod(cell, cols)
            expected = [k for k, x in enumerate(clues) if abs(x // cols - r) <= 1 and abs(x % cols - c) <= 1]
            assert search.cell_clues[cell] == expected + ([len(clues)] if i % 2 else []), (shape, i, cell)


@pytest.mark.parametrize("shape", [(1, 9), (9, 1), (2, 7), (4, 4), (6, 8), (8, 6)])
def test_hybrid_that_will_not_search_reports_the_compiled_cells_as_the_python_path_does(shape):
    """Where no search follows (more cells open than search_cells), hybrid takes the compiled
    trimmer's cells without building its search state: the same verdict, grade, reason and
    cells fixed (with their values) as the Python path, each fixed cell holding its value in
    every solution (brute force, to 16 cells); on a contradiction the Python trimmer still
    names the clash."""
    pytest.importorskip("numba")
    from recon.engines import hybrid

    rng = np.random.default_rng(sum(shape) * 5)
    skipped = 0
    for i in range(160):
        clues = rng.integers(0, 5, size=shape) if i % 3 == 0 else status(rng.random(shape) < rng.uniform(0.2, 0.6))
        known = rng.random(shape) < rng.uniform(0.3, 0.8)
        problem = make_problem(clues, known)
        search_cells = int(rng.integers(0, 4))
        python = hybrid.solve(problem, limit=3, search_cells=search_cells)
        compiled = hybrid.solve(problem, limit=3, search_cells=search_cells, compiled_trim=True)
        assert (compiled.verdict, compiled.grade, compiled.reason) == (python.verdict, python.grade, python.reason), (shape, i)
        assert keys(compiled.solutions) == keys(python.solutions)
        assert compiled.stats["deduced"] == python.stats["deduced"]
        if python.verdict is Verdict.UNDECIDED:
            assert np.array_equal(compiled.decided, python.decided)
            assert np.array_equal(compiled.partial[compiled.decided], python.partial[python.decided])
            for solution in brute_force(clues, known) if clues.size <= 16 else ():
                field = np.frombuffer(solution, dtype=bool).reshape(shape)
                assert np.array_equal(field[compiled.decided], compiled.partial[compiled.decided])
        skipped += "trimmed" not in compiled.stats
    assert skipped >= 10  # (the path without a search state ran)


@pytest.mark.parametrize("shape", [(1, 40), (40, 1), (2, 30), (12, 12)])
def test_hybrid_that_will_not_search_on_a_sparse_grid_trims_without_its_state(shape):
    """Where no search follows on a grid of many cells a clue, hybrid trims in Python without
    its search state: the cells it reports fixed are those of its deductions with the state
    (`hybrid.deduce`), each holding the planted field's value; clues that clash go the state's
    way, which names the clash."""
    from recon.engines import hybrid

    rng = np.random.default_rng(sum(shape) + 17)
    alone = clashes = 0
    for i in range(60):
        field = rng.random(shape) < rng.uniform(0.1, 0.6)
        known = rng.random(shape) < rng.uniform(0.02, 0.11)
        clues = rng.integers(0, 7, size=shape) if i % 5 == 0 else status(field)
        problem = make_problem(clues, known)
        result = hybrid.solve(problem, limit=3, search_cells=0)
        search, grade, reason = hybrid.deduce(problem)
        if search is None:
            assert result.verdict is Verdict.NONE and result.reason == reason
            clashes += 1
            continue
        state = np.array(search.value, dtype=np.int8).reshape(shape)
        if result.verdict is not Verdict.UNDECIDED:
            assert (state >= 0).all() and result.verdict is Verdict.UNIQUE
            assert np.array_equal(result.solutions[0], state == 1) and result.grade is grade
            continue
        assert np.array_equal(result.decided, state >= 0) and np.array_equal(result.partial[result.decided], state[state >= 0] == 1)
        assert result.grade is Grade.SEARCH and result.reason.startswith("trimming stalls")
        if i % 5:
            assert np.array_equal(field[result.decided], result.partial[result.decided])
        alone += "trimmed" not in result.stats
    assert alone >= 20 and clashes >= 1


@pytest.mark.parametrize("shape", [(1, 300), (300, 1), (2, 150), (150, 2), (30, 40)])
def test_hybrid_cells_where_no_search_follows_hold_in_every_field_past_brute_force(shape):
    """On grids too large for brute force, each cell hybrid fixes where no search follows, by
    the Python trimmer (without its search state on a sparse grid) and by the compiled one,
    holds the same value in every field: SAT's backbone proves it, cell by cell."""
    pytest.importorskip("pysat")
    pytest.importorskip("numba")
    from recon.engines import hybrid, sat

    rng = np.random.default_rng(sum(shape) + 29)
    checked = alone = 0
    for i in range(24):
        field = rng.random(shape) < rng.uniform(0.05, 0.7)
        known = rng.random(shape) < (rng.uniform(0.03, 0.3) if i % 2 else rng.uniform(0.3, 0.9))
        problem = make_problem(status(field), known)
        for compiled in (False, True):
            result = hybrid.solve(problem, search_cells=0, compiled_trim=compiled)
            if result.verdict is Verdict.UNIQUE:
                assert np.array_equal(result.solutions[0], field)  # (deduced to the last cell: the planted one)
                continue
            assert result.verdict is Verdict.UNDECIDED, (shape, i)
            cells = np.flatnonzero(result.decided.ravel())
            fixed, _, complete = sat.backbone(problem, cells)
            assert complete
            assert {int(x): int(result.partial.flat[x]) for x in cells} == {int(x): fixed.get(int(x)) for x in cells}, (shape, i)
            checked += cells.size
            alone += "trimmed" not in result.stats and not compiled
    assert checked > 0 and alone >= 3


@pytest.mark.parametrize("shape", [(3, 17), (17, 3), (9, 13)])
def test_hybrid_says_when_the_time_limit_cut_its_trimming_short(monkeypatch, shape):
    """A time limit that stops trimming gives "undecided" with that reason and no grade (it used
    to read "trimming stalls" and grade the puzzle "search"); without it, the grade is advanced."""
    from recon.engines import hybrid
    from recon.generation import generate_puzzle

    puzzle = generate_puzzle(*shape, 50, np.random.default_rng(sum(shape)), difficulty="advanced")
    problem = make_problem(puzzle.clues, puzzle.known)
    cut = hybrid.solve(problem, time_limit=1e-9)
    assert cut.verdict is Verdict.UNDECIDED and cut.grade is None and not cut.solutions
    assert cut.reason.startswith("the time limit was reached while trimming") and cut.stats["trim_timed_out"]
    whole = hybrid.solve(problem)
    assert whole.verdict is Verdict.UNIQUE and whole.grade == "advanced" and "trim_timed_out" not in whole.stats


@pytest.mark.parametrize("shape", [(1, 12), (12, 1), (2, 8), (4, 4)])
def test_hybrid_with_fixed_cells_trims_in_python_whatever_it_is_asked(shape):
    """The compiled trimmer takes clues alone, so a problem with fixed cells (a classic board)
    is trimmed in Python even with compiled_trim: the same cells, grade and answer, checked
    against brute force."""
    pytest.importorskip("numba")
    from recon.engines import hybrid

    rng = np.random.default_rng(sum(shape) + 7)
    for _ in range(20):
        field = rng.random(shape) < 0.4
        fixed = np.where(rng.random(shape) < 0.2, field.astype(np.int8), np.int8(-1))
        x = int(rng.integers(field.size))
        fixed.flat[x] = field.flat[x]  # at least one
        problem = make_problem(status(field), rng.random(shape) < 0.6, fixed)
        results = [hybrid.solve(problem, limit=64, compiled_trim=choice) for choice in (True, False)]
        assert results[0].stats.get("trimmer") == results[1].stats.get("trimmer") in (None, "python")
        assert [(r.verdict, r.grade, keys(r.solutions)) for r in results] == [(results[1].verdict, results[1].grade, keys(results[1].solutions))] * 2
        fits = {k for k in brute_force(problem.clues, problem.known)
                if ((np.frombuffer(k, dtype=bool) == fixed.ravel()) | (fixed.ravel() < 0)).all()}
        assert keys(results[0].solutions) == fits if results[0].count_exact else keys(results[0].solutions) < fits


@pytest.mark.parametrize("shape", [(1, 40), (40, 1), (2, 30), (7, 9)])
def test_hybrid_deduces_the_same_with_either_trimmer_and_any_index_limit(shape):
    """deduce with the compiled trimmer, with its index limit at 0, one word or large: the same
    cells fixed and grade as the Python trimmer. Where elimination runs (the pairwise rules leave
    cells open, and elimination fixes some) a limit of 0 leaves the work to the Python trimmer."""
    pytest.importorskip("numba")
    from recon.engines import hybrid

    rng = np.random.default_rng(sum(shape))
    ran = set()
    for _ in range(30):
        problem = make_problem(status(rng.random(shape) < 0.5), rng.random(shape) < rng.uniform(0.3, 0.8))
        python, grade, _ = hybrid.deduce(problem)
        if python is None:
            continue
        for max_index_bytes in (0, 8, 1 << 30):
            stats = {}
            search, other, _ = hybrid.deduce(problem, stats=stats, compiled_trim=True, max_index_bytes=max_index_bytes)
            assert search.value == python.value and other == grade
            if grade is Grade.ELIMINATION and max_index_bytes != 8:  # elimination needed an index
                assert stats["trimmer"] == ("python" if max_index_bytes == 0 else "compiled")
            ran.add(stats.get("trimmer"))
    assert {"python", "compiled"} <= ran


@pytest.mark.parametrize("shape", [(1, 30_000), (30_000, 1), (2, 15_000), (150, 200)])
def test_elimination_index_grows_with_the_groups_not_the_grid(shape):
    """Elimination's index holds a bit per open cell and row of its group: on these grids a
    bitset over every row would pass 2 MB (tens of thousands of open cells and rows), yet the
    compiled trimmer runs within 256 KB, and fixes the Python trimmer's cells with its grade."""
    pytest.importorskip("numba")
    from recon import compiled
    from recon.engines import hybrid

    rng = np.random.default_rng(sum(shape))
    problem = make_problem(status(rng.random(shape) < 0.3), rng.random(shape) < 0.5)
    python, grade, _ = hybrid.deduce(problem)
    open_cells = python.value.count(backtrack._UNDECIDED)
    assert open_cells * (int(problem.known.sum()) // 64) * 8 > 2 << 20  # (a bitset over every row, at the end)
    stats = {}
    search, other, _ = hybrid.deduce(problem, stats=stats, compiled_trim=True, max_index_bytes=256 << 10)
    assert stats["trimmer"] == "compiled" and search.value == python.value and other == grade
    with pytest.raises(compiled.IndexTooLarge):  # (the bound is still checked)
        compiled.trim_grade(problem.clues, problem.known, max_index_bytes=8)


@pytest.mark.parametrize("shape", [(1, 9), (9, 1), (2, 6), (3, 4), (4, 3)])
def test_milp_uniqueness_by_farthest_solution_against_brute_force(shape):
    """MILP decides uniqueness by minimising agreement with the first solution (or a given one):
    unique exactly when brute force finds one solution, and the second it returns is real."""
    from recon.engines import milp

    rng = np.random.default_rng(sum(shape) * 7)
    seen = set()
    for _ in range(40):
        field = rng.random(shape) < 0.5
        known = rng.random(shape) < 0.6
        problem = make_problem(status(field), known)
        truth = brute_force(problem.clues, known)
        seen.add(len(truth) == 1)
        for known_solutions in ([], [field]):
            result = milp.solve(problem, limit=2, given=known_solutions)
            assert result.verdict is (Verdict.UNIQUE if len(truth) == 1 else Verdict.MULTIPLE)
            assert keys(result.solutions) <= truth and len(result.solutions) == min(2, len(truth))
            if result.stats.get("free"):  # cells no clue sees: one field of the rest makes two
                assert result.stats["solves"] <= 1 and result.verdict is Verdict.MULTIPLE
            else:
                assert result.stats["farthest"] == 1
    assert seen == {True, False}  # both verdicts were tested


def _few_clues(rng, shape, clues: tuple[float, float], fixed_share: float):
    """A random field's status with a share of the cells clues (drawn from `clues`) and some
    cells fixed to the field's values: (problem, known, fixed, every solution as keys, by brute force)."""
    from recon.model import OPEN

    field = rng.random(shape) < rng.uniform(0.2, 0.7)
    known = rng.random(shape) < rng.uniform(*clues)
    fixed = np.where(rng.random(shape) < fixed_share, field, OPEN).astype(np.int8)
    expected = {k for k in brute_force(status(field), known)
                if (np.frombuffer(k, dtype=bool).reshape(shape)[fixed != OPEN] == fixed[fixed != OPEN]).all()}
    return make_problem(status(field), known, fixed), known, fixed, expected


@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.skipif(not available(name), reason=f"{name} is not installed"))
                                  for name in ("milp", "sat")])
@pytest.mark.parametrize("shape", [(1, 1), (1, 7), (7, 1), (2, 2), (2, 6), (6, 2), (3, 5), (4, 4)])
def test_cells_no_clue_sees_are_listed_with_every_value_once_each(name, shape):
    """Few clues: MILP and SAT solve the rest and list each field they find with every value of
    the cells no clue sees and nothing fixes (`engines.unseen`). Against brute force, with some
    cells fixed, at every limit, and with some solutions given first in any order."""
    from recon.model import OPEN

    engine = ENGINES[name]
    rng = np.random.default_rng(sum(shape) * 11 + shape[0])
    with_free = 0
    for _ in range(8):
        problem, known, fixed, expected = _few_clues(rng, shape, (0.0, 0.3), 0.15)
        free = int(((status(known) == 0) & (fixed == OPEN)).sum())
        with_free += free > 0
        every = engine(problem, limit=len(expected) + 1)
        assert every.count_exact and every.stats.get("free", 0) == free
        assert len(every.solutions) == len(expected) and keys(every.solutions) == expected
        for limit in range(1, min(len(expected), 9) + 1):
            some = engine(problem, limit=limit)
            assert len(some.solutions) == len(keys(some.solutions)) == limit and keys(some.solutions) <= expected
            assert not some.count_exact or limit == len(expected)  # exact only when all are listed
            assert some.verdict is Verdict.of_search(limit, some.count_exact)
        given = [np.frombuffer(k, dtype=bool).reshape(shape) for k in sorted(expected)]
        rng.shuffle(given)
        given = given[: rng.integers(0, len(given) + 1)]
        told = engine(problem, limit=len(expected) + 1, given=given)
        assert keys(told.solutions) == expected and told.count_exact and len(told.solutions) == len(expected)
        assert all(np.array_equal(a, b) for a, b in zip(told.solutions, given))
    assert with_free >= 2  # such cells were there (on 2x2, only where there is no clue)


@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.skipif(not available(name), reason=f"{name} is not installed"))
                                  for name in ("milp", "sat")])
@pytest.mark.parametrize("shape", [(2, 200), (200, 2), (1, 300), (30, 30)])
def test_no_field_with_many_cells_no_clue_sees_is_none(name, shape):
    """A full window beside a 0, next to it (the clue-pair check sees it) or two along (a search
    must find it), on a grid where 64 or more cells are seen by no clue: the rest has no field,
    so neither has the whole (none, exact), not undecided because 2^free fields could not be
    listed. Each clue alone has fields."""
    engine = ENGINES[name]
    full = min(3, shape[0]) * min(3, shape[1])
    for apart in (1, 2):
        clues, known = np.zeros(shape, dtype=int), np.zeros(shape, dtype=bool)
        a = (shape[0] // 2, shape[1] // 2)
        b = (a[0], a[1] + apart) if shape[1] > 2 else (a[0] + apart, a[1])
        clues[a], known[a], known[b] = full, True, True
        assert int((status(known) == 0).sum()) >= 64
        result = engine(make_problem(clues, known), limit=3)
        assert result.verdict is Verdict.NONE and result.count_exact and not result.solutions, (apart, result.reason)
        for alone in (a, b):
            one = np.zeros(shape, dtype=bool)
            one[alone] = True
            assert engine(make_problem(clues, one), limit=3).verdict is Verdict.MULTIPLE


@pytest.mark.parametrize("shape", [(1, 7), (7, 1), (2, 6), (6, 2), (3, 5), (4, 4)])
def test_hybrid_trims_only_the_cells_clues_see(shape):
    """Hybrid's trimming takes the open cells some clue sees: every cell its deductions fix holds
    that value in every solution (brute force), a cell no clue sees stays open, and while one is
    open the grade is search."""
    from recon import Grade
    from recon.engines import hybrid
    from recon.model import OPEN

    rng = np.random.default_rng(sum(shape) * 7 + shape[1])
    free_and_rest_fixed = 0
    for _ in range(30):
        problem, known, fixed, expected = _few_clues(rng, shape, (0.2, 0.6), 0.1)
        solutions = [np.frombuffer(k, dtype=bool).reshape(shape) for k in expected]
        search, grade, _ = hybrid.deduce(problem)
        value = np.array(search.value).reshape(shape)
        free = (status(known) == 0) & (fixed == OPEN)
        assert (value[free] == OPEN).all()
        for f in solutions:
            assert (f[value != OPEN] == value[value != OPEN]).all()
        if free.any():
            assert grade is Grade.SEARCH
            free_and_rest_fixed += bool((value[~free] != OPEN).all())
    assert free_and_rest_fixed >= 1  # a grid where trimming fixed every cell it was given


needs_fork = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="HiGHS runs in a child only on Linux")


@needs_fork
@pytest.mark.parametrize("shape", [(1, 7), (7, 1), (2, 5), (3, 4)])
def test_milp_in_a_child_process_answers_as_in_process(monkeypatch, shape):
    """Under a deadline a large model's HiGHS runs in a forked child (made large here by a
    threshold of 0): the same verdicts and solutions as brute force, with and without a total,
    and the same backbone."""
    import time

    from recon.engines import milp

    monkeypatch.setattr(milp, "CHILD_CELLS", 0)
    rng = np.random.default_rng(sum(shape) * 5)
    for _ in range(6):
        field = rng.random(shape) < 0.5
        known = rng.random(shape) < 0.6
        truth = brute_force(status(field), known)
        result = milp.solve(make_problem(status(field), known), limit=len(truth) + 1, time_limit=60)
        assert result.count_exact and keys(result.solutions) == truth
        mines = int(field.sum())
        every = [np.frombuffer(b, dtype=bool) for b in truth]
        with_total = milp.solve(make_problem(status(field), known, mines=mines), limit=len(truth) + 1, time_limit=60)
        assert keys(with_total.solutions) == {f.tobytes() for f in every if f.sum() == mines}
        fixed, varying, complete = milp.backbone(make_problem(status(field), known), range(field.size), time.perf_counter() + 60)
        same = {x for x in range(field.size) if len({bool(f[x]) for f in every}) == 1}
        assert complete and fixed == {x: int(every[0][x]) for x in same} and varying == set(range(field.size)) - same


def _milp_in_a_pool_worker(problem):
    from recon.engines import milp

    milp.CHILD_CELLS = 0  # (this worker's own copy of the module)
    result = milp.solve(problem, limit=10, time_limit=60)
    return keys(result.solutions), result.count_exact


@needs_fork
def test_milp_in_a_daemonic_worker_solves_in_its_own_process():
    """A worker of multiprocessing's Pool (as autoplay uses; Dask's are daemonic too) may not
    have children: there MILP runs HiGHS in the worker itself, and answers as brute force."""
    import multiprocessing

    field = random_field(3, 4, 50, np.random.default_rng(2))
    known = np.random.default_rng(3).random((3, 4)) < 0.6
    problem = make_problem(status(field), known)
    with multiprocessing.get_context("fork").Pool(1) as pool:
        solutions, exact = pool.apply(_milp_in_a_pool_worker, (problem,))
    assert exact and solutions == brute_force(status(field), known)


@needs_fork
def test_milp_child_is_stopped_at_the_deadline_and_its_failure_is_an_engine_error(monkeypatch):
    """A child HiGHS that has not answered by the deadline is killed: undecided, never a guess,
    well before it would have answered. A child that fails is an engine error, not an answer."""
    import time

    import scipy.optimize

    from recon.engines import milp
    from recon.result import EngineError

    monkeypatch.setattr(milp, "CHILD_CELLS", 0)
    problem = make_problem(status(random_field(4, 4, 50, np.random.default_rng(1))))
    monkeypatch.setattr(scipy.optimize, "milp", lambda *args, **kwargs: time.sleep(30))  # (the child inherits it)
    start = time.perf_counter()
    result = milp.solve(problem, time_limit=0.3)
    assert result.verdict is Verdict.UNDECIDED and "time limit" in result.reason and not result.count_exact
    assert time.perf_counter() - start < 10

    def fails(*args, **kwargs):
        raise ValueError("no HiGHS today")

    monkeypatch.setattr(scipy.optimize, "milp", fails)
    with pytest.raises(EngineError, match="no HiGHS today"):
        milp.solve(problem, time_limit=30)


@needs_fork
@pytest.mark.parametrize("shape", [(1, 9), (9, 1), (2, 7), (6, 8)])
def test_hybrid_under_a_deadline_trims_compiled_in_a_child_as_the_python_trimmer_does(shape):
    """The compiled trimmer cannot stop part way: under a deadline it runs in a forked child
    (the Python trimmer ran instead, four times slower on a million cells). The same verdict,
    grade, solutions, reason and cells as the Python trimmer's, with a search after it and
    where none follows (search_cells), on random clues (some contradictory) and on fields'
    partial statuses."""
    pytest.importorskip("numba")
    from recon.engines import hybrid

    rng = np.random.default_rng(sum(shape) * 7)
    in_child = 0
    for i in range(12):
        clues = rng.integers(0, 5, size=shape) if i % 3 == 0 else status(rng.random(shape) < 0.5)
        problem = make_problem(clues, rng.random(shape) < rng.uniform(0.4, 0.9))
        search_cells = None if i % 2 else int(rng.integers(0, 4))
        python = hybrid.solve(problem, limit=4, search_cells=search_cells)
        compiled = hybrid.solve(problem, limit=4, search_cells=search_cells, compiled_trim=True, time_limit=60)
        assert (compiled.verdict, compiled.grade, compiled.count_exact, compiled.reason) == (
            python.verdict, python.grade, python.count_exact, python.reason), (shape, i)
        assert keys(compiled.solutions) == keys(python.solutions)
        assert compiled.stats["deduced"] == python.stats["deduced"]
        if "trimmer" in python.stats and python.verdict is not Verdict.NONE:  # (a clash is named in Python)
            assert compiled.stats["trimmer"] == "compiled"
            in_child += 1
    assert in_child >= 2


@needs_fork
@pytest.mark.parametrize("search_cells", [None, 0])
def test_hybrid_s_compiled_trimmer_is_stopped_at_the_deadline_and_its_failure_is_an_engine_error(monkeypatch, search_cells):
    """A compiled trimmer in its child that has not answered by the deadline is killed:
    undecided, said so, well before it would have answered. One that fails is an engine error."""
    import time

    pytest.importorskip("numba")
    from recon import compiled
    from recon.engines import hybrid
    from recon.result import EngineError

    problem = make_problem(status(random_field(6, 7, 50, np.random.default_rng(4))), np.random.default_rng(5).random((6, 7)) < 0.5)
    monkeypatch.setattr(compiled, "trim_grade", lambda *args, **kwargs: time.sleep(30))  # (the child inherits it)
    start = time.perf_counter()
    result = hybrid.solve(problem, search_cells=search_cells, compiled_trim=True, time_limit=0.5)
    assert result.verdict is Verdict.UNDECIDED and not result.count_exact
    assert "time limit was reached while trimming" in result.reason and result.stats["trim_timed_out"]
    assert time.perf_counter() - start < 10

    def fails(*args, **kwargs):
        raise ValueError("no kernels today")

    monkeypatch.setattr(compiled, "trim_grade", fails)
    with pytest.raises(EngineError, match="no kernels today"):
        hybrid.solve(problem, search_cells=search_cells, compiled_trim=True, time_limit=30)


@pytest.mark.slow
def test_hybrid_grades_contradictions_and_solutions_as_trim_does(monkeypatch):
    """On random partial statuses, some with a clue off by one (no solution), hybrid's grade is
    trim's: for a contradiction, the strongest rule of trim's trace, the clash included (hybrid
    said "advanced" for every clash its trimming found, where trim said "basic" in 159 of 1237
    such cases of a 3000-status fuzz)."""
    from collections import Counter

    from recon.engines import hybrid, trim

    rng = np.random.default_rng(5)
    seen = Counter()
    for _ in range(800):
        shape = (int(rng.integers(1, 9)), int(rng.integers(1, 12)))
        clues = status(rng.random(shape) < 0.5).astype(np.int64)
        known = rng.random(shape) < 0.7
        for _ in range(int(rng.integers(0, 3))):
            r, c = int(rng.integers(0, shape[0])), int(rng.integers(0, shape[1]))
            clues[r, c] = max(0, min(9, clues[r, c] + int(rng.choice([-1, 1]))))
        problem = make_problem(clues, known)
        expected = trim.solve(problem)
        if expected.verdict in (Verdict.NONE, Verdict.UNIQUE):
            got = hybrid.solve(problem, limit=2)
            assert (got.verdict, got.grade) == (expected.verdict, expected.grade), (clues, known)
            seen[(expected.verdict, expected.grade)] += 1
    assert {(Verdict.NONE, "basic"), (Verdict.NONE, "advanced"), (Verdict.UNIQUE, "advanced")} <= set(seen)


@pytest.mark.parametrize("engine", ["backtrack", "hybrid"])
@pytest.mark.parametrize("shape", [(1, 9), (9, 1), (2, 6), (3, 4), (4, 4)])
def test_the_searches_with_a_total_list_exactly_the_fields_of_brute_force(engine, shape):
    """A total is one more clue over every cell in the search: with it (and cells given a value,
    as on a classic board), backtracking and hybrid list every field brute force finds with that
    many mines, no more, and prove none where the total cannot be met (one more or fewer mines
    than any fitting field, or more than the cells)."""
    rng = np.random.default_rng(sum(shape) * 7 + len(engine))
    verdicts = set()
    for _ in range(40):
        field = rng.random(shape) < rng.uniform(0.1, 0.7)
        known = rng.random(shape) < rng.uniform(0.0, 1.4)  # a full status about a third of the time
        fixed = np.where(rng.random(shape) < 0.2, field.astype(np.int8), -1).astype(np.int8)
        every = [np.frombuffer(b, dtype=bool).reshape(shape) for b in brute_force(status(field), known)]
        every = [f for f in every if ((f == fixed) | (fixed < 0)).all()]
        for mines in {int(field.sum()), int(field.sum()) + 1, int(rng.integers(0, field.size + 2))}:
            truth = {f.tobytes() for f in every if f.sum() == mines}
            problem = make_problem(status(field), known, fixed, mines=mines) if mines <= field.size else None
            if problem is None:
                continue
            result = ENGINES[engine](problem, limit=len(truth) + 1)
            assert result.count_exact and keys(result.solutions) == truth, (shape, mines)
            assert result.verdict is (Verdict.NONE, Verdict.UNIQUE)[len(truth)] if len(truth) < 2 else Verdict.MULTIPLE
            assert result.grade is None
            if not truth:
                assert result.reason
            verdicts.add(result.verdict)
    assert verdicts == {Verdict.NONE, Verdict.UNIQUE, Verdict.MULTIPLE}


@pytest.mark.parametrize("shape", [(1, 9), (9, 1), (2, 6), (3, 4)])
def test_cells_no_clue_sees_take_every_value_once_with_or_without_a_total(shape):
    """Once every clue has its mines, the search lists the cells no clue sees in one block (every
    value, or every way to place the total's missing mines) instead of a guess each: each field
    brute force finds comes out exactly once, in the order of a search guessing those cells one by
    one (row-major, empty first; with a total, the scarcer value first)."""
    rng = np.random.default_rng(sum(shape) * 11)
    pairs = {True: 0, False: 0}
    for _ in range(30):
        field = rng.random(shape) < rng.uniform(0.1, 0.7)
        known = np.zeros(shape, dtype=bool)
        known.flat[rng.choice(field.size, size=int(rng.integers(0, 3)), replace=False)] = True
        every = [np.frombuffer(b, dtype=bool).reshape(shape) for b in brute_force(status(field), known)]
        for mines in (None, int(field.sum()), int(rng.integers(0, field.size + 1))):
            truth = [f for f in every if mines is None or f.sum() == mines]
            listed = list(backtrack.iter_solutions(make_problem(status(field), known, mines=mines)))
            assert sorted(f.tobytes() for f in listed) == sorted(f.tobytes() for f in truth), (shape, mines)
            # consecutive fields that agree where a clue sees come from one block, in its order
            unseen = status(known) == 0
            for a, b in zip(listed, listed[1:]):
                if (a[~unseen] == b[~unseen]).all():
                    mines_first = mines is not None and 2 * (mines - int(a[~unseen].sum())) <= int(unseen.sum())
                    first, then = a[unseen].tolist(), b[unseen].tolist()
                    assert first > then if mines_first else first < then, (shape, mines)
                    pairs[mines_first] += 1
    assert pairs[True] and pairs[False]
