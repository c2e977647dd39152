"""`recon generate` prints, byte for byte, what it printed before the redesign (the same puzzles
and fields for the same seed): tests/golden/generate.txt, written by tests/golden/make_golden.py."""

from __future__ import annotations

import os
import sys

import pytest

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
sys.path.insert(0, HERE)

import make_golden  # noqa: E402


def recorded() -> dict[str, str]:
    """The recorded output of each command line."""
    with open(make_golden.PATH, encoding="utf-8") as handle:
        blocks = handle.read().split("$ recon ")[1:]
    return {block.split("\n", 1)[0]: block.split("\n", 1)[1][:-1] for block in blocks}


RECORDED = recorded()


@pytest.mark.parametrize("case", make_golden.CASES, ids=lambda case: " ".join(make_golden.command(*case)))
def test_generate_prints_the_recorded_output(case):
    argv = make_golden.command(*case)
    assert make_golden.run(argv) == RECORDED[" ".join(argv)]


def test_every_case_is_recorded():
    assert len(RECORDED) == len(make_golden.CASES)


PLAIN_CASES = [case for case in make_golden.CASES if "--puzzle" in case[4] and case[0] * case[1] <= 130]


@pytest.mark.slow
@pytest.mark.parametrize("case", PLAIN_CASES, ids=lambda case: " ".join(make_golden.command(*case)))
def test_the_python_path_makes_the_recorded_puzzles(case):
    """Without numba and python-sat (Options(compiled=False, sat=False)) generation makes the
    recorded puzzles too: the backends change the time, never the puzzle."""
    import numpy as np

    from recon.generation import GenerationFailed, Options, generate_puzzle, parse_clue_target
    from recon.io.foreign import write_puzzle

    rows, cols, p, seed, extra = case
    difficulty = extra[extra.index("--difficulty") + 1]
    clues_arg = extra[extra.index("--clues") + 1] if "--clues" in extra else "minimal"
    recorded = RECORDED[" ".join(make_golden.command(*case))]
    try:
        puzzle = generate_puzzle(rows, cols, p, np.random.default_rng(seed), difficulty=difficulty,
                                 target=parse_clue_target(clues_arg, rows * cols), options=Options(compiled=False, sat=False))
    except GenerationFailed:
        assert recorded.startswith("exit 4\n")
        return
    assert recorded.startswith("exit 0\n")
    assert recorded.split("\n", 2)[2] == write_puzzle(puzzle.clues, puzzle.known, "status")
