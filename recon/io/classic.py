"""Classic Minesweeper boards, read as recon's problems: a partial status plus fixed cells plus,
optionally, the total number of mines.

An opened cell shows the mines among its 8 neighbours and is itself empty, so its count without
itself is its count with itself: a clue of recon's kind, on a cell fixed empty. A flag is a cell
fixed a mine. Nothing else changes: every engine that takes fixed cells (and the total) solves a
board (`recon.engines.TAKES`).

Board text (the code-golf "Can I sweep the mines?" format): one row per line, a digit 0-8 an
opened cell, `?` a covered cell, `*` a known mine (a flag). A comment line `# mines: N` gives the
total (the same as `--mines N`); other `#` lines and blank lines before and after the grid are
comments.
"""

from __future__ import annotations

import re

import numpy as np

from ..model import MAX_CELLS, OPEN, Problem, check_size, make_problem, status
from .text import FormatError, decode_text

_MINES = re.compile(r"#\s*mines\s*:\s*(\S*)\s*$", re.IGNORECASE)
COVERED, FLAG = "?", "*"


def parse_board(data: bytes | str, path: str = "<string>", max_cells: int = MAX_CELLS) -> tuple[np.ndarray, int | None]:
    """Read board text: (cells, total or None). cells is int8: 0-8 an opened cell's number,
    -1 covered, -2 flagged; errors name the line and column."""
    text = decode_text(data, path)
    rows: list[tuple[int, str]] = []
    mines = None
    gap = None
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r").strip()
        if not line or line.startswith("#"):
            m = _MINES.match(line)
            if m:
                if not (m.group(1).isascii() and m.group(1).isdigit() and len(m.group(1)) <= 9):
                    col = raw.index(m.group(1)) + 1 if m.group(1) else len(raw) + 1
                    raise FormatError(path, number, col, f"expected the total number of mines after '# mines:', got {m.group(1)!r}")
                mines = int(m.group(1))
            elif rows and gap is None:
                gap = number
            continue
        if gap is not None:
            raise FormatError(path, gap, 1, "expected the next row of the board, got a blank or comment line; rows must be consecutive")
        rows.append((number, raw.rstrip("\r")))
    if not rows:
        raise FormatError(path, 1, 1, "expected a classic Minesweeper board, got no rows")
    width = len(rows[0][1].strip())
    check = f"the board in {path}"
    try:
        check_size(len(rows), width, max_cells, check)
    except ValueError as err:
        raise FormatError(path, rows[0][0], 1, str(err)) from None
    cells = np.empty((len(rows), width), dtype=np.int8)
    for r, (number, raw) in enumerate(rows):
        offset = len(raw) - len(raw.lstrip())
        content = raw.strip()
        if len(content) != width:
            raise FormatError(path, number, offset + min(width, len(content)) + 1,
                              f"expected {width} cells in this row like in the first row (line {rows[0][0]}), got {len(content)}")
        for c, ch in enumerate(content):
            if "0" <= ch <= "8":
                cells[r, c] = ord(ch) - ord("0")
            elif ch == COVERED:
                cells[r, c] = -1
            elif ch == FLAG:
                cells[r, c] = -2
            else:
                what = "a 9 (a classic number counts at most 8 neighbours)" if ch == "9" else repr(ch)
                raise FormatError(path, number, offset + c + 1,
                                  f"expected a number 0-8 (an opened cell), '?' (covered) or '*' (a mine), got {what}")
    neighbours = status(np.ones(cells.shape, dtype=bool)) - 1
    too_many = (cells >= 0) & (cells > neighbours)
    if too_many.any():
        r, c = (int(v) for v in np.argwhere(too_many)[0])
        number, raw = rows[r]
        raise FormatError(path, number, len(raw) - len(raw.lstrip()) + c + 1,
                          f"expected a number 0-{int(neighbours[r, c])} at r{r + 1}c{c + 1}, got {int(cells[r, c])}: "
                          f"the cell has {int(neighbours[r, c])} neighbours")
    return cells, mines


def board_problem(cells: np.ndarray, mines: int | None = None) -> Problem:
    """The problem of a board (as parse_board reads it): a clue and a fixed empty cell at each
    opened cell, a fixed mine at each flag, and the total if given. ValueError for a total the
    board cannot hold (below its flags, above its cells less the opened ones, or negative)."""
    opened = cells >= 0
    flags = cells == -2
    if mines is not None:
        low, high = int(flags.sum()), int((~opened).sum())
        if not low <= mines <= high:
            raise ValueError(f"the total of {mines} mines cannot be met: the board has {low} flagged and "
                             f"{high} cells not opened, so it holds {low} to {high} mines")
    fixed = np.full(cells.shape, OPEN, dtype=np.int8)
    fixed[opened] = 0
    fixed[flags] = 1
    return make_problem(np.where(opened, cells, 0).astype(np.uint8), opened, fixed, mines)
