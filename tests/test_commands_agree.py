"""The commands against brute force, through the command line and its JSON: `solve`, `count
--probabilities` and `explain` on one small input give the verdict, the solutions, the count and
each cell's probability that listing every field gives. The engines are held to brute force in
test_engines and bench_disagreement; this holds what the commands read and print. (The inputs are
made with recon's `status`; the oracle is conftest's `brute_force`, which counts windows itself.)"""

from __future__ import annotations

import io
import json
from fractions import Fraction

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import brute_force, keys
from recon import parse_field, status
from recon.cli import main

SHAPES = [(1, 1), (1, 5), (1, 9), (5, 1), (9, 1), (2, 2), (2, 5), (5, 2), (3, 3), (3, 4), (4, 3)]


def run(argv: list[str]) -> tuple[int, dict | None]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err)
    return code, (json.loads(out.getvalue()) if code in (0, 1, 3) else None)


def as_fields(solutions: set[bytes], shape: tuple[int, int]) -> np.ndarray:
    """brute_force's solutions as an array (solutions, rows, cols) of 0/1."""
    return np.array([np.frombuffer(f, dtype=bool).reshape(shape) for f in solutions], dtype=np.int64).reshape(-1, *shape)


def check(path: str, extra: list[str], matches: np.ndarray, too_large: bool) -> None:
    """Hold solve, count and explain on path to the fields brute force found to match; where a
    number is larger than the cells around it, each refuses the file (exit 2) instead."""
    if too_large:
        for command in ("solve", "count", "explain"):
            assert run([command, path, "--json", *extra])[0] == 2
        return
    want = {0: "none", 1: "unique"}.get(len(matches), "multiple")
    code, solved = run(["solve", path, "--json", "--max-solutions", "5000", *extra])
    assert solved is not None and solved["verdict"] == want, (code, solved)
    assert solved["count_exact"] and solved["solution_count"] == len(matches)
    assert keys(parse_field("\n".join(rows)) for rows in solved["solutions"]) == keys(matches)
    code, counted = run(["count", path, "--json", "--probabilities", *extra])
    assert counted is not None and counted["count_exact"] and int(counted["count"]) == len(matches), counted
    if len(matches):
        mean = matches.mean(axis=0)
        got = np.array([[float(Fraction(p)) for p in row] for row in counted["probabilities"]])
        assert np.allclose(got, mean, atol=1e-12), (got, mean)
    code, explained = run(["explain", path, "--json", *extra])
    assert explained is not None and explained["verdict"] == want, (code, explained)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.sampled_from(SHAPES), seed=st.integers(0, 2**32 - 1), density=st.floats(0, 1), shown=st.floats(0, 1),
       wrong=st.booleans())
def test_a_status_read_and_printed_by_each_command_agrees_with_brute_force(tmp_path, shape, seed, density, shown, wrong):
    rng = np.random.default_rng(seed)
    rows, cols = shape
    field = rng.random(shape) < density
    clues = status(field)
    known = rng.random(shape) < shown
    if wrong:  # a clue that may have no field at all
        y, x = rng.integers(rows), rng.integers(cols)
        clues[y, x], known[y, x] = rng.integers(0, 10), True
    path = tmp_path / "status.txt"
    path.write_text("".join("".join(str(clues[y, x]) if known[y, x] else "?" for x in range(cols)) + "\n" for y in range(rows)))
    matches = as_fields(brute_force(clues, known), shape)
    check(str(path), [], matches, bool((clues[known] > status(np.ones(shape, dtype=bool))[known]).any()))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.sampled_from(SHAPES), seed=st.integers(0, 2**32 - 1), density=st.floats(0, 1), opened=st.floats(0, 1),
       total=st.booleans(), wrong=st.booleans())
def test_a_classic_board_read_and_printed_by_each_command_agrees_with_brute_force(tmp_path, shape, seed, density, opened,
                                                                                  total, wrong):
    """A classic board: an opened cell is empty and shows the mines around it (itself left out);
    with a total, the fields hold exactly that many mines."""
    rng = np.random.default_rng(seed)
    rows, cols = shape
    field = rng.random(shape) < density
    numbers = status(field) - field
    shown = (rng.random(shape) < opened) & ~field
    if wrong and shown.any():  # a number that may have no field at all
        y, x = np.argwhere(shown)[rng.integers(shown.sum())]
        numbers[y, x] = rng.integers(0, 9)
    mines = int(field.sum())
    path = tmp_path / "board.txt"
    path.write_text((f"# mines: {mines}\n" if total else "")
                    + "".join("".join(str(numbers[y, x]) if shown[y, x] else "?" for x in range(cols)) + "\n" for y in range(rows)))
    # an opened cell is empty, so its number is its status: the board is that partial status with
    # the opened cells empty (and the total)
    fields = as_fields(brute_force(numbers, shown), shape)
    fit = (fields[:, shown] == 0).all(axis=1)
    if total:
        fit &= fields.sum(axis=(1, 2)) == mines
    around = status(np.ones(shape, dtype=bool)) - 1
    check(str(path), ["--classic"], fields[fit], bool((numbers[shown] > around[shown]).any()))
