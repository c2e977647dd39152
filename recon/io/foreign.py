"""Puzzle formats of other tools, read and written: Tatham's Mosaic game IDs, hakank's text format
and LEGUP Fill-a-Pix XML. `read_any_status` recognises them (and recon's own status text) by
content; anything it cannot place gets a FormatError with line and column.

- Mosaic game ID (Simon Tatham's puzzles): ``params:desc``. The parameters are read as Tatham's
  `decode_params` reads them: ``W`` (a square), ``WxH`` (width first), either followed by
  ``h<digits>`` (his generator's "aggressive" flag, ignored here). desc runs row-major, a digit is
  a clue and a letter a..z a run of 1..26 cells without a clue. His Mosaic takes 3x3 up to 10,000
  cells (`mosaic_refusal`); recon reads any size up to its cell limit.
- hakank (OR-Tools examples): a first line N, then N rows of N cells, ``.`` for no clue.
- LEGUP Fillapix XML: ``<board height=H width=W>`` with ``<cell value=V x=col y=row/>`` for the
  cells given; ``V = type*100 + number`` and number 10 means no clue.
"""

from __future__ import annotations

import re
from xml.parsers import expat

import numpy as np

from .text import FormatError, decode_text, format_status, parse_status, text_lines
from ..model import MAX_CELLS, check_size, window_sizes

FORMATS = ("status", "mosaic", "hakank", "legup")
#: A line that starts like a Mosaic game ID: parameters and a colon (ASCII digits only).
_MOSAIC_PARAMS = re.compile(r"\s*([0-9]+)(?:x([0-9]+))?(?:h[0-9]*)?:", re.ASCII)
_MOSAIC_MIN_SIDE, _MOSAIC_MAX_CELLS = 3, 10_000  # what Tatham's Mosaic accepts
_MOST_DIGITS = 9  # a size or coordinate longer than this is refused before it is converted


def _whole(text: str) -> int | None:
    """A whole number written in ASCII digits (an optional minus sign first), short enough to
    convert; None for anything else (Unicode digits such as '²' or '٣' are not numbers here)."""
    digits = text[1:] if text[:1] == "-" else text
    if not digits or len(digits) > _MOST_DIGITS or not (digits.isascii() and digits.isdigit()):
        return None
    return int(text)


def _content_lines(text: str, most: int | None = None) -> list[tuple[int, str]]:
    """(number, stripped line) of the lines that are neither blank nor comments, the first `most`
    of them if given (read one at a time: a status may have millions)."""
    found = []
    for n, line in text_lines(text):
        line = line.strip()
        if line and not line.startswith("#"):
            found.append((n, line))
            if len(found) == most:
                break
    return found


#: A line that is blank or a comment (its first character but blanks '#'): counted in C.
_NOT_CONTENT = re.compile(r"^[^\S\n]*(?:#.*)?$", re.MULTILINE)


def _content_count(text: str) -> int:
    """The number of lines `_content_lines` would list, without listing them."""
    return text.count("\n") + 1 - sum(1 for _ in _NOT_CONTENT.finditer(text))


def _mosaic_params(line: str):
    """The match of a Mosaic ID's parameters at the start of line, or None. (Matched up to the
    first colon only: on a line of millions of digits and no colon the pattern's backtracking
    took seconds.)"""
    colon = line.find(":")
    return _MOSAIC_PARAMS.match(line, 0, colon + 1) if colon >= 0 else None


def detect(data: bytes | str) -> str:
    """Name the format of a puzzle text: status, mosaic, hakank or legup."""
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    text = text.removeprefix("\ufeff")
    if text.lstrip().startswith("<"):
        return "legup"
    lines = _content_lines(text, 3)
    if len(lines) == 1 and _mosaic_params(lines[0][1]):
        return "mosaic"
    if len(lines) >= 3:
        n = _whole(lines[0][1])
        # hakank: n + 1 content lines in all (counted only where there are lines enough)
        if (n is not None and n >= 2 and len(lines[0][1]) != len(lines[1][1]) and text.count("\n") >= n
                and _content_count(text) == n + 1):
            return "hakank"
    return "status"


def read_any_status(data: bytes | str, path: str = "<string>", max_cells: int = MAX_CELLS) -> tuple[np.ndarray, np.ndarray, str]:
    """Read a status in any known format; return (clues, known, format name). A grid of more
    than max_cells cells is refused before it is made."""
    fmt = detect(data)
    if fmt == "status":
        return (*parse_status(data, path, max_cells), fmt)
    text = decode_text(data, path)
    if fmt == "mosaic":
        clues, known = parse_mosaic(text, path, max_cells)
    elif fmt == "hakank":
        clues, known = parse_hakank(text, path, max_cells)
    else:
        clues, known = parse_legup(text, path, max_cells)
    return clues, known, fmt


def _sized(path: str, line: int, col: int, rows: int, cols: int, max_cells: int, what: str) -> None:
    """FormatError (at the line and column that declare the size) for a grid too large."""
    try:
        check_size(rows, cols, max_cells, what)
    except ValueError as err:
        raise FormatError(path, line, col, str(err)) from None


def _check_counts(clues: np.ndarray, known: np.ndarray, path: str, where) -> None:
    sizes = window_sizes(clues.shape)
    bad = np.argwhere(known & (clues > sizes))
    if bad.size:
        r, c = (int(v) for v in bad[0])
        line, col = where(r, c)
        raise FormatError(path, line, col, f"expected a count 0-{int(sizes[r, c])} at r{r + 1}c{c + 1}, got {int(clues[r, c])}")


def parse_mosaic(text: str, path: str = "<string>", max_cells: int = MAX_CELLS) -> tuple[np.ndarray, np.ndarray]:
    """Read a Tatham Mosaic game ID 'params:desc' (see the module's notes for the forms)."""
    lines = _content_lines(text, 1)
    number, line = lines[0] if lines else (1, "")
    m = _mosaic_params(line)
    if not m:
        raise FormatError(path, number, 1, f"expected a Mosaic game ID 'WxH:desc', got {line[:30]!r}")
    start = len(line) - len(line.lstrip())
    width = _whole(m.group(1))
    height = width if m.group(2) is None else _whole(m.group(2))
    if width is None or height is None:
        raise FormatError(path, number, start + 1, f"expected a Mosaic width and height of at most {_MOST_DIGITS} digits, got {m.group(0).strip()!r}")
    if width < 1 or height < 1:
        raise FormatError(path, number, start + 1, f"expected a width and height >= 1, got {width}x{height}")
    _sized(path, number, start + 1, height, width, max_cells, f"the Mosaic game ID's grid ({width} wide, {height} high)")
    desc = line[m.end():].rstrip()
    offset = m.end() + 1  # the 1-based column of desc's first character
    clues = np.zeros(width * height, dtype=np.uint8)
    known = np.zeros(width * height, dtype=bool)
    i = 0
    for k, ch in enumerate(desc):
        if not ("0" <= ch <= "9" or "a" <= ch <= "z"):
            raise FormatError(path, number, offset + k, "expected a digit (a clue) or a letter a-z (a run of cells without "
                              f"a clue) in the Mosaic description, got {ch!r}")
        if i >= width * height:
            raise FormatError(path, number, offset + k, f"expected the description to end after {width * height} cells, got {ch!r}")
        if ch <= "9":
            clues[i], known[i] = ord(ch) - ord("0"), True
            i += 1
        else:
            i += ord(ch) - ord("a") + 1
    if i != width * height:
        raise FormatError(
            path, number, offset + len(desc), f"expected {width * height} cells ({width}x{height}), got {i}"
        )
    clues, known = clues.reshape(height, width), known.reshape(height, width)
    _check_counts(clues, known, path, lambda r, c: (number, 1))
    return clues, known


def mosaic_refusal(shape: tuple[int, int]) -> str | None:
    """Why Tatham's Mosaic would refuse a game ID of this shape (recon reads it), or None."""
    rows, cols = shape
    if rows < _MOSAIC_MIN_SIDE or cols < _MOSAIC_MIN_SIDE:
        return f"Tatham's Mosaic refuses grids smaller than 3x3 (this one is {cols} wide, {rows} high)"
    if rows * cols > _MOSAIC_MAX_CELLS:
        return f"Tatham's Mosaic refuses grids of more than 10,000 cells (this one has {rows * cols:,})"
    return None


def format_mosaic(clues: np.ndarray, known: np.ndarray) -> str:
    """Write a Tatham Mosaic game ID (runs longer than 26 cells are split)."""
    rows, cols = clues.shape
    out, run = [], 0
    for value, has in zip(clues.ravel(), known.ravel()):
        if has:
            while run:
                step = min(run, 26)
                out.append(chr(ord("a") + step - 1))
                run -= step
            out.append(str(int(value)))
        else:
            run += 1
    while run:
        step = min(run, 26)
        out.append(chr(ord("a") + step - 1))
        run -= step
    return f"{cols}x{rows}:{''.join(out)}\n"


def parse_hakank(text: str, path: str = "<string>", max_cells: int = MAX_CELLS) -> tuple[np.ndarray, np.ndarray]:
    """Read hakank's format: N, then N rows with '.' for no clue."""
    lines = _content_lines(text, 1)
    number, first = lines[0] if lines else (1, "")
    n = _whole(first)
    if n is None or n < 1:
        raise FormatError(path, number, 1, f"expected the size N of hakank's format (a whole number), got {first[:30]!r}")
    _sized(path, number, 1, n, n, max_cells, "the hakank grid")
    lines = _content_lines(text, n + 2)
    if len(lines) - 1 != n:
        got = len(lines) - 1 if len(lines) <= n + 1 else f"more than {n}"
        raise FormatError(path, number, 1, f"expected {n} rows after the size line, got {got}")
    # the rows read in place, every other line (the size line, comments, blank lines) turned into
    # a comment: the errors name the file's own lines and columns
    rows = {number for number, _ in lines[1:]}
    body = "\n".join(raw if k in rows else "#" for k, raw in enumerate(text.split("\n"), start=1))
    clues, known = parse_status(body, path, max_cells)
    if clues.shape != (n, n):
        raise FormatError(path, lines[1][0], 1, f"expected {n}x{n} cells, got {clues.shape[0]}x{clues.shape[1]}")
    return clues, known


def check_writable(shape: tuple[int, int], fmt: str) -> None:
    """Raise ValueError if a grid of this shape cannot be written in the named format (asked
    before work whose result would then be lost, such as generating a large puzzle)."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    rows, cols = shape
    if fmt == "hakank" and rows != cols:
        raise ValueError(f"the hakank format holds square grids only, not {rows}x{cols}")
    if fmt == "hakank" and rows == 1:  # its two lines, a size and a cell, are also a status one wide
        raise ValueError("a 1x1 grid in the hakank format ('1', then its cell) reads back as a 2x1 status: "
                         "write it as status")


def format_hakank(clues: np.ndarray, known: np.ndarray) -> str:
    """Write hakank's format (square grids only)."""
    check_writable(clues.shape, "hakank")
    rows = clues.shape[0]
    return f"{rows}\n" + format_status(clues, known).replace("?", ".")


def _xml_elements(text: str, path: str, max_cells: int | None = None) -> list[tuple[str, dict, int, int, int]]:
    """Every element of an XML text in document order: (tag, attributes, index of its parent or
    -1, line, column), 1-based line and column of its start tag, for messages that point at it.
    max_cells: the first <board>'s declared size is checked as soon as it is read, before the
    rest of the document is kept (`legup_board` checks the rest of it)."""
    parser = expat.ParserCreate()
    found: list[tuple[str, dict, int, int, int]] = []
    open_elements = [-1]
    boards = []

    def start(tag, attrib):
        line, col = parser.CurrentLineNumber, parser.CurrentColumnNumber + 1
        if tag == "board" and not boards and max_cells is not None:
            boards.append(line)
            height, width = _whole(attrib.get("height", "").strip()), _whole(attrib.get("width", "").strip())
            if height is not None and width is not None and height >= 1 and width >= 1:
                _sized(path, line, col, height, width, max_cells, "the LEGUP board")
        found.append((tag, attrib, open_elements[-1], line, col))
        open_elements.append(len(found) - 1)

    def end(tag):
        open_elements.pop()

    parser.StartElementHandler, parser.EndElementHandler = start, end
    try:
        parser.Parse(text, True)
    except expat.ExpatError as err:
        raise FormatError(path, err.lineno, err.offset + 1, f"expected LEGUP XML, got malformed XML ({expat.ErrorString(err.code)})") from None
    return found


def legup_board(elements, path: str, max_cells: int = MAX_CELLS) -> tuple[int, int, int, set[int]]:
    """The first <board> of a LEGUP puzzle's elements (`_xml_elements`), checked: (its index,
    height, width, the indices of the elements whose <cell> children are its cells: the board
    and its <cells>). Fill-a-Pix and Minesweeper files share this layout."""
    first = next((i for i, element in enumerate(elements) if element[0] == "board"), None)
    if first is None:
        line, col = elements[0][3:] if elements else (1, 1)
        raise FormatError(path, line, col, "expected a LEGUP <board> element, found none")
    _, attrib, _, line, col = elements[first]
    height, width = _whole(attrib.get("height", "").strip()), _whole(attrib.get("width", "").strip())
    if height is None or width is None:
        got = f"height={attrib.get('height')!r} width={attrib.get('width')!r}"
        raise FormatError(path, line, col, f"expected <board> with whole-number height and width attributes, got {got}")
    if height < 1 or width < 1:
        raise FormatError(path, line, col, f"expected a board of at least 1x1, got {width}x{height}")
    _sized(path, line, col, height, width, max_cells, "the LEGUP board")
    holders = {first} | {i for i, (tag, _, parent, _, _) in enumerate(elements) if tag == "cells" and parent == first}
    return first, height, width, holders


def parse_legup(text: str, path: str = "<string>", max_cells: int = MAX_CELLS) -> tuple[np.ndarray, np.ndarray]:
    """Read a LEGUP Fillapix XML puzzle: the first <board> (the root or inside it) and its clue
    cells, the <cell> elements in its <cells> (or directly in it); a cell not listed has no clue.
    Cells elsewhere, such as a <goal>'s (the cell a LEGUP exercise asks to prove), are not clues."""
    elements = _xml_elements(text.removeprefix("\ufeff"), path, max_cells)
    for tag, attrib, _, line, col in elements:
        if tag == "puzzle" and attrib.get("name") == "Minesweeper":
            raise FormatError(path, line, col, "this is a LEGUP Minesweeper puzzle, a classic board (its numbers count the 8 "
                              "neighbours): solve, count and explain read it as one; it has no Fill-a-Pix status")
    first, height, width, holders = legup_board(elements, path, max_cells)
    clues = np.zeros((height, width), dtype=np.uint8)
    known = np.zeros((height, width), dtype=bool)
    place: dict[tuple[int, int], tuple[int, int]] = {}  # (y, x) -> the line and column of its <cell>
    for tag, cell, parent, line, col in elements[first + 1 :]:
        if tag != "cell" or parent not in holders:
            continue
        value, x, y = (_whole(cell.get(key, "").strip()) for key in ("value", "x", "y"))
        if value is None or x is None or y is None:
            raise FormatError(path, line, col, f"expected <cell> with whole-number value, x and y, got {cell}")
        if not (0 <= x < width and 0 <= y < height):
            raise FormatError(path, line, col, f"expected a cell inside the {width}x{height} board, got x={x} y={y}")
        if (y, x) in place:
            raise FormatError(path, line, col, f"expected each cell once, got x={x} y={y} again (first on line {place[y, x][0]})")
        place[y, x] = line, col
        number = value % 100
        if number == 10:
            continue
        if number > 9:
            raise FormatError(path, line, col, f"expected a clue number 0-9 or 10 (no clue), got {number} at x={x} y={y}")
        clues[y, x], known[y, x] = number, True
    _check_counts(clues, known, path, lambda r, c: place[r, c])
    return clues, known


def format_legup(clues: np.ndarray, known: np.ndarray, name: str = "recon") -> str:
    """Write a LEGUP Fillapix XML puzzle with the clues as cells of unknown colour."""
    rows, cols = clues.shape
    cells = "\n".join(
        f'                <cell value="{int(clues[r, c])}" x="{c}" y="{r}"/>'
        for r in range(rows)
        for c in range(cols)
        if known[r, c]
    )
    return (
        '<Legup version="3.0.0">\n'
        f'    <puzzle name="Fillapix" tag="{name}">\n'
        f'        <board height="{rows}" width="{cols}">\n'
        "            <cells>\n"
        f"{cells}\n"
        "            </cells>\n"
        "        </board>\n"
        "    </puzzle>\n"
        "</Legup>\n"
    )


def write_puzzle(clues: np.ndarray, known: np.ndarray, fmt: str) -> str:
    """Write a status in the named format."""
    check_writable(clues.shape, fmt)
    if fmt == "status":
        return format_status(clues, known)
    if fmt == "mosaic":
        return format_mosaic(clues, known)
    if fmt == "hakank":
        return format_hakank(clues, known)
    if fmt == "legup":
        return format_legup(clues, known)
    raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
