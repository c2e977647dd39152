"""The count model: one definition of a window sum, the matrix built from it, the algebra."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from conftest import ODD_SHAPES
from recon import constraint_matrix, is_solution, make_problem, status, window_sizes
from recon.model import WINDOW, window_cells, window_index, windows_of


def naive_status(field: np.ndarray) -> np.ndarray:
    """Count mines in each 3x3 window with plain loops: an independent oracle."""
    rows, cols = field.shape
    out = np.zeros((rows, cols), dtype=int)
    for r in range(rows):
        for c in range(cols):
            for rr in range(r - 1, r + 2):
                for cc in range(c - 1, c + 2):
                    if 0 <= rr < rows and 0 <= cc < cols:
                        out[r, c] += int(field[rr, cc])
    return out


def tridiagonal_ones(k: int) -> np.ndarray:
    return (np.abs(np.subtract.outer(np.arange(k), np.arange(k))) <= 1).astype(int)


fields = st.tuples(st.integers(1, 9), st.integers(1, 9)).flatmap(lambda shape: arrays(bool, shape))


@given(fields)
def test_status_matches_naive_loops(field):
    assert np.array_equal(status(field), naive_status(field))


@given(fields)
def test_constraint_matrix_gives_the_same_sums(field):
    a = constraint_matrix(field.shape)
    assert a.shape == (field.size, field.size)
    assert np.array_equal(a @ field.ravel().astype(int), status(field).ravel())


@given(fields, st.data())
def test_constraint_matrix_rows_follow_the_known_mask(field, data):
    known = data.draw(arrays(bool, field.shape))
    a = constraint_matrix(field.shape, known)
    assert a.shape == (int(known.sum()), field.size)
    assert np.array_equal(a @ field.ravel().astype(int), status(field)[known])


@given(fields)
def test_status_is_separable(field):
    n, m = field.shape
    assert np.array_equal(status(field), tridiagonal_ones(n) @ field.astype(int) @ tridiagonal_ones(m))


@pytest.mark.parametrize("k", range(1, 31))
def test_tridiagonal_ones_is_singular_exactly_when_k_is_2_mod_3(k):
    rank = np.linalg.matrix_rank(tridiagonal_ones(k))
    assert (rank < k) == (k % 3 == 2)
    if k % 3 == 2:
        null = np.array([1, -1, 0] * k)[:k]
        assert not (tridiagonal_ones(k) @ null).any()


def test_window_sizes_corners_edges_inside():
    sizes = window_sizes((4, 5))
    assert sizes[0, 0] == sizes[0, 4] == sizes[3, 0] == sizes[3, 4] == 4
    assert sizes[0, 2] == sizes[2, 0] == sizes[3, 2] == sizes[1, 4] == 6
    assert sizes[1, 1] == sizes[2, 3] == 9


@pytest.mark.parametrize("shape", ODD_SHAPES)
def test_window_sizes_on_thin_grids(shape):
    sizes = window_sizes(shape)
    assert sizes.shape == shape
    assert np.array_equal(sizes, status(np.ones(shape, dtype=bool)))  # the count of a field of all mines
    assert np.array_equal(sizes, naive_status(np.ones(shape, dtype=bool)))


def test_status_keeps_rows_and_columns_apart():
    field = np.zeros((2, 7), dtype=bool)
    field[0, 6] = True
    counts = status(field)
    assert counts.shape == (2, 7)
    assert counts[:, 5:].tolist() == [[1, 1], [1, 1]] and counts[:, :5].sum() == 0


def test_is_solution_and_shape_mismatch():
    field = np.eye(3, 4, dtype=bool)
    problem = make_problem(status(field))
    assert is_solution(field, problem)
    assert not is_solution(~field, problem)
    assert not is_solution(field.T, problem)


@pytest.mark.parametrize(
    "clues, known, message",
    [
        (np.zeros(3), None, "non-empty 2-D"),
        (np.zeros((0, 3)), None, "non-empty 2-D"),
        (np.full((2, 2), 0.5), None, "whole numbers"),
        (np.zeros((2, 2), int), np.ones((2, 3), bool), "shape of clues"),
        (np.zeros((2, 2), int), np.ones((2, 2), int), "boolean mask"),
        (np.array([[0, 10]]), None, r"counts 0..9, got 10 at r1c2"),
        (np.array([[0], [-1]]), None, r"counts 0..9, got -1 at r2c1"),
    ],
)
def test_make_problem_rejects_bad_arguments(clues, known, message):
    with pytest.raises(ValueError, match=message):
        make_problem(clues, known)


def test_make_problem_ignores_values_under_unknown_cells():
    problem = make_problem(np.array([[0, 99]]), np.array([[True, False]]))
    assert problem.clues.tolist() == [[0, 0]]
    assert not problem.is_full


@pytest.mark.parametrize("k", [1, 2, 3, 5, 8])
def test_line_matrix_is_the_1d_window(k):
    from recon.model import line_matrix, line_sums

    assert np.array_equal(line_matrix(k).toarray(), line_sums(np.eye(k, dtype=int), 0))
    assert np.array_equal(line_matrix(k).toarray(), tridiagonal_ones(k))


@pytest.mark.parametrize("shape", [(1, 7), (7, 1), (2, 5), (4, 6), (1, 300_000), (300_000, 1), (2, 150_000), (600, 500)])
def test_the_windows_of_some_cells_are_those_cells_windows(shape):
    """windows_of (indexed from the cached window_index on small grids, made afresh on large
    ones) lists each cell's window in window_cells' order, -1 for the places outside the grid."""
    rows, cols = shape
    rng = np.random.default_rng(rows + cols)
    some = np.unique(np.concatenate([[0, rows * cols - 1, cols - 1, (rows - 1) * cols],
                                     rng.integers(0, rows * cols, size=200)]))
    got = windows_of(shape, some)
    assert got.shape == (len(some), 9)
    for x, row in zip(some.tolist(), got.tolist()):
        r, c = divmod(x, cols)
        assert row == [(r + dr) * cols + c + dc if 0 <= r + dr < rows and 0 <= c + dc < cols else -1 for dr, dc in WINDOW]
        assert [y for y in row if y >= 0] == [i * cols + j for i, j in window_cells(shape, r, c)]
    if rows * cols <= 100:
        assert (window_index(shape)[some] == got).all()
