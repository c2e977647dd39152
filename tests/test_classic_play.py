"""Classic play: boards with a safe first click, no-guess boards (checked by a player that knows
the exact probabilities, independent of the rules that made them), their formats, and the
player's rules (`recon.rules.sweeper`) against the field."""

from __future__ import annotations

import importlib.util

import json
import time
from itertools import combinations, permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recon.counting import count_solutions
from recon.generation import GenerationFailed, GenerationTimeout
from recon.generation.classic import (WAYS, NoBoard, _by_views, _fill_or_empty, _odd_pair_fields, check_request,
                                      draw_field, first_click_cells, no_guess_field, perturb, play)
from recon.io.classic import (board_problem, format_board, format_endoh1, format_mines_id, parse_board, parse_endoh1,
                               parse_mines_id)
from recon.model import Groups, status, window_cells
from recon.rules import trim as trim_rules
from recon.rules.sweeper import Sweeper, numbers_of
from recon.io.text import parse_field
from test_classic import neighbours, run


def exact_player_wins(field: np.ndarray, first: tuple[int, int]) -> bool:
    """Play by exact probabilities with the total (recon.count), opening every cell that is safe in
    every field the board allows and never guessing: does that open every safe cell?"""
    mines = int(field.sum())
    sweeper = Sweeper(field, mines)  # only its game mechanics: open() and the board shown
    sweeper.open(*first)
    while not sweeper.won:
        cells = sweeper.board_cells()
        cells[cells == -2] = -1  # the rules' flags are not used: the oracle sees numbers only
        counted = count_solutions(board_problem(cells, mines), probabilities=True)
        assert counted.exact
        safe = [(r, c) for r in range(field.shape[0]) for c in range(field.shape[1])
                if cells[r, c] == -1 and counted.probabilities[r][c] == 0]
        if not safe:
            return False
        for r, c in safe:
            assert sweeper.open(r, c)
    return True


@pytest.mark.parametrize("rows, cols, mines", [(9, 9, 10), (8, 8, 14), (1, 14, 3), (14, 1, 3), (2, 12, 4), (3, 10, 8)])
def test_no_guess_boards_are_won_without_a_guess(rows, cols, mines):
    for seed in range(4):
        first = (rows // 2, cols // 2)
        field, stats = no_guess_field(rows, cols, mines, np.random.default_rng(seed), first)
        assert field.shape == (rows, cols) and int(field.sum()) == mines
        assert not field[max(first[0] - 1, 0) : first[0] + 2, max(first[1] - 1, 0) : first[1] + 2].any()
        sweeper, perturbed = play(field.copy(), mines, first)  # the certificate, again
        assert sweeper.won and perturbed == 0
        assert exact_player_wins(field, first)
        again, _ = no_guess_field(rows, cols, mines, np.random.default_rng(seed), first)
        assert (again == field).all()  # the same seed, the same board


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("rows, cols, mines", [(3, 40, 20), (40, 3, 20), (10, 10, 25), (2, 20, 6)])
def test_each_way_of_perturbing_makes_boards_won_without_a_guess(way, rows, cols, mines):
    first = (rows // 2, cols // 2)
    for seed in range(2):
        field, _ = no_guess_field(rows, cols, mines, np.random.default_rng(seed), first, ways=(way,))
        assert int(field.sum()) == mines and play(field.copy(), mines, first)[0].won
        assert exact_player_wins(field, first)


@pytest.mark.parametrize("counts, fields", [
    ([10, 12, 12, 9, 11, 11, 0], 1),  # four runs fail to beat a best, never three in a row: kept
    ([10, 12, 12, 12, 0], 2),  # three in a row: dropped, and the next field's first run is won
])
def test_a_field_is_dropped_after_patience_runs_in_a_row_fail_to_beat_its_best(monkeypatch, counts, fields):
    """On a dense strip three wide the race's runs fall toward none unevenly, with long stretches
    above the best (decisions.md, "a field's patience in a row"): only such a stretch drops a field."""
    import recon.generation.classic as classic
    runs = iter(counts)

    def scripted(field, *args, **kwargs):  # the perturbations of each run, as a real run reports them
        return type("Run", (), {"won": True})(), next(runs)

    monkeypatch.setattr(classic, "play", scripted)
    _, stats = classic.no_guess_field(10, 10, 30, np.random.default_rng(0), (5, 5), patience=3)
    assert stats["fields"] == fields and stats["runs"] == len(counts)


@pytest.mark.parametrize("rows, cols, mines", [(3, 300, 225), (300, 3, 225)])
def test_dense_strips_three_wide_are_made_without_a_guess(rows, cols, mines):
    first = (rows // 2, cols // 2)
    field, _ = no_guess_field(rows, cols, mines, np.random.default_rng(0), first)
    sweeper, perturbed = play(field.copy(), mines, first)
    assert int(field.sum()) == mines and sweeper.won and perturbed == 0


@pytest.mark.parametrize("shape, mines", [((2, 25), 8), ((25, 2), 8), ((1, 30), 5)])
def test_boards_up_to_two_wide_are_packed_whatever_the_way(shape, mines):
    """There no-guess boards have their mines packed far from the first click (WAYS), so the race
    is not run: the same seed makes the same board either way."""
    first = (shape[0] // 2, shape[1] // 2)
    for seed in range(3):
        packed, stats = no_guess_field(*shape, mines, np.random.default_rng(seed), first, ways=("pack",))
        raced, raced_stats = no_guess_field(*shape, mines, np.random.default_rng(seed), first, ways=("race",))
        assert np.array_equal(packed, raced) and stats == raced_stats
    with pytest.raises(ValueError, match="ways"):
        no_guess_field(*shape, mines, np.random.default_rng(0), first, ways=("shove",))


@pytest.mark.parametrize("room, spare, held, lacking", [(3, 2, 1, 1), (4, 3, 2, 1), (2, 5, 2, 3), (1, 1, 2, 1),
                                                        (0, 4, 1, 2), (5, 0, 2, 2), (1, 1, 2, 2)])
def test_the_race_chooses_as_a_walk_of_the_far_cells_in_random_order_would(room, spare, held, lacking):
    """Tatham's race: the far cells in a random order, until `held` empty ones (empty the spot) or
    `lacking` mines (fill it) are met. Its odds, drawn 4,000 times, against every order counted."""
    def walk(order):
        empties = mines = 0
        for cell in order:
            empties, mines = empties + (cell == "e"), mines + (cell == "m")
            if empties == held:
                return "empty"
            if mines == lacking:
                return "fill"
        return None

    orders = set(permutations("e" * room + "m" * spare))
    exact = {way: sum(walk(order) == way for order in orders) / len(orders) for way in ("empty", "fill", None)}
    rng = np.random.default_rng(7)
    drawn = [_fill_or_empty(room, spare, held, lacking, True, rng) for _ in range(4000)]
    for way, p in exact.items():
        assert abs(drawn.count(way) / 4000 - p) <= 4 * (p * (1 - p) / 4000) ** 0.5 + 1e-9, (way, p)
    # without the race: empty the spot whenever that moves fewer mines (or filling cannot be done)
    packed = _fill_or_empty(room, spare, held, lacking, False, rng)
    assert packed == ("empty" if room >= held and (held <= lacking or spare < lacking)
                      else "fill" if spare >= lacking else None)


@pytest.mark.parametrize("shape, first, zero", [((2, 7), (0, 3), True), ((7, 2), (3, 1), True), ((2, 6), (1, 0), True),
                                                ((6, 2), (5, 1), True), ((2, 5), (1, 4), False), ((6, 2), (2, 0), False),
                                                ((2, 6), (0, 2), False)])
def test_a_board_two_wide_with_an_odd_number_of_mines_is_refused_where_none_exists(shape, first, zero):
    """Across a board two wide, the two cells of a pair look alike to every number beside them, so
    a pair holding one mine is never told apart unless it is the first click's. The oracle plays
    every field by exact probabilities with the total: the generator refuses at once exactly the
    odd counts that no field wins, and makes a board for every count some field wins."""
    keep = [r * shape[1] + c for r, c in first_click_cells(shape, first, zero)]
    free = [i for i in range(shape[0] * shape[1]) if i not in keep]
    won = set()
    for mines in range(len(free) + 1):
        for cells in combinations(free, mines):
            field = np.zeros(shape, dtype=bool)
            field.flat[list(cells)] = True
            if exact_player_wins(field, first):
                won.add(mines)
                break
    assert any(mines % 2 for mines in won) != zero  # a safe click's own pair may hold the odd mine
    for mines in range(1, len(free) + 1, 2):
        if mines not in won:
            with pytest.raises(NoBoard, match=f"odd number of mines \\({mines}\\)"):
                no_guess_field(*shape, mines, np.random.default_rng(0), first, zero=zero)
    for mines in won:
        field, _ = no_guess_field(*shape, mines, np.random.default_rng(0), first, zero=zero)
        assert exact_player_wins(field, first)


@pytest.mark.parametrize("shape, first", [((2, 6), (0, 0)), ((2, 6), (1, 2)), ((7, 2), (3, 1))])
def test_a_safe_click_on_a_board_two_wide_keeps_an_odd_number_of_mines_by_it(shape, first):
    """With an odd number of mines, at most its neighbours, every field that a player by exact
    probabilities wins from a safe first click is one the generator tries on a long board: the
    twin across from it a mine, the rest full pairs in its window."""
    neighbours = len(first_click_cells(shape, first, True)) - 1
    free = [i for i in range(shape[0] * shape[1]) if i != first[0] * shape[1] + first[1]]
    for mines in range(1, neighbours + 1, 2):
        tried = {field.tobytes() for field in _odd_pair_fields(*shape, mines, first)}
        for cells in combinations(free, mines):
            field = np.zeros(shape, dtype=bool)
            field.flat[list(cells)] = True
            if exact_player_wins(field, first):
                assert field.tobytes() in tried, (mines, cells)


@pytest.mark.parametrize("shape", [(2, 60), (60, 2)])
def test_long_boards_two_wide_with_an_odd_number_of_mines_by_a_safe_click_are_made(shape):
    """There a drawn field almost never has every mine by the first click; the fields that do are
    tried one by one, so a board is made at once, or refused where none of them is won."""
    cells = [(0, 0), (1, 1), (0, 29), (1, 59)] if shape[0] == 2 else [(0, 0), (1, 1), (29, 0), (59, 1)]
    for first in cells:
        for mines in range(1, len(first_click_cells(shape, first, True)), 2):
            field, stats = no_guess_field(*shape, mines, np.random.default_rng(mines), first, zero=False)
            assert int(field.sum()) == mines and exact_player_wins(field, first)
            assert mines == 1 or stats["fields"] <= 2  # one mine: 119 fields in all, each tried
    code, out, err = run("generate", *map(str, shape), "--classic", "--mines", "3", "--no-guess", "--first", "1,1",
                         "--first-click", "safe")
    assert code == 0 and out.count("*") == 0 and "mines: 3" in out, err


def test_long_boards_two_wide_with_an_odd_number_of_mines_are_refused_at_once():
    for zero, first in [(True, (1, 500)), (False, (0, 0)), (False, (1, 500))]:
        with pytest.raises(NoBoard, match="two wide look alike"):
            no_guess_field(2, 1000, 333, np.random.default_rng(0), first, zero=zero)
        with pytest.raises(NoBoard, match="two wide look alike"):
            no_guess_field(1000, 2, 333, np.random.default_rng(0), first[::-1], zero=zero)
    code, _, err = run("autoplay", "--games", "2", "--rows", "2", "--cols", "300", "--mines", "99", "--no-guess",
                       "--first-click", "safe", "--workers", "1")
    assert code == 2 and "odd number of mines (99)" in err, err


def _stuck_game(rows: int, cols: int, mines: int, seed: int):
    """A game from a drawn field, its first click in the centre, the player advanced as far as the
    rules go: (rng, field, player)."""
    rng = np.random.default_rng(seed)
    first = (rows // 2, cols // 2)
    field = draw_field(rows, cols, mines, rng, first)
    sweeper = Sweeper(field, mines)
    sweeper.open(*first)
    sweeper.advance()
    return rng, field, sweeper


@pytest.mark.parametrize("rows, cols, mines, last_resort", [
    (6, 6, 12, True), (2, 12, 7, True), (12, 2, 7, True), (3, 10, 12, True), (1, 14, 6, False), (14, 1, 6, False)])
def test_a_perturbation_keeps_the_mines_and_what_the_player_opened(rows, cols, mines, last_resort):
    """Wherever the player is stuck, a perturbation keeps the number of mines, leaves every opened
    cell empty, changes only cells the player has not opened, and unflags a found mine it takes
    (Tatham's last resort at the end of a board, when no covered cell is left to take one from).
    Dense small boards reach that last resort (strips of one cell, in these 60 seeds, do not)."""
    last_resorts = 0
    for seed in range(60):
        rng, field, sweeper = _stuck_game(rows, cols, mines, seed)
        for _ in range(50):
            if sweeper.won:
                break
            before, opened, flagged = field.copy(), sweeper.opened.copy(), sweeper.flagged.copy()
            stuck_at_a_number = sweeper.frontier().any()  # else the other case: a walled-in pocket
            if not perturb(sweeper, rng):
                break
            assert int(field.sum()) == mines and not field[opened].any()
            changed = field != before
            assert changed.any() and not (changed & opened).any()
            lost = flagged & ~field
            assert not sweeper.flagged[lost].any()
            last_resorts += bool(stuck_at_a_number and lost.any())
            sweeper.rebuild()
            sweeper.advance()
    assert last_resorts > 0 or not last_resort


@pytest.mark.parametrize("rows, cols, mines", [(6, 6, 12), (2, 12, 7), (12, 2, 7), (1, 30, 5), (30, 1, 5), (3, 10, 12),
                                               (16, 30, 150), (70, 50, 1050)])
def test_a_player_that_recounts_after_a_perturbation_knows_what_a_rebuilt_one_knows(rows, cols, mines):
    """After each perturbation, the player that recounts the equations on the cells that changed
    (`field_changed`) reads the new numbers, and opens and marks what a player rebuilt from every
    opened number does (dense boards reach the last resort, where it rebuilds)."""
    moves = 0
    for seed in range(12 if rows * cols < 1000 else 2):
        rng, field, live = _stuck_game(rows, cols, mines, seed)
        for _ in range(60):
            if live.won:
                break
            before = field.copy()
            if not perturb(live, rng):
                break
            rebuilt = Sweeper(field.copy(), mines)
            rebuilt.opened[...], rebuilt.flagged[...] = live.opened, live.flagged
            rebuilt.rebuild()
            live.field_changed(np.flatnonzero(field != before))
            assert np.array_equal(live._numbers, numbers_of(field)) and live.numbers == numbers_of(field).ravel().tolist()
            assert live.advance() == rebuilt.advance()
            assert np.array_equal(live.opened, rebuilt.opened) and np.array_equal(live.flagged, rebuilt.flagged)
            assert np.array_equal(live.known(), rebuilt.known()), ((rows, cols), seed)
            moves += 1
    assert moves >= 20, moves


def _groups_afresh(trimmer) -> list[tuple[set[int], set[int]]]:
    """The groups of the trimmer's live equations (sharing cells), joined from scratch."""
    joined, cells_of = Groups(), {}
    for e, alive in enumerate(trimmer._alive):
        if alive:
            cells_of[e] = trimmer._cells(trimmer._ar[e], trimmer._ac[e], trimmer._msk[e])
            joined.join(cells_of[e])
    out: dict = {}
    for e, cells in cells_of.items():
        here = out.setdefault(joined.find(cells[0]), (set(), set()))
        here[0].update(cells)
        here[1].add(e)
    return list(out.values())


@pytest.mark.parametrize("join_at_once", [1, 10**9])
@pytest.mark.parametrize("rows, cols, mines", [(2, 20, 9), (20, 2, 9), (3, 30, 20), (14, 16, 60), (30, 30, 250)])
def test_the_groups_kept_from_call_to_call_are_the_groups_joined_afresh(monkeypatch, rows, cols, mines, join_at_once):
    """Elimination's groups, kept by the trimmer and joined again only where equations died or
    came, are the live equations' groups joined from scratch, in the same order: through a game's
    numbers told, cells fixed and perturbations recounted; joined again at once in numpy every
    time, or one by one in Python every time."""
    monkeypatch.setattr(trim_rules, "JOIN_AT_ONCE", join_at_once)
    checked = 0
    for seed in range(6):
        rng, field, sweeper = _stuck_game(rows, cols, mines, seed)
        for _ in range(30):
            kept = [(cells.tolist(), eqs.tolist()) for cells, eqs in sweeper._trimmer._groups()]
            assert all(len(set(cells)) == len(cells) for cells, _ in kept)  # each cell once
            kept, afresh = [(set(cells), set(eqs)) for cells, eqs in kept], _groups_afresh(sweeper._trimmer)
            assert kept == afresh, ((rows, cols), seed)
            checked += len(kept) > 0
            if sweeper.won:
                break
            before = field.copy()
            if not perturb(sweeper, rng):
                break
            sweeper.field_changed(np.flatnonzero(field != before))
            sweeper.advance()
    assert checked >= 20, checked


@pytest.mark.parametrize("shape, mines", [((1, 30), 4), ((30, 1), 4), ((2, 25), 8), ((25, 2), 8), ((12, 12), 35),
                                          ((16, 30), 99), ((70, 50), 1050)])
def test_no_guess_boards_are_the_same_when_the_player_rebuilds(shape, mines):
    """The same seed makes the same no-guess board, in as many runs and perturbations, whether the
    player recounts its equations after each perturbation or rebuilds them."""
    first = (shape[0] // 2, shape[1] // 2)
    for seed in range(3 if shape[0] * shape[1] < 1000 else 1):
        recounted, stats = no_guess_field(*shape, mines, np.random.default_rng(seed), first)
        rebuilt, rebuilt_stats = no_guess_field(*shape, mines, np.random.default_rng(seed), first, recount=False)
        assert np.array_equal(recounted, rebuilt) and stats == rebuilt_stats, (shape, seed)


def test_a_first_click_that_is_only_safe():
    for seed in range(5):
        field, _ = no_guess_field(6, 6, 12, np.random.default_rng(seed), (0, 0), zero=False)
        assert not field[0, 0] and exact_player_wins(field, (0, 0))


def test_some_drawn_fields_need_a_guess_and_the_oracle_sees_it():
    """The oracle is not a rubber stamp: drawn fields (no perturbation) often need a guess."""
    needs = 0
    for seed in range(12):
        field = draw_field(9, 9, 20, np.random.default_rng(seed), (4, 4))
        rules_win = play(field.copy(), 20, (4, 4))[0].won
        exact_win = exact_player_wins(field, (4, 4))
        assert exact_win or not rules_win  # the rules never do better than exact probabilities
        needs += not exact_win
    assert needs >= 3


def test_no_board_exists_and_bad_requests():
    with pytest.raises(NoBoard):
        no_guess_field(1, 3, 1, np.random.default_rng(0), (0, 1), zero=False)
    with pytest.raises(ValueError, match="outside"):
        check_request(3, 3, 1, (3, 0), True, 100)
    with pytest.raises(ValueError, match="1 mine does not fit: the first click keeps its 3x3 window free, which leaves 0 cells"):
        check_request(3, 3, 1, (1, 1), True, 100)
    with pytest.raises(ValueError, match="2 mines do not fit: the first click keeps its cell free, which leaves 1 cell$"):
        check_request(1, 2, 2, (0, 0), False, 100)
    with pytest.raises(NoBoard, match="2 mines do not fit"):  # the generator asked directly says the same
        no_guess_field(3, 3, 2, np.random.default_rng(0), (1, 1))


def test_where_drawn_fields_find_none_the_search_over_what_the_player_sees_proves_it():
    """42,504 fields (5x5, 19 mines) and 245,157 (3x8, 16 mines) are too many to try first; drawn
    and perturbed fields find none, and the search over what the player sees proves that none
    exists (exit 2), where the run had been undecided (exit 4) or had tried every field. The
    search keeps to the time limit and to its runs."""
    with pytest.raises(NoBoard, match="the player was followed through every way the numbers it opens can fall"):
        no_guess_field(5, 5, 19, np.random.default_rng(1), (2, 2), zero=False)
    with pytest.raises(NoBoard, match="no 3x8 board with 16 mines can be finished without a guess from r2c4"):
        no_guess_field(3, 8, 16, np.random.default_rng(1), (1, 3), zero=False)
    stats = {"fields": 0, "runs": 0}
    with pytest.raises(GenerationTimeout):
        _by_views(5, 5, 19, (2, 2), False, np.random.default_rng(1), stats, time.perf_counter())
    with pytest.raises(GenerationFailed, match="stopped after 1 runs"):  # its first field needs a guess
        _by_views(10, 10, 66, (4, 3), False, np.random.default_rng(30), stats, None, runs=1)


def _brute_no_guess(shape, mines, first, zero) -> bool:
    """Does the player finish some field of this request? (Every field tried.)"""
    keep = first_click_cells(shape, first, zero)
    free = [(r, c) for r in range(shape[0]) for c in range(shape[1]) if (r, c) not in keep]
    for pick in combinations(range(len(free)), mines):
        field = np.zeros(shape, dtype=bool)
        for k in pick:
            field[free[k]] = True
        if play(field, mines, first)[0].won:
            return True
    return False


@pytest.mark.parametrize("engine", ["sat", "milp"])
def test_the_search_over_what_the_player_sees_finds_a_board_exactly_when_one_exists(engine):
    """Against every field tried (brute force), on random requests of 1x8, 8x1, 2x6, 6x2, 3x4,
    4x3, 3x5 and 4x4 boards, a zero or a safe first click: the search finds a field exactly when
    the player finishes some field, and the one it finds is finished, with the mines asked for
    and none where the first click keeps cells free. Its fields come from SAT, or from MILP (the
    base install's)."""
    if engine == "sat":
        pytest.importorskip("pysat")
    rng = np.random.default_rng(41)
    kinds = {True: 0, False: 0}
    for trial in range(120 if engine == "sat" else 48):
        shape = [(1, 8), (8, 1), (2, 6), (6, 2), (3, 4), (4, 3), (3, 5), (4, 4)][trial % 8]
        zero = bool(rng.integers(2))
        first = (int(rng.integers(shape[0])), int(rng.integers(shape[1])))
        keep = first_click_cells(shape, first, zero)
        mines = int(rng.integers(0, shape[0] * shape[1] - len(keep) + 1))
        exists = _brute_no_guess(shape, mines, first, zero)
        kinds[exists] += 1
        try:
            field = _by_views(*shape, mines, first, zero, rng, {"fields": 0, "runs": 0}, None, engine=engine)
        except NoBoard:
            assert not exists, (shape, mines, first, zero)
            continue
        assert exists and int(field.sum()) == mines and not any(field[x] for x in keep)
        assert play(field.copy(), mines, first)[0].won
    assert min(kinds.values()) >= 6, kinds


def test_the_player_counts_a_dense_board_s_last_empty_cells_with_the_total():
    """A no-guess board of Tatham's generator (23x27 with 603 mines, his IDs' form), which his own
    solver finishes: at its end 586 cells are covered, more than the total waits for
    (TOTAL_CELLS), but only two of them are empty, so the total's own rules join and decide
    them. The player had stopped there; the exact-probability player finishes it too."""
    text = ("23x27:17,19,mca269000ca65545f745427827d63a5dbfbe5615e636aefee2a1cf9778dff908d08bb44f7c09109f18145bc"
            "502333cd94ad7fff4f49fe056bb0eab52a6aad509ff9b52557f30ccf336f0c2f9d37d8")
    field, first = parse_mines_id(text)
    assert field.shape == (27, 23) and int(field.sum()) == 603
    assert play(field, 603, first)[0].won and exact_player_wins(field, first)
    assert not _advanced(field, first, mines=None).won  # the total is what decides the end


def test_the_player_packs_the_numbers_that_leave_the_last_empty_cells():
    """A no-guess board of Tatham's generator (14x26 with 305 mines) that his solver finishes:
    at its end 4 of 270 covered cells are empty, and only the packing of two of the column's
    numbers that holds all 4 says that every other covered cell is a mine (the rules' test
    `test_mine_count_finds_the_packing_a_greedy_choice_misses` has the numbers). The player had
    stopped there with the packing taken greedily."""
    text = ("14x26:6,6,mcabd9e4b73761364c4725df2118fbae48a7554d81364cb3f161c461bb888ca9d645723aa1c762"
            "bda4dd2ed209d4")
    field, first = parse_mines_id(text)
    assert field.shape == (26, 14) and int(field.sum()) == 305
    assert play(field, 305, first)[0].won and exact_player_wins(field, first)


def _advanced(field: np.ndarray, first: tuple[int, int], mines: int | None) -> Sweeper:
    sweeper = Sweeper(field, mines)
    sweeper.open(*first)
    sweeper.advance()
    return sweeper


def test_the_player_never_contradicts_the_field_and_opens_only_safe_cells():
    rng = np.random.default_rng(5)
    for shape in [(1, 20), (20, 1), (2, 15), (9, 9), (16, 30)]:
        for _ in range(5):
            mines = int(rng.integers(1, shape[0] * shape[1] // 4 + 2))
            field = draw_field(*shape, mines, rng, (0, 0), zero=False)
            sweeper = Sweeper(field, mines)
            sweeper.open(0, 0)
            sweeper.advance()
            assert not (sweeper.opened & field).any() and not (sweeper.flagged & ~field).any()
            shown = sweeper.board_cells()
            numbers = neighbours(field)
            assert (shown[sweeper.opened] == numbers[sweeper.opened]).all()
    assert (numbers_of(field) == neighbours(field)).all()


def test_the_player_logs_each_cell_it_opens_once_in_the_order_a_zero_s_flood_reaches_it():
    """`opening` (what the search over what the player sees reads): every opened cell once, the
    first click first, and every neighbour of a zero opened. A field that agrees on every opened
    cell's number (mines moved among cells no opened number sees) is played alike: the same log,
    in the same order, and the same end."""
    rng = np.random.default_rng(8)
    alike = 0
    for shape in [(1, 20), (20, 1), (2, 15), (9, 9), (16, 30)]:
        for _ in range(4):
            mines = int(rng.integers(1, shape[0] * shape[1] // 5 + 2))
            field = draw_field(*shape, mines, rng, (0, 0), zero=True)
            log: list[int] = []
            sweeper = Sweeper(field, mines, opening=log)
            sweeper.open(0, 0)
            sweeper.advance()
            assert len(log) == len(set(log)) and set(log) == set(np.flatnonzero(sweeper.opened).tolist())
            numbers, cols = numbers_of(field).ravel(), shape[1]
            assert log[0] == 0
            for x in log:
                if numbers[x] == 0:
                    assert all(i * cols + j in set(log) for i, j in window_cells(shape, *divmod(x, cols)))
            # another field that agrees on every opened cell's number is played alike
            other = field.copy()
            covered = np.flatnonzero(~sweeper.opened.ravel() & ~sweeper.flagged.ravel())
            seen = status(sweeper.opened) > 0
            far = [x for x in covered.tolist() if not seen.flat[x]]
            if len(far) >= 2 and other.flat[far].any() and not other.flat[far].all():
                a = next(x for x in far if other.flat[x])
                b = next(x for x in far if not other.flat[x])
                other.flat[a], other.flat[b] = False, True
                again: list[int] = []
                player = Sweeper(other, mines, opening=again)
                player.open(0, 0)
                player.advance()
                assert again == log and (player.opened == sweeper.opened).all()
                alike += 1
    assert alike >= 5, alike


def test_formats_round_trip():
    rng = np.random.default_rng(2)
    for shape in [(1, 7), (7, 1), (2, 5), (16, 30)]:
        field = rng.random(shape) < 0.3
        field[0, 0] = False
        got, first = parse_mines_id(format_mines_id(field, (0, 0)))
        assert (got == field).all() and first == (0, 0)
        got, mines = parse_endoh1(format_endoh1(field))
        assert (got == field).all() and mines == int(field.sum())


@pytest.mark.parametrize("rows, cols", [(1, 12), (12, 1), (2, 9), (9, 2), (4, 4), (3, 5)])
def test_mines_ids_are_written_only_where_tatham_s_mines_takes_them(rows, cols):
    """His validate_params takes 1 to W*H-9 mines, even with the layout given
    (bench/check_mines_ids.py holds every ID to his own code): outside that, --format mines is
    refused (exit 2) and another format is suggested, the board itself being fine."""
    most = rows * cols - 9
    for mines in (0, most, most + 1):
        argv = [str(rows), str(cols), "--classic", "--mines", str(mines), "--first-click", "safe", "--seed", "1"]
        code, out, err = run("generate", *argv, "--format", "mines")
        if 1 <= mines <= most:
            assert code == 0 and out.startswith(f"{cols}x{rows}n{mines}:"), err
        else:
            assert code == 2 and not out and "Tatham's Mines takes from 1 mine to 9 fewer" in err and "--format board" in err
            assert run("generate", *argv, "--format", "board")[0] == 0


def test_generate_classic_command(tmp_path):
    board, field_path = tmp_path / "b.txt", tmp_path / "f.txt"
    code, _, err = run("generate", "9", "9", "--classic", "--mines", "10", "--no-guess", "--seed", "7",
                       "--out", str(board), "--field", str(field_path))
    assert code == 0 and "no-guess board 9x9, 10 mines" in err
    code, _, err = run("generate", "1", "2", "--classic", "--mines", "1", "--no-guess", "--first-click", "safe")
    assert code == 0 and "no-guess board 1x2, 1 mine:" in err, err
    text = board.read_text()
    assert text.startswith("# recon generate 9 9 --classic --mines 10 --first 5,5 --first-click zero --no-guess --seed 7\n")
    cells, mines = parse_board(text)
    assert mines == 10 and cells[4, 4] == 0
    field = parse_field(field_path.read_text())
    assert (cells[cells >= 0] == neighbours(field)[cells >= 0]).all() and not field[cells >= 0].any()
    # the board is what the player sees: every field it allows agrees on the opened cells
    assert count_solutions(board_problem(cells, mines)).count >= 1
    code, out, _ = run("generate", "9", "9", "--classic", "--mines", "10", "--no-guess", "--seed", "7", "--format", "mines")
    assert code == 0 and (parse_mines_id(out)[0] == field).all()
    code, out, _ = run("generate", "9", "9", "--classic", "--mines", "10", "--no-guess", "--seed", "7", "--format", "endoh1")
    assert code == 0 and (parse_endoh1(out)[0] == field).all()
    for argv, words in [(["--mines", "81"], "do not fit"), (["--mines", "3", "--first", "10,1"], "outside"),
                        ([], "--mines N or a mine probability"), (["--mines", "2", "--format", "legup"], "not a classic format")]:
        code, _, err = run("generate", "9", "9", "--classic", *argv)
        assert code == 2 and words in err, err
    code, _, err = run("generate", "9", "9", "20", "--classic", "--mines", "10")
    assert code == 2 and "not both" in err, err
    code, _, err = run("generate", "1", "3", "--classic", "--mines", "1", "--first", "1,2", "--first-click", "safe", "--no-guess")
    assert code == 2 and "needs one" in err
    code, _, err = run("generate", "9", "9", "20", "--no-guess")
    assert code == 2 and "--classic" in err


@pytest.mark.parametrize("rows, cols, mines", [(1, 12, 2), (12, 1, 2), (2, 9, 3), (9, 9, 10)])
def test_generate_classic_outputs_read_back_as_what_they_are(tmp_path, rows, cols, mines):
    """Each output of `generate --classic` is read back as itself: the board (its '# mines:' line
    marks it) as `--classic` reads it, and by play on the field its header's command makes; the
    Mines game ID and the endoh1 map converted back to the planted field and played on it, and
    refused by solve, count and explain (they are whole fields)."""
    from recon.cli import _game_of, build_parser

    size = [str(rows), str(cols), "--classic", "--mines", str(mines), "--seed", "5"]
    board, planted = tmp_path / "board.txt", tmp_path / "field.txt"
    assert run("generate", *size, "--out", str(board), "--field", str(planted))[0] == 0
    field = parse_field(planted.read_text())
    for extra in ([], ["--classic"]):
        code, out, _ = run("solve", str(board), *extra, "--max-solutions", "100000", "--json")
        solutions = json.loads(out)["solutions"]
        assert code in (0, 3) and ["".join("x" if v else "_" for v in row) for row in field] in solutions
        assert all(sum(row.count("x") for row in s) == mines for s in solutions)
    for fmt, what in (("mines", "a Tatham Mines game ID"), ("endoh1", "an endoh1 map")):
        given = tmp_path / f"{fmt}.txt"
        assert run("generate", *size, "--format", fmt, "--out", str(given))[0] == 0
        code, out, _ = run("convert", str(given), "--format", "field")
        assert code == 0 and (parse_field(out) == field).all()
        code, out, err = run("convert", str(board), "--format", "field")  # a board's mines are hidden
        assert code == 2 and "board.txt:1:1: expected an endoh1 map" in err and "Mines game ID" in err
        for command in (["solve"], ["count"], ["explain"], ["convert", "--format", "mosaic"]):
            code, out, err = run(command[0], str(given), *command[1:])
            assert code == 2 and not out and f"{fmt}.txt:1:1: expected a status or a classic board, got {what}" in err
        assert (_game_of(build_parser().parse_args(["play", str(given)])).field == field).all()
    assert (_game_of(build_parser().parse_args(["play", str(planted)])).field == field).all()
    assert (_game_of(build_parser().parse_args(["play", str(board)])).field == field).all()  # its header's field


@pytest.mark.parametrize("text, line, col, words, as_map", [
    ("3 2 2\n0 1 2\n3 4 4\n", 2, 1, "(a permutation), got repeats", True),
    ("3 2 2\n0 1 2\n3 4 9\n", 3, 5, "a number 0-5 (a cell's place in the order), got '9'", True),
    ("3 2 2\n0 1 2\n3 4\n", 3, 3, "expected 6 numbers (3x2) after the header, got 5", True),
    ("3 2 2\n0 1 2\n3 4 5 0\n", 3, 7, "expected 6 numbers (3x2) after the header, got 7", True),
    ("3 2 7\n0 1 2\n3 4 5\n", 1, 5, "expected at most 6 mines, got 7", True),
    ("0 2 0\n", 1, 1, "expected a map of at least 1x1, got 0x2", True),
    # headers play cannot tell for a map's (it reads a field then): convert still says what is wrong
    ("3 2\n2 0 1 2\n3 4 5\n", 1, 1, "'W H C' (width, height, mines) on its first line", False),
    ("3 x 2\n0 1 2\n3 4 5\n", 1, 3, "expected a whole number (W, H or C of the endoh1 map), got 'x'", False),
])
def test_a_broken_endoh1_map_is_refused_where_it_breaks(tmp_path, text, line, col, words, as_map):
    """The issue's bad input: a map whose numbers are not a permutation of 0..W*H-1 (or that is
    otherwise broken) exits 2 naming its file, line and column, from `recon play` and from
    `recon convert`; `play` reads a broken map as a map, not as a field."""
    from recon.io.classic import looks_like_endoh1
    from recon.io.text import FormatError

    path = tmp_path / "map.txt"
    path.write_text(text)
    with pytest.raises(FormatError) as caught:
        parse_endoh1(text, str(path))
    assert (caught.value.line, caught.value.col) == (line, col) and words in caught.value.message
    assert looks_like_endoh1(text) == as_map
    playable = as_map and importlib.util.find_spec("textual") is not None  # (without it, play says so first)
    for command in ([["play", str(path)]] if playable else []) + [["convert", str(path), "--format", "field"]]:
        code, _, err = run(*command)
        assert code == 2 and f"map.txt:{line}:{col}: " in err and words in err, (command, err)


@pytest.mark.parametrize("text, shape", [("1 5 2\n4\n3\n2\n1\n0\n", (5, 1)), ("5 1 2\n4 3 2 1 0\n", (1, 5)),
                                         ("2 3 2\n5 0\n4 1\n3 2\n", (3, 2)), ("1 1 0\n0\n", (1, 1))])
def test_endoh1_maps_of_every_shape_read_as_maps(text, shape):
    """Strips, a 2-wide map and a 1x1 map (whose numbers are all 0 or 1) read as maps: the cells
    numbered below C are the mines."""
    from recon.io.classic import is_endoh1, looks_like_endoh1

    field, mines = parse_endoh1(text)
    numbers = np.array(text.split()[3:], dtype=int).reshape(shape)
    assert field.shape == shape and (field == (numbers < mines)).all() and mines == int(text.split()[2])
    assert is_endoh1(text) and (looks_like_endoh1(text) or shape == (1, 1))


def test_play_still_reads_fields_of_ones_and_zeros():
    """A field written 1/0 is all whole numbers too, but no number above 1: not a map."""
    from recon.io.classic import looks_like_endoh1

    assert not looks_like_endoh1("1 0 1\n0 1 0\n") and not looks_like_endoh1("101\n010\n")
    assert looks_like_endoh1("3 2 2\n0 1 2\n3 4 4\n")


@pytest.mark.parametrize("text, col, words", [
    ("3x2n2:0,0,u20", 5, "expected 2 mines in the layout (the ID's n2), got 1"),
    ("3x2n1:3,0,u20", 7, "expected a first click inside the 3x2 board (x 0-2, y 0-1), got (3,0)"),
    ("3x2n1:0,2,u20", 7, "got (0,2)"),
    ("3x2n1:2,0,u20", 7, "expected a first click on a cell without a mine, got (2,0)"),
    ("3x2n1:0,0,u2", 12, "expected 2 hex digits for 3x2 cells, got 1"),
    ("3x2n1:0,0,u2g", 1, "expected a Tatham Mines game ID 'WxH:x,y,m<hex>'"),
    ("3x2:0,0,m2", 10, "expected 2 hex digits for 3x2 cells, got 1"),  # his own form: masked, no count
])
def test_a_broken_mines_id_is_refused_where_it_breaks(tmp_path, text, col, words):
    """A Tatham Mines game ID whose mine count, first click or layout does not hold: exit 2 from
    recon play, naming the column; the same ID mended plays (is read)."""
    from recon.io.text import FormatError

    with pytest.raises(FormatError) as caught:
        parse_mines_id(text, "id.txt")
    assert (caught.value.line, caught.value.col) == (1, col) and words in caught.value.message
    field, first = parse_mines_id("3x2n1:0,0,u20")
    assert first == (0, 0) and field.tolist() == [[False, False, True], [False, False, False]]
    pytest.importorskip("textual")  # (without it, play says so first)
    path = tmp_path / "id.txt"
    path.write_text(text + "\n")
    code, _, err = run("play", str(path))
    assert code == 2 and f"id.txt:1:{col}: " in err and words in err, err


def test_mines_ids_as_tatham_s_mines_shows_them_read_as_his_own_code_reads_them(tmp_path):
    """His IDs mask the layout and leave out the mine count. tests/data/tatham_mines_ids.txt holds
    six made by his generator, of 16 to 480 cells (bits past a whole byte 0, 1 and 3), each with
    the mines and the grid after the first click that his new_game gives: recon reads the same."""
    from pathlib import Path

    from recon.io.classic import COVERED

    blocks = []
    for line in (Path(__file__).parent / "data" / "tatham_mines_ids.txt").read_text().splitlines():
        if line.startswith("#"):
            continue
        if ":" in line:
            blocks.append((line, []))
        else:
            blocks[-1][1].append(line.split(" "))
    assert len(blocks) == 6
    for text, rows in blocks:
        field, first = parse_mines_id(text)
        assert field.tolist() == [[ch == "*" for ch in mines] for mines, _ in rows], text
        sweeper = Sweeper(field)
        sweeper.open(*first)
        shown = ["".join("?" if v == COVERED else str(v) for v in row) for row in sweeper.board_cells()]
        assert shown == [grid.replace("F", "?") for _, grid in rows], text
    path = tmp_path / "his.txt"
    path.write_text(blocks[0][0] + "\n")
    code, out, err = run("convert", str(path), "--format", "field")
    assert code == 0 and parse_field(out).tolist() == parse_mines_id(blocks[0][0])[0].tolist(), err


@given(st.integers(1, 200), st.data())
@settings(max_examples=60, deadline=None)
def test_masking_a_layout_is_undone_by_unmasking_it(bits, data):
    """Tatham's obfuscate_bitmap: decoding undoes encoding, keeps the length, and clears the pad
    bits past the layout; a masked layout is not the layout (two bytes or more)."""
    from recon.io.classic import mask_layout

    size = -(-bits // 8)
    layout = bytearray(data.draw(st.binary(min_size=size, max_size=size)))
    if bits % 8:
        layout[-1] &= 0xFF & (0xFF00 >> (bits % 8))
    masked = mask_layout(bytes(layout), bits, decode=False)
    assert len(masked) == size and mask_layout(masked, bits, decode=True) == bytes(layout)
    if bits % 8:
        assert masked[-1] & (0xFF >> (bits % 8)) == 0
    if size >= 2 and any(layout):
        assert masked != bytes(layout)


@pytest.mark.parametrize("rows, cols", [(60, 60), (2, 400), (400, 2)])
def test_no_guess_generation_past_its_time_limit_is_undecided(rows, cols):
    """A time limit that runs out gives exit 4 and says so, with no board printed: never a board
    that was not certified."""
    code, out, err = run("generate", str(rows), str(cols), "--classic", "--mines", str(rows * cols // 5), "--no-guess",
                         "--first-click", "safe", "--seed", "1", "--time-limit", "0.001")  # seed 1: a field that needs perturbing
    assert code == 4 and out == "" and "no no-guess board within the time limit of 0.001 s" in err, err


def _board_game(path, *extra):
    from recon.cli import _game_of, build_parser

    return _game_of(build_parser().parse_args(["play", str(path), *extra]))


@pytest.mark.parametrize("rows, cols, mines, no_guess", [(1, 12, 2, False), (12, 1, 2, False), (2, 9, 3, False),
                                                         (9, 9, 10, False), (16, 30, 99, True), (9, 3, 4, True)])
def test_play_goes_on_from_a_board_where_it_stands(tmp_path, rows, cols, mines, no_guess):
    """`recon play BOARD` on what `generate --classic` writes: with its header, on the field it was
    made from (a no-guess board stays no-guess); without, on a field drawn from those that fit its
    numbers and total. Either way the game starts with the board's cells open and showing its
    numbers, no guess counted; the one click that opens those cells is found, so the game's Mines
    ID plays the same position; `n` draws the covered mines again."""
    board, planted = tmp_path / "board.txt", tmp_path / "field.txt"
    code, _, _ = run("generate", str(rows), str(cols), "--classic", "--mines", str(mines), "--seed", "4",
                     *(["--no-guess"] if no_guess else []), "--out", str(board), "--field", str(planted))
    assert code == 0
    made = _board_game(board)
    assert not made.drawn and (made.field == parse_field(planted.read_text())).all()
    cells, total = parse_board(board.read_text())
    opened = cells >= 0
    assert total == mines and (made.opened == opened).all()
    bare = tmp_path / "bare.txt"  # the header's command gone: the mines are drawn
    bare.write_text("".join(line for line in board.read_text().splitlines(True) if "recon generate" not in line))
    for seed in ("1", "2"):
        game = _board_game(bare, "--seed", seed)
        assert game.drawn and game.guesses == 0 and game.state in ("playing", "won")
        assert (game.opened == opened).all() and (game.board_cells()[opened] == cells[opened]).all()
        assert int(game.field.sum()) == mines and not game.field[opened].any()
        assert (numbers_of(game.field)[opened] == cells[opened]).all()
        replay = tmp_path / "id.txt"
        replay.write_text(game.board_id())
        again = _board_game(replay)
        assert (again.field == game.field).all() and (again.opened == opened).all()
        following = game.again()
        assert following.seed == game.seed + 1 and (following.opened == opened).all()
        assert (numbers_of(following.field)[opened] == cells[opened]).all()
    if rows * cols >= 27:  # on a strip another seed's field can show the same board
        edited = tmp_path / "edited.txt"  # a header whose field does not show this board: drawn too
        edited.write_text(board.read_text().replace("--seed 4", "--seed 5"))
        assert _board_game(edited).drawn


def test_a_board_keeps_its_flags_and_auto_mode_plays_on_from_it(tmp_path):
    field = np.zeros((4, 7), dtype=bool)
    field[0, 3] = field[3, 6] = field[2, 1] = True
    cells = np.full(field.shape, -1, dtype=np.int8)
    cells[:, :3] = numbers_of(field)[:, :3]
    cells[2, 1] = -1
    cells[0, 3] = -2  # the player's flag, a known mine
    path = tmp_path / "b.txt"
    path.write_text("# mines: 3\n" + format_board(cells))
    game = _board_game(path, "--seed", "3")
    assert game.flags[0, 3] and game.field[0, 3] and game.mines_left == 2
    assert (numbers_of(game.field)[cells >= 0] == cells[cells >= 0]).all()
    auto = _board_game(path, "--seed", "3", "--auto")
    assert auto.opened.sum() > game.opened.sum() and (auto.field == game.field).all()


@pytest.mark.parametrize("text, extra, words", [
    ("1?\n??\n", [], "b.txt: a board to play needs its number of mines: a '# mines: N' line, or --mines N"),
    ("# mines: 2\n1?\n??\n", [], "b.txt: no field fits the board: its numbers, flags and total of 2 mines cannot"),
    ("# mines: 0\n010\n000\n", [], "b.txt: no field fits the board"),  # a number beside no covered cell
    ("# mines: 1\n1*\n2?\n", [], "b.txt: no field fits the board"),
    ("1?\n??\n", ["--mines", "5"], "b.txt: the total of 5 mines cannot be met: the board has 0 flagged and 3"),
    ("# mines: 4\n??\n??\n", [], "b.txt: every cell is a mine: there is nothing to open"),
    ("# mines: 1\n1?\n??\n", ["--no-guess"], "--no-guess makes a new board: it does not apply to FILE"),
    ("# mines: 5\n???\n???\n", [], "5 mines do not fit: the first click keeps its 3x3 window free"),  # a new game
])
def test_a_board_that_cannot_be_played_is_refused(tmp_path, text, extra, words):
    pytest.importorskip("textual")  # (without it, play says so first)
    path = tmp_path / "b.txt"
    path.write_text(text)
    code, out, err = run("play", str(path), *extra)
    assert code == 2 and not out and words in err


def test_a_board_with_nothing_open_is_a_new_game_and_too_many_fields_are_undecided(tmp_path, monkeypatch):
    from recon.play import game as game_module

    path = tmp_path / "b.txt"
    path.write_text("????\n" * 4)
    game = _board_game(path, "--mines", "2")
    assert game.state == "ready" and game.shape == (4, 4) and game.mines == 2 and not game.drawn
    path.write_text("# mines: 3\n?11?\n????\n????\n????\n")  # one group of three super cells
    assert _board_game(path).drawn
    monkeypatch.setattr(game_module, "DRAW_NODES", 1)
    pytest.importorskip("textual")
    code, out, err = run("play", str(path))
    assert code == 4 and not out and "too many fields to draw one exactly: no game" in err


def _games(rng, shapes, per_shape):
    """Fields of several shapes and densities, each with a first click at a random free cell."""
    for shape in shapes:
        for _ in range(per_shape):
            cells = shape[0] * shape[1]
            mines = int(rng.integers(1, max(2, int(cells * rng.uniform(0.08, 0.3)))))
            first = (int(rng.integers(shape[0])), int(rng.integers(shape[1])))
            yield draw_field(*shape, mines, rng, first, zero=False), mines, first


def _guess(sweeper: Sweeper, rng) -> bool:
    """Open a covered safe cell at random, as a lucky guess; False when none is left."""
    safe = np.flatnonzero(~sweeper.opened.ravel() & ~sweeper.field.ravel())
    if not len(safe):
        return False
    assert sweeper.open(*divmod(int(safe[rng.integers(len(safe))]), sweeper.cols))
    return True


SWEEP_SHAPES = [(1, 40), (40, 1), (2, 30), (30, 2), (3, 17), (9, 9), (16, 30), (41, 37)]


def test_the_compiled_rules_open_and_mark_what_the_python_rules_do():
    """`sweep_fixed` (the single and pairwise rules compiled, opening what they prove safe) ends
    where the Python player's rules end (a player told no total and running no elimination),
    from first clicks and from boards after lucky guesses, with known mines among them."""
    pytest.importorskip("numba")
    from recon.compiled.pairwise import sweep_fixed

    rng = np.random.default_rng(41)
    grew = 0
    for field, _, first in _games(rng, SWEEP_SHAPES, 6):
        sweeper = Sweeper(field, None, elimination=False)
        sweeper.open(*first)
        for _ in range(4):
            before = sweeper.opened.copy(), sweeper.known().copy()
            opened, known = sweep_fixed(numbers_of(field), *before)
            sweeper.advance()
            assert np.array_equal(opened, sweeper.opened), (field.shape, first)
            assert np.array_equal(known, sweeper.known()), (field.shape, first)
            assert np.array_equal(known == 1, sweeper.flagged)
            grew += int(opened.sum()) > int(before[0].sum())
            if not _guess(sweeper, rng):
                break
    assert grew >= 25  # the rules opened cells: the comparison means something


def test_a_player_with_the_compiled_cascade_plays_the_same_games():
    """The whole player (the total and elimination too) with the compiled cascade on from the first
    cell opens and marks what it does without, move after move."""
    pytest.importorskip("numba")
    from recon.compiled.pairwise import sweep_fixed

    rng = np.random.default_rng(42)
    for field, mines, first in _games(rng, SWEEP_SHAPES, 4):
        plain = Sweeper(field, mines)
        fast = Sweeper(field, mines, cascade=sweep_fixed, cascade_cells=0)
        for sweeper in (plain, fast):
            sweeper.open(*first)
        while True:
            assert plain.advance() == fast.advance()
            assert np.array_equal(plain.opened, fast.opened) and np.array_equal(plain.flagged, fast.flagged)
            assert np.array_equal(plain.known(), fast.known()), (field.shape, first)
            if plain.won:
                break
            state = rng.bit_generator.state
            _guess(plain, rng)
            rng.bit_generator.state = state
            _guess(fast, rng)


@given(shape=st.sampled_from([(1, 9), (9, 1), (2, 8), (8, 2), (3, 3), (6, 7)]), salt=st.integers(0, 2**32 - 1),
       density=st.integers(0, 50), shown=st.integers(5, 95), found=st.integers(0, 100))
@settings(max_examples=150, deadline=None)
def test_the_compiled_rules_match_the_python_rules_from_any_board(shape, salt, density, shown, found):
    """From any board true to its field (any safe cells open, zeros or not, any mines known), the
    compiled rules open and mark what the Python player's rules do (resumed there, told no total,
    no elimination)."""
    pytest.importorskip("numba")
    from recon.compiled.pairwise import sweep_fixed

    rng = np.random.default_rng(salt)
    field = rng.random(shape) < density / 100
    opened = ~field & (rng.random(shape) < shown / 100)
    flagged = field & (rng.random(shape) < found / 100)
    sweeper = Sweeper(field, None, elimination=False)
    sweeper.opened[...], sweeper.flagged[...] = opened, flagged
    sweeper.rebuild()  # the board as it stands, before an opened zero opens its neighbours
    opened_after, known = sweep_fixed(numbers_of(field), opened, sweeper.known())
    sweeper.resume(opened, flagged)
    sweeper.advance()
    assert np.array_equal(opened_after, sweeper.opened) and np.array_equal(known, sweeper.known())
    assert not (opened_after & field).any() and not ((known == 1) & ~field).any()


def test_the_compiled_rules_refuse_numbers_that_contradict_each_other():
    pytest.importorskip("numba")
    from recon.compiled.pairwise import sweep_fixed
    from recon.model import OPEN

    opened = np.array([[True, False, False]])
    known = np.array([[0, OPEN, OPEN]], dtype=np.int8)
    with pytest.raises(ValueError, match="contradict"):
        sweep_fixed(np.array([[2, 0, 0]]), opened, known)  # 2 mines beside a corner with 1 neighbour
    assert sweep_fixed(np.array([[1, 0, 0]]), opened, known)[1].tolist() == [[0, 1, OPEN]]


@pytest.mark.parametrize("shape, mines", [((1, 30), 4), ((30, 1), 4), ((2, 25), 8), ((25, 2), 8), ((12, 12), 25),
                                          ((16, 30), 99)])
def test_no_guess_boards_are_the_same_with_the_compiled_rules(shape, mines):
    """The same seed makes the same no-guess board whether the player's rules run compiled (here
    at every move, `player_rules` from 0 cells) or in Python: the numba extra changes no board."""
    pytest.importorskip("numba")
    from recon import compiled
    from recon.generation.classic import player_rules

    compiled.load()
    rules = player_rules(shape, 0)
    assert rules and rules["cascade_cells"] == 0
    first = (shape[0] // 2, shape[1] // 2)
    for seed in range(3):
        plain, stats = no_guess_field(*shape, mines, np.random.default_rng(seed), first)
        fast, fast_stats = no_guess_field(*shape, mines, np.random.default_rng(seed), first, rules=rules)
        assert np.array_equal(plain, fast) and stats == fast_stats, (shape, seed)
