"""Malformed inputs for every reader and command, shared by tests/test_fuzz.py (hypothesis, in the
suite) and bench/bench_fuzz.py (a larger corpus, counted).

An input is made from a valid one in one of recon's formats (status text, Mosaic game ID, hakank,
LEGUP XML) by a few random edits: a byte replaced, inserted or deleted, a line doubled or cut,
a number made huge, a Unicode digit or an invalid UTF-8 byte put in. Each is run through a
command; recon must answer (exit 0, 1, 3 or 4) or refuse with a message (exit 2), never exit 70.
"""

from __future__ import annotations

import io
import random

from recon.cli import main

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


def judge(code: int, err: str, path: str) -> str | None:
    """What is wrong with how recon took a malformed input, or None."""
    if code not in ANSWERS:
        return f"exit {code}"
    if "internal error" in err or "Traceback" in err:
        return "internal error"
    if code == 2 and not (err.startswith(path + ":") or err.startswith("recon: ")):
        return "a refusal that names neither the file nor recon"
    return None
