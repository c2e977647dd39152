"""Fuzzing every reader and command: malformed inputs made by random edits of valid ones in each
format (tests/fuzzing.py) are answered or refused with a message, never an internal error.
bench/bench_fuzz.py runs the same on a corpus of 10,000 and more."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzzing import COMMANDS, SEEDS, judge, mutate, run_one


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
