"""The one trimming core (recon.rules.trim) against trimming by the book: a slow, separate
statement of the same rules (sets of cells, every pair compared until nothing changes, elimination
over exact fractions). With and without the written proof, the core must fix exactly the cells
the book fixes, and find the same contradictions."""

from __future__ import annotations

import itertools
import time
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recon import Verdict, make_problem, random_field, status
from recon.engines import trim
from recon.generation import generate_puzzle
from recon.generation.grades import is_advanced, is_trimmed
from recon.model import OPEN, Groups, equations
from recon.result import TimeUp
from recon.rules.trim import ELIMINATION_MAX_CELLS, Contradiction, Trimmer


class Clash(Exception):
    pass


def _pairwise_by_the_book(eqs, value):
    """The basic, subset and overlap rules on every pair, again and again, to their fixpoint."""
    while True:
        eqs = _substituted(eqs, value)
        count_of = {}
        for cells, count in eqs:
            if count_of.setdefault(cells, count) != count:
                raise Clash
        fixes = {}
        for cells, count in eqs:
            if count in (0, len(cells)):
                fixes.update({c: int(count > 0) for c in cells})
        new = set()
        for (a, ca), (b, cb) in itertools.combinations(sorted(eqs, key=_order), 2):
            shared = a & b
            if not shared:
                continue
            if a <= b or b <= a:
                (small, cs), (big, cbig) = ((a, ca), (b, cb)) if a <= b else ((b, cb), (a, ca))
                new.add((big - small, cbig - cs))
                continue
            low = max(0, ca - len(a - b), cb - len(b - a))
            high = min(len(shared), ca, cb)
            if low > high:
                raise Clash
            for mine, count, only in ((a, ca, a - b), (b, cb, b - a)):
                if count == low:  # the shared part holds all it can: nothing left for "only"
                    fixes.update({c: 0 for c in only})
                elif count - high == len(only):
                    fixes.update({c: 1 for c in only})
        for c, v in fixes.items():
            _fix(value, c, v)
        if not fixes and not {eq for eq in new if eq[0]} - eqs:
            return eqs
        eqs |= new


def _order(eq):
    return sorted(eq[0]), eq[1]


def _substituted(eqs, value):
    out = set()
    for cells, count in eqs:
        rest = frozenset(c for c in cells if c not in value)
        count -= sum(value[c] for c in cells if c in value)
        if count < 0 or count > len(rest):
            raise Clash
        if rest:
            out.add((rest, count))
    return out


def _fix(value, c, v):
    if value.setdefault(c, v) != v:
        raise Clash


def _eliminate_by_the_book(eqs, max_cells):
    """Gauss-Jordan over fractions on each connected group of at most max_cells cells; each
    row bounded over 0/1 cells. Returns the cells fixed."""
    joined = Groups()
    for cells, _ in eqs:
        joined.join(cells)
    groups: dict = {}
    for eq in sorted(eqs, key=_order):
        groups.setdefault(joined.find(min(eq[0])), []).append(eq)
    fixes = {}
    for group in groups.values():
        cells = sorted(set().union(*(c for c, _ in group)))
        if len(cells) > max_cells:
            continue
        rows = [[Fraction(int(c in eq)) for c in cells] + [Fraction(count)] for eq, count in group]
        lead = 0
        for col in range(len(cells)):
            pick = next((i for i in range(lead, len(rows)) if rows[i][col]), None)
            if pick is None:
                continue
            rows[lead], rows[pick] = rows[pick], rows[lead]
            rows[lead] = [x / rows[lead][col] for x in rows[lead]]
            for i in range(len(rows)):
                if i != lead and rows[i][col]:
                    f = rows[i][col]
                    rows[i] = [x - f * y for x, y in zip(rows[i], rows[lead])]
            lead += 1
        for row in rows:
            *coefs, rhs = row
            low = sum(a for a in coefs if a < 0)
            high = sum(a for a in coefs if a > 0)
            if not low <= rhs <= high:
                raise Clash
            for c, a in zip(cells, coefs):
                rest_low, rest_high = low - min(a, 0), high - max(a, 0)
                can0, can1 = rest_low <= rhs <= rest_high, rest_low <= rhs - a <= rest_high
                if can0 != can1:
                    if fixes.setdefault(c, int(can1)) != int(can1):
                        raise Clash
    return fixes


def by_the_book(problem, max_cells=ELIMINATION_MAX_CELLS):
    """The cells trimming fixes (int8, -1 open), or "contradiction"."""
    rows, cols = problem.shape
    clues = {(frozenset(y * cols + x for y, x in cells), count) for _, cells, count in equations(problem)}
    value: dict[int, int] = {}
    try:
        eqs = clues
        while True:
            eqs = _pairwise_by_the_book(eqs, value)
            if len(value) == problem.cells:
                break
            fixes = {c: v for c, v in _eliminate_by_the_book(_substituted(clues, value), max_cells).items() if c not in value}
            if not fixes:
                break
            for c, v in fixes.items():
                _fix(value, c, v)
    except Clash:
        return "contradiction"
    out = np.full(problem.cells, -1, dtype=np.int8)
    for c, v in value.items():
        out[c] = v
    return out


def _core(problem, max_cells, proof):
    trimmer = Trimmer(problem, max_cells, proof=proof)
    try:
        trimmer.load()
        trimmer.run()
    except Contradiction:
        return "contradiction", None
    assert trimmer.is_done == bool((trimmer.value >= 0).all())
    # the proof fixes each cell once, to its value; without it there are no steps
    said = [(r * problem.shape[1] + c, v) for step in trimmer.steps for (r, c), v in zip(step.cells, step.values)]
    assert sorted(said) == [(c, v) for c, v in enumerate(trimmer.value.tolist()) if v >= 0] if proof else not said
    return trimmer.value, trimmer.grade


def _same(problem, max_cells=ELIMINATION_MAX_CELLS) -> str:
    """The core with and without the proof and the book agree; what they found."""
    (written, grade), (bare, bare_grade) = _core(problem, max_cells, True), _core(problem, max_cells, False)
    book = by_the_book(problem, max_cells)
    if any(isinstance(x, str) for x in (written, bare, book)):
        assert all(isinstance(x, str) for x in (written, bare, book)), (written, bare, book)
        return "contradiction"
    assert np.array_equal(written, book) and np.array_equal(bare, book)
    assert grade == bare_grade
    return "done" if (written >= 0).all() else "stalled"


@pytest.mark.slow
@pytest.mark.parametrize("shape, paths", [((1, 11), 2), ((11, 1), 2), ((2, 9), 2), ((9, 2), 2), ((6, 8), 2),
                                          ((10, 13), 1)])
def test_the_core_fixes_the_cells_the_book_fixes(shape, paths):
    """On random counts (mostly contradictions) and along removal paths of random fields (a clue
    is kept when trimming no longer solves the puzzle without it), where elimination does the
    most: the same cells fixed, the same contradictions, on thin grids too (edges everywhere).
    (One path on the largest grid: the book takes its time there, and it eliminates dozens of
    times.)"""
    rng = np.random.default_rng(sum(shape) * 7)
    kinds, eliminated = set(), 0
    for _ in range(20):
        kinds.add(_same(make_problem(rng.integers(0, 6, size=shape), rng.random(shape) < 0.7)))
    for _ in range(paths):
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
def test_the_core_agrees_with_the_book_on_random_partial_statuses(rows, cols, p, keep, seed):
    rng = np.random.default_rng(seed)
    field = random_field(rows, cols, p, rng)
    _same(make_problem(status(field), rng.random((rows, cols)) < keep / 100))


@pytest.mark.parametrize("seed", [0, 1])
def test_the_core_keeps_the_reduced_form_on_minimal_search_puzzles(seed):
    """A generated minimal search-grade 23 x 26 puzzle, where trimming eliminates over hundreds
    of rows, fixes some cells and stalls: the book's cells fixed, the reduced form carried through
    the rounds instead of rebuilt."""
    puzzle = generate_puzzle(23, 26, 50, np.random.default_rng(seed), difficulty="search")
    problem = make_problem(puzzle.clues, puzzle.known)
    assert trim.solve(problem).verdict is Verdict.UNDECIDED
    trimmer = Trimmer(problem, proof=False)
    trimmer.load()
    trimmer.run()
    assert len(trimmer._reduced.rows) > 100 and not trimmer.is_done
    assert np.array_equal(trimmer.value, by_the_book(problem))


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
def test_the_core_eliminates_group_by_group_when_the_open_cells_are_too_many(shape):
    """Past max_cells open cells, elimination runs on each group small enough alone and skips
    the others. With a limit of 22: a puzzle that needs elimination, then 3 columns of empty cells
    with their clues, then 4 columns without a clue (open cells in no equation, so more than 22
    stay open throughout): the book's cells fixed, and eliminating group by group fixes some."""
    rng = np.random.default_rng(sum(shape))
    for _ in range(40):
        field = rng.random(shape) < rng.uniform(0.3, 0.7)
        known = _removal_path(field, rng)
        rows = shape[0]
        wide = np.hstack([field, np.zeros((rows, 7), dtype=bool)])
        wide_known = np.hstack([known, np.ones((rows, 3), dtype=bool), np.zeros((rows, 4), dtype=bool)])
        problem = make_problem(status(wide), wide_known)
        assert _same(problem, 22) == "stalled"  # the 4 columns stay open
        trimmer = Trimmer(problem, 22)
        trimmer.load()
        trimmer.run()
        # the open cells when each elimination step came (the proof fixes each cell once)
        open_then, eliminated_with_many_open = problem.cells, False
        for step in trimmer.steps:
            eliminated_with_many_open |= step.rule == "elimination" and open_then > 22
            open_then -= len(step.cells)
        if eliminated_with_many_open:
            break
    assert eliminated_with_many_open


def test_the_core_stops_at_the_deadline():
    puzzle = generate_puzzle(12, 17, 50, np.random.default_rng(3), difficulty="advanced")
    problem = make_problem(puzzle.clues, puzzle.known)
    trimmer = Trimmer(problem, proof=False)
    trimmer.load()
    with pytest.raises(TimeUp):
        trimmer.run(time.perf_counter() - 1)
    assert trimmer.timed_out and not trimmer.is_done
    again = Trimmer(problem, proof=False)
    assert again.fixes_all() and not again.timed_out


@pytest.mark.slow
@pytest.mark.parametrize("difficulty", ["basic", "advanced", "elimination", "search"])
def test_the_grade_checks_are_trims_verdicts(difficulty):
    """is_trimmed is trim's verdict, is_advanced its pairwise rules alone, and the grade without
    the proof is the one trim's trace shows."""
    for seed in range(3):
        puzzle = generate_puzzle(7, 16, 50, np.random.default_rng(seed), difficulty=difficulty)
        problem = make_problem(puzzle.clues, puzzle.known)
        result = trim.solve(problem)
        assert is_trimmed(problem) == (result.verdict is Verdict.UNIQUE) == (difficulty != "search")
        assert is_advanced(problem) == (difficulty in ("basic", "advanced"))
        trimmer = Trimmer(problem, proof=False)
        trimmer.load()
        trimmer.run()
        assert trimmer.grade == difficulty == result.grade


def test_without_the_proof_a_contradiction_names_no_clue():
    problem = make_problem(np.array([[3, 0, 0]]), np.ones((1, 3), dtype=bool))
    with pytest.raises(Contradiction, match="the clues contradict each other"):
        Trimmer(problem, proof=False).load()
    with pytest.raises(Contradiction, match=r"clue r1c1 = 3 cannot be met: 0 mine\(s\) around it and 2 open cell\(s\) \(r1c1 r1c2\), 1 short"):
        Trimmer(problem).load()
    assert not Trimmer(problem, proof=False).fixes_all()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.integers(1, 9), cols=st.integers(1, 9), p=st.integers(10, 90), keep=st.integers(20, 100),
    max_cells=st.integers(1, 12), seed=st.integers(0, 2**32 - 1),
)
def test_the_core_agrees_with_the_book_when_elimination_takes_small_groups(rows, cols, p, keep, max_cells, seed):
    """With groups above max_cells left out, elimination runs group by group and skips a group of
    the same equations that gave nothing before: the book's cells still."""
    rng = np.random.default_rng(seed)
    field = random_field(rows, cols, p, rng)
    _same(make_problem(status(field), rng.random((rows, cols)) < keep / 100), max_cells)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.integers(1, 9), cols=st.integers(1, 9), p=st.integers(10, 90), keep=st.integers(20, 100),
    moved=st.integers(1, 100), max_cells=st.sampled_from([8, 16, 24, ELIMINATION_MAX_CELLS]), seed=st.integers(0, 2**32 - 1),
)
def test_recounted_equations_lead_where_the_new_clues_do(rows, cols, p, keep, moved, max_cells, seed):
    """When the field changes under open cells (as the classic generator moves mines), `recount`
    gives each equation on them its new count, and the rules then fix what a trimmer built from
    the new clues, with the cells fixed so far given, fixes: the equations derived before still
    follow from the new clues."""
    rng = np.random.default_rng(seed)
    field = random_field(rows, cols, p, rng)
    known = rng.random((rows, cols)) < keep / 100
    trimmer = Trimmer(make_problem(status(field), known), max_cells, proof=False)
    trimmer.load()
    trimmer.run()
    before = trimmer.value.ravel()
    new = field.ravel().copy()
    flip = (before == OPEN) & (rng.random(new.size) < moved / 100)
    new[flip] = rng.random(int(flip.sum())) < 0.5
    trimmer.recount(np.flatnonzero(new != field.ravel()), new)
    trimmer.run()
    fresh = Trimmer(make_problem(status(new.reshape(rows, cols)), known, fixed=before.reshape(rows, cols)), max_cells,
                    proof=False)
    fresh.load()
    fresh.run()
    assert np.array_equal(trimmer.value, fresh.value)
    fixed = trimmer.value.ravel() >= 0
    assert np.array_equal(trimmer.value.ravel()[fixed], new[fixed].astype(np.int8))


def test_recount_refuses_a_fixed_cell():
    trimmer = Trimmer(make_problem(np.array([[0, 1, 1]])), proof=False)
    trimmer.load()
    trimmer.run()
    assert trimmer.value.tolist() == [0, 0, 1]
    with pytest.raises(ValueError, match="r1c1 is fixed"):
        trimmer.recount([0], [1, 0, 1])
