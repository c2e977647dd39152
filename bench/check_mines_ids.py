"""Check recon's Tatham Mines game IDs with Simon Tatham's own code (issue: classic play).

    python bench/check_mines_ids.py --checker PATH --boards 2000 --seed 1

PATH is bench/tatham/id_check.c built beside his sources (see that file; they stay outside
this repository). Each board is a random request to `recon generate --classic` (shapes 1xk, kx1,
2xk, kx2 and rectangles up to 30x30, a random count and first click, a zero or a safe first
click, no-guess a third of the time), run in process as the command line runs it, three times
with the same seed: --format mines, board and field. Every ID goes to his validate_params,
validate_desc and new_game, and must give the same mines as the field, and the same grid after
the first click as recon's board (a first click that wins at once shows his flags where recon
shows covered cells). recon's no-guess boards also go to his own solver, and the count it
finishes is reported (it may know fewer rules than recon's player, so one it does not finish is
not wrong by itself). Where recon refuses --format mines, his code must refuse the ID of the
same field too, and the other way round. Prints counts; 0 wrong expected.

    python bench/check_mines_ids.py --checker PATH --maker MAKER --boards 2000 --seed 1

--maker: bench/tatham/id_make.c built with his mines.c. It makes IDs as his Mines shows them
(his generator's boards, the layout masked, no mine count), for random sizes from 3x3 to 30x30
and counts from 1 to W*H-9; recon must read each to the mines and first click his new_game
gives, and show the same grid after that click; and recon's player must finish each (his
generator certifies them with his solver).
"""

from __future__ import annotations

import argparse
import collections
import io
import subprocess
import sys
import time

import numpy as np

from recon.cli import main
from recon.io.classic import format_mines_id, parse_mines_id
from recon.io.text import parse_field
from recon.generation.classic import play
from recon.rules.sweeper import Sweeper


def recon(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(argv, out, err), out.getvalue(), err.getvalue()


def request(rng: np.random.Generator) -> list[str]:
    """A random `recon generate --classic` request that the generator can make."""
    kind = rng.integers(5)
    long = int(rng.integers(1, 40))
    rows, cols = [(1, long), (long, 1), (2, long), (long, 2), (int(rng.integers(3, 31)), int(rng.integers(3, 31)))][kind]
    zero = rng.random() < 0.6
    first = (int(rng.integers(rows)), int(rng.integers(cols)))
    kept = min(rows, first[0] + 2) - max(0, first[0] - 1)
    kept = kept * (min(cols, first[1] + 2) - max(0, first[1] - 1)) if zero else 1
    mines = int(rng.integers(0, rows * cols - kept + 1))
    argv = ["generate", str(rows), str(cols), "--classic", "--mines", str(mines), "--first",
            f"{first[0] + 1},{first[1] + 1}", "--first-click", "zero" if zero else "safe", "--seed", str(int(rng.integers(1 << 30)))]
    if rng.random() < 1 / 3:
        argv += ["--no-guess", "--time-limit", "5"]
    return argv


def his_answers(checker: str, ids: list[str]) -> list[tuple[str, list[str]]]:
    """His verdict on each ID: ("OK W H ..." and its H rows) or ("BAD... why", [])."""
    out = subprocess.run([checker], input="".join(ids), capture_output=True, text=True, check=True).stdout.splitlines()
    answers, k = [], 0
    while k < len(out):
        head = out[k]
        rows = int(head.split()[2]) if head.startswith("OK ") else 0
        answers.append((head, out[k + 1 : k + 1 + rows]))
        k += 1 + rows
    return answers


def his_ids(args: argparse.Namespace, rng: np.random.Generator, tally: collections.Counter, wrong: list) -> None:
    """His own IDs ('WxH:x,y,m<hex>'), read by recon, against his new_game on the same ID (given
    the mine count asked for, which his midend would take from the game being played)."""
    asks = []
    while len(asks) < 2 * args.boards:
        cols, rows = int(rng.integers(3, 31)), int(rng.integers(3, 31))
        if rows * cols < 10:  # 3x3 takes no mine
            continue
        asks += [f"{cols}x{rows}n{int(rng.integers(1, rows * cols - 8))}", str(int(rng.integers(1 << 30)))]
    made = subprocess.run([args.maker, *asks], capture_output=True, text=True, check=True).stdout.splitlines()
    ids = [line for line in made if not line.startswith("BAD")]
    tally["his IDs refused by his generator"] += len(made) - len(ids)
    counted = [f"{ask}:{line.split(':', 1)[1]}\n" for ask, line in zip(asks[::2], made) if not line.startswith("BAD")]
    for line, (head, rows) in zip(ids, his_answers(args.checker, counted), strict=True):
        tally["his IDs read"] += 1
        try:
            field, first = parse_mines_id(line)
        except ValueError as err:
            wrong.append((line, "recon refused his ID", str(err)))
            continue
        mines = np.array([[ch == "*" for ch in row.split(" ")[0]] for row in rows])
        grid = [row.split(" ")[1].replace("F", "?") for row in rows]
        sweeper = Sweeper(field)
        sweeper.open(*first)
        board = ["".join("?" if v < 0 else str(v) for v in row) for row in sweeper.board_cells()]
        if not head.startswith("OK") or not np.array_equal(mines, field):
            wrong.append((line, "his mines differ from recon's reading", head))
        elif grid != board:
            wrong.append((line, "his grid after the first click differs", "\n".join(grid), "\n".join(board)))
        else:  # his generator's boards are no-guess by his solver: recon's player must finish them too
            tally["his boards finished by his solver"] += head.split()[4] == "0"
            if play(field, int(field.sum()), first)[0].won:
                tally["his boards finished by recon's player"] += 1
            else:
                tally["his boards recon's player does not finish"] += 1
                print("recon's player does not finish his board", line, file=sys.stderr)


def main_(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checker", required=True, metavar="PATH", help="bench/tatham/id_check.c, built")
    parser.add_argument("--maker", metavar="PATH", help="bench/tatham/id_make.c, built with mines.c: read his own IDs too")
    parser.add_argument("--boards", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    tally: collections.Counter = collections.Counter()
    wrong = []
    start = time.perf_counter()
    cases = []  # (argv, our ID or None, field, board rows)
    while len(cases) < args.boards:
        req = request(rng)
        code, out, err = recon(req + ["--format", "field"])
        if code != 0:
            tally[f"not made (exit {code})"] += 1
            continue
        field = parse_field(out)
        board = [line for line in recon(req + ["--format", "board"])[1].splitlines() if not line.startswith("#")]
        code, ours, err = recon(req + ["--format", "mines"])
        first = tuple(int(v) - 1 for v in req[req.index("--first") + 1].split(","))
        cases.append((req, ours if code == 0 else None, field, board, format_mines_id(field, first), err))
    answers = his_answers(args.checker, [case[4] for case in cases])
    for (req, ours, field, board, theirs_of_field, err), (head, rows) in zip(cases, answers, strict=True):
        if ours is None:
            tally["refused by recon"] += 1
            if head.startswith("OK") or "Tatham's Mines takes" not in err:
                wrong.append((req, "recon refused an ID his code takes", head, err))
            continue
        tally["written"] += 1
        if ours != theirs_of_field:
            wrong.append((req, "the ID is not the field's", ours, theirs_of_field))
        elif not head.startswith("OK"):
            wrong.append((req, "his code refused it", head, ours))
        else:
            mines = np.array([[ch == "*" for ch in row.split(" ")[0]] for row in rows])
            grid = [row.split(" ")[1].replace("F", "?") for row in rows]
            if head.split()[:4] != ["OK", str(field.shape[1]), str(field.shape[0]), str(int(field.sum()))] or not np.array_equal(mines, field):
                wrong.append((req, "his mines differ", head, ours))
            elif grid != board:
                wrong.append((req, "his grid after the first click differs", "\n".join(grid), "\n".join(board)))
            elif "--no-guess" in req:  # certified by recon's player; his solver may know fewer rules
                solved = head.split()[4] == "0"
                tally["no-guess boards his solver finishes" if solved else "no-guess boards his solver does not"] += 1
                if not solved:
                    print("his solver does not finish recon's no-guess board:", " ".join(req), file=sys.stderr)
    if args.maker:
        his_ids(args, rng, tally, wrong)
    for case in wrong[:10]:
        print(*case, sep="\n  ", file=sys.stderr)
    print(f"{args.boards} boards (seed {args.seed}) in {time.perf_counter() - start:.0f} s: " +
          ", ".join(f"{k} {v}" for k, v in sorted(tally.items())) + f"; wrong: {len(wrong)}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main_())
