"""Benchmark: the autoplayer's win rate (issue: classic play), under the anchors' own rules.

- modern expert: 16x30, 99 mines, the start cell (3,3) counted from 0 an opening (`--start 4,4`,
  first click zero). Anchor: DavidNHill's solver, 54 %.
- classic expert: the same board, a safe start in a corner, not always an opening (first click
  safe at r1c1). Anchor: DavidNHill's, 40.7 % (JavaScript) and 41.1 ± 0.03 % (Java, 10 million games).
- beginner (9x9, 10) and intermediate (16x16, 40), modern rules, start in the centre.

    python bench/bench_autoplay.py --games 10000
    python bench/bench_autoplay.py --games 4000 --strategies safest,look-ahead,full --only expert
    python bench/bench_autoplay.py --games 4000 --only expert --peer "CMD"

Prints one row per setting and strategy: games, win rate with its 95 % interval, guesses per game,
seconds. Strategies on the same seed play the same fields, so their rows compare like for like.

`--peer CMD` plays the same fields with another player in the same run: CMD reads one game a line
on stdin, `rows cols start_row start_col` (0-based) and the mines' row-major indices, opens the
start cell itself and prints a line per game whose first field is 1 for a win, 0 for a loss. A row
for the peer follows, and a paired line: games won only by recon, only by the peer, and the
two-sided sign test's p (the chance of a split at least that uneven were the two equal).
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import time

import numpy as np
from scipy.stats import binomtest

from recon.play.autoplay import game_fields, play_games
from recon.stats import wilson

SETTINGS = [
    ("beginner", 9, 9, 10, (4, 4), "zero"),
    ("intermediate", 16, 16, 40, (7, 7), "zero"),
    ("modern expert", 16, 30, 99, (3, 3), "zero"),
    ("classic expert", 16, 30, 99, (0, 0), "safe"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--small-games", type=int, default=2_000, help="games for beginner and intermediate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--strategies", default="full", help="comma-separated: safest, look-ahead, full")
    parser.add_argument("--only", default="", help="only the settings whose name contains this")
    parser.add_argument("--peer", metavar="CMD", help="another player, run on the same fields (see above)")
    args = parser.parse_args()
    print("| setting | strategy | games | won | 95 % interval | guesses per game | seconds | games per second |")
    print("|---|---|---|---|---|---|---|---|")
    for name, rows, cols, mines, start, first in SETTINGS:
        if args.only not in name:
            continue
        games = args.games if "expert" in name else args.small_games
        for strategy in args.strategies.split(","):
            r = play_games(games, rows, cols, mines, start=start, first_click=first, seed=args.seed,
                           workers=args.workers, strategy=strategy, each=bool(args.peer))
            low, high = r["ci95"]
            print(f"| {name} | {strategy} | {games} | {r['win_rate']:.1%} | {low:.1%}-{high:.1%} | "
                  f"{r['guesses_per_game']:.2f} | {r['seconds']:.0f} | {r['games_per_second']:.1f} |", flush=True)
            if args.peer:
                compare(args.peer, name, strategy, np.array(r["won_each"]),
                        game_fields(games, rows, cols, mines, start=start, first_click=first, seed=args.seed), start)


def compare(peer: str, name: str, strategy: str, ours: np.ndarray, fields, start) -> None:
    """Run the peer on the same fields; its row and the paired counts."""
    lines = []
    for field in fields:
        rows, cols = field.shape
        lines.append(" ".join(map(str, [rows, cols, *start, *np.flatnonzero(field.ravel()).tolist()])))
    begin = time.perf_counter()
    out = subprocess.run(shlex.split(peer), input="\n".join(lines) + "\n", capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - begin
    theirs = np.array([line.split()[0] == "1" for line in out.stdout.splitlines() if line.strip()])
    if len(theirs) != len(ours):
        raise SystemExit(f"the peer answered {len(theirs)} games of {len(ours)}")
    low, high = wilson(int(theirs.sum()), len(theirs))
    print(f"| {name} | peer | {len(theirs)} | {theirs.mean():.1%} | {low:.1%}-{high:.1%} | | {seconds:.0f} | "
          f"{len(theirs) / seconds:.1f} |")
    only_ours, only_theirs = int((ours & ~theirs).sum()), int((theirs & ~ours).sum())
    p = binomtest(only_ours, only_ours + only_theirs).pvalue if only_ours + only_theirs else 1.0
    print(f"|  | {strategy} against peer | won only by recon {only_ours}, only by the peer {only_theirs}, "
          f"sign test p = {p:.2f} | | | | | |", flush=True)


if __name__ == "__main__":
    main()
