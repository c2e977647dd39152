"""The Python API as a notebook user meets it: the top-level functions, masked arrays, a short
Result, and every docstring example run as written."""

from __future__ import annotations

import doctest
import importlib
from fractions import Fraction

import numpy as np
import pytest

import recon
from recon.io.reading import InputError
from test_classic import SHARED


@pytest.mark.parametrize("module", ["recon", "recon.api", "recon.model", "recon.solver", "recon.io.text"])
def test_docstring_examples_run(module):
    failed, tried = doctest.testmod(importlib.import_module(module))
    assert tried and not failed


def test_a_masked_array_means_no_clue():
    """A 3x3 status masked down to one clue has many fields, not one."""
    field = np.zeros((3, 3), dtype=bool)
    field[1, 1] = True
    clues = np.ma.masked_array(recon.status(field), mask=True)
    clues.mask[0, 0] = False
    result = recon.solve(clues, engine="all", max_solutions=200)
    brute = sum(1 for bits in range(512) if recon.status(np.array([(bits >> k) & 1 for k in range(9)]).reshape(3, 3))[0, 0] == 1)
    assert result.verdict is recon.Verdict.MULTIPLE and result.solution_count == brute == 4 * 2**5
    assert recon.count(clues).count == brute


def test_count_gives_arrays_and_fractions():
    clues = np.ma.masked_array(recon.status(np.eye(4, dtype=bool)), mask=False)
    clues.mask[1:, :] = True
    c = recon.count(clues)
    assert c.exact and isinstance(c.array, np.ndarray) and c.array.shape == (4, 4)
    assert all(isinstance(p, Fraction) for row in c.probabilities for p in row)
    assert np.allclose(c.array, [[float(p) for p in row] for row in c.probabilities])


def test_explain_returns_the_trace_and_read_takes_every_format(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text("011\n122\n122\n")
    problem = recon.read(str(path))
    steps = recon.explain(problem)
    assert steps and all(hasattr(s, "text") for s in steps)
    fixed = {cell: v for s in steps for cell, v in zip(s.cells, s.values)}
    assert fixed == {(r, c): int(v) for (r, c), v in np.ndenumerate(recon.solve(problem).field)}
    board = tmp_path / "b.txt"
    board.write_text("# mines: 1\n1?\n??\n")
    assert recon.count(recon.read(str(board), classic=True)).count == 3
    with pytest.raises(InputError, match="b.txt"):
        recon.read(str(board), classic=True, mines=5)
    assert recon.read(str(board)).known.sum() == 1  # without classic=True the same text is a status with one clue
    board.write_text("1z\n")
    with pytest.raises(recon.FormatError, match=r"b.txt:1:2"):
        recon.read(str(board))
    legup = SHARED / "legup" / "minesweeper" / "Minesweeper_5x5_easy_1.xml"
    if legup.exists():
        assert recon.read(str(legup)).has_conditions  # a classic board by its puzzle name


def test_a_result_is_short_in_a_notebook():
    field = recon.random_field(30, 30, 40, np.random.default_rng(1))
    result = recon.solve(recon.status(field))
    text = repr(result)
    assert len(text) < 200 and "unique" in text and "algebra" in text
    html = result._repr_html_()
    assert html.count("<tr>") == 30 and "unique" in html


def test_the_readme_api_example_runs_on_a_puzzle_too():
    from recon.generation import generate_puzzle

    puzzle = generate_puzzle(8, 8, 50, np.random.default_rng(3), difficulty="advanced")
    result = recon.solve(puzzle.clues, known=puzzle.known, engine="auto", max_solutions=2, time_limit=None)
    assert result.verdict is recon.Verdict.UNIQUE and result.solution_count == 1 and result.grade is not None
    assert all(r.seconds >= 0 for r in result.engines.values())


def test_the_readme_python_block_runs(monkeypatch):
    """The README's API example, run as written from the repository (it reads data/seed-5x5.txt)."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    text = (root / "README.md").read_text()
    block = text.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(root)
    namespace: dict = {}
    exec(compile(block, "README.md", "exec"), namespace)  # noqa: S102 - our own README


def test_count_says_where_it_is(monkeypatch):
    """The progress callback (the command line shows it on a terminal): one line per group here,
    with the interval set to nothing."""
    from recon import counting

    monkeypatch.setattr(counting, "PROGRESS_SECONDS", 0.0)
    rng = np.random.default_rng(3)
    field = rng.random((12, 12)) < 0.4
    known = rng.random((12, 12)) < 0.5
    lines: list[str] = []
    counted = counting.count_solutions(recon.make_problem(recon.status(field), known), progress=lines.append)
    assert counted.exact and lines and all(line.startswith("counting group ") for line in lines)
    assert len(lines) == counted.groups
