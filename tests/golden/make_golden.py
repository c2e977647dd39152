"""Record what `recon generate` prints for a fixed set of commands (tests/golden/generate.txt).

The redesign promised the same puzzles for the same seed: this file was written by the code
before it, and tests/test_golden.py holds every later version to it. Run it again only when a
change is meant to give other puzzles, and say so in the commit. It was run again once: when
advanced, elimination and search puzzles began to remove their clues tile by tile
(`Options.order_tile`); basic puzzles and fields stayed the same.

    python tests/golden/make_golden.py
"""

from __future__ import annotations

import io
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from recon.cli import main  # noqa: E402

#: (rows, cols, p, seed, extra arguments): small odd shapes and two larger grids per grade.
CASES = [
    *[(r, c, p, s, []) for r, c, p, s in [(1, 9, 30, 0), (9, 1, 30, 1), (2, 7, 40, 2), (7, 11, 30, 3), (11, 7, 50, 4)]],
    *[
        (r, c, p, s, ["--puzzle", "--difficulty", d])
        for d in ("basic", "advanced", "elimination", "search")
        for r, c, p, s in [(2, 9, 30, 0), (9, 2, 30, 1), (6, 10, 30, 2), (10, 6, 40, 3), (12, 12, 30, 4), (25, 25, 30, 5), (20, 31, 35, 6)]
    ],
    *[
        (r, c, p, s, ["--puzzle", "--difficulty", d, "--clues", t])
        for d, r, c, p, s, t in [
            ("basic", 12, 17, 30, 0, "0.7"), ("basic", 9, 13, 30, 2, "60"),
            ("advanced", 12, 17, 30, 0, "0.7"), ("advanced", 15, 15, 30, 1, "0.45"),
            ("elimination", 12, 17, 30, 0, "0.7"), ("elimination", 15, 15, 30, 1, "0.45"),
            ("elimination", 9, 13, 30, 2, "60"), ("elimination", 30, 30, 30, 3, "0.5"),
            ("search", 15, 15, 30, 1, "0.45"), ("search", 9, 13, 30, 2, "50"),
        ]
    ],
]
PATH = os.path.join(HERE, "generate.txt")


def command(rows: int, cols: int, p: int, seed: int, extra: list[str]) -> list[str]:
    """The argument list of one case."""
    return ["generate", str(rows), str(cols), str(p), "--seed", str(seed), *extra]


def run(argv: list[str]) -> str:
    """What recon prints on stdout for argv, with its exit status."""
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err)
    return f"exit {code}\n{out.getvalue()}"


def record() -> str:
    """Every case's command line and output, as one text."""
    return "".join(f"$ recon {' '.join(command(*case))}\n{run(command(*case))}\n" for case in CASES)


if __name__ == "__main__":
    with open(PATH, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(record())
    print(f"wrote {PATH} ({len(CASES)} cases)")
