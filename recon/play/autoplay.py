"""The autoplayer: deduce first, then guess by exact probabilities with the total.

A game: a field drawn under the first-click rule asked for (`zero`: the start cell opens a region,
as modern Minesweeper guarantees; `safe`: it is no mine; `any`: it may be one), or a no-guess
board. The player opens the start cell, then repeats:

1. the rules of `recon.rules.sweeper` open every cell they prove safe and mark every proved mine;
2. when they stall, `recon.counting` gives every covered cell's exact mine probability given the
   numbers, the marks and the total: a cell at 0 is safe after all (opened, no guess), one at 1 a
   mine;
3. otherwise it guesses the covered cell least likely to be a mine. Ties (within 1e-9) go to the
   cell with the most decided neighbours, where an opened number is likeliest to say something
   new: corners and edges before the middle of an unexplored region.

`play_games` plays many games on a process pool; each game's seed is derived from the run's seed
and its number, so a game replays alone and the results do not depend on the number of workers.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import numpy as np

from ..counting import count_solutions
from ..generation.classic import draw_field, no_guess_field
from ..io.classic import board_problem
from ..model import OPEN
from ..rules.sweeper import Sweeper
from ..stats import wilson


@dataclass(frozen=True)
class Game:
    """How one game went."""

    won: bool
    guesses: int  # guesses made (the first click not counted)
    seconds: float


def draw(rows: int, cols: int, mines: int, start: tuple[int, int], first_click: str, no_guess: bool,
         rng: np.random.Generator) -> np.ndarray:
    """The field of one game under the first-click rule."""
    if no_guess:
        return no_guess_field(rows, cols, mines, rng, start, zero=first_click == "zero")[0]
    if first_click == "any":
        field = np.zeros(rows * cols, dtype=bool)
        field[rng.choice(rows * cols, size=mines, replace=False)] = True
        return field.reshape(rows, cols)
    return draw_field(rows, cols, mines, rng, start, zero=first_click == "zero")


def guess(sweeper: Sweeper, mines: int) -> tuple[tuple[int, int] | None, list, list]:
    """The exact-probability step: (the cell to guess or None, cells proved safe, cells proved
    mines)."""
    cells = sweeper.board_cells()
    counted = count_solutions(board_problem(cells, mines), probabilities=True, limit=1_000_000, crosscheck=False)
    covered = np.argwhere(sweeper.known() == OPEN)
    if not counted.exact or counted.probabilities is None:  # too many to count: the fewest mines around
        return tuple(covered[0]), [], []
    p = counted.probabilities
    safe = [tuple(x) for x in covered if p[x[0]][x[1]] == 0]
    sure = [tuple(x) for x in covered if p[x[0]][x[1]] == 1]
    if safe or sure:
        return None, safe, sure
    lowest = min(p[r][c] for r, c in covered)
    tied = [(r, c) for r, c in covered if float(p[r][c] - lowest) < 1e-9]
    decided = sweeper.known() != OPEN
    rows, cols = decided.shape

    def around(cell):
        r, c = cell
        window = decided[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2]
        return int(window.sum()) + (9 - window.size)  # off the board counts as decided

    return max(tied, key=around), [], []


def play_one(rows: int, cols: int, mines: int, start: tuple[int, int], first_click: str, no_guess: bool,
             seed: int | list[int]) -> Game:
    """Play one game from its seed."""
    begin = time.perf_counter()
    rng = np.random.default_rng(seed)
    field = draw(rows, cols, mines, start, first_click, no_guess, rng)
    sweeper = Sweeper(field, mines)
    guesses = 0
    if not sweeper.open(*start):
        return Game(False, 0, time.perf_counter() - begin)
    while True:
        sweeper.advance()
        if sweeper.won:
            return Game(True, guesses, time.perf_counter() - begin)
        cell, safe, sure = guess(sweeper, mines)
        for r, c in sure:
            sweeper.mark_mine(r, c)
        for r, c in safe:
            assert sweeper.open(r, c), "a cell of probability 0 was a mine"
        if cell is None:
            continue
        guesses += 1
        if not sweeper.open(*cell):
            return Game(False, guesses, time.perf_counter() - begin)


def _play(job) -> Game:
    return play_one(*job)


def play_games(games: int, rows: int, cols: int, mines: int, *, start: tuple[int, int] | None = None,
               first_click: str = "zero", no_guess: bool = False, seed: int = 0, workers: int | None = None,
               progress=None) -> dict:
    """Play `games` games; a summary: games, wins, win_rate, ci95, guesses_per_game, seconds,
    games_per_second."""
    start = start if start is not None else (rows // 2, cols // 2)
    children = np.random.SeedSequence(seed).spawn(games)
    jobs = [(rows, cols, mines, start, first_click, no_guess, child.generate_state(2).tolist()) for child in children]
    begin = time.perf_counter()
    workers = workers or os.cpu_count() or 1
    results: list[Game] = []
    if workers == 1 or games < 4:
        for job in jobs:
            results.append(_play(job))
            if progress:
                progress(len(results), sum(g.won for g in results))
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers) as pool:
            for game in pool.map(_play, jobs, chunksize=max(1, min(64, games // (8 * workers)))):
                results.append(game)
                if progress:
                    progress(len(results), sum(g.won for g in results))
    seconds = time.perf_counter() - begin
    wins = sum(g.won for g in results)
    low, high = wilson(wins, games)
    return {
        "games": games, "wins": wins, "win_rate": wins / games if games else 0.0, "ci95": [low, high],
        "guesses_per_game": sum(g.guesses for g in results) / games if games else 0.0,
        "seconds": seconds, "games_per_second": games / seconds if seconds else 0.0,
        "rows": rows, "cols": cols, "mines": mines, "start": [start[0] + 1, start[1] + 1],
        "first_click": first_click, "no_guess": no_guess, "seed": seed,
    }
