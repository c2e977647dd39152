"""Malformed inputs for every reader and command, shared by tests/test_fuzz.py (hypothesis, in the
suite) and bench/bench_fuzz.py (a larger corpus, counted).

An input is made from a valid one in one of recon's formats (status text, Mosaic game ID, hakank,
LEGUP XML) by a few random edits: a byte replaced, inserted or deleted, a line doubled or cut,
a number made huge, a Unicode digit or an invalid UTF-8 byte put in. Each is run through a
command; recon must answer (exit 0, 1, 3 or 4) or refuse with a message (exit 2), never exit 70.

Command lines too (`random_argv`): a command with options drawn from recon's own parser, each
given a value that makes sense or one at an edge, run on small inputs.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import os
import random

from recon.cli import build_parser, main

SEEDS = [
    b"011\n122\n122\n",
    b"# a comment\n1 2 ?\n? 3 2\n",
    b"?1?\n.2.\n-1-\n",
    b"5x5:a2b3c4a1d2e3\n",
    b"3:i\n",
    b"3x3h0:a4b5a00a\n",
    b"3\n1.1\n...\n1.1\n",
    b'<Legup><puzzle name="Fillapix"><board height="2" width="3"><cells>'
    b'<cell value="2" x="0" y="0"/><cell value="10" x="1" y="1"/></cells></board></puzzle></Legup>\n',
    b"0\n",
    b"9\n",
    # classic Minesweeper: a board with its total, LEGUP's, an endoh1 map, a Tatham Mines game ID, a field
    b"# mines: 3\n1?*\n12?\n??1\n",
    b'<Legup><puzzle name="Minesweeper"><board height="2" width="3"><cells>'
    b'<cell value="1" x="0" y="0"/><cell value="-1" x="1" y="0"/></cells></board></puzzle></Legup>\n',
    b"3 2 2\n0 1 2\n3 4 5\n",
    b"3x2n1:0,0,u20\n",
    b"# mines: 2\nx_\n_x\n",  # a field with the header generate --field writes
]
EXTRA = ["\u00b2", "\u2463", "\u0663", "\ufeff", "\u00a0", "x", "*", "#", "<", ":", "\r", "\t", " ", "?", "-1", "99999999999999"]
COMMANDS = [
    ["solve", "--time-limit", "2"],
    ["solve", "--engine", "all", "--time-limit", "2", "--json"],
    ["count", "--time-limit", "2", "--probabilities"],
    ["explain", "--time-limit", "2"],
    ["convert", "--format", "mosaic"],
    ["solve", "--classic", "--time-limit", "2"],
    ["count", "--classic", "--time-limit", "2", "--probabilities"],
    ["explain", "--classic", "--time-limit", "2", "--json"],
    ["convert", "--format", "field"],
]
ANSWERS = {0, 1, 2, 3, 4}


def mutate(data: bytes, rng: random.Random, edits: int) -> bytes:
    """Make a few random edits to data."""
    out = bytearray(data)
    for _ in range(edits):
        kind = rng.randrange(8)
        at = rng.randrange(len(out) + 1)
        if kind == 0 and out:
            out[min(at, len(out) - 1)] = rng.randrange(256)
        elif kind == 1:
            out[at:at] = bytes([rng.choice(b"0123456789?.-\nx#:<> ")])
        elif kind == 2 and out:
            del out[min(at, len(out) - 1)]
        elif kind == 3:
            out[at:at] = rng.choice(EXTRA).encode()
        elif kind == 4:
            lines = bytes(out).split(b"\n")
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            out = bytearray(b"\n".join(lines))
        elif kind == 5:
            out = out[:at]
        elif kind == 6:
            out[at:at] = b"\xff" if rng.random() < 0.5 else b"\xc3"
        else:
            out[at:at] = str(rng.choice([10**5, 4301 * 7, 2**40])).encode()
    return bytes(out)


def run_one(path: str, data: bytes, command: list[str]) -> tuple[int, str]:
    """Write data to path and run the command on it: (exit status, stderr)."""
    with open(path, "wb") as handle:
        handle.write(data)
    out, err = io.StringIO(), io.StringIO()
    code = main([command[0], path, *command[1:]], stdout=out, stderr=err)
    return code, err.getvalue()


def _failed(code: int, err: str) -> str | None:
    """An exit status that is neither an answer nor a refusal, or an internal error, or None."""
    if code not in ANSWERS:
        return f"exit {code}"
    if "internal error" in err or "Traceback" in err:
        return "internal error"
    return None


def judge(code: int, err: str, path: str) -> str | None:
    """What is wrong with how recon took a malformed input, or None."""
    if failed := _failed(code, err):
        return failed
    if code == 2 and not (err.startswith(path + ":") or err.startswith("recon: ")):
        return "a refusal that names neither the file nor recon"
    return None


#: The commands a command line is drawn for (play needs a terminal; warmup compiles for 30 s).
ARGV_COMMANDS = ("solve", "explain", "count", "render", "convert", "generate", "autoplay", "sweep")
#: Options left out: a Dask cluster's address, worker processes, a terminal's progress line.
ARGV_SKIP = {"--dask", "--workers", "--progress", "--no-progress"}
#: Values an option is given: mostly ones that make sense for it (small, so that each command is
#: quick; a whole number where no other kind is named here), else any of ARGV_VALUES.
ARGV_SANE = {"--first": ["1,1", "2,3", "3,1"], "--start": ["1,1", "2,3", "3,1"], "--sizes": ["1x7", "7x1", "2x5,3x3", "4x4"],
             "--rows": ["1", "2", "5", "1..3"], "--cols": ["1", "3", "7", "2..4"], "--densities": ["0", "20,50", "100"],
             "--hidden": ["0", "0.5", "0.3,1"], "--clues": ["minimal", "5", "0.5"], "--time-limit": ["0.5", "2"],
             "--max-cells": ["9", "100", "10000"]}
ARGV_VALUES = ["0", "1", "2", "3", "5", "9", "12", "30", "-1", "0.5", "1,1", "2,3", "9,9", "1x7", "7x1",
               "2x5,3x3", "1..3", "x", "", "1e309", "nan"]
ARGV_OUTS = ("--out", "--field", "--picture", "--plot", "--parquet")


@functools.lru_cache(maxsize=1)
def _options() -> dict[str, tuple[list[str], list[tuple[str, bool, tuple]], list[tuple[str, bool, tuple]]]]:
    """For each command of ARGV_COMMANDS: its positionals, its options as (name, takes a value,
    choices), and those it requires, read from recon's parser."""
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    table = {}
    for name in ARGV_COMMANDS:
        positionals, options, required = [], [], []
        for action in sub.choices[name]._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            if not action.option_strings:
                positionals.append(action.dest)
            elif not ARGV_SKIP & set(action.option_strings):
                options.append((action.option_strings[-1], action.nargs != 0, tuple(action.choices or ())))
                if action.required:
                    required.append(options[-1])
        table[name] = (positionals, options, required)
    return table


def random_argv(rng: random.Random, directory: str, files: list[str]) -> list[str]:
    """A random recon command line: a command, its positionals (one of `files` for a FILE), and
    up to four of its options; outputs go into directory (or to a place that cannot be written)."""
    command = rng.choice(ARGV_COMMANDS)
    positionals, options, required = _options()[command]
    argv = [command]
    if command in ("autoplay", "sweep"):  # (by default 100 games or trials, on every core)
        argv += ["--games" if command == "autoplay" else "--trials", rng.choice(["1", "2", "3"]), "--workers", "1"]
    for name in positionals:
        if name == "file":
            argv.append(rng.choice(files[:-2] * 3 + files[-2:]))
        elif name == "p" and rng.random() < 0.8:
            argv.append(rng.choice(["0", "20", "50", "100", "101", "x"]))
        elif name != "p":
            argv.append(rng.choice(["1", "2", "3", "5", "9", "12"] * 4 + ["0", "-1", "x", "99999999"]))
    for k in range(len(required) + rng.randrange(5)):
        option, takes_value, choices = required[k] if k < len(required) else rng.choice(options)
        argv.append(option)
        if not takes_value:
            continue
        if option in ARGV_OUTS:
            suffix = rng.choice([".txt", ".png", ".svg", ".pdf", ".csv", ".parquet", ""])
            argv.append(rng.choice([os.path.join(directory, f"out{rng.randrange(3)}{suffix}")] * 4
                                   + [directory, os.path.join(directory, "missing", "out.txt")]))
        elif rng.random() < 0.8:
            argv.append(str(rng.choice(choices or ARGV_SANE.get(option, ["0", "1", "2", "3", "5", "9"]))))
        else:
            argv.append(rng.choice(ARGV_VALUES))
    return argv


def run_argv(argv: list[str]) -> tuple[int, str]:
    """Run a command line in process: (exit status, what it wrote to stderr, and what argparse
    wrote to sys.stderr: its refusals go there)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(io.StringIO()) as parser_err:
        code = main(argv, stdout=out, stderr=err)
    return code, err.getvalue() + parser_err.getvalue()


def judge_argv(code: int, err: str, directory: str) -> str | None:
    """What is wrong with how recon took a command line whose files are in directory, or None."""
    if failed := _failed(code, err):
        return failed
    if code == 2 and not (err.startswith(("recon", directory)) or "\nrecon" in err):
        return "a refusal that names neither recon nor the file"
    return None


def argv_files(directory: str) -> list[str]:
    """The inputs `random_argv` picks from, written into directory: a full status, two puzzles
    (the 8x8 search-grade), two classic boards (one after a first click, with its total), a
    strip, a file with no status in it, then a folder and a file that is not there (these two
    last)."""
    inputs = {"status.txt": b"011\n122\n122\n", "puzzle.txt": b"?1?\n.2.\n-1-\n",
              "puzzle8.txt": b"??3?1?1?\n4?4??333\n2?3?3??4\n1???4???\n0?1???44\n?2??324?\n??43?2?2\n?2??4?2?\n",
              "board.txt": b"# mines: 3\n1?*\n12?\n??1\n", "game.txt": b"# mines: 6\n??????\n??113?\n??1011\n??2100\n???100\n",
              "strip.txt": b"1221\n", "empty.txt": b""}
    paths = []
    for name, data in inputs.items():
        paths.append(os.path.join(directory, name))
        with open(paths[-1], "wb") as handle:
            handle.write(data)
    return paths + [directory, os.path.join(directory, "absent.txt")]
