"""The autoplayer: deduce first, then guess by exact odds with the total.

A game: a field drawn under the first-click rule asked for (`zero`: the start cell opens a region,
as modern Minesweeper guarantees; `safe`: it is no mine; `any`: it may be one), or a no-guess
board. The player opens the start cell, then repeats:

1. the rules of `recon.rules.sweeper` open every cell they prove safe and mark every proved mine;
2. when they stall, `recon.play.odds` gives every covered cell's exact mine odds given the
   numbers, the marks and the total: a cell at 0 is safe after all (opened, no guess), one at 1 a
   mine;
3. otherwise it guesses (`strategy`):
   - `safest`: the cell least likely to be a mine, ties to the cell with the most decided
     neighbours (corners and edges before the middle of an unexplored region);
   - `look-ahead`: among the cells nearly as safe as the safest (CUT_OFF), the one likeliest to
     survive this guess and the next: each number it can show is weighed by its exact chance,
     and after it the next move is certain or the safest cell's chance (DavidNHill's "secondary
     safety"); a dead cell (it can show one number only) last, and a cell of a small enclosed
     pocket only when no candidate lies outside one (SMALL_AREA);
   - `full` (the default): that, but first a 50/50 that nothing can ever settle is taken at once
     (it must be taken some time; its number may help); with at most ENDGAME_FIELDS fields left
     the endgame is searched exhaustively for the best line of play (`recon.play.endgame`); else
     a cell that is a mine only as one of a pair no number can tell apart (a pseudo 50/50) is
     taken; and early in a game, where most lost games are lost, the best TOP_TWO candidates are
     looked two moves ahead.

`play_games` plays many games on a process pool; each game's seed is derived from the run's seed
and its number, so a game replays alone and the results do not depend on the number of workers.
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from itertools import islice

import numpy as np

from ..counting import count_solutions
from ..generation.classic import draw_field, no_guess_field, player_rules
from ..io.classic import board_problem
from ..model import OPEN
from ..rules.sweeper import Sweeper
from .endgame import Budget, best_guess
from .odds import Board, TooMany
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
        return no_guess_field(rows, cols, mines, rng, start, zero=first_click == "zero", rules=player_rules((rows, cols)))[0]
    if first_click == "any":
        field = np.zeros(rows * cols, dtype=bool)
        field[rng.choice(rows * cols, size=mines, replace=False)] = True
        return field.reshape(rows, cols)
    return draw_field(rows, cols, mines, rng, start, zero=first_click == "zero")


#: How the player guesses (`--strategy`), each adding to the one before: the safest cell; the cell
#: likeliest to survive this guess and the next (a look-ahead of one move), a dead cell (it can
#: show one number only) last, small pockets after the rest; and that with early guesses looked
#: two moves ahead, unavoidable 50/50s taken at once and small endgames searched exhaustively.
STRATEGIES = ("safest", "look-ahead", "full")
#: Frontier cells whose chance of being safe is within this ratio of the best are looked ahead.
CUT_OFF = 0.90
#: Cells no number sees join them when their chance is within this ratio of the best frontier cell's.
INTERIOR_CUT_OFF = 0.95
#: A candidate in an enclosed area of fewer covered undecided cells than this (joined through each
#: other or across one opened cell) waits while another lies in a larger area, as in DavidNHill's
#: solver: the later a pocket is played, the likelier the mine count or its numbers settle it.
SMALL_AREA = 8
#: At most this many candidates of each kind are looked ahead.
FRONTIER_CANDIDATES = 12
INTERIOR_CANDIDATES = 8
#: Early in a game (at least this many cells undecided), `full` looks the best TOP_TWO candidates
#: two moves ahead, the next move chosen among the WIDTH_TWO safest cells.
EARLY_CELLS = 350
TOP_TWO = 3
WIDTH_TWO = 4
#: With at most this many fields left the endgame is searched exhaustively (play.endgame) ...
ENDGAME_FIELDS = 1000
#: ... unless the search would meet more sets of fields than this.
ENDGAME_BUDGET = 100_000
#: Each worker holds at most this many chunks of games at a time (one playing, the next queued).
IN_FLIGHT = 2


def guess(sweeper: Sweeper, mines: int, strategy: str = "full", cache: dict | None = None
          ) -> tuple[tuple[int, int] | None, list, list]:
    """The exact-probability step: (the cell to guess or None, cells proved safe, cells proved
    mines). `cache`: the game's group enumerations so far (play.odds)."""
    _check(strategy)
    cols = sweeper.cols
    board = Board.from_cells(sweeper.board_cells(), mines, cache=cache)
    try:
        base = board.odds()
    except TooMany:
        return _guess_by_count(sweeper, mines)
    safe, sure = base.safe(), base.mines()
    if safe or sure:
        return None, [divmod(x, cols) for x in safe], [divmod(x, cols) for x in sure]
    if strategy == "full":
        cell = _unavoidable_pair(board, base)
        if cell is None and base.weight <= ENDGAME_FIELDS:
            cell = _endgame(board)
        if cell is None:
            cell = _pseudo_pair(board, base)
        if cell is not None:
            return divmod(cell, cols), [], []
    decided = sweeper.known() != OPEN

    def around(x: int) -> int:  # decided neighbours, off the board counting as decided
        return 8 - sum(1 for y in board.neighbours(x) if not decided.flat[y])

    safety = {x: 1 - w / base.weight for x, w in base.mine_weight.items()}
    candidates = _candidates(base, safety, around)
    if strategy == "safest":
        top = max(safety[x] for x in candidates)
        x = max((x for x in candidates if top - safety[x] < 1e-9), key=around)
        return divmod(x, cols), [], []
    large = _large_areas(~decided, sweeper.opened, candidates)
    scores = {}
    for x in sorted(candidates, key=lambda x: -safety[x]):
        leader = max(scores.values(), default=None)
        if leader is not None and leader[0] and (leader[1] or x not in large) and safety[x] < leader[2]:
            continue  # it cannot beat the leader: surviving two moves is at most surviving one
        try:
            survive, progress, dead = board.outlook(base, x)
        except TooMany:
            survive, progress, dead = safety[x] * base.best_safety(), 0.0, False
        # a dead cell tells nothing when opened, and deferring it never loses: living cells first;
        # then cells outside small pockets (SMALL_AREA)
        scores[x] = (not dead, x in large, survive, progress, around(x))
    chosen = max(scores, key=scores.__getitem__)
    if strategy == "full" and len(base.mine_weight) >= EARLY_CELLS:
        # early guesses decide most games lost: the best few looked two moves ahead
        top = sorted(scores, key=scores.__getitem__, reverse=True)[:TOP_TWO]
        top = [x for x in top if scores[x][:2] == scores[chosen][:2]]  # no dead cell while a living one is there
        try:
            chosen = max(top, key=lambda x: (board.outlook_two(base, x, WIDTH_TWO), scores[x]))
        except TooMany:
            pass
    return divmod(chosen, cols), [], []


def _check(strategy: str) -> None:
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}: expected one of {', '.join(STRATEGIES)}")


def _unavoidable_pair(board: Board, base) -> int | None:
    """A cell of a 50/50 nothing can ever settle, or None: two neighbouring undecided cells with
    one mine between them in every field, whose other neighbours differ only by known mines. Then
    swapping the two maps fields to fields and no number, opened or to come, tells them apart;
    the guess is forced sooner or later, so it is taken now, while its number can still help."""
    half = {x for x, w in base.mine_weight.items() if 2 * w == base.weight}
    known = board.known
    for a in sorted(half):
        around_a = set(board.neighbours(a))
        for b in board.neighbours(a):
            if b <= a or b not in half:
                continue
            differ = (around_a ^ set(board.neighbours(b))) - {a, b}
            if any(known[y] != 1 for y in differ):
                continue
            odds = board.odds(board.equations + [((a, b), 1)])
            if odds is not None and odds.weight == base.weight:
                return a
    return None


def _swap_patterns() -> list[tuple[tuple, tuple, tuple, int]]:
    """The shapes `_pseudo_pair` looks for, as offsets from the cell a: (cells S, mines M of S,
    cells D outside S that see a different number of mines when M swaps with the rest of S, most
    D cells not yet known to be mines). Two side-by-side cells, a the mine; a 2x2 box, a and its
    diagonal the mines: every number outside S that is not in D sees one mine either way."""
    shapes = []
    for b in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        shapes.append(([(0, 0), b], [(0, 0)], 1))
    for dr in (0, -1):
        for dc in (0, -1):
            box = [(dr + i, dc + j) for i in (0, 1) for j in (0, 1)]
            shapes.append((box, [(0, 0), (2 * dr + 1, 2 * dc + 1)], 2))
    patterns = []
    for box, mines, missing in shapes:
        others = [x for x in box if x not in mines]
        around = {(r + i, c + j) for r, c in box for i in (-1, 0, 1) for j in (-1, 0, 1)} - set(box)

        def seen(y, cells):
            return sum(1 for r, c in cells if max(abs(r - y[0]), abs(c - y[1])) == 1)

        differ = sorted(y for y in around if seen(y, mines) != seen(y, others))
        patterns.append((tuple(box), tuple(mines), tuple(differ), missing))
    return patterns


_PATTERNS = _swap_patterns()


def _pseudo_pair(board: Board, base) -> int | None:
    """The safest cell a that is a mine only where it is one of a pair (or a 2x2 box's diagonal)
    that no number can ever tell from the swapped pair, or None: in every field with a mine at a
    the pattern holds, its other cells empty and every cell that could tell the two apart a mine.
    Then the risk of a is one the player must take some time anyway, as a forced 50/50 (half the
    fields with the pattern have it the other way round, equally likely), so it is taken now,
    while its number can still help (DavidNHill's "pseudo 50/50").
    """
    rows, cols, known = board.rows, board.cols, board.known
    weight, mine_weight = base.weight, base.mine_weight
    inner = set(base.interior)
    best = None
    # A cell no number sees is skipped: it and any other such cell can swap in every field, so
    # "a mine at a forces a mine (or none) at another cell no number sees" never holds.
    for a in sorted(x for x in mine_weight if x not in inner):
        w = mine_weight[a]
        if w == 0 or w == weight or (best is not None and w >= mine_weight[best]):
            continue
        ar, ac = divmod(a, cols)
        for box, mines, differ, most in _PATTERNS:
            cells = [(ar + r) * cols + ac + c for r, c in box if 0 <= ar + r < rows and 0 <= ac + c < cols]
            if len(cells) < len(box) or any(known[x] != -1 for x in cells):
                continue
            outside = [(ar + r) * cols + ac + c for r, c in differ if 0 <= ar + r < rows and 0 <= ac + c < cols]
            if any(known[y] == 0 for y in outside):
                continue  # an opened number tells the two apart
            missing = [y for y in outside if known[y] == -1]
            if len(missing) > most:
                continue
            holes = {(ar + r) * cols + ac + c for r, c in mines}
            extra = [((x,), int(x in holes)) for x in cells] + [((y,), 1) for y in missing]
            # each fact must hold in every field with a mine at a: a cheap bound first
            if any(x != a and (mine_weight[x] < w if v else weight - mine_weight[x] < w) for (x,), v in extra):
                continue
            pattern = board.odds(board.equations + extra)
            if pattern is not None and pattern.weight == w:
                best = a
                break
    return best


def _candidates(base, safety: dict[int, float], around) -> list[int]:
    """The cells worth looking ahead: frontier cells nearly as safe as the safest (CUT_OFF), and,
    when they are nearly as safe too (INTERIOR_CUT_OFF), the best cells no number sees."""
    best = max(safety.values())
    inner = set(base.interior)
    edge = sorted((x for x in safety if x not in inner and safety[x] >= CUT_OFF * best),
                  key=lambda x: (-safety[x], -around(x)))[:FRONTIER_CANDIDATES]
    if inner and (not edge or safety[base.interior[0]] >= INTERIOR_CUT_OFF * safety[edge[0]]):
        return edge + _interior_candidates(base.interior, around)
    return edge


def _large_areas(covered: np.ndarray, opened: np.ndarray, cells: list[int]) -> set[int]:
    """Those of `cells` (covered and undecided) in an area of at least SMALL_AREA such cells: the
    cells reached by steps to a covered undecided neighbour, or across an opened neighbour to one
    beyond it (a flood fill that stops once the area is large enough)."""
    rows, cols = covered.shape
    known: dict[int, bool] = {}  # cell -> is its area large? (every cell of a filled area)

    def around(y: int):
        r, c = divmod(y, cols)
        for i in range(max(r - 1, 0), min(r + 2, rows)):
            for j in range(max(c - 1, 0), min(c + 2, cols)):
                if (i, j) != (r, c):
                    yield i, j

    for x in cells:
        if x in known:
            continue
        area, todo, large = {x}, [x], False
        while todo and not large:
            for i, j in around(todo.pop()):
                if opened[i, j]:
                    beyond = [(k, m) for k, m in around(i * cols + j) if covered[k, m]]
                else:
                    beyond = [(i, j)] if covered[i, j] else []
                for k, m in beyond:
                    y = k * cols + m
                    if y not in area:
                        area.add(y)
                        todo.append(y)
                        large = large or known.get(y, False)
            large = large or len(area) >= SMALL_AREA
        for y in area:
            known[y] = large
    return {x for x in cells if known[x]}


def _interior_candidates(interior: list[int], around) -> list[int]:
    """The cells no number sees worth looking ahead (all share one chance of being safe): those
    with the most decided neighbours, board corners first, likeliest to open a region."""
    return sorted(interior, key=lambda x: (-around(x), x))[:INTERIOR_CANDIDATES]


def _endgame(board: Board) -> int | None:
    """The best cell by exhaustive search, or None when the search is too big."""
    fields = board.fields(ENDGAME_FIELDS)
    if not fields:
        return None
    cells = board.undecided
    index = {x: i for i, x in enumerate(cells)}
    neighbours = [sum(1 << index[y] for y in board.neighbours(x) if y in index) for x in cells]
    try:
        i, _ = best_guess(fields, neighbours, ENDGAME_BUDGET)
    except Budget:
        return None
    return cells[i]


def _guess_by_count(sweeper: Sweeper, mines: int) -> tuple[tuple[int, int] | None, list, list]:
    """The general count (recon.counting) when a group is too big for play.odds: the safest cell."""
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

    def around(cell):
        r, c = cell
        window = decided[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2]
        return int(window.sum()) + (9 - window.size)  # off the board counts as decided

    return max(tied, key=around), [], []


def play_one(rows: int, cols: int, mines: int, start: tuple[int, int], first_click: str, no_guess: bool,
             seed: int | list[int], strategy: str = "full") -> Game:
    """Play one game from its seed (its time counts the draw)."""
    begin = time.perf_counter()
    field = draw(rows, cols, mines, start, first_click, no_guess, np.random.default_rng(seed))
    return replace(play_field(field, mines, start, strategy), seconds=time.perf_counter() - begin)


def play_field(field: np.ndarray, mines: int, start: tuple[int, int], strategy: str = "full") -> Game:
    """Play one game on a given field, opening `start` first."""
    _check(strategy)  # here too: a game won without a guess never asks guess()
    begin = time.perf_counter()
    sweeper = Sweeper(field, mines, **player_rules(field.shape))
    guesses = 0
    cache: dict = {}
    if not sweeper.open(*start):
        return Game(False, 0, time.perf_counter() - begin)
    while True:
        sweeper.advance()
        if sweeper.won:
            return Game(True, guesses, time.perf_counter() - begin)
        cell, safe, sure = guess(sweeper, mines, strategy, cache)
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


def _worker_signals() -> None:
    """A worker leaves Ctrl-C to the process that runs the games, and dies of SIGTERM instead of
    the handler it may have inherited. It is born with SIGTERM blocked (`_sigterm_blocked`), so
    one sent while it starts waits for this and kills it: run before, the inherited handler
    raised where a worker's start-up swallows exceptions, and the worker lived on."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})


@contextmanager
def _sigterm_blocked():
    """SIGTERM held back in this thread while workers are started: they start with it blocked
    (`_worker_signals` unblocks it). One that reaches this process meanwhile is delivered when
    the block ends."""
    import signal

    if not hasattr(signal, "pthread_sigmask"):  # (no fork there either)
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def game_seeds(games: int, seed: int):
    """Each game's seed, derived from the run's seed and the game's number: the children
    `SeedSequence(seed).spawn(games)` gives, made one at a time, so that a long run holds none."""
    for i in range(games):
        yield np.random.SeedSequence(seed, spawn_key=(i,)).generate_state(2).tolist()


def game_fields(games: int, rows: int, cols: int, mines: int, *, start: tuple[int, int], first_click: str = "zero",
                no_guess: bool = False, seed: int = 0):
    """The fields `play_games` plays with the same arguments, one by one: for another player to
    play the same games."""
    for game_seed in game_seeds(games, seed):
        yield draw(rows, cols, mines, start, first_click, no_guess, np.random.default_rng(game_seed))


class Tally:
    """A run's games so far, in the order they were drawn, and the run's settings: its report at
    any point. Interrupted, a run reports the games it finished, which are its first ones."""

    def __init__(self):
        self.settings: dict = {}
        self.games = self.wins = self.guesses = 0
        self.won_each: list[bool] | None = None
        self.began = time.perf_counter()

    def add(self, game: Game) -> None:
        self.games, self.wins, self.guesses = self.games + 1, self.wins + game.won, self.guesses + game.guesses
        if self.won_each is not None:
            self.won_each.append(game.won)

    def summary(self) -> dict:
        """games, wins, win_rate, ci95, guesses_per_game, seconds, games_per_second, the settings,
        and `won_each` when asked for."""
        games, seconds = self.games, time.perf_counter() - self.began
        low, high = wilson(self.wins, games)
        return {
            "games": games, "wins": self.wins, "win_rate": self.wins / games if games else 0.0, "ci95": [low, high],
            "guesses_per_game": self.guesses / games if games else 0.0,
            "seconds": seconds, "games_per_second": games / seconds if seconds else 0.0,
        } | self.settings | ({"won_each": self.won_each} if self.won_each is not None else {})


def play_games(games: int, rows: int, cols: int, mines: int, *, start: tuple[int, int] | None = None,
               first_click: str = "zero", no_guess: bool = False, seed: int = 0, workers: int | None = None,
               progress=None, strategy: str = "full", each: bool = False, tally: Tally | None = None) -> dict:
    """Play `games` games; their summary (Tally.summary), with `each` the list `won_each` (game by
    game, in order). `tally`: filled as games finish, for a report of an interrupted run."""
    start = start if start is not None else (rows // 2, cols // 2)
    tally = tally if tally is not None else Tally()
    tally.settings = {"rows": rows, "cols": cols, "mines": mines, "start": [start[0] + 1, start[1] + 1],
                      "first_click": first_click, "no_guess": no_guess, "seed": seed, "strategy": strategy}
    tally.won_each = [] if each else None
    jobs = ((rows, cols, mines, start, first_click, no_guess, game_seed, strategy) for game_seed in game_seeds(games, seed))
    workers = min(workers or os.cpu_count() or 1, games)  # a process more than the games would idle

    def add(game: Game) -> None:
        tally.add(game)
        if progress:
            progress(tally.games, tally.wins)

    if workers == 1 or games < 4:
        for job in jobs:
            add(_play(job))
    else:
        chunk = max(1, min(64, games // (8 * workers)))
        for game in _in_workers(jobs, workers, chunk):
            add(game)
    return tally.summary()


class WorkerDied(RuntimeError):
    """A worker process ended while it held games (killed from outside, as by the out-of-memory
    killer, or crashed); exitcode is its exit status (minus the signal that killed it)."""

    def __init__(self, exitcode: int | None):
        self.exitcode = exitcode
        how = f"killed by signal {-exitcode}" if exitcode is not None and exitcode < 0 else f"exit status {exitcode}"
        super().__init__(f"an autoplay worker died ({how})")


def _serve(conn) -> None:
    """A worker: play each chunk of jobs it is sent and send back (its number, True, the games),
    or (its number, False, the exception); stop at None."""
    _worker_signals()
    while True:
        try:
            item = conn.recv()
        except EOFError:  # the run ended without saying so (killed)
            return
        if item is None:
            return
        number, jobs = item
        try:
            conn.send((number, True, [_play(job) for job in jobs]))
        except Exception as error:  # (a board the generator cannot make: the run stops with it)
            conn.send((number, False, error))


def _in_workers(jobs, workers: int, chunk: int):
    """Yield the games of `jobs` in order, played by `workers` processes, each sent chunks of
    `chunk` jobs as it returns them (IN_FLIGHT at a time), so that a long run's memory stays flat.

    A pipe to each worker, and nothing else shared: leaving early (an error, SIGTERM, Ctrl-C)
    kills the workers and waits only for them to die. multiprocessing's Pool shares locks with
    its workers, and its terminate could wait for ever on one that a killed worker held, or on a
    worker whose SIGTERM came before its signal handler was reset."""
    import multiprocessing
    from multiprocessing.connection import wait

    context = multiprocessing.get_context()
    chunks = enumerate(iter(lambda: list(islice(jobs, chunk)), []))
    processes, pipes = [], []
    try:
        with _sigterm_blocked():
            for _ in range(workers):
                ours, theirs = context.Pipe()
                process = context.Process(target=_serve, args=(theirs,), daemon=True)
                process.start()
                theirs.close()
                processes.append(process)
                pipes.append(ours)
        held = {pipe: 0 for pipe in pipes}  # chunks sent and not yet returned

        def feed(pipe) -> None:
            while held[pipe] < IN_FLIGHT and (item := next(chunks, None)) is not None:
                pipe.send(item)
                held[pipe] += 1

        def died(pipe) -> WorkerDied:
            process = processes[pipes.index(pipe)]
            process.join(1)
            return WorkerDied(process.exitcode)

        for pipe in pipes:
            try:
                feed(pipe)
            except OSError:
                raise died(pipe) from None
        done: dict[int, list] = {}
        following = 0  # the next chunk to yield: the games come out in order, a prefix of the run
        while any(held.values()):
            for pipe in wait([p for p in pipes if held[p]]):
                try:
                    number, ok, payload = pipe.recv()
                    if ok:
                        held[pipe] -= 1
                        done[number] = payload
                        feed(pipe)
                except (EOFError, OSError):
                    raise died(pipe) from None
                if not ok:
                    raise payload
            while following in done:
                yield from done.pop(following)
                following += 1
        for pipe in pipes:
            with suppress(OSError):  # (a worker gone after its last games: the run is whole)
                pipe.send(None)
        for process in processes:
            process.join()
    finally:
        for process in processes:
            if process.is_alive():
                process.kill()
        for process in processes:
            process.join()
        for pipe in pipes:
            pipe.close()
