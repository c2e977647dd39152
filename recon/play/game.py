"""One game of classic Minesweeper as a person plays it: the state behind `recon play`.

The field is drawn at the first click (the clicked cell's window kept free, so it opens a region;
no-guess boards made from that cell), or given (an endoh1 map or a field: as endoh1 does, a mine
under the first click is removed), or a board goes on where it stands: its covered cells' mines
drawn from the fields that fit it, each equally likely. A move that opens a cell the board does
not prove safe (its exact mine probability, with the total, above 0) counts as a guess. The probabilities come from
the autoplayer's odds engine (play.odds); a group too large for it goes to the general count, and
a move that count cannot settle within ODDS_SECONDS counts as a guess too. `auto` is endoh1's
semi-automatic mode: after each move the rules open every safe cell and flag every mine.
"""

from __future__ import annotations

import random
import time
from fractions import Fraction

import numpy as np

from ..counting import count_solutions
from ..generation import GenerationFailed
from ..generation.classic import NoBoard, draw_field, no_guess_field, player_rules
from ..io.classic import FLAG, board_problem, format_mines_id, numbers_beside_covered
from ..model import cell_name, make_problem, window_cells
from ..rules.sweeper import Sweeper, numbers_of
from ..rules.trim import classic_names
from .odds import NODES, Board, Odds, TooMany

#: A board goes on from where it stands only if its groups can be enumerated within this many
#: steps (its mines are drawn from them); past it, play.odds.TooMany.
DRAW_NODES = 2_000_000


class NoField(ValueError):
    """No field fits the board: its numbers, flags and total cannot all be met."""

#: The exact odds of the board shown (a click's "was it a guess?", the probabilities shown) come
#: from the autoplayer's engine (play.odds), whose group enumerations the game keeps; a group
#: past ODDS_NODES is left to the general count, which stops after ODDS_SECONDS (on the largest
#: boards it can take minutes: docs/performance.md).
ODDS_NODES = NODES
ODDS_SECONDS = 2.0


class Game:
    """A game in progress. `state` is "ready" (before the first click), "playing", "won" or "lost"."""

    def __init__(self, field: np.ndarray | None, mines: int, *, shape: tuple[int, int] | None = None,
                 first: tuple[int, int] | None = None, auto: bool = False, seed: int = 0, no_guess: bool = False):
        self.field = None if field is None else np.asarray(field, dtype=bool).copy()
        self._given = None if field is None else (self.field.copy(), mines, first)
        self.shape = self.field.shape if self.field is not None else shape
        self.rows, self.cols = self.shape
        self.mines = mines
        self.auto = auto
        self.seed = seed
        self.no_guess = no_guess
        self.flags = np.zeros(self.shape, dtype=bool)
        self.state = "ready"
        self.guesses = 0
        self.started: float | None = None
        self.ended: float | None = None
        self.blast: tuple[int, int] | None = None
        self.sweeper: Sweeper | None = None
        self.notice: str | None = None  # why the last first click did not start the game
        self.first: tuple[int, int] | None = None  # the first click, once the game started
        self._odds: tuple[bytes, float | None, list | None] | None = None  # the board shown, the limit, its probabilities
        self._exact: tuple[bytes, np.ndarray, Odds | None] | None = None  # the board shown, its cells, play.odds' odds
        self._groups: dict = {}  # play.odds' group enumerations of this game
        self._board: tuple[np.ndarray, int] | None = None  # the board this game went on from
        if first is not None:
            self.open(*first)

    @classmethod
    def new(cls, rows: int, cols: int, mines: int, *, seed: int = 0, no_guess: bool = False, auto: bool = False) -> "Game":
        """A new game whose field is drawn at the first click."""
        return cls(None, mines, shape=(rows, cols), seed=seed, no_guess=no_guess, auto=auto)

    @classmethod
    def from_board(cls, cells: np.ndarray, mines: int, *, seed: int = 0, auto: bool = False) -> "Game":
        """A game that goes on from a board as the player sees it (recon.io.classic's codes:
        numbers, -1 covered, -2 a flag, a known mine): its covered cells' mines drawn from the
        fields that fit its numbers, flags and total, each equally likely (the seed decides
        which), its opened cells open, its flags placed. NoField when no field fits;
        play.odds.TooMany when a group has too many solutions to draw from."""
        cells = np.asarray(cells, dtype=np.int8)
        groups: dict = {}  # the draw's group tables and binomials: the game's first odds ask the same
        drawn = Board.from_cells(cells, mines, DRAW_NODES, cache=groups).draw(random.Random(seed))
        opened, flags = cells >= 0, cells == FLAG
        field = flags.copy()
        if drawn is not None:
            field.flat[drawn] = True
        # the draw reads only the numbers beside a covered cell: the others are checked here
        if drawn is None or not np.array_equal(numbers_of(field)[opened], cells[opened]):
            raise NoField(f"no field fits the board: its numbers, flags and total of {mines} mines cannot all be met")
        game = cls(field, mines, seed=seed, auto=auto)
        game._board, game._groups = (cells.copy(), mines), groups
        game.sweeper = Sweeper(field, mines, **(player_rules(field.shape) if auto else {}))
        game.sweeper.resume(opened, flags)
        game.flags = flags
        game.state, game.started = "playing", time.monotonic()
        game.first = game._one_click()
        game._after_move()
        return game

    def _one_click(self) -> tuple[int, int] | None:
        """The cell whose click alone opens the cells open now (a zero opens its neighbours, and
        theirs), or None when no one click does: then the board has no Mines game ID."""
        opened = np.flatnonzero(self.sweeper.opened).tolist()
        numbers = self.sweeper.numbers
        start = next((x for x in opened if numbers[x] == 0), opened[0] if len(opened) == 1 else None)
        if start is None:
            return None
        region, todo = {start}, [start]
        while todo:
            x = todo.pop()
            if numbers[x]:
                continue
            for r, c in window_cells(self.shape, *divmod(x, self.cols)):
                if r * self.cols + c not in region:
                    region.add(r * self.cols + c)
                    todo.append(r * self.cols + c)
        return divmod(start, self.cols) if len(region) == len(opened) else None

    def again(self) -> "Game":
        """The next game: a new field drawn at the first click (with the next seed), the given
        field once more, or the same board with its covered cells' mines drawn again (the next
        seed)."""
        if self._board is not None:
            return Game.from_board(*self._board, seed=self.seed + 1, auto=self.auto)
        if self._given is None:
            return Game.new(self.rows, self.cols, self.mines, seed=self.seed + 1, no_guess=self.no_guess, auto=self.auto)
        field, mines, first = self._given
        return Game(field, mines, first=first, auto=self.auto, seed=self.seed)

    # -- reading -----------------------------------------------------------------------------
    @property
    def opened(self) -> np.ndarray:
        return self.sweeper.opened if self.sweeper is not None else np.zeros(self.shape, dtype=bool)

    @property
    def drawn(self) -> bool:
        """Were the covered cells' mines drawn (a board that went on from where it stood)?"""
        return self._board is not None

    @property
    def mines_left(self) -> int:
        return self.mines - int(self.flags.sum())

    @property
    def seconds(self) -> float:
        if self.started is None:
            return 0.0
        return (self.ended or time.monotonic()) - self.started

    def number(self, r: int, c: int) -> int:
        return self.sweeper.numbers[r * self.cols + c]

    def board_id(self) -> str | None:
        """The board as played, as a Tatham Mines game ID with its first click (None before the
        first click): `recon play` reads it back and opens that cell, and so does his Mines."""
        return None if self.first is None else format_mines_id(self.field, self.first).strip()

    def board_cells(self) -> np.ndarray:
        """What the player sees, in recon.io.classic's codes (numbers, covered), with the mines
        the auto mode's rules proved (-2); the player's own flags are left out, since they may be
        wrong. So a hint in auto mode names a deduction beyond those the game already applied."""
        if self.sweeper is None:
            return np.full(self.shape, -1, dtype=np.int8)
        return self.sweeper.board_cells()

    # -- moves -------------------------------------------------------------------------------
    def open(self, r: int, c: int) -> None:
        """Open a cell (a flagged one stays shut); the first click is always safe. On an opened
        number with as many flags around it, open its other covered neighbours (a chord)."""
        if self.state in ("won", "lost") or self.flags[r, c]:
            return
        if self.state == "playing" and self.opened[r, c]:
            self._chord(r, c)
            return
        if self.state == "ready":
            try:
                self._start(r, c)
            except (NoBoard, GenerationFailed) as err:  # no no-guess board from this cell: say so, stay ready
                self.notice = f"{err}; click another cell, or q to quit"
                return
            self.notice = None
        elif not self.opened[r, c] and self.probability(r, c, ODDS_SECONDS) != 0:
            self.guesses += 1
        if not self.sweeper.open(r, c):
            self.state, self.blast, self.ended = "lost", (r, c), time.monotonic()
            return
        self._after_move()

    def _chord(self, r: int, c: int) -> None:
        """As every Minesweeper since Windows: a number whose flags are all placed opens the rest
        of its window. The flags are the player's, so a wrong one loses here; the chord is one
        move, one guess if a cell it opens is not proved safe."""
        around = [(rr, cc) for rr, cc in window_cells(self.shape, r, c) if not self.opened[rr, cc]]
        flagged = sum(1 for x in around if self.flags[x])
        todo = [x for x in around if not self.flags[x]]
        if not todo or flagged != self.number(r, c):
            return
        p = self.probabilities(ODDS_SECONDS)  # the board before the chord, asked once
        if p is None or any(p[rr][cc] != 0 for rr, cc in todo):
            self.guesses += 1
        mine = next((x for x in todo if self.field[x]), None)
        if mine is not None:
            self.sweeper.open(*mine)
            self.state, self.blast, self.ended = "lost", mine, time.monotonic()
            return
        for x in todo:
            self.sweeper.open(*x)
        self._after_move()

    def toggle_flag(self, r: int, c: int) -> None:
        if self.state == "playing" and not self.opened[r, c]:
            self.flags[r, c] = not self.flags[r, c]

    def _start(self, r: int, c: int) -> None:
        rng = np.random.default_rng(self.seed)
        if self.field is None:
            if self.no_guess:
                self.field = no_guess_field(self.rows, self.cols, self.mines, rng, (r, c), rules=player_rules(self.shape))[0]
            else:
                self.field = draw_field(self.rows, self.cols, self.mines, rng, (r, c))
        elif self.field[r, c]:  # as endoh1 does: the mine under the first click is removed
            self.field[r, c] = False
            self.mines -= 1
        self.sweeper = Sweeper(self.field, self.mines, **(player_rules(self.shape) if self.auto else {}))
        self.state, self.started, self.first = "playing", time.monotonic(), (r, c)

    def _after_move(self) -> None:
        if self.auto:
            self.sweeper.advance()
            self.flags |= self.sweeper.flagged
        self.flags &= ~self.sweeper.opened
        if self.sweeper.won:
            self.state, self.ended = "won", time.monotonic()
            self.flags = self.field.copy()

    # -- help --------------------------------------------------------------------------------
    def _fast_odds(self) -> tuple[np.ndarray, Odds | None]:
        """The board shown and its exact odds by play.odds (None when a group is too large for it)."""
        cells = self.board_cells()
        shown = cells.tobytes()
        if self._exact is None or self._exact[0] != shown:
            try:
                odds = Board.from_cells(cells, self.mines, ODDS_NODES, cache=self._groups).odds()
            except TooMany:
                odds = None
            self._exact = (shown, cells, odds)
        return self._exact[1], self._exact[2]

    def probabilities(self, time_limit: float | None = None) -> "list[list[Fraction]] | OddsGrid | None":
        """Each cell's exact mine probability given the numbers shown and the total, indexed [r][c]
        (None before the first click, or when it is not exact within time_limit seconds)."""
        if self.sweeper is None:
            return None
        cells, odds = self._fast_odds()
        if odds is not None:
            return OddsGrid(cells, odds)
        shown = cells.tobytes()
        # counted again only when a number shows (or a count that ran out is asked with another limit)
        if self._odds is None or self._odds[0] != shown or (self._odds[2] is None and self._odds[1] != time_limit):
            counted = count_solutions(board_problem(cells, self.mines), probabilities=True, limit=1_000_000,
                                      time_limit=time_limit, crosscheck=False)
            self._odds = (shown, time_limit, counted.probabilities if counted.exact else None)
        return self._odds[2]

    def probability(self, r: int, c: int, time_limit: float | None = None) -> Fraction | None:
        p = self.probabilities(time_limit)
        return None if p is None else p[r][c]

    def hint(self) -> dict | None:
        """The next deduction on the board as shown: its text, rule names (LEGUP, endoh1) and the
        cells it fixes; None when none applies (a guess is needed) or the game is over."""
        if self.state != "playing":
            return None
        from ..engines import trim

        cells = self.board_cells()
        problem = board_problem(cells, self.mines)
        # the other numbers tell nothing more: leaving them out keeps a hint on a large board as
        # cheap as its frontier
        problem = make_problem(problem.clues, numbers_beside_covered(cells), problem.fixed, problem.mines)
        result = trim.solve(problem)
        names = classic_names(result.trace, problem)
        for step, name in zip(result.trace, names):
            if step.cells:
                return {"rule": step.rule, "text": step.text, "legup": name["legup"], "endoh1": name["endoh1"],
                        "cells": list(step.cells), "values": list(step.values)}
        return None

    def suggestion(self) -> dict | None:
        """When no deduction applies: what the autoplayer would do on the board shown (a cell the
        exact count proves safe or a mine, else its guess with the chance that it is safe);
        None before the first click or after the end."""
        if self.state != "playing":
            return None
        from .autoplay import guess

        cell, safe, sure = guess(self.sweeper, self.mines, cache=self._groups)  # the game's group tables
        if safe:
            return {"text": f"{cell_name(*safe[0])} is empty in every field that fits the numbers and the total "
                            "(an exact count; no single rule shows it)", "cells": [tuple(safe[0])], "guess": False}
        if sure:
            return {"text": f"{cell_name(*sure[0])} is a mine in every field that fits the numbers and the total "
                            "(an exact count)", "cells": [tuple(sure[0])], "guess": False}
        _, odds = self._fast_odds()  # the board guess() read, its groups enumerated by now
        x = cell[0] * self.cols + cell[1]
        chance = "" if odds is None else f", safe with chance {1 - odds.mine_weight[x] / odds.weight:.0%}"
        return {"text": f"no deduction applies: the best guess is {cell_name(*cell)}{chance}", "cells": [tuple(cell)],
                "guess": True}


class OddsGrid:
    """Each cell's exact mine probability from play.odds, made when read (a large board has a
    million cells, and a click asks about one): grid[r][c] is a Fraction."""

    def __init__(self, cells: np.ndarray, odds: Odds):
        self.cells, self.odds = cells, odds
        self.rows, self.cols = cells.shape

    def __len__(self) -> int:
        return self.rows

    def __getitem__(self, r: int) -> "_OddsRow":
        if not -self.rows <= r < self.rows:
            raise IndexError(r)
        return _OddsRow(self, r % self.rows)


class _OddsRow:
    def __init__(self, grid: OddsGrid, r: int):
        self.grid, self.r = grid, r

    def __len__(self) -> int:
        return self.grid.cols

    def __getitem__(self, c: int) -> Fraction:
        grid = self.grid
        if not -grid.cols <= c < grid.cols:
            raise IndexError(c)
        x = self.r * grid.cols + c % grid.cols
        shown = grid.cells.flat[x]
        if shown != -1:  # opened (a number) or a mine the rules proved (-2)
            return Fraction(int(shown == -2))
        return Fraction(grid.odds.mine_weight[x], grid.odds.weight)
