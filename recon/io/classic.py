"""Classic Minesweeper boards, read as recon's problems: a partial status plus fixed cells plus,
optionally, the total number of mines.

An opened cell shows the mines among its 8 neighbours and is itself empty, so its count without
itself is its count with itself: a clue of recon's kind, on a cell fixed empty. A flag is a cell
fixed a mine. Nothing else changes: every engine that takes fixed cells (and the total) solves a
board (`recon.engines.TAKES`).

Board text (the code-golf "Can I sweep the mines?" format): one row per line, a digit 0-8 an
opened cell, `?` a covered cell, `*` a known mine (a flag). A comment line `# mines: N` gives the
total (the same as `--mines N`); other `#` lines and blank lines before and after the grid are
comments. That line also marks the text as a board wherever a status is read (a status has no total,
and `recon generate --classic` writes it), so such a file needs no `--classic`.

LEGUP Minesweeper XML (`<puzzle name="Minesweeper">`) is recognised as a board wherever a status
is read: cell values 1-8 are numbers, 0 (EMPTY) a cell known safe without a number, -1 (MINE) a
known mine, -2 (UNSET) or a cell not listed unknown. A cell listed twice takes the later value.

LEGUP's optional third rule, every mine sees a number, makes every covered cell that sees no
number safe (`board_problem(..., mines_see_numbers=True)`; off by default, as in the shared counts).

A board is held as int8 cells: 0-8 an opened cell's number, COVERED, FLAG, or SAFE (known empty,
no number shown).
"""

from __future__ import annotations

import hashlib
import re
from itertools import islice

import numpy as np

from ..model import MAX_CELLS, OPEN, Problem, check_size, make_problem, status
from .foreign import _whole, _xml_elements, legup_board
from .text import FormatError, SizeCheck, decode_text, read_plain_grid, text_lines

_MINES = re.compile(r"#\s*mines\s*:\s*(\S*)\s*$", re.IGNORECASE)
# The detectors below look at the raw bytes (a regex, a prefix), never decode or split a whole
# input: they run on every input read, up to the 256 MiB limit.
_XML_START = re.compile(rb"(?:\xef\xbb\xbf)?\s*<")
_BOARD_ROW = re.compile(rb"[0-8?*]+")
_FIRST_ROW = re.compile(rb"^[ \t\r]*([^#\s][^\r\n]*)", re.MULTILINE)
_MINES_LINE = re.compile(rb"^[ \t]*#[ \t]*mines[ \t]*:", re.IGNORECASE | re.MULTILINE)
_LEGUP_MINESWEEPER = re.compile(rb"<puzzle\b[^>]*\bname\s*=\s*[\"']Minesweeper[\"']")
COVERED, FLAG, SAFE = -1, -2, -3
_NOT_A_CELL = 127
# each ASCII character's cell value, _NOT_A_CELL for the others: a row is read in one lookup (a
# character at a time was most of the time to read a large board: docs/decisions.md)
_CELL_OF = np.full(128, _NOT_A_CELL, dtype=np.int8)
_CELL_OF[ord("0") : ord("8") + 1] = np.arange(9)
_CELL_OF[ord("?")], _CELL_OF[ord("*")] = COVERED, FLAG
# the same for `read_plain_grid`, each value plus 3: none of them is its "not a cell", -1
_PLAIN_CELLS = np.full(256, -1, dtype=np.int8)
_PLAIN_CELLS[:128] = np.where(_CELL_OF == _NOT_A_CELL, -1, _CELL_OF.astype(np.int16) + 3)


def parse_board(data: bytes | str, path: str = "<string>", max_cells: int = MAX_CELLS, *,
                check_total: bool = True) -> tuple[np.ndarray, int | None]:
    """Read board text: (cells, total or None). cells is int8: 0-8 an opened cell's number,
    -1 covered, -2 flagged; errors name the line and column, a total the board cannot hold
    included (unless check_total is False: a total given elsewhere overrides it)."""
    check = f"the board in {path}"
    plain = read_plain_grid(data, _PLAIN_CELLS)  # every byte a cell or a line end: no comment, no total
    if plain is not None:
        codes, numbers = plain
        try:
            check_size(*codes.shape, max_cells, check)
        except ValueError as err:
            raise FormatError(path, numbers[0], 1, str(err)) from None
        return _checked(codes - 3, path, lambda r, c: (numbers[r], c + 1)), None
    text = decode_text(data, path)
    rows: list[tuple[int, str]] = []
    mines = None
    gap = None
    size = SizeCheck(text, None, max_cells, check, path)
    for number, raw in text_lines(text):
        line = raw.rstrip("\r").strip()
        if not line or line.startswith("#"):
            m = _MINES.match(line)
            if m:
                if not (m.group(1).isascii() and m.group(1).isdigit() and len(m.group(1)) <= 9):
                    col = raw.index(m.group(1)) + 1 if m.group(1) else len(raw) + 1
                    raise FormatError(path, number, col, f"expected the total number of mines after '# mines:', got {m.group(1)!r}")
                mines, at = int(m.group(1)), (number, raw.index(m.group(1)) + 1)
            elif size.rows and gap is None:
                gap = number
            continue
        if gap is not None:
            raise FormatError(path, gap, 1, "expected the next row of the board, got a blank or comment line; rows must be consecutive")
        if size.row(number, len(line)):
            rows.append((number, raw.rstrip("\r")))
    size.done()  # (the rows kept are within max_cells)
    if not rows:
        raise FormatError(path, 1, 1, "expected a classic Minesweeper board, got no rows")
    width = len(rows[0][1].strip())
    cells = np.empty((len(rows), width), dtype=np.int8)
    for r, (number, raw) in enumerate(rows):
        offset = len(raw) - len(raw.lstrip())
        content = raw.strip()
        if len(content) != width:
            raise FormatError(path, number, offset + min(width, len(content)) + 1,
                              f"expected {width} cells in this row like in the first row (line {rows[0][0]}), got {len(content)}")
        start = 0  # (a character that is not ASCII: each is checked below, and the first bad one named)
        if content.isascii():
            row = _CELL_OF[np.frombuffer(content.encode("ascii"), dtype=np.uint8)]
            bad = np.flatnonzero(row == _NOT_A_CELL)
            if not bad.size:
                cells[r] = row
                continue
            start = int(bad[0])
        for c, ch in enumerate(content[start:], start):
            if "0" <= ch <= "8":
                cells[r, c] = ord(ch) - ord("0")
            elif ch == "?":
                cells[r, c] = COVERED
            elif ch == "*":
                cells[r, c] = FLAG
            else:
                what = "a 9 (a classic number counts at most 8 neighbours)" if ch == "9" else repr(ch)
                raise FormatError(path, number, offset + c + 1,
                                  f"expected a number 0-8 (an opened cell), '?' (covered) or '*' (a mine), got {what}")
    _checked(cells, path, lambda r, c: (rows[r][0], len(rows[r][1]) - len(rows[r][1].lstrip()) + c + 1))
    if mines is not None and check_total:
        low, high = total_range(cells)
        if not low <= mines <= high:
            raise FormatError(path, *at, f"expected a total of {low} to {high} mines (the board has {low} flagged and "
                              f"{high} cells not opened), got {mines}")
    return cells, mines


def _checked(cells: np.ndarray, path: str, where) -> np.ndarray:
    """cells, once no opened cell's number is more than its neighbours (where(r, c): the line and
    column of a cell, for the message)."""
    neighbours = status(np.ones(cells.shape, dtype=bool)) - 1
    too_many = (cells >= 0) & (cells > neighbours)
    if too_many.any():
        r, c = (int(v) for v in np.argwhere(too_many)[0])
        raise FormatError(path, *where(r, c),
                          f"expected a number 0-{int(neighbours[r, c])} at r{r + 1}c{c + 1}, got {int(cells[r, c])}: "
                          f"the cell has {int(neighbours[r, c])} neighbours")
    return cells


def total_range(cells: np.ndarray) -> tuple[int, int]:
    """The totals a board can hold: from its flags to its flags and covered cells."""
    flags = int((cells == FLAG).sum())
    return flags, flags + int((cells == COVERED).sum())


def numbers_beside_covered(cells: np.ndarray) -> np.ndarray:
    """The opened cells with a covered neighbour (bool, the board's shape): the only numbers that
    still tell something once the flags are read as mines."""
    return (cells >= 0) & (status(cells == COVERED) > 0)


def board_problem(cells: np.ndarray, mines: int | None = None, *, mines_see_numbers: bool = False) -> Problem:
    """The problem of a board (as parse_board reads it): a clue and a fixed empty cell at each
    opened cell, a fixed mine at each flag, and the total if given. ValueError for a total the
    board cannot hold (below its flags, above its cells less the opened ones, or negative).

    mines_see_numbers: LEGUP's optional third rule, every mine sees a number: a covered cell
    with no number among its neighbours is empty (ValueError for a flag that sees none)."""
    opened = cells >= 0
    flags = cells == FLAG
    if mines_see_numbers:
        seen = status(opened) > 0  # an opened cell counts itself too, but it is no mine
        lonely = flags & ~seen
        if lonely.any():
            r, c = (int(v) for v in np.argwhere(lonely)[0])
            raise ValueError(f"the mine at r{r + 1}c{c + 1} sees no number, which the rule that every mine "
                             "sees a number (--mines-see-numbers) forbids: the board has no solution under it")
        cells = np.where((cells == COVERED) & ~seen, SAFE, cells).astype(np.int8)
    if mines is not None:
        low, high = total_range(cells)
        if not low <= mines <= high:
            raise ValueError(f"the total of {mines} mines cannot be met: the board has {low} flagged and "
                             f"{high} cells not opened, so it holds {low} to {high} mines")
    fixed = np.full(cells.shape, OPEN, dtype=np.int8)
    fixed[opened | (cells == SAFE)] = 0
    fixed[flags] = 1
    return make_problem(np.where(opened, cells, 0).astype(np.uint8), opened, fixed, mines)


def _raw(data: bytes | str) -> bytes:
    return data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")


def is_legup_minesweeper(data: bytes | str) -> bool:
    """Is this a LEGUP Minesweeper puzzle (by its puzzle name)?"""
    raw = _raw(data)
    return bool(_XML_START.match(raw)) and bool(_LEGUP_MINESWEEPER.search(raw))


def total_line(data: bytes | str) -> int | None:
    """The 1-based line of board text's '# mines: N' (text that gives its total), or None. A field
    with that line (generate's --field writes one) is not board text: its first row is not made of
    0-8, ? and *."""
    raw = _raw(data).removeprefix(b"\xef\xbb\xbf")
    if b"#" not in raw or _XML_START.match(raw):
        return None
    m = _MINES_LINE.search(raw)
    first = _FIRST_ROW.search(raw)
    if m is None or first is None or not _BOARD_ROW.fullmatch(first.group(1).strip()):
        return None
    return raw.count(b"\n", 0, m.start()) + 1


def parse_legup_minesweeper(data: bytes | str, path: str = "<string>", max_cells: int = MAX_CELLS) -> np.ndarray:
    """Read a LEGUP Minesweeper puzzle as board cells (see the module's notes); errors point at
    the element and quote the value as written."""
    elements = _xml_elements(decode_text(data, path).removeprefix("\ufeff"), path, max_cells)
    first, height, width, holders = legup_board(elements, path, max_cells)
    cells = np.full((height, width), COVERED, dtype=np.int8)
    seen: dict[tuple[int, int], int] = {}
    for tag, cell, parent, line, col in elements[first + 1 :]:
        if tag != "cell" or parent not in holders:
            continue
        written = cell.get("value", "")
        value, x, y = (_whole(cell.get(key, "").strip()) for key in ("value", "x", "y"))
        if x is None or y is None or not (0 <= x < width and 0 <= y < height):
            raise FormatError(path, line, col, f"expected a cell inside the {width}x{height} board, got x={cell.get('x')!r} y={cell.get('y')!r}")
        seen[y, x] = line  # a cell listed twice (LEGUP's own files have some): the later one holds, as in LEGUP
        if value is None or not -2 <= value <= 8:
            raise FormatError(path, line, col, f"expected a Minesweeper value 1-8 (a number), 0 (empty), -1 (mine) or -2 (unset), got value={written!r}")
        cells[y, x] = {-2: COVERED, -1: FLAG, 0: SAFE}.get(value, value)
    neighbours = status(np.ones(cells.shape, dtype=bool)) - 1
    too_many = cells > neighbours
    if too_many.any():
        r, c = (int(v) for v in np.argwhere(too_many)[0])
        raise FormatError(path, seen.get((r, c), 1), 1, f"expected a number 0-{int(neighbours[r, c])} at x={c} y={r}, got {int(cells[r, c])}: "
                          f"the cell has {int(neighbours[r, c])} neighbours")
    return cells


#: bytes.split's whitespace, a byte at a time
_SPACE = np.zeros(256, dtype=bool)
_SPACE[list(b" \t\n\r\x0b\x0c")] = True


def is_endoh1(data: bytes | str) -> bool:
    """Is this an IOCCC 2020 endoh1 map: 'W H C' (on one line, as `parse_endoh1` reads them),
    then W*H numbers that are a permutation of 0..W*H-1? (A status written as tokens, '0 1 1' a
    row, is not one.) The tokens are counted in numpy first: every input to solve is asked, and
    one of millions of numbers took a minute to look at one by one."""
    raw = _raw(data)
    head = re.match(rb"\s*(\S+)[^\S\n]+(\S+)[^\S\n]+(\S+)", raw)
    if head is None or not all(t.isdigit() and len(t) <= 9 for t in head.groups()):
        return False
    space = _SPACE[np.frombuffer(raw, dtype=np.uint8)]
    tokens = int(np.count_nonzero(space[:-1] & ~space[1:])) + int(not space[0])
    if tokens != 3 + int(head.group(1)) * int(head.group(2)):
        return False
    tokens = (m.group() for m in re.finditer(rb"\S+", raw))
    numbers = []
    for token in tokens:
        if not (token.isdigit() and len(token) <= 9):
            return False
        numbers.append(int(token))
        if len(numbers) > 3 and len(numbers) > 3 + numbers[0] * numbers[1]:
            return False
    cells = len(numbers) - 3
    return cells >= 1 and cells == numbers[0] * numbers[1] and sorted(numbers[3:]) == list(range(cells))


_LINE_ENDS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # str.splitlines' line boundaries
_FIRST_TOKEN_LINE = re.compile(f"[^{_LINE_ENDS}]*\\S[^{_LINE_ENDS}]*")
_NOT_A_DIGIT = re.compile(r"[^\s0-9]")
_ABOVE_ONE = re.compile(r"(?<!\S)0*(?:[2-9]|1[0-9])")


def looks_like_endoh1(data: bytes | str) -> bool:
    """Is this meant as an endoh1 map, valid or not: whole numbers only, three on the first line
    that has any, and a number above 1 somewhere (a field's 1/0 cells have none)? For readers
    that take a map or a field (`recon play`): such a file gets parse_endoh1's message on what is
    wrong, not the field reader's."""
    if not re.match(rb"(?:\xef\xbb\xbf)?\s*\d", _raw(data)):  # a field of x and _: no need to split it all
        return False
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    # each test a regular expression over the whole text, none a list of its tokens (a file of
    # 40 million numbers took 4 GB): the first line with a token (lines as str.splitlines has
    # them), a character neither blank nor an ASCII digit, a token other than 0...0 or 0...01
    first = _FIRST_TOKEN_LINE.search(text)
    return (first is not None and len(first.group().split()) == 3 and _NOT_A_DIGIT.search(text) is None
            and _ABOVE_ONE.search(text) is not None)


def parse_endoh1(data: bytes | str, path: str = "<string>", max_cells: int = MAX_CELLS) -> tuple[np.ndarray, int]:
    """Read an endoh1 map: 'W H C', then W*H numbers row by row, a permutation of 0..W*H-1; a
    cell is a mine when its number is below C. Returns (field, mines)."""
    text = decode_text(data, path)
    # (token, line, column), one at a time: the header's size is checked before the body is kept
    tokens = ((m.group(), number, m.start() + 1) for number, line in text_lines(text) for m in re.finditer(r"\S+", line))
    header = list(islice(tokens, 3))
    if len(header) < 3 or header[2][1] != header[0][1]:
        line = header[0][1] if header else 1
        raise FormatError(path, line, 1, "expected an endoh1 map: 'W H C' (width, height, mines) on its first line, then W*H numbers")
    head = []
    for token, line, col in header:
        if not (token.isascii() and token.isdigit() and len(token) <= 9):
            raise FormatError(path, line, col, f"expected a whole number (W, H or C of the endoh1 map), got {token!r}")
        head.append(int(token))
    width, height, mines = head
    if width < 1 or height < 1:
        raise FormatError(path, header[0][1], header[0][2], f"expected a map of at least 1x1, got {width}x{height}")
    try:
        check_size(height, width, max_cells, "the endoh1 map")
    except ValueError as err:
        raise FormatError(path, header[0][1], header[0][2], str(err)) from None
    body = list(islice(tokens, width * height + 1))  # one more tells a body too long: the rest is counted
    if len(body) != width * height:
        line, col = (body[width * height][1:] if len(body) > width * height else (body or header)[-1][1:])
        got = len(body) + sum(1 for _ in tokens)
        raise FormatError(path, line, col, f"expected {width * height} numbers ({width}x{height}) after the header, got {got}")
    values = np.empty(width * height, dtype=np.int64)
    for i, (token, line, col) in enumerate(body):
        if not (token.isascii() and token.isdigit() and len(token) <= 9) or int(token) >= width * height:
            raise FormatError(path, line, col, f"expected a number 0-{width * height - 1} (a cell's place in the order), got {token!r}")
        values[i] = int(token)
    if len(np.unique(values)) != values.size:
        raise FormatError(path, body[0][1], body[0][2], "expected each number 0..W*H-1 once (a permutation), got repeats")
    if mines > width * height:
        raise FormatError(path, header[2][1], header[2][2], f"expected at most {width * height} mines, got {mines}")
    return (values < mines).reshape(height, width), mines


CLASSIC_FORMATS = ("board", "field", "mines", "endoh1")


def format_board(cells: np.ndarray) -> str:
    """Board text (numbers, '?' covered, '*' a flag), one row per line."""
    chars = {COVERED: "?", FLAG: "*", SAFE: "?"}
    return "".join("".join(chars.get(int(v), str(int(v))) for v in row) + "\n" for row in cells)


def mines_id_problem(rows: int, cols: int, mines: int) -> str | None:
    """Why Simon Tatham's Mines would refuse a game ID of this size, or None. His validate_params
    checks these even for an ID with its layout given, so a board outside them plays only here."""
    if max(rows, cols) > 32767:
        return f"Tatham's Mines takes sides of at most 32,767 cells, not {rows}x{cols}"
    if not 1 <= mines <= rows * cols - 9:
        most = f"at most {rows * cols - 9:,}" if rows * cols > 9 else "none"
        return (f"Tatham's Mines takes from 1 mine to 9 fewer than the cells on a board ({most} on {rows}x{cols}), "
                f"not {mines:,}")
    return None


def format_mines_id(field: np.ndarray, first: tuple[int, int]) -> str:
    """Simon Tatham's Mines game ID: 'WxHnN:x,y,u' then the mines as a hex bitmap, row by row,
    the first cell in the high bit (his describe_layout, unobfuscated 'u'); x, y the first click,
    0-based, column first. His Mines opens that cell first."""
    rows, cols = field.shape
    bits = np.asarray(field, dtype=bool).ravel()
    padded = np.zeros(-(-bits.size // 4) * 4, dtype=bool)
    padded[: bits.size] = bits
    nibbles = padded.reshape(-1, 4) @ np.array([8, 4, 2, 1])
    r, c = first
    return f"{cols}x{rows}n{int(bits.sum())}:{c},{r},u" + "".join("0123456789abcdef"[int(v)] for v in nibbles) + "\n"


def format_endoh1(field: np.ndarray) -> str:
    """An IOCCC 2020 endoh1 map of the field: 'W H C', then a priority per cell row by row (the
    mines get 0..C-1 in reading order, the other cells C.. after them)."""
    rows, cols = field.shape
    flat = np.asarray(field, dtype=bool).ravel()
    order = np.empty(flat.size, dtype=np.int64)
    mines = np.flatnonzero(flat)
    order[mines] = np.arange(len(mines))
    order[np.flatnonzero(~flat)] = np.arange(len(mines), flat.size)
    lines = [f"{cols} {rows} {len(mines)}"]
    lines += [" ".join(str(v) for v in order[r * cols : (r + 1) * cols]) for r in range(rows)]
    return "\n".join(lines) + "\n"


_MINES_ID = re.compile(rb"\s*\d{1,9}x\d{1,9}(n\d{1,9})?a?:\d{1,9},\d{1,9},[um]?[0-9a-fA-F]")


def is_mines_id(data: bytes | str) -> bool:
    """Does this start like a Tatham Mines game ID ('WxH:x,y,m...', 'WxHnN:x,y,u...')? (A Mosaic
    ID, 'WxH:...', has no comma.)"""
    return bool(_MINES_ID.match(_raw(data)))


def mask_layout(layout: bytes, bits: int, decode: bool) -> bytes:
    """Simon Tatham's obfuscate_bitmap (his misc.c), for a Mines ID's 'm' layout: the bytes split
    in half (the first half rounded down); each half is XORed with SHA-1 of the other half
    followed by "0", "1", ... in turn (the second half first when decoding), and the pad bits past
    `bits` are cleared after each step."""
    out = bytearray(layout)
    half = len(out) // 2
    steps = [(slice(half, None), slice(0, half)), (slice(0, half), slice(half, None))]
    for seed, target in reversed(steps) if decode else steps:
        size = len(out[target])
        stream = b"".join(hashlib.sha1(bytes(out[seed]) + str(k).encode()).digest() for k in range(-(-size // 20)))
        out[target] = bytes(a ^ b for a, b in zip(out[target], stream))
        if bits % 8:
            out[bits // 8] &= 0xFF & (0xFF00 >> (bits % 8))
    return bytes(out)


def parse_mines_id(text: str, path: str = "<string>", max_cells: int = MAX_CELLS) -> tuple[np.ndarray, tuple[int, int]]:
    """Read a Tatham Mines game ID, 'WxH:x,y,m<hex>' as his Mines shows it (the layout masked), or
    with the mine count ('WxHnN:') or the layout unmasked ('u', as recon writes it): (field, first
    click). FormatError for anything else."""
    m = re.fullmatch(r"\s*(\d{1,9})x(\d{1,9})(?:n(\d{1,9}))?a?:(\d{1,9}),(\d{1,9}),([um]?)([0-9a-fA-F]*)\s*", text)
    if not m:
        raise FormatError(path, 1, 1, "expected a Tatham Mines game ID 'WxH:x,y,m<hex>' (or 'WxHnN:', or u<hex>, unmasked)")
    cols, rows, x, y = (int(m.group(i)) for i in (1, 2, 4, 5))
    try:
        check_size(rows, cols, max_cells, "the Mines board")
    except ValueError as err:
        raise FormatError(path, 1, 1, str(err)) from None
    hexes = m.group(7)
    if len(hexes) != -(-rows * cols // 4):
        raise FormatError(path, 1, m.start(7) + 1, f"expected {-(-rows * cols // 4)} hex digits for {cols}x{rows} cells, got {len(hexes)}")
    layout = bytes.fromhex(hexes + "0" * (-(-rows * cols // 8) * 2 - len(hexes)))
    if m.group(6) == "m":
        layout = mask_layout(layout, rows * cols, decode=True)
    field = np.unpackbits(np.frombuffer(layout, dtype=np.uint8))[: rows * cols].astype(bool).reshape(rows, cols)
    if m.group(3) is not None and int(field.sum()) != int(m.group(3)):  # his own IDs leave the count to the layout
        n = int(m.group(3))
        raise FormatError(path, 1, m.start(3) + 1, f"expected {n} mines in the layout (the ID's n{n}), got {int(field.sum())}")
    if not (0 <= y < rows and 0 <= x < cols):
        raise FormatError(path, 1, m.start(4) + 1, f"expected a first click inside the {cols}x{rows} board (x 0-{cols - 1}, "
                          f"y 0-{rows - 1}), got ({x},{y})")
    if field[y, x]:
        raise FormatError(path, 1, m.start(4) + 1, f"expected a first click on a cell without a mine, got ({x},{y}), a mine in the layout")
    return field, (y, x)
