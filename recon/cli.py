"""The command line: the only place that reads files, prints, and turns errors into exit codes."""

from __future__ import annotations

import argparse
import math
import os
import re
import shlex
import signal
import sys
import textwrap
import time
import traceback
from collections.abc import Sequence
from typing import TextIO

import numpy as np

from . import __version__
from .io.classic import (CLASSIC_FORMATS, COVERED, format_board, format_endoh1, format_mines_id, is_endoh1,
                         is_legup_minesweeper, is_mines_id, looks_like_endoh1, mines_id_problem, parse_board, parse_endoh1,
                         parse_legup_minesweeper, total_line, total_range)
from .io.files import check_writable_path, same_file, write_text_atomically
from .io.pictures import PICTURE_FORMATS
from .io.reading import InputError, problem_from_bytes, refuse_whole_field
from .io.text import FormatError, decimal_text, decode_text, format_field, format_fields, json_text, parse_field, short_decimal
from .counting import COUNT_SECONDS
from .io.foreign import FORMATS, check_writable, mosaic_refusal, read_any_status, write_puzzle
from .model import (MAX_CELLS, OPEN, Problem, cell_name, check_size, equations, make_problem, random_field, status,
                    unseen_open_cells)
from .result import EngineDisagreement, EngineError, Grade, Result, Verdict
from .compiled import AVAILABLE as COMPILED_AVAILABLE
from .engines.sat import AVAILABLE as SAT_AVAILABLE, Unavailable
from .solver import ENGINE_CHOICES, CannotTake, TotalTooLarge, plan, solve

#: From this many cells, generation without an extra takes seconds where it would take a fraction
#: of one with it, so the report says which extra to install (docs/performance.md has the numbers).
EXTRA_HINT_CELLS = 400
#: By grade: the extra generation leans on, what installs it, and how much faster it makes
#: generation (bench/bench_puzzle.py --extras-ab; docs/performance.md).
EXTRA_HINTS = {
    "advanced": ("numba", "fast,sat", "14x at 20x20, 17x at 30x30"),
    "elimination": ("numba", "fast,sat", "25x at 20x20, 40x at 30x30"),
    "search": ("python-sat", "sat", "10x at 20x20, 26x at 30x30"),
}
#: The most processes --workers starts (more than a machine has cores only crowd it).
MAX_WORKERS = 1024
#: Seconds between two progress lines of recon generate.
PROGRESS_SECONDS = 1.0

EXIT_UNIQUE = 0
EXIT_NONE = 1
EXIT_USAGE = 2
EXIT_MULTIPLE = 3
EXIT_UNDECIDED = 4
EXIT_INTERNAL = 70

EXIT_CODES = {
    Verdict.UNIQUE: EXIT_UNIQUE,
    Verdict.NONE: EXIT_NONE,
    Verdict.MULTIPLE: EXIT_MULTIPLE,
    Verdict.UNDECIDED: EXIT_UNDECIDED,
}

#: What each exit status means. A command's help lists the statuses it can give (exit_help);
#: a command that makes something (generate, autoplay) says 4 when nothing was made.
EXIT_MEANINGS = {
    EXIT_UNIQUE: "exactly one solution (proved)",
    EXIT_NONE: "no solution (proved)",
    EXIT_USAGE: "usage or input error",
    EXIT_MULTIPLE: "several solutions",
    EXIT_UNDECIDED: "undecided: the time limit was reached before a verdict was proved",
    EXIT_INTERNAL: "internal error: a bug, please report it",
    130: "interrupted (Ctrl-C)",
    143: "stopped by SIGTERM; a temporary output file is removed",
}
VERDICT_EXITS = {**{code: EXIT_MEANINGS[code] for code in (EXIT_UNIQUE, EXIT_NONE, EXIT_MULTIPLE, EXIT_UNDECIDED)},
                 EXIT_INTERNAL: "internal error, such as engines that disagree: a bug, please report it"}


def exit_help(own: dict[int, str]) -> str:
    """The exit status table of a command: its own statuses, then those every command can give."""
    table = {**own, **{code: EXIT_MEANINGS[code] for code in (EXIT_USAGE, EXIT_INTERNAL, 130, 143) if code not in own}}
    return "exit status:\n" + "".join(f"  {code:<4}{table[code]}\n" for code in sorted(table))


class HelpFormatter(argparse.HelpFormatter):
    """Prose wrapped to the terminal, paragraph by paragraph; a block whose later lines are
    indented (the exit status table) kept as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out = []
        for block in text.strip("\n").split("\n\n"):
            lines = block.splitlines()
            if any(line[:1].isspace() for line in lines[1:]):
                out.append("\n".join(indent + line for line in lines))
            else:
                out.append(textwrap.fill(" ".join(block.split()), width, initial_indent=indent, subsequent_indent=indent))
        return "\n\n".join(out) + "\n"


class UsageError(Exception):
    """A problem with the command line or with a file named on it; exit status 2."""


class _Stdout:
    """Standard output for the commands. Closed by the caller (`>&-`: sys.stdout is None) or
    refusing a write (a full disk), it is the caller's to hear of: a usage error (exit 2), not a
    bug. A reader that went away (a broken pipe) ends the command quietly, as before."""

    def __init__(self, stream):
        self.stream = stream

    def _do(self, act):
        if self.stream is None:
            raise UsageError("standard output is closed: there is nowhere to write the output (redirect it, "
                             "or give --out FILE where the command has it)")
        try:
            return act(self.stream)
        except BrokenPipeError:
            raise
        except OSError as err:
            raise UsageError(f"cannot write standard output: {err.strerror or err}") from None

    def write(self, text: str) -> int:
        return self._do(lambda stream: stream.write(text))

    def flush(self) -> None:
        if self.stream is not None:  # nothing was written to a closed one
            self._do(lambda stream: stream.flush())

    def isatty(self) -> bool:  # (a stream passed to main need not have isatty)
        return bool(getattr(self.stream, "isatty", lambda: False)())


class _Stderr(_Stdout):
    """Standard error for the commands. Closed or refusing a write (`2>&-`, `2>/dev/full`), it
    drops the messages, as the caller arranged; the exit status still tells."""

    def _do(self, act):
        try:
            return None if self.stream is None else act(self.stream)
        except OSError:
            return None

    def write(self, text: str) -> int:
        self._do(lambda stream: stream.write(text))
        return len(text)


# ----------------------------------------------------------------------------- arguments


def _whole(name: str, low: int, high: int | None = None):
    def parse(text: str) -> int:
        value = None
        digits = text.strip().removeprefix("-")
        if digits.isascii() and digits.isdigit() and len(digits) <= 40:  # no int() of a huge string
            value = int(text)
        if value is None or value < low or (high is not None and value > high):
            allowed = f">= {low}" if high is None else f"from {low} to {high}"
            raise argparse.ArgumentTypeError(f"{name} must be a whole number {allowed}, got {text!r}")
        return value

    return parse


def _number(text: str) -> float:
    """Read a finite number, or NaN when the text is not one."""
    try:
        value = float(text)
    except ValueError:
        return math.nan
    return value if math.isfinite(value) else math.nan


def _percent(text: str) -> float:
    value = _number(text)
    if not 0 <= value <= 100:  # False for NaN too
        raise argparse.ArgumentTypeError(f"P must be a percentage from 0 to 100, got {text!r}")
    return value


def _seconds(text: str) -> float:
    value = _number(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"SECONDS must be a positive number, got {text!r}")
    return value


def _command(commands, name: str, help: str, description: str, file_help: str, classic: bool = False,
             exits: dict[int, str] = VERDICT_EXITS, max_cells: int | None = MAX_CELLS) -> argparse.ArgumentParser:
    """Add a subcommand that reads FILE, with its exit statuses in its help."""
    parser = commands.add_parser(
        name,
        help=help,
        description=description,
        epilog=exit_help(exits),
        formatter_class=HelpFormatter,
    )
    parser.add_argument("file", metavar="FILE", help=file_help)
    _max_cells_option(parser, max_cells)
    if classic:
        parser.add_argument("--classic", action="store_true",
                            help="FILE is a classic Minesweeper board: 0-8 opened (counting the 8 neighbours), ? covered, * a mine")
        parser.add_argument("--mines", metavar="N", type=_whole("N", 0),
                            help="on a classic board: it holds N mines in all, flags included (or a line '# mines: N', which also "
                                 "marks the file as a board)")
        parser.add_argument("--mines-see-numbers", action="store_true",
                            help="on a classic board: every mine sees a number (LEGUP's optional third rule), so a covered "
                                 "cell that sees none is empty")
    return parser


#: explain keeps trimming's state and every deduction of the whole grid in Python objects: past
#: this many cells that takes gigabytes (docs/performance.md, "Explain at size")
EXPLAIN_MAX_CELLS = 1_000_000


def _max_cells_option(parser: argparse.ArgumentParser, default: int | None = MAX_CELLS) -> None:
    """--max-cells; a default of None (solve) is MAX_CELLS, or EXPLAIN_MAX_CELLS with --explain."""
    shown = f"{default:,}" if default is not None else f"{MAX_CELLS:,}; with --explain {EXPLAIN_MAX_CELLS:,}"
    parser.add_argument("--max-cells", metavar="N", type=_whole("N", 1), default=default,
                        help=f"refuse grids of more than N cells before making them (default: {shown})")


STATUS_FILE = "status file, or - for standard input"


def _solve_options(parser: argparse.ArgumentParser, shown: str) -> None:
    """Add --max-solutions and --time-limit, shared by the commands that solve."""
    parser.add_argument(
        "--max-solutions", metavar="K", type=_whole("K", 1), default=2, help=f"{shown} at most K solutions (default: 2)"
    )
    parser.add_argument("--time-limit", metavar="SECONDS", type=_seconds, help="give up with 'undecided' after SECONDS")


def _ways_option(parser: argparse.ArgumentParser, when: str = "") -> None:
    """Add --ways, the case splits' budget, shared by explain and solve --explain."""
    parser.add_argument("--ways", metavar="N", type=_whole("N", 0),
                        help=f"{when}let trimming's case splits follow at most N ways in all (default: 2,000 + 8 a cell, "
                        "at most 12,000); more lets the proof of a larger search-grade puzzle finish, and takes longer")


def _out_option(parser: argparse.ArgumentParser) -> None:
    """Add --out, shared by the commands that print a result."""
    parser.add_argument("--out", metavar="FILE", help="write the output to FILE (atomically) instead of stdout")


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the recon command."""
    parser = argparse.ArgumentParser(
        prog="recon",
        description="Reconstruct hidden mine fields from their 3x3 mine counts (the cell included).",
        epilog=exit_help({
            **VERDICT_EXITS,
            EXIT_UNIQUE: "done; solve, explain, count and render: exactly one solution (proved)",
            EXIT_UNDECIDED: "undecided: a limit was reached first (generate, autoplay: nothing made)",
        }),
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"recon {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    parser.set_defaults(commands=commands.choices)

    p = _command(
        commands,
        "solve",
        "reconstruct the field(s) of a status file",
        "Reconstruct every field whose status matches FILE, prove whether it is the only one, "
        "and print the solutions (x = mine, _ = empty).",
        STATUS_FILE,
        classic=True,
        max_cells=None,
    )
    p.add_argument(
        "--engine",
        choices=ENGINE_CHOICES,
        default="auto",
        help="auto: the fastest exact engine, cross-checked by another on inputs up to 10,000 cells; "
        "all: every engine; or one engine by name (default: auto)",
    )
    p.add_argument(
        "--max-solutions",
        metavar="K",
        type=_whole("K", 1),
        default=2,
        help="show at most K solutions; recon looks for K+1 to know whether the count is exact (default: 2)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of fields")
    _out_option(p)
    p.add_argument("--time-limit", metavar="SECONDS", type=_seconds, help="give up with 'undecided' after SECONDS")
    p.add_argument("-q", "--quiet", action="store_true", help="no report on stderr")
    p.add_argument(
        "--explain",
        action="store_true",
        help="also run trimming and print its deductions (on stderr; in the JSON object with --json)",
    )
    _ways_option(p, "with --explain: ")
    p.add_argument(
        "--count",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="with several solutions, count them exactly and give the mine probability of each cell that "
        "varies, within a second (default: on)",
    )

    e = _command(
        commands,
        "explain",
        "print the equations and the deductions that solve a status file",
        "Write one equation per clue, then one line per deduction of the trimming rules "
        "(rule, equations used, cells fixed), the difficulty grade, and what a search decided where "
        "trimming stops short.",
        STATUS_FILE,
        classic=True,
        max_cells=EXPLAIN_MAX_CELLS,
    )
    e.add_argument("--json", action="store_true", help="print the trace as one JSON object")
    _out_option(e)
    _solve_options(e, "show")
    _ways_option(e)

    c = _command(
        commands,
        "count",
        "count the fields that match a status exactly, with per-cell mine probabilities",
        "Print the exact number of fields whose status matches FILE (a full status is counted "
        "by exact algebra, however large the number; a partial one by enumeration up to --limit). "
        "--probabilities adds, per cell, the fraction of those fields with a mine there.",
        STATUS_FILE,
        classic=True,
        exits={**VERDICT_EXITS, EXIT_UNDECIDED: "a limit was reached first: the count printed is a lower bound"},
    )
    c.add_argument("--probabilities", action="store_true", help="print each cell's mine probability")
    c.add_argument("--json", action="store_true", help="print one JSON object (exact fractions)")
    _out_option(c)
    c.add_argument("--limit", metavar="N", type=_whole("N", 1), default=100_000, help="enumerate at most N solutions of a partial status (default: 100000)")
    c.add_argument("--time-limit", metavar="SECONDS", type=_seconds, default=COUNT_SECONDS,
                   help=f"stop enumerating after SECONDS (default: {COUNT_SECONDS:g}); the count is then a lower bound")
    c.add_argument("--picture", metavar="PICTURE", help="also draw the probabilities as a heat map (.png, .svg or .pdf; needs recon[plot])")

    r = _command(
        commands,
        "render",
        "draw a status file and its solutions as a PNG, SVG or PDF picture (needs recon[plot])",
        "Solve FILE and draw its clues and solutions: mines dark, clues in their cells, cells "
        "fixed by trimming shaded by the step that fixed them, cells where solutions differ outlined "
        "in red. With --field, FILE is a field to draw with its counts.",
        "status file (or field file with --field), or - for standard input",
        classic=True,
        exits={**VERDICT_EXITS, EXIT_UNIQUE: "written (solved: exactly one solution, proved)",
               EXIT_NONE: "written; no solution (proved)", EXIT_MULTIPLE: "written; several solutions",
               EXIT_UNDECIDED: "written; undecided: the time limit was reached first"},
    )
    r.add_argument("--out", metavar="PICTURE", required=True, help="the picture to write: .png, .svg or .pdf")
    r.add_argument("--puzzle-only", action="store_true", help="draw the bare puzzle, its clues only, without solving it")
    r.add_argument("--field", action="store_true", help="FILE is a field (x = mine), an endoh1 map or a Mines game ID, not a status")
    _solve_options(r, "draw")

    v = _command(
        commands,
        "convert",
        "convert a status between recon's text, Tatham's Mosaic game IDs, hakank's and LEGUP's formats",
        "Read a status in any known format (recognised by its content) and write it in --format: "
        "status (recon's text), mosaic (Simon Tatham's Mosaic game ID WxH:desc), hakank (N, then rows; "
        "square grids only) or legup (LEGUP Fillapix XML).",
        STATUS_FILE,
        exits={EXIT_UNIQUE: "written"},
    )
    v.add_argument("--format", choices=[*FORMATS, "field"], required=True,
                   help="the format to write (field: the mines of an endoh1 map or a Mines game ID, x and _)")
    _out_option(v)

    g = commands.add_parser(
        "generate",
        help="draw a random field and print its status",
        description="Draw a ROWS x COLS field in which every cell is a mine with probability P percent, "
        "and print its status. The first line is a comment with the seed that reproduces it. With --classic, "
        "a classic Minesweeper board instead: the board after a safe first click.",
        epilog=exit_help({EXIT_UNIQUE: "written: a field, a puzzle or a board, certified as asked",
                           EXIT_UNDECIDED: "nothing made: the time limit was reached, or no field gave one"}),
        formatter_class=HelpFormatter,
    )
    g.add_argument("rows", metavar="ROWS", type=_whole("ROWS", 1), help="number of rows, >= 1")
    g.add_argument("cols", metavar="COLS", type=_whole("COLS", 1), help="number of columns, >= 1")
    g.add_argument("p", metavar="P", type=_percent, nargs="?", help="mine probability in percent, 0..100 (with "
                   "--classic: the board holds P %% of its cells, rounded; or give --mines instead)")
    g.add_argument("--seed", metavar="N", type=_whole("N", 0), help="random seed (default: fresh, printed in the header)")
    g.add_argument("--field", metavar="FILE", help="also write the planted field to FILE")
    g.add_argument("--out", metavar="FILE", help="write the status to FILE (atomically) instead of stdout")
    g.add_argument("--puzzle", action="store_true", help="remove clues while the solution stays unique (Fill-a-Pix)")
    g.add_argument("--difficulty", choices=[grade.value for grade in Grade], default="basic",
                   help="with --puzzle: the rules the puzzle needs (default: basic): basic the single-clue rules, "
                   "advanced the pairwise ones too, elimination exact elimination too, search a complete search")
    g.add_argument("--clues", metavar="minimal|N|FRACTION", default="minimal",
                   help="with --puzzle: remove clues until none can go (minimal), or stop at N clues or that fraction")
    g.add_argument("--format", choices=FORMATS + CLASSIC_FORMATS, default=None,
                   help="output format (default: status; with --classic: board). With --classic: board (the board after "
                   "the first click), field, mines (Tatham's Mines game ID) or endoh1 (an IOCCC 2020 endoh1 map)")
    g.add_argument("--classic", action="store_true", help="a classic Minesweeper board: N mines (or P %%), the first click safe")
    g.add_argument("--mines", metavar="N", type=_whole("N", 0), help="with --classic: exactly N mines")
    g.add_argument("--first", metavar="R,C", type=_cell_arg, help="with --classic: the first click, 1-based (default: the centre)")
    g.add_argument("--first-click", choices=("zero", "safe"), default="zero",
                   help="with --classic: the first click opens a region (zero, the default) or is only safe")
    g.add_argument("--no-guess", action="store_true",
                   help="with --classic: a board the rules finish from the first click without a guess (Tatham's method)")
    g.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="with --puzzle: say on stderr, every second, where the removal of clues is "
                   "(default: when stderr is a terminal)")
    g.add_argument("--time-limit", metavar="SECONDS", type=_seconds,
                   help="with --puzzle: give up (exit 4) when no puzzle is made within SECONDS")
    _max_cells_option(g)

    a = commands.add_parser(
        "autoplay",
        help="play many classic Minesweeper games: deduce, then guess by exact probabilities",
        description="Play N games of classic Minesweeper and report the win rate with its 95 % interval, the "
        "guesses per game and the games per second. The player deduces with recon's rules and, when they "
        "stall, guesses by exact probabilities with the total (--strategy: the safest cell; the cell likeliest "
        "to survive this guess and the next; and that with early guesses looked two moves ahead, unavoidable "
        "50/50s taken at once and small endgames searched exhaustively, the default).",
        epilog=exit_help({EXIT_UNIQUE: "every game played and reported",
                           EXIT_UNDECIDED: "no board was found for a game: no report",
                           EXIT_INTERNAL: "internal error, such as a no-guess board lost: a bug, please report it",
                           130: "interrupted (Ctrl-C): the games finished are reported",
                           143: "stopped by SIGTERM: the games finished are reported",
                           137: "a worker killed (128 + its signal): the games finished are reported"}),
        formatter_class=HelpFormatter,
    )
    a.add_argument("--games", metavar="N", type=_whole("N", 1), default=100, help="games to play (default: 100)")
    a.add_argument("--rows", metavar="R", type=_whole("R", 1), default=16, help="rows (default: 16)")
    a.add_argument("--cols", metavar="C", type=_whole("C", 1), default=30, help="columns (default: 30)")
    a.add_argument("--mines", metavar="M", type=_whole("M", 0), default=99, help="mines (default: 99, expert)")
    a.add_argument("--first-click", choices=("zero", "safe", "any"), default="zero",
                   help="the start cell opens a region (zero, modern), is only safe (classic) or may be a mine (any)")
    a.add_argument("--start", metavar="R,C", type=_cell_arg, help="the first click, 1-based (default: the centre)")
    a.add_argument("--no-guess", action="store_true", help="play no-guess boards (each must be won)")
    a.add_argument("--strategy", choices=("safest", "look-ahead", "full"), default="full",
                   help="how to guess: safest cell, one move of look-ahead, or that plus two moves early, "
                   "50/50s first and exhaustive endgames (default: full)")
    a.add_argument("--seed", metavar="S", type=_whole("S", 0), default=0, help="the run's seed (default: 0)")
    a.add_argument("--workers", metavar="K", type=_whole("K", 1, MAX_WORKERS),
                   help=f"processes, at most {MAX_WORKERS:,} (default: every core)")
    a.add_argument("--json", action="store_true", help="print one JSON object")
    _max_cells_option(a)

    w = commands.add_parser(
        "sweep",
        help="solve many random statuses or puzzles: one CSV row per trial, and a summary",
        description="Run every trial of sizes x densities x hidden fractions, TRIALS times each, on every core, "
        "appending one CSV row per trial to --out as it finishes (rerun the same command to resume), then print "
        "per size and density the fraction unique / multiple / none with a 95 % interval and the median time.",
        epilog=exit_help({EXIT_UNIQUE: "every trial written and summed up"}),
        formatter_class=HelpFormatter,
    )
    w.add_argument("--sizes", metavar="RxC,...", help="sizes, e.g. 5x5,6x6,8x8")
    w.add_argument("--rows", metavar="A..B", help="rows from A to B (with --cols: every pair; alone: squares)")
    w.add_argument("--cols", metavar="A..B", help="columns from A to B")
    w.add_argument("--densities", metavar="P,...", default="30", help="mine probabilities in percent (default: 30)")
    w.add_argument("--hidden", metavar="F,...", default="0", help="fractions of the clues hidden (default: 0, a full status)")
    w.add_argument("--puzzle", action="store_true", help="make minimal puzzles (Fill-a-Pix) instead, of --difficulty")
    w.add_argument("--difficulty", choices=[grade.value for grade in Grade], default="basic")
    w.add_argument("--trials", metavar="N", type=_whole("N", 1), default=100, help="trials per size and density (default: 100)")
    w.add_argument("--seed", metavar="S", type=_whole("S", 0), default=0, help="the sweep's seed (default: 0)")
    w.add_argument("--engine", choices=ENGINE_CHOICES, default="auto")
    w.add_argument("--time-limit", metavar="SECONDS", type=_seconds, help="per trial: past it the verdict is undecided")
    w.add_argument("--out", metavar="FILE", required=True, help="the CSV (appended to; a rerun resumes)")
    w.add_argument("--workers", metavar="K", type=_whole("K", 1, MAX_WORKERS),
                   help=f"processes, at most {MAX_WORKERS:,} (default: every core)")
    w.add_argument("--plot", metavar="PICTURE", help="also draw the ambiguity rate and the time against size (.png, .svg, .pdf)")
    w.add_argument("--parquet", metavar="FILE", help="also write every row of --out as Parquet (needs pyarrow)")
    w.add_argument("--dask", metavar="ADDRESS", help="run the trials on this Dask scheduler (tcp://host:port; needs recon[dask])")
    _max_cells_option(w)

    y = commands.add_parser(
        "play",
        help="play classic Minesweeper in the terminal (needs recon[play])",
        description="Play a new game, a field, an endoh1 map, or a board from where it stands (a board generate "
        "wrote on the field its header's command makes; any other with its covered cells' mines drawn from the "
        "fields that fit it, each equally likely) in the terminal. Click or space opens a cell, "
        "right click or f flags it, the arrows move; opening a number whose flags are all placed opens its other "
        "neighbours; h shows the next deduction (or else the best guess), p the "
        "mine probabilities, n the next game once one ends; q quits. With --auto, every deduction is played "
        "for you and only the guesses are left. On quitting, the last board played goes to stdout as a Tatham "
        "Mines game ID: recon play FILE replays it from its first click, and his Mines plays it.",
        epilog=exit_help({EXIT_UNIQUE: "quit (the last board's game ID, if a game began, on stdout)",
                          EXIT_UNDECIDED: "a board whose fields are too many to draw one exactly: no game"}),
        formatter_class=HelpFormatter,
    )
    y.add_argument("file", metavar="BOARD|MAP", nargs="?",
                   help="a board (as generate --classic writes it, LEGUP Minesweeper), an endoh1 map, a Tatham "
                   "Mines game ID or a field to play (default: a new game)")
    y.add_argument("--rows", metavar="R", type=_whole("R", 1), default=16, help="rows of a new game (default: 16)")
    y.add_argument("--cols", metavar="C", type=_whole("C", 1), default=30, help="columns of a new game (default: 30)")
    y.add_argument("--mines", metavar="N", type=_whole("N", 0),
                   help="mines of a new game (default: 99), or of a board without a '# mines: N' line")
    y.add_argument("--seed", metavar="S", type=_whole("S", 0),
                   help="draw the fields (a board's covered mines) from seed S (default: a fresh one); n plays seed S + 1")
    y.add_argument("--no-guess", action="store_true", help="a new board the rules finish from the first click")
    y.add_argument("--auto", action="store_true", help="endoh1's semi-automatic mode: the deductions are played for you")
    _max_cells_option(y)

    commands.add_parser(
        "warmup",
        help="compile numba's kernels now (about 30 s once), so that small puzzles run compiled too",
        description="Compile the compiled kernels (the `fast` extra, numba) by making one small puzzle of each "
        "grade with them, and say how long it took. numba keeps the machine code on disk; until it holds "
        "the kernels, puzzles under 1000 cells are made in Python (faster than a first compile there).",
        epilog=exit_help({EXIT_UNIQUE: "the kernels are in numba's cache"}),
        formatter_class=HelpFormatter,
    )
    return parser


def _cell_arg(text: str) -> tuple[int, int]:
    """'R,C', 1-based, as a 0-based (row, col)."""
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isascii() and p.strip().isdigit() and len(p.strip()) <= 9 for p in parts):
        raise argparse.ArgumentTypeError(f"expected R,C (1-based row and column), got {text!r}")
    r, c = (int(p) for p in parts)
    if r < 1 or c < 1:
        raise argparse.ArgumentTypeError(f"expected R,C counted from 1, got {text!r}")
    return r - 1, c - 1


# ----------------------------------------------------------------------------- files


#: The largest input read (about 16,000 x 16,000 cells); beyond it recon refuses before reading.
MAX_INPUT_BYTES = 256 * 2**20


def _too_large(name: str, size: int, how: str = "") -> UsageError:
    return UsageError(
        f"{name} is {how + ' ' if how else ''}{size / 2**20:.0f} MiB; recon reads status files up to {MAX_INPUT_BYTES // 2**20} MiB "
        "(about 16,000 x 16,000 cells) so that it never runs out of memory half way"
    )


def read_input(path: str) -> tuple[bytes, str]:
    """Return the bytes of a file (or of stdin for '-') and the name to use in messages. Every
    source is read up to the cap and no further: a device or pipe given as a path too."""
    if path == "-":
        if sys.stdin is None:  # closed by the caller (`<&-`)
            raise UsageError("standard input is closed: there is nothing to read for '-'")
        data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        if len(data) > MAX_INPUT_BYTES:
            raise _too_large("<stdin>", len(data), "more than")
        return data, "<stdin>"
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_INPUT_BYTES:
                raise _too_large(path, size)
            data = handle.read(MAX_INPUT_BYTES + 1)
            if len(data) > MAX_INPUT_BYTES:
                raise _too_large(path, len(data), "more than")
            return data, path
    except OSError as err:
        raise UsageError(f"cannot read {path!r}: {err.strerror or err}") from None


def read_problem(path: str, max_cells: int = MAX_CELLS, args: argparse.Namespace | None = None) -> Problem:
    """Read a status file (or stdin for '-') in any known format, or with --classic a classic
    board, and return its Problem."""
    data, name = read_input(path)
    return problem_of(data, name, max_cells, args)


def problem_of(data: bytes, name: str, max_cells: int = MAX_CELLS, args: argparse.Namespace | None = None) -> Problem:
    """The Problem of an input's bytes, as read_problem reads it."""
    classic, mines = getattr(args, "classic", False), getattr(args, "mines", None)
    seen = getattr(args, "mines_see_numbers", False)
    if not classic and not is_legup_minesweeper(data) and total_line(data) is None and (mines is not None or seen):
        what = "--mines is the total" if mines is not None else "--mines-see-numbers is a rule"
        raise UsageError(f"{what} of a classic Minesweeper board: it needs --classic")
    try:
        return problem_from_bytes(data, name, max_cells, classic=classic, mines=mines, mines_see_numbers=seen)
    except InputError as err:
        raise UsageError(str(err)) from None


def write_atomically(path: str, text: str) -> None:
    """Write text to path so that readers see either the old file or the whole new one."""
    try:
        write_text_atomically(path, text)
    except OSError as err:
        raise UsageError(f"cannot write {path!r}: {err.strerror or err}") from None


def emit(text: str, out: str | None, stdout: TextIO) -> None:
    """Write the main output to a file (atomically) or to stdout."""
    if out is None:
        stdout.write(text)
    else:
        write_atomically(out, text)


# ----------------------------------------------------------------------------- solve


def _count_phrase(result: Result) -> str:
    n = result.solution_count
    noun = "solution" if n == 1 else "solutions"
    if result.count_exact:
        return f"{n} {noun}"
    return f"at least {n} {noun}"


def _named(mask: np.ndarray, most: int = 12) -> tuple[int, str]:
    """How many cells a bool grid marks, and the first `most` of them named, row by row, then
    how many more."""
    where = np.flatnonzero(mask)
    names = " ".join(cell_name(*divmod(x, mask.shape[1])) for x in where[:most].tolist())
    return where.size, names + (f" and {where.size - most:,} more" if where.size > most else "")


def _differences(fields: list[np.ndarray], most: int = 12) -> str:
    count, names = _named(fields[0] != fields[1], most)
    return f"solutions 1 and 2 differ in {count:,} cell(s): {names}"


def report(result: Result, problem: Problem | None = None) -> str:
    """Say in one or two lines what was found and how it was checked (and, given the problem,
    which cells no clue sees, when that is why there are several solutions)."""
    engines = list(result.engines) or [result.engine]
    timing = f"{result.seconds:.3g} s"
    if len(engines) > 1:
        checked = f"{engines[0]}, cross-checked by " + ", ".join(
            f"{name} ({result.engines[name].verdict})" for name in engines[1:]
        )
    else:
        checked = engines[0]
    shown = len(result.solutions)
    if result.verdict is Verdict.UNIQUE:
        head = "unique: exactly one solution"
        if result.grade:
            head += f"; grade {result.grade}"
    elif result.verdict is Verdict.MULTIPLE:
        head = _count_phrase(result)
        if not result.count_exact:
            head += f" (showing {shown}; there may be more)"
        elif shown < result.solution_count:
            head += f" (showing {shown})"
        head = "multiple: " + head
    elif result.verdict is Verdict.NONE:
        head = "none: no field has these counts"
        if result.reason:
            head += f"; {result.reason}"
    else:
        head = "undecided"
        if result.reason:
            head += f": {result.reason}"
        if result.solutions:
            head += f"; {_count_phrase(result)} found, but no proof that it is the only one"
    lines = [f"{head} [{checked}; {timing}]"]
    if result.verdict is Verdict.MULTIPLE and len(result.solutions) >= 2:
        lines.append(_differences(result.solutions))
    if result.verdict is Verdict.MULTIPLE and problem is not None and problem.mines is None:
        lines += _unseen_line(problem)
    return "\n".join(lines) + "\n"


def _unseen_line(problem: Problem, most: int = 12) -> list[str]:
    """The line naming the cells no clue sees and nothing fixes, if any: each takes either value
    in some solution, whatever the others hold (without a total)."""
    count, names = _named(unseen_open_cells(problem), most)
    return [f"{count:,} cell(s) no clue sees, each a mine in some solutions and empty in others: {names}"] if count else []


def result_json(result: Result, problem: Problem) -> dict[str, object]:
    """Return the JSON object of a solve."""
    rows, cols = problem.shape
    return {
        "verdict": result.verdict.value,
        "rows": rows,
        "cols": cols,
        "solutions": [format_field(f).splitlines() for f in result.solutions],
        "solution_count": result.solution_count,
        "count_exact": result.count_exact,
        "reason": result.reason,
        "engines": {name: r.summary() for name, r in (result.engines or {result.engine: result}).items()},
        "grade": result.grade,
        "seconds": round(result.seconds, 6),
        "recon": __version__,
    }


def cmd_solve(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Solve a status file and print the answer."""
    if args.ways is not None and not args.explain:
        raise UsageError("--ways sets the case splits of --explain's proof: give --explain too")
    # --explain holds the proof as explain does: its lower limit, unless --max-cells is given
    limit = args.max_cells if args.max_cells is not None else EXPLAIN_MAX_CELLS if args.explain else MAX_CELLS
    problem = read_problem(args.file, limit, args)
    result = _solve_for_cli(problem, "solve", args, stderr)
    if result is None:
        err = args.disagreement
        if args.json:
            payload = {
                "verdict": "error",
                "error": str(err),
                "engines": {
                    engine: {**r.summary(), "solutions": [format_field(f).splitlines() for f in r.solutions]}
                    for engine, r in err.results.items()
                },
            }
            emit(json_text(payload) + "\n", args.out, stdout)
        return EXIT_INTERNAL
    fields = result.solutions  # solve() checked every one against the counts
    counted = _count_ambiguous(problem, result, args)
    if args.json:
        payload = result_json(result, problem)
        if args.explain:
            payload["steps"] = _steps_json(result, problem)
        if counted is not None:
            payload["count"] = _count_json(counted)
        emit(json_text(payload) + "\n", args.out, stdout)
    else:
        emit(format_fields(fields), args.out, stdout)
    if not args.quiet:
        stderr.write(report(result, problem))
        if counted is not None:
            stderr.write(_count_line(counted, f"recon count {_input_args(args)}"))
    if args.explain and not args.json:
        stderr.write(explanation(result, problem))
    return EXIT_CODES[result.verdict]


# ----------------------------------------------------------------------------- explain


def equations_text(problem: Problem) -> list[str]:
    """Write one equation per clue: 'r1c1: r1c1 + r1c2 + r2c1 + r2c2 = 0'."""
    return [
        f"{cell_name(*clue)}: {' + '.join(cell_name(*cell) for cell in cells)} = {count}"
        for clue, cells, count in equations(problem)
    ]


def given_cells(problem: Problem) -> dict[str, list[str]]:
    """The cells a problem gives, by name: "empty" (on a classic board the opened cells) and
    "mines" (the flags); none without fixed cells."""
    if problem.fixed is None:
        return {}
    return {what: [cell_name(int(r), int(c)) for r, c in np.argwhere(problem.fixed == value)]
            for value, what in ((0, "empty"), (1, "mines"))}


def conditions_text(problem: Problem, most: int = 20) -> list[str]:
    """What a problem gives beyond its clues, as lines under its equations: the cells given
    (`most` named, then a count) and the total."""
    lines = []
    given = given_cells(problem)
    if given:
        for key, what in (("empty", "empty (the opened cells)"), ("mines", "mines (the flags)")):
            names = " ".join(given[key][:most]) or "none"
            more = f" and {len(given[key]) - most} more" if len(given[key]) > most else ""
            lines.append(f"  given {what}: {names}{more}")
        lines.append("  (an opened cell is empty, so its number, which counts its 8 neighbours, is also its 3x3 count)")
    if problem.mines is not None:
        lines.append(f"  total: the {problem.cells} cells hold {problem.mines} mine(s)")
    return lines


def _steps_json(result: Result, problem: Problem) -> list[dict]:
    """The trace as JSON records; on a classic board each names its LEGUP and endoh1 rule too
    ("legup", "endoh1": null where that vocabulary has no such rule)."""
    from .rules.trim import classic_names

    steps = [step.to_json() for step in result.trace]
    if problem.has_conditions:
        for record, names in zip(steps, classic_names(result.trace, problem)):
            record.update(names)
    return steps


def explanation(result: Result, problem: Problem) -> str:
    """Write the trimming proof of a result: equations, deductions, what is left, the verdict."""
    out = ["Equations (one per clue: the mines in its 3x3 window, the cell included):"]
    out += [f"  {line}" for line in equations_text(problem)] or ["  (none: no cell has a clue)"]
    out += conditions_text(problem)
    out.append("Deductions:")
    width = len(str(len(result.trace)))
    from .rules.trim import classic_names

    named = classic_names(result.trace, problem) if problem.has_conditions else [{}] * len(result.trace)
    for i, (step, names) in enumerate(zip(result.trace, named), start=1):
        tags = "".join(f" | {who}: {names[key]}" for key, who in (("legup", "LEGUP"), ("endoh1", "endoh1")) if names.get(key))
        out.append(f"  {i:>{width}}. [{step.rule}{tags}] {step.text}")
    if not result.trace:
        out.append("  (none)")
    trimmed = result.engines.get("trim")
    if trimmed is not None and trimmed.verdict is Verdict.UNIQUE:
        out.append(f"Trimming fixed all {problem.cells} cells: the field is unique (grade {result.grade}).")
    elif trimmed is not None and trimmed.verdict is Verdict.NONE:
        out.append(f"Trimming reached a contradiction: no field has these counts (grade {result.grade}).")
    elif result.decided is not None:
        count, names = _named(~result.decided, 40)
        out.append(f"Trimming stops short with {count:,} open cell(s): {names}.")
        if trimmed is not None and not trimmed.stats.get("cases") and result.verdict is Verdict.MULTIPLE:
            out.append("It split no cases: two solutions were already known, so no split could finish the proof.")
        elif trimmed is not None and trimmed.stats.get("timed_out"):
            out.append("It stopped at the time limit (--time-limit).")
        elif trimmed is not None and trimmed.stats.get("out_of_ways"):
            out.append(f"Its case splits ran out of ways ({trimmed.stats['ways']:,} followed of "
                       f"{trimmed.stats['ways_budget']:,}): --ways N lets them follow more.")
        searched = [name for name in result.engines if name != "trim"]
        out.append(f"A complete search ({', '.join(searched)}) then decided: {result.verdict} (grade search).")
    return "\n".join(out) + "\n"


def cmd_explain(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Explain how a status file is solved."""
    problem = read_problem(args.file, args.max_cells, args)
    result = _solve_for_cli(problem, "explain", args, stderr)
    if result is None:
        return EXIT_INTERNAL
    fields = result.solutions  # solve() checked every one against the counts
    if args.json:
        payload = result_json(result, problem)
        payload["equations"] = [
            {"name": cell_name(*clue), "cells": [cell_name(*cell) for cell in cells], "count": count}
            for clue, cells, count in equations(problem)
        ]
        if problem.fixed is not None:  # a classic board: the opened cells are empty, the flags mines
            payload["given"] = given_cells(problem)
        if problem.mines is not None:
            payload["total"] = problem.mines
        payload["steps"] = _steps_json(result, problem)
        payload["open_cells"] = (
            [cell_name(int(r), int(c)) for r, c in np.argwhere(~result.decided)] if result.decided is not None else []
        )
        emit(json_text(payload) + "\n", args.out, stdout)
    else:
        text = explanation(result, problem)
        if fields:
            text += "\n" + format_fields(fields)
        emit(text, args.out, stdout)
    return EXIT_CODES[result.verdict]


#: What --time-limit keeps back for writing the answer: the limit bounds the whole command.
OUTPUT_SECONDS = 0.05


def _time_left(args: argparse.Namespace) -> float | None:
    """What is left of --time-limit, counted from the start of the command (reading the input
    included), less what writing the answer takes; None without a limit."""
    limit = getattr(args, "time_limit", None)
    if limit is None:
        return None
    return max(limit - (time.perf_counter() - args.started) - OUTPUT_SECONDS, 1e-3)


def _solve_for_cli(problem: Problem, command: str, args: argparse.Namespace, stderr: TextIO) -> Result | None:
    """Run solve with trimming included where asked; print a disagreement and return None."""
    engine: str | list[str] = getattr(args, "engine", "auto")
    try:
        plan(problem, engine)  # refuses here, as a usage error, what solve would raise below
    except TotalTooLarge as err:
        raise UsageError(str(err)) from None
    except CannotTake as err:  # an engine that cannot take this input, such as algebra a puzzle
        where = "the standard input" if args.file == "-" else args.file
        if err.needs == "full":
            missing = problem.cells - int(problem.known.sum())
            raise UsageError(f"{err}, and {where} has {missing} cell(s) without a clue: "
                             "use --engine auto, or one that takes puzzles") from None
        raise UsageError(f"{err}, and {where}, a classic Minesweeper board, has them: "
                         "use --engine auto, or one that takes classic boards") from None
    explaining = command == "explain" or getattr(args, "explain", False)  # solve adds trimming
    try:
        return solve(problem, engine=engine, max_solutions=args.max_solutions, time_limit=_time_left(args),
                     case_split=explaining, case_ways=getattr(args, "ways", None))
    except EngineDisagreement as err:
        stderr.write(f"recon: internal error: {err}\nThis is a bug; please report it with the input file.\n")
        for name, r in err.results.items():
            stderr.write(f"--- {name}: {r.verdict}, {_count_phrase(r)}\n")
            stderr.write(format_fields(r.solutions))
        args.disagreement = err
        return None


def _count_ambiguous(problem: Problem, result: Result, args: argparse.Namespace):
    """With several solutions (and --count): the exact count and probabilities, within
    SOLVE_COUNT_SECONDS or what --time-limit leaves; None when not asked, not shown (-q without
    --json) or no time is left."""
    from .counting import SOLVE_COUNT_SECONDS, count_ambiguous

    if result.verdict is not Verdict.MULTIPLE or not args.count or (args.quiet and not args.json):
        return None  # (quiet text output would not show it)
    left = _time_left(args)
    budget = SOLVE_COUNT_SECONDS if left is None else min(SOLVE_COUNT_SECONDS, left - OUTPUT_SECONDS)
    return count_ambiguous(problem, result, budget) if budget > 0 else None


def _varying(counted) -> list[tuple[str, object]]:
    """The cells whose mine probability is neither 0 nor 1, by name, row by row."""
    if counted.probabilities is None:
        return []
    return [(cell_name(r, c), p) for r, row in enumerate(counted.probabilities) for c, p in enumerate(row) if 0 < p < 1]


def _input_args(args: argparse.Namespace) -> str:
    """FILE and the options that say how it was read, to repeat in a suggested command."""
    words = [shlex.quote(args.file)]
    if getattr(args, "classic", False):
        words.append("--classic")
    if getattr(args, "mines", None) is not None:
        words.append(f"--mines {args.mines}")
    if getattr(args, "mines_see_numbers", False):
        words.append("--mines-see-numbers")
    return " ".join(words)


def _count_line(counted, command: str, most: int = 12) -> str:
    """The report's line on an ambiguous status's count; `command` is the `recon count` command
    for the same input (longer limits, and every cell's probability)."""
    seconds = f"{counted.seconds:.3g} s"
    every = f"{command} --probabilities"
    if not counted.exact:
        line = (f"count: at least {short_decimal(counted.count)} solutions, not counted exactly ({counted.reason}; "
                f"{seconds}; `{command}` counts with longer limits)")
        if counted.varies is not None:
            count, names = _named(counted.varies, most)
            line += f"; {count:,} cell(s) vary: {names}; every other cell is the same in all solutions (proved)"
        return line + "\n"
    varying = _varying(counted)
    shown = " ".join(f"{name} {p}" for name, p in varying[:most])
    more = f" and {len(varying) - most} more ({every} shows every cell)" if len(varying) > most else ""
    cells = f"; {len(varying)} cell(s) vary, with mine probability {shown}{more}" if varying else ""
    return f"count: exactly {short_decimal(counted.count)} solutions ({counted.method}; {seconds}){cells}\n"


def _count_json(counted) -> dict[str, object]:
    """The "count" member of solve's JSON: the count, whether exact, how, and the varying cells'
    probabilities as exact fractions."""
    return {
        "count": counted.count,
        "count_exact": counted.exact,
        "method": counted.method,
        "reason": counted.reason,
        "seconds": round(counted.seconds, 6),
        "varying": {name: str(p) for name, p in _varying(counted)} if counted.exact else None,
        "varying_cells": None if counted.varying is None else [cell_name(r, c) for r, c in counted.varying],
    }


# ----------------------------------------------------------------------------- count


def cmd_count(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Count the solutions of a status file."""
    from .counting import count_solutions

    if args.picture and os.path.splitext(args.picture)[1].lower() not in PICTURE_FORMATS:
        raise UsageError(f"--picture must name a .png, .svg or .pdf file, got {args.picture!r}")
    problem = read_problem(args.file, args.max_cells, args)
    want = args.probabilities or bool(args.picture)
    show = _ProgressWriter(stderr, None)  # on a terminal only: a line rewritten in place
    try:
        counted = count_solutions(problem, probabilities=want, limit=args.limit, time_limit=_time_left(args), progress=show)
    finally:
        show.done()
    probs = counted.probabilities
    certain_mines = certain_empty = None
    facts = _Facts()
    if probs is not None:
        kinds = np.array([[facts(p)[2] for p in row] for row in probs], dtype=np.int8)
        certain_mines, certain_empty = ([cell_name(r, c) for r, c in zip(*(a.tolist() for a in np.nonzero(kinds == k)))]
                                        for k in (1, 0))
    if args.json:
        rows, cols = problem.shape
        payload = {
            "count": counted.count,
            "count_exact": counted.exact,
            "rows": rows,
            "cols": cols,
            "method": counted.method,
            "reason": counted.reason,
            "seconds": round(counted.seconds, 6),
        }
        if want:
            payload["probabilities"] = None if probs is None else [[facts(p)[1] for p in row] for row in probs]
            payload["certain_mines"] = certain_mines
            payload["certain_empty"] = certain_empty
        text = json_text(payload) + "\n"
    else:
        noun = "solution" if counted.count == 1 else "solutions"
        number = decimal_text(counted.count)
        if counted.exact:
            text = f"{number} {noun}\n"
        else:
            text = f"at least {number} {noun}\n" if counted.count else "undecided: no solution found in time\n"
        if probs is not None and args.probabilities:
            text += "".join(" ".join(facts(p)[3] for p in row) + "\n" for row in probs)
    emit(text, args.out, stdout)
    if args.picture:
        from .io import pictures as render

        try:
            if probs is not None:
                grid = np.array([[facts(p)[0] for p in row] for row in probs])
                title = f"mine probability over {short_decimal(counted.count)} solution{'s' * (counted.count != 1)}"
                size = render.draw_probabilities(args.picture, problem, grid, title)
            else:  # what is known without the count: the cells trimming proves the same in every solution
                from .engines import trim

                known = trim.solve(problem, time_limit=_time_left(args))
                decided = known.decided if known.decided is not None else np.zeros(problem.shape, dtype=bool)
                partial = known.partial if known.partial is not None else np.zeros(problem.shape, dtype=bool)
                size = render.draw_probabilities(args.picture, problem, None,
                                                 f"at least {short_decimal(counted.count)} solutions: the count did not finish"
                                                 if counted.count else "no solution found in time",
                                                 decided, partial.astype(int))
        except render.MissingDependency as err:
            raise UsageError(str(err)) from None
        stderr.write(f"wrote {args.picture} ({size[0]}x{size[1]} px)\n")
    verdict = "exact" if counted.exact else "lower bound" if counted.count else "undecided"
    summary = f"{verdict}, by {counted.method or 'nothing: the time limit came first'}; {counted.seconds:.3g} s"
    n = counted.count
    if n.bit_length() > 64 and n & (n - 1) == 0:
        summary += f"; the count is 2^{n.bit_length() - 1}"
    if counted.reason:
        summary += f"; {counted.reason}"
    stderr.write(summary + "\n")
    if certain_mines is not None:
        stderr.write(
            f"{len(certain_mines) + len(certain_empty)} of {problem.cells} cells are certain "
            f"({len(certain_mines)} mine{'s' * (len(certain_mines) != 1)}, {len(certain_empty)} empty)\n"
        )
    if not counted.exact:
        return EXIT_UNDECIDED
    return EXIT_NONE if counted.count == 0 else EXIT_UNIQUE if counted.count == 1 else EXIT_MULTIPLE


class _Facts:
    """What the count's output needs of each exact probability (float, text, 1/0/other, two
    decimals), worked out once per object: cells share their Fraction objects (a board's
    millions of free cells one), and Fraction arithmetic per cell dominated a large board's output
    (docs/decisions.md, "Measurements behind the constants")."""

    def __init__(self):
        self._seen: dict[int, tuple] = {}  # id -> (the object, kept so that its id stays its own; its facts)

    def __call__(self, p) -> tuple[float, str, int, str]:
        known = self._seen.get(id(p))
        if known is None:
            known = self._seen[id(p)] = (p, (float(p), str(p), 1 if p == 1 else 0 if p == 0 else -1, f"{float(p):.2f}"))
        return known[1]


# ----------------------------------------------------------------------------- render


def cmd_render(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Draw a status file and its solutions, or a field, into a picture."""
    from .io import pictures as render

    if os.path.splitext(args.out)[1].lower() not in PICTURE_FORMATS:
        raise UsageError(f"--out must name a .png, .svg or .pdf file, got {args.out!r}")
    data, name = read_input(args.file)
    if args.field:
        field, _ = _field_of(data, name, args.max_cells)
        problem = make_problem(status(field))
        size = _draw(render, args.out, problem, [field], None, ["field and its counts"])
        stderr.write(f"wrote {args.out} ({size[0]}x{size[1]} px)\n")
        return EXIT_UNIQUE
    problem = problem_of(data, name, args.max_cells, args)
    if args.puzzle_only:
        size = _draw(render, args.out, problem, [], None, ["the puzzle"])
        stderr.write(f"wrote {args.out} ({size[0]}x{size[1]} px)\n")
        return 0
    # trimming's steps shade the cells; a grid drawn as one image shows no proof to follow
    args.engine, args.explain = "auto", not render.as_image(problem.shape)
    result = _solve_for_cli(problem, "render", args, stderr)
    if result is None:
        return EXIT_INTERNAL
    fields = result.solutions  # solve() checked every one against the counts
    steps = render.step_map(problem.shape, result.trace)
    titles = [f"solution {i} of {_count_phrase(result)}" for i in range(1, len(fields) + 1)] or [str(result.verdict)]
    size = _draw(render, args.out, problem, fields, steps, titles)
    stderr.write(f"wrote {args.out} ({size[0]}x{size[1]} px)\n")
    stderr.write(report(result, problem))
    return EXIT_CODES[result.verdict]


def _draw(render, path, problem, fields, steps, titles) -> tuple[int, int]:
    try:
        return render.draw(path, problem, fields, steps=steps, titles=titles)
    except render.MissingDependency as err:
        raise UsageError(str(err)) from None
    except OSError as err:
        raise UsageError(f"cannot write {path!r}: {err.strerror or err}") from None


# ----------------------------------------------------------------------------- convert


def cmd_convert(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Write a status file in another format, or the field of an endoh1 map or a Mines game ID."""
    data, name = read_input(args.file)
    if args.format == "field":  # an endoh1 map or a Mines game ID; what starts with a number gets the map reader's message
        head = re.match(rb"\s*([^\r\n]*)", data).group(1).decode("utf-8", "replace")
        if not (is_mines_id(data) or (head.split() or [""])[0].isdigit()):
            raise FormatError(name, 1, 1, "expected an endoh1 map ('W H C', then W*H numbers) or a Tatham Mines game ID "
                              f"('WxH:x,y,m...'), the inputs whose mines --format field writes, got {head[:30]!r}")
        field, first = _field_of(data, name, args.max_cells, maps_only=True)
        what, note = ("endoh1 map", "") if first is None else ("Mines game ID", f", first click r{first[0] + 1}c{first[1] + 1}")
        shape, mines = f"{field.shape[0]}x{field.shape[1]}", int(field.sum())
        emit(f"# {what} {field.shape[1]}x{field.shape[0]}, {mines} mines{note}\n" + format_field(field), args.out, stdout)
        stderr.write(f"read {what}, wrote field ({shape}, {mines} mines)\n")
        return EXIT_UNIQUE
    refuse_whole_field(data, name)
    if (line := total_line(data)) is not None:
        raise FormatError(name, line, 1, "expected a status, got a classic Minesweeper board (its '# mines:' line gives the total; "
                          "its numbers count the 8 neighbours): solve, count and explain read it; it has no Fill-a-Pix status")
    clues, known, found = read_any_status(data, name, args.max_cells)
    try:
        text = write_puzzle(clues, known, args.format)
    except ValueError as err:
        raise UsageError(str(err)) from None
    emit(text, args.out, stdout)
    stderr.write(f"read {found}, wrote {args.format} ({clues.shape[0]}x{clues.shape[1]}, {int(known.sum())} clues)\n")
    _warn_mosaic(args.format, clues.shape, stderr)
    return EXIT_UNIQUE


# ----------------------------------------------------------------------------- generate


def cmd_generate(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Draw a random field and print its status."""
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**63)
    rng = np.random.default_rng(seed)
    if args.classic:
        return _generate_classic(args, seed, rng, stdout, stderr)
    if args.p is None:
        raise UsageError("P, the mine probability in percent, is needed (only --classic --mines N does without it)")
    for flag in ("mines", "first", "no_guess"):
        if getattr(args, flag):
            raise UsageError(f"--{flag.replace('_', '-')} is an option of --classic boards")
    args.format = args.format or "status"
    if args.format in CLASSIC_FORMATS:
        raise UsageError(f"--format {args.format} is a format of --classic boards")
    command = f"recon generate {args.rows} {args.cols} {args.p:g} --seed {seed}"
    try:  # before the work: a large puzzle takes minutes, and --field would be written for nothing
        check_size(args.rows, args.cols, args.max_cells, "the field asked for")
        check_writable((args.rows, args.cols), args.format)
    except ValueError as err:
        raise UsageError(str(err)) from None
    if not args.puzzle:
        field = random_field(args.rows, args.cols, args.p, rng)
        clues, known = status(field), np.ones(field.shape, dtype=bool)
    else:
        from .generation import GenerationFailed, GenerationTimeout, Options, generate_puzzle, impossible_request, parse_clue_target

        try:
            target = parse_clue_target(args.clues, args.rows * args.cols)
        except ValueError as err:
            raise UsageError(str(err)) from None
        impossible = impossible_request(args.difficulty, args.p)
        if impossible:
            raise UsageError(impossible)
        command += f" --puzzle --difficulty {args.difficulty} --clues {args.clues}"
        show = _ProgressWriter(stderr, args.progress)
        try:
            announce = None if show.on else (lambda line: stderr.write(f"recon: {line}\n"))  # the terminal's line says it
            options = Options(progress=show, progress_seconds=PROGRESS_SECONDS, time_limit=_time_left(args), announce=announce)
            puzzle = generate_puzzle(args.rows, args.cols, args.p, rng, difficulty=args.difficulty, target=target, options=options)
        except GenerationTimeout:  # said with the limit given, not what was left of it after reading
            stderr.write(f"recon: no puzzle within the time limit of {args.time_limit:g} s\n")
            return EXIT_UNDECIDED
        except GenerationFailed as err:
            stderr.write(f"recon: {err}\n")
            return EXIT_UNDECIDED
        finally:
            show.done()
        field, clues, known = puzzle.field, puzzle.clues, puzzle.known
        kind = "minimal: no remaining clue can be removed (every clue was tried" + (
            f"; {puzzle.passes} passes, until one removed none)" if puzzle.passes > 1 else ")"
        ) if puzzle.minimal else f"stopped at the {target} clues asked (--clues {args.clues})"
        if puzzle.minimal and target is not None:
            kind = f"not down to the {target} clues asked (--clues {args.clues}) but {kind}"
        stderr.write(
            f"puzzle {args.rows}x{args.cols}: {puzzle.clue_count} of {clues.size} clues "
            f"({puzzle.clue_count / clues.size:.1%}), grade {puzzle.grade}, {kind}; certified unique by {puzzle.certificate}; "
            f"{puzzle.seconds:.2f} s\n"
        )
        if args.difficulty in EXTRA_HINTS and clues.size >= EXTRA_HINT_CELLS:
            extra, install, faster = EXTRA_HINTS[args.difficulty]
            if not (SAT_AVAILABLE if extra == "python-sat" else COMPILED_AVAILABLE):
                stderr.write(f"({extra} is not installed: pip install 'recon[{install}]' makes {args.difficulty}-grade "
                             f"generation faster: {faster})\n")
    header = f"# {command}\n"
    if args.field:
        write_atomically(args.field, header + format_field(field))
    text = write_puzzle(clues, known, args.format)  # the format was checked for this shape above
    emit((header if args.format == "status" else "") + text, args.out, stdout)
    _warn_mosaic(args.format, clues.shape, stderr)
    return EXIT_UNIQUE


def _generate_classic(args: argparse.Namespace, seed: int, rng: np.random.Generator, stdout: TextIO, stderr: TextIO) -> int:
    """generate --classic: a board after a safe first click (no-guess if asked), in a classic format."""
    from .generation import GenerationFailed, GenerationTimeout
    from .generation.classic import NoBoard, check_request

    fmt = args.format or "board"
    if fmt not in CLASSIC_FORMATS:
        raise UsageError(f"--format {fmt} is not a classic format: use board, field, mines or endoh1")
    if args.puzzle:
        raise UsageError("--puzzle makes Fill-a-Pix puzzles; a --classic board is made with --no-guess")
    rows, cols = args.rows, args.cols
    first = args.first if args.first is not None else (rows // 2, cols // 2)
    zero = args.first_click == "zero"
    try:
        check_size(rows, cols, args.max_cells, "the board asked for")
        if args.mines is not None and args.p is not None:
            raise ValueError(f"give --mines N or a mine probability P, not both (got --mines {args.mines} and P = {args.p:g})")
        if args.mines is not None:
            mines = args.mines
        elif args.p is not None:  # a board's mines are counted: P % of its cells, rounded
            mines = round(args.p / 100 * rows * cols)
        else:
            raise ValueError("give --mines N or a mine probability P")
        check_request(rows, cols, mines, first, zero, args.max_cells)
        if fmt == "mines" and (problem := mines_id_problem(rows, cols, mines)):
            raise ValueError(f"{problem}: write this board with --format board, field or endoh1")
    except ValueError as err:
        raise UsageError(str(err)) from None
    # the header's command: `play` reads it back (_PLANTED) to play a board on the field it was made from
    command = (f"recon generate {rows} {cols} --classic --mines {mines} --first {first[0] + 1},{first[1] + 1} "
               f"--first-click {args.first_click}{' --no-guess' if args.no_guess else ''} --seed {seed}")
    start = time.perf_counter()
    if args.no_guess:
        try:
            field, stats = _classic_field(rows, cols, mines, rng, first, zero, True, _time_left(args))
        except NoBoard as err:
            raise UsageError(str(err)) from None
        except GenerationTimeout:
            stderr.write(f"recon: no no-guess board within the time limit of {args.time_limit:g} s\n")
            return EXIT_UNDECIDED
        except GenerationFailed as err:
            stderr.write(f"recon: {err}\n")
            return EXIT_UNDECIDED
        stderr.write(f"no-guess board {rows}x{cols}, {mines} mine{'' if mines == 1 else 's'}: {stats['fields']} field(s) drawn, "
                     f"{stats['perturbations']} perturbation(s) in {stats['runs']} run(s), the last without a guess; "
                     f"{time.perf_counter() - start:.2f} s\n")
    else:
        field = _classic_field(rows, cols, mines, rng, first, zero, False)[0]
    header = f"# {command}\n# first click: r{first[0] + 1}c{first[1] + 1}\n# mines: {mines}\n"
    if args.field:
        write_atomically(args.field, header + format_field(field))
    if fmt == "board":
        text = header + format_board(_first_board(field, first))
    elif fmt == "field":
        text = header + format_field(field)
    elif fmt == "mines":
        text = format_mines_id(field, first)
    else:
        text = format_endoh1(field)
    emit(text, args.out, stdout)
    return EXIT_UNIQUE


def _classic_field(rows: int, cols: int, mines: int, rng: np.random.Generator, first: tuple[int, int], zero: bool,
                   no_guess: bool, time_limit: float | None = None) -> tuple[np.ndarray, dict | None]:
    """The field `generate --classic` makes (and, no-guess, how), as `play` makes it again from a
    board's header (`_planted`)."""
    from .generation.classic import draw_field, no_guess_field, player_rules

    if no_guess:
        return no_guess_field(rows, cols, mines, rng, first, zero, time_limit=time_limit, rules=player_rules((rows, cols)))
    return draw_field(rows, cols, mines, rng, first, zero), None


def _first_board(field: np.ndarray, first: tuple[int, int]) -> np.ndarray:
    """What the first click shows: the cell, and the region a zero opens (recon.io.classic's codes)."""
    from .rules.sweeper import Sweeper

    sweeper = Sweeper(field)
    sweeper.open(*first)
    return sweeper.board_cells()


def cmd_autoplay(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Play many games and report the win rate."""
    from .generation import GenerationFailed
    from .generation.classic import NoBoard, check_request
    from .play.autoplay import Tally, WorkerDied, play_games

    start = args.start if args.start is not None else (args.rows // 2, args.cols // 2)
    try:
        check_request(args.rows, args.cols, args.mines, start, args.first_click == "zero", args.max_cells,
                      safe=args.first_click != "any")
    except ValueError as err:
        raise UsageError(str(err)) from None
    if args.no_guess and args.first_click == "any":
        raise UsageError("--no-guess boards start with a safe first click: use --first-click zero or safe")
    terminal = stderr.isatty()

    def progress(done: int, wins: int) -> None:
        if terminal and (done % 50 == 0 or done == args.games):
            stderr.write(f"\rrecon: {done}/{args.games} games, {wins} won")
            stderr.flush()

    tally = Tally()
    try:
        summary = play_games(args.games, args.rows, args.cols, args.mines, start=start, first_click=args.first_click,
                             no_guess=args.no_guess, seed=args.seed, workers=args.workers, progress=progress,
                             strategy=args.strategy, tally=tally)
    except NoBoard as err:  # no-guess boards of this kind cannot exist (every field was tried)
        raise UsageError(str(err)) from None
    except GenerationFailed as err:  # none found: maybe none exist, so the run is undecided
        stderr.write(("\n" if terminal else "") + f"recon: {err}; the run stops without a report\n")
        return EXIT_UNDECIDED
    except WorkerDied as err:
        # killed from outside (the out-of-memory killer, say): as if this process had been, 128 +
        # the signal, with the games finished reported; a worker that exited by itself is a bug
        stderr.write(("\n" if terminal else "") + f"recon: {err}; stopped after {tally.games} of {args.games} games"
                     + ("; their report follows\n" if tally.games else "\n"))
        if tally.games:
            _autoplay_report(tally.summary() | {"interrupted": True}, args.json, stdout)
        return 128 - err.exitcode if err.exitcode is not None and err.exitcode < 0 else EXIT_INTERNAL
    except (KeyboardInterrupt, Terminated):
        # the games finished are the run's first ones, the same whenever it stops: worth their report
        if tally.games:
            stderr.write(("\n" if terminal else "") + f"recon: stopped after {tally.games} of {args.games} games; "
                         "their report follows\n")
            _autoplay_report(tally.summary() | {"interrupted": True}, args.json, stdout)
        raise
    if terminal:
        stderr.write("\n")
    _autoplay_report(summary | {"interrupted": False}, args.json, stdout)
    if args.no_guess and summary["wins"] != summary["games"]:
        stderr.write("recon: internal error: a no-guess board was lost\n")
        return EXIT_INTERNAL
    return 0


def _autoplay_report(summary: dict, as_json: bool, stdout: TextIO) -> None:
    if as_json:
        stdout.write(json_text(summary) + "\n")
    else:
        low, high = summary["ci95"]
        stdout.write(f"{summary['wins']} of {summary['games']} games won: {summary['win_rate']:.1%} "
                     f"(95 % interval {low:.1%} to {high:.1%}); {summary['guesses_per_game']:.2f} guesses per game; "
                     f"{summary['games_per_second']:.1f} games per second\n")
    stdout.flush()


def cmd_warmup(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Compile the kernels every grade uses, once."""
    from . import compiled
    from .generation import DIFFICULTIES, Options, generate_puzzle

    if not COMPILED_AVAILABLE:
        raise UsageError("the compiled kernels need numba: pip install 'recon[fast]'")
    was = compiled.cached()
    start = time.perf_counter()
    options = Options(compiled=True, announce=lambda text: stderr.write(f"recon: {text}\n"))
    for difficulty in DIFFICULTIES:  # every grade's path, so each kernel it calls is compiled
        side = 32 if difficulty == "basic" else 12  # the basic loop runs compiled from 1000 cells
        generate_puzzle(side, side, 50, np.random.default_rng(1), difficulty=difficulty, options=options)
    # groups too large for elimination (from about 55x55 up) are joined by a kernel no 12x12 reaches
    compiled.LargeGroup(np.ones((3, 3), dtype=bool), np.ones((3, 3), dtype=bool), 1).still_too_large(np.arange(9) > 0)
    # and the classic player's rules, which auto mode runs compiled on large boards, and the
    # ways of explain's case splits
    from .compiled.pairwise import split_ways, sweep_fixed

    sweep_fixed(np.zeros((3, 3), dtype=np.int8), np.eye(3, dtype=bool), np.where(np.eye(3), 0, OPEN).astype(np.int8))
    split_ways((1, 2), [("a", 0, 0, 3, 1)], [0, 1], [0, 1], 1)
    stdout.write(f"compiled kernels {'were already in' if was else 'written to'} numba's cache: "
                 f"{time.perf_counter() - start:.1f} s\n")
    return 0


def _range(text: str, what: str) -> list[int]:
    """'5..30' or '7' as whole numbers >= 1."""
    low, _, high = text.partition("..")
    try:
        a, b = int(low), int(high or low)
    except ValueError:
        raise UsageError(f"{what} must be A..B or A (whole numbers), got {text!r}") from None
    if a < 1 or b < a:
        raise UsageError(f"{what} must be A..B with 1 <= A <= B, got {text!r}")
    return list(range(a, b + 1))


def _numbers(text: str, what: str) -> tuple[float, ...]:
    try:
        values = tuple(float(t) for t in text.split(",") if t.strip())
    except ValueError:
        raise UsageError(f"{what} must be numbers separated by commas, got {text!r}") from None
    if not all(math.isfinite(v) for v in values):
        raise UsageError(f"{what} must be finite numbers, got {text!r}")
    return values


def cmd_sweep(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Run a sweep and print its summary."""
    from .sweep import Sweep, plot, run, summary, write_parquet

    if args.plot and os.path.splitext(args.plot)[1].lower() not in PICTURE_FORMATS:
        raise UsageError(f"--plot must name a .png, .svg or .pdf file, got {args.plot!r}")
    if args.parquet:
        import importlib.util

        if importlib.util.find_spec("pyarrow") is None:  # said before the sweep runs, not after
            raise UsageError("--parquet needs pyarrow: pip install 'recon[parquet]'")
    if os.path.splitext(args.out)[1].lower() == ".parquet":  # (rows are appended to it as text)
        raise UsageError(f"--out is the CSV a sweep appends to and resumes from, got {args.out!r}; "
                         "--parquet FILE writes a Parquet copy of it")

    sizes: list[tuple[int, int]] = []
    if args.sizes is not None:
        for part in (t.strip() for t in args.sizes.split(",") if t.strip()):
            r, sep, c = part.partition("x")
            if not sep or not r.isdigit() or not c.isdigit() or int(r) < 1 or int(c) < 1:
                raise UsageError(f"--sizes: expected RxC such as 5x5, got {part!r}")
            sizes.append((int(r), int(c)))
    elif args.rows is not None:
        rows = _range(args.rows, "--rows")
        sizes = [(r, c) for r in rows for c in _range(args.cols, "--cols")] if args.cols else [(r, r) for r in rows]
    for r, c in sizes:
        try:
            check_size(r, c, args.max_cells, "a sweep's grid")
        except ValueError as err:
            raise UsageError(str(err)) from None
    sweep = Sweep(tuple(sizes), _numbers(args.densities, "--densities"), _numbers(args.hidden, "--hidden"), args.trials,
                  args.seed, args.engine, args.time_limit, args.difficulty if args.puzzle else None)
    terminal = stderr.isatty()
    try:
        sweep.check()

        def progress(done: int, total: int, seconds: float) -> None:
            if terminal and (done % 20 == 0 or done == total):
                rate = done / seconds if seconds else 0.0
                left = (total - done) / rate if rate else 0.0
                stderr.write(f"\rrecon: {done}/{total} trials, {rate:.1f} per second, {left:.0f} s left ")
                stderr.flush()

        ran = run(sweep, args.out, workers=args.workers, progress=progress, dask=args.dask)
        if terminal:
            stderr.write("\n")
    except ValueError as err:
        raise UsageError(str(err)) from None
    except OSError as err:
        raise UsageError(f"cannot write {args.out!r}: {err.strerror or err}") from None
    except (KeyboardInterrupt, Terminated):
        # every finished trial is a whole row in --out already: say where, and how to go on
        stderr.write(("\n" if terminal else "") + f"recon: the trials finished are in {args.out}; "
                     "the same command resumes the sweep\n")
        raise
    stderr.write(f"{ran} trial(s) run, the others already in {args.out}\n")
    stdout.write(summary(args.out))
    if args.plot:
        from .io.pictures import MissingDependency

        try:
            plot(args.out, args.plot)
        except MissingDependency as err:
            raise UsageError(str(err)) from None
        stderr.write(f"wrote {args.plot}\n")
    if args.parquet:
        try:
            rows = write_parquet(args.out, args.parquet)
        except (ValueError, OSError) as err:
            raise UsageError(f"cannot write {args.parquet!r}: {err}") from None
        stderr.write(f"wrote {rows} row(s) to {args.parquet}\n")
    return 0


def cmd_play(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Play in the terminal."""
    try:
        from .play.tui import move_running, run_game
    except ImportError:
        raise UsageError("play needs Textual: pip install 'recon[play]'") from None
    from .play.odds import TooMany

    try:
        game = _game_of(args)
    except TooMany as err:
        stderr.write(f"recon: {args.file}: {err}, too many fields to draw one exactly: no game\n")
        return EXIT_UNDECIDED
    # Textual reads keys from stdin and draws on stderr: without a terminal on both, the game
    # could neither be played nor seen, and would wait for ever
    if not all(getattr(stream, "isatty", lambda: False)() for stream in (sys.__stdin__, sys.__stderr__)):
        raise UsageError("play needs a terminal on stdin and stderr (where the game is drawn); "
                         "to play games unattended, use recon autoplay")
    try:
        game, terminated = run_game(game)
    except Terminated:
        terminated = True
    if terminated and move_running():
        stderr.write("recon: terminated\n")
        _leave_now(128 + signal.SIGTERM, stdout, stderr)
    if terminated:
        raise Terminated  # (main says so)
    if game.drawn:
        print(f"recon: the covered cells' mines were drawn with --seed {game.seed}: the same seed draws them again",
              file=stderr)
    board = game.board_id()
    if board is not None:  # the board's ID, to replay or share it (the game itself was drawn on stderr)
        problem = mines_id_problem(game.rows, game.cols, game.mines)
        print("recon: the last board as a Tatham Mines game ID (recon play FILE replays it from its first click"
              + (f"; {problem}, so it plays only in recon" if problem else "") + "):", file=stderr)
        print(board, file=stdout)
    if move_running():  # q does not wait for a move
        _leave_now(0, stdout, stderr)
    return 0


def _leave_now(code: int, stdout: TextIO, stderr: TextIO) -> None:
    """Exit with this status once what was written is out, without Python's shutdown: with
    recon play's move still running in its thread (a daemon), the shutdown would end that thread
    when it next takes the GIL, by pthread_exit, which can abort the process (SIGABRT; CPython
    issue 127893)."""
    stdout.flush()
    stderr.flush()
    os._exit(code)


def _game_of(args: argparse.Namespace):
    """The game `recon play` asks for: a board, a map or field file, or a new game."""
    from .generation.classic import check_request
    from .play.game import Game, NoField

    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**63)

    def new_game(rows: int, cols: int, mines: int, no_guess: bool = False) -> Game:
        # the centre's window is the largest a first click keeps free: if the mines fit beside it, they fit anywhere
        try:
            check_request(rows, cols, mines, (rows // 2, cols // 2), True, args.max_cells)
        except ValueError as err:
            raise UsageError(str(err)) from None
        return Game.new(rows, cols, mines, seed=seed, no_guess=no_guess, auto=args.auto)

    if args.file is None:
        return new_game(args.rows, args.cols, 99 if args.mines is None else args.mines, args.no_guess)
    if args.no_guess:
        raise UsageError("--no-guess makes a new board: it does not apply to FILE")
    data, name = read_input(args.file)
    kind, grid, extra = _play_input(data, name, args.max_cells, args.mines is not None)
    if kind == "field":
        mines = int(grid.sum())
        if mines >= grid.size:
            raise UsageError(f"{name}: every cell is a mine: there is nothing to open")
        return Game(grid, mines, first=extra, auto=args.auto, seed=seed)
    mines = extra if args.mines is None else args.mines
    if mines is None:
        raise UsageError(f"{name}: a board to play needs its number of mines: a '# mines: N' line, or --mines N")
    low, high = total_range(grid)
    if not low <= mines <= high:
        raise UsageError(f"{name}: the total of {mines} mines cannot be met: the board has {low} flagged and {high} "
                         "cells not opened")
    if mines == grid.size:
        raise UsageError(f"{name}: every cell is a mine: there is nothing to open")
    if not (grid != COVERED).any():  # nothing opened or flagged: a new game of that size, its first click safe
        return new_game(*grid.shape, mines)
    planted = _planted(data, grid, mines)
    if planted is not None:
        return Game(planted[0], mines, first=planted[1], auto=args.auto, seed=seed)
    try:
        return Game.from_board(grid, mines, seed=seed, auto=args.auto)
    except NoField as err:
        raise UsageError(f"{name}: {err} (recon solve {name} says which number cannot be met)") from None


#: The command in the header of a board `generate --classic` wrote (`_generate_classic`).
_PLANTED = re.compile(rb"^# recon generate (\d{1,9}) (\d{1,9}) --classic --mines (\d{1,12}) --first (\d{1,9}),(\d{1,9}) "
                      rb"--first-click (zero|safe)( --no-guess)? --seed (\d{1,20})[ \t]*\r?$", re.MULTILINE)


def _planted(data: bytes, cells: np.ndarray, mines: int) -> tuple[np.ndarray, tuple[int, int]] | None:
    """The field (and first click) that the `recon generate` command in a board's header makes,
    when that field after that click shows exactly this board and total; else None. So a no-guess
    board is played on its own field: one drawn from those that fit its first click need not be
    no-guess."""
    from .generation import GenerationFailed

    m = _PLANTED.search(data)
    if m is None:
        return None
    rows, cols, total, r, c = (int(m.group(i)) for i in range(1, 6))
    first, zero, seed = (r - 1, c - 1), m.group(6) == b"zero", int(m.group(8))
    if (rows, cols) != cells.shape or total != mines or not (0 <= first[0] < rows and 0 <= first[1] < cols):
        return None
    try:
        field = _classic_field(rows, cols, mines, np.random.default_rng(seed), first, zero, bool(m.group(7)))[0]
    except (ValueError, GenerationFailed):  # a header edited to ask for what cannot be made
        return None
    return (field, first) if np.array_equal(_first_board(field, first), cells) else None


def _play_input(data: bytes, name: str, max_cells: int, mines_given: bool) -> tuple[str, np.ndarray, object]:
    """What `play` reads: ("field", its mines, a Mines game ID's first click or None) for a field,
    an endoh1 map or a Mines game ID; ("board", its cells, its total or None) for LEGUP
    Minesweeper XML, board text with a '# mines: N' line, or text that reads as a board but not
    as a field (a '?', a number above 1)."""
    if is_mines_id(data) or is_endoh1(data) or looks_like_endoh1(data):
        return ("field", *_field_of(data, name, max_cells))
    if is_legup_minesweeper(data):
        return "board", parse_legup_minesweeper(data, name, max_cells), None
    if total_line(data) is None:
        try:
            return "field", parse_field(data, name, max_cells), None
        except FormatError as err:
            try:
                return ("board", *parse_board(data, name, max_cells))
            except FormatError:
                raise err from None
    return ("board", *parse_board(data, name, max_cells, check_total=not mines_given))


def _field_of(data: bytes, name: str, max_cells: int, maps_only: bool = False) -> tuple[np.ndarray, tuple[int, int] | None]:
    """The mines of a field file, an endoh1 map or a Tatham Mines game ID (and the ID's first
    click, else None), for `play` and `render --field`; with maps_only (`convert --format field`)
    anything but an ID is read as a map."""
    if is_mines_id(data):
        from .io.classic import parse_mines_id

        return parse_mines_id(decode_text(data, name), name, max_cells)
    if maps_only or is_endoh1(data) or looks_like_endoh1(data):  # a broken map gets the map reader's message
        return parse_endoh1(data, name, max_cells)[0], None
    if (line := total_line(data)) is not None:
        raise FormatError(name, line, 1, "expected a field, an endoh1 map or a Mines game ID (a game's mines), got a "
                          "classic board, whose mines are hidden: solve or count it (generate --field writes a "
                          "board's field)")
    return parse_field(data, name, max_cells), None


def _warn_mosaic(fmt: str, shape: tuple[int, int], stderr: TextIO) -> None:
    refusal = mosaic_refusal(shape) if fmt == "mosaic" else None
    if refusal:
        stderr.write(f"recon: warning: {refusal}; recon reads the game ID, Tatham's Mosaic will not\n")


class _ProgressWriter:
    """Progress lines for stderr: rewritten in place on a terminal, one per line otherwise (when
    asked for with --progress), none when `on` is False or (None) stderr is not a terminal."""

    def __init__(self, stderr: TextIO, on: bool | None):
        terminal = stderr.isatty()
        self.stderr, self.terminal = stderr, terminal
        self.on = terminal if on is None else on
        self.width = 0

    def __call__(self, line: str) -> None:
        if not self.on:
            return
        line = f"recon: {line}"
        if self.terminal:
            self.stderr.write("\r" + line.ljust(self.width))
            self.width = len(line)
        else:
            self.stderr.write(line + "\n")
        self.stderr.flush()

    def done(self) -> None:
        """Clear the line rewritten in place, so that the report starts on a clean line."""
        if self.on and self.terminal and self.width:
            self.stderr.write("\r" + " " * self.width + "\r")
            self.width = 0


# ----------------------------------------------------------------------------- main


class Terminated(Exception):
    """SIGTERM arrived: unwound like Ctrl-C, so that a temporary output file is removed."""


def _terminate(signum, frame):
    # once only: GNU timeout sends SIGTERM to the process and again to its group, and a second
    # Terminated raised while the first unwinds would end in a traceback
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Terminated


def _on_sigterm(handler):
    """Install a SIGTERM handler where signals can be handled (the main thread); return the old one."""
    try:
        return signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread (main() called from a worker thread)
        return None


def _check_outputs(args: argparse.Namespace) -> None:
    """Before any work: can every file named for output be written, each to itself? (A solve of
    minutes whose answer then cannot be written, or is written over by another output, is lost.)"""
    named = []
    for option in ("out", "field", "picture", "plot", "parquet"):
        path = getattr(args, option, None)
        if isinstance(path, str):
            try:
                check_writable_path(path)
            except OSError as err:
                raise UsageError(f"cannot write {path!r} (--{option}): {err.strerror or err}") from None
            for other, before in named:
                if same_file(path, before):
                    raise UsageError(f"--{other} {before!r} and --{option} {path!r} name the same file: "
                                     "one would overwrite the other")
            named.append((option, path))


def _parse_intermixed(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """Parse ARGV with a command's options and positionals in any order (`generate 30 30 --classic
    20`): argparse gives a command's positionals one run of words, so the command reads its own."""
    if not argv or argv[0] not in parser.get_default("commands"):
        return parser.parse_args(argv)  # no command, or an option of recon itself first
    args = parser.get_default("commands")[argv[0]].parse_intermixed_args(argv[1:])
    args.command = argv[0]
    return args


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run the recon command line and return its exit status."""
    # counts are exact however many digits they have (2^14400 for a 120x120 grid without a clue);
    # Python's limit guards int() of untrusted text, and recon bounds every digit string it reads;
    # Pythons before 3.10.7 have no limit, and no way to set one
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)
    stdout = _Stdout(sys.stdout if stdout is None else stdout)
    stderr = _Stderr(sys.stderr if stderr is None else stderr)
    parser = build_parser()
    try:
        args = _parse_intermixed(parser, list(sys.argv[1:] if argv is None else argv))
    except SystemExit as stop:
        return int(stop.code or 0) if not isinstance(stop.code, str) else EXIT_USAGE
    if args.command is None:
        parser.print_help(stderr)
        return EXIT_USAGE
    command = {
        "solve": cmd_solve,
        "explain": cmd_explain,
        "count": cmd_count,
        "render": cmd_render,
        "convert": cmd_convert,
        "generate": cmd_generate,
        "autoplay": cmd_autoplay,
        "play": cmd_play,
        "sweep": cmd_sweep,
        "warmup": cmd_warmup,
    }[args.command]
    args.started = time.perf_counter()
    previous = _on_sigterm(_terminate)
    try:
        _check_outputs(args)
        code = command(args, stdout, stderr)
        stdout.flush()  # a full disk is heard of here, not as Python exits
        return code
    except Terminated:
        stderr.write("recon: terminated\n")
        return 128 + signal.SIGTERM
    except FormatError as err:
        stderr.write(f"{err}\n")
        return EXIT_USAGE
    except (UsageError, Unavailable) as err:
        stderr.write(f"recon: {err}\n")
        return EXIT_USAGE
    except (EngineError, EngineDisagreement) as err:
        stderr.write(f"recon: internal error: {err}\nThis is a bug; please report it with the input file.\n")
        return EXIT_INTERNAL
    except KeyboardInterrupt:
        stderr.write("recon: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
    except Exception as err:  # noqa: BLE001 - the CLI turns every failure into a message and a code
        stderr.write(f"recon: internal error: {type(err).__name__}: {err}\nThis is a bug; please report it.\n")
        if os.environ.get("RECON_DEBUG"):
            traceback.print_exc(file=stderr)
        return EXIT_INTERNAL
    finally:
        if previous is not None:
            _on_sigterm(previous)
