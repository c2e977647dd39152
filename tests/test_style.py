"""STYLE.md's rule for comments: they say why; measurements live in docs/, not in code.

Comments and docstrings in recon/ are scanned for timings and speed ratios (a memory size may be a
design budget, so sizes are not scanned); the numbers belong in docs/decisions.md ("Measurements
behind the constants") or docs/performance.md.
Text in double quotes inside a docstring is an example of output, and is left alone."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "recon"

#: A number with a unit of time (not "50/50s" or "3-s"), or a ratio said to be faster.
MEASUREMENT = re.compile(r"(?<![\w./])\d[\d,.]*\s?(ms|s|µs)\b(?![-'/])"
                         r"|\d\s?[×x] (faster|slower)|\d+(\.\d+)? ?% (faster|slower)")
QUOTED = re.compile(r'"[^"\n]*"')


def measurements(source: str) -> list[tuple[int, str]]:
    """(line, text) of each measurement in the source's comments and docstrings."""
    found = []
    before = None
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        text = None
        if tok.type == tokenize.COMMENT:
            text = tok.string
        elif (tok.type == tokenize.STRING and tok.string.lstrip("rRbBuU").startswith(('"""', "'''"))
              and before in (None, tokenize.INDENT, tokenize.DEDENT, tokenize.NEWLINE)):  # a docstring
            text = tok.string[3:-3]
            text = QUOTED.sub(lambda m: " " * len(m.group()), text)
        if tok.type not in (tokenize.NL, tokenize.COMMENT):
            before = tok.type
        for match in MEASUREMENT.finditer(text or ""):
            found.append((tok.start[0] + text[: match.start()].count("\n"), match.group()))
    return found


def test_the_scan_finds_measurements_and_only_them():
    sample = (
        '"""A module. It took 4.3 s once; the output reads "12 s" as an example."""\n'
        "X = 1  # 3x faster than before, and 12.5 ms at most\n"
        "def f():\n"
        '    """50/50s and a 3x3 window: no measurement."""\n'
        '    return "0.5 s"  # a string that is not a docstring: 2 ms\n'
    )
    assert measurements(sample) == [(1, "4.3 s"), (2, "3x faster"), (2, "12.5 ms"), (5, "2 ms")]


@pytest.mark.parametrize("path", sorted(ROOT.rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_comments_carry_no_measurements(path):
    found = measurements(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(ROOT.parent)}: measurements belong in docs/: {found}"
