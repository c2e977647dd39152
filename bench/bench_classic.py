"""Benchmark: exact mine probabilities of classic Minesweeper boards with the total (issue:
classic boards). Targets: an expert board (30x16, 99 mines) half opened in < 50 ms in process; a
100x100 board with 2,000 mines half opened in < 1 s.

    python bench/bench_classic.py --seeds 5 --repeats 3

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

from recon.counting import count_solutions
from recon.io.classic import board_problem


def neighbours(field: np.ndarray) -> np.ndarray:
    padded = np.pad(field.astype(int), 1)
    rows, cols = field.shape
    return sum(padded[dr : dr + rows, dc : dc + cols] for dr in range(3) for dc in range(3)) - field


def half_opened(rows: int, cols: int, mines: int, rng) -> np.ndarray:
    """Board cells (as recon.io.classic holds them) of a game half played."""
    field = np.zeros(rows * cols, dtype=bool)
    field[rng.choice(rows * cols, mines, replace=False)] = True
    field = field.reshape(rows, cols)
    numbers = neighbours(field)
    opened = np.zeros(field.shape, dtype=bool)
    safe = np.argwhere(~field)
    target = len(safe) // 2
    for r, c in safe[rng.permutation(len(safe))]:
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
    return np.where(opened, numbers, -1).astype(np.int8), int(field.sum())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=20.0, help="per count; past it the count is a lower bound")
    args = parser.parse_args(argv)
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


if __name__ == "__main__":
    main()
