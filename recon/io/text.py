"""Text formats: read status and field grids (with precise errors), write them back.

Status text: one row per line, one character per cell; ``0``-``9`` is a clue, ``?``, ``.`` or
``-`` a cell without a clue. Rows may instead be whitespace-separated tokens, one per cell.
Trailing spaces, CRLF line ends, a UTF-8 byte order mark, and blank lines and comment lines
(starting with ``#``) before and after the grid are allowed; inside the grid they are refused, so
that a row is never dropped unseen.

Field text: ``x`` mine, ``_`` empty; ``1``/``0``, ``*``/``.`` and ``#``/``.`` are accepted on
input, ``x``/``_`` is always written. In a field file a comment line starts with ``#`` followed
by a space or by a character that is not a cell (``# note``, ``#note``), since ``#`` is a mine.

Several fields are written one after another, separated by one blank line.
"""

from __future__ import annotations

import decimal
import json
import re
from dataclasses import dataclass

import numpy as np

from ..model import MAX_CELLS, cell_name, check_size, window_sizes

NO_CLUE_CHARS = "?.-"
MINE_CHARS = "x*#1X"
EMPTY_CHARS = "_.0"
_WHITESPACE = " \t\f\v"
_INNER_SPACE = re.compile(r"[ \t\f\v]")


class FormatError(ValueError):
    """Bad input text; str() reads 'path:line:col: message' with 1-based line and column."""

    def __init__(self, path: str, line: int, col: int, message: str):
        super().__init__(f"{path}:{line}:{col}: {message}")
        self.path, self.line, self.col, self.message = path, line, col, message


@dataclass(frozen=True)
class _Grammar:
    """What one cell of a grid may be: a table from ASCII code to value (-1 = not allowed)."""

    table: np.ndarray  # int8[256]
    expected: str  # for messages: "a count 0-9 or '?', '.', '-' for no clue"
    what: str  # "status" or "field"
    other: tuple[str, str] = ("", "")  # the cells of the other kind of grid, and what to say then

    def got(self, token: str, row: str) -> str:
        """The end of a message about a bad token: what was found, and a hint when its whole row
        is a row of the other kind of grid (a field given where a status is read, or the
        reverse; a stray character in a row of this kind gets none)."""
        cells, hint = self.other
        if self.what == "status" and token == "*":
            return "got '*'; a '*' is a known mine on a classic Minesweeper board: read it with --classic"
        if cells and all(ch in cells or ch in _WHITESPACE for ch in row):
            return f"got {_describe(token)}; {hint}"
        if self.what == "field" and token == "?":
            return ("got '?', a covered cell of a classic board or a cell without a clue in a puzzle: their mines "
                    "are hidden, where a field of x and _ shows them")
        return f"got {_describe(token)}"

    def is_comment(self, line: str) -> bool:
        """Is this (left-stripped) line a comment?"""
        if not line.startswith("#"):
            return False
        if self.what == "status":
            return True
        rest = line[1:2]
        if not rest:
            return False  # a row of one mine
        return rest in _WHITESPACE or not rest.isascii() or self.table[ord(rest)] < 0


def _table(pairs: dict[str, int]) -> np.ndarray:
    table = np.full(256, -1, dtype=np.int8)
    for chars, value in pairs.items():
        for ch in chars:
            table[ord(ch)] = value
    return table


_NO_CLUE = 10  # internal code of the status grammar for "no clue"; converted to the mask at once
_STATUS = _Grammar(
    _table({**{str(d): d for d in range(10)}, NO_CLUE_CHARS: _NO_CLUE}),
    "a count 0-9, or '?', '.' or '-' for a cell without a clue",
    "status",
    (MINE_CHARS + EMPTY_CHARS, "this looks like a field (x mine, _ empty), where a status of counts is read"),
)
_FIELD = _Grammar(
    _table({MINE_CHARS: 1, EMPTY_CHARS: 0}),
    "a cell 'x' (mine) or '_' (empty); also accepted: 1/0, */., #/.",
    "field",
    ("0123456789" + NO_CLUE_CHARS, "this looks like a status (counts), where a field of x and _ is read"),
)


def decode_text(data: bytes | str, path: str) -> str:
    """Return the text of data, or raise FormatError at the first byte that is not UTF-8."""
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as err:
        before = data[: err.start]
        line = before.count(b"\n") + 1
        col = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", errors="replace")) + 1
        raise FormatError(path, line, col, f"expected UTF-8 text, got the byte 0x{data[err.start]:02x}") from None


def text_lines(text: str, chunk: int = 1 << 16):
    """(1-based number, line) for each line of text, split at LF as str.split does, a chunk of
    about `chunk` characters at a time: a list of every line of an input of millions of short
    lines took gigabytes before its size could be checked."""
    number, start = 1, 0
    while True:
        end = text.find("\n", start + chunk)  # a chunk ends at a line end
        for line in (text[start:] if end < 0 else text[start:end]).split("\n"):
            yield number, line
            number += 1
        if end < 0:
            return
        start = end + 1


def _describe(token: str) -> str:
    """Show a bad token in a message."""
    if len(token) == 1 and not token.isprintable():
        return f"the character U+{ord(token):04X}"
    return repr(token)


def _parse_chars(content: str, offset: int, grammar: _Grammar, path: str, line_no: int) -> np.ndarray:
    """Parse a row written one character per cell, starting at 0-based column offset."""
    if content.isascii():
        codes = grammar.table[np.frombuffer(content.encode("ascii"), dtype=np.uint8)]
        bad = np.flatnonzero(codes < 0)
        if bad.size == 0:
            return codes
        i = int(bad[0])
    else:
        i = next(j for j, ch in enumerate(content) if not ch.isascii() or grammar.table[ord(ch)] < 0)
    raise FormatError(path, line_no, offset + i + 1, f"expected {grammar.expected}, {grammar.got(content[i], content)}")


def _parse_tokens(content: str, offset: int, grammar: _Grammar, path: str, line_no: int) -> np.ndarray:
    """Parse a row of whitespace-separated tokens, starting at 0-based column offset."""
    values = []
    i = 0
    while i < len(content):
        if content[i] in _WHITESPACE:
            i += 1
            continue
        j = i
        while j < len(content) and content[j] not in _WHITESPACE:
            j += 1
        token = content[i:j]
        if len(token) != 1 or not token.isascii() or grammar.table[ord(token)] < 0:
            raise FormatError(path, line_no, offset + i + 1, f"expected {grammar.expected}, {grammar.got(token, content)}")
        values.append(grammar.table[ord(token)])
        i = j
    return np.array(values, dtype=np.int8)


def read_plain_grid(data: bytes | str, table: np.ndarray) -> tuple[np.ndarray, range] | None:
    """Fast path for the common layout: every byte a cell (its code in table, int8[256], -1 for
    none) or a LF (or a CR before a LF), rows of equal width, blank lines only before and after.
    Returns (codes, line numbers) or None when the general reader is needed (which also produces
    every error message)."""
    if isinstance(data, str):
        if not data.isascii():
            return None
        data = data.encode("ascii")
    buf = np.frombuffer(data, dtype=np.uint8)
    returns = buf == ord("\r")
    if returns.any():  # Windows' line ends: each CR must end a line
        after = np.flatnonzero(returns) + 1
        if after[-1] == buf.size or not np.all(buf[after] == ord("\n")):
            return None
        buf = buf[~returns]
    del returns
    lines = buf == ord("\n")
    if lines.all():
        return None
    # the first and last byte that is not a LF (argmax: no index array the size of the file)
    first, last = int(np.argmin(lines)), buf.size - 1 - int(np.argmin(lines[::-1]))
    core = buf[first : last + 1]
    codes = table[core]
    breaks = lines[first : last + 1]
    if not np.all((codes >= 0) | breaks):
        return None
    rows = int(np.count_nonzero(breaks)) + 1
    width = int(np.argmax(breaks)) if rows > 1 else core.size
    if width == 0 or rows * (width + 1) - 1 != core.size or (rows > 1 and not np.all(breaks[width :: width + 1])):
        return None
    grid = np.empty(rows * (width + 1), dtype=np.int8)
    grid[: core.size] = codes
    grid = grid.reshape(rows, width + 1)[:, :width]
    lead = int(np.count_nonzero(lines[:first]))
    return np.ascontiguousarray(grid), range(lead + 1, lead + 1 + rows)


def _read_grid(data: bytes | str, path: str, grammar: _Grammar, max_cells: int = MAX_CELLS,
               what: str = "the grid") -> tuple[np.ndarray, range | list[int], bool]:
    """Read a grid of cell codes; return (codes, line number of each row, whether its cells are
    tokens). A grid of more than max_cells cells (`what`, in the message) is refused as soon as
    its rows so far pass the limit."""
    plain = read_plain_grid(data, grammar.table)
    if plain is not None:
        return plain[0], plain[1], False
    text = decode_text(data, path)
    rows: list[tuple[int, int, str]] = []  # (line number, offset of first cell, content)
    gap: tuple[int, str] | None = None  # the first blank or comment line after a row
    size = SizeCheck(text, grammar, max_cells, what, path)
    for number, raw in text_lines(text):
        line = raw.rstrip("\r").rstrip(_WHITESPACE + "\r")
        stripped = line.lstrip(_WHITESPACE)
        if not stripped or grammar.is_comment(stripped):
            if size.rows and gap is None:
                gap = (number, "a blank line" if not stripped else "a comment line ('#' starts a comment only before or after the grid)")
            continue
        if gap is not None:
            raise FormatError(path, gap[0], 1, f"expected the next row of the {grammar.what} grid, got {gap[1]}; rows must be consecutive")
        # (the cells are counted on the first row only: the size check reads no other)
        cells = 0 if size.rows else len(stripped.split()) if _INNER_SPACE.search(stripped) else len(stripped)
        if size.row(number, cells):
            rows.append((number, len(line) - len(stripped), stripped))
    size.done()
    if not rows:
        raise FormatError(path, 1, 1, f"expected a {grammar.what} grid, got no rows (the input is empty or only comments)")
    tokens = any(_INNER_SPACE.search(content) for _, _, content in rows)
    parse = _parse_tokens if tokens else _parse_chars
    parsed = [parse(content, offset, grammar, path, number) for number, offset, content in rows]
    width = parsed[0].size
    for (number, offset, content), values in zip(rows, parsed):
        if values.size != width:
            if tokens:
                col = offset + len(content) + 1
            else:
                col = offset + min(width, values.size) + 1
            raise FormatError(
                path,
                number,
                col,
                f"expected {width} cells in this row like in the first row (line {rows[0][0]}), got {values.size}",
            )
    return np.vstack(parsed), [number for number, _, _ in rows], tokens


class SizeCheck:
    """A grid's size checked row by row as its text is read (`row`), so that one too large is
    refused before its rows are kept: when the lines from its first row to the last that is
    neither blank nor a comment (`last_row_line`, counted in C) would be too many, the rows are
    only counted, and the size error comes once they pass the limit (an error in the text before
    that point still comes first, as it would without the check)."""

    def __init__(self, text: str, grammar, max_cells: int, what: str, path: str):
        self.text, self.grammar, self.max_cells, self.what, self.path = text, grammar, max_cells, what, path
        self.rows = self.width = self.first = self.in_all = 0
        self.keep = True

    def row(self, number: int, cells: int) -> bool:
        """One more row, at line number (with this many cells, read only on the first row):
        keep it?"""
        self.rows += 1
        if self.rows == 1:
            self.width, self.first = cells, number
            self.in_all = last_row_line(self.text, self.grammar) - number + 1
            self.keep = self.in_all * self.width <= self.max_cells
        elif not self.keep and self.rows * self.width > self.max_cells:
            self.refuse()
        return self.keep

    def done(self) -> None:
        """The text is read: a grid whose rows were not kept is too large."""
        if not self.keep:
            self.refuse()

    def refuse(self) -> None:
        try:
            check_size(max(self.in_all, self.rows), self.width, self.max_cells, self.what)
        except ValueError as err:
            raise FormatError(self.path, self.first, 1, str(err)) from None


def last_row_line(text: str, grammar: _Grammar | None = None) -> int:
    """The number of the last line of text that is neither blank nor a comment (a grid's rows
    are consecutive, so the rows of a grid read from its first row's line to here are those
    lines), found from the end. grammar None: board text, whose comments are every '#' line."""
    end = len(text)
    last = text.count("\n") + 1
    while True:
        start = text.rfind("\n", 0, end) + 1
        line = text[start:end].strip(_WHITESPACE + "\r")
        if line and not (line.startswith("#") if grammar is None else grammar.is_comment(line)):
            return last
        if start == 0:
            return last
        end, last = start - 1, last - 1


def parse_status(data: bytes | str, path: str = "<string>", max_cells: int = MAX_CELLS) -> tuple[np.ndarray, np.ndarray]:
    """Parse status text into (clues, known): uint8 counts and the mask of cells with a clue.
    A grid of more than max_cells cells is refused (the memory it takes is the input's). Raises
    FormatError naming path, the 1-based line and column, what was expected and what was found.

        >>> clues, known = parse_status("1? 11".replace(" ", chr(10)))
        >>> clues.tolist(), known.tolist()
        ([[1, 0], [1, 1]], [[True, False], [True, True]])
        >>> parse_status("1z", "s.txt")
        Traceback (most recent call last):
        recon.io.text.FormatError: s.txt:1:2: expected a count 0-9, or '?', '.' or '-' for a cell without a clue, got 'z'
    """
    codes, line_numbers, tokens = _read_grid(data, path, _STATUS, max_cells, f"the status in {path}")
    try:
        check_size(*codes.shape, max_cells, f"the status in {path}")
    except ValueError as err:
        raise FormatError(path, line_numbers[0], 1, str(err)) from None
    known = codes != _NO_CLUE
    clues = np.where(known, codes, 0).astype(np.uint8)
    sizes = window_sizes(clues.shape)
    too_big = known & (clues > sizes)
    if too_big.any():
        r, c = (int(v) for v in np.argwhere(too_big)[0])
        col = _column_of(data, path, line_numbers[r], c, tokens)
        raise FormatError(
            path,
            line_numbers[r],
            col,
            f"expected a count 0-{int(sizes[r, c])} at {cell_name(r, c)}, got {int(clues[r, c])}: "
            f"{_where(clues.shape, r, c)} sees only {int(sizes[r, c])} cell{'s' if sizes[r, c] > 1 else ''}",
        )
    return clues, known


def _where(shape: tuple[int, int], r: int, c: int) -> str:
    """Describe a cell's position for a message about its window."""
    rows, cols = shape
    on_row_edge = r in (0, rows - 1)
    on_col_edge = c in (0, cols - 1)
    if rows >= 2 and cols >= 2:
        if on_row_edge and on_col_edge:
            return "a corner cell"
        if on_row_edge or on_col_edge:
            return "an edge cell"
    return f"this cell of a {rows}x{cols} grid"


def _column_of(data: bytes | str, path: str, line_no: int, cell: int, tokens: bool) -> int:
    """Return the 1-based column of the given 0-based cell on a line (errors are rare: recompute)."""
    line = next(line for number, line in text_lines(decode_text(data, path)) if number == line_no).rstrip("\r")
    seen = -1
    in_token = False
    for i, ch in enumerate(line):
        if ch in _WHITESPACE:
            in_token = False
            continue
        if not tokens or not in_token:
            seen += 1
            if seen == cell:
                return i + 1
        in_token = True
    return 1


def parse_field(data: bytes | str, path: str = "<string>", max_cells: int = MAX_CELLS) -> np.ndarray:
    """Parse field text into a boolean array (True = mine)."""
    codes, line_numbers, _ = _read_grid(data, path, _FIELD, max_cells, f"the field in {path}")
    try:
        check_size(*codes.shape, max_cells, f"the field in {path}")
    except ValueError as err:
        raise FormatError(path, line_numbers[0], 1, str(err)) from None
    return codes.astype(bool)


def format_field(field: np.ndarray) -> str:
    """Write a field as text: one line per row, 'x' for a mine, '_' for an empty cell."""
    field = np.asarray(field, dtype=bool)
    chars = field.view(np.uint8) * np.uint8(ord("x") - ord("_"))
    chars += np.uint8(ord("_"))
    return _rows_text(chars)


def format_fields(fields: list[np.ndarray]) -> str:
    """Write several fields separated by one blank line."""
    return "\n".join(format_field(f) for f in fields)


def format_status(clues: np.ndarray, known: np.ndarray | None = None) -> str:
    """Write a status as text: a digit per clue, '?' for a cell without a clue."""
    clues = np.asarray(clues)
    if known is None:
        known = np.ones(clues.shape, dtype=bool)
    return _rows_text(np.where(known, ord("0") + clues.astype(np.uint8), ord("?")).astype(np.uint8))


def _rows_text(chars: np.ndarray) -> str:
    """Join a 2-D array of ASCII codes into text, one line per row, in one buffer."""
    rows, cols = chars.shape
    out = np.full((rows, cols + 1), ord("\n"), dtype=np.uint8)
    out[:, :cols] = chars
    return out.tobytes().decode("ascii")


#: Integers past this many bits are written by decimal_text's halving, not str(): str() takes time
#: quadratic in the digits, and a count of a board's free cells has hundreds of thousands
#: (docs/decisions.md, "Measurements behind the constants").
BIG_BITS = 60_000


def decimal_text(n: int) -> str:
    """The decimal digits of an integer of any size: split in halves by bits until small, the
    halves joined by exact decimal arithmetic (libmpdec multiplies big numbers fast)."""
    if n < 0:
        return "-" + decimal_text(-n)
    if n.bit_length() <= BIG_BITS:
        return str(n)
    powers: dict[int, decimal.Decimal] = {}

    def two_to(w: int) -> decimal.Decimal:
        if w not in powers:
            half = two_to(w >> 1) if w > 1000 else None
            powers[w] = decimal.Decimal(1 << w) if half is None else half * half * (2 if w & 1 else 1)
        return powers[w]

    def digits(m: int, w: int) -> decimal.Decimal:  # m < 2^w
        if w <= 1000:
            return decimal.Decimal(m)
        low = w >> 1
        high = m >> low
        return digits(m - (high << low), low) + digits(high, w - low) * two_to(low)

    with decimal.localcontext() as exact:
        exact.prec, exact.Emax = decimal.MAX_PREC, decimal.MAX_EMAX
        exact.traps[decimal.Inexact] = True
        return str(digits(n, n.bit_length()))


#: Reports to be read (solve's count line, a picture's title) show a count of more digits than
#: this by its first and last digits and its length; `recon count` and JSON give every digit.
SHOWN_DIGITS = 40


def short_decimal(n: int) -> str:
    """A count for a line of a report: its digits, or past SHOWN_DIGITS its first and last ones
    and how many there are (a count with a total on a large board has hundreds of thousands)."""
    text = decimal_text(n)
    if len(text) <= SHOWN_DIGITS:
        return text
    half = SHOWN_DIGITS // 2
    return f"{text[:half]}...{text[-half:]} ({len(text):,} digits)"


def json_text(payload: object) -> str:
    """json.dumps(payload, indent=1), its big integers (past BIG_BITS) written by decimal_text."""
    big: dict[str, int] = {}

    def swap(v):
        if isinstance(v, int) and not isinstance(v, bool) and v.bit_length() > BIG_BITS:
            key = f"\0{len(big)}\0"
            big[key] = v
            return key
        if isinstance(v, dict):
            return {k: swap(x) for k, x in v.items()}
        if isinstance(v, list) and v and isinstance(v[0], (int, dict, list)):
            return [swap(x) for x in v]
        return v

    text = json.dumps(swap(payload), indent=1)
    for key, n in big.items():
        text = text.replace(json.dumps(key), decimal_text(n), 1)
    return text
