"""Trimming: each rule on tiny systems (fires, stays quiet, detects a contradiction), soundness
against the complete engines, and the seed examples solved by deduction alone."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import keys, load_fillapix
from recon import Verdict, make_problem, parse_status, random_field, solve, status
from recon.model import equations as equations_of
from recon.engines import ENGINES, trim
from recon.rules.trim import Contradiction, Trimmer, _bound, _eliminate


def trimmer_with(shape, equations):
    """A Trimmer on a grid of this shape, every cell open, holding exactly the given (cells,
    count) equations (named r1c1, r1c2, ...), loaded: no rule has run yet."""
    named = [(f"r1c{i + 1}", sorted(cells), count) for i, (cells, count) in enumerate(equations)]
    t = Trimmer.on_cells(shape, range(shape[0] * shape[1]), named)
    t.load()
    return t


def test_an_equation_must_lie_in_one_window():
    with pytest.raises(ValueError, match="3x3 window"):
        trimmer_with((1, 4), [({0, 3}, 1)])


# -- basic rules --------------------------------------------------------------------------


def test_all_empty_fires_on_count_zero():
    t = trimmer_with((1, 4), [({0, 1, 2}, 0)])
    assert t.rule_basic()
    assert t.value.tolist() == [0, 0, 0, -1]
    assert [s.rule for s in t.steps] == ["all-empty"]


def test_all_mines_fires_when_count_equals_cells():
    t = trimmer_with((1, 4), [({1, 2}, 2)])
    assert t.rule_basic()
    assert t.value.tolist() == [-1, 1, 1, -1]


def test_basic_rules_stay_quiet_when_a_count_leaves_a_choice():
    t = trimmer_with((1, 4), [({0, 1, 2}, 1), ({2, 3}, 1)])
    assert not t.rule_basic()
    assert (t.value == -1).all() and not t.steps


def test_substitution_lowers_counts_and_cascades():
    t = trimmer_with((1, 4), [({0}, 1), ({0, 1}, 1), ({1, 2, 3}, 2)])
    t.rule_basic()
    assert t.value.tolist() == [1, 0, 1, 1]


@pytest.mark.parametrize("equations, words", [([({0, 1}, 3)], "cannot be met"), ([({0}, 1), ({0, 1}, 0)], "exceeded")])
def test_basic_contradictions(equations, words):
    with pytest.raises(Contradiction, match=words):
        t = trimmer_with((1, 3), equations)
        t.rule_basic()


def test_two_equations_on_the_same_cells_with_different_counts_contradict():
    with pytest.raises(Contradiction, match="ask for 2 and 1 mines"):
        trimmer_with((1, 3), [({0, 1}, 1), ({0, 1}, 2)])


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(2, 9), (9, 2), (5, 7), (4, 11)])
def test_a_contradiction_on_derived_equations_names_the_clues_behind_them(shape):
    """A contradiction found on e<k> (derived by the subset rule, maybe from other e<k>) says
    which clues it comes from: exactly the clues behind it, all of them clues in force, so the
    message stands without the proof (recon solve prints it alone)."""
    rng = np.random.default_rng(sum(shape))
    derived_seen = 0
    for _ in range(400):
        field = rng.random(shape) < 0.5
        clues = status(field).astype(np.int64)
        known = rng.random(shape) < 0.6
        r, c = rng.integers(shape[0]), rng.integers(shape[1])
        known[r, c] = True
        clues[r, c] = (clues[r, c] + rng.choice([-1, 1])) % 10  # likely no field has these counts
        result = trim.solve(make_problem(clues.astype(np.uint8), known))
        if result.verdict is not Verdict.NONE:
            continue
        step = result.trace[-1]
        derived = [n for n in step.sources if n.startswith("e")]
        if not derived:
            assert " from clues " not in step.text
            continue
        derived_seen += 1
        behind, todo = set(), list(step.sources)
        by_name = {s.derived: s.sources for s in result.trace if s.derived}
        while todo:
            name = todo.pop()
            todo.extend(by_name[name]) if name in by_name else behind.add(name)
        listed = step.text.rsplit(" from clues ", 1)[1].rstrip(")").split(", ")
        assert set(listed) == behind and len(listed) == len(behind)
        for name in listed:
            rr, cc = (int(v) - 1 for v in name[1:].split("c"))
            assert known[rr, cc]
    assert derived_seen


# -- pairwise rules -----------------------------------------------------------------------


def test_subset_derives_the_difference():
    # on a 2x3 grid (cells row by row): {0, 1} holds 1 mine and the 2x2 block {0, 1, 3, 4}
    # holds 3, so {3, 4} holds 2: both mines
    t = trimmer_with((2, 3), [({0, 1}, 1), ({0, 1, 3, 4}, 3)])
    assert t.rule_pairwise()
    assert t.value.tolist() == [-1, -1, -1, 1, 1, -1]
    assert t.steps[0].rule == "subset" and t.steps[0].derived == "e1"


def test_subset_does_not_fire_on_disjoint_equations():
    t = trimmer_with((1, 5), [({0, 1}, 1), ({3, 4}, 1)])
    assert not t.rule_pairwise() and not t.steps


def test_overlap_tatham_rule():
    # on a 2x3 grid: A = {0, 1, 4} has 1 mine, B = {1, 2, 4, 5} has 3; they share {1, 4}, which
    # holds at most 1 (A's count), so B's private part {2, 5} holds the other 2: mines; and the
    # shared part holds at least 3 - 2 = 1, all of A's, so A's private {0} is empty.
    t = trimmer_with((2, 3), [({0, 1, 4}, 1), ({1, 2, 4, 5}, 3)])
    assert t.rule_pairwise()
    assert t.value.tolist() == [0, -1, 1, -1, -1, 1]
    assert {s.rule for s in t.steps} <= {"overlap", "all-empty", "all-mines"}


def test_overlap_stays_quiet_when_the_shared_part_leaves_a_choice():
    t = trimmer_with((2, 3), [({0, 1, 4}, 1), ({1, 2, 4, 5}, 2)])
    assert not t.rule_pairwise()
    assert (t.value == -1).all()


def test_overlap_contradiction():
    # shared {1} must hold at least 2 - 1 = 1 (A) ... and B = {1, 2} with 0 mines: at most 0.
    with pytest.raises(Contradiction):
        t = trimmer_with((1, 3), [({0, 1}, 2), ({1, 2}, 0)])
        t.rule_basic()
        t.rule_pairwise()


def test_the_pairwise_loop_skips_overlap_exactly_where_it_would_do_nothing():
    """Trimmer._pair calls overlap_rule only when the counts differ by at least one side's own
    cells (or the earlier equation's count is 0 or all its cells): for every pair of overlapping
    equations it can meet (the later one's count strictly inside, the basic rules took the rest),
    that is exactly when the rule fixes a cell or finds a contradiction."""
    from recon.rules.trim import overlap_rule

    pairs = 0
    for shared in range(1, 9):
        for only_a in range(1, 10 - shared):
            for only_b in range(1, 10 - shared):
                for count_a in range(1, only_a + shared):
                    for count_b in range(0, only_b + shared + 1):
                        low, high, fix_a, fix_b = overlap_rule(count_a, only_a, shared, count_b, only_b)
                        acts = low > high or fix_a >= 0 or fix_b >= 0
                        called = (count_a - count_b >= only_a or count_b - count_a >= only_b
                                  or count_b == 0 or count_b == only_b + shared)
                        assert acts == called, (count_a, only_a, shared, count_b, only_b)
                        pairs += 1
    assert pairs == 8088


# -- elimination --------------------------------------------------------------------------


def test_bound_on_a_difference():
    assert _bound({3: 1, 7: -1}, 1) == {3: 1, 7: 0}
    assert _bound({3: 1, 7: -1}, 0) == {}
    assert _bound({3: 1, 7: -1}, 2) is None


def test_bound_fixes_positive_cells_when_their_sum_is_the_right_side():
    assert _bound({1: 1, 2: 1, 5: -1}, 2) == {1: 1, 2: 1, 5: 0}
    assert _bound({1: 2, 2: 1}, 3) == {1: 1, 2: 1}
    assert _bound({1: 2, 2: 1}, 1) == {1: 0}  # bounds are intervals: x2 = 1 then follows by substitution
    assert _bound({1: -2, 2: 1}, 1) == {1: 0, 2: 1}


def _bound_per_cell(coefs, rhs):
    """The bound rule cell by cell, as defined: a cell is fixed when only one value fits the
    range the other cells can make; None when the equation or some cell cannot be met."""
    low = sum(v for v in coefs.values() if v < 0)
    high = sum(v for v in coefs.values() if v > 0)
    if not low <= rhs <= high:
        return None
    fixed = {}
    for c, a in coefs.items():
        rest_low, rest_high = low - min(0, a), high - max(0, a)
        can0, can1 = rest_low <= rhs <= rest_high, rest_low <= rhs - a <= rest_high
        if not can0 and not can1:
            return None
        if can0 != can1:
            fixed[c] = 1 if can1 else 0
    return fixed


@settings(max_examples=400, deadline=None)
@given(
    st.dictionaries(st.integers(0, 20), st.integers(-4, 4).filter(bool), min_size=1, max_size=9),
    st.integers(-12, 12),
)
@pytest.mark.slow
def test_bound_with_its_slack_shortcut_equals_the_rule_cell_by_cell(coefs, rhs):
    assert _bound(coefs, rhs) == _bound_per_cell(coefs, rhs)


def test_eliminate_is_exact_integer_arithmetic():
    rows = [({0: 1, 1: 1}, 1, {"a"}), ({1: 1, 2: 1}, 1, {"b"}), ({0: 1, 2: 1}, 2, {"c"})]
    reduced = _eliminate(rows)
    assert all(isinstance(v, int) for coefs, rhs, _ in reduced for v in [*coefs.values(), rhs])
    solved = {next(iter(c)): rhs // c[next(iter(c))] for c, rhs, _ in reduced if len(c) == 1}
    assert solved == {0: 1, 1: 0, 2: 1}


def _rref(rows, cells):
    """Reference: Gauss-Jordan over fractions, rows scaled to coprime integers, leading positive."""
    from fractions import Fraction
    from math import gcd, lcm

    m = [[Fraction(coefs.get(c, 0)) for c in cells] + [Fraction(rhs)] for coefs, rhs, _ in rows]
    out, r = [], 0
    for j in range(len(cells)):
        pick = next((i for i in range(r, len(m)) if m[i][j] != 0), None)
        if pick is None:
            continue
        m[r], m[pick] = m[pick], m[r]
        m[r] = [v / m[r][j] for v in m[r]]
        for i in range(len(m)):
            if i != r and m[i][j] != 0:
                m[i] = [a - m[i][j] * b for a, b in zip(m[i], m[r])]
        r += 1
    for row in m[:r]:
        scale = lcm(*(v.denominator for v in row))
        ints = [int(v * scale) for v in row]
        g = gcd(*ints)
        out.append(({c: v // g for c, v in zip(cells, ints[:-1]) if v}, ints[-1] // g))
    return out


@pytest.mark.parametrize("shape", [(1, 8), (8, 1), (2, 7), (5, 4), (6, 6)])
def test_eliminate_gives_the_reduced_row_echelon_form_and_honest_sources(shape):
    """The rows equal a reference RREF over fractions (sorted by pivot), and each row is a
    combination of the clues it names (adding it to them does not raise their rank)."""
    rng = np.random.default_rng(sum(shape))
    for _ in range(5):
        field = rng.random(shape) < 0.5
        known = rng.random(shape) < 0.6
        problem = make_problem(status(field), known)
        rows = [({r * shape[1] + c: 1 for r, c in cells}, count, {f"{at}"}) for at, cells, count in equations_of(problem)]
        reduced = _eliminate(rows)
        cells = sorted({c for coefs, _, _ in rows for c in coefs})
        assert sorted(((coefs, rhs) for coefs, rhs, _ in reduced), key=lambda row: min(row[0], default=-1)) == _rref(rows, cells)
        by_name = {next(iter(src)): (coefs, rhs) for coefs, rhs, src in rows}
        for coefs, rhs, src in reduced:
            base = [by_name[name] for name in src]
            matrix = np.array([[q.get(c, 0) for c in cells] + [b] for q, b in base], dtype=float)
            extended = np.vstack([matrix, [[coefs.get(c, 0) for c in cells] + [rhs]]])
            assert np.linalg.matrix_rank(extended) == np.linalg.matrix_rank(matrix)


def test_elimination_fires_where_pairwise_rules_stall():
    # x0 + x1 + x2 = 2, x2 + x3 = 1, x0 + x3 = 1 (a 2x2 grid, cells row by row): no basic or
    # pairwise rule applies; combined, x1 - 2 x3 = 0, so x3 = 0 (x3 = 1 would need x1 = 2), and
    # then the rest follows.
    t = trimmer_with((2, 2), [({0, 1, 2}, 2), ({2, 3}, 1), ({0, 3}, 1)])
    assert not t.rule_basic() and not t.rule_pairwise()
    assert t.rule_elimination()
    assert t.steps[0].rule == "elimination" and "r2c2 = 0" in t.steps[0].text
    t.rule_basic()
    assert t.value.tolist() == [1, 0, 1, 0]


def test_elimination_contradiction_is_reported():
    with pytest.raises(Contradiction, match="cannot meet"):
        t = trimmer_with((1, 3), [({0, 1}, 1), ({1, 2}, 1), ({0, 2}, 1)])
        t.rule_elimination()


@pytest.mark.parametrize("shape", [(1, 7), (7, 1), (4, 6), (6, 4), (3, 10), (7, 7), (9, 4)])
def test_elimination_alone_fixes_every_cell_when_no_side_is_2_mod_3(shape):
    assert shape[0] % 3 != 2 and shape[1] % 3 != 2
    rng = np.random.default_rng(sum(shape))
    field = rng.random(shape) < 0.5
    t = Trimmer(make_problem(status(field)))
    t.load()
    while t.rule_elimination():  # no basic or pairwise rule in between
        pass
    assert t.is_done
    assert np.array_equal(t.value.reshape(shape) == 1, field)


# -- the engine ---------------------------------------------------------------------------

# A puzzle met while generating (10x10, P = 50 %): the last pairwise pass derives equations by the
# subset rule without fixing a cell, and pairing those new equations is what solves it. Trimming
# once stopped there ("stalls with 58 of 100 cells open") although its rules still applied.
PAIR_THE_DERIVED = """\
2.....2.4.
..88.4.4..
.988.65.7.
5.....7.7.
.7.6.76..5
..77.766..
4..8.5.665
..676...7.
3..6.5..85
..5.4..65.
"""


def test_trimming_pairs_derived_equations_before_stalling():
    clues, known = parse_status(PAIR_THE_DERIVED)
    problem = make_problem(clues, known)
    result = trim.solve(problem)
    assert result.verdict is Verdict.UNIQUE
    search = ENGINES["backtrack"](problem, limit=2)
    assert search.verdict is Verdict.UNIQUE and np.array_equal(result.solutions[0], search.solutions[0])


@pytest.mark.parametrize("shape", [(1, 13), (13, 1), (2, 12), (8, 11)])
def test_a_stalled_trimmer_has_nothing_left_to_pair(shape):
    """When trimming stops short, no rule applies any more: every equation has been paired."""
    rng = np.random.default_rng(sum(shape))
    stalled = 0
    for _ in range(40):
        field = rng.random(shape) < 0.5
        known = rng.random(shape) < 0.6
        t = Trimmer(make_problem(status(field), known))
        t.load()
        t.run()
        if t.is_done:
            continue
        stalled += 1
        before = t.value
        assert not t.rule_basic() and not t.rule_pairwise() and not t.rule_elimination()
        assert np.array_equal(t.value, before)
    assert stalled >= 5




def test_seed_examples_by_trimming_alone(seed_examples):
    for name in ("seed-3x3", "seed-7x7"):
        clues, solutions = seed_examples[name]
        result = trim.solve(make_problem(clues))
        assert result.verdict is Verdict.UNIQUE, name
        assert np.array_equal(result.solutions[0], solutions[0])
    clues, solutions = seed_examples["seed-5x5"]
    result = trim.solve(make_problem(clues))
    assert result.verdict is Verdict.UNDECIDED and result.grade == "search"
    open_cells = ~result.decided
    assert np.array_equal(open_cells, solutions[0] != solutions[1])


def test_seed_3x3_trace_starts_with_the_empty_corner(seed_examples):
    result = trim.solve(make_problem(seed_examples["seed-3x3"][0]))
    first = result.trace[0]
    assert first.rule == "all-empty" and first.sources == ("r1c1",)
    assert first.text == "clue r1c1 = 0: its window r1c1 r1c2 r2c1 r2c2 holds no mine -> all four empty"
    assert first.to_json()["cells"] == ["r1c1", "r1c2", "r2c1", "r2c2"]


def test_grades():
    easy = trim.solve(make_problem(status(np.zeros((3, 5), bool))))
    assert easy.verdict is Verdict.UNIQUE and easy.grade == "basic"
    assert {s.rule for s in easy.trace} == {"all-empty"}


def test_contradiction_gives_none_with_the_clue():
    result = trim.solve(make_problem(np.array([[0, 0, 3], [0, 0, 0]])))
    assert result.verdict is Verdict.NONE and result.count_exact
    assert "r1c3" in result.reason or "r2c3" in result.reason or "r1c2" in result.reason


def test_impossible_clue_is_a_contradiction_not_a_crash():
    result = trim.solve(make_problem(np.array([[5, 0], [0, 0]])))
    assert result.verdict is Verdict.NONE and "r1c1" in result.reason


def test_published_puzzles_grades():
    puzzles = load_fillapix()
    grades = {name: trim.solve(make_problem(c, k)).grade for name, (c, k, _, _) in puzzles.items()}
    assert grades["e1"] == grades["e7"] == "search"  # two solutions: no deduction can finish
    for name, (clues, known, solutions, count) in puzzles.items():
        result = trim.solve(make_problem(clues, known))
        if result.verdict is Verdict.UNIQUE:
            assert np.array_equal(result.solutions[0], solutions[0]), name


def _agree_with_complete_engines(clues, known=None):
    problem = make_problem(clues, known)
    trimmed = trim.solve(problem)
    complete = ENGINES["backtrack"](problem, limit=50)
    assert complete.count_exact or trimmed.verdict is not Verdict.UNIQUE
    if trimmed.verdict is Verdict.NONE:
        assert complete.verdict is Verdict.NONE
        return
    if complete.verdict is Verdict.NONE:
        assert trimmed.verdict is Verdict.NONE, "trimming missed a contradiction it could not miss at the end"
    for field in complete.solutions:
        assert not (trimmed.decided & (field != trimmed.partial)).any()
    if trimmed.verdict is Verdict.UNIQUE:
        assert complete.verdict is Verdict.UNIQUE
        assert keys(trimmed.solutions) == keys(complete.solutions)


spec = st.tuples(st.integers(1, 8), st.integers(1, 8), st.integers(0, 100), st.integers(0, 2**32 - 1))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec)
def test_trimming_never_contradicts_complete_search_on_full_status(s):
    rows, cols, p, seed = s
    _agree_with_complete_engines(status(random_field(rows, cols, p, seed)))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec, st.integers(20, 100))
def test_trimming_never_contradicts_complete_search_on_partial_status(s, percent):
    rows, cols, p, seed = s
    rng = np.random.default_rng(seed)
    field = random_field(min(rows, 6), min(cols, 6), p, rng)
    known = rng.random(field.shape) < percent / 100
    _agree_with_complete_engines(status(field), known)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec, st.integers(0, 3))
def test_trimming_on_corrupted_status_matches_none(s, bumps):
    rows, cols, p, seed = s
    rng = np.random.default_rng(seed)
    clues = status(random_field(rows, cols, p, rng)).astype(int)
    for _ in range(bumps):
        r, c = rng.integers(rows), rng.integers(cols)
        clues[r, c] = max(0, clues[r, c] - 1)
    _agree_with_complete_engines(clues)


def test_cross_check_catches_a_wrong_deduction(monkeypatch, seed_examples):
    from recon import EngineDisagreement, Result

    clues, solutions = seed_examples["seed-7x7"]
    lie = solutions[0].copy()
    decided = np.zeros(lie.shape, bool)
    decided[0, 0] = True
    lie[0, 0] = ~lie[0, 0]

    def liar(problem, *, limit, time_limit):
        return Result(Verdict.UNDECIDED, [], False, "trim", decided=decided, partial=lie, grade="search")

    monkeypatch.setitem(ENGINES, "trim", liar)
    with pytest.raises(EngineDisagreement, match="trim fixed r1c1"):
        solve(clues, engine="all")


def _picture(text: str, mark: str) -> np.ndarray:
    return np.array([[ch == mark for ch in line] for line in text.split()], dtype=bool)


def test_trimming_can_fix_more_with_a_clue_fewer():
    """Trimming is not monotone in the clues: elimination bounds the rows of a reduced form, and
    one equation fewer changes those rows. Here, on an 8 x 11 field, dropping clue r5c9 lets
    elimination fix three cells that it cannot fix with the clue (all three as in the field).
    Generation has to allow for it (recon.generation.elimination: more passes for elimination-grade puzzles)."""
    field = _picture("""
        ###.#..##.. ###..#.#.#. #.##.##.#.. ...#..#..## ##.###..... ..##.....#. #.##.##..#. ..#.##..###""", "#")
    known = _picture("""
        kkkk--kkk-k ---k--k-kkk ---kk---kk- k----kk--kk k-k--k--kk- --------kk- --k-k-k---- --kk--kk---""", "k")
    assert known[4, 8]
    fewer = known.copy()
    fewer[4, 8] = False
    clues = status(field)
    with_clue = trim.solve(make_problem(clues, known))
    without = trim.solve(make_problem(clues, fewer))
    gained = without.decided & ~with_clue.decided
    assert sorted(map(tuple, np.argwhere(gained).tolist())) == [(0, 7), (3, 7), (3, 10)]
    assert not (with_clue.decided & ~without.decided).any()
    assert np.array_equal(without.partial[gained], field[gained])


@pytest.mark.parametrize("difficulty", ["basic", "advanced", "elimination", "search"])
def test_trimmer_grade_is_the_grade_of_its_trace(difficulty):
    """Trimmer.grade (hybrid reads it, without the proof): the strongest rule used, search while
    cells are open; the same without the proof, and trim.solve's grade (its trace's) agrees."""
    from recon.generation import generate_puzzle

    puzzle = generate_puzzle(8, 11, 50, np.random.default_rng(4), difficulty=difficulty)
    problem = make_problem(puzzle.clues, puzzle.known)
    trimmer = Trimmer(problem)
    trimmer.load()
    trimmer.run()
    bare = Trimmer(problem, proof=False)
    bare.load()
    bare.run()
    assert not bare.steps
    assert trimmer.grade == bare.grade == trim.solve(problem).grade == difficulty


def test_the_multipliers_of_an_elimination_step_add_up_or_there_are_none():
    """`_solve_combination` (integer Gauss-Jordan on sparse rows): on random systems, either the
    multipliers add the equations up to m times the row asked for, or the row is not in their
    span (numpy's rank, the oracle), and the free multipliers are 0."""
    from recon.rules.trim import _solve_combination

    rng = np.random.default_rng(7)
    found = missing = 0
    for _ in range(400):
        cells, n = int(rng.integers(1, 10)), int(rng.integers(1, 7))
        columns = []
        for _ in range(n):
            chosen = rng.choice(cells, size=int(rng.integers(1, min(4, cells) + 1)), replace=False)
            columns.append(({int(x): int(rng.choice([1, 1, -1, 2])) for x in chosen}, int(rng.integers(-2, 5))))
        if rng.random() < 0.6:  # a row in the span
            k = rng.integers(-3, 4, size=n)
            coefs: dict[int, int] = {}
            for kj, (col, _) in zip(k, columns):
                for x, a in col.items():
                    coefs[x] = coefs.get(x, 0) + int(kj) * a
            coefs = {x: a for x, a in coefs.items() if a}
            rhs = int(sum(int(kj) * c for kj, (_, c) in zip(k, columns)))
        else:
            coefs = {int(x): int(rng.integers(-2, 3)) for x in range(cells)}
            rhs = int(rng.integers(-3, 4))
        matrix = np.array([[col.get(x, 0) for col, _ in columns] for x in range(cells)] + [[c for _, c in columns]], dtype=float)
        target = np.array([coefs.get(x, 0) for x in range(cells)] + [rhs], dtype=float)
        in_span = np.linalg.matrix_rank(np.column_stack([matrix, target])) == np.linalg.matrix_rank(matrix)
        solved = _solve_combination(columns, coefs, rhs)
        if solved is None:
            assert not in_span
            missing += 1
            continue
        lam, m = solved
        assert in_span and m > 0
        assert np.array_equal(matrix @ np.array(lam, dtype=float), m * target)
        found += 1
    assert found > 100 and missing > 50


@pytest.mark.parametrize("core", [(6, 8), (9, 5), (5, 14)])
def test_case_splits_name_the_cells_where_they_are_on_the_grid(core):
    """A case split follows its ways on the bounding box of the cells around the split equation:
    the same proof, step for step, for the same clues placed anywhere on a larger grid (cells no
    clue sees around them), its cells named where they lie."""
    import re

    rows, cols = core
    splits = 0
    for seed in range(12):
        rng = np.random.default_rng(seed)
        field = rng.random(core) < 0.45
        known = rng.random(core) < 0.6

        def placed(at, size):
            big_field, big_known = np.zeros(size, dtype=bool), np.zeros(size, dtype=bool)
            big_field[at[0]:at[0] + rows, at[1]:at[1] + cols] = field
            big_known[at[0] + 1:at[0] + rows - 1, at[1] + 1:at[1] + cols - 1] = known[1:-1, 1:-1]
            return make_problem(status(big_field), big_known)

        near = trim.solve(placed((0, 0), core), cases=True)
        far = trim.solve(placed((5, 9), (rows + 11, cols + 17)), cases=True)

        def shifted(text):
            return re.sub(r"\br(\d+)c(\d+)\b", lambda m: f"r{int(m[1]) + 5}c{int(m[2]) + 9}", text)

        assert [shifted(step.text) for step in near.trace] == [step.text for step in far.trace]
        splits += sum(step.rule == "case-split" for step in near.trace)
    assert splits  # some proofs split cases


@pytest.mark.parametrize("shape", [(1, 40), (40, 1), (2, 30), (25, 30)])
def test_fixed_near_answers_as_a_scan_of_the_cells_fixed_since(shape):
    """rule_cases skips an equation when no cell near it was fixed since its split gave nothing:
    looked up cell by cell in the square around it once many cells were fixed since, it must say
    what a scan of those cells says (anchors off the grid too)."""
    rows, cols = shape
    rng = np.random.default_rng(rows * 100 + cols)
    trimmer = Trimmer.on_cells(shape, range(rows * cols), [], proof=False)
    order = rng.permutation(rows * cols).tolist()
    fixed = trimmer._fixed
    for batch in (order[: rows * cols // 4], order[rows * cols // 4 : rows * cols * 3 // 4]):  # asked between fixes too
        for x in batch:
            trimmer._fix(x, int(rng.integers(2)))
        for _ in range(1000):
            ar, ac = int(rng.integers(-2, rows + 1)), int(rng.integers(-2, cols + 1))
            d, since = int(rng.integers(0, 9)), int(rng.integers(0, len(fixed) + 1))
            scan = any(abs(x // cols - ar) <= d and abs(x % cols - ac) <= d for x in fixed[since:])
            assert trimmer._fixed_near(ar, ac, d, since) == scan
