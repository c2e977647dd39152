"""Benchmark: what `h` costs in `recon play` (`Game.hint`, then `Game.suggestion` when no rule
applies), on square boards at 16 % mines, right after the first click in the centre, with and
without auto mode. The peer, timed in the same run on the same board: trimming on the whole
board's problem (every number a clue), which the hint ran before it read only the numbers beside
a covered cell.

Then what a click costs after the first: the game asks the exact odds whether it was a guess
(play.odds, the group enumerations kept through the game). The peer, on the same board: the
general count (recon.counting) that answered it before, stopped at PEER_SECONDS.

    python bench/bench_play.py --seeds 3 --sizes 100 300 1000

Each row: medians over seeds, in process; the suggestion is timed on the seeds where no rule
applied (how many is said), and the first one of a shape includes building the odds engine's
neighbour lookup. A click: the median of CLICKS clicks on safe covered cells, drawn at random.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from recon.counting import count_solutions
from recon.engines import trim
from recon.io.classic import board_problem
from recon.play.game import Game

DENSITY = 0.16
CLICKS = 5
PEER_SECONDS = 30.0


def timed(call):
    start = time.perf_counter()
    out = call()
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 300, 1000])
    args = parser.parse_args()
    print("| board | auto | first click | hint | whole-board trimming (peer) | peer / hint | suggestion |")
    print("|---|---|---|---|---|---|---|")
    for n in args.sizes:
        for auto in (False, True):
            rows, tips = [], []
            for seed in range(args.seeds):
                game = Game.new(n, n, int(n * n * DENSITY), seed=seed, auto=auto)
                click, _ = timed(lambda: game.open(n // 2, n // 2))
                hint, found = timed(game.hint)
                peer, _ = timed(lambda: trim.solve(board_problem(game.board_cells(), game.mines)))
                rows.append((click, hint, peer, peer / hint))
                if found is None and game.state == "playing":
                    tips.append(timed(game.suggestion)[0])
            click, hint, peer, ratio = (statistics.median(col) for col in zip(*rows))
            tip = f"{statistics.median(tips):.2f} s ({len(tips)} of {args.seeds})" if tips else "a rule applied"
            print(f"| {n}x{n} | {'yes' if auto else 'no'} | {click:.2f} s | {hint:.3f} s | {peer:.2f} s | "
                  f"{ratio:.0f}x | {tip} |", flush=True)
    print()
    print("| board | a click (exact odds) | the general count, same board (peer) | peer / click |")
    print("|---|---|---|---|")
    for n in args.sizes:
        clicks, peers, unfinished = [], [], 0
        for seed in range(args.seeds):
            game = Game.new(n, n, int(n * n * DENSITY), seed=seed)
            game.open(n // 2, n // 2)
            rng = np.random.default_rng(seed)
            for k in range(CLICKS):
                if game.state != "playing":
                    break
                if k == 0:  # the peer on the board this click is asked about
                    problem = board_problem(game.board_cells(), game.mines)
                    seconds, counted = timed(lambda: count_solutions(problem, probabilities=True, limit=1_000_000,
                                                                     time_limit=PEER_SECONDS, crosscheck=False))
                    peers.append(seconds)
                    unfinished += not counted.exact
                safe = np.argwhere(~game.opened & ~game.field)
                r, c = safe[rng.integers(len(safe))]
                clicks.append(timed(lambda: game.open(int(r), int(c)))[0])
        click, peer = statistics.median(clicks), statistics.median(peers)
        late = f" ({unfinished} of {len(peers)} stopped at {PEER_SECONDS:g} s)" if unfinished else ""
        print(f"| {n}x{n} | {click:.3f} s | {peer:.2f} s{late} | {peer / click:.0f}x |", flush=True)

if __name__ == "__main__":
    main()
