"""Read any input recon knows into a Problem, by its content: recon's status text, Tatham's Mosaic
game IDs, hakank's and LEGUP's Fill-a-Pix formats, LEGUP Minesweeper XML (a classic board by its
puzzle name), and classic board text when asked for (`classic=True`: its digits would read as a
status otherwise) or when it gives its total (a line '# mines: N')."""

from __future__ import annotations

from ..model import MAX_CELLS, Problem, make_problem
from .classic import (board_problem, is_endoh1, is_legup_minesweeper, is_mines_id, parse_board, parse_legup_minesweeper,
                      total_line)
from .foreign import read_any_status
from .text import FormatError


class InputError(ValueError):
    """The input reads, but cannot be what was asked: a total a board cannot hold, a flag that
    sees no number under LEGUP's third rule. The message starts with the input's name."""


def problem_from_bytes(data: bytes | str, name: str = "<string>", max_cells: int = MAX_CELLS, *, classic: bool = False,
                       mines: int | None = None, mines_see_numbers: bool = False) -> Problem:
    """The Problem of an input (see the module's notes). `mines` (a classic board's total) overrides
    a '# mines: N' line. Raises FormatError (with line and column) for text that does not read,
    InputError for a board that cannot be what was asked."""
    refuse_whole_field(data, name)
    if is_legup_minesweeper(data):
        cells, board_mines = parse_legup_minesweeper(data, name, max_cells), None
    elif classic or total_line(data) is not None:
        cells, board_mines = parse_board(data, name, max_cells, check_total=mines is None)
    else:
        if mines is not None or mines_see_numbers:
            raise InputError(f"{name}: a total or LEGUP's third rule is for a classic board: read it as one")
        clues, known, _ = read_any_status(data, name, max_cells)
        return make_problem(clues, known)
    try:
        return board_problem(cells, board_mines if mines is None else mines, mines_see_numbers=mines_see_numbers)
    except FormatError:
        raise
    except ValueError as err:
        raise InputError(f"{name}: {err}") from None


def refuse_whole_field(data: bytes | str, name: str) -> None:
    """FormatError for an endoh1 map or a Tatham Mines game ID: a field with its mines given, to
    play, with nothing to solve."""
    for given, what in ((is_endoh1, "an endoh1 map"), (is_mines_id, "a Tatham Mines game ID")):
        if given(data):
            raise FormatError(name, 1, 1, f"expected a status or a classic board, got {what}, a field with its mines "
                              "given: play it (recon play), or write its field (recon convert --format field)")


def read(path: str, *, classic: bool = False, mines: int | None = None, mines_see_numbers: bool = False,
         max_cells: int = MAX_CELLS) -> Problem:
    """Read a file in any format recon knows (by its content) and return its Problem.

    classic: the file is classic Minesweeper board text (0-8 opened, ? covered, * a mine); LEGUP
    Minesweeper XML, and board text with a line '# mines: N', are recognised without it.
    mines: a classic board's total number of mines.
    Raises FormatError (path, line, column, what was expected), InputError, OSError."""
    with open(path, "rb") as handle:
        data = handle.read()
    return problem_from_bytes(data, path, max_cells, classic=classic, mines=mines, mines_see_numbers=mines_see_numbers)
