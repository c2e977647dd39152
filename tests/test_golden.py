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
