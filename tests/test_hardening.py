"""The edges: every malformed or oversized input gets a clear message and exit 2 (never 70, never
a traceback), sizes are refused before memory is taken, and answers stay exact at any size."""

from __future__ import annotations

import inspect
import io
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import DATA
from recon import make_problem, random_field, status
from recon.cli import main
from recon.counting import count_solutions
from recon.engines import algebra, backtrack
from recon.io.foreign import mosaic_refusal, read_any_status
from recon.io.text import format_status
from recon.engines.algebra import null_pattern


def run(*argv, stdin: bytes | None = None, monkeypatch=None):
    out, err = io.StringIO(), io.StringIO()
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def solve_bytes(tmp_path, data: bytes, name="in.txt", *extra):
    path = tmp_path / name
    path.write_bytes(data)
    return (*run("solve", str(path), *extra), str(path))


# -- reproducers of the audit: each a clear exit 2 with file, line and column ---------------
@pytest.mark.parametrize(
    "name, data, where, words",
    [
        ("a.xml", b"<\xff", ":1:2:", "UTF-8"),
        ("b.txt", b"<puzzle><board height='3' width='3'><!-- \xfe --></board></puzzle>", ":1:", "UTF-8"),
        ("c.txt", b"3\n# \xff\n1.1\n...\n1.1\n", ":2:", "UTF-8"),  # hakank, a bad byte in a comment
        ("d.txt", "\u00b2\n12\n34\n".encode(), ":1:1:", "'\u00b2'"),
        ("e.txt", "0\u24633\n123\n".encode(), ":1:2:", "'\u2463'"),
        ("f.txt", "\u0663\n123\n123\n123\n".encode(), ":1:1:", "'\u0663'"),  # an Arabic-Indic 3 is no size
        ("g.txt", b"1x99999999999:", ":1:1:", "Mosaic width and height"),
        ("h.txt", b"3x3:4A25d1", ":1:6:", "a letter a-z"),
        ("i.xml", b'<puzzle name="Fillapix"><board height="5000" width="5000"></board></puzzle>', ":1:", "25,000,000 cells"),
        ("j.xml", b'<board height="3" width="3"><cells><cell value="1" x="99999999999999" y="0"/></cells></board>', ":1:", "whole-number"),
    ],
)
def test_malformed_inputs_get_exit_2_with_a_place(tmp_path, name, data, where, words):
    code, out, err, path = solve_bytes(tmp_path, data, name)
    assert code == 2 and not out
    assert err.startswith(path + where) and words in err, err
    assert "internal error" not in err and "Traceback" not in err


@pytest.mark.parametrize("shape", [(3, 4301), (4301, 3), (2, 5000)])
def test_long_rows_are_read_not_converted(tmp_path, shape):
    """A first row of more than 4,300 digits once hit Python's int() limit in the hakank check."""
    field = random_field(*shape, 30, np.random.default_rng(sum(shape)))
    code, out, err, _ = solve_bytes(tmp_path, format_status(status(field)).encode())
    assert code in (0, 3), err
    assert _fields(out) and all(np.array_equal(status(f), status(field)) for f in _fields(out))


def _fields(text: str) -> list[np.ndarray]:
    from recon import parse_field

    return [parse_field(block) for block in text.strip("\n").split("\n\n")] if text.strip() else []


def test_a_large_declared_size_is_refused_before_it_is_made_and_max_cells_raises_the_limit(tmp_path):
    path = tmp_path / "big.txt"
    path.write_text("200x100:" + "z" * 769 + "f\n")  # 20,000 cells without a clue
    code, _, err = run("count", str(path), "--max-cells", "19999")
    assert code == 2 and "20,000 cells" in err and "19,999" in err
    code, out, err = run("count", str(path), "--max-cells", "20000")
    assert code == 3 and out == f"{2**20000} solutions\n" and "the count is 2^20000" in err


@pytest.mark.parametrize("shape", [(1000, 1001), (1, 1_000_001), (1_000_001, 1)])
def test_explain_has_a_lower_cell_limit_that_max_cells_raises(tmp_path, shape):
    """explain holds trimming's state and every deduction for the whole grid (a 1000x1000 full
    status took 2.9 GB): its own default limit refuses a larger grid with exit 2 before solving,
    as a Mines ID declaring it is refused before it is made; --max-cells raises it, as elsewhere."""
    import recon.cli as cli

    rows, cols = shape
    width = 26  # a Mosaic ID of cells without a clue: its size is declared before any cell is read
    path = tmp_path / "big.txt"
    whole, rest = divmod(rows * cols, width)
    path.write_text(f"{cols}x{rows}:" + "z" * whole + (chr(ord("a") + rest - 1) if rest else "") + "\n")
    code, out, err = run("explain", str(path))
    assert code == 2 and not out and f"{rows * cols:,} cells" in err and f"{cli.EXPLAIN_MAX_CELLS:,}" in err
    assert "--max-cells" in err
    code, out, err = run("solve", str(path), "--explain")  # and solve's --explain, which writes the same proof
    assert code == 2 and not out and f"{cli.EXPLAIN_MAX_CELLS:,}" in err and "--max-cells" in err
    code, out, err = run("convert", str(path), "--format", "mosaic")  # the other commands take it
    assert code == 0 and out.startswith(f"{cols}x{rows}:")


def test_explain_past_its_own_limit_runs_when_max_cells_allows(tmp_path, monkeypatch):
    import recon.cli as cli

    path = tmp_path / "strip.txt"
    path.write_text("1" * 30 + "\n")
    code, _, err = run("explain", str(path), "--max-cells", "29")
    assert code == 2 and "30 cells" in err
    code, out, _ = run("explain", str(path), "--max-cells", "30")
    assert code in (0, 3) and out.startswith("Equations")
    monkeypatch.setattr(cli, "EXPLAIN_MAX_CELLS", 29)  # solve --explain: its limit unless --max-cells is given
    code, _, err = run("solve", str(path), "--explain")
    assert code == 2 and "30 cells" in err and "29 cells" in err
    code, out, err = run("solve", str(path), "--explain", "--max-cells", "30")
    assert code in (0, 3) and "Equations" in out + err
    code, out, err = run("solve", str(path), "--explain", "--max-cells", str(cli.MAX_CELLS))  # given, though the usual limit
    assert code in (0, 3) and "Equations" in out + err
    assert run("solve", str(path))[0] in (0, 3)


@pytest.mark.parametrize("rows, cols", [(100_000, 100_000), (1, 20_000_000)])
def test_generate_refuses_a_grid_too_large_before_drawing_it(rows, cols):
    code, out, err = run("generate", str(rows), str(cols), "30")
    assert code == 2 and not out and f"{rows * cols:,} cells" in err and "--max-cells" in err


def test_a_device_is_read_up_to_the_cap_and_refused(monkeypatch):
    import recon.cli as cli

    monkeypatch.setattr(cli, "MAX_INPUT_BYTES", 1000)
    code, _, err = run("solve", "/dev/zero")
    assert code == 2 and "/dev/zero is more than" in err


@pytest.mark.parametrize("shape", [(1, 7), (7, 1), (2, 9), (120, 120)])
def test_a_grid_without_clues_has_2_to_the_cells_solutions_at_once(tmp_path, shape):
    path = tmp_path / "open.txt"
    path.write_text(("?" * shape[1] + "\n") * shape[0])
    code, out, err = run("count", str(path))
    assert code == 3 and out == f"{2 ** (shape[0] * shape[1])} solutions\n"
    code, out, err = run("solve", str(path), "--json")
    assert code == 3 and "internal error" not in err


# -- Mosaic game IDs as Tatham's decode_params reads them -----------------------------------
@pytest.mark.parametrize("params", ["3", "3x3", "3x3h0", "3h1", "3x3h"])
def test_mosaic_parameter_forms(params):
    clues, known, fmt = read_any_status(f"{params}:a4b5a00a\n")
    assert fmt == "mosaic" and clues.shape == (3, 3) and int(known.sum()) == 4


@pytest.mark.parametrize("shape, refused", [((3, 3), False), ((2, 5), True), ((100, 100), False), ((100, 101), True)])
def test_mosaic_ids_tatham_would_refuse_are_named(shape, refused):
    assert (mosaic_refusal(shape) is not None) == refused


def test_writing_a_mosaic_id_tatham_refuses_warns():
    code, out, err = run("generate", "2", "7", "50", "--seed", "1", "--format", "mosaic")
    assert code == 0 and out.startswith("7x2:") and "Tatham's Mosaic refuses" in err


# -- answers stay exact where the old code overflowed its stack or its time ----------------
def _coupled_ambiguous(n: int, k: int, seed: int) -> np.ndarray:
    """A field on an n x n grid (n = 2 mod 3) whose k rows and k columns follow T's null vector,
    so that each can flip, coupled: one group of many lines."""
    rng = np.random.default_rng(seed)
    field = rng.random((n, n)) < 0.3
    v = null_pattern(n)
    for j in rng.choice(n, k, replace=False):
        field[j, v == 1], field[j, v == -1] = False, True
    for j in rng.choice(n, k, replace=False):
        field[v == 1, j], field[v == -1, j] = False, True
    return field


def test_a_large_coupled_group_is_enumerated_without_deep_recursion():
    """A group of 67 coupled lines once took 67 nested calls (a 2000 x 2000 status took more than
    Python's limit): with a stack limit of 25 frames more than here, the enumeration still runs,
    lists the same first fields and stops at its budget with a lower bound."""
    field = _coupled_ambiguous(50, 20, 0)
    problem = make_problem(status(field))
    groups, _ = algebra.Solutions(problem, budget=50)._count_groups()
    assert max(len(g["nodes"]) for g in groups) >= 60
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 25)
    try:
        sols = algebra.Solutions(problem, budget=50)
    finally:
        sys.setrecursionlimit(limit)
    assert sols.count >= 2 and not sols.count_exact
    fields = list(sols.iter_fields(5))
    assert len(fields) == 5 and all(np.array_equal(status(f), status(field)) for f in fields)


def test_algebra_keeps_its_time_limit_on_coupled_groups():
    field = _coupled_ambiguous(200, 30, 1)
    result = algebra.solve(make_problem(status(field)), time_limit=0.5)
    assert result.seconds < 1.5
    assert result.verdict.value in ("multiple", "undecided") and not result.count_exact
    counted = count_solutions(make_problem(status(field)), probabilities=True, time_limit=0.5)
    assert counted.seconds < 1.5 and not counted.exact and "ran out" in counted.reason


@pytest.mark.parametrize("shape", [(2, 5), (5, 2), (5, 8)])
def test_an_exact_coupled_count_agrees_with_enumeration(shape):
    """The enumeration without recursion counts what backtracking counts (small coupled grids)."""
    rng = np.random.default_rng(sum(shape))
    for _ in range(20):
        field = rng.random(shape) < 0.4
        problem = make_problem(status(field))
        sols = algebra.Solutions(problem)
        n = sum(1 for _ in backtrack.iter_solutions(problem))
        assert sols.count_exact and sols.count == n


# -- output: atomic onto regular files, written through anything else, checked first ---------
SEED = b"011\n122\n122\n"


def test_out_through_a_symlink_writes_its_target_and_keeps_the_link(tmp_path):
    (tmp_path / "in.txt").write_bytes(SEED)
    target = tmp_path / "real.txt"
    target.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    code, _, _ = run("solve", str(tmp_path / "in.txt"), "--out", str(link))
    assert code == 0
    assert link.is_symlink() and target.read_text() == link.read_text() != "old\n"
    assert target.read_text().count("\n") == 3
    assert not list(tmp_path.glob(".recon-*"))


def test_out_into_a_fifo_is_written_through(tmp_path):
    import os
    import threading

    (tmp_path / "in.txt").write_bytes(SEED)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    def read():
        with open(fifo) as handle:
            got.append(handle.read())

    reader = threading.Thread(target=read)
    reader.start()
    code, _, err = run("solve", str(tmp_path / "in.txt"), "--out", str(fifo))
    reader.join(10)
    assert code == 0, err
    assert fifo.is_fifo() and got and got[0].count("\n") == 3


def test_out_onto_a_device_node_writes_to_it_and_keeps_it(tmp_path):
    import os
    import stat

    node = tmp_path / "null"
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a copy of /dev/null
    except PermissionError:
        pytest.skip("making a device node needs root")
    (tmp_path / "in.txt").write_bytes(SEED)
    code, _, err = run("solve", str(tmp_path / "in.txt"), "--out", str(node))
    assert code == 0, err
    assert stat.S_ISCHR(os.stat(node).st_mode)


@pytest.mark.parametrize("option", ["--out", "--field"])
def test_an_output_that_cannot_be_written_is_refused_before_the_work(tmp_path, option):
    code, out, err = run("generate", "3", "4", "50", option, str(tmp_path / "no" / "such" / "dir.txt"))
    assert code == 2 and not out and "cannot write" in err and option in err
    code, out, err = run("generate", "3", "4", "50", option, str(tmp_path))
    assert code == 2 and "directory" in err


@pytest.mark.parametrize("argv, first, second", [
    (("generate", "3", "4", "50"), "--out", "--field"),
    (("count", str(DATA / "seed-5x5.txt")), "--out", "--picture"),
    (("sweep", "--sizes", "1x4,4x1,2x3", "--trials", "2"), "--out", "--parquet"),
    (("sweep", "--sizes", "1x4,4x1,2x3", "--trials", "2"), "--out", "--plot"),
])
def test_two_outputs_that_name_one_file_are_refused_before_the_work(tmp_path, argv, first, second):
    """One output would overwrite the other (a sweep's CSV, which a rerun resumes from, by its
    Parquet copy): the same path, a relative one, a symbolic link and a hard link to it."""
    target = tmp_path / "out.png"
    target.write_text("kept\n")
    (tmp_path / "link.png").symlink_to(target)
    os.link(target, tmp_path / "hard.png")
    for other in (str(target), os.path.relpath(target), str(tmp_path / "link.png"), str(tmp_path / "hard.png")):
        code, out, err = run(*argv, first, str(target), second, other)
        assert code == 2 and not out, err
        assert err.startswith(f"recon: {first} ") and f"and {second} " in err and "name the same file" in err
        assert target.read_text() == "kept\n"


def test_two_outputs_to_one_device_are_written_both(tmp_path):
    code, _, err = run("generate", "3", "4", "50", "--seed", "1", "--out", os.devnull, "--field", os.devnull)
    assert code == 0, err
    code, _, err = run("generate", "3", "4", "50", "--seed", "1", "--out", str(tmp_path / "a.txt"),
                       "--field", str(tmp_path / "b.txt"))
    assert code == 0, err
    assert (tmp_path / "a.txt").read_text() != (tmp_path / "b.txt").read_text()


def test_a_sweep_csv_named_as_parquet_is_refused(tmp_path):
    code, out, err = run("sweep", "--sizes", "2x3", "--trials", "1", "--out", str(tmp_path / "r.Parquet"))
    assert code == 2 and not out and "--parquet FILE" in err
    assert not list(tmp_path.iterdir())


def test_sigterm_while_writing_removes_the_temporary_file_and_keeps_the_old_one(tmp_path, monkeypatch):
    import os
    import signal

    import recon.io.files as files

    (tmp_path / "in.txt").write_bytes(SEED)
    out = tmp_path / "out.txt"
    out.write_text("old\n")
    monkeypatch.setattr(files.os, "fsync", lambda fd: os.kill(os.getpid(), signal.SIGTERM))
    code, _, err = run("solve", str(tmp_path / "in.txt"), "--out", str(out))
    assert code == 128 + signal.SIGTERM and "terminated" in err
    assert out.read_text() == "old\n" and not list(tmp_path.glob(".recon-*"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="HiGHS runs in a child on Linux only")
def test_sigterm_stops_a_large_milp_solve_without_a_time_limit_and_its_child(tmp_path):
    """MILP without a deadline ran HiGHS in process, which held SIGTERM off until it returned: a
    1000x1000 classic board's solve ignored it for over an hour. Past milp.CHILD_CELLS it runs in
    a forked child, so the command stops at once with 143, and the child with it."""
    import signal
    import time

    board = tmp_path / "board.txt"
    assert main(["generate", "200", "200", "--classic", "--mines", "5000", "--seed", "1", "--out", str(board)],
                io.StringIO(), io.StringIO()) == 0
    command = [sys.executable, "-m", "recon", "solve", str(board), "--engine", "milp", "-q"]
    game = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    time.sleep(4)  # HiGHS is at work (it takes minutes on this board)
    assert game.poll() is None
    sent = time.perf_counter()
    game.send_signal(signal.SIGTERM)
    _, err = game.communicate(timeout=30)
    assert game.returncode == 128 + signal.SIGTERM and b"terminated" in err
    assert time.perf_counter() - sent < 10
    with pytest.raises(ProcessLookupError):  # nothing of its session is left: the child is gone
        for _ in range(50):
            os.killpg(game.pid, 0)
            time.sleep(0.1)


def test_a_second_sigterm_while_the_first_unwinds_is_ignored(tmp_path, monkeypatch):
    """GNU timeout sends SIGTERM to the process and then to its group: the second one arrived
    while the first was being reported and ended in a traceback."""
    import os
    import signal

    import recon.io.files as files

    (tmp_path / "in.txt").write_bytes(SEED)
    out = tmp_path / "out.txt"

    def twice(fd):
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(files.os, "fsync", twice)
    real = files.os.unlink

    def unlink_after_another_term(path):  # the cleanup of the first one
        os.kill(os.getpid(), signal.SIGTERM)
        real(path)

    monkeypatch.setattr(files.os, "unlink", unlink_after_another_term)
    previous = signal.getsignal(signal.SIGTERM)
    code, _, err = run("solve", str(tmp_path / "in.txt"), "--out", str(out))
    assert code == 128 + signal.SIGTERM and err.strip().endswith("recon: terminated")
    assert not out.exists() and not list(tmp_path.glob(".recon-*"))
    assert signal.getsignal(signal.SIGTERM) == previous  # restored for the caller


# -- time limits: a fair share under --engine all, no engine started that cannot set up ------
@pytest.mark.slow
def test_under_all_every_engine_gets_a_fair_share_of_the_time_limit():
    """The first engine once took the whole limit and the others got 1 ms: SAT, which proves
    this minimal search-grade puzzle in a fraction of a second, said undecided."""
    from recon import Verdict, solve
    from recon.generation import generate_puzzle

    puzzle = generate_puzzle(36, 41, 50, np.random.default_rng(2), difficulty="search")
    result = solve(puzzle.clues, puzzle.known, engine="all", time_limit=2.5)
    assert result.verdict is Verdict.UNIQUE and np.array_equal(result.solutions[0], puzzle.field)
    assert result.engines["sat"].verdict is Verdict.UNIQUE


@pytest.mark.parametrize("shape", [(1, 40_000), (200, 200)])
def test_an_engine_whose_share_is_shorter_than_its_setup_is_not_started(shape):
    from recon import Verdict, solve

    field = random_field(*shape, 40, np.random.default_rng(1))
    known = np.random.default_rng(2).random(shape) < 0.5
    result = solve(status(field), known, engine=["backtrack", "milp", "trim"], time_limit=0.02)
    assert result.verdict is Verdict.UNDECIDED
    assert all(r.reason.startswith("not run") and r.seconds == 0 for r in result.engines.values())


@pytest.mark.parametrize("shape", [(1000, 1000), (1, 1_000_000), (1_000_000, 1)])
def test_a_sparse_status_is_decided_within_a_time_limit_its_size_alone_would_refuse(shape):
    """Setup is estimated from the clues as well as the cells: a status of a million cells with
    one in a thousand a clue is set up in well under a second, and solved under a limit that a
    second per 100,000 cells would have refused to start."""
    from recon import Verdict, solve

    field = random_field(*shape, 30, np.random.default_rng(3))
    known = np.random.default_rng(4).random(shape) < 0.001
    result = solve(status(field), known, time_limit=8)
    assert result.verdict is Verdict.MULTIPLE and len(result.solutions) == 2
    assert not any((r.reason or "").startswith("not run") for r in result.engines.values())


# -- counting puzzles made to be unique ---------------------------------------------------------
def test_a_unique_puzzle_is_counted_by_sat_at_once_and_checked_against_brute_force():
    """`recon count` of a 40x40 search-grade puzzle said "at least 0" after 60 s: enumeration
    spent the limit on one group of 957 open cells. SAT now proves one solution first; on small
    puzzles the count and the probabilities are held to brute force."""
    pytest.importorskip("pysat")
    from itertools import product

    from recon.generation import generate_puzzle

    for shape, seed in (((3, 4), 1), ((1, 9), 2), ((4, 2), 3), ((9, 1), 4)):
        puzzle = generate_puzzle(*shape, 50, np.random.default_rng(seed), difficulty="basic")
        problem = make_problem(puzzle.clues, puzzle.known)
        fields = [np.array(bits, dtype=bool).reshape(shape) for bits in product([False, True], repeat=puzzle.field.size)]
        matching = [f for f in fields if (status(f) == puzzle.clues)[puzzle.known].all()]
        counted = count_solutions(problem, probabilities=True)
        assert counted.exact and counted.count == len(matching) == 1 and "SAT" in counted.method
        assert np.array_equal(np.array(counted.probabilities, dtype=float), matching[0].astype(float))
    puzzle = generate_puzzle(40, 40, 50, np.random.default_rng(2), difficulty="search", target=400)
    counted = count_solutions(make_problem(puzzle.clues, puzzle.known), time_limit=20)
    assert counted.exact and counted.count == 1


def test_the_first_counting_pass_leaves_time_for_sats_backbone(monkeypatch):
    """Without the SAT question first, the same kind of puzzle: super cells and the frontier
    gave up after a quarter of the limit, and SAT's backbone proved every cell (before, the first
    pass took the whole limit and the answer was "at least 0")."""
    pytest.importorskip("pysat")
    import recon.counting as counting
    from recon.generation import generate_puzzle

    monkeypatch.setattr(counting, "_unique_by_sat", lambda *args: None)
    puzzle = generate_puzzle(40, 40, 50, np.random.default_rng(2), difficulty="search", target=400)
    counted = count_solutions(make_problem(puzzle.clues, puzzle.known), time_limit=8)
    assert counted.exact and counted.count == 1 and "SAT proved" in counted.method


@pytest.mark.parametrize("closed, argv, code, out_lines, words", [
    (1, ["solve", "seed-3x3.txt"], 2, 0, "standard output is closed"),
    (1, ["autoplay", "--games", "1", "--rows", "1", "--cols", "9", "--mines", "1", "--workers", "1"], 2, 0,
     "standard output is closed"),
    (2, ["solve", "seed-3x3.txt"], 0, 3, None),  # messages dropped, as asked; the exit status still tells
    (2, ["solve", "seed-5x5.txt"], 3, 11, None),
    (2, ["solve", "missing.txt"], 2, 0, None),
    (0, ["solve", "-"], 2, 0, "standard input is closed"),
])
def test_a_closed_standard_stream_gets_a_message_not_an_internal_error(closed, argv, code, out_lines, words):
    """`recon ... >&-` (or 2>&-, <&-) leaves Python a None stream: each was an internal error (exit 70),
    or, with stderr closed, exit 1 from a traceback that could not be printed."""
    done = subprocess.run([sys.executable, "-m", "recon", *argv], cwd=DATA, capture_output=True, text=True,
                          preexec_fn=lambda: os.close(closed), timeout=120)
    assert done.returncode == code, done.stderr
    assert len(done.stdout.splitlines()) == out_lines, done.stdout
    assert words is None or words in done.stderr, done.stderr


def test_with_standard_output_closed_out_still_writes(tmp_path):
    out = tmp_path / "fields.txt"
    done = subprocess.run([sys.executable, "-m", "recon", "solve", str(DATA / "seed-5x5.txt"), "--out", str(out)],
                          capture_output=True, text=True, preexec_fn=lambda: os.close(1), timeout=120)
    assert done.returncode == 3 and len(_fields(out.read_text())) == 2, done.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("stream, argv, code", [
    ("stdout", ["solve", "seed-3x3.txt"], 2),
    ("stdout", ["generate", "200", "200", "30", "--seed", "1"], 2),  # more than one buffer's worth
    ("stderr", ["solve", "seed-3x3.txt"], 0),
    ("stderr", ["solve", "seed-5x5.txt"], 3),
    ("stderr", ["solve", "missing.txt"], 2),
])
def test_a_full_disk_under_a_standard_stream_is_not_an_internal_error(stream, argv, code):
    """A write that fails (/dev/full: no space left) was an internal error (exit 70) on stdout,
    and exit 1 from an unprintable traceback on stderr. Now stdout says so (exit 2) and stderr's
    messages are dropped, the exit status still the command's."""
    with open("/dev/full", "w") as full:
        redirect = {"stdout": full, "stderr": subprocess.PIPE} if stream == "stdout" else {"stdout": subprocess.PIPE, "stderr": full}
        done = subprocess.run([sys.executable, "-m", "recon", *argv], cwd=DATA, text=True, timeout=120, **redirect)
    assert done.returncode == code
    if stream == "stdout":
        assert "cannot write standard output: No space left on device" in done.stderr, done.stderr
    else:
        assert done.stdout or code == 2


@pytest.mark.parametrize("classic", [False, True])
@pytest.mark.parametrize("name, head, row, rows, width", [
    ("plain", b"", b"1\n", 200_000, 1), ("Windows line ends", b"", b"1\r\n", 200_000, 1),
    ("tokens", b"", b"1 1\n", 100_000, 2), ("indented", b"", b" 1\n", 200_000, 1),
    ("a comment first", b"# x\n", b"1\n", 200_000, 1), ("hakank's size first", b"200000\n", b"1\n", 200_000, None),
])
def test_a_grid_of_many_short_lines_is_refused_before_its_rows_are_kept(classic, name, head, row, rows, width):
    """Text of many short rows past --max-cells is refused with its size, at its first row, with
    memory of the order of the input's: the readers once kept every line (a 60 MB status of
    CR LF lines took 10 GB and 220 s to refuse, a 40 MB hakank-shaped one 25 s)."""
    import tracemalloc

    from recon.io.reading import problem_from_bytes
    from recon.io.text import FormatError

    data = head + row * rows
    tracemalloc.start()
    try:
        with pytest.raises(FormatError) as err:
            problem_from_bytes(data, "in.txt", rows // 2, classic=classic)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 12 * len(data), f"{peak:,} bytes to refuse {len(data):,}"
    message = str(err.value)
    if width is None:  # a hakank file by its shape: its declared size; a board: that line is its first row
        first, shape = (1, f"{rows}x{rows}") if not classic else (1, f"{rows + 1}x{len(head) - 1}")
    else:
        first, shape = head.count(b"\n") + 1, f"{rows}x{len(row.strip()) if classic else width}"
    assert message.startswith(f"in.txt:{first}:1: ") and f" is {shape} = " in message, message


@pytest.mark.parametrize("classic", [False, True])
def test_an_error_before_the_size_passes_the_limit_comes_first(classic):
    """The size is checked as the rows are read, so an error in the text before the rows pass the
    limit is the one reported, as when the whole text was read first; after it, the size."""
    from recon.io.reading import problem_from_bytes
    from recon.io.text import FormatError

    for gap_at, expected in ((50, "rows must be consecutive"), (5_000, "recon takes up to 1,000 cells")):
        data = b"1\n" * gap_at + b"\n" + b"1\n" * (10_000 - gap_at)
        with pytest.raises(FormatError) as err:
            problem_from_bytes(data, "in.txt", 1_000, classic=classic)
        assert expected in str(err.value), str(err.value)


def test_the_content_count_is_the_content_lines_counted():
    """detect counts a hakank file's lines without listing them (`_content_count`, a regular
    expression in C): the same number as the lines it would list, blank and comment lines left
    out, whatever whitespace the lines hold."""
    from recon.io.foreign import _content_count, _content_lines

    rng = np.random.default_rng(5)
    pieces = ["", " ", "#", " # x", "1", "1 2", "\r", "#\r", "x#", "\x1c", "\xa0", "\u2028", "\x85", " \t", "12#", "\f#"]
    for _ in range(3000):
        text = "\n".join(rng.choice(pieces) + rng.choice(pieces) for _ in range(rng.integers(0, 7)))
        assert _content_count(text) == len(_content_lines(text)), repr(text)


def test_an_endoh1_map_gives_its_header_on_one_line():
    """is_endoh1 asks what parse_endoh1 reads: W H C on one line, then W*H numbers; counted first,
    so that a long file of numbers is not read one by one to find it is not a map."""
    from recon.io.classic import is_endoh1

    assert is_endoh1(b"2 2 1\n3 0 2 1\n") and is_endoh1(b"\n  2 2 1 3\n0 2 1\n")
    assert not is_endoh1(b"2\n2 1\n3 0 2 1\n") and not is_endoh1(b"2 2 1\n3 0 2\n") and not is_endoh1(b"2 2 1\n3 0 2 1 4\n")
    assert not is_endoh1(b"2 2 1\n3 0 2 2\n") and not is_endoh1(b"") and not is_endoh1(b"  \n")


def test_text_is_read_a_line_at_a_time_as_split_would_give_it():
    """The readers take lines from `text_lines`, a chunk of text at a time: the same lines, with
    the same numbers, as splitting the whole text at LF, whatever the chunk."""
    from recon.io.text import text_lines

    rng = np.random.default_rng(9)
    for _ in range(2000):
        text = "".join(rng.choice(["a", "\n", "bb", "\n\n", "\r", "# c"]) for _ in range(rng.integers(0, 30)))
        for chunk in (1, 2, 5, 1 << 16):
            assert list(text_lines(text, chunk)) == list(enumerate(text.split("\n"), start=1)), (text, chunk)


@pytest.mark.parametrize("kind", ["endoh1", "legup", "legup minesweeper"])
def test_a_declared_size_is_refused_before_the_rest_of_the_text_is_kept(kind):
    """An endoh1 map's header and a LEGUP board's attributes declare the size: past --max-cells
    it is refused before the numbers or cells after it are kept (a map declaring 9999x9999
    followed by 40 million numbers took 36 s and 4.4 GB to be refused)."""
    import tracemalloc

    from recon.io.classic import parse_endoh1, parse_legup_minesweeper
    from recon.io.foreign import parse_legup
    from recon.io.text import FormatError

    if kind == "endoh1":
        data, read, where = b"3000 3000 0\n" + b"0 " * 300_000, parse_endoh1, (1, 1)
    else:
        name = "Fillapix" if kind == "legup" else "Minesweeper"
        cells = b'<cell value="1" x="0" y="0"/>' * 20_000
        data = (b'<Legup><puzzle name="' + name.encode() + b'"><board height="3000" width="3000"><cells>' + cells
                + b"</cells></board></puzzle></Legup>")
        read, where = (parse_legup if kind == "legup" else parse_legup_minesweeper), (1, 32 + len(name) - 8)
    tracemalloc.start()
    try:
        with pytest.raises(FormatError) as err:
            read(data.decode() if kind == "legup" else data, "in.txt", 1_000_000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (err.value.line, err.value.col) == where and "3000x3000 = 9,000,000 cells" in str(err.value), str(err.value)
    assert peak < 6 * len(data), f"{peak:,} bytes to refuse {len(data):,}"  # (2-3 times now, 13-54 before)


def test_looks_like_endoh1_answers_as_its_token_lists_did():
    """looks_like_endoh1 asks its three questions with regular expressions over the whole text;
    the answers are those of the lists of lines and tokens it once made (the oracle here), on
    random texts of digits, blanks, line ends of every kind and other characters."""
    import re

    from recon.io.classic import looks_like_endoh1

    def by_lists(data):
        if not re.match(rb"(?:\xef\xbb\xbf)?\s*\d", data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")):
            return False
        text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
        lines = [line.split() for line in text.splitlines() if line.strip()]
        tokens = [t for line in lines for t in line]
        return (bool(lines) and len(lines[0]) == 3 and all(t.isascii() and t.isdigit() for t in tokens)
                and any(t.lstrip("0") not in ("", "1") for t in tokens))

    rng = np.random.default_rng(11)
    pieces = ["0", "1", "2", "10", "01", "00", " ", "\n", "\r", "\x0b", "\x1c", "\u2028", "\xa0", "x", "\u0663", "\t"]
    answers = set()
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.integers(0, 12)))
        for data in (text, text.encode()):
            answers.add(looks_like_endoh1(data))
            assert looks_like_endoh1(data) == by_lists(data), repr(data)
    assert answers == {True, False}
