"""Fuzzing every reader and command: malformed inputs made by random edits of valid ones in each
format (tests/fuzzing.py) are answered or refused with a message, never an internal error.
bench/bench_fuzz.py runs the same on a corpus of 10,000 and more."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recon.rules.sweeper import numbers_of

from fuzzing import COMMANDS, SEEDS, argv_files, judge, judge_argv, mutate, random_argv, run_argv, run_one


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.sampled_from(SEEDS), edits=st.integers(1, 6), salt=st.integers(0, 2**32 - 1), command=st.sampled_from(COMMANDS))
def test_no_malformed_input_ends_in_an_internal_error(tmp_path, seed, edits, salt, command):
    data = mutate(seed, random.Random(salt), edits)
    path = str(tmp_path / "input.txt")
    code, err = run_one(path, data, command)
    assert judge(code, err, path) is None, (data, command, code, err)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=64), command=st.sampled_from(COMMANDS))
def test_no_random_bytes_end_in_an_internal_error(tmp_path, data, command):
    path = str(tmp_path / "input.txt")
    code, err = run_one(path, data, command)
    assert judge(code, err, path) is None, (data, command, code, err)


PLAYABLE = [seed for seed in SEEDS if seed.startswith((b"3 2 2", b"3x2n1", b"# mines"))] + [b"x_x\n_x_\n", b"101\n010\n"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.sampled_from(PLAYABLE), edits=st.integers(1, 6), salt=st.integers(0, 2**32 - 1))
def test_what_play_reads_is_a_game_or_a_refusal(tmp_path, seed, edits, salt):
    """`recon play FILE` takes a board, an endoh1 map, a Tatham Mines game ID or a field; the game
    itself needs a terminal, so its reader (`cli._game_of`) is fuzzed alone: each malformed file
    gives a game whose field holds its mine count (a board's drawn to fit what it shows; a board
    with nothing open, a new game whose field comes at the first click), or a FormatError or
    UsageError (exit 2 with the place), nothing else."""
    from recon.cli import UsageError, _game_of, build_parser
    from recon.io.text import FormatError

    data = mutate(seed, random.Random(salt), edits)
    path = tmp_path / "input.txt"
    path.write_bytes(data)
    try:
        game = _game_of(build_parser().parse_args(["play", str(path), "--seed", "1"]))
    except FormatError as err:
        assert str(err).startswith(f"{path}:") and err.line >= 1 and err.col >= 1, (data, err)
        return
    except UsageError as err:
        assert str(err), data
        return
    if game.field is None:  # a board with nothing open: a new game of its size
        assert game.state == "ready" and game.mines < game.rows * game.cols, data
        return
    assert int(game.field.sum()) == game.mines < game.field.size, data
    if game.drawn:
        shown = game.board_cells() >= 0
        assert (numbers_of(game.field)[shown] == game.board_cells()[shown]).all(), data


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(salt=st.integers(0, 2**32 - 1))
def test_no_command_line_ends_in_an_internal_error(tmp_path, salt):
    """A random command line (a command, its options from recon's own parser, values that make
    sense or sit at an edge) is answered, or refused with a message that names recon or the file,
    never an internal error."""
    argv = random_argv(random.Random(salt), str(tmp_path), argv_files(str(tmp_path)))
    code, err = run_argv(argv)
    assert judge_argv(code, err, str(tmp_path)) is None, (argv, code, err)
