"""The autoplayer's exact odds (recon.play.odds), its endgame search (recon.play.endgame) and its
50/50s, each held against an independent oracle: recon.counting's general count, and plain
enumeration of every field with a recursion over every line of play that shares no code with the
search."""

from __future__ import annotations

import inspect
import math
import random
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from recon.counting import count_solutions
from recon.generation.classic import draw_field
from recon.io.classic import board_problem
from recon.model import OPEN
from recon.play import autoplay
from recon.play.endgame import Budget, best_guess
from recon.play.odds import Board, Odds
from recon.rules.sweeper import Sweeper

SHAPES = [(1, 12), (12, 1), (2, 9), (3, 7), (5, 5), (9, 9), (8, 16)]


def boards(seed: int, count: int, shapes=SHAPES, advance: bool = True):
    """Boards in play: a field, a safe first click, the rules run (or not), a few safe cells more."""
    rng = np.random.default_rng(seed)
    for i in range(count):
        rows, cols = shapes[i % len(shapes)]
        mines = max(1, int(rows * cols * rng.uniform(0.1, 0.3)))
        start = (int(rng.integers(rows)), int(rng.integers(cols)))
        if mines >= rows * cols:
            continue
        field = draw_field(rows, cols, mines, rng, start, zero=False)
        sweeper = Sweeper(field, mines)
        sweeper.open(*start)
        if advance:
            sweeper.advance()
        for _ in range(int(rng.integers(0, 3))):
            safe = np.argwhere(~field & ~sweeper.opened)
            if len(safe):
                sweeper.open(*safe[rng.integers(len(safe))])
        yield sweeper, mines


def stuck(seed: int, count: int, shapes) -> Iterator[tuple[Board, Odds]]:
    """(board, its odds) for the boards of `boards` where the player must guess: a cell is
    undecided and none is certain."""
    for sweeper, mines in boards(seed, count, shapes=shapes):
        board = Board.from_cells(sweeper.board_cells(), mines)
        odds = board.odds()
        if board.undecided and not odds.safe() and not odds.mines():
            yield board, odds


def all_fields(board: Board) -> list[frozenset[int]]:
    """Every field that fits the board, by plain enumeration (the oracle: no groups, no pruning)."""
    cells = board.undecided
    out = []
    for k in range(len(cells) + 1):
        if board.left is not None and k != board.left:
            continue
        for mines in combinations(cells, k):
            chosen = set(mines)
            if all(sum(1 for y in eq if y in chosen) == need for eq, need in board.equations):
                out.append(frozenset(chosen))
    return out


@pytest.mark.parametrize("told", [True, False])
def test_odds_equal_the_general_count(told):
    checked = 0
    for sweeper, mines in boards(1 if told else 2, 90, advance=not told):
        cells = sweeper.board_cells()
        total = mines if told else None
        odds = Board.from_cells(cells, total).odds()
        counted = count_solutions(board_problem(cells, total), probabilities=True, limit=10**7, crosscheck=False)
        assert counted.exact
        assert odds.weight == counted.count
        rows, cols = cells.shape
        assert set(odds.mine_weight) == set(np.flatnonzero(cells.ravel() == -1).tolist())
        for x, w in odds.mine_weight.items():
            assert Fraction(w, odds.weight) == counted.probabilities[x // cols][x % cols]
        checked += 1
    assert checked > 60


def test_odds_and_fields_equal_plain_enumeration_on_small_boards():
    for sweeper, mines in boards(3, 60, shapes=[(1, 9), (9, 1), (2, 7), (3, 4), (4, 4)]):
        board = Board.from_cells(sweeper.board_cells(), mines)
        fields = all_fields(board)
        odds = board.odds()
        if not board.undecided:
            continue
        assert odds.weight == len(fields)
        for x, w in odds.mine_weight.items():
            assert w == sum(1 for f in fields if x in f)
        listed = board.fields(10**6)
        cells = board.undecided
        assert len(listed) == len(fields)
        assert {frozenset(cells[i] for i in range(len(cells)) if m >> i & 1) for m in listed} == set(fields)
        if len(fields) > 1:
            assert board.fields(len(fields) - 1) is None  # more than the limit: None, not a part


def win_chance(fields: list[frozenset[int]], cells: list[int], neighbours) -> float:
    """The oracle: the chance of winning with best play, over every cell at every step (no bound,
    no free moves first, no memo beyond the plain cache of this recursion)."""
    cache: dict[frozenset, float] = {}

    def value(group: frozenset) -> float:
        if len(group) == 1:
            return 1.0
        if group in cache:
            return cache[group]
        best = 0.0
        for x in cells:
            if all(x in f for f in group):
                continue
            parts: dict[int, list] = {}
            for f in group:
                if x not in f:
                    parts.setdefault(sum(1 for y in neighbours(x) if y in f), []).append(f)
            if len(parts) == 1 and len(next(iter(parts.values()))) == len(group):
                continue  # a safe cell that tells nothing
            best = max(best, sum(len(p) * value(frozenset(p)) for p in parts.values()) / len(group))
        cache[group] = best
        return best

    return value(frozenset(fields))


def test_the_endgame_search_finds_the_best_line_of_play():
    searched = 0
    for board, odds in stuck(4, 320, [(1, 9), (9, 1), (2, 6), (3, 4), (4, 4), (3, 5)]):
        if odds.weight > 40:
            continue
        cells = board.undecided
        index = {x: i for i, x in enumerate(cells)}
        masks = board.fields(1000)
        neighbour_masks = [sum(1 << index[y] for y in board.neighbours(x) if y in index) for x in cells]
        cell, chance = best_guess(masks, neighbour_masks, 10**6)
        fields = [frozenset(cells[i] for i in range(len(cells)) if m >> i & 1) for m in masks]
        best = win_chance(fields, cells, board.neighbours)
        assert chance == pytest.approx(best, abs=1e-12)
        # the cell it names achieves that chance: its own value by the oracle
        x = cells[cell]
        parts: dict[int, list] = {}
        for f in fields:
            if x not in f:
                parts.setdefault(sum(1 for y in board.neighbours(x) if y in f), []).append(f)
        own = sum(len(p) * win_chance(p, cells, board.neighbours) for p in parts.values()) / len(fields)
        assert own == pytest.approx(best, abs=1e-12)
        searched += 1
    assert searched > 30
    with pytest.raises(Budget):
        best_guess([0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100], [0b1110, 0b1101, 0b1011, 0b0111], 1)


def test_a_dead_cell_is_guessed_only_when_the_candidates_are_all_dead():
    """A dead cell can show one number only (listed field by field): opening it tells nothing
    but that it was safe, and deferring it never loses, so the look-ahead takes one only when
    every frontier cell within its cut-off (of the safest undecided cell) is dead too. And
    outlook says which cells are dead."""
    avoided = 0
    shapes = [(2, 6), (3, 5), (4, 4), (1, 9), (9, 1), (2, 8), (3, 4), (4, 5), (3, 6)]
    for sweeper, mines in [b for seed in (13, 14) for b in boards(seed, 700, shapes=shapes)]:
        board = Board.from_cells(sweeper.board_cells(), mines)
        odds = board.odds()
        if not board.undecided or odds.safe() or odds.mines():
            continue
        fields = all_fields(board)

        def dead(x):
            return len({sum(1 for y in board.neighbours(x) if y in f) for f in fields if x not in f}) == 1

        for x in board.undecided:
            assert board.outlook(odds, x)[2] == dead(x)
        inner = set(odds.interior)
        safety = {y: 1 - w / odds.weight for y, w in odds.mine_weight.items() if y not in inner}
        if not safety or len(safety) > autoplay.FRONTIER_CANDIDATES:
            continue
        best = 1 - min(odds.mine_weight.values()) / odds.weight
        near = [y for y in safety if safety[y] >= autoplay.CUT_OFF * best]
        r, c = autoplay.guess(sweeper, mines, "look-ahead")[0]
        chosen = r * board.cols + c
        if dead(chosen):
            assert all(dead(y) for y in near)
        avoided += dead(max(safety, key=safety.__getitem__)) and not dead(chosen)
    assert avoided >= 3


@pytest.mark.parametrize("shape", [(1, 15), (15, 1), (2, 11), (6, 9), (12, 12)])
def test_large_areas_equal_connected_parts(shape):
    """_large_areas against connected parts found by union-find over every pair of covered cells
    that touch, or that both touch one opened cell; a part is large from SMALL_AREA cells."""
    from recon.model import Groups

    rng = np.random.default_rng(sum(shape))
    rows, cols = shape
    for _ in range(30):
        covered = rng.random(shape) < rng.uniform(0.2, 0.8)
        opened = ~covered & (rng.random(shape) < 0.7)  # the rest: flags, neither
        groups = Groups(range(rows * cols))
        cells = np.flatnonzero(covered.ravel()).tolist()
        for a, b in combinations(cells, 2):
            (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
            if max(abs(ra - rb), abs(ca - cb)) <= 1:
                groups.join((a, b))
            elif max(abs(ra - rb), abs(ca - cb)) <= 2:
                rs = range(max(ra, rb) - 1, min(ra, rb) + 2)
                cs = range(max(ca, cb) - 1, min(ca, cb) + 2)
                if any(0 <= r < rows and 0 <= c < cols and opened[r, c] for r in rs for c in cs):
                    groups.join((a, b))
        size = {}
        for x in cells:
            size[groups.find(x)] = size.get(groups.find(x), 0) + 1
        asked = [x for x in cells if rng.random() < 0.5]
        expected = {x for x in asked if size[groups.find(x)] >= autoplay.SMALL_AREA}
        assert autoplay._large_areas(covered, opened, asked) == expected


def test_small_pockets_wait_while_a_living_candidate_lies_outside_one(monkeypatch):
    """In classic expert games, the look-ahead guesses a cell of a small enclosed pocket only when
    no living candidate (frontier cells within the cut-off, the best cells no number sees) lies
    outside one; and the rule does change some guesses (those the look-ahead makes without it)."""
    rng = np.random.default_rng(5)
    changed = 0
    for _ in range(60):
        field = draw_field(16, 30, 99, rng, (0, 0), zero=False)
        sweeper = Sweeper(field, 99)
        sweeper.open(0, 0)
        while True:
            sweeper.advance()
            if sweeper.won:
                break
            cell, safe, sure = autoplay.guess(sweeper, 99, "look-ahead")
            if cell is not None:
                board = Board.from_cells(sweeper.board_cells(), 99)
                odds = board.odds()
                undecided = set(board.undecided)
                safety = {x: 1 - w / odds.weight for x, w in odds.mine_weight.items()}
                candidates = autoplay._candidates(odds, safety, lambda x: 8 - sum(y in undecided for y in board.neighbours(x)))
                large = autoplay._large_areas(sweeper.known() == OPEN, sweeper.opened, candidates)
                living = {x for x in candidates if not board.outlook(odds, x)[2]}
                if living & large:
                    assert cell[0] * board.cols + cell[1] in living & large
                with monkeypatch.context() as off:
                    off.setattr(autoplay, "_large_areas", lambda covered, opened, cells: set(cells))
                    changed += autoplay.guess(sweeper, 99, "look-ahead")[0] != cell
            for r, c in sure:
                sweeper.mark_mine(r, c)
            for r, c in safe:
                sweeper.open(r, c)
            if cell is not None and not sweeper.open(*cell):
                break
    assert changed >= 1


def test_an_unavoidable_50_50_is_one_no_number_can_settle():
    """Whenever the player calls a pair unavoidable, swapping the two cells maps every field that
    fits to another, and one of the two is a mine in each; and such pairs are found."""
    found = 0
    for board, odds in stuck(5, 400, [(2, 6), (3, 5), (4, 4), (1, 9), (9, 1), (2, 8)]):
        a = autoplay._unavoidable_pair(board, odds)
        if a is None:
            continue
        fields = set(all_fields(board))
        partners = [b for b in board.neighbours(a) if b in board.undecided
                    and all((a in f) != (b in f) for f in fields)
                    and all((f - {a, b}) | ({b} if a in f else {a}) in fields for f in fields)]
        assert partners, "a pair called unavoidable is not"
        # no cell still to open tells the two apart by its number
        b = partners[0]
        for c in board.undecided:
            if c in (a, b):
                continue
            assert (a in board.neighbours(c)) == (b in board.neighbours(c))
        found += 1
    assert found >= 3


def test_a_pseudo_50_50_is_a_risk_no_play_avoids():
    """Whenever the player takes a cell as a pseudo 50/50, every field with a mine there has a
    twin that fits the board, with that cell empty, differing only in a pair or 2x2 box holding
    the cell, and showing the same number at every cell empty in both (a known mine shows none):
    no number ever tells the two apart. And such cells are found, some not plain 50/50s."""
    found = partial = 0
    for board, odds in stuck(7, 900, [(2, 6), (3, 5), (4, 4), (1, 9), (9, 1), (2, 8), (4, 5)]):
        a = autoplay._pseudo_pair(board, odds)
        if a is None:
            continue
        fields = set(all_fields(board))
        cols = board.cols

        def shows(f, x):
            return sum(1 for y in board.neighbours(x) if y in f)

        def close(cells):  # within one pair or 2x2 box
            places = [divmod(x, cols) for x in cells]
            return (max(r for r, _ in places) - min(r for r, _ in places) <= 1
                    and max(c for _, c in places) - min(c for _, c in places) <= 1)

        for f in fields:
            if a not in f:
                continue
            assert any(a not in g and close(f ^ g) and a in (f ^ g)
                       and all(shows(f, x) == shows(g, x) for x in range(board.rows * cols)
                               if x not in f and x not in g and board.known[x] != 1)
                       for g in fields), "a cell taken as a pseudo 50/50 is not one"
        found += 1
        partial += 2 * odds.mine_weight[a] != odds.weight
    assert found >= 5 and partial >= 1


@pytest.mark.parametrize("strategy", autoplay.STRATEGIES)
def test_every_strategy_plays_whole_games_and_wins_no_guess_boards(strategy):
    games = [autoplay.play_one(9, 9, 10, (4, 4), "zero", False, [11, i], strategy) for i in range(12)]
    assert all(g.guesses >= 0 for g in games) and any(g.won for g in games)
    no_guess = [autoplay.play_one(8, 8, 10, (3, 3), "zero", True, [12, i], strategy) for i in range(3)]
    assert all(g.won and g.guesses == 0 for g in no_guess)
    with pytest.raises(ValueError, match="unknown strategy"):
        autoplay.play_one(9, 9, 10, (4, 4), "zero", False, [11, 0], "bold")


def test_the_two_move_look_ahead_equals_brute_force():
    """outlook_two with every cell as the next candidate, against the fields listed one by one:
    the chance of surviving the cell and the next two moves, a certain move survived for sure."""
    checked = 0
    for board, odds in stuck(6, 60, [(2, 6), (3, 5), (4, 4), (1, 9), (9, 1)]):
        fields = all_fields(board)
        cells = board.undecided

        def best_next(group, opened):
            """The best chance of surviving the next move: 1 if a cell is certainly safe."""
            living = [c for c in cells if c not in opened]
            if any(all(c not in f for f in group) for c in living) or all(all(c in f for f in group) for c in living):
                return 1.0
            return max(sum(1 for f in group if c not in f) / len(group) for c in living)

        def split(group, x):
            parts = {}
            for f in group:
                if x not in f:
                    parts.setdefault(sum(1 for y in board.neighbours(x) if y in f), []).append(f)
            return list(parts.values())

        for x in cells[:4]:
            want = 0.0
            for part in split(fields, x):
                living = [c for c in cells if c != x]
                if any(all(c not in f for f in part) for c in living) or all(all(c in f for f in part) for c in living):
                    want += len(part) / len(fields)
                    continue
                second = max(sum(len(q) * best_next(q, {x, y}) for q in split(part, y)) / len(part) for y in living)
                want += len(part) / len(fields) * second
            assert board.outlook_two(odds, x, width=len(cells)) == pytest.approx(want, abs=1e-12)
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("n", [0, 1, 2, 7, 400, 5000])
def test_binomials_stepped_from_a_neighbour_equal_math_comb(n):
    """The odds engine's binomials, each from the nearest one known (a board of a million cells
    asks for a dozen C(n, k) of hundreds of thousands of bits, a few steps from those of the move
    before), equal math.comb in any order of asking, n and k both moving, and 0 outside 0..n;
    past KEEP values the oldest go, and far from all of them the value is computed afresh."""
    import random
    from math import comb

    from recon.play.odds import Binomials

    rng = random.Random(n)
    choose = Binomials()
    asked = [(n, rng.randrange(-3, n + 4)) for _ in range(40)] + [(n, n // 2 + d) for d in range(-6, 7)]
    for _ in range(120):  # a walk in both n and k, as a game's moves take interior cells away
        m, k = asked[-1]
        asked.append((max(m + rng.randrange(-3, 3), 0), k + rng.randrange(-3, 4)))
    asked += [(rng.randrange(0, 3 * n + 3), rng.randrange(-2, 3 * n + 3)) for _ in range(20)]
    for m, k in asked:
        assert choose(m, k) == (comb(m, k) if 0 <= k <= m else 0), (m, k)
        assert len(choose.known) <= choose.KEEP


def test_large_binomials_from_prime_factors_equal_math_comb():
    """recon.stats.comb (prime powers multiplied pairwise, from PRIME_COMB_FACTORS factors on)
    gives math.comb's value on both sides of the switch, at the edges, and on a large board."""
    import random
    from math import comb

    from recon.stats import PRIME_COMB_FACTORS, comb as large_comb

    rng = random.Random(7)
    edge = PRIME_COMB_FACTORS
    asked = [(0, 0), (1, 0), (1, 1), (5, 7), (2 * edge, edge), (2 * edge - 1, edge), (2 * edge + 1, edge - 1),
             (2 * edge + 1, edge + 2), (edge, edge), (10 * edge, edge - 1), (10 * edge, 9 * edge + 1), (61_007, 20_000),
             (2_003**2, 2_500), (2_003**2 - 1, 4_003), (2_003**2 + 1, 2_003)]  # the root a prime, n about it
    asked += [(n, rng.randrange(0, n + 3)) for n in (rng.randrange(edge, 30 * edge) for _ in range(30))]
    for n, k in asked:
        assert large_comb(n, k) == comb(n, k), (n, k)
    with pytest.raises(ValueError):
        large_comb(-1, 0)


def test_equations_read_from_the_frontier_equal_those_of_every_number():
    """A board reads equations only from the numbers beside a covered cell (found with numpy, so
    a large board costs its frontier); the list equals the one every opened cell gives, in the
    same order, and so does that of a board opened one cell further in thought."""
    checked = 0
    for sweeper, mines in boards(4, 70, shapes=SHAPES + [(1, 1), (2, 2)]):
        cells = sweeper.board_cells()
        board = Board.from_cells(cells, mines)
        rows, cols = cells.shape
        flat = cells.ravel().tolist()
        every = Board(rows, cols, [0 if v >= 0 else 1 if v == -2 else -1 for v in flat], [max(v, 0) for v in flat],
                      mines)
        assert board.equations == every.equations and board.numbered == every.numbered
        assert board.undecided == every.undecided and board.left == every.left
        for x in board.undecided[:3]:
            for v in range(3):
                after, again = board.opened_showing(x, v), every.opened_showing(x, v)
                assert after.equations == again.equations
        checked += bool(board.equations)
    assert checked > 40


@pytest.mark.parametrize("shape", [(1, 1), (1, 9), (9, 1), (2, 7), (6, 5)])
def test_neighbours_found_when_asked_equal_the_table(shape):
    """Boards above TABLE_CELLS find each cell's neighbours when asked, in the table's order."""
    from recon.play.odds import _Neighbours, _neighbour_table

    rows, cols = shape
    table, lazy = _neighbour_table.__wrapped__(rows, cols), _Neighbours(rows, cols)
    assert isinstance(table, list)
    assert [lazy[x] for x in reversed(range(rows * cols))] == table[::-1]


@contextmanager
def shallow_stack(frames: int = 40):
    """Python's recursion limit set a few frames above the caller's depth: a walk that recursed
    once per cell would raise RecursionError here."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + frames)
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


@pytest.mark.parametrize("told", [True, False])
def test_a_frontier_of_hundreds_of_cells_is_enumerated_without_deep_recursion(told):
    """A 3 x 300 board whose middle row is open: one group of 300 super cells (a cell above and
    the one below it), once 300 nested calls (on a 3 x 3000 board `recon play` failed on its
    first probability). The odds equal the general count's."""
    rng = np.random.default_rng(7)
    field = rng.random((3, 300)) < 0.3
    field[1] = False
    cells = np.full(field.shape, -1, dtype=np.int8)
    cells[1] = Sweeper(field).numbers[300:600]
    total = int(field.sum()) if told else None
    board = Board.from_cells(cells, total)
    assert len(board.equations) == 300
    with shallow_stack():
        odds = board.odds()
    counted = count_solutions(board_problem(cells, total), probabilities=True, limit=10**7, crosscheck=False)
    assert counted.exact and odds.weight == counted.count > 2**100
    assert all(Fraction(w, odds.weight) == counted.probabilities[x // 300][x % 300] for x, w in odds.mine_weight.items())


def test_fields_are_listed_without_deep_recursion_when_many_cells_are_undecided():
    """A 25 x 25 board opened at one corner, showing 0, and one mine left: 621 fields, the mine
    in any cell the 0 does not see, listed by the endgame's walk (once one nested call a cell)."""
    cells = np.full((25, 25), -1, dtype=np.int8)
    cells[0, 0] = 0
    board = Board.from_cells(cells, 1)
    with shallow_stack():
        listed = board.fields(1000)
    seen = {1, 25, 26}  # the corner's neighbours
    assert sorted(listed) == [1 << i for i, x in enumerate(board.undecided) if x not in seen]
    assert len(listed) == 621


@pytest.mark.parametrize("told", [True, False])
def test_drawn_fields_are_each_as_likely_as_plain_enumeration_says(told):
    """`Board.draw` against the oracle: every field it draws fits the board, and over 60 draws a
    field, each field that fits comes about as often as every other (a chi-square statistic
    within 5 standard deviations of its mean). A draw that ignored the ways a super cell's mines
    lie and the interior's binomials was 16 to 250 deviations off on 4 of these 21 boards."""
    drawn_boards = 0
    for sweeper, mines in boards(11, 40, shapes=[(1, 9), (9, 1), (2, 7), (3, 4), (4, 4)]):
        board = Board.from_cells(sweeper.board_cells(), mines if told else None)
        fields = all_fields(board)
        if not 2 <= len(fields) <= 200:
            continue
        rnd = random.Random(len(fields))
        seen = Counter(frozenset(board.draw(rnd)) for _ in range(60 * len(fields)))
        assert set(seen) <= set(fields)
        chi = sum((seen[f] - 60) ** 2 / 60 for f in fields)
        free = len(fields) - 1
        assert abs(chi - free) < 5 * math.sqrt(2 * free), (len(fields), chi)
        drawn_boards += 1
    assert drawn_boards >= 5


def test_a_board_no_field_fits_draws_none():
    cells = np.full((2, 3), -1, dtype=np.int8)
    cells[0, 0] = 3  # a corner sees three cells: 3 mines, but the total says 2
    assert Board.from_cells(cells, 2).draw(random.Random(1)) is None
    assert sorted(Board.from_cells(cells, 3).draw(random.Random(1))) == [1, 3, 4]


def test_a_line_of_play_too_long_for_the_stack_is_not_searched():
    """A corridor of 999 covered cells between two rows of known mines, one mine somewhere along
    it and no number that tells where: 999 fields, few enough for the endgame search, but its
    lines of play are hundreds of guesses long. The search recursed once a guess and raised
    RecursionError (`h` in `recon play` on such a board); it now gives up past DEPTH guesses and
    the look-ahead guesses instead."""
    n = 999
    field = np.zeros((4, n), dtype=bool)
    field[0] = field[2] = True
    field[1, n // 2] = True
    mines = int(field.sum())
    sweeper = Sweeper(field, mines)
    for c in range(n):
        sweeper.mark_mine(0, c)
        sweeper.mark_mine(2, c)
        sweeper.open(3, c)
    board = Board.from_cells(sweeper.board_cells(), mines)
    assert board.odds().weight == n and autoplay._endgame(board) is None
    cell, safe, sure = autoplay.guess(sweeper, mines, strategy="full")
    assert cell[0] == 1 and not safe and not sure
