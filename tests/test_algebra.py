"""Exact algebra: the chain solve of T_k, every status of small shapes against brute force, random
grids of every size class against complete search, exact big counts, and probabilities."""

from __future__ import annotations

import io
import itertools
import json
from fractions import Fraction

import numpy as np
import pytest

from recon.result import TimeUp
from conftest import brute_force, brute_force_many, keys
from recon import Verdict, make_problem, random_field, solve, status
from recon.io.text import format_status
from recon.cli import main
from recon.counting import count_ambiguous, count_solutions
from recon.engines import algebra, backtrack, milp


def tridiagonal_ones(k):
    return (np.abs(np.subtract.outer(np.arange(k), np.arange(k))) <= 1).astype(np.int64)


@pytest.mark.parametrize("k", range(1, 25))
def test_solve_line_is_exact(k):
    rng = np.random.default_rng(k)
    y = rng.integers(-5, 6, size=(k, 4))
    s = tridiagonal_ones(k) @ y
    solved, ok = algebra.solve_line(s)
    assert np.issubdtype(solved.dtype, np.signedinteger)  # exact integer arithmetic, no float
    if k % 3 == 2:
        assert ok.all()
        h = algebra.null_pattern(k)
        assert not (tridiagonal_ones(k) @ h).any()
        assert np.array_equal(tridiagonal_ones(k) @ solved, s)  # a particular solution
        assert np.array_equal(solved + np.outer(h, y[0] - solved[0]), y)  # y = p + t h
    else:
        assert ok is None and np.array_equal(solved, y)


@pytest.mark.parametrize(("k", "dtype"), [(4999, np.int16), (5456, np.int16), (5457, np.int32), (12000, np.int32)])
def test_chain_does_not_overflow_its_narrow_type(k, dtype):
    """chain() works in int16 while the bound allows; the steepest growing counts (9, 0, 0 repeated
    makes one class gain 9 every 3 cells) must still come out exactly, on both sides of the bound."""
    rng = np.random.default_rng(k)
    steep = np.resize(np.array([9, 0, 0], dtype=np.uint8), k)
    s = np.stack([steep, 9 - steep, rng.integers(0, 10, size=k).astype(np.uint8)], axis=1)
    y = algebra.chain(s)
    ref = np.zeros((k + 1, 3), dtype=np.int64)
    ref[1] = s[0]
    for t in range(2, k + 1):
        ref[t] = (ref[t - 3] if t >= 3 else 0) + s[t - 1].astype(np.int64) - s[t - 2]
    assert np.array_equal(y, ref)
    assert np.abs(ref).max() > 3 * (k // 3) - 9  # the test really reaches the growth bound
    assert y.dtype == dtype
    assert np.array_equal(algebra.chain(s.T, axis=1), ref.T)


def test_solve_line_detects_inconsistent_counts_when_singular():
    _, ok = algebra.solve_line(np.array([[1], [2]]))  # T_2 = [[1, 1], [1, 1]]: both sums must agree
    assert not ok.any()


def _all_statuses(shape):
    rows, cols = shape
    n = rows * cols
    fields = ((np.arange(2**n)[:, None] >> np.arange(n)) & 1).astype(bool).reshape(-1, rows, cols)
    groups: dict[bytes, list[np.ndarray]] = {}
    for f in fields:
        groups.setdefault(status(f).tobytes(), []).append(f)
    return groups


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(r, c) for r in range(1, 6) for c in range(1, 6) if r * c <= 12])
def test_every_status_of_small_shapes_against_brute_force(shape):
    for key, fields in _all_statuses(shape).items():
        clues = np.frombuffer(key, dtype=np.uint8).reshape(shape)
        result = algebra.solve(make_problem(clues), limit=10_000)
        assert result.count_exact and result.solution_count == len(fields)
        assert keys(result.solutions) == keys(fields)


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(4, 4), (2, 8), (8, 2), (3, 5), (5, 3)])
def test_inconsistent_statuses_against_brute_force(shape):
    rng = np.random.default_rng(sum(shape))
    for _ in range(40):
        clues = np.minimum(rng.integers(0, 5, shape), status(np.ones(shape, bool))).astype(np.uint8)
        expected = brute_force(clues)
        result = algebra.solve(make_problem(clues), limit=10_000)
        assert keys(result.solutions) == expected and result.solution_count == len(expected)
        if not expected:
            assert result.verdict is Verdict.NONE and result.reason


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(4, 5), (5, 4), (5, 5), (3, 7), (2, 11)])
def test_every_grid_up_to_5x5_counts_match_brute_force(shape):
    """Counts and solution sets agree with testing all 2**cells fields (33 million for 5x5)."""
    rng = np.random.default_rng(shape[0] * 7 + shape[1])
    statuses = [status(rng.random(shape) < rng.uniform(0.05, 0.95)) for _ in range(150)]
    statuses += [np.minimum(rng.integers(0, 6, shape), status(np.ones(shape, bool))) for _ in range(30)]
    expected = brute_force_many(shape, statuses)
    sizes = set()
    for clues, fields in zip(statuses, expected):
        result = algebra.solve(make_problem(clues.astype(np.uint8)), limit=100_000)
        assert result.count_exact and result.solution_count == len(fields)
        assert keys(result.solutions) == fields
        sizes.add(len(fields))
    assert 0 in sizes and 1 in sizes  # the sample holds inconsistent and unique cases
    assert (max(sizes) > 1) == (2 in (shape[0] % 3, shape[1] % 3))  # several only if a side is 2 mod 3


@pytest.mark.parametrize("shape", [(4, 5), (5, 4), (5, 5)])
def test_counts_match_enumeration_by_search(shape):
    rng = np.random.default_rng(shape[0] * 7 + shape[1])
    for _ in range(100):
        field = rng.random(shape) < rng.uniform(0.05, 0.95)
        problem = make_problem(status(field))
        a = algebra.solve(problem, limit=100_000)
        b = backtrack.solve(problem, limit=100_000)
        assert a.solution_count == b.solution_count and keys(a.solutions) == keys(b.solutions)


@pytest.mark.slow
def test_thousands_of_random_grids_of_every_size_class_against_search():
    rng = np.random.default_rng(2026)
    classes = set()
    for _ in range(1200):
        rows, cols = int(rng.integers(1, 10)), int(rng.integers(1, 10))
        classes.add((rows % 3 == 2) + (cols % 3 == 2))
        field = rng.random((rows, cols)) < rng.uniform(0, 1)
        problem = make_problem(status(field))
        a = algebra.solve(problem, limit=3000)
        b = backtrack.solve(problem, limit=3000)
        assert a.count_exact and b.count_exact
        assert a.solution_count == b.solution_count
        assert keys(a.solutions) == keys(b.solutions)
        assert field.tobytes() in keys(a.solutions)
    assert classes == {0, 1, 2}


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(8, 8), (5, 11), (11, 5), (2, 8)])
def test_larger_counts_match_milp_enumeration(shape):
    rng = np.random.default_rng(shape[1])
    for _ in range(3):
        field = rng.random(shape) < 0.3
        problem = make_problem(status(field))
        a = algebra.solve(problem, limit=200)
        m = milp.solve(problem, limit=200)
        if m.count_exact:
            assert a.solution_count == m.solution_count and keys(a.solutions) == keys(m.solutions)


def _flippable(rows, cols, rng):
    """A field in which every column can flip along the null pattern of T_rows."""
    field = rng.random((rows, cols)) < 0.5
    v = algebra.null_pattern(rows)
    field[v == 1] = False
    field[v == -1] = True
    return field


def test_exact_count_is_a_big_integer():
    field = _flippable(200, 199, np.random.default_rng(1))  # 200 = 2 (mod 3), 199 = 1
    result = algebra.solve(make_problem(status(field)), limit=3)
    assert result.count_exact and result.solution_count == 2**199
    assert len(result.solutions) == 3 and all(np.array_equal(status(s), status(field)) for s in result.solutions)


def test_transposed_lines_case():
    field = _flippable(5, 7, np.random.default_rng(2)).T  # 7 x 5: the rows flip
    result = algebra.solve(make_problem(status(field)), limit=1000)
    assert result.solution_count == 2**7 == backtrack.solve(make_problem(status(field)), limit=1000).solution_count


def test_both_sides_singular_with_many_solutions():
    field = _flippable(8, 8, np.random.default_rng(3))
    a = algebra.solve(make_problem(status(field)), limit=10_000)
    b = backtrack.solve(make_problem(status(field)), limit=10_000)
    assert a.solution_count == b.solution_count >= 8 and keys(a.solutions) == keys(b.solutions)


def test_partial_status_is_not_for_algebra():
    with pytest.raises(algebra.NotApplicable):
        algebra.solve(make_problem(np.zeros((2, 2), np.uint8), np.eye(2, dtype=bool)))


@pytest.mark.parametrize("shape", [(5, 5), (2, 7), (8, 4), (4, 4)])
def test_probabilities_are_exact_fractions_of_the_enumerated_solutions(shape):
    rng = np.random.default_rng(sum(shape))
    for _ in range(5):
        field = rng.random(shape) < 0.5
        problem = make_problem(status(field))
        counted = count_solutions(problem, probabilities=True)
        solutions = backtrack.solve(problem, limit=10_000).solutions
        mean = np.mean(solutions, axis=0)
        assert counted.exact and counted.count == len(solutions)
        for r in range(shape[0]):
            for c in range(shape[1]):
                assert counted.probabilities[r][c] == Fraction(int(round(mean[r, c] * len(solutions))), len(solutions))


@pytest.mark.parametrize("shape", [(1, 9), (9, 1), (2, 7), (4, 4), (3, 5)])
def test_counts_deduced_by_the_compiled_trimmer_equal_brute_force(shape):
    """A count deduces with the compiled trimmer where it pays (past 60,000 clues; a 1000x1000
    status with three clues in four was a lower bound after 60 s in Python, and is counted in 8
    s): asked for here on small statuses, in process and (under a time limit, on Linux) in its
    child, the counts and probabilities are brute force's, with and without a total, as the
    Python trimmer's are."""
    import sys

    pytest.importorskip("numba")
    rng = np.random.default_rng(sum(shape) * 11)
    limits = [None, 60] if sys.platform.startswith("linux") else [None]
    for i in range(10):
        field = rng.random(shape) < 0.4
        known = rng.random(shape) < rng.uniform(0.4, 0.9)
        truth = [np.frombuffer(b, dtype=bool).reshape(shape) for b in brute_force(status(field), known)]
        mines = int(field.sum()) if i % 3 == 0 else None
        if mines is not None:
            truth = [f for f in truth if f.sum() == mines]
        problem = make_problem(status(field), known, mines=mines)
        for time_limit in limits:
            counted = count_solutions(problem, probabilities=True, compiled_trim=True, time_limit=time_limit, crosscheck=False)
            assert counted.exact and counted.count == len(truth), (shape, i, time_limit)
            mean = [[Fraction(sum(int(f[r, c]) for f in truth), len(truth)) for c in range(shape[1])] for r in range(shape[0])]
            assert counted.probabilities == mean


def test_count_partial_status_by_groups_and_limit():
    problem = make_problem(np.zeros((3, 3), np.uint8), np.zeros((3, 3), bool))
    nothing = count_solutions(problem, limit=100)
    assert nothing.exact and nothing.count == 512  # no clue: nine free cells, no enumeration needed
    rng = np.random.default_rng(4)
    field = rng.random((3, 40)) < 0.5
    known = np.zeros((3, 40), bool)
    known[1, ::2] = True  # one row of clues, every other column: one long group, many solutions
    stopped = count_solutions(make_problem(status(field), known), limit=10, super_cells=False)
    assert not stopped.exact and stopped.count >= 10 and "lower bound" in stopped.reason
    assert "a group had more than 10 solutions" in stopped.reason and "time" not in stopped.reason
    # solve's own count, out of time: the solutions solve found are the bound, and it says why
    problem = make_problem(status(field), known)
    found = solve(problem, max_solutions=3)
    late = count_ambiguous(problem, found, time_limit=1e-9)
    assert not found.count_exact and late.count == found.solution_count >= 3
    assert late.reason == f"the time limit ran out; the {found.solution_count} solve found are a lower bound"
    assert count_solutions(make_problem(status(field), known), limit=10).exact  # super cells along the frontier


def strip_count(clues: np.ndarray, known: np.ndarray):
    """The oracle for a strip of at most 3 rows: fields counted column by column (the state is
    the last two columns, each column's clues checked once the next is placed), forward and
    backward, so every cell's mine count comes too. Returns (count, mines per cell)."""
    rows, cols = clues.shape
    columns = range(1 << rows)
    bit = lambda col, i: (col >> i) & 1 if 0 <= i < rows else 0  # noqa: E731

    def fits(a, b, c, j):  # columns j-1, j, j+1 hold a, b, c: column j's clues hold?
        return all(not known[i, j] or clues[i, j] == sum(bit(x, i + d) for x in (a, b, c) for d in (-1, 0, 1))
                   for i in range(rows))

    forward = [{(0, b): 1 for b in columns}]  # (column j-1, column j): fields of columns < j+1 that fit
    for j in range(1, cols):
        step: dict = {}
        for (a, b), n in forward[-1].items():
            for c in columns:
                if fits(a, b, c, j - 1):
                    step[b, c] = step.get((b, c), 0) + n
        forward.append(step)
    backward = [None] * cols  # (column j-1, column j): the fields of columns > j that fit
    backward[-1] = {(a, b): int(fits(a, b, 0, cols - 1)) for a in columns for b in columns}
    for j in range(cols - 2, -1, -1):
        backward[j] = {(a, b): sum(backward[j + 1][b, c] for c in columns if fits(a, b, c, j))
                       for a in columns for b in columns}
    count = sum(n * backward[0][key] for key, n in forward[0].items())
    tally = np.zeros((rows, cols), dtype=object)
    for j in range(cols):
        for (a, b), n in forward[j].items():
            for i in range(rows):
                if bit(b, i):
                    tally[i, j] += n * backward[j][a, b]
    return count, tally


@pytest.mark.parametrize("shape", [(1, 600), (2, 400), (400, 2), (3, 300), (300, 3)])
def test_a_long_strip_is_counted_along_its_length_either_way_round(shape):
    """A strip's open cells are counted along the strip whichever way it lies: exactly, within
    1,000 states a step, with every probability, against a column-by-column count. (Its equations
    were taken in clue order, so a wide strip's frontier ran along its rows and held its whole
    length: 3x3000 with 60 % of the clues hidden gave only a lower bound after 60 s.)"""
    rng = np.random.default_rng(sum(shape))
    field = rng.random(shape) < 0.4
    clues, known = status(field), rng.random(shape) >= 0.6
    flip = shape[0] > 3
    truth, tally = strip_count(*((clues.T, known.T) if flip else (clues, known)))
    if flip:
        tally = tally.T
    counted = count_solutions(make_problem(clues, known), probabilities=True, limit=1000)
    assert counted.exact and counted.count == truth and truth > 10**20
    assert all(counted.probabilities[r][c] == Fraction(tally[r, c], truth) for r in range(shape[0]) for c in range(shape[1]))


@pytest.mark.parametrize("by_mines", [True, False])
@pytest.mark.parametrize("shape", [(3, 120), (120, 3), (2, 150)])
def test_a_group_with_more_solutions_than_the_limit_is_counted_along_its_frontier(shape, by_mines):
    """The second pass (after SAT's backbone) counts a group that cannot be listed, more
    solutions than the limit, along its frontier: exactly, with every cell's share, against the
    column-by-column count, split by mines (for a total) or not. (It listed super cells, SAT's
    solutions and the search's up to the limit and stopped at a lower bound, which on an 8x300
    strip took the whole minute.)"""
    from recon.counting import _along, _enumerate_group
    from recon.model import window_cells

    rng = np.random.default_rng(sum(shape) + 1)
    field = rng.random(shape) < 0.4
    clues, known = status(field), rng.random(shape) >= 0.6
    cols = shape[1]
    equations = [([r * cols + c for r, c in window_cells(shape, i, j)], int(clues[i, j])) for i, j in zip(*np.nonzero(known))]
    cells = sorted({x for eq, _ in equations for x in eq})
    free = field.size - len(cells)  # no clue sees them: a factor of 2 each in the oracle's count
    flip = shape[0] > 3
    truth, tally = strip_count(*((clues.T, known.T) if flip else (clues, known)))
    tally = (tally.T if flip else tally).ravel()
    count, shares, complete, how, per_k = _enumerate_group(cells, _along(equations, cols), 1000, None, by_mines=by_mines)
    assert complete and how == "super cells along the frontier" and count > 1000
    assert (len(per_k) > 1) == by_mines
    assert count << free == truth
    assert all(shares[x] << free == tally[x] for x in cells)


@pytest.mark.parametrize("by_mines", [True, False])
@pytest.mark.parametrize("shape", [(9, 9), (6, 11), (11, 6)])
def test_a_group_too_wide_for_its_frontier_is_counted_by_splitting(shape, by_mines):
    """A blob whose frontier needs more states than the limit (here a limit of 4 states, and of
    4 listed solutions) is counted by splitting: exactly, with every cell's share, against the
    backtracking engine listing every solution; split by mines (for a total) or not."""
    from recon.counting import _along, _enumerate_group
    from recon.engines.backtrack import iter_equation_solutions
    from recon.model import window_cells

    rng = np.random.default_rng(sum(shape) + 5)
    cols = shape[1]
    field = rng.random(shape) < 0.4
    clues, known = status(field), rng.random(shape) >= 0.6
    equations = [([r * cols + c for r, c in window_cells(shape, i, j)], int(clues[i, j])) for i, j in zip(*np.nonzero(known))]
    cells = sorted({x for eq, _ in equations for x in eq})
    truth, tally = 0, dict.fromkeys(cells, 0)
    for value in iter_equation_solutions(cells, equations):
        truth += 1
        for x in cells:
            tally[x] += value[x]
    count, shares, complete, how, per_k = _enumerate_group(cells, _along(equations, cols), 4, None, by_mines=by_mines)
    assert complete and how == "splitting" and count == truth > 4
    assert shares == tally
    assert (len(per_k) > 1) == by_mines


@pytest.mark.parametrize("total", [False, True])
@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3)])
def test_a_count_split_past_its_limit_is_exact_with_and_without_a_total(shape, total):
    """With a limit of 4 (assignments, listed solutions and frontier states) the count of a
    partial status falls through to splitting, by mines when a total is given and whole when
    not: the count and every cell's probability equal brute force's over every field. (Strips
    one or two wide stop earlier: their frontier holds few states.)"""
    rng = np.random.default_rng(sum(shape) + total)
    for _ in range(50):
        field = rng.random(shape) < 0.4
        clues, known = status(field), rng.random(shape) >= 0.6
        fields = [np.frombuffer(f, dtype=bool).reshape(shape) for f in brute_force(clues, known)]
        mines = int(field.sum()) if total else None
        fields = [f for f in fields if mines is None or f.sum() == mines]
        counted = count_solutions(make_problem(clues, known, mines=mines), probabilities=True, limit=4, crosscheck=False)
        assert counted.exact and counted.count == len(fields)
        assert counted.probabilities == [[Fraction(sum(int(f[r, c]) for f in fields), len(fields)) for c in range(shape[1])]
                                         for r in range(shape[0])]
        if "splitting" in counted.method:
            return
    pytest.fail("no status was counted by splitting")


def _fill_edges(n: int, cliques, order: list[int]) -> int:
    """The edges eliminating the vertices in this order adds to the graph (the oracle)."""
    around = [set() for _ in range(n)]
    for clique in cliques:
        for a, b in itertools.combinations(clique, 2):
            around[a].add(b)
            around[b].add(a)
    added = 0
    for v in order:
        near = sorted(around[v])
        for a, b in itertools.combinations(near, 2):
            if b not in around[a]:
                around[a].add(b)
                around[b].add(a)
                added += 1
        for a in near:
            around[a].discard(v)
    return added


@pytest.mark.parametrize("shape", [(1, 12), (12, 1), (2, 9), (9, 2), (5, 5)])
def test_the_elimination_order_that_orders_splitting_follows_the_grid(shape):
    """`_elimination_order` (which super cell the split count takes first) eliminates every
    vertex once; on a chordal graph (the windows of a strip one or two wide, a tree) it adds no
    edge, and its width is the largest clique's size less one; on a square's 3x3 windows (not
    chordal) it adds edges, but no more than eliminating row by row does."""
    from recon.counting import _elimination_order
    from recon.model import window_cells

    rows, cols = shape
    windows = [[r * cols + c for r, c in window_cells(shape, i, j)] for i in range(rows) for j in range(cols)]
    order, width = _elimination_order(rows * cols, windows)
    assert sorted(order) == list(range(rows * cols))
    if min(shape) <= 2:
        assert _fill_edges(rows * cols, windows, order) == 0
        assert width == max(len(window) for window in windows) - 1
    else:
        assert 0 < _fill_edges(rows * cols, windows, order) <= _fill_edges(rows * cols, windows, list(range(rows * cols)))
    rng = np.random.default_rng(rows * cols)
    parent = [int(rng.integers(v)) for v in range(1, 20)]  # a random tree on 20 vertices
    edges = [[v, p] for v, p in zip(range(1, 20), parent)]
    tree_order, tree_width = _elimination_order(20, edges)
    assert sorted(tree_order) == list(range(20)) and _fill_edges(20, edges, tree_order) == 0 and tree_width == 1
    # it stops once the width passes what it is asked for, or at the deadline
    assert _elimination_order(rows * cols, windows, widest=width) == (order, width)
    assert _elimination_order(rows * cols, windows, widest=width - 1) is None
    assert _elimination_order(400, [[i, i + 1] for i in range(399)], deadline=0.0) is None


@pytest.mark.parametrize("shape", [(1, 30), (30, 1), (2, 20), (20, 2), (12, 12)])
def test_the_frontier_width_is_the_most_equations_open_across_a_cut(shape):
    """`_frontier_width` (with `_split_width`, it chooses whether a group is split before it is
    counted along the frontier) is the most equations with super cells on both sides of a cut in
    the frontier's order (counted here cut by cut); a strip one or two wide is thin, a square
    blob is not."""
    from recon.counting import _along, _frontier_width, _super_cells
    from recon.model import window_cells

    rng = np.random.default_rng(sum(shape))
    cols = shape[1]
    field = rng.random(shape) < 0.4
    clues = status(field)
    equations = _along([([r * cols + c for r, c in window_cells(shape, i, j)], int(clues[i, j]))
                        for i in range(shape[0]) for j in range(shape[1])], cols)
    cells = sorted({x for eq, _ in equations for x in eq})
    order = _super_cells(cells, equations)
    spans = [[i for i, (key, _) in enumerate(order) if e in key] for e in range(len(equations))]
    truth = max(sum(1 for span in spans if min(span) <= cut < max(span)) for cut in range(len(order)))
    width = _frontier_width(order)
    assert width == truth
    assert (width <= 8) if min(shape) <= 2 else (width > 12)


@pytest.mark.parametrize("shape", [(3, 40), (40, 3)])
def test_a_count_cut_short_keeps_every_solution_sat_listed(monkeypatch, shape):
    """When SAT lists SAT_FIRST solutions of a group and the search that takes over runs out of
    time with fewer, the lower bound is still SAT's (it used to be the search's: 0 when it found
    none in the time left)."""
    from recon import counting as count
    from recon.engines import sat

    if not sat.AVAILABLE:
        pytest.skip("needs python-sat")

    def slow(*args, **kwargs):
        raise TimeUp
        yield  # a generator that runs out of time before its first solution

    monkeypatch.setattr(count, "SAT_FIRST", 7)
    monkeypatch.setattr(count.backtrack, "iter_equation_solutions", slow)
    field = np.random.default_rng(4).random(shape) < 0.5
    known = np.zeros(shape, bool)
    known[tuple(slice(None) if k == 40 else 1 for k in shape)] = True  # one line of clues: one long group
    counted = count_solutions(make_problem(status(field), known), limit=100, super_cells=False)
    free = int(np.prod(shape)) - int(status(known.astype(bool)).astype(bool).sum())  # cells no clue sees
    assert not counted.exact and counted.count >= 7 * 2**free and "lower bound" in counted.reason


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(4, 30), (30, 4), (3, 40)])
def test_count_partial_status_splits_independent_groups(shape):
    """Two ambiguous regions far apart: counted apart, the product agrees with plain enumeration."""
    rng = np.random.default_rng(sum(shape))
    checked = 0
    for _ in range(40):
        field = rng.random(shape) < 0.4
        known = np.ones(shape, bool)
        long_axis = 1 if shape[1] > shape[0] else 0
        n = shape[long_axis]
        for lo in (0, n - 8):  # drop clues at random near both ends
            region = [slice(None), slice(None)]
            region[long_axis] = slice(lo, lo + 8)
            known[tuple(region)] &= rng.random(known[tuple(region)].shape) < 0.5
        problem = make_problem(status(field), known)
        result = count_solutions(problem, probabilities=True)
        if result.count < 4 or result.count > 2000 or result.groups < 2:
            continue
        try:
            solutions = list(backtrack.iter_solutions(problem, time_limit=5))
        except TimeUp:
            continue
        assert result.exact and result.count == len(solutions)
        tally = np.sum(solutions, axis=0)
        assert [[p * len(solutions) for p in row] for row in result.probabilities] == tally.tolist()
        checked += 1
    assert checked >= 3


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), stdout=out, stderr=err), out.getvalue(), err.getvalue()


def test_count_cli_text_and_json(tmp_path):
    field = _flippable(5, 4, np.random.default_rng(4))
    path = tmp_path / "s.txt"
    path.write_text("".join("".join(map(str, row)) + "\n" for row in status(field)))
    code, out, err = run("count", str(path), "--probabilities")
    assert code == 3 and out.splitlines()[0] == "16 solutions"
    grid = [line.split() for line in out.splitlines()[1:]]
    assert len(grid) == 5 and all(len(row) == 4 for row in grid)
    assert "cells are certain" in err
    code, out, _ = run("count", str(path), "--probabilities", "--json")
    data = json.loads(out)
    assert data["count"] == 16 and data["count_exact"] and len(data["probabilities"]) == 5
    assert all(Fraction(p) in (0, 1, Fraction(1, 2)) for row in data["probabilities"] for p in row)


def test_count_cli_exit_codes(tmp_path):
    path = tmp_path / "none.txt"
    path.write_text("1111\n1111\n1110\n")
    code, out, _ = run("count", str(path))
    assert code == 1 and out == "0 solutions\n"
    path.write_text("????\n????\n")
    code, out, _ = run("count", str(path), "--limit", "10")
    assert code == 3 and out == "256 solutions\n"  # no clue sees a cell: 2**8, no enumeration
    rng = np.random.default_rng(1)  # a wide ambiguous region: neither super cells nor search finish at once
    path.write_text(format_status(status(rng.random((30, 30)) < 0.5), rng.random((30, 30)) < 0.25))
    code, out, _ = run("count", str(path), "--time-limit", "1")  # room for a first solution under load
    assert code == 4 and out.startswith("at least ")


def test_solve_uses_algebra_first_on_full_status():
    field = random_field(30, 32, 30, np.random.default_rng(5))
    from recon import solve

    result = solve(status(field))
    assert list(result.engines)[0] == "algebra" and result.verdict is Verdict.UNIQUE


@pytest.mark.parametrize("shape", [(1, 14), (14, 1), (2, 8), (8, 2), (4, 5)])
def test_count_with_and_without_python_sat_agree(monkeypatch, shape):
    """With python-sat, count proves the cells every solution shares by SAT and enumerates groups
    by SAT first; without it, proves them by MILP and enumerates by backtracking. Same counts,
    same probabilities, and either way the cells named as varying are those whose probability is
    neither 0 nor 1; with a total too."""
    from recon import counting as count_module
    from recon.engines import sat

    if not sat.AVAILABLE:
        pytest.skip("python-sat is not installed")
    rng = np.random.default_rng(sum(shape) + 5)
    seen = 0
    for _ in range(25):
        field = rng.random(shape) < 0.45
        known = rng.random(shape) < 0.45
        mines = int(field.sum()) if rng.random() < 0.3 else None
        problem = make_problem(status(field), known, mines=mines)
        truth = sum(1 for f in backtrack.iter_solutions(make_problem(status(field), known)) if mines in (None, f.sum()))
        with_sat = count_solutions(problem, probabilities=True, super_cells=False)
        with monkeypatch.context() as patch:
            patch.setattr(count_module.sat, "AVAILABLE", False)
            without = count_solutions(problem, probabilities=True, super_cells=False)
        by_super_cells = count_solutions(problem, probabilities=True)  # an independent third way
        assert with_sat.exact and without.exact and with_sat.count == without.count == truth
        assert with_sat.probabilities == without.probabilities == by_super_cells.probabilities
        assert by_super_cells.count == with_sat.count and by_super_cells.exact
        varying = sorted((r, c) for r, row in enumerate(with_sat.probabilities) for c, p in enumerate(row) if 0 < p < 1)
        assert with_sat.varying == without.varying == varying == by_super_cells.varying
        assert "SAT proved" not in without.method
        seen += with_sat.count > 1
    assert seen >= 5


def test_count_ambiguous_keeps_the_lower_bound_solve_proved_and_names_the_varying_cells():
    """Past its limit, the count of an ambiguous status is the larger of its own lower bound and the
    solutions solve found; with python-sat the varying cells are still named, exactly."""
    from recon import solve
    from recon.counting import count_ambiguous

    rng = np.random.default_rng(4)
    field = rng.random((2, 8)) < 0.5
    known = np.zeros((2, 8), bool)
    known[0, ::3] = True
    problem = make_problem(status(field), known)
    result = solve(problem, max_solutions=5)
    counted = count_ambiguous(problem, result, limit=2, super_cells=False)
    assert not counted.exact and counted.count >= 6 and "lower bound" in counted.reason
    every = np.array([np.frombuffer(b, dtype=bool).reshape(2, 8) for b in brute_force(status(field), known)])
    assert len(every) > 6
    assert counted.varying == [tuple(int(v) for v in rc) for rc in np.argwhere(every.min(axis=0) != every.max(axis=0))]
    with pytest.raises(ValueError, match="several solutions"):
        unique = make_problem(status(rng.random((3, 4)) < 0.5))  # 3x4: neither side is 2 mod 3, one solution
        count_ambiguous(unique, solve(unique))


def _two_clues_apart(shape):
    """A clue 1 at flat cells 1 and 18: two groups apart, the cells between free."""
    clues = np.zeros(shape, np.uint8)
    known = np.zeros(shape, bool)
    for at in (1, 18):
        clues.flat[at], known.flat[at] = 1, True
    return make_problem(clues, known)


@pytest.mark.parametrize("shape", [(1, 20), (20, 1)])
def test_count_past_its_limit_is_a_true_lower_bound(monkeypatch, shape):
    """Two groups of 3 solutions each (a clue 1 near each end) and 14 free cells between: past a
    limit of 1 per group the count is a lower bound, never above the truth (9 x 2**14): at least 2
    per group, as SAT's backbone (or MILP's, without python-sat) saw cells of each vary."""
    from recon import counting as count_module
    from recon.engines import sat

    problem = _two_clues_apart(shape)
    truth = count_solutions(problem)
    assert truth.exact and truth.count == 9 * 2**14 and truth.groups == 2
    for available in (sat.AVAILABLE, False):  # SAT's backbone, then MILP's
        monkeypatch.setattr(count_module.sat, "AVAILABLE", available)
        stopped = count_solutions(problem, limit=1, super_cells=False)
        assert not stopped.exact and stopped.count == 4 * 2**14 < truth.count
        assert stopped.varying is not None and len(stopped.varying) == 6 + 14


@pytest.mark.parametrize("shape", [(1, 20), (20, 1), (2, 20)])
def test_groups_reached_past_the_deadline_are_not_counted_but_bound_below(monkeypatch, shape):
    """Two groups (a clue 1 near each end) and free cells between. Past the deadline no group is
    made or counted (on a large board that alone took a while): the count is a lower bound of 0,
    and the quick pass gives up at once. A deadline passing while the first group is counted
    leaves the second uncounted: at least 2 for it, as SAT (or MILP) saw its cells vary. With
    time, the same groups count exactly."""
    import time

    from recon import counting as count_module
    from recon.engines import hybrid

    problem = _two_clues_apart(shape)
    truth = count_solutions(problem)
    each = 6 if 2 in shape else 3  # a clue 1 sees `each` cells, one of them a mine
    free = problem.cells - 2 * each  # cells no clue sees
    assert truth.exact and truth.count == each * each * 2**free
    search, _, _ = hybrid.deduce(problem)
    late = time.perf_counter() - 1
    n, exact, tally, method, _, groups = count_module._by_groups(problem, search, 100, late)
    assert (n, exact, tally, groups) == (0, False, None, 0) and "time limit ran out" in method
    assert count_module._by_groups(problem, search, 100, late, quick=True)[:2] == (0, False)
    n, exact, _, _, _, groups = count_module._by_groups(problem, search, 100, None)
    assert exact and groups == 2 and n == truth.count == count_solutions(problem, super_cells=False).count

    deadline = time.perf_counter() + 0.5
    enumerate_group = count_module._enumerate_group

    def then_late(*args, **kwargs):
        counted = enumerate_group(*args, **kwargs)
        time.sleep(max(deadline - time.perf_counter(), 0) + 0.01)
        return counted

    monkeypatch.setattr(count_module, "_enumerate_group", then_late)
    n, exact, _, _, _, groups = count_module._by_groups(problem, search, 100, deadline)
    assert not exact and groups == 2 and n == each * 2 * 2**free


@pytest.mark.parametrize("by_sat", [True, False])
def test_count_names_no_varying_cells_without_a_solution(monkeypatch, by_sat):
    """A backbone that proves nothing either way (what SAT or MILP answers when there is no
    solution) leaves the varying cells unknown (None), rather than calling every open cell varying."""
    from recon.engines import milp, sat

    if by_sat and not sat.AVAILABLE:
        pytest.skip("python-sat is not installed")
    monkeypatch.setattr(sat, "AVAILABLE", by_sat)
    clues = np.zeros((1, 6), np.uint8)
    known = np.zeros((1, 6), bool)
    clues[0, 1], known[0, 1] = 1, True  # r1c1..r1c3 hold one mine: open cells to ask about
    assert count_solutions(make_problem(clues, known), super_cells=False).varying == [(0, x) for x in range(6)]
    monkeypatch.setattr(sat if by_sat else milp, "backbone", lambda problem, cells, deadline=None, values=None: ({}, set(), True))
    assert count_solutions(make_problem(clues, known), super_cells=False).varying is None
