"""Classic Minesweeper boards: a field with a safe first click, and no-guess boards made Tatham's way.

A no-guess board is one the player of `recon.rules.sweeper` finishes from the first click without
a guess. Made as Simon Tatham's Mines makes them: the player plays the drawn field; when it is
stuck, a perturber moves mines so that a deduction becomes possible (it clears, or fills, the
covered cells around one number on the frontier, moving mines to or from covered cells that no
opened number sees, so that only that number's neighbours change; as a last resort, as at the end
of a board, it fills them with mines the player has already found; `WAYS` says whether it clears
or fills), and play goes on: the player keeps what it knows, its equations on the moved cells
taking their new counts. A run that needed a perturbation proves nothing about the final field,
so play starts again from the first click, until one run finishes with none: that run is the
certificate. Where drawn fields find no board, a search over what the player sees (`_by_views`)
finds one or proves that none exists.
"""

from __future__ import annotations

import time
from itertools import combinations

import numpy as np

from ..model import check_size, status, window_cells
from ..rules.sweeper import CASCADE_CELLS, Sweeper
from .options import GenerationFailed, GenerationTimeout

#: With at most this many fields in all, no-guess generation tries every one of them.
EVERY_FIELD = 10_000
#: When drawn fields found none, the search over what the player sees (`_by_views`) runs the
#: player at most this many times before it gives up (undecided), so that "none" is proved where
#: it can be, not guessed.
VIEW_RUNS = 2_000
#: Drawn fields tried before that search: FIELDS; on a board of at most SMALL_CELLS cells,
#: SMALL_FIELDS (drawn fields that keep failing there say that boards are rare, and the search is
#: quick), and if its runs are spent, drawn fields go on to FIELDS.
FIELDS, SMALL_FIELDS, SMALL_CELLS = 1_000, 50, 400

#: The player's single and pairwise rules run compiled (`recon.compiled.pairwise.sweep_fixed`,
#: the `fast` extra) on boards of this many cells, when numba's cache holds the kernels (`recon
#: warmup`), once the Python rules have opened CASCADE_CELLS cells in one `advance()`: a first
#: click there may open most of the board, and loading the kernels costs more than the rules in
#: Python below.
COMPILED_CELLS = 100_000


def player_rules(shape: tuple[int, int], min_cells: int | None = None) -> dict:
    """The options of a `Sweeper` on a board of this shape: the rules compiled from min_cells
    cells (COMPILED_CELLS if None) when the kernels are at hand, else none (the rules in Python)."""
    from .. import compiled

    min_cells = COMPILED_CELLS if min_cells is None else min_cells
    if not (shape[0] * shape[1] >= min_cells and compiled.AVAILABLE and (compiled.is_loaded() or compiled.cached())):
        return {}
    from ..compiled.pairwise import sweep_fixed

    return {"cascade": sweep_fixed, "cascade_cells": min(CASCADE_CELLS, min_cells)}


def _fields_at_most(cells: int, mines: int, limit: int) -> bool:
    """Is C(cells, mines) at most limit? (Without computing it: on a large board it has a
    hundred thousand digits.)"""
    k = min(mines, cells - mines)
    ways = 1
    for i in range(k):
        ways = ways * (cells - i) // (i + 1)
        if ways > limit:
            return False
    return True


class NoBoard(ValueError):
    """No board of the kind asked for can be finished without a guess (every field was tried)."""


#: How the perturber chooses between emptying the stuck cells and filling them; fields take the
#: ways in turn, as neither finishes every shape. "pack" empties them whenever that moves fewer
#: mines, so mines gather far from the first click: dense square boards need that (Tatham: "the
#: only way to get a solvable grid is to pack most of the mines solidly around the edges"), and
#: so do boards two cells wide (across one, two cells look alike to every number beside them, so
#: each pair holds 0 or 2 mines and nothing beyond a full pair is seen). On a strip three or more
#: wide, packing leaves dense ends no run finishes; "race" (Tatham's) chooses by the far cells'
#: density, keeping it near the board's (on boards up to two wide it packs; a strip three wide
#: takes it first).
WAYS = ("pack", "race")

#: A field whose runs fail this many times in a row to need fewer perturbations than every run
#: before is dropped for a new one (Tatham drops a field at the first run that is not shorter; a
#: board too dense to finish has runs that go up and down for ever). On a strip three wide the
#: race's runs fall towards none with long stretches above the best; counted in all rather than
#: in a row, those stretches dropped nearly every field that would finish.
PATIENCE = 12


def first_click_cells(shape: tuple[int, int], first: tuple[int, int], zero: bool) -> list[tuple[int, int]]:
    """The cells kept free of mines by the first click: its window (a zero: it opens a region),
    or the cell alone."""
    return window_cells(shape, *first) if zero else [first]


def check_request(rows: int, cols: int, mines: int, first: tuple[int, int], zero: bool, max_cells: int,
                  safe: bool = True) -> None:
    """ValueError, in words, for a board that cannot be made: a first click outside it, or more
    mines than the cells the first click leaves (a first click that need not be safe, `safe`
    False, leaves them all)."""
    check_size(rows, cols, max_cells, "the board")
    r, c = first
    if not (0 <= r < rows and 0 <= c < cols):
        raise ValueError(f"the first click r{r + 1}c{c + 1} is outside the {rows}x{cols} board")
    if not safe:
        if not 0 <= mines <= rows * cols:
            raise ValueError(f"{mines} {'mine does' if mines == 1 else 'mines do'} not fit on the {rows}x{cols} board "
                             f"({rows * cols} cell{'s' * (rows * cols != 1)})")
        return
    free = rows * cols - len(first_click_cells((rows, cols), first, zero))
    if not 0 <= mines <= free:
        raise ValueError(_no_room(mines, free, zero))


def _no_room(mines: int, free: int, zero: bool) -> str:
    """Why `mines` mines do not fit in the `free` cells a first click leaves."""
    keep = "its 3x3 window" if zero else "its cell"
    return (f"{mines} {'mine does' if mines == 1 else 'mines do'} not fit: the first click keeps {keep} free, "
            f"which leaves {free} cell{'s' * (free != 1)}")


def draw_field(rows: int, cols: int, mines: int, rng: np.random.Generator, first: tuple[int, int],
               zero: bool = True) -> np.ndarray:
    """A field of exactly `mines` mines, none where the first click must be free."""
    keep = np.zeros(rows * cols, dtype=bool)
    for r, c in first_click_cells((rows, cols), first, zero):
        keep[r * cols + c] = True
    places = np.flatnonzero(~keep)
    field = np.zeros(rows * cols, dtype=bool)
    field[rng.choice(places, size=mines, replace=False)] = True
    return field.reshape(rows, cols)


def play(field: np.ndarray, mines: int, first: tuple[int, int], rng: np.random.Generator | None = None,
         deadline: float | None = None, rules: dict | None = None, recount: bool = True,
         way: str = "pack") -> tuple[Sweeper, int]:
    """The player's run from the first click; with rng, the perturber moves mines whenever it is
    stuck (changing `field` in place). Returns the player and the number of perturbations (a run
    without rng stops where it is stuck). rules: the player's options (`player_rules`). recount:
    after a perturbation the player recounts the equations on the cells that changed
    (`Sweeper.field_changed`); False: it rebuilds them all from every opened number, the peer
    that tests and benchmarks hold it to (the same boards, slower). way: the perturber's (WAYS)."""
    sweeper = Sweeper(field, mines, **(rules or {}))
    sweeper.open(*first)
    sweeper.advance()
    perturbed = stalled = 0
    opened = np.count_nonzero(sweeper.opened)
    while not sweeper.won and rng is not None:
        if deadline is not None and time.perf_counter() > deadline:
            raise GenerationTimeout("the time limit was reached while making a no-guess board")
        # as Tatham's: a run whose perturbations stop opening cells gives up (the last resort
        # could otherwise trade mines back and forth for ever on a board too dense to finish)
        moved = [] if stalled > max(field.shape) else perturb(sweeper, rng, way)
        if not moved:
            break
        perturbed += 1
        if recount:
            sweeper.field_changed(moved)
        else:
            sweeper.rebuild()
        sweeper.advance()
        now = np.count_nonzero(sweeper.opened)
        stalled, opened = (stalled + 1, opened) if now <= opened else (0, now)
    return sweeper, perturbed


def perturb(sweeper: Sweeper, rng: np.random.Generator, way: str = "pack") -> list[int]:
    """Move mines so that the stuck player can go on (see the module's notes): the cells whose
    value changed (row-major indices, in order), none when no move can help. way: how it
    chooses between emptying the stuck cells and filling them (WAYS)."""
    field = sweeper.field
    moved: list[int] = []

    def put(cells: np.ndarray, mine: bool) -> None:  # every change goes through here, and is listed
        cells = cells[field.flat[cells] != mine]
        field.flat[cells] = mine
        moved.extend(cells.tolist())

    undecided = sweeper.undecided()
    frontier = sweeper.frontier(undecided)
    if frontier.any():
        # a number on the frontier, at random: its undecided neighbours become all empty or all mines
        # (flatnonzero and count_nonzero: argwhere and a mask's sum are several times slower)
        numbers = np.flatnonzero(sweeper.opened & (status(frontier) > 0))
        r, c = divmod(int(numbers[rng.integers(len(numbers))]), field.shape[1])
        # its undecided neighbours, all on the frontier (so none is far, and none a found mine)
        spot = np.array([i * field.shape[1] + j for i, j in window_cells(field.shape, r, c) if undecided[i, j]])
        far = undecided & ~frontier  # moving a mine there changes no number the player has seen
        held, size = np.count_nonzero(field.flat[spot]), len(spot)
        room, spare = far & ~field, far & field
        free, mined = np.count_nonzero(room), np.count_nonzero(spare)
        if free < held and mined < size - held:  # too few far cells: the rest of the frontier too
            rest = frontier.copy()
            rest.flat[spot] = False
            room, spare = room | (rest & ~field), spare | (rest & field)
            free, mined = np.count_nonzero(room), np.count_nonzero(spare)
        race = way == "race" and min(field.shape) > 2
        move = _fill_or_empty(free, mined, held, size - held, race, rng)
        if move == "empty":
            put(spot, False)
            put(rng.choice(np.flatnonzero(room), size=held, replace=False), True)
        elif move == "fill":
            put(rng.choice(np.flatnonzero(spare), size=size - held, replace=False), False)
            put(spot, True)
        else:
            # Tatham's last resort, as at the end of a board (a last 50/50 with no covered cell
            # beside it): fill the spot with mines the player has found, who must find them again
            found = np.flatnonzero(sweeper.flagged)
            need = size - held - mined
            if len(found) < need:
                return []
            taken = rng.choice(found, size=need, replace=False)
            put(np.flatnonzero(spare), False)
            put(taken, False)
            sweeper.flagged.flat[taken] = False
            put(spot, True)
        return sorted(moved)
    if not undecided.any():
        return []
    # covered cells that no opened number sees, walled in by known mines: free one of those mines
    walls = np.flatnonzero(sweeper.flagged & (status(undecided) > 0))
    place = np.flatnonzero(undecided & ~field)
    if not len(walls) or not len(place):
        return []
    wall, q = walls[rng.integers(len(walls))], place[rng.integers(len(place))]
    put(np.array([wall]), False)
    put(np.array([q]), True)
    sweeper.flagged.flat[wall] = False  # no longer known: the player must find it again
    return sorted(moved)


def _fill_or_empty(room: int, spare: int, held: int, lacking: int, race: bool,
                   rng: np.random.Generator) -> str | None:
    """Empty the spot ("empty": its `held` mines go to `room` empty far cells) or fill it ("fill":
    `lacking` mines come from `spare` far mines)? None if neither can be done. Without the race
    ("pack"), empty it whenever that moves fewer mines; with it, Tatham's race: walk the far
    cells in a random order until `held` empty ones or `lacking` mines are met."""
    if not race:
        if room >= held and (held <= lacking or spare < lacking):
            return "empty"
        return "fill" if spare >= lacking else None
    while held and lacking:
        if not room + spare:
            return None
        if rng.random() * (room + spare) < room:
            room, held = room - 1, held - 1
        else:
            spare, lacking = spare - 1, lacking - 1
    return "empty" if not held else "fill"


def _two_wide_and_odd(rows: int, cols: int, mines: int, first: tuple[int, int], zero: bool) -> None:
    """NoBoard where a board two wide with an odd number of mines cannot be finished without a
    guess. Across it the two cells of a pair look alike to every number beside them (and to the
    total), so a pair holding one mine is never told apart unless it is the first click's; then
    the first click's twin is that mine, and its number (with the total) forces a cell only if
    every cell of its window is a mine, leaving nothing beyond it seen, or every mine is in it
    (a test holds this to every field of small boards, played by exact probabilities)."""
    where = f"r{first[0] + 1}c{first[1] + 1}"
    if zero:  # its window holds its own pair, empty
        why = "so each pair must hold 0 or 2 mines"
    else:
        neighbours = len(first_click_cells((rows, cols), first, True)) - 1
        if mines <= neighbours or mines >= rows * cols - 1:
            return
        why = (f"so the first click's twin must be the odd mine, and its number then tells nothing with more mines "
               f"than its {neighbours} neighbours and fewer than every cell but it")
    raise NoBoard(f"no {rows}x{cols} board with an odd number of mines ({mines}) can be finished without a guess from "
                  f"{where}: the two cells across a board two wide look alike to every number beside them, {why}")


def _odd_pair_fields(rows: int, cols: int, mines: int, first: tuple[int, int]) -> list[np.ndarray]:
    """The only fields that a board two wide with an odd number of mines, at most the safe first
    click's neighbours, might finish from it (`_two_wide_and_odd` says why): its twin a mine, and
    every other mine in a pair across its window, full. A handful, where drawn fields and the
    perturber, which keeps the window free, find one in hundreds of thousands only by chance."""
    along = 1 if rows == 2 else 0  # the axis a pair's index runs along
    here = first[along]
    sides = [k for k in (here - 1, here + 1) if 0 <= k < (cols if along else rows)]
    fields = []
    for full in combinations(sides, (mines - 1) // 2):
        field = np.zeros((rows, cols), dtype=bool)
        twin = list(first)
        twin[1 - along] = 1 - first[1 - along]
        field[tuple(twin)] = True
        for k in full:
            field[(slice(None), k) if along else (k, slice(None))] = True
        fields.append(field)
    return fields


def _first_won(count: int, field_at, mines: int, first: tuple[int, int], rng: np.random.Generator,
               rules: dict | None, stats: dict, deadline: float | None) -> np.ndarray | None:
    """The first of count fields, `field_at(i)` (each made when tried, tried in a seeded order),
    that the player finishes without a guess, or None."""
    for i in rng.permutation(count):
        if deadline is not None and time.perf_counter() > deadline:
            raise GenerationTimeout("the time limit was reached while trying every field")
        field = field_at(i)
        stats["fields"] += 1
        stats["runs"] += 1
        if play(field, mines, first, rules=rules)[0].won:
            return field
    return None


def _every_field(rows: int, cols: int, mines: int, first: tuple[int, int], zero: bool, rng: np.random.Generator,
                 rules: dict | None, stats: dict, deadline: float | None) -> np.ndarray:
    """A field won without a guess, found by trying each; NoBoard, a proof, when none is."""
    keep = first_click_cells((rows, cols), first, zero)
    free = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in keep]
    choices = list(combinations(range(len(free)), mines))

    def field_at(i: int) -> np.ndarray:
        field = np.zeros((rows, cols), dtype=bool)
        for k in choices[i]:
            field[free[k]] = True
        return field

    field = _first_won(len(choices), field_at, mines, first, rng, rules, stats, deadline)
    if field is None:
        raise NoBoard(f"no {rows}x{cols} board with {mines} mine{'s' * (mines != 1)} can be finished without a guess "
                      f"from r{first[0] + 1}c{first[1] + 1}: each of the {len(choices):,} possible fields needs one")
    return field


def _by_views(rows: int, cols: int, mines: int, first: tuple[int, int], zero: bool, rng: np.random.Generator,
              stats: dict, deadline: float | None, runs: int = VIEW_RUNS, engine: str | None = None) -> np.ndarray:
    """A field the player finishes without a guess, found by a search over what it sees; NoBoard,
    a proof, when there is none; GenerationFailed past `runs` runs of the player.

    The player's moves depend only on the numbers it has opened (and the total): every field
    that shows the same numbers in the same cells, in the order opened, is played alike to the
    same end. So one run of the player on a field stands for all the fields that agree with it
    on the cells it opened; it wins on all of them or on none. The search starts from a drawn
    field, and for each cell a run opened (the last first) asks an exact engine for a field that
    agrees on the cells opened before it and shows another number there; that field's run
    stands for a new class, searched the same way from the cells after it. The classes part every
    field (a zero first click's own number, 0, is given), so when none is won there is no board.
    engine: the exact engine's name, "sat" or "milp" (None: SAT when installed, else MILP)."""
    from ..engines import milp, sat
    from ..io.classic import board_problem
    from ..result import Verdict

    if engine not in (None, sat.NAME, milp.NAME):
        raise ValueError(f"engine must be {sat.NAME!r} or {milp.NAME!r}, got {engine!r}")
    solver = milp if engine == milp.NAME or (engine is None and not sat.AVAILABLE) else sat
    shape = (rows, cols)

    def others(numbers: list[int], opened: list[int], start: int):
        """Each cell the run opened from start on, the last first, with each other number it may
        show (up to its neighbours)."""
        for at in range(len(opened) - 1, start - 1, -1):
            if not (at == 0 and zero):  # a zero first click shows 0
                most = len(window_cells(shape, *divmod(opened[at], cols))) - 1
                for number in rng.permutation(most + 1).tolist():
                    if number != numbers[opened[at]]:
                        yield numbers, opened, at, number

    stack = []  # one `others` a run, the latest on top
    field, start, done = draw_field(rows, cols, mines, rng, first, zero), 0, 0
    while True:
        if field is not None:
            if done >= runs:
                raise GenerationFailed(f"no no-guess {rows}x{cols} board with {mines} mine{'s' * (mines != 1)} was "
                                       f"found: the search over what the player sees stopped after {runs:,} runs")
            opened: list[int] = []
            sweeper = play(field, mines, first, rules={"opening": opened})[0]
            done += 1
            stats["fields"] += 1
            stats["runs"] += 1
            if sweeper.won:
                return field
            stack.append(others(sweeper.numbers, opened, start))
        while stack and (step := next(stack[-1], None)) is None:
            stack.pop()
        if not stack:
            raise NoBoard(f"no {rows}x{cols} board with {mines} mine{'s' * (mines != 1)} can be finished without a "
                          f"guess from r{first[0] + 1}c{first[1] + 1}: the player was followed through every way the "
                          f"numbers it opens can fall ({done:,} classes of fields)")
        if deadline is not None and time.perf_counter() > deadline:
            raise GenerationTimeout("the time limit was reached while searching what the player may see")
        numbers, opened, at, number = step
        cells = np.full(shape, -1, dtype=np.int8)
        for x in opened[:at]:
            cells.flat[x] = numbers[x]
        cells.flat[opened[at]] = number
        field, start = None, at + 1
        try:
            problem = board_problem(cells, mines)
        except ValueError:  # the total does not fit what is opened
            continue
        left = None if deadline is None else max(deadline - time.perf_counter(), 0.01)
        found = solver.solve(problem, limit=1, time_limit=left)
        if found.solutions:
            field = np.asarray(found.solutions[0], dtype=bool)
        elif found.verdict is not Verdict.NONE:
            raise GenerationTimeout("the time limit was reached while searching what the player may see")


def no_guess_field(rows: int, cols: int, mines: int, rng: np.random.Generator, first: tuple[int, int],
                   zero: bool = True, time_limit: float | None = None, rules: dict | None = None,
                   recount: bool = True, ways: tuple[str, ...] | None = None, patience: int = PATIENCE
                   ) -> tuple[np.ndarray, dict]:
    """A field the player finishes from `first` without a guess, and how it was made ("fields"
    drawn, "runs", "perturbations"). GenerationFailed when no field could be made; GenerationTimeout
    past the time limit. rules: the player's options (`player_rules`); recount: as `play` (the
    same board either way); ways: the perturber's, one a field in turn (by default WAYS, the race
    first on a strip three wide, where a packed first field seldom finishes); patience: a field's
    runs in a row that may fail to beat its best before it is dropped (PATIENCE)."""
    if ways is None:
        ways = ("race", "pack") if min(rows, cols) == 3 else WAYS
    if not ways or set(ways) - set(WAYS):
        raise ValueError(f"ways must be drawn from {WAYS}, got {ways!r}")
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    stats = {"fields": 0, "runs": 0, "perturbations": 0}
    keep = first_click_cells((rows, cols), first, zero)
    cells = rows * cols - len(keep)
    if mines > cells:
        raise NoBoard(_no_room(mines, cells, zero))
    if min(rows, cols) == 2 and mines % 2:
        _two_wide_and_odd(rows, cols, mines, first, zero)
    if _fields_at_most(cells, mines, EVERY_FIELD):
        return _every_field(rows, cols, mines, first, zero, rng, rules, stats, deadline), stats
    if min(rows, cols) == 2 and mines % 2:  # refused above unless every mine may be by the first click
        fields = _odd_pair_fields(rows, cols, mines, first)
        field = _first_won(len(fields), fields.__getitem__, mines, first, rng, rules, stats, deadline)
        if field is None:
            raise NoBoard(f"no {rows}x{cols} board with an odd number of mines ({mines}) can be finished without a "
                          f"guess from r{first[0] + 1}c{first[1] + 1}: its mines must all be in the first click's "
                          f"window, the twin across from it one of them, and none of the {len(fields)} such fields "
                          "can be finished")
        return field, stats
    small = rows * cols <= SMALL_CELLS
    for k in range(FIELDS):
        if small and k == SMALL_FIELDS:
            try:
                return _by_views(rows, cols, mines, first, zero, rng, stats, deadline), stats
            except GenerationFailed:
                pass  # the search's runs are spent: drawn fields go on
        way = ways[k % len(ways)]
        field = draw_field(rows, cols, mines, rng, first, zero)
        stats["fields"] += 1
        best, since = None, 0
        while True:
            sweeper, perturbed = play(field, mines, first, rng, deadline, rules, recount, way)
            stats["runs"] += 1
            stats["perturbations"] += perturbed
            if not sweeper.won:
                break  # the perturber found no move: a new field
            if perturbed == 0:
                return field, stats
            if best is None or perturbed < best:
                best, since = perturbed, 0
            else:
                since += 1
                if since >= patience:
                    break
    if small:
        raise GenerationFailed(f"no no-guess {rows}x{cols} board with {mines} mine{'s' * (mines != 1)} was found")
    return _by_views(rows, cols, mines, first, zero, rng, stats, deadline), stats
