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
