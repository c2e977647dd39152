"""Puzzle generation: unique, of the asked grade, minimal (checked clue by clue), reproducible."""

from __future__ import annotations

import io
import re
from collections import Counter

import numpy as np
import pytest

from recon import Verdict, make_problem, parse_status, random_field, status
from recon.cli import main
from recon.engines import backtrack, sat, trim
from recon import compiled as kernels
from recon.generation import Job, Options, grades, in_turn
from recon.generation import advanced as gen_advanced
from recon.generation import elimination as gen_elimination
from recon.generation import local as gen_local
from recon.result import Grade
from recon.generation import generate_puzzle, make_puzzle, parse_clue_target


@pytest.mark.slow
@pytest.mark.parametrize("difficulty", ["basic", "advanced", "elimination", "search"])
@pytest.mark.parametrize("shape", [(6, 7), (4, 9), (9, 14)])  # 126 cells: two batches of 64
def test_generated_puzzle_is_unique_graded_and_minimal(difficulty, shape):
    puzzle = generate_puzzle(*shape, 45, np.random.default_rng(sum(shape)), difficulty=difficulty)
    problem = make_problem(puzzle.clues, puzzle.known)
    result = backtrack.solve(problem, limit=2)
    assert result.verdict is Verdict.UNIQUE and np.array_equal(result.solutions[0], puzzle.field)
    assert trim.solve(problem).grade == difficulty
    assert puzzle.minimal
    check = grades.CHECKS[Grade(difficulty)]
    for r, c in np.argwhere(puzzle.known):
        fewer = puzzle.known.copy()
        fewer[r, c] = False
        assert not check(make_problem(puzzle.clues, fewer))


def test_clue_target_stops_early():
    puzzle = generate_puzzle(6, 6, 40, np.random.default_rng(1), difficulty="elimination", target=30)
    assert puzzle.clue_count == 30 and not puzzle.minimal


@pytest.mark.slow
@pytest.mark.parametrize("use_sat", [True, False])
def test_clue_target_stops_early_for_search(monkeypatch, use_sat):
    """The same puzzle with and without the SAT removal loop, stopped at the clue target."""
    from recon.engines import sat

    if use_sat and not sat.AVAILABLE:
        pytest.skip("python-sat is not installed")
    puzzle = generate_puzzle(8, 8, 50, np.random.default_rng(1), difficulty="search", target=34, options=Options(sat=use_sat))
    assert puzzle.clue_count == 34 and not puzzle.minimal and puzzle.grade == "search"
    assert trim.solve(make_problem(puzzle.clues, puzzle.known)).grade == "search"
    plain = Options(sat=False, compiled=False)
    assert np.array_equal(puzzle.known, generate_puzzle(8, 8, 50, np.random.default_rng(1), difficulty="search", target=34, options=plain).known)


@pytest.mark.parametrize("shape", [(1, 13), (13, 1), (2, 9), (9, 2), (7, 10), (12, 12), (1, 1)])
@pytest.mark.parametrize("tile", [1, 2, 4, 5, 20])
def test_removal_order_takes_tile_after_tile(shape, tile):
    """Every clue once; the clues of a tile (tile x tile cells from the top left, smaller at the
    right and bottom) one after the other; the tiles in an order that is not simply row by row;
    tile 1 is the plain random permutation; the same seed, the same order."""
    from recon.generation.make import removal_order

    rows, cols = shape
    order = removal_order(shape, np.random.default_rng(5), tile)
    assert sorted(order.tolist()) == list(range(rows * cols))
    assert order.tolist() == removal_order(shape, np.random.default_rng(5), tile).tolist()
    if tile == 1:
        assert order.tolist() == np.random.default_rng(5).permutation(rows * cols).tolist()
    r, c = np.divmod(order, cols)
    tiles = [(a, b) for a, b in zip((r // tile).tolist(), (c // tile).tolist())]
    runs = [t for i, t in enumerate(tiles) if i == 0 or t != tiles[i - 1]]
    assert len(runs) == len(set(tiles))  # each tile is one run
    if len(runs) >= 6:  # drawn, not row by row (6! orders: a row-major draw is 1 in 720 or rarer)
        assert runs != sorted(runs)


@pytest.mark.parametrize("text, cells, expected", [("minimal", 100, None), ("40", 100, 40), ("0.25", 100, 25)])
def test_parse_clue_target(text, cells, expected):
    assert parse_clue_target(text, cells) == expected


@pytest.mark.parametrize("text", ["-3", "1.5", "lots"])
def test_parse_clue_target_rejects(text):
    with pytest.raises(ValueError, match="--clues must be"):
        parse_clue_target(text, 100)


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), stdout=out, stderr=err), out.getvalue(), err.getvalue()


def test_cli_puzzle_is_reproducible_and_explained_at_its_grade(tmp_path):
    code, first, err = run("generate", "5", "8", "40", "--seed", "9", "--puzzle", "--difficulty", "elimination")
    assert code == 0 and "grade elimination" in err and "certified unique" in err
    assert "every clue was tried; 2 passes, until one removed none" in err  # the second removed none
    assert first == run("generate", "5", "8", "40", "--seed", "9", "--puzzle", "--difficulty", "elimination")[1]
    clues, known = parse_status(first)
    assert clues.shape == (5, 8) and not known.all()
    path = tmp_path / "p.txt"
    path.write_text(first)
    code, out, _ = run("explain", str(path))
    assert code == 0 and "(grade elimination)" in out


def test_cli_puzzle_formats_and_bad_clues():
    code, out, _ = run("generate", "4", "6", "40", "--seed", "5", "--puzzle", "--format", "mosaic")
    assert code == 0 and out.startswith("6x4:")
    code, _, err = run("generate", "4", "6", "40", "--puzzle", "--clues", "many")
    assert code == 2 and "--clues must be" in err


@pytest.mark.parametrize("shape", [(5, 8), (8, 5), (1, 6)])
def test_cli_refuses_a_format_the_shape_cannot_have_before_generating(monkeypatch, tmp_path, shape):
    """hakank holds square grids only: a non-square request fails at once with exit 2, before the
    (possibly long) generation and without writing --field; a square one is written."""
    import recon.generation as puzzle_module

    def never(*args, **kwargs):
        raise AssertionError("generation ran although the output format cannot hold the grid")

    field_path = tmp_path / "field.txt"
    with monkeypatch.context() as patch:
        patch.setattr(puzzle_module, "generate_puzzle", never)
        code, out, err = run("generate", *map(str, shape), "50", "--puzzle", "--format", "hakank", "--field", str(field_path))
    assert code == 2 and out == "" and f"square grids only, not {shape[0]}x{shape[1]}" in err
    assert not field_path.exists()
    code, out, _ = run("generate", *map(str, shape), "50", "--format", "hakank")  # a plain status too
    assert code == 2 and out == ""
    code, out, _ = run("generate", "6", "6", "50", "--seed", "2", "--puzzle", "--format", "hakank")
    assert code == 0 and out.startswith("6\n")


@pytest.mark.parametrize("shape", [(1, 20), (20, 1), (2, 10), (4, 5)])
def test_cli_reports_the_clue_target_it_stopped_at(shape):
    """--clues FRACTION stops at round(FRACTION x cells) clues when uniqueness allows; the report
    names that number, not the fraction alone, and the puzzle keeps exactly that many."""
    rows, cols = shape
    code, out, err = run("generate", str(rows), str(cols), "0", "--seed", "1", "--puzzle", "--clues", "0.75")
    target = round(0.75 * rows * cols)
    assert code == 0
    _, known = parse_status(out)
    assert known.sum() == target
    assert f"stopped at the {target} clues asked (--clues 0.75)" in err


PROGRESS = re.compile(r"recon: (?:field (\d+), )?(?:order (\d+), )?pass (\d+)(.*): (\d+) of (\d+) clues tried, (\d+) of (\d+) left, \d+ s$")


@pytest.mark.parametrize("difficulty, shape", [("basic", (1, 13)), ("basic", (7, 9)), ("elimination", (9, 7)), ("search", (7, 9))])
def test_cli_generate_reports_progress_when_asked(monkeypatch, difficulty, shape):
    """--progress: lines on stderr say which field, order and pass generation is on and how many
    clues it has tried and left (here every time: PROGRESS_SECONDS 0); the puzzle is the same as
    without them, and the report still ends stderr. On a terminal the line is rewritten in place
    (carriage returns) and cleared before the report; elsewhere there are none unless asked."""
    import recon.cli

    monkeypatch.setattr(recon.cli, "PROGRESS_SECONDS", 0)
    argv = ["generate", *map(str, shape), "50", "--seed", "4", "--puzzle", "--difficulty", difficulty]
    code, quiet, err = run(*argv)
    assert code == 0 and "recon: " not in err and "\r" not in err
    code, out, err = run(*argv, "--progress")
    assert code == 0 and out == quiet
    lines = err.splitlines()
    assert lines[-1].startswith(f"puzzle {shape[0]}x{shape[1]}: ")
    reports = [PROGRESS.match(line) for line in lines[:-1]]
    assert reports and all(reports), lines
    cells = shape[0] * shape[1]
    for m in reports:
        tried, total, left, size = (int(m.group(i)) for i in (5, 6, 7, 8))
        assert 0 <= tried < total <= size == cells and 0 < left <= cells
    assert int(reports[0].group(7)) >= int(reports[-1].group(7))  # clues only go
    if difficulty == "elimination":  # its parts, in order: the pairwise rules' two, then elimination's
        named = [" (the pairwise rules: the clues the check near them settles)", " (the pairwise rules: the others)", " (elimination)"]
        parts = {}  # per field and order of removal
        for m in reports:
            if m.group(3) == "1":
                parts.setdefault(m.group(1, 2), []).append(named.index(m.group(4)))
        assert all(steps == sorted(steps) for steps in parts.values())
        assert len({step for steps in parts.values() for step in steps}) >= 2
        assert all(m.group(4) == "" for m in reports if m.group(3) != "1")

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    tty = Terminal()
    assert main([*argv], stdout=io.StringIO(), stderr=tty) == 0
    text = tty.getvalue()
    assert text.count("\r") >= 2 and "\n" not in text.split("\r")[-2].strip()
    assert text.split("\r")[-1].startswith(f"puzzle {shape[0]}x{shape[1]}: ")
    assert main([*argv, "--no-progress"], stdout=io.StringIO(), stderr=(tty := Terminal())) == 0
    assert "\r" not in tty.getvalue()


@pytest.mark.parametrize("use_sat", [True, False])
def test_cli_suggests_python_sat_for_search_generation_without_it(monkeypatch, use_sat):
    import recon.cli
    from recon.engines import sat

    if use_sat and not sat.AVAILABLE:
        pytest.skip("python-sat is not installed")
    monkeypatch.setattr(recon.cli, "SAT_AVAILABLE", use_sat)  # the hint only: generation runs as installed
    code, out, err = run("generate", "16", "25", "50", "--seed", "3", "--puzzle", "--difficulty", "search")
    assert code == 0 and "grade search" in err
    assert ("pip install 'recon[sat]'" in err) is not use_sat


@pytest.mark.parametrize("use_kernels", [True, False])
def test_cli_suggests_numba_for_advanced_and_elimination_generation_without_it(monkeypatch, use_kernels):
    import recon.cli

    if use_kernels and not kernels.AVAILABLE:
        pytest.skip("numba is not installed")
    monkeypatch.setattr(recon.cli, "COMPILED_AVAILABLE", use_kernels)  # the hint only
    for difficulty in ("advanced", "elimination"):
        argv = ["generate", "16", "25", "50", "--seed", "3", "--puzzle", "--difficulty", difficulty, "--clues", "0.6"]
        code, out, err = run(*argv)
        assert code == 0 and f"grade {difficulty}" in err
        assert (f"pip install 'recon[fast,sat]' makes {difficulty}-grade generation" in err) is not use_kernels
    code, out, err = run("generate", "5", "8", "50", *argv[4:])  # small: no hint
    assert code == 0 and "pip install" not in err


@pytest.mark.parametrize("shape", [(1, 12), (12, 1), (2, 9), (7, 5), (9, 14), (23, 17)])
@pytest.mark.parametrize("target", [None, "half"])
def test_compiled_basic_removal_makes_the_python_decisions(monkeypatch, shape, target):
    """The numba loop (screen 64 at once, replay prefixes) keeps exactly the clues the Python loop
    (incremental closure, one removal at a time) keeps, for the same order: same seed, same puzzle
    with or without the `fast` extra. The fields are ones whose full status the single-clue rules
    solve (on the others no clue can go, and both loops would keep every clue)."""
    pytest.importorskip("numba")
    from recon.model import random_field

    for seed in range(4):
        rng = np.random.default_rng(seed)
        field = next(f for f in (random_field(*shape, 30, rng) for _ in range(500))
                     if grades.is_basic(make_problem(status(f), np.ones(shape, dtype=bool))))
        order = rng.permutation(field.size)
        goal = None if target is None else field.size // 2
        compiled = in_turn.remove_in_turn(Job(Options(compiled=True, kernel_min_cells=0)), field, order, Grade.BASIC, goal)
        python = in_turn.remove_in_turn(Job(Options(compiled=False)), field, order, Grade.BASIC, goal)
        assert np.array_equal(compiled, python), (shape, seed)
        assert python.sum() < field.size  # clues went: the comparison means something


@pytest.mark.parametrize("shape", [(1, 9), (9, 1), (2, 11), (8, 13)])
def test_compiled_closures_equal_the_numpy_rounds(shape):
    """64 clue sets at once: the compiled work-list closure fixes the cells the numpy rounds fix."""
    pytest.importorskip("numba")
    from recon.rules.closure import basic_closures

    rng = np.random.default_rng(sum(shape))
    field = rng.random(shape) < 0.25
    field[:3, :3] = False  # the corner's window is all empty: the rules start there
    active = rng.integers(0, 2**63, size=shape, dtype=np.uint64) | rng.integers(0, 2**63, size=shape, dtype=np.uint64)
    active |= rng.integers(0, 2, size=shape, dtype=np.uint64) << np.uint64(63)
    expected = basic_closures(field, active)
    assert np.array_equal(kernels.closures64(field, active), expected)
    assert expected.any()  # some clue sets fix some cells: the comparison means something


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(1, 12), (12, 1), (2, 9), (7, 5), (9, 14), (10, 10)])
def test_compiled_trimming_decides_as_trim_does(shape):
    """trim_outcome says "trimmed" exactly when trim.solve is unique, and "several" only when a
    complete search finds several solutions, on the puzzles met while removing clues in a random
    order, keeping a clue when trim no longer solves without it: the borderline cases generation
    asks about. With solved_with (the puzzle with the clue was trimmed), the same verdict."""
    pytest.importorskip("numba")

    rng = np.random.default_rng(sum(shape))
    seen = {"trimmed": 0, "several": 0, "stalled": 0}
    fields = 0
    while fields < 3:
        field = rng.random(shape) < rng.uniform(0.2, 0.8)
        if trim.solve(make_problem(status(field))).verdict is not Verdict.UNIQUE:
            continue  # not a puzzle that generation would start from
        fields += 1
        clues, known = status(field), np.ones(shape, dtype=bool)
        for c in rng.permutation(field.size):
            c = int(c)
            known.flat[c] = False
            problem = make_problem(clues, known)
            reference = trim.solve(problem).verdict is Verdict.UNIQUE
            assert kernels.trims_fully(clues, known) == reference
            # the puzzle with c was solved by trimming: the shortcut may answer sooner, never otherwise
            assert kernels.trims_fully(clues, known, solved_with=c) == reference
            outcome, fixed = kernels.trim_outcome(clues, known, field=field, removed=c)
            seen[outcome] += 1
            assert (outcome == "trimmed") == reference
            assert np.array_equal(fixed[fixed >= 0] == 1, field[fixed >= 0])  # sound
            if outcome == "several":
                assert backtrack.solve(problem, limit=2).verdict is Verdict.MULTIPLE
            if not reference:
                known.flat[c] = True
    assert seen["trimmed"] and seen["several"], seen
    with pytest.raises(ValueError, match="verdict_only"):
        kernels.trim_outcome(clues, known, solved_with=0)


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(14, 23), (23, 14)])
def test_compiled_trimming_shortcut_when_the_pairwise_phase_fixes_the_removed_clues_window(shape):
    """A minimal elimination-grade puzzle and one of its removed clues c put back: trimming solves the
    puzzle with c (checked), and without c, once the pairwise phase fixes c's window, trimming
    runs as it did with c: trim_outcome(..., solved_with=c) says "trimmed" there, with cells still
    open for elimination; its verdict is trim's every time."""
    pytest.importorskip("numba")

    puzzle = generate_puzzle(*shape, 50, np.random.default_rng(2), difficulty="elimination")
    clues, known = puzzle.clues, puzzle.known
    early = 0
    for c in np.flatnonzero(~known.ravel()).tolist():
        more = known.copy()
        more.flat[c] = True
        if not kernels.trims_fully(clues, more):
            continue  # not trimmed with c (trimming is not monotone): no shortcut to take
        outcome, part = kernels.trim_outcome(clues, known, verdict_only=True, solved_with=c)
        assert outcome == "trimmed"
        if (part < 0).any() and early < 5:  # it answered before elimination: as trim does, with c
            assert trim.solve(make_problem(clues, more)).verdict is Verdict.UNIQUE
            early += 1
    assert early


def test_compiled_trimming_solves_the_puzzle_whose_derived_equations_needed_pairing():
    pytest.importorskip("numba")
    from test_trim import PAIR_THE_DERIVED

    clues, known = parse_status(PAIR_THE_DERIVED)
    assert kernels.trims_fully(clues, known)
    fewer = known.copy()
    fewer[np.argwhere(known)[0][0], np.argwhere(known)[0][1]] = False
    assert kernels.trims_fully(clues, fewer) == (trim.solve(make_problem(clues, fewer)).verdict is Verdict.UNIQUE)


@pytest.mark.parametrize("shape", [(1, 17), (17, 1), (2, 15), (9, 13), (14, 8)])
def test_compiled_elimination_in_a_tight_pool_fixes_trims_cells(shape):
    """Elimination's sparse rows share a pool: a row that outgrows its room moves to the pool's
    end, a full pool is compacted, and when even that is not enough trimming starts again with
    more. A pool just big enough for the clue equations forces all of it; the cells fixed are
    trim's either way."""
    pytest.importorskip("numba")

    rng = np.random.default_rng(sum(shape) + 7)
    outcomes = set()
    for _ in range(40):
        field = rng.random(shape) < rng.uniform(0.3, 0.7)
        known = rng.random(shape) < rng.uniform(0.4, 1.0)
        clues = status(field)
        outcome, fixed = kernels.trim_outcome(clues, known)
        tight, tight_fixed = kernels.trim_outcome(clues, known, pool=9 * int(known.sum()))
        assert tight == outcome and np.array_equal(tight_fixed, fixed)
        result = trim.solve(make_problem(clues, known))
        assert (outcome == "trimmed") == (result.verdict is Verdict.UNIQUE)
        if result.decided is not None:
            assert np.array_equal(fixed, np.where(result.decided, result.partial, -1))
        outcomes.add(outcome)
    assert {"trimmed", "stalled"} <= outcomes or (min(shape) == 2 and "stalled" in outcomes)  # 2xk: rarely unique


def test_compiled_trimming_out_of_room_or_range_still_decides(monkeypatch):
    """Too little room for derived equations: it starts again with more. A coefficient that could
    overflow int64: the Python engine decides."""
    pytest.importorskip("numba")

    rng = np.random.default_rng(3)
    cases = []
    for _ in range(12):
        field = rng.random((9, 11)) < 0.5
        known = rng.random((9, 11)) < 0.7
        cases.append((status(field), known, trim.solve(make_problem(status(field), known)).verdict is Verdict.UNIQUE))
    assert any(expected for *_, expected in cases) and not all(expected for *_, expected in cases)
    for clues, known, expected in cases:
        assert kernels.trims_fully(clues, known, capacity=3) == expected
    kernels.load()
    monkeypatch.setattr(kernels.trim, "_trim", lambda *args: kernels.trim.Code.OVERFLOW)
    for clues, known, expected in cases:
        assert kernels.trims_fully(clues, known) == expected


@pytest.mark.slow
@pytest.mark.parametrize("difficulty", ["elimination", "search"])
@pytest.mark.parametrize("shape", [(1, 12), (12, 1), (3, 10), (7, 5), (9, 14)])  # 2xk: fields rarely solve
def test_compiled_checks_make_the_python_decisions(monkeypatch, difficulty, shape):
    """Advanced and search generation with the compiled trimming keep exactly the clues the
    Python path (group-wise trimming, exact search and MILP) keeps: same seed, same puzzle."""
    pytest.importorskip("numba")
    from recon.model import random_field

    compared = 0
    for seed in range(60):
        if compared == 3:
            break
        rng = np.random.default_rng(seed)
        field = random_field(*shape, int(rng.integers(25, 75)), rng)
        if not grades.CHECKS[Grade(difficulty)](make_problem(status(field))):
            continue
        order = rng.permutation(field.size)
        compiled = in_turn.remove_in_turn(Job(Options(sat=False, compiled=True)), field, order, Grade(difficulty), None)
        python = in_turn.remove_in_turn(Job(Options(sat=False, compiled=False)), field, order, Grade(difficulty), None)
        assert np.array_equal(compiled, python), (shape, seed)
        compared += 1
    assert compared == 3


def _compare_removal_paths(shape, difficulty, starts, densities, seeds, fast, slow):
    """On the first 3 seeded fields whose full status `starts` accepts, remove clues in a random
    order with the options `fast`, then `slow`, and assert that both keep the same clues.
    Returns (fields compared, clues the paths removed)."""
    from recon.model import random_field

    compared = removed = 0
    for seed in range(seeds):
        if compared == 3:
            break
        rng = np.random.default_rng(seed)
        field = random_field(*shape, int(rng.integers(*densities)), rng)
        if not starts(make_problem(status(field))):
            continue
        order = rng.permutation(field.size)
        kept = []
        for options in (fast, slow):
            kept.append(in_turn.remove_in_turn(Job(options), field, order, Grade(difficulty), None))
        assert np.array_equal(kept[0], kept[1]), (shape, seed)
        compared += 1
        removed += int((~kept[0]).sum())
    return compared, removed


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(1, 12), (12, 1), (2, 9), (7, 5), (9, 14)])
def test_sat_removal_makes_the_exact_decisions(monkeypatch, shape):
    """Search generation by the incremental SAT solver keeps exactly the clues the Python path
    (group-wise exact search and MILP, no numba) keeps: same seed, same puzzle."""
    from recon.engines import sat

    if not sat.AVAILABLE:
        pytest.skip("python-sat is not installed")
    densities = (5, 35) if min(shape) == 2 else (25, 75)  # 2 x k: dense fields are rarely unique
    compared, removed = _compare_removal_paths(
        shape, "search", grades.is_unique, densities, 200, Options(sat=True, compiled=False), Options(sat=False, compiled=False)
    )
    assert compared == 3 and removed > 0


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(1, 12), (12, 1), (2, 9), (7, 5), (9, 14)])
def test_sat_first_elimination_removal_makes_the_exact_decisions(monkeypatch, shape):
    """Advanced generation asking SAT before compiled trimming keeps exactly the clues the
    Python path (incremental closure and group-wise trimming, no numba, no SAT) keeps."""
    from recon.engines import sat

    if not (sat.AVAILABLE and kernels.AVAILABLE):
        pytest.skip("needs python-sat and numba")
    densities = (5, 35) if min(shape) == 2 else (20, 70)  # 2 x k: dense fields are rarely unique
    fast, slow = Options(sat=True, compiled=True), Options(sat=False, compiled=False)
    compared, removed = _compare_removal_paths(shape, "elimination", grades.is_trimmed, densities, 400, fast, slow)
    assert compared == 3 and removed > 0


CERTIFIERS = ["milp", pytest.param("sat", marks=pytest.mark.skipif(not sat.AVAILABLE, reason="needs python-sat"))]


@pytest.mark.parametrize("certifier", CERTIFIERS)
def test_certify_with_the_planted_field_proves_or_refuses(monkeypatch, seed_examples, certifier):
    job = Job(Options(certifier=certifier))
    puzzle = generate_puzzle(3, 10, 50, np.random.default_rng(4), difficulty="search", options=job.options)
    problem = make_problem(puzzle.clues, puzzle.known)
    assert puzzle.certificate == certifier
    assert grades.certify(job, problem, Grade.SEARCH, puzzle.field) == certifier
    assert grades.certify(job, problem, Grade.SEARCH) == certifier  # without the field: two solves
    with pytest.raises(ValueError, match="does not meet the clues"):
        grades.certify(job, problem, Grade.SEARCH, ~puzzle.field)
    clues, solutions = seed_examples["seed-5x5"]  # two solutions: knowing one proves nothing
    assert grades.certify(job, make_problem(clues), Grade.SEARCH, solutions[0]) is None
    assert grades.certify(job, make_problem(clues), Grade.ELIMINATION) is None
    # one clue fewer than the minimal puzzle: not unique any more, and certify says so
    weaker = puzzle.known.copy()
    weaker.flat[np.flatnonzero(weaker)[0]] = False
    assert grades.certify(job, make_problem(puzzle.clues, weaker), Grade.SEARCH, puzzle.field) is None


@pytest.mark.parametrize("certifier", CERTIFIERS)
def test_certify_names_the_complete_engine_that_proved_uniqueness(monkeypatch, seed_examples, certifier):
    from recon.result import Result

    job = Job(Options(certifier=certifier))
    basic = generate_puzzle(4, 9, 45, np.random.default_rng(2), difficulty="basic", options=job.options)
    assert basic.certificate == "backtrack"
    graded = generate_puzzle(4, 9, 45, np.random.default_rng(2), difficulty="elimination", options=job.options)
    assert graded.certificate == certifier
    problem = make_problem(basic.clues, basic.known)
    ambiguous = make_problem(seed_examples["seed-5x5"][0])  # two solutions
    assert grades.certify(job, ambiguous, Grade.BASIC) is None
    assert grades.certify(job, ambiguous, Grade.ELIMINATION) is None
    # backtracking out of time: the certifier decides
    undecided = Result(Verdict.UNDECIDED, [], False, "backtrack", 1.0, {}, "time limit")
    monkeypatch.setattr(backtrack, "solve", lambda *args, **kwargs: undecided)
    assert grades.certify(job, problem, Grade.BASIC) == certifier
    assert grades.certify(job, ambiguous, Grade.BASIC) is None


@pytest.fixture(scope="module")
def elimination_puzzles():
    return [generate_puzzle(9, 11, 50, np.random.default_rng(seed), difficulty="elimination") for seed in range(6)]


@pytest.mark.slow
@pytest.mark.parametrize("max_cells", [5, 10, 20, 40])
def test_compiled_trimming_skips_the_groups_trim_skips(monkeypatch, elimination_puzzles, max_cells):
    """Elimination runs only on groups of at most ELIMINATION_MAX_CELLS open cells (3000: only
    grids past 54x54 meet larger ones). With small limits, minimal elimination-grade puzzles become too
    hard for some of them, and the compiled trimming still decides as trim does."""
    pytest.importorskip("numba")

    verdicts = []
    for puzzle in elimination_puzzles:
        reference = trim.solve(make_problem(puzzle.clues, puzzle.known), max_cells=max_cells).verdict is Verdict.UNIQUE
        assert kernels.trims_fully(puzzle.clues, puzzle.known, max_cells=max_cells) == reference
        verdicts.append(reference)
    assert not all(verdicts)  # the limit mattered (with 3000 every one is solved)


@pytest.mark.slow
def test_compiled_trimming_leaves_out_groups_too_large_and_fixes_trims_cells(monkeypatch):
    """A group of open cells larger than ELIMINATION_MAX_CELLS after the pairwise phase stays
    open for good, so the compiled trimmer leaves its equations out of the reduced form, and
    trims_fully (verdict_only) stops there. With small limits, on the puzzles met while removing
    clues as generation does (kept while trimming solves): the cells fixed are trim's, the
    verdicts agree, and puzzles with and without such a group are met, the limit turning some
    that trimming solves into ones it cannot (elimination beside such a group is rare here: the
    next test builds it)."""
    pytest.importorskip("numba")

    rng = np.random.default_rng(11)
    met = {"too large": 0, "small": 0, "limit mattered": 0}
    shapes = [(1, 23), (23, 1), (2, 17), (9, 13), (14, 8), (16, 21)]
    large_in = set()
    for shape in [shape for shape in shapes for _ in range(1 if shape == (16, 21) else 3)]:  # (trim's time)
        field = rng.random(shape) < rng.uniform(0.3, 0.7)
        clues, known = status(field), np.ones(shape, dtype=bool)
        for c in rng.permutation(field.size).tolist():
            known.flat[c] = False
            unlimited = kernels.trims_fully(clues, known)
            max_cells = int(rng.choice([3, 5, 10, 20, 40]))
            outcome, fixed = kernels.trim_outcome(clues, known, max_cells=max_cells)
            result = trim.solve(make_problem(clues, known), max_cells=max_cells)
            reference = result.verdict is Verdict.UNIQUE
            assert (outcome == "trimmed") == reference
            assert kernels.trims_fully(clues, known, max_cells=max_cells) == reference
            assert kernels.trim_outcome(clues, known, verdict_only=True, max_cells=max_cells)[0] == outcome
            if result.decided is not None:
                assert np.array_equal(fixed, np.where(result.decided, result.partial, -1))
                sizes = _open_group_sizes(known, fixed)
                met["too large" if sizes and max(sizes) > max_cells else "small"] += 1
                if sizes and max(sizes) > max_cells:
                    large_in.add(shape)
            met["limit mattered"] += unlimited and not reference
            if not unlimited:
                known.flat[c] = True
    assert all(met.values()), met  # (the limit matters on the larger grids only)
    assert large_in == set(shapes)


@pytest.mark.parametrize("transpose", [False, True])
def test_compiled_trimming_eliminates_beside_a_group_too_large(monkeypatch, transpose):
    """One grid, two parts no clue sees both of: above, rows whose few clues leave a group of 57
    open cells; below a wall of 0 clues, a 6x13 elimination-grade puzzle whose group after the
    pairwise phase (fewer open cells) only elimination solves. With the limit at that group's
    size, trimming solves the lower part and leaves the upper one: the compiled trimmer leaves
    out the upper group's equations and fixes trim's cells, and trims_fully says no.
    (Transposed: the same, by columns.)"""
    pytest.importorskip("numba")

    lower = next(puzzle for puzzle in (generate_puzzle(6, 13, 50, np.random.default_rng(seed), difficulty="elimination")
                                       for seed in range(9, 60))
                 # trimming's reduced form follows the cells' order, so the grade can change on
                 # transposing: take a puzzle that trimming solves both ways
                 if trim.solve(make_problem(status(puzzle.field.T), puzzle.known.T)).verdict is Verdict.UNIQUE)
    field = np.zeros((14, 13), dtype=bool)
    field[:5] = np.random.default_rng(9).random((5, 13)) < 0.5
    field[8:] = lower.field
    known = np.zeros(field.shape, dtype=bool)
    known[[1, 3, 6]] = True  # row 6: the wall, all 0 (rows 5 to 7 hold no mine)
    known[8:] = lower.known
    if transpose:
        field, known = field.T, known.T
    clues = status(field)
    pairwise = trim.solve(make_problem(clues, known), max_cells=0)  # the pairwise phase alone
    sizes = sorted(_open_group_sizes(known, np.where(pairwise.decided, pairwise.partial, -1)))
    limit = sizes[-2]  # the lower puzzle's group
    assert sizes[-1] == 57 and 0 < limit < 57
    result = trim.solve(make_problem(clues, known), max_cells=limit)
    assert result.verdict is Verdict.UNDECIDED and result.stats["rule:elimination"] > 0
    expected = np.where(result.decided, result.partial, -1)
    assert (expected[8:] >= 0).all() if not transpose else (expected[:, 8:] >= 0).all()
    outcome, fixed = kernels.trim_outcome(clues, known, max_cells=limit)
    assert outcome == "stalled" and np.array_equal(fixed, expected)
    assert not kernels.trims_fully(clues, known, max_cells=limit)
    solved = trim.solve(make_problem(clues, known), max_cells=57).verdict is Verdict.UNIQUE
    assert kernels.trim_outcome(clues, known, max_cells=57)[0] == ("trimmed" if solved else "stalled")


def _open_group_sizes(known, fixed):
    """Sizes of the groups of open cells (fixed: -1 open), two joined when a clue sees both."""
    rows, cols = known.shape
    parent = list(range(known.size))

    def root(x):
        while parent[x] != x:
            x = parent[x]
        return x

    for r, q in zip(*np.nonzero(known)):
        seen = [i * cols + j for i in range(max(r - 1, 0), min(r + 2, rows)) for j in range(max(q - 1, 0), min(q + 2, cols)) if fixed[i, j] < 0]
        for x in seen[1:]:
            parent[root(x)] = root(seen[0])
    return list(Counter(root(x) for x in np.flatnonzero(fixed.ravel() < 0).tolist()).values())


@pytest.mark.slow
@pytest.mark.parametrize("fast", [True, False])
def test_elimination_puzzles_get_passes_until_no_clue_can_go(monkeypatch, fast):
    """Trimming is not monotone, so one pass can leave an elimination-grade puzzle with a clue that could
    go (here, on a 9 x 13 field: r2c5 could go after the first pass); more passes remove it, and
    then no clue can go (checked by trimming each one away, with the Python trimmer). The same
    with the SAT and compiled paths and with the pure Python one."""
    if fast and not (sat.AVAILABLE and kernels.AVAILABLE):
        pytest.skip("needs python-sat and numba")
    backends = {} if fast else {"sat": False, "compiled": False}
    job = Job(Options(first_part=None, **backends))  # the first pass: each clue in turn
    rng = np.random.default_rng(6)
    field = random_field(9, 13, 50, rng)
    order = rng.permutation(field.size)
    clues = status(field)

    def removable(known):
        out = []
        for r, c in np.argwhere(known):
            fewer = known.copy()
            fewer[r, c] = False
            if trim.solve(make_problem(clues, fewer)).verdict is Verdict.UNIQUE:
                out.append((int(r), int(c)))
        return out

    first = in_turn.remove_in_turn(job, field, order, Grade.ELIMINATION, None)
    known, passes = gen_elimination.remove_elimination(job, field, order)
    assert removable(first) == [(1, 4)]
    assert passes == 3 and known.sum() == first.sum() - 1
    assert trim.solve(make_problem(clues, known)).verdict is Verdict.UNIQUE
    assert removable(known) == []
    for first_part in ("local", "advanced"):  # the clues the local check, or the pairwise rules, settle first
        known, passes = gen_elimination.remove_elimination(Job(Options(first_part=first_part, **backends)), field, order)
        assert trim.solve(make_problem(clues, known)).verdict is Verdict.UNIQUE
        assert removable(known) == []


needs_numba = pytest.mark.skipif(not kernels.AVAILABLE, reason="needs numba")


@pytest.mark.slow
@needs_numba
@pytest.mark.parametrize("shape", [(1, 14), (14, 1), (2, 12), (7, 11), (11, 7)])
def test_window_fixed_nearby_is_a_proof(shape):
    """kernels.window_fixed_nearby says yes only when every solution of the puzzle without the
    clue has the field's values on its window (exact per-cell counts), at every radius; and a
    larger radius proves at least what a smaller one does on these puzzles (a superset of
    equations)."""
    from recon.counting import count_solutions

    rng = np.random.default_rng(sum(shape) * 7)
    proved = 0
    for _ in range(25):
        field = random_field(*shape, int(rng.integers(25, 75)), rng)
        clues = status(field)
        known = rng.random(shape) < rng.uniform(0.4, 1.0)
        for c in rng.choice(field.size, 4, replace=False).tolist():
            fewer = known.copy()
            fewer.flat[c] = False
            answers = [kernels.window_fixed_nearby(clues, fewer, c, r) for r in (1, 2, 4)]
            assert kernels.window_fixed_nearby(clues, known, c, 2) == answers[1]  # c itself never counts
            assert answers == sorted(answers)  # False before True
            if not any(answers):
                continue
            proved += 1
            counted = count_solutions(make_problem(clues, fewer), probabilities=True)
            assert counted.exact
            r, q = divmod(c, shape[1])
            window = np.s_[max(r - 1, 0) : r + 2, max(q - 1, 0) : q + 2]
            assert np.array_equal(np.array(counted.probabilities, dtype=float)[window], field[window].astype(float))
    assert proved > 10


@pytest.mark.slow
@needs_numba
@pytest.mark.parametrize("shape", [(3, 40), (40, 3), (17, 23)])
def test_check_near_the_clue_as_a_shortcut_changes_no_decision(monkeypatch, shape):
    """Elimination-grade generation in one pass in turn (first_part None) with the local pairwise check
    (Options.local_radii) as a shortcut keeps exactly the clues it keeps without it, on grids wider
    than the check's reach. The check settles removals, also (17 x 23) from puzzles that trimming
    solves only with elimination: trimming without the clue runs as it did with it."""
    if not sat.AVAILABLE:
        pytest.skip("needs python-sat")
    settled = []  # the removals the check settled, to look at the puzzles they came from
    real = kernels.window_fixed_nearby

    def spy(clues, known, c, radius, start=None):
        proved = real(clues, known, c, radius, start=start)
        if proved:
            settled.append((known.copy(), c))
        return proved

    monkeypatch.setattr(kernels, "window_fixed_nearby", spy)
    rng = np.random.default_rng(sum(shape))
    field = random_field(*shape, 50, rng)
    order = rng.permutation(field.size)
    clues = status(field)
    with_check, passes = gen_elimination.remove_elimination(Job(Options(first_part=None)), field, order)
    without, passes_without = gen_elimination.remove_elimination(Job(Options(first_part=None, local_radii=())), field, order)
    assert np.array_equal(with_check, without) and passes == passes_without
    assert len(settled) > 20
    assert trim.solve(make_problem(clues, with_check)).verdict is Verdict.UNIQUE
    if shape == (17, 23):
        before = []
        for known, c in settled[-40:]:
            known.flat[c] = True  # the puzzle the clue was removed from
            before.append(trim.solve(make_problem(clues, known)).stats.get("rule:elimination", 0) > 0)
        assert any(before)


@pytest.mark.parametrize("shape", [(1, 14), (14, 1), (2, 12), (9, 11), (11, 9), (23, 26)])
def test_python_twin_of_the_check_near_the_clue_gives_the_compiled_answer(shape):
    """window_fixed_nearby_python (trim's basic and pairwise rules on the clues near c)
    answers as kernels.window_fixed_nearby, at radii that see the whole grid or part of it, on
    puzzles with some clues gone: the path without numba makes the same removals."""
    from recon.generation.local import window_fixed_nearby_python

    rng = np.random.default_rng(sum(shape) + 3)
    answers = []
    for _ in range(12):
        field = random_field(*shape, int(rng.integers(25, 75)), rng)
        clues = status(field)
        known = rng.random(shape) < rng.uniform(0.4, 1.0)
        for c in rng.choice(field.size, 4, replace=False).tolist():
            known.flat[c] = False
            for radius in (1, 3, 10):
                python = window_fixed_nearby_python(clues, known, c, radius)
                if kernels.AVAILABLE:
                    assert kernels.window_fixed_nearby(clues, known, c, radius) == python, (c, radius)
                    # out of room for derived equations: it starts again with more, not a "no"
                    assert kernels.window_fixed_nearby(clues, known, c, radius, capacity=2) == python
                answers.append(python)
    assert any(answers) and not all(answers)


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(1, 12), (12, 1), (2, 9), (7, 5), (9, 14)])
def test_elimination_generation_gives_the_same_puzzle_on_every_path(monkeypatch, shape):
    """Elimination-grade generation (the clues the pairwise rules alone can do without first, then
    the others with every pass they need) keeps the same clues, in as many passes, with python-sat
    and numba, with numba alone and with neither: same seed, same puzzle."""
    densities = (5, 35) if min(shape) == 2 else (20, 70)  # 2 x k: dense fields are rarely unique
    paths = [Options(sat=False, compiled=False)]
    if kernels.AVAILABLE:
        paths.append(Options(sat=False, compiled=True))
        if sat.AVAILABLE:
            paths.append(Options(sat=True, compiled=True))
    compared = removed = 0
    for seed in range(400):
        if compared == 3:
            break
        rng = np.random.default_rng(seed)
        field = random_field(*shape, int(rng.integers(*densities)), rng)
        if not grades.is_trimmed(make_problem(status(field))):
            continue
        order = rng.permutation(field.size)
        results = []
        for options in paths:
            known, passes = gen_elimination.remove_elimination(Job(options), field, order)
            results.append((known.tobytes(), passes))
        assert len(set(results)) == 1, (shape, seed, results)
        compared += 1
        removed += int((~known).sum())
    assert compared == 3 and removed > 0


@pytest.mark.slow
@needs_numba
@pytest.mark.parametrize("first_part", ["advanced", "local"])
@pytest.mark.parametrize("shape", [(3, 40), (40, 3), (13, 17)])
def test_first_part_gives_a_minimal_elimination_puzzle(monkeypatch, shape, first_part):
    """With the clues the pairwise rules alone can do without removed first (first_part
    "advanced"), or those the check near them settles ("local"), on grids wider than the check's
    reach: trimming solves the result, no clue of it can go (each checked with the Python
    trimmer), and most removals needed no whole-grid trim. The advanced first part removes
    exactly what advanced generation removes, so the elimination passes start from that puzzle."""
    job = Job(Options(first_part=first_part))
    starts = []  # the puzzle the elimination passes start from
    advanced = gen_elimination.remove_advanced
    monkeypatch.setattr(gen_elimination, "remove_advanced", lambda *a, **k: starts.append(advanced(*a, **k)) or starts[-1])
    rng = np.random.default_rng(sum(shape) + 1)
    field = random_field(*shape, 50, rng)
    clues = status(field)
    if not trim.solve(make_problem(clues)).verdict is Verdict.UNIQUE:
        pytest.skip("this field's full status is not trimmed")
    order = rng.permutation(field.size)
    known, passes = gen_elimination.remove_elimination(job, field, order)
    assert trim.solve(make_problem(clues, known)).verdict is Verdict.UNIQUE
    for r, c in np.argwhere(known):
        fewer = known.copy()
        fewer[r, c] = False
        assert trim.solve(make_problem(clues, fewer)).verdict is not Verdict.UNIQUE, (r, c)
    if first_part == "advanced":
        assert len(starts) == 1 and (known <= starts[0]).all()  # the passes only remove clues
        assert grades.is_advanced(make_problem(clues, starts[0]))
        assert np.array_equal(starts[0], gen_advanced.remove_advanced(Job(), field, order, None))
    else:
        assert starts == []


@pytest.mark.parametrize("cold", [True, False])
def test_progress_says_when_the_compiled_kernels_compile(monkeypatch, cold):
    """Compiling numba's kernels (a first run: 20-40 s) is told to the job's progress callback at
    once, once; loading them from numba's cache is not told."""
    numba = pytest.importorskip("numba")
    from recon.compiled import jit

    monkeypatch.setattr(jit, "_loaded", False)
    monkeypatch.setattr(jit, "cached", lambda: not cold)
    monkeypatch.setattr(numba, "njit", lambda **options: (lambda function: function))  # no compiling here
    lines = []
    job = Job(Options(progress=lines.append))
    job.load_kernels()
    job.load_kernels()  # loaded: nothing more to say
    assert len(lines) == cold and all(line.startswith("compiling numba's kernels") for line in lines)
    monkeypatch.setattr(jit, "_loaded", False)
    Job(Options()).load_kernels()  # without a callback: silent


@pytest.mark.slow
def test_a_group_too_large_proves_trimming_fails_with_fewer_clues(monkeypatch):
    """kernels.trim_verdict: when trimming without clue c fails on a group of open cells too large
    for elimination, its LargeGroup is a proof for puzzles with fewer clues: along removal paths
    (small limits, as in the test above), whenever still_too_large says so later, trimming
    without c fails there (compiled and trim's own), and its answer is trims_fully's."""
    pytest.importorskip("numba")

    rng = np.random.default_rng(5)
    met = {"proof holds": 0, "proof lost": 0}
    for shape in [(1, 23), (23, 1), (2, 17), (9, 13), (14, 8)] * 2:
        field = rng.random(shape) < rng.uniform(0.3, 0.7)
        clues, known = status(field), np.ones(shape, dtype=bool)
        limit = int(rng.choice([3, 10, 20, 40, 60]))
        if not kernels.trims_fully(clues, known, max_cells=limit):
            continue  # solved_with needs a start that trimming solves (as generation's)
        proofs = {}
        for c in rng.permutation(field.size).tolist():
            for d, large in proofs.items():
                if known.flat[d]:
                    without = known.copy()
                    without.flat[d] = False
                    holds = large.still_too_large(without.ravel())
                    assert holds == (max(_parts(large, without)) > limit)
                    if holds:
                        met["proof holds"] += 1
                        assert not kernels.trims_fully(clues, without, max_cells=limit)
                        assert trim.solve(make_problem(clues, without), max_cells=limit).verdict is not Verdict.UNIQUE
                    else:
                        met["proof lost"] += 1
            known.flat[c] = False
            solved, large = kernels.trim_verdict(clues, known, solved_with=c, max_cells=limit)
            assert solved == kernels.trims_fully(clues, known, max_cells=limit)
            if large is not None:
                proofs[c] = large
            if not solved:
                known.flat[c] = True
    assert all(met.values()), met


def _parts(large, known):
    """The sizes of the parts a LargeGroup's cells fall into through the clues in force that see
    two or more of them, by a plain union-find over the grid (not the group's own bookkeeping)."""
    rows, cols = known.shape
    cells = set(large.member_cells.tolist())
    parent = {x: x for x in cells}

    def root(x):
        while parent[x] != x:
            x = parent[x]
        return x

    for k in np.flatnonzero(known.ravel()):
        r, q = divmod(int(k), cols)
        seen = [i * cols + j for i in range(max(r - 1, 0), min(r + 2, rows)) for j in range(max(q - 1, 0), min(q + 2, cols)) if i * cols + j in cells]
        for x in seen[1:]:
            parent[root(x)] = root(seen[0])
    sizes = {}
    for x in cells:
        sizes[root(x)] = sizes.get(root(x), 0) + 1
    return list(sizes.values())


@pytest.mark.slow
def test_generation_keeps_the_same_clues_with_the_large_group_proofs():
    """Elimination generation skips the trim of a clue its LargeGroup proof keeps (later passes):
    the same puzzles as trimming every time (small limits, non-square grids)."""
    pytest.importorskip("numba")
    if not sat.AVAILABLE:
        pytest.skip("the proofs are used on the SAT path")
    made = {}
    for use in (True, False):  # without the proofs every clue is trimmed again
        options = Options(elimination_max_cells=30, large_group_proofs=use)
        made[use] = [generate_puzzle(*shape, 50, np.random.default_rng(s), difficulty="elimination", options=options)
                     for shape in [(9, 13), (14, 8), (4, 25)] for s in range(3)]
    assert [p.known.tobytes() for p in made[True]] == [p.known.tobytes() for p in made[False]]


@pytest.mark.parametrize("shape", [(1, 23), (23, 1), (2, 17), (9, 13), (14, 8)])
def test_the_pairwise_rules_stopped_at_a_window_answer_as_their_fixpoint(shape):
    """kernels.pairwise_window_fixed stops once clue c's window is fixed: its answer is whether
    the whole fixpoint (compiled, and the Python twin by recon.rules.trim) fixes that window,
    cold and from a warm start, on every clue of puzzles from random fields."""
    pytest.importorskip("numba")
    rng = np.random.default_rng(7 * sum(shape))
    python, compiled = Job(Options(compiled=False)), Job(Options(compiled=True))
    answers = Counter()
    for _ in range(8):
        field = rng.random(shape) < rng.uniform(0.2, 0.6)
        clues = status(field)
        known = rng.random(shape) < rng.uniform(0.4, 1.0)
        start = kernels.pairwise_fixed(clues, known & (rng.random(shape) < 0.7))
        full = kernels.pairwise_fixed(clues, known)
        for c in range(field.size):
            expected = grades.window_all_fixed(full, c)
            for warm in (None, start):
                assert kernels.pairwise_window_fixed(clues, known, c, warm) == expected
                assert grades.pairwise_window(compiled, clues, known, c, warm) == expected
            assert grades.pairwise_window(python, clues, known, c) == expected
            answers[expected] += 1
    assert answers[True] and answers[False]


@pytest.mark.parametrize("shape", [(1, 23), (23, 1), (2, 17), (9, 13), (14, 8)])
def test_pairwise_fixed_is_a_sound_warm_start_for_trimming(monkeypatch, shape):
    """kernels.pairwise_fixed of a puzzle with fewer clues: cells fixed to the field's values, all
    of them fixed by trimming's pairwise phase on the puzzle with more (trim's own, elimination off),
    and a warm start that changes neither trim_verdict's answer nor its LargeGroup, nor
    pairwise_fixed's own."""
    pytest.importorskip("numba")

    rng = np.random.default_rng(sum(shape))
    checked = 0
    for _ in range(12):
        field = rng.random(shape) < rng.uniform(0.2, 0.6)
        clues = status(field)
        known = rng.random(shape) < rng.uniform(0.5, 1.0)
        fewer = known & (rng.random(shape) < 0.8)
        start = kernels.pairwise_fixed(clues, fewer)
        fixed = start >= 0
        assert np.array_equal(start[fixed], field[fixed].astype(np.int8))
        assert np.array_equal(kernels.pairwise_fixed(clues, known, start=start), kernels.pairwise_fixed(clues, known))
        result = trim.solve(make_problem(clues, known), max_cells=0)  # trim's pairwise rules alone
        assert np.all(result.decided[fixed]), "the warm start fixes a cell the pairwise phase does not"
        for limit in (0, 10, 400):
            cold = kernels.trim_verdict(clues, known, max_cells=limit)
            warm = kernels.trim_verdict(clues, known, start=start, max_cells=limit)
            assert warm[0] == cold[0] == kernels.trims_fully(clues, known, max_cells=limit)
            assert (warm[1] is None) == (cold[1] is None)
            if cold[1] is not None:
                assert np.array_equal(warm[1].member_cells, cold[1].member_cells)
        checked += int(fixed.any())
    assert checked > 0
    contradictory = np.zeros(shape, dtype=np.int64)
    contradictory.flat[0] = 9  # more mines than the window has cells
    assert kernels.pairwise_fixed(contradictory, np.ones(shape, dtype=bool)) is None


@pytest.mark.slow
def test_warm_started_trims_keep_the_same_clues(monkeypatch):
    """Elimination generation with its trims started warm (warm_block, the blocks' own start from
    warm_outer clues) keeps the same clues as with cold trims, on non-square grids, with small
    blocks (many of them invalidated by removals)."""
    pytest.importorskip("numba")
    if not sat.AVAILABLE:
        pytest.skip("the warm start is used on the SAT path")
    made = {}
    for sizes in [(0, 0), (2, 3), (2, 16), (16, 256)]:
        options = Options(warm_block=sizes[0], warm_outer=sizes[1])
        made[sizes] = [generate_puzzle(*shape, 50, np.random.default_rng(s), difficulty="elimination", options=options).known.tobytes()
                       for shape in [(9, 13), (14, 8), (3, 30)] for s in range(3)]
    assert all(puzzle == made[0, 0] for puzzle in made.values())


@pytest.mark.parametrize("shape, mines", [((2, 7), [(0, 0)]), ((7, 2), [(0, 0)]), ((5, 1), [(0, 0), (3, 0)])])
def test_search_generation_on_a_singular_side_says_why_it_fails(shape, mines):
    """A side of 2 mod 3 cells makes the status map singular: a field whose full status has
    several solutions is no start for a search puzzle, and the message says that, and why."""
    from recon.generation import GenerationFailed

    field = np.zeros(shape, dtype=bool)
    for r, c in mines:  # the field minus the null vector (1, -1, 0, 1, -1 along the side) is a field too
        field[r, c] = True
    assert backtrack.solve(make_problem(status(field)), limit=2).verdict is Verdict.MULTIPLE
    with pytest.raises(GenerationFailed, match=r"has several solutions \(a side of [25] cells, and [25] mod 3 = 2"):
        make_puzzle(field, np.random.default_rng(0), difficulty="search")


@pytest.mark.parametrize("shape", [(3, 10), (10, 3), (7, 6)])
def test_an_elimination_clue_target_out_of_reach_still_gives_a_minimal_puzzle(shape):
    """--clues N for elimination: when N cannot be reached, the puzzle is minimal as it says,
    checked from scratch (trimming is not monotone, so that takes passes until one removes none);
    when N can be reached, it stops there. (Not every N can: with a few clues more than minimal,
    a 6x7 field's puzzles were all solved by the pairwise rules, too easy for the grade.)"""
    rng = np.random.default_rng(sum(shape))
    field = random_field(*shape, 50, rng)
    puzzle = make_puzzle(field, np.random.default_rng(1), difficulty="elimination", target=1)
    assert puzzle.minimal and puzzle.clue_count > 1 and puzzle.passes >= 2
    for r, c in np.argwhere(puzzle.known):
        fewer = puzzle.known.copy()
        fewer[r, c] = False
        assert trim.solve(make_problem(puzzle.clues, fewer)).verdict is not Verdict.UNIQUE, (r, c)
    within = make_puzzle(field, np.random.default_rng(1), difficulty="elimination", target=puzzle.clue_count + 3)
    assert not within.minimal and within.clue_count == puzzle.clue_count + 3


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(6, 19), (19, 6), (9, 13)])
def test_an_elimination_clue_target_stops_on_the_minimal_path(monkeypatch, shape):
    """--clues N for elimination, with N below the clues advanced's part keeps: removal stops at N
    on the path the minimal puzzle is reached by (so it keeps every clue of the minimal puzzle),
    and the puzzle needs elimination; the same with python-sat and numba and with neither. With N
    at or above that count, every puzzle of the path with N clues is solved by the pairwise rules:
    clues are added back to the path's first puzzle that needs elimination, and the puzzle with
    N clues still needs it and is still trimmed (the same on both paths too)."""

    rng = np.random.default_rng(sum(shape) + 11)
    compared = 0
    for _ in range(100):
        field = random_field(*shape, int(rng.integers(35, 65)), rng)
        if not grades.is_trimmed(make_problem(status(field))):
            continue
        order = rng.permutation(field.size)
        minimal, _ = gen_elimination.remove_elimination(Job(), field, order)
        kept = int(gen_advanced.remove_advanced(Job(), field, order, None).sum())
        if kept < minimal.sum() + 2:
            continue  # elimination removed one clue or none here
        target = kept - 1 - (kept - 1 - int(minimal.sum())) // 2  # above the minimal count
        first = None  # the path's first puzzle that needs elimination
        for count in (target, kept - 1, kept + 3):
            answers = []
            for options in (Options(), Options(sat=False, compiled=False)):
                known, passes = gen_elimination.remove_elimination(Job(options), field, order, count)
                answers.append(known.tobytes())
                problem = make_problem(status(field), known)
                assert known.sum() == count and (minimal <= known).all()
                assert grades.is_trimmed(problem) and not grades.is_advanced(problem)
            assert answers[0] == answers[1]
            if count == kept - 1:
                first = known
            elif count > kept:
                assert (first <= known).all()  # clues added back to it
        compared += 1
        if compared == 2:
            break
    assert compared == 2


def test_cli_says_when_the_clue_target_was_out_of_reach():
    code, out, err = run("generate", "4", "7", "50", "--seed", "2", "--puzzle", "--difficulty", "elimination", "--clues", "1")
    assert code == 0 and "not down to the 1 clues asked (--clues 1) but minimal: no remaining clue can be removed" in err
    assert "passes, until one removed none" in err
    code, out, err = run("generate", "4", "7", "50", "--seed", "2", "--puzzle", "--clues", "20")
    assert code == 0 and "stopped at the 20 clues asked (--clues 20)" in err and "not down" not in err


@pytest.mark.parametrize("p", [0, 100])
@pytest.mark.parametrize("shape", [(1, 8), (8, 1), (4, 5)])
def test_a_grade_no_field_of_that_density_can_give_is_refused_at_once(shape, p):
    """At 0 % or 100 % every puzzle with one solution is basic (a 0 empties its window, a full
    count fills it), checked here on every clue subset of small grids; the other grades are
    refused at once (exit 2 from the CLI; it used to try 200 fields, minutes at 20x20)."""
    from itertools import product

    from recon.generation import GenerationFailed

    field = np.full(shape, p == 100)
    clues = status(field)
    if field.size <= 8:
        for bits in product([False, True], repeat=field.size):
            problem = make_problem(clues, np.array(bits).reshape(shape))
            if backtrack.solve(problem, limit=2).verdict is Verdict.UNIQUE:
                assert trim.solve(problem).grade == "basic"
    for difficulty in ("advanced", "elimination", "search"):
        with pytest.raises(GenerationFailed, match=f"no {difficulty} puzzle exists at P = {p} %"):
            generate_puzzle(*shape, p, np.random.default_rng(0), difficulty=difficulty)
        code, out, err = run("generate", str(shape[0]), str(shape[1]), str(p), "--puzzle", "--difficulty", difficulty)
        assert code == 2 and out == "" and "single-clue rules settle every clue" in err
    assert generate_puzzle(*shape, p, np.random.default_rng(0)).grade == "basic"


@pytest.mark.parametrize("k", [1, 2, 3, 5, 8])
@pytest.mark.parametrize("wide", [False, True])
def test_on_a_strip_one_cell_wide_the_pairwise_rules_solve_every_unique_puzzle(k, wide):
    """Every puzzle with one solution on a 1xk or kx1 strip, checked against all 2^k fields by
    brute force, is solved by the pairwise rules (every clue subset of every field: minimal ones
    are among them). This is the evidence behind trying one field, not 200, when an elimination
    or search puzzle is asked on a strip (docs/decisions.md carries the check to 14 cells)."""
    from itertools import product

    shape = (1, k) if wide else (k, 1)
    fields = [np.array(bits, dtype=bool).reshape(shape) for bits in product([False, True], repeat=k)]
    counts = np.array([status(f).ravel() for f in fields])
    checked = 0
    for mask in product([False, True], repeat=k):
        known = np.array(mask)
        seen = Counter(map(tuple, counts[:, known]))
        for f, row in zip(fields, counts):
            if seen[tuple(row[known])] == 1:  # no other field shows these clues
                assert grades.is_advanced(make_problem(row.reshape(shape), known.reshape(shape))), (f, mask)
                checked += 1
    assert checked > 0


@pytest.mark.parametrize("shape", [(1, 40), (40, 1)])
@pytest.mark.parametrize("difficulty", ["elimination", "search"])
def test_an_elimination_or_search_puzzle_on_a_strip_is_given_up_after_one_field(shape, difficulty):
    """A 1x2000 search request tried 200 fields of 20 orders (over 5 minutes); one now, and the
    message says why (exit 4: no puzzle found, as for any failed request)."""
    code, out, err = run("generate", str(shape[0]), str(shape[1]), "50", "--seed", "1", "--puzzle", "--difficulty", difficulty)
    assert code == 4 and out == ""
    assert f"no {difficulty} puzzle on a {shape[0]}x{shape[1]} strip" in err and "one field and one order" in err
    assert "exhaustive check up to 14 cells" in err


# -- advanced: the pairwise rules, monotone ----------------------------------------------------


def _advanced_from_scratch(field, order):
    """Advanced removal as remove_advanced orders it, every decision from scratch: first
    each clue the check near it settles (radius Options.pairwise_near), then the others in the same
    order, each kept unless the whole puzzle without it is still solved by the pairwise rules."""

    clues = status(field)
    known = np.ones(field.shape, dtype=bool)
    rest = []
    for c in order.tolist():
        known.flat[c] = False
        if not gen_local.window_fixed_nearby_python(clues, known, c, Options().pairwise_near):
            known.flat[c] = True
            rest.append(c)
    for c in rest:
        known.flat[c] = False
        if not grades.is_advanced(make_problem(clues, known)):
            known.flat[c] = True
    return known


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(1, 16), (16, 1), (3, 14), (9, 7), (12, 17)])
def test_advanced_removal_makes_the_decisions_made_from_scratch_on_every_path(monkeypatch, shape):
    """The warm starts, the proofs that a clue must stay and the compiled rules only save time:
    with numba or without, with or without warm starts, with the far cells given at other radii,
    the clues kept are those re-checking the whole puzzle after every removal keeps."""

    rng = np.random.default_rng(sum(shape))
    field = random_field(*shape, 50, rng)
    order = rng.permutation(field.size)
    expected = _advanced_from_scratch(field, order)
    paths = [(False, 16, (6, 14)), (False, 0, (2, 3))]
    if kernels.AVAILABLE:
        paths += [(True, 16, (6, 14)), (True, 1, (3, 5)), (True, 0, (1, 20))]
    for use_kernels, block, given in paths:
        options = Options(compiled=use_kernels, warm_block=block, pairwise_given=given)
        known = gen_advanced.remove_advanced(Job(options), field, order, None)
        assert np.array_equal(known, expected), (use_kernels, block, given)


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(1, 20), (20, 1), (2, 17), (11, 13), (13, 11)])
def test_the_elimination_grade_check_in_one_run_answers_as_the_two_checks(monkeypatch, shape):
    """_needs_elimination (one run of the rules) says yes exactly when trimming solves the puzzle
    and the pairwise rules alone do not, compiled and in Python, on puzzles of every grade and on
    contradictory ones (some clues off by one)."""

    rng = np.random.default_rng(sum(shape) + 5)
    problems = []
    for _ in range(60):
        field = random_field(*shape, int(rng.integers(25, 75)), rng)
        clues = status(field)
        if rng.random() < 0.2:
            clues.flat[int(rng.integers(field.size))] += 1
        problems.append(make_problem(clues, rng.random(shape) < rng.uniform(0.4, 1.0)))
    if min(shape) >= 3:  # elimination-grade puzzles, and the same with a clue more or fewer
        for seed in range(3):
            puzzle = generate_puzzle(*shape, 50, np.random.default_rng(seed), difficulty="elimination")
            problems.append(make_problem(puzzle.clues, puzzle.known))
            for c in rng.choice(puzzle.clues.size, 4, replace=False).tolist():
                known = puzzle.known.copy()
                known.flat[c] = not known.flat[c]
                problems.append(make_problem(puzzle.clues, known))
    answers = []
    for problem in problems:
        expected = grades.is_trimmed(problem) and not grades.is_advanced(problem)
        for compiled in ((False, True) if kernels.AVAILABLE else (False,)):
            assert grades.needs_elimination(Job(Options(compiled=compiled, kernel_min_cells=0)), problem) == expected, compiled
        answers.append(expected)
    assert (any(answers) or min(shape) < 3) and not all(answers)


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(1, 20), (20, 1), (2, 17), (11, 13)])
def test_the_proof_that_a_clue_must_stay_is_sound_and_used(shape):
    """_must_stay says yes only when the pairwise rules on the whole puzzle without the clue
    leave a cell of its window open; it says yes to most such removals at radius 6. From a warm
    start (the rules' fixpoint with more clues gone, as generation gives it) it answers the same,
    compiled or in Python."""
    from recon.rules.trim import Trimmer

    rng = np.random.default_rng(sum(shape) + 7)
    proved = failing = 0
    for _ in range(6):
        field = random_field(*shape, 50, rng)
        clues = status(field)
        known = rng.random(shape) < 0.55
        for c in np.flatnonzero(known).tolist():
            fewer = known.copy()
            fewer.flat[c] = False
            trimmer = Trimmer(make_problem(clues, fewer), proof=False)
            trimmer.load()
            trimmer.run_pairwise()
            r, q = divmod(c, shape[1])
            window = [y * shape[1] + x for y in range(max(r - 1, 0), min(r + 2, shape[0]))
                      for x in range(max(q - 1, 0), min(q + 2, shape[1]))]
            open_there = not trimmer.all_fixed(window)
            warm = grades.pairwise_values_python(clues, fewer & (rng.random(shape) < 0.8))
            assert warm is not None and (warm < 0).any()
            for given in (1, 3, 6):
                stays = gen_local.must_stay_python(field, clues, fewer, c, given)
                assert not stays or open_there, (c, given)
                assert gen_local.must_stay_python(field, clues, fewer, c, given, warm) == stays, (c, given)
                if kernels.AVAILABLE:  # the compiled twin: the same answer
                    assert kernels.must_stay(clues, fewer, field, c, given) == stays, (c, given)
                    assert kernels.must_stay(clues, fewer, field, c, given, warm) == stays, (c, given)
            failing += open_there
            proved += gen_local.must_stay_python(field, clues, fewer, c, 6)
    assert failing > 0 and proved >= failing // 2


def test_advanced_puzzles_need_the_pairwise_rules_and_not_elimination():
    """An advanced puzzle: trimming's trace uses subset or overlap, never elimination, and the
    single-clue rules alone do not solve it; an elimination-grade one needs elimination."""
    for difficulty in ("advanced", "elimination"):
        puzzle = generate_puzzle(10, 13, 50, np.random.default_rng(4), difficulty=difficulty)
        result = trim.solve(make_problem(puzzle.clues, puzzle.known))
        rules = {step.rule for step in result.trace}
        assert result.verdict is Verdict.UNIQUE and result.grade == difficulty
        assert rules & {"subset", "overlap"}
        assert ("elimination" in rules) == (difficulty == "elimination")


def test_cli_generates_each_grade_and_explain_agrees(tmp_path):
    for difficulty in ("advanced", "elimination"):
        code, out, err = run("generate", "8", "11", "50", "--seed", "4", "--puzzle", "--difficulty", difficulty)
        assert code == 0 and f"grade {difficulty}, minimal" in err
        path = tmp_path / f"{difficulty}.txt"
        path.write_text(out)
        code, text, _ = run("explain", str(path))
        assert code == 0 and f"(grade {difficulty})" in text


def test_cli_elimination_with_many_clues_asked_keeps_the_grade(tmp_path):
    """--clues 0.7 for elimination, far above what the pairwise rules need: the puzzle has that many
    clues, the report says so, and `recon explain` grades it elimination."""
    code, out, err = run("generate", "12", "17", "50", "--seed", "3", "--puzzle", "--difficulty", "elimination", "--clues", "0.7")
    assert code == 0 and "143 of 204 clues" in err and "grade elimination, stopped at the 143 clues asked" in err
    path = tmp_path / "many.txt"
    path.write_text(out)
    code, text, _ = run("explain", str(path))
    assert code == 0 and "(grade elimination)" in text


def test_cli_offers_exactly_the_generators_difficulties():
    """The CLI lists the grades itself (it does not import the generator before it is asked to
    generate); the list must stay the generator's."""
    from recon.cli import build_parser
    from recon.generation import DIFFICULTIES

    parser = build_parser()
    generate = next(a for a in parser._subparsers._group_actions[0].choices["generate"]._actions if a.dest == "difficulty")
    assert tuple(generate.choices) == DIFFICULTIES
