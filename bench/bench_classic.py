"""Benchmark: exact mine probabilities of classic Minesweeper boards with the total (issue:
classic boards). Targets: an expert board (30x16, 99 mines) half opened in < 50 ms in process; a
100x100 board with 2,000 mines half opened in < 1 s.

    python bench/bench_classic.py --seeds 5 --repeats 3
    python bench/bench_classic.py --solve --seeds 3      # solve's verdict with the total, against MILP

With --solve: `solve(problem)` under "auto" (past SAT's 100 open cells: deduction and the search
that counts the total, hybrid, checked by MILP up to 10,000 cells) against the lead of the plan it
replaced, MILP alone (`engine="milp"`; trimming checked it up to 10,000 cells, so its time is a
lower bound on that plan's), in the same run after one small solve each, each with --time-limit;
boards half opened as above, and boards after one first click at the centre (the board
`recon generate --classic` prints: mostly covered, a large total over cells no number sees).

"Half opened": a random field with exactly N mines; the opening a player makes, grown from safe
cells in random order (each opened cell with 0 opens its neighbours, as the game does) until half
the safe cells are open. Times are medians of --repeats of `count_solutions(probabilities=True)`
on the board's problem, per seed; the table gives the median and the worst over seeds.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import deque

import numpy as np

from recon import solve
from recon.counting import count_solutions
from recon.generation.classic import draw_field
from recon.io.classic import board_problem


def neighbours(field: np.ndarray) -> np.ndarray:
    padded = np.pad(field.astype(int), 1)
    rows, cols = field.shape
    return sum(padded[dr : dr + rows, dc : dc + cols] for dr in range(3) for dc in range(3)) - field


def half_opened(rows: int, cols: int, mines: int, rng) -> tuple[np.ndarray, int]:
    """Board cells (as recon.io.classic holds them) of a game half played, and its mines."""
    field = np.zeros(rows * cols, dtype=bool)
    field[rng.choice(rows * cols, mines, replace=False)] = True
    field = field.reshape(rows, cols)
    safe = np.argwhere(~field)
    return _opened(field, safe[rng.permutation(len(safe))], len(safe) // 2), int(field.sum())


def first_click_board(rows: int, cols: int, mines: int, rng) -> np.ndarray:
    """Board cells after one click at the centre, a zero (as `recon generate --classic` makes it)."""
    field = draw_field(rows, cols, mines, rng, (rows // 2, cols // 2))
    return _opened(field, [(rows // 2, cols // 2)], 1)


def _opened(field: np.ndarray, clicks, target: int) -> np.ndarray:
    """The board after opening `clicks` in turn (a 0 opens its neighbours) until `target` cells are open."""
    rows, cols = field.shape
    numbers = neighbours(field)
    opened = np.zeros(field.shape, dtype=bool)
    for r, c in clicks:
        if opened.sum() >= target:
            break
        todo = deque([(int(r), int(c))])
        while todo:
            y, x = todo.popleft()
            if opened[y, x]:
                continue
            opened[y, x] = True
            if numbers[y, x] == 0:
                for dy in (-1, 0, 1):
                    for dx in (-1, 0, 1):
                        if 0 <= y + dy < rows and 0 <= x + dx < cols and not opened[y + dy, x + dx]:
                            todo.append((y + dy, x + dx))
    return np.where(opened, numbers, -1).astype(np.int8)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=20.0, help="per count; past it the count is a lower bound")
    parser.add_argument("--solve", action="store_true", help="time solve's verdict against MILP's instead")
    args = parser.parse_args(argv)
    if args.solve:
        return bench_solve(args)
    print("| board | mines | target s | median s | worst s | groups (median) | exact |")
    print("|---|---|---|---|---|---|---|")
    for rows, cols, mines, target in ((16, 30, 99, 0.05), (100, 100, 2000, 1.0)):
        times, groups, exact = [], [], True
        for seed in range(args.seeds):
            cells, total = half_opened(rows, cols, mines, np.random.default_rng(seed))
            problem = board_problem(cells, total)
            per = []
            for _ in range(args.repeats):
                start = time.perf_counter()
                counted = count_solutions(problem, probabilities=True, time_limit=args.time_limit)
                per.append(time.perf_counter() - start)
            times.append(statistics.median(per))
            groups.append(counted.groups or 0)
            exact &= counted.exact
        print(f"| {rows}x{cols} | {mines} | {target:g} | {statistics.median(times):.3f} | {max(times):.3f} | "
              f"{statistics.median(groups):.0f} | {exact} |", flush=True)


def bench_solve(args) -> None:
    print("| board | mines | opened | auto s (median) | auto worst s | MILP s (median) | MILP worst s | ratio | verdicts (auto / MILP) |")
    print("|---|---|---|---|---|---|---|---|---|")
    warm = board_problem(half_opened(16, 30, 99, np.random.default_rng(99))[0], 99)
    for engine in ("auto", "milp"):
        solve(warm, engine=engine)  # (the engines' imports, outside the times)
    sizes = ((16, 30, 99), (50, 50, 400), (100, 100, 2000), (200, 200, 6400), (300, 300, 14400))
    for opened in ("half", "first click"):
        for rows, cols, mines in sizes:
            ours, peer, verdicts = [], [], []
            for seed in range(args.seeds):
                rng = np.random.default_rng(seed)
                if opened == "half":
                    cells, total = half_opened(rows, cols, mines, rng)
                else:
                    cells, total = first_click_board(rows, cols, mines, rng), mines
                problem = board_problem(cells, total)
                pair = []
                for engine, times in (("auto", ours), ("milp", peer)):
                    start = time.perf_counter()
                    result = solve(problem, engine=engine, time_limit=args.time_limit)
                    times.append(time.perf_counter() - start)
                    pair.append(result.verdict.value)
                verdicts.append(" / ".join(pair))
            a, b = statistics.median(ours), statistics.median(peer)
            print(f"| {rows}x{cols} | {mines} | {opened} | {a:.3f} | {max(ours):.3f} | {b:.3f} | {max(peer):.3f} | "
                  f"{b / a:.1f}x | {', '.join(sorted(set(verdicts)))} |", flush=True)


if __name__ == "__main__":
    main()
