"""`recon play` (the game behind it, and the Textual app driven headless by its pilot) and `recon
autoplay`."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recon.play.autoplay import game_fields, play_field, play_games, play_one, wilson
from recon.play.game import Game
from test_classic import SHARED, neighbours, run


def test_the_first_click_is_safe_and_opens_a_region():
    for seed in range(10):
        game = Game.new(9, 9, 10, seed=seed)
        game.open(4, 4)
        assert game.state in ("playing", "won") and not game.field[3:6, 3:6].any()
        assert game.opened.sum() >= 9 and int(game.field.sum()) == 10


@pytest.mark.parametrize("shape", [(1, 9), (9, 1), (2, 7), (7, 2), (9, 9)])
def test_a_board_id_replays_the_game_from_its_first_click(shape):
    """board_id: the board as played (a mine under a given field's first click gone) with its
    first click, read back by the Mines ID reader into a game that opens what the first did."""
    from recon.io.classic import parse_mines_id

    rng = np.random.default_rng(sum(shape))
    for trial in range(10):
        field = rng.random(shape) < 0.3
        first = tuple(int(v) for v in rng.integers(0, shape))
        game = Game(field, int(field.sum())) if trial % 2 else Game.new(*shape, int(field.sum()) // 2, seed=trial)
        assert game.board_id() is None
        game.open(*first)
        if game.state == "ready":  # no board could start here
            continue
        played, at = parse_mines_id(game.board_id())
        assert at == first and (played == game.field).all() and int(played.sum()) == game.mines
        again = Game(played, int(played.sum()), first=at)
        assert (again.opened == game.opened).all() and again.state == game.state


def test_a_given_field_loses_the_mine_under_the_first_click():
    field = np.zeros((3, 4), dtype=bool)
    field[0, 0] = field[2, 3] = True
    game = Game(field, 2)
    game.open(0, 0)
    assert game.mines == 1 and not game.field[0, 0] and game.state == "won"  # the zero opened all the rest


def test_auto_mode_wins_a_no_guess_board_from_the_first_click():
    """endoh1's semi-automatic mode: on a no-guess board nothing is left for the player."""
    for seed in range(3):
        game = Game.new(9, 9, 10, seed=seed, no_guess=True, auto=True)
        game.open(4, 4)
        assert game.state == "won" and game.guesses == 0 and (game.flags == game.field).all()


def test_guesses_are_counted_and_a_mine_loses():
    field = np.zeros((2, 2), dtype=bool)
    field[1, 1] = True
    game = Game(field, 1)
    game.open(0, 0)  # shows 1: the other three cells are equally likely
    assert game.state == "playing" and game.guesses == 0
    game.open(1, 1)
    assert game.state == "lost" and game.guesses == 1 and game.blast == (1, 1)
    game = Game(field, 1)
    game.open(0, 0)
    game.open(0, 1)  # a guess that holds: 0 1 -> r1c2 shows 1 and the total leaves r2c2... still a guess
    assert game.guesses == 1 and game.state == "playing"


def _chord_positions(game: Game):
    """Each opened number with covered cells around it: (number cell, its covered neighbours)."""
    rows, cols = game.shape
    for r in range(rows):
        for c in range(cols):
            if game.opened[r, c] and game.number(r, c):
                around = [(rr, cc) for rr in range(max(r - 1, 0), min(r + 2, rows))
                          for cc in range(max(c - 1, 0), min(c + 2, cols)) if not game.opened[rr, cc]]
                if around:
                    yield (r, c), around


@pytest.mark.parametrize("shape", [(1, 12), (12, 1), (2, 9), (9, 2), (9, 9), (16, 30)])
def test_a_chord_opens_what_opening_each_neighbour_would(shape):
    """A number with all its flags placed opens its other covered neighbours, as the player
    opening them one by one would (zeros cascading); too few or too many flags do nothing; a
    wrong flag loses on a mine in that window."""
    rng = np.random.default_rng(sum(shape))
    chords = wrong = idle = 0
    for trial in range(100):
        field = rng.random(shape) < 0.2
        start = tuple(int(v) for v in np.argwhere(~field)[0]) if (~field).any() else None
        if start is None:
            continue
        game = Game(field, int(field.sum()), first=start)
        if game.state != "playing":
            continue
        for (r, c), around in _chord_positions(game):
            mines = [x for x in around if field[x]]
            safe = [x for x in around if not field[x]]
            # too few flags (none when the number needs some): nothing happens
            before = game.opened.copy()
            game.open(r, c)
            assert (game.opened == before).all() and game.state == "playing"
            idle += 1
            if safe and mines:  # a wrong flag: a safe cell flagged in place of a mine
                lost = Game(field, int(field.sum()), first=start)
                for x in mines[1:] + safe[:1]:
                    lost.toggle_flag(*x)
                lost.open(r, c)
                assert lost.state == "lost" and lost.blast in mines and lost.guesses == 1
                wrong += 1
            if not safe:
                continue
            one_by_one = Game(field, int(field.sum()), first=start)
            for x in safe:
                one_by_one.open(*x)
            for x in mines + safe[:1]:  # one flag too many: nothing happens
                game.toggle_flag(*x)
            game.open(r, c)
            assert (game.opened == before).all() and game.state == "playing"
            game.toggle_flag(*safe[0])
            game.open(r, c)
            assert (game.opened == one_by_one.opened).all() and game.state == one_by_one.state != "lost"
            chords += 1
            break
    assert chords >= 10 and wrong >= 5 and idle >= 10


def test_a_chord_is_a_guess_only_when_a_cell_it_opens_is_not_proved_safe():
    """The chord is one move: a guess when the exact count (numbers and total) leaves a cell it
    opens possibly a mine, as a plain click on that cell would be."""
    seen = {True: 0, False: 0}
    for seed in range(40):
        game = Game.new(9, 9, 12, seed=seed)
        game.open(4, 4)
        if game.state != "playing":
            continue
        p = game.probabilities()
        for (r, c), around in _chord_positions(game):
            mines = [x for x in around if game.field[x]]
            safe = [x for x in around if not game.field[x]]
            if not safe:
                continue
            guess = any(p[rr][cc] != 0 for rr, cc in safe)
            for x in mines:
                game.toggle_flag(*x)
            game.open(r, c)
            assert game.guesses == int(guess) and game.state != "lost"
            seen[guess] += 1
            break
    assert seen[True] >= 3 and seen[False] >= 3


SHAPES = [(1, 7), (7, 1), (2, 6), (6, 2), (3, 3), (5, 8)]


@settings(max_examples=300, deadline=None)
@given(shape=st.sampled_from(SHAPES), density=st.integers(0, 40), salt=st.integers(0, 2**32 - 1), auto=st.booleans(),
       moves=st.lists(st.tuples(st.sampled_from(["open", "flag", "mark", "chord"]), st.integers(0, 63)), max_size=30))
def test_any_sequence_of_moves_keeps_the_game_true_to_its_field(shape, density, salt, auto, moves):
    """Opens, chords, flags (anywhere, or on a mine as a player who knows) and auto mode in any
    order, checked after every move against the field: nothing opened is a mine, a zero's
    neighbours are open, flags lie on covered cells, a move is at most one guess, a click loses
    exactly on a mine, a chord loses exactly when as many flags as its number lie around it and one is
    wrong, a win opens every safe cell, and an ended game does not change."""
    rows, cols = shape
    field = np.random.default_rng(salt).random(shape) < density / 100
    game = Game(field, int(field.sum()), auto=auto)
    for kind, k in moves:
        state, opened, flags, guesses = game.state, game.opened.copy(), game.flags.copy(), game.guesses
        if kind == "mark" and game.field is not None:  # flag a mine not yet flagged, if any
            mines = np.argwhere(game.field & ~flags & ~opened)
            if not len(mines):
                continue
            r, c = mines[k % len(mines)]
        elif kind == "chord":  # open an opened number again, its flags as they are, right, or one wrong
            numbers = np.argwhere(opened & (neighbours(game.field) > 0)) if game.field is not None else []
            if not len(numbers):
                continue
            r, c = numbers[k % len(numbers)]
            around = [(y, x) for y in range(max(r - 1, 0), min(r + 2, rows)) for x in range(max(c - 1, 0), min(c + 2, cols))
                      if not opened[y, x]]
            right = [x for x in around if game.field[x]]
            if k // 8 % 3 and len(right) < len(around):
                chosen = right if k // 8 % 3 == 1 else right[1:] + [next(x for x in around if not game.field[x])]
                for x in around:
                    if game.flags[x] != (x in chosen):
                        game.toggle_flag(*x)
                flags = game.flags.copy()
        else:
            r, c = divmod(k % (rows * cols), cols)
        (game.toggle_flag if kind in ("flag", "mark") else game.open)(r, c)
        if state in ("won", "lost"):
            assert (game.state, game.guesses) == (state, guesses) and (game.opened == opened).all()
            continue
        played, now = game.field, game.opened  # (a mine under the first click is gone from the field)
        numbers = neighbours(played)
        assert not (now & played).any() and not (game.flags & now).any()
        assert game.guesses - guesses in (0, 1) and (now >= opened).all()
        for y, x in np.argwhere(now & (numbers == 0)):
            assert now[max(y - 1, 0): y + 2, max(x - 1, 0): x + 2].all()
        window = (slice(max(r - 1, 0), r + 2), slice(max(c - 1, 0), c + 2))
        if kind == "chord":
            placed = flags[window] & ~opened[window]
            if placed.sum() != numbers[r, c]:
                assert (now == opened).all() and game.state == "playing"
            wrong = placed.sum() == numbers[r, c] and (placed & ~played[window]).any()  # so a mine is left unflagged
            assert (game.state == "lost") == wrong and (not wrong or played[game.blast])
        elif kind == "open" and state == "playing" and not opened[r, c] and not flags[r, c]:
            assert (game.state == "lost") == bool(played[r, c]) and (game.blast == (r, c) or game.state != "lost")
        assert game.state == "lost" or (game.state == "won") == bool((now | played).all())
        if auto and game.state == "playing":  # the rules flagged only mines
            assert not (game.sweeper.flagged & ~played).any()


def test_hints_name_true_deductions():
    """A hint reads only the numbers beside a covered cell; it is the first step that trimming
    takes on the whole board, and it is true."""
    from recon.engines import trim
    from recon.io.classic import board_problem

    named = 0
    for seed in range(12):
        rows, cols, mines = [(9, 9, 12), (2, 11, 5), (11, 2, 5), (12, 14, 30)][seed % 4]
        game = Game.new(rows, cols, mines, seed=seed)
        game.open(rows // 2, cols // 2)
        hint = game.hint()
        if hint is None:
            continue
        named += 1
        assert hint["legup"] or hint["endoh1"] or hint["rule"] in ("subset", "elimination", "mine-count")
        for (r, c), v in zip(hint["cells"], hint["values"]):
            assert bool(game.field[r, c]) == bool(v)
        whole = next(step for step in trim.solve(board_problem(game.board_cells(), game.mines)).trace if step.cells)
        assert (hint["rule"], hint["cells"], hint["values"]) == (whole.rule, list(whole.cells), list(whole.values))
    assert named >= 6


@pytest.mark.parametrize("shape", [(1, 60), (60, 1), (2, 40), (24, 30)])
def test_auto_mode_on_a_large_board_runs_the_compiled_rules_and_plays_the_same_game(monkeypatch, shape):
    """From COMPILED_CELLS cells, with numba's kernels at hand, auto mode's rules run compiled
    (`sweep_fixed`); the game then opens and flags what it does with the rules in Python: a new
    game played to its end (lucky guesses between), and a game going on from a board."""
    pytest.importorskip("numba")
    from recon import compiled
    from recon.generation import classic

    compiled.load()
    mines = shape[0] * shape[1] // 6
    for seed in range(3):
        start = Game.new(*shape, mines, seed=seed)  # a board after one click, without auto mode
        start.open(shape[0] // 2, shape[1] // 2)
        seen = []
        for cells in (10**9, 0):
            monkeypatch.setattr(classic, "COMPILED_CELLS", cells)
            game = Game.new(*shape, mines, seed=seed, auto=True)
            game.open(shape[0] // 2, shape[1] // 2)
            moves = [game.opened.copy()]
            while game.state == "playing":  # a safe covered cell, the same in both
                safe = np.argwhere(~game.opened & ~game.field)
                game.open(*(int(v) for v in safe[len(safe) // 2]))
                moves.append(game.opened.copy())
            assert (game.sweeper.cascade is not None and game.sweeper.cascade_cells == 0) == (cells == 0)
            board = Game.from_board(start.board_cells(), mines, seed=seed, auto=True)
            seen.append((game.state, game.guesses, moves, board.opened.copy(), board.flags.copy()))
        (state, guesses, moves, opened, flags), (state2, guesses2, moves2, opened2, flags2) = seen
        assert (state, guesses) == (state2, guesses2) == ("won", guesses)
        assert len(moves) == len(moves2) and all(np.array_equal(a, b) for a, b in zip(moves, moves2))
        assert np.array_equal(opened, opened2) and np.array_equal(flags, flags2)


def test_in_auto_mode_a_hint_names_only_what_the_game_has_not_applied():
    """Auto mode opens and flags what its rules prove; the hint reads those flags as mines (they
    are proved), so it never names a cell already decided, and what it names is true."""
    named = 0
    for seed in range(12):
        rows, cols, mines = [(9, 9, 14), (2, 12, 6), (12, 2, 6), (8, 15, 30)][seed % 4]
        game = Game.new(rows, cols, mines, seed=seed, auto=True)
        game.open(rows // 2, cols // 2)
        for _ in range(40):
            if game.state != "playing":
                break
            hint = game.hint()
            if hint is not None:
                named += 1
                for (r, c), v in zip(hint["cells"], hint["values"]):
                    assert not game.opened[r, c] and not game.sweeper.flagged[r, c]
                    assert bool(game.field[r, c]) == bool(v)
            tip = game.suggestion()
            r, c = tip["cells"][0]
            if game.field[r, c]:  # a guess that would lose: take a safe cell instead, to play on
                r, c = map(int, np.argwhere(~game.field & ~game.opened)[0])
            game.open(r, c)
    assert named == 0  # the game's rules (with elimination) reach at least as far as the hint's


def test_when_no_rule_applies_the_suggestion_follows_the_exact_count():
    """The hint's fallback: a cell the exact count proves, or the autoplayer's guess with its
    chance of being safe, both held to recon.counting on the board shown (numbers and total)."""
    from recon.counting import count_solutions
    from recon.io.classic import board_problem

    seen = {"guess": 0, "proved": 0}
    for seed in range(40):
        rows, cols, mines = [(6, 6, 8), (2, 9, 4), (9, 2, 4), (1, 12, 3), (5, 7, 9)][seed % 5]
        game = Game.new(rows, cols, mines, seed=seed)
        game.open(rows // 2, cols // 2)
        for _ in range(30):
            if game.state != "playing":
                break
            if game.hint() is not None:  # play the deduction and look again
                step = game.hint()
                (r, c), v = step["cells"][0], step["values"][0]
                if v:
                    game.flags[r, c] = True  # a flag is not read by the deductions, only shown
                    game.sweeper.mark_mine(r, c)
                else:
                    game.open(r, c)
                continue
            tip = game.suggestion()
            counted = count_solutions(board_problem(game.sweeper.board_cells(), game.mines), probabilities=True,
                                      limit=10**6, crosscheck=False)
            (r, c), = tip["cells"]
            p = counted.probabilities[r][c]
            if tip["guess"]:
                assert f"safe with chance {1 - float(p):.0%}" in tip["text"]
                lowest = min(counted.probabilities[i][j] for i in range(rows) for j in range(cols)
                             if game.sweeper.board_cells()[i, j] == -1)
                assert lowest > 0 and p < 1
                seen["guess"] += 1
                game.open(r, c)
            else:
                assert p in (0, 1) and ("empty" in tip["text"]) == (p == 0)
                seen["proved"] += 1
                if p == 0:
                    game.open(r, c)
                else:
                    game.sweeper.mark_mine(r, c)
    assert seen["guess"] >= 10


def test_the_terminal_game_headless():
    pytest.importorskip("textual")
    from recon.play.tui import EndScreen, PlayApp

    async def scenario():
        game = Game.new(9, 9, 10, seed=1)
        app = PlayApp(game)
        async with app.run_test(size=(60, 20)) as pilot:
            await pilot.press("space")  # the first click, at the centre
            assert game.state == "playing" and game.opened[4, 4]
            await pilot.press("left", "up")
            assert app.cursor == (3, 3)
            covered = next((r, c) for r in range(9) for c in range(9) if not game.opened[r, c])
            app.cursor = covered
            await pilot.press("f")
            assert game.flags[covered] and game.mines_left == 9
            await pilot.press("f")
            assert not game.flags[covered]
            await pilot.press("h")
            assert "hint" in app.status_line() and app.shown_hint
            await pilot.press("p")
            assert "probabilities in %" in app.status_line()
            mine = tuple(np.argwhere(game.field)[0])
            await pilot.click("Board", offset=(mine[1] * 3 + 1, mine[0]))
            assert game.state == "lost" and "BOOM" in app.status_line()
            await pilot.pause()
            end = app.screen
            assert isinstance(end, EndScreen) and "Boom" in str(end.query_one("#end-head").render())
            await pilot.press("b")  # back to the board, the game still over
            assert not isinstance(app.screen, EndScreen) and app.game is game
            await pilot.press("n")  # the next game: a new field, the next seed
            assert app.game is not game and app.game.state == "ready" and app.game.seed == game.seed + 1
            await pilot.press("q")

    def one_mine(shape, mine):
        field = np.zeros(shape, dtype=bool)
        field[mine] = True
        game = Game(field, 1)
        return field, game, PlayApp(game)

    async def winning():
        field, game, app = one_mine((3, 4), (0, 0))
        async with app.run_test(size=(60, 20)) as pilot:
            app.cursor = (2, 3)
            await pilot.press("space")  # a zero: the region opens every safe cell
            await pilot.pause()
            assert game.state == "won" and isinstance(app.screen, EndScreen)
            assert "You win" in str(app.screen.query_one("#end-head").render())
            assert "1 mine," in str(app.screen.query_one("#end-summary").render())
            await pilot.press("n")  # a given board plays again as it was
            assert app.game is not game and (app.game.field == field).all() and app.game.state == "ready"
            await pilot.press("space")
            await pilot.pause()
            assert isinstance(app.screen, EndScreen)
            await pilot.press("q")  # from the end screen, q quits
            await pilot.pause()
            assert not app.is_running

    async def chording():
        _, game, app = one_mine((2, 2), (1, 1))
        async with app.run_test(size=(60, 20)) as pilot:
            app.cursor = (0, 0)
            await pilot.press("space", "down", "right", "f", "up", "left")  # r1c1 shows 1; r2c2 flagged
            assert game.opened.sum() == 1 and game.flags[1, 1] and app.cursor == (0, 0)
            await pilot.press("space")  # space on the number: its other neighbours open
            await pilot.pause()
            assert game.state == "won" and game.guesses == 1 and isinstance(app.screen, EndScreen)
            await pilot.press("q")

    asyncio.run(scenario())
    asyncio.run(winning())
    asyncio.run(chording())


def test_the_board_fits_the_terminal_or_scrolls_with_the_cursor():
    """Cells are 3, 2 or 1 characters, the widest that fits, and rows never wrap: an expert board
    in 80 columns (it wrapped into 33 lines at 3 characters a cell, with clicks landing on the
    wrong cells). A board too wide even at 1 scrolls to keep the cursor in view, draws the
    columns in view, and a click opens the cell drawn under it."""
    pytest.importorskip("textual")
    from fractions import Fraction

    from textual.geometry import Size

    from recon.play.tui import PlayApp, _percent, cell_width

    assert [cell_width(30, w) for w in (100, 90, 89, 60, 59, 30, 20)] == [3, 3, 2, 2, 1, 1, 1]
    assert [_percent(Fraction(1, 3), w) for w in (3, 2, 1)] == [" 33", " 3", "3"]
    assert [_percent(Fraction(99, 100), w) for w in (3, 2, 1)] == [" 99", " 9", "9"]
    assert [_percent(Fraction(1), w) for w in (3, 2, 1)] == ["100", " M", "M"]
    assert [_percent(Fraction(0), w) for w in (3, 2, 1)] == ["  0", " 0", "0"]

    async def expert():
        game = Game.new(16, 30, 99, seed=3)
        app = PlayApp(game)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.cell_w == 2 and app.board.virtual_size == Size(60, 16)
            await pilot.click("Board", offset=(7 * 2 + 1, 8))  # the first click: r9c8
            assert game.state in ("playing", "won") and game.opened[8, 7]
            await pilot.press("p")
            assert "probabilities in tenths" in app.status_line()
            drawn = [app.board.render_line(y).text for y in range(16)]
            assert drawn == app.board_text().plain.split("\n") and all(len(row) == 60 for row in drawn)
            await pilot.resize_terminal(120, 30)
            await pilot.pause()
            assert app.cell_w == 3 and app.board.virtual_size == Size(90, 16)
            await pilot.press("q")

    async def wide():
        field = np.zeros((12, 150), dtype=bool)
        field[::3, ::7] = True
        app = PlayApp(Game(field, int(field.sum()), seed=1))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.cell_w == 1 and app.board.virtual_size == Size(150, 12)
            app.cursor = (6, 140)
            await pilot.press("right", "right", "right", "right")
            await pilot.pause()
            view = app.query_one("#field")
            assert app.cursor == (6, 144) and view.scroll_x > 0
            assert view.scroll_x <= 144 < view.scroll_x + view.scrollable_content_region.width
            x, y = 144 - int(view.scroll_x), 6 - int(view.scroll_y)  # the cursor's cell, on the screen
            row = app.row_text(6).plain
            assert app.board.render_line(y).text == row[int(view.scroll_x):int(view.scroll_x) + view.size.width]
            await pilot.click(offset=(x, y))
            assert app.game.opened[6, 144]
            await pilot.press("q")

    asyncio.run(expert())
    asyncio.run(wide())


def test_autoplay_plays_and_reports(tmp_path):
    code, out, err = run("autoplay", "--games", "30", "--rows", "9", "--cols", "9", "--mines", "10", "--workers", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["games"] == 30 and 0 <= data["wins"] <= 30
    assert data["ci95"][0] <= data["win_rate"] <= data["ci95"][1] and data["seconds"] > 0
    # the same seed, the same games, whatever the number of workers
    again = play_games(30, 9, 9, 10, seed=0, workers=2)
    assert again["wins"] == data["wins"]
    few = play_games(5, 9, 9, 10, seed=0, workers=64, each=True)  # more workers than games: as many as games
    assert few["won_each"] == play_games(5, 9, 9, 10, seed=0, workers=1, each=True)["won_each"]


def test_a_long_run_derives_its_seeds_and_feeds_its_workers_a_chunk_at_a_time(monkeypatch):
    """The seeds are SeedSequence.spawn's children, made one at a time; games handed to the
    workers a chunk at a time (one held by each here) are the same games, won the same way, in
    the same order."""
    from recon.play import autoplay

    assert list(autoplay.game_seeds(300, 7)) == [c.generate_state(2).tolist() for c in np.random.SeedSequence(7).spawn(300)]
    one = play_games(40, 6, 7, 8, seed=3, workers=1, each=True)
    monkeypatch.setattr(autoplay, "IN_FLIGHT", 1)
    blocks = play_games(40, 6, 7, 8, seed=3, workers=2, each=True)
    assert blocks["won_each"] == one["won_each"] and blocks["guesses_per_game"] == one["guesses_per_game"]
    assert 0 < sum(one["won_each"]) < 40  # a run that tells wins from losses
    code, out, _ = run("autoplay", "--games", "12", "--rows", "8", "--cols", "8", "--mines", "10", "--no-guess", "--workers", "1", "--json")
    assert code == 0 and json.loads(out)["wins"] == 12  # a no-guess board is won every time
    for argv, words in [(["--start", "10,1", "--rows", "9", "--cols", "9", "--mines", "10"], "outside"),
                        (["--rows", "3", "--cols", "3", "--mines", "9"], "do not fit"),
                        (["--rows", "2", "--cols", "2", "--mines", "4", "--first-click", "safe"], "keeps its cell free"),
                        (["--rows", "2", "--cols", "2", "--mines", "5", "--first-click", "any"], "(4 cells)")]:
        code, _, err = run("autoplay", "--games", "1", *argv)
        assert code == 2 and words in err, err
    # a first click that may be a mine keeps no cell free: every cell a mine is a board, lost at once
    code, out, _ = run("autoplay", "--games", "3", "--rows", "2", "--cols", "2", "--mines", "4", "--first-click", "any",
                       "--workers", "1", "--json")
    assert code == 0 and json.loads(out)["wins"] == 0


@pytest.mark.parametrize("rows, cols, mines, start, first", [(9, 9, 20, (4, 4), "zero"), (2, 12, 5, (0, 0), "safe"),
                                                             (12, 1, 2, (11, 0), "safe"), (1, 15, 3, (0, 7), "zero")])
def test_a_peer_gets_the_fields_the_games_were_played_on(rows, cols, mines, start, first):
    """`game_fields` (what bench_autoplay's --peer plays) are the fields of `play_games`' games:
    the same player on them wins the same games."""
    summary = play_games(40, rows, cols, mines, start=start, first_click=first, seed=3, workers=1, each=True)
    assert summary["won_each"].count(True) == summary["wins"] and 0 < summary["wins"] < 40
    fields = list(game_fields(40, rows, cols, mines, start=start, first_click=first, seed=3))
    assert all(int(f.sum()) == mines and f.shape == (rows, cols) and not f[start] for f in fields)
    assert [play_field(f, mines, start).won for f in fields] == summary["won_each"]


def test_the_autoplayer_beats_chance_and_the_interval_holds():
    assert wilson(0, 10)[0] == 0 and wilson(10, 10)[1] == 1
    low, high = wilson(541, 1000)
    assert low < 0.541 < high and high - low < 0.07
    games = [play_one(16, 30, 99, (3, 3), "zero", False, [7, i]) for i in range(20)]
    assert 3 <= sum(g.won for g in games) <= 19  # expert: neither hopeless nor trivial


@pytest.mark.skipif(not (SHARED / "classic" / "endoh1").exists(), reason="the shared data is not beside the repository")
def test_play_reads_endoh1_maps():
    from recon.cli import _game_of, build_parser

    args = build_parser().parse_args(["play", str(SHARED / "classic" / "endoh1" / "ioccc.txt")])
    game = _game_of(args)
    assert game.field is not None and game.mines == int(game.field.sum())
    free = tuple(np.argwhere(~game.field)[0])
    game.open(*free)
    assert game.state in ("playing", "won")
    shown = game.board_cells()
    assert (shown[game.opened] == neighbours(game.field)[game.opened]).all()


def test_play_reads_tatham_mines_ids(tmp_path):
    from recon.cli import _game_of, build_parser

    path = tmp_path / "g.txt"
    code, _, _ = run("generate", "9", "9", "--classic", "--mines", "10", "--no-guess", "--seed", "2", "--format", "mines", "--out", str(path))
    game = _game_of(build_parser().parse_args(["play", str(path), "--auto"]))
    assert code == 0 and game.state == "won"  # opened at its first click; auto finishes a no-guess board


def _recon(*argv: str, **streams):
    import os
    import subprocess
    import sys

    return subprocess.Popen([sys.executable, "-m", "recon", *argv], env=dict(os.environ, TERM="xterm-256color"),
                            close_fds=True, **streams)


def _read_terminal(master: int, game, seconds: float, until: bytes | None = None) -> bytes:
    """What the game draws on its pseudo-terminal, read until `until` shows (None: until the game
    exits), the game exits, or `seconds` pass."""
    import os
    import select
    import time

    shown, deadline = b"", time.monotonic() + seconds
    while (until is None or until not in shown) and game.poll() is None and time.monotonic() < deadline:
        if select.select([master], [], [], 0.2)[0]:
            try:
                shown += os.read(master, 65536)
            except OSError:  # the child closed the terminal
                break
    while game.poll() is not None and select.select([master], [], [], 0.2)[0]:  # what it wrote as it exited
        try:
            shown += os.read(master, 65536)
        except OSError:
            break
    return shown


def test_play_without_a_terminal_says_so_and_exits_2():
    """Textual reads keys from stdin and draws on stderr; without a terminal there, the game would
    wait for ever unseen, so recon play refuses at once."""
    import subprocess

    pytest.importorskip("textual")

    game = _recon("play", "--rows", "5", "--cols", "6", "--mines", "3", stdin=subprocess.DEVNULL,
                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, err = game.communicate(timeout=60)
    assert game.returncode == 2 and b"needs a terminal on stdin and stderr" in err


@pytest.mark.skipif(not hasattr(__import__("os"), "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.parametrize("rows, cols, mines, click", [(5, 6, 3, False), (5, 6, 3, True), (2, 6, 4, True)])
def test_play_in_a_pseudo_terminal_draws_the_board_and_quits_on_q(rows, cols, mines, click):
    """The whole command, as a player starts it: the board and the status line drawn on the
    terminal, then q ends the game with status 0. Once a game started, its board goes to stdout
    as a Tatham Mines game ID, which `recon play` reads back; with more mines than his Mines takes
    (2x6 with 4: at most 3), the note on the terminal says it plays only in recon."""
    pytest.importorskip("textual")
    import os
    import subprocess

    from recon.io.classic import parse_mines_id

    master, slave = os.openpty()
    game = _recon("play", "--rows", str(rows), "--cols", str(cols), "--mines", str(mines), "--seed", "1", stdin=slave,
                  stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    try:
        shown = _read_terminal(master, game, 60, until=b"mines left %d" % mines)
        assert b"mines left %d" % mines in shown and b"click or press space to start" in shown
        if click:
            os.write(master, b" ")  # the first click, at the centre (keys are taken in order)
        os.write(master, b"q")
        after = _read_terminal(master, game, 60)
        out = game.communicate(timeout=30)[0].decode()
        assert game.returncode == 0
        if click:
            field, first = parse_mines_id(out)
            centre = (rows // 2, cols // 2)
            window = field[max(0, centre[0] - 1) : centre[0] + 2, max(0, centre[1] - 1) : centre[1] + 2]
            assert field.shape == (rows, cols) and int(field.sum()) == mines and first == centre and not window.any()
            assert (b"so it plays only in recon" in after) == (mines > rows * cols - 9)
        else:
            assert out == ""
    finally:
        game.kill()
        game.wait()  # (a game left unreaped warns in whichever test runs next)
        game.stdout.close()
        os.close(master)


def test_a_move_on_a_large_board_runs_in_a_thread_and_the_screen_stays_live():
    """From BACKGROUND_CELLS cells a click runs in a thread: the status line says what it is doing,
    the cursor moves, the keys that would change the board wait, and the move's result is the one
    the game makes when asked directly (the same seed, the same no-guess board)."""
    pytest.importorskip("textual")
    from recon.play.tui import BACKGROUND_CELLS, PlayApp

    rows, cols, mines = 100, 100, 3000  # a no-guess board that needs perturbing: about a second
    assert rows * cols >= BACKGROUND_CELLS
    direct = Game.new(rows, cols, mines, seed=1, no_guess=True)
    direct.open(50, 50)

    async def scenario():
        game = Game.new(rows, cols, mines, seed=1, no_guess=True)
        app = PlayApp(game)
        async with app.run_test(size=(80, 24)) as pilot:
            # the keys' actions as Textual runs them (asking check_action first), not the pilot's
            # key presses, which wait until the process is idle: until the thread is done
            await app.run_action("open")  # space: the first click, at the centre
            assert app.busy and "making a no-guess board from r51c51" in app.status_line()
            for action in ("flag", "probabilities", "hint", "open", "again"):
                assert not await app.run_action(action)
            assert await app.run_action("move(0, 1)")
            assert app.cursor == (50, 51) and not app.show_probabilities and app.shown_hint is None
            assert game.state == "ready" and not game.flags.any()
            for _ in range(1200):
                if app.busy is None:
                    break
                await pilot.pause(0.1)
            assert app.busy is None and "making" not in app.status_line()
            assert game.state == "playing" and (game.field == direct.field).all() and game.opened[50, 50]
            assert (game.opened == direct.opened).all()
            await pilot.press("q")

    asyncio.run(scenario())


def test_a_large_board_is_drawn_again_in_a_thread():
    """`n` after a board's game draws its covered mines again (1.4 s on 1000x1000): from
    BACKGROUND_CELLS cells in a thread, the status line saying so while the cursor moves and the
    board's keys wait, then the next game is the one the board gives with the next seed."""
    pytest.importorskip("textual")
    import threading

    from recon.play.tui import BACKGROUND_CELLS, PlayApp

    released = threading.Event()

    class Held(Game):  # the draw waits until the test has looked at the screen
        def again(self):
            assert released.wait(30)
            return super().again()

    first = Game.new(100, 100, 1500, seed=2)
    first.open(50, 50)
    cells = np.where(first.opened, neighbours(first.field), -1)
    game = Held.from_board(cells, 1500, seed=7)
    assert game.rows * game.cols >= BACKGROUND_CELLS and game.drawn
    game.open(*np.argwhere(game.field & ~game.opened)[0])  # a mine: the end screen shows at once
    assert game.state == "lost"

    async def scenario():
        app = PlayApp(game)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("n")  # on the end screen
            assert app.busy and "drawing the board's mines again" in app.status_line() and app.game is game
            assert not await app.run_action("open") and await app.run_action("move(0, 1)")
            released.set()
            for _ in range(300):
                if app.busy is None:
                    break
                await pilot.pause(0.05)
            assert app.busy is None and app.game is not game and app.game.state == "playing"
            assert app.cursor == (50, 50) and "drawing" not in app.status_line()
            await pilot.press("q")
        return app.game

    following = asyncio.run(scenario())
    direct = Game.from_board(cells, 1500, seed=8)
    assert following.seed == 8 and following.drawn and (following.field == direct.field).all()
    assert (following.opened == direct.opened).all() and (following.opened == (cells >= 0)).all()


def test_an_error_in_a_move_thread_ends_the_game_and_is_raised_again():
    """A bug in a move run in a thread is not lost with the thread: the screen closes and
    `run_game` raises it, so that the command line reports an internal error (exit 70)."""
    pytest.importorskip("textual")
    from recon.play.tui import BACKGROUND_CELLS, PlayApp

    class Broken(Game):
        def open(self, r, c):
            raise ValueError("a bug")

    async def scenario():
        app = PlayApp(Broken.new(1, BACKGROUND_CELLS, 10, seed=1))
        async with app.run_test(size=(80, 24)) as pilot:
            app.action_open()
            for _ in range(100):
                if not app.is_running:
                    break
                await pilot.pause(0.05)
        return app

    app = asyncio.run(scenario())
    assert isinstance(app.error, ValueError) and str(app.error) == "a bug" and app.busy is None


@pytest.mark.skipif(not hasattr(__import__("os"), "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.parametrize("how, code, words", [("q", 0, None), ("SIGTERM", 143, b"recon: terminated")])
def test_q_quits_while_a_large_no_guess_board_is_being_made(how, code, words):
    """A 300x300 no-guess board at 30 % takes over half a minute to make; the screen says so, and
    q ends the game at once (it waited for the board, with no word on the screen), printing no
    board, since none was played, and exiting 0 (Python's shutdown under the running thread once
    aborted the process: SIGABRT, -6). SIGTERM too ends it at once, saying so, with 128 + 15."""
    pytest.importorskip("textual")
    import os
    import signal
    import subprocess
    import time

    master, slave = os.openpty()
    game = _recon("play", "--rows", "300", "--cols", "300", "--mines", "27000", "--no-guess", "--seed", "3",
                  stdin=slave, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    try:
        start = b"click or press space to start"
        assert start in _read_terminal(master, game, 60, until=start)
        os.write(master, b" ")
        making = b"making a no-guess board from r151c151"
        assert making in _read_terminal(master, game, 60, until=making)
        if how == "q":
            os.write(master, b"q")
        else:
            game.send_signal(getattr(signal, how))
        asked = time.monotonic()
        shown = _read_terminal(master, game, 15)
        out = game.communicate(timeout=60)[0].decode()
        assert time.monotonic() - asked < 15, f"{how} waited for the board"
        assert game.returncode == code and out == ""
        assert words is None or words in shown
    finally:
        game.kill()
        game.wait()  # (a game left unreaped warns in whichever test runs next)
        game.stdout.close()
        os.close(master)


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name != "posix", reason="needs POSIX signals")
def test_sigterm_ends_the_game_only_where_the_app_is_asked_to_take_it():
    """run_game's screen takes SIGTERM on its event loop and ends the game, saying so; a screen not
    asked to (a test's pilot, a program that embeds it) leaves the process's handler to it."""
    pytest.importorskip("textual")
    from recon.play.tui import PlayApp

    seen = []
    previous = signal.signal(signal.SIGTERM, lambda *_: seen.append("the process's handler"))

    async def scenario(take: bool):
        app = PlayApp(Game.new(9, 9, 10, seed=1), take_sigterm=take)
        async with app.run_test(size=(80, 24)) as pilot:
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(100):
                await pilot.pause(0.02)
                if app.terminated or seen:
                    break
            running = app.is_running
        return app.terminated, running

    try:
        assert asyncio.run(scenario(False)) == (False, True) and seen == ["the process's handler"]
        signal.signal(signal.SIGTERM, lambda *_: seen.append("the process's handler"))
        terminated, _ = asyncio.run(scenario(True))
        assert terminated and seen == ["the process's handler"]  # (the loop's handler ran, not it)
    finally:
        signal.signal(signal.SIGTERM, previous)


@pytest.mark.skipif(not __import__("os").path.exists("/proc/self/task"), reason="reads the workers off Linux's /proc")
@pytest.mark.parametrize("signal_name, code, words", [("SIGTERM", 143, "recon: terminated"), ("SIGINT", 130, "recon: interrupted")])
def test_autoplay_stops_at_once_on_a_signal_and_leaves_no_worker(signal_name, code, words):
    """A long run told to stop (SIGTERM from `timeout`, Ctrl-C) exits within seconds, its worker
    processes gone; with a process pool executor it had waited until every queued game was played."""
    import signal
    import subprocess
    import time
    from pathlib import Path

    run_ = _recon("autoplay", "--games", "20000", "--rows", "16", "--cols", "30", "--mines", "99", "--workers", "2",
                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        children, deadline = [], time.monotonic() + 30
        while len(children) < 2 and time.monotonic() < deadline:  # the pool's workers have started
            time.sleep(0.1)
            children = [int(p) for p in Path(f"/proc/{run_.pid}/task/{run_.pid}/children").read_text().split()]
        time.sleep(1)  # games under way
        run_.send_signal(getattr(signal, signal_name))
        _, err = run_.communicate(timeout=20)
    finally:
        run_.kill()
        run_.wait()
    assert run_.returncode == code and words in err.decode(), err
    time.sleep(0.5)
    for child in children:
        state = Path(f"/proc/{child}/stat").read_text().split()[2] if Path(f"/proc/{child}/stat").exists() else "gone"
        assert state in ("gone", "Z"), (child, state)


def test_autoplay_that_fails_at_once_on_two_workers_ends_every_time():
    """A run whose first game fails (no board can be made) stops while the other worker may still
    be starting or sending its answer. With multiprocessing's Pool that hung now and then for ever
    (its terminate waited on a lock a killed worker held, or on a worker whose SIGTERM came
    before its handler was reset): 200 such runs, in one process as the command line runs them,
    must all end."""
    import subprocess
    import sys

    script = (
        "import contextlib, io\n"
        "from recon.cli import main\n"
        "for _ in range(200):\n"
        "    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        "        assert main(['autoplay', '--games', '4', '--rows', '2', '--cols', '10', '--mines', '9', '--no-guess',\n"
        "                     '--first-click', 'safe', '--start', '1,1', '--workers', '2']) == 2\n"
        "print('ended')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ended", done.stderr[-2000:]


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="kills a worker with SIGKILL")
@pytest.mark.parametrize("as_json", [False, True])
def test_autoplay_says_so_when_a_worker_dies(as_json):
    """A worker killed from outside (as by the kernel's out-of-memory killer) ends the run as if
    the command had been killed by that signal (137), with the games finished reported; a pool
    would have waited for that worker's games for ever."""
    import multiprocessing
    import threading

    def kill_one():
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            children = multiprocessing.active_children()
            if children:
                os.kill(children[0].pid, signal.SIGKILL)
                return
            time.sleep(0.05)

    killer = threading.Timer(1.5, kill_one)
    killer.start()
    try:
        code, out, err = run("autoplay", "--games", "200000", "--rows", "9", "--cols", "9", "--mines", "10",
                             "--workers", "2", *(["--json"] if as_json else []))
    finally:
        killer.cancel()
    assert code == 128 + signal.SIGKILL and "an autoplay worker died (killed by signal 9)" in err, err
    assert "stopped after" in err and "of 200000 games; their report follows" in err
    if as_json:
        report = json.loads(out)
        assert report["interrupted"] and 0 < report["games"] < 200000
    else:
        assert " games won: " in out


def test_autoplay_of_no_guess_boards_that_cannot_be_made_says_so():
    """--no-guess asks the generator for every game: where no board can exist (proved) that is
    exit 2, where none was found exit 4 (undecided), each with the generator's reason; it had
    ended in an internal error (exit 70)."""
    code, out, err = run("autoplay", "--games", "4", "--rows", "1", "--cols", "3", "--mines", "1", "--no-guess",
                         "--first-click", "safe", "--start", "1,2", "--workers", "1")
    assert code == 2 and not out and "no 1x3 board with 1 mine can be finished without a guess from r1c2" in err, err
    code, out, err = run("autoplay", "--games", "4", "--rows", "2", "--cols", "10", "--mines", "9", "--no-guess",
                         "--first-click", "safe", "--start", "1,1", "--workers", "2")
    assert code == 2 and not out and "odd number of mines (9)" in err, err  # proved: none exists
    # 245,157 fields, too many to try each: the search over what the player sees proves it
    code, out, err = run("autoplay", "--games", "4", "--rows", "3", "--cols", "8", "--mines", "16", "--no-guess",
                         "--first-click", "safe", "--start", "2,4", "--workers", "2")
    assert code == 2 and not out and "no 3x8 board with 16 mines can be finished without a guess from r2c4" in err, err


def test_autoplay_of_no_guess_boards_none_found_is_undecided(monkeypatch):
    """Where the generator finds none and proves nothing (its search's runs spent: a board with
    more ways than that, which no quick test reaches, so the generator's own failure is raised
    here), autoplay stops with exit 4 and the reason, and reports nothing."""
    from recon.generation import GenerationFailed
    from recon.play import autoplay

    def failed(rows, cols, mines, *args, **kwargs):
        raise GenerationFailed(f"no no-guess {rows}x{cols} board with {mines} mines was found")

    monkeypatch.setattr(autoplay, "no_guess_field", failed)
    code, out, err = run("autoplay", "--games", "4", "--rows", "9", "--cols", "9", "--mines", "10", "--no-guess",
                         "--workers", "1")
    assert code == 4 and not out and "no no-guess 9x9 board with 10 mines was found; the run stops" in err, err


def test_a_first_click_with_no_no_guess_board_says_why_and_the_game_waits():
    """A no-guess game makes its board at the first click; where none can exist from that cell the
    game stays ready and says why (it had ended in a traceback), in the status line too, and a
    click elsewhere can start it."""
    game = Game.new(2, 3, 1, seed=1, no_guess=True)
    game.open(0, 0)  # both fields with one mine outside r1c1's window need a guess (a pair holds it)
    assert game.state == "ready" and game.field is None
    assert game.notice.startswith("no 2x3 board with an odd number of mines (1) can be finished without a guess")
    game.open(0, 1)  # its window is the whole board
    assert game.state == "ready" and "1 mine does not fit" in game.notice
    game = Game.new(3, 7, 2, seed=1, no_guess=True)
    game.open(0, 0)
    assert game.state in ("playing", "won") and game.notice is None
    pytest.importorskip("textual")
    from recon.play.tui import PlayApp

    async def scenario():
        app = PlayApp(Game.new(2, 3, 1, seed=1, no_guess=True))
        async with app.run_test(size=(60, 20)) as pilot:
            app.cursor = (0, 0)
            await pilot.press("space")
            assert app.game.state == "ready" and "can be finished without a guess from r1c1" in app.status_line()
            await pilot.press("q")

    asyncio.run(scenario())


@pytest.mark.slow  # about 3 s a shape, mostly the pilot waiting for the screen
@pytest.mark.parametrize("shape, given", [((1, 12), False), ((12, 1), True), ((2, 9), False), ((9, 9), True),
                                          ((1, 1), True), ((16, 30), False)])
def test_the_game_survives_random_keys_clicks_and_resizes(shape, given):
    """A player mashing every key, clicking anywhere (off the board too, left and right) and
    resizing the terminal, through won and lost games and their end screens: no exception, and the
    game's counts stay consistent (flags only on covered cells, the mines left as shown)."""
    pytest.importorskip("textual")
    import random

    from textual.pilot import OutOfBounds

    from recon.play.tui import EndScreen, PlayApp

    rows, cols = shape
    rng = random.Random(rows * 31 + cols)
    if given:
        field = np.random.default_rng(rows + cols).random(shape) < 0.25
        field.flat[0] = False
        game = Game(field, int(field.sum()), seed=1, auto=rows > 1)
    else:
        game = Game.new(rows, cols, max(0, min(rows * cols - 9, rows * cols // 5)), seed=1, no_guess=cols > 10)
    keys = ["up", "down", "left", "right", "space", "enter", "f", "h", "p", "n", "b", "escape"]

    async def scenario():
        app = PlayApp(game)
        async with app.run_test(size=(60, 20)) as pilot:
            for _ in range(40):
                if rng.random() < 0.3 and not isinstance(app.screen, EndScreen):
                    g = app.game
                    try:
                        await pilot.click("Board", offset=(rng.randrange(0, g.cols * 3 + 2), rng.randrange(0, g.rows + 1)),
                                          button=rng.choice([1, 1, 3]))
                    except OutOfBounds:  # off the visible screen (after a resize): the pilot cannot click there
                        pass
                else:
                    await pilot.press(rng.choice(keys))
                if rng.random() < 0.05:
                    await pilot.resize_terminal(rng.choice([20, 50, 120]), rng.choice([5, 15, 50]))
                g = app.game
                assert not (g.flags & g.opened).any() and g.mines_left == g.mines - int(g.flags.sum())
            await pilot.press("q")

    asyncio.run(scenario())


@pytest.mark.parametrize("shape, mines", [((1, 12), 3), ((12, 1), 3), ((2, 11), 5), ((11, 2), 5), ((9, 9), 12),
                                          ((16, 30), 99)])
def test_the_probabilities_shown_equal_the_general_count(shape, mines):
    """The game asks the autoplayer's odds engine (its group enumerations kept through the game)
    for the probabilities shown and for "was that click a guess?"; every cell's value equals the
    general count's (recon.counting) on the board shown, move after move, in auto mode too."""
    from recon.counting import count_solutions
    from recon.io.classic import board_problem

    compared = 0
    for seed in range(6):
        game = Game.new(*shape, mines, seed=seed, auto=seed % 2 == 1)
        rng = np.random.default_rng(seed)
        game.open(shape[0] // 2, shape[1] // 2)
        for _ in range(8):
            if game.state != "playing":
                break
            p = game.probabilities()
            counted = count_solutions(board_problem(game.board_cells(), game.mines), probabilities=True)
            assert counted.exact
            for r in range(shape[0]):
                for c in range(shape[1]):
                    assert p[r][c] == counted.probabilities[r][c] == game.probability(r, c), (r, c)
            compared += 1
            safe = np.argwhere(~game.opened & ~game.field)
            game.open(*map(int, safe[rng.integers(len(safe))]))
    assert compared >= 8


def test_probabilities_not_counted_in_time_are_said_so(monkeypatch):
    """p on a board whose groups are too large for the odds engine and whose general count takes
    longer than PROBABILITY_SECONDS leaves the cells as they are and says why."""
    pytest.importorskip("textual")
    from recon.play import game as game_module
    from recon.play import tui

    monkeypatch.setattr(game_module, "ODDS_NODES", 1)  # every group too large: the general count

    async def scenario(seconds):
        monkeypatch.setattr(tui, "PROBABILITY_SECONDS", seconds)
        app = tui.PlayApp(Game.new(16, 30, 99, seed=3))
        async with app.run_test(size=(120, 30)) as pilot:
            await pilot.press("space", "p")
            line = app.status_line()
            drawn = app.board_text().plain
            await pilot.press("q")
        return line, drawn

    line, drawn = asyncio.run(scenario(1e-9))
    assert "probabilities not counted within 1e-09 s" in line and "?" in drawn
    line, drawn = asyncio.run(scenario(60.0))
    assert "probabilities in %, total 99" in line and "?" not in drawn


def test_a_click_the_count_cannot_settle_in_time_counts_as_a_guess(monkeypatch):
    """Whether a click was a guess is asked of the exact odds; where a group is too large for the
    odds engine, of the general count, which stops after ODDS_SECONDS (a click on a 1000x1000
    board waited over a minute for it): a cell the count proves safe is no guess, but one it
    cannot settle in time counts as one."""
    from recon.play import game as game_module

    monkeypatch.setattr(game_module, "ODDS_NODES", 1)  # every group too large: the general count
    seen = Game.new(16, 30, 99, seed=4)
    seen.open(8, 15)
    p = seen.probabilities()
    r, c = next((r, c) for r in range(16) for c in range(30) if not seen.opened[r, c] and p[r][c] == 0)

    def first_proved_safe(seconds):  # the same game, its count not yet made
        monkeypatch.setattr(game_module, "ODDS_SECONDS", seconds)
        g = Game.new(16, 30, 99, seed=4)
        g.open(8, 15)
        g.open(r, c)
        return g.guesses

    assert first_proved_safe(60.0) == 0
    assert first_proved_safe(1e-9) == 1


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
@pytest.mark.parametrize("as_json", [False, True])
def test_an_interrupted_autoplay_run_reports_the_games_it_finished(monkeypatch, signum, code, as_json):
    """Ctrl-C or SIGTERM during game 31: the report covers the first 30 games, which are those a run
    of 30 plays (the games are the run's first ones, in order), and says it was stopped."""
    from recon.play import autoplay

    real, started = autoplay._play, []

    def play_until_stopped(job):
        started.append(job)
        if len(started) == 31:
            os.kill(os.getpid(), signum)  # a real signal, raised at the next instruction
        return real(job)

    monkeypatch.setattr(autoplay, "_play", play_until_stopped)
    argv = ["autoplay", "--games", "500", "--rows", "9", "--cols", "9", "--mines", "12", "--workers", "1", "--seed", "4"]
    status, out, err = run(*argv, *(["--json"] if as_json else []))
    monkeypatch.setattr(autoplay, "_play", real)
    first = play_games(30, 9, 9, 12, seed=4, workers=1)
    assert status == code and "stopped after 30 of 500 games" in err, err
    if as_json:
        report = json.loads(out)
        assert report["interrupted"] and report["games"] == 30 and report["wins"] == first["wins"]
        assert report["guesses_per_game"] == first["guesses_per_game"]
    else:
        assert out.startswith(f"{first['wins']} of 30 games won: ")


def test_the_terminal_game_goes_on_from_a_board():
    """A board's game on the screen: it starts with the board's cells open and the status line
    counting from there; a safe cell opens without a guess, `n` draws the covered mines again."""
    pytest.importorskip("textual")
    from recon.io.classic import parse_board
    from recon.play.tui import PlayApp

    cells, mines = parse_board("# mines: 10\n" + "\n".join(["0001?????", "0112?????", "12???????"] + ["?????????"] * 6))
    game = Game.from_board(cells, mines, seed=4)

    async def scenario():
        app = PlayApp(game)
        async with app.run_test(size=(60, 20)) as pilot:
            assert game.state == "playing" and game.opened.sum() == 10 and "10" in app.status_line()
            safe = next((r, c) for r in range(9) for c in range(9) if not game.opened[r, c] and not game.field[r, c]
                        and game.probability(r, c) == 0)
            app.cursor = safe
            await pilot.press("space")
            assert game.opened[safe] and game.guesses == 0
            await pilot.press("q")

    asyncio.run(scenario())
    following = game.again()
    assert following.seed == 5 and following.opened.sum() == 10 and following.drawn


@pytest.mark.parametrize("shape, mines", [((1, 40), 5), ((40, 1), 5), ((2, 30), 8), ((16, 30), 99)])
def test_the_autoplayer_plays_the_same_games_with_the_compiled_rules(monkeypatch, shape, mines):
    """From COMPILED_CELLS cells (0 here) the autoplayer's player runs its rules compiled; each
    game is won or lost alike, after as many guesses, and a no-guess field is the same field."""
    pytest.importorskip("numba")
    from recon import compiled
    from recon.generation import classic
    from recon.play.autoplay import draw

    compiled.load()
    start = (0, 0)
    for seed in range(4):
        field = draw(*shape, mines, start, "safe", False, np.random.default_rng(seed))
        seen = []
        for cells in (10**9, 0):
            monkeypatch.setattr(classic, "COMPILED_CELLS", cells)
            game = play_field(field, mines, start)
            no_guess = draw(*shape, mines, start, "zero" if shape[0] > 1 else "safe", True, np.random.default_rng(seed))
            seen.append((game.won, game.guesses, no_guess.tobytes()))
        assert seen[0] == seen[1], (shape, seed)
