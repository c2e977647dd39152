"""Puzzle generation: unique, of the asked grade, minimal (checked clue by clue), reproducible."""

from __future__ import annotations

import io

import numpy as np
import pytest

from recon import Verdict, make_problem, parse_status
from recon.cli import main
from recon.engines import backtrack, trim
from recon.puzzle import CHECKS, generate_puzzle, parse_clue_target


@pytest.mark.parametrize("difficulty", ["basic", "advanced", "search"])
@pytest.mark.parametrize("shape", [(6, 7), (4, 9), (9, 14)])  # 126 cells: two batches of 64
def test_generated_puzzle_is_unique_graded_and_minimal(difficulty, shape):
    puzzle = generate_puzzle(*shape, 45, np.random.default_rng(sum(shape)), difficulty=difficulty)
    problem = make_problem(puzzle.clues, puzzle.known)
    result = backtrack.solve(problem, limit=2)
    assert result.verdict is Verdict.UNIQUE and np.array_equal(result.solutions[0], puzzle.field)
    assert trim.solve(problem).grade == difficulty
    assert puzzle.minimal
    check = CHECKS[difficulty]
    for r, c in np.argwhere(puzzle.known):
        fewer = puzzle.known.copy()
        fewer[r, c] = False
        assert not check(make_problem(puzzle.clues, fewer))


def test_clue_target_stops_early():
    puzzle = generate_puzzle(6, 6, 40, np.random.default_rng(1), difficulty="advanced", target=30)
    assert puzzle.clue_count == 30 and not puzzle.minimal


@pytest.mark.parametrize("text, cells, expected", [("minimal", 100, None), ("40", 100, 40), ("0.25", 100, 25)])
def test_parse_clue_target(text, cells, expected):
    assert parse_clue_target(text, cells) == expected


@pytest.mark.parametrize("text", ["-3", "1.5", "lots"])
def test_parse_clue_target_rejects(text):
    with pytest.raises(ValueError, match="--clues must be"):
        parse_clue_target(text, 100)


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), stdout=out, stderr=err), out.getvalue(), err.getvalue()


def test_cli_puzzle_is_reproducible_and_explained_at_its_grade(tmp_path):
    code, first, err = run("generate", "5", "8", "40", "--seed", "9", "--puzzle", "--difficulty", "advanced")
    assert code == 0 and "grade advanced" in err and "certified unique" in err
    assert first == run("generate", "5", "8", "40", "--seed", "9", "--puzzle", "--difficulty", "advanced")[1]
    clues, known = parse_status(first)
    assert clues.shape == (5, 8) and not known.all()
    path = tmp_path / "p.txt"
    path.write_text(first)
    code, out, _ = run("explain", str(path))
    assert code == 0 and "(grade advanced)" in out


def test_cli_puzzle_formats_and_bad_clues():
    code, out, _ = run("generate", "4", "6", "40", "--seed", "5", "--puzzle", "--format", "mosaic")
    assert code == 0 and out.startswith("6x4:")
    code, _, err = run("generate", "4", "6", "40", "--puzzle", "--clues", "many")
    assert code == 2 and "--clues must be" in err


@pytest.mark.parametrize("shape", [(1, 12), (12, 1), (2, 9), (7, 5), (9, 14), (23, 17)])
@pytest.mark.parametrize("target", [None, "half"])
def test_compiled_basic_removal_makes_the_python_decisions(monkeypatch, shape, target):
    """The numba loop (screen 64 at once, replay prefixes) keeps exactly the clues the Python loop
    (incremental closure, one removal at a time) keeps, for the same order: same seed, same puzzle
    with or without the `fast` extra."""
    pytest.importorskip("numba")
    from recon import puzzle as puzzle_module
    from recon.generate import random_field

    for seed in range(4):
        rng = np.random.default_rng(seed)
        field = random_field(*shape, 50, rng)
        order = rng.permutation(field.size)
        goal = None if target is None else field.size // 2
        monkeypatch.setattr(puzzle_module, "USE_KERNELS", True)
        compiled = puzzle_module._remove_clues(field, order, "basic", goal)
        monkeypatch.setattr(puzzle_module, "USE_KERNELS", False)
        python = puzzle_module._remove_clues(field, order, "basic", goal)
        assert np.array_equal(compiled, python), (shape, seed)


@pytest.mark.parametrize("shape", [(1, 9), (9, 1), (2, 11), (8, 13)])
def test_compiled_closures_equal_the_numpy_rounds(shape):
    """64 clue sets at once: the compiled work-list closure fixes the cells the numpy rounds fix."""
    pytest.importorskip("numba")
    from recon import kernels
    from recon.incremental import basic_closures

    rng = np.random.default_rng(sum(shape))
    field = rng.random(shape) < 0.25
    field[:3, :3] = False  # the corner's window is all empty: the rules start there
    active = rng.integers(0, 2**63, size=shape, dtype=np.uint64) | rng.integers(0, 2**63, size=shape, dtype=np.uint64)
    active |= rng.integers(0, 2, size=shape, dtype=np.uint64) << np.uint64(63)
    expected = basic_closures(field, active)
    assert np.array_equal(kernels.closures64(field, active), expected)
    assert expected.any()  # some clue sets fix some cells: the comparison means something
