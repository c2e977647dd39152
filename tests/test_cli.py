"""The command line, through main([...]) and once through the installed console script."""

from __future__ import annotations

import importlib.util

import io
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from conftest import DATA, brute_force, keys
from recon import Result, Verdict, parse_field, parse_status, status
from recon.io.text import format_status
from recon.cli import main
from recon.engines import ENGINES


def run(*argv, stdin: bytes | None = None, monkeypatch=None):
    """Run main and return (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def fields_of(text: str) -> list[np.ndarray]:
    return [parse_field(block) for block in text.strip("\n").split("\n\n")] if text.strip() else []


@pytest.mark.parametrize("name, code, count", [("seed-3x3", 0, 1), ("seed-5x5", 3, 2), ("seed-7x7", 0, 1)])
def test_solve_seed_examples(seed_examples, name, code, count):
    clues, solutions = seed_examples[name]
    status_code, out, err = run("solve", str(DATA / f"{name}.txt"))
    assert status_code == code
    assert keys(fields_of(out)) == keys(solutions)
    if count == 1:
        assert err.startswith("unique: exactly one solution; grade ")
        assert "[algebra, cross-checked by backtrack (unique), trim (unique)" in err
    else:
        assert err.startswith("multiple: 2 solutions [")
        assert "solutions 1 and 2 differ in 4 cell(s)" in err


def test_solve_json(seed_examples):
    code, out, _ = run("solve", str(DATA / "seed-5x5.txt"), "--json")
    assert code == 3
    data = json.loads(out)
    assert data["verdict"] == "multiple" and (data["rows"], data["cols"]) == (5, 5)
    assert data["solution_count"] == 2 and data["count_exact"] is True
    assert keys(parse_field("\n".join(s)) for s in data["solutions"]) == keys(seed_examples["seed-5x5"][1])
    assert set(data["engines"]) == {"algebra", "backtrack", "trim"}  # trimming checks full statuses up to 100 cells
    assert data["engines"]["backtrack"]["verdict"] == "multiple" and data["engines"]["backtrack"]["seconds"] >= 0


def test_solve_from_stdin(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"011\n122\n122\n")))
    code, out, _ = run("solve", "-")
    assert code == 0 and out == "___\n__x\n_x_\n"


def test_solve_non_square_and_engine_choice(tmp_path):
    field = np.zeros((2, 7), dtype=bool)
    field[0, 6] = field[1, 0] = True
    path = tmp_path / "s.txt"
    path.write_text("".join("".join(map(str, row)) + "\n" for row in status(field)))
    for engine in ("backtrack", "milp", "all"):
        code, out, err = run("solve", str(path), "--engine", engine, "--max-solutions", "1000")
        solutions = fields_of(out)
        assert field.tobytes() in keys(solutions)
        assert all(s.shape == (2, 7) for s in solutions)
        assert code == (0 if len(solutions) == 1 else 3)


def test_max_solutions_and_inexact_count(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text("??\n??\n")
    code, out, err = run("solve", str(path), "--max-solutions", "3", "--engine", "backtrack")
    assert code == 3 and len(fields_of(out)) == 3
    assert "at least 4 solutions (showing 3; there may be more)" in err


def test_no_solution_names_a_clue(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text("003\n000\n")
    code, out, err = run("solve", str(path), "--engine", "backtrack")
    assert code == 1 and out == ""
    assert err.startswith("none: no field has these counts; clue r1c3 = 3")


def test_time_limit_gives_undecided(tmp_path):
    field = np.random.default_rng(1).random((40, 40)) < 0.5
    path = tmp_path / "s.txt"
    path.write_text("".join("".join(map(str, row)) + "\n" for row in status(field)))
    code, out, err = run("solve", str(path), "--engine", "milp", "--time-limit", "1e-9")
    assert code == 4 and err.startswith("undecided")


def test_out_writes_atomically_and_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "answer.txt"
    target.write_text("old content\n")
    code, out, _ = run("solve", str(DATA / "seed-3x3.txt"), "--out", str(target), "-q")
    assert code == 0 and out == ""
    assert target.read_text() == "___\n__x\n_x_\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["answer.txt"]


def test_out_into_missing_directory_is_a_usage_error(tmp_path):
    code, _, err = run("solve", str(DATA / "seed-3x3.txt"), "--out", str(tmp_path / "no" / "such.txt"))
    assert code == 2 and err.startswith("recon: cannot write")


def test_bad_input_gives_location_and_exit_2(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("011\n1z2\n122\n")
    code, out, err = run("solve", str(path))
    assert code == 2 and out == ""
    assert err == f"{path}:2:2: expected a count 0-9, or '?', '.' or '-' for a cell without a clue, got 'z'\n"


def test_bad_input_on_stdin_is_named_stdin(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    code, _, err = run("solve", "-")
    assert code == 2 and err.startswith("<stdin>:1:1: expected a status grid")


def test_missing_file(tmp_path):
    code, _, err = run("solve", str(tmp_path / "nope.txt"))
    assert code == 2 and "cannot read" in err and "No such file" in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["generate", "0", "5", "30"], "ROWS must be a whole number >= 1, got '0'"),
        (["generate", "5", "x", "30"], "COLS must be a whole number >= 1, got 'x'"),
        (["generate", "5", "5", "101"], "P must be a percentage from 0 to 100, got '101'"),
        (["generate", "5", "5", "abc"], "P must be a percentage from 0 to 100, got 'abc'"),
        (["generate", "5", "5", "nan"], "P must be a percentage from 0 to 100"),
        (["generate", "5", "5", "30", "--seed", "-1"], "N must be a whole number >= 0"),
        (["solve", "f", "--max-solutions", "0"], "K must be a whole number >= 1"),
        (["solve", "f", "--time-limit", "-2"], "SECONDS must be a positive number"),
        (["solve", "f", "--engine", "fast"], "invalid choice: 'fast'"),
        (["autoplay", "--workers", "1025"], "K must be a whole number from 1 to 1024, got '1025'"),
        (["sweep", "--sizes", "3x3", "--out", "r.csv", "--workers", "5000"], "K must be a whole number from 1 to 1024"),
        ([], "usage: recon"),
    ],
)
def test_usage_errors_exit_2_and_name_the_argument(capsys, argv, message):
    code, _, err = run(*argv)
    captured = capsys.readouterr()
    assert code == 2
    assert message in captured.err + err


def test_help_lists_exit_codes(capsys):
    code, _, _ = run("solve", "--help")
    assert code == 0
    text = capsys.readouterr().out
    assert "3   several solutions" in text and "70  internal error" in text and "143 stopped by SIGTERM" in text


@pytest.mark.parametrize("command", ["solve", "explain", "count", "render", "convert", "generate", "autoplay", "play",
                                     "sweep", "warmup"])
def test_every_help_reads_as_written(command, capsys, monkeypatch):
    """argparse formats help strings with %, descriptions not: a doubled %% shows in one of them.
    The prose is wrapped to the terminal (80 columns here) and the exit status table kept as
    written, one code a line."""
    monkeypatch.setenv("COLUMNS", "80")
    code, _, _ = run(command, "--help")
    text = capsys.readouterr().out
    assert code == 0 and "%%" not in text and "exit status" in text
    long = [line for line in text.splitlines() if len(line) > 80 and not line.lstrip().startswith("[")]
    assert not long, long  # (a usage line may list one option's choices whole)
    table = text[text.index("exit status:"):].splitlines()[1:]
    codes = [line.split()[0] for line in table]
    assert codes == sorted(codes, key=int) and {"2", "70", "130", "143"} <= set(codes), table


def exit_table(command: str, capsys) -> dict[int, str]:
    """The exit statuses a command's help lists, with their meanings."""
    run(command, "--help")
    text = capsys.readouterr().out
    lines = text[text.index("exit status:"):].splitlines()[1:]
    return {int(line.split()[0]): line.split(None, 1)[1] for line in lines}


def test_each_command_gives_the_statuses_its_help_lists(tmp_path, capsys):
    """Run every command into each status it documents (bar 70, 130 and 143, which every command
    lists: a bug, Ctrl-C, SIGTERM), and check each status given is one its help lists: the
    tables say what the commands do, not what solve does."""
    none, wide, bad = tmp_path / "none.txt", tmp_path / "wide.txt", tmp_path / "bad.txt"
    none.write_text("003\n000\n")
    rng = np.random.default_rng(1)  # astronomically many solutions: no engine settles it in 0.01 s
    wide.write_text(format_status(status(rng.random((30, 30)) < 0.5), rng.random((30, 30)) < 0.25))
    bad.write_text("01x\n")
    unique, several = str(DATA / "seed-3x3.txt"), str(DATA / "seed-5x5.txt")
    picture, rows = str(tmp_path / "p.png"), str(tmp_path / "rows.csv")
    cases = {
        "solve": [([unique], 0), ([str(none)], 1), ([str(bad)], 2), ([several], 3), ([str(wide), "--time-limit", "0.01"], 4)],
        "explain": [([unique], 0), ([str(none)], 1), ([str(bad)], 2), ([several], 3), ([str(wide), "--time-limit", "0.01"], 4)],
        "count": [([unique], 0), ([str(none)], 1), ([str(bad)], 2), ([several], 3), ([str(wide), "--time-limit", "0.01"], 4)],
        "render": [([unique, "--out", picture], 0), ([str(none), "--out", picture], 1), ([str(bad), "--out", picture], 2),
                   ([several, "--out", picture], 3), ([str(wide), "--out", picture, "--time-limit", "0.01"], 4),
                   ([str(bad), "--out", picture, "--puzzle-only"], 2)],
        "convert": [([unique, "--format", "mosaic"], 0), ([str(bad), "--format", "mosaic"], 2)],
        # seed 1's first 60x60 field needs a perturbation, so no board is made within 1 ms
        "generate": [(["2", "7", "30", "--seed", "1"], 0), (["2", "7", "101"], 2),
                     (["60", "60", "--classic", "--mines", "720", "--no-guess", "--first-click", "safe", "--seed", "1",
                      "--time-limit", "0.001"], 4)],
        "autoplay": [(["--games", "2", "--rows", "1", "--cols", "9", "--mines", "2", "--workers", "1"], 0),
                     (["--games", "1", "--rows", "3", "--cols", "3", "--mines", "9"], 2),
                     (["--games", "1", "--rows", "5", "--cols", "5", "--mines", "18", "--no-guess", "--first-click", "safe",
                       "--start", "3,3", "--workers", "1"], 2)],  # proved: no such board
        "sweep": [(["--sizes", "2x7", "--trials", "2", "--workers", "1", "--out", rows], 0),
                  (["--sizes", "2y7", "--out", rows], 2)],
        "play": [([], 2)],  # no terminal here; a game quit in a pseudo-terminal gives 0 (test_play)
        "warmup": [],  # 0 and 2: test_options
    }
    if importlib.util.find_spec("matplotlib") is None:
        del cases["render"]  # (without it, every render is refused with 2)
    for command, runs in cases.items():
        table = exit_table(command, capsys)
        for argv, expected in runs:
            code, _, err = run(command, *argv)
            capsys.readouterr()
            assert code == expected and code in table, (command, argv, code, err)
        # play's 4: test_classic_play; autoplay's 4 (no board found, none proved) and 137 (a
        # worker killed): test_play
        untried = {"play": {0, 4}, "warmup": {0, 2}, "autoplay": {4, 137}}.get(command, set())
        assert set(table) - {70, 130, 143} == {code for _, code in runs} | untried, (command, table)


def test_generate_is_reproducible_and_writes_the_planted_field(tmp_path):
    field_path = tmp_path / "field.txt"
    code, first, _ = run("generate", "4", "9", "30", "--seed", "12", "--field", str(field_path))
    assert code == 0
    _, again, _ = run("generate", "4", "9", "30", "--seed", "12")
    assert first == again
    assert first.startswith("# recon generate 4 9 30 --seed 12\n")
    clues, known = parse_status(first)
    assert clues.shape == (4, 9) and known.all()
    planted = parse_field(field_path.read_text())
    assert np.array_equal(status(planted), clues)


def test_generate_without_seed_prints_the_seed_that_reproduces_it():
    _, first, _ = run("generate", "3", "5", "50")
    seed = first.splitlines()[0].split("--seed ")[1]
    _, again, _ = run("generate", "3", "5", "50", "--seed", seed)
    assert first == again


def test_options_may_come_between_a_commands_words(capsys):
    """`generate 4 9 --classic 30` is `generate 4 9 30 --classic`: argparse alone gave P no place."""
    _, before, _ = run("generate", "4", "9", "30", "--classic", "--seed", "3")
    assert before.startswith("# recon generate 4 9 --classic --mines")
    assert run("generate", "4", "9", "--classic", "30", "--seed", "3")[1] == before
    assert run("generate", "--seed", "3", "4", "--classic", "9", "30")[1] == before
    code, _, err = run("generate", "4", "9", "--classic", "101")
    assert code == 2 and "P must be a percentage from 0 to 100, got '101'" in capsys.readouterr().err + err
    code, out, _ = run("solve", "--json", str(DATA / "seed-5x5.txt"), "--engine", "milp")
    assert code == 3 and list(json.loads(out)["engines"]) == ["milp"]


@pytest.mark.parametrize("p, expected", [("0", 0), ("100", 1)])
def test_generate_extremes(p, expected):
    _, out, _ = run("generate", "3", "4", p, "--seed", "1")
    clues, _ = parse_status(out)
    assert np.array_equal(clues, status(np.full((3, 4), bool(expected))))


def test_generate_out_then_solve_round_trip(tmp_path):
    target = tmp_path / "s.txt"
    field_path = tmp_path / "f.txt"
    assert run("generate", "7", "4", "35", "--seed", "3", "--out", str(target), "--field", str(field_path))[0] == 0
    code, out, _ = run("solve", str(target), "--max-solutions", "100")
    assert parse_field(field_path.read_text()).tobytes() in keys(fields_of(out))


def test_disagreement_prints_both_answers_and_exits_70(monkeypatch, seed_examples):
    clues, solutions = seed_examples["seed-5x5"]

    def liar(problem, *, limit, time_limit, **_):
        return Result(Verdict.UNIQUE, [solutions[0]], True, "backtrack")

    monkeypatch.setitem(ENGINES, "backtrack", liar)
    code, out, err = run("solve", str(DATA / "seed-5x5.txt"))
    assert code == 70
    assert "internal error: engines disagree" in err
    assert "--- algebra: multiple" in err and "--- backtrack: unique" in err
    code, out, err = run("solve", str(DATA / "seed-5x5.txt"), "--json")
    assert code == 70 and json.loads(out)["verdict"] == "error"


def test_unexpected_exception_is_a_message_not_a_traceback(monkeypatch):
    def broken(problem, *, limit, time_limit):
        raise RuntimeError("boom")

    monkeypatch.setitem(ENGINES, "backtrack", broken)
    code, _, err = run("solve", str(DATA / "seed-3x3.txt"), "--engine", "backtrack")
    assert code == 70 and "internal error: RuntimeError: boom" in err and "Traceback" not in err


def _console_script() -> list[str]:
    script = shutil.which("recon", path=os.path.dirname(sys.executable))
    return [script] if script else [sys.executable, "-m", "recon"]


@pytest.mark.slow
def test_console_script_end_to_end(tmp_path):
    generated = subprocess.run(
        [*_console_script(), "generate", "6", "8", "30", "--seed", "5"], capture_output=True, check=True
    )
    solved = subprocess.run([*_console_script(), "solve", "-", "--json"], input=generated.stdout, capture_output=True)
    assert solved.returncode in (0, 3), solved.stderr
    assert json.loads(solved.stdout)["rows"] == 6
    module = subprocess.run([sys.executable, "-m", "recon", "solve", str(DATA / "seed-5x5.txt")], capture_output=True)
    assert module.returncode == 3 and module.stdout.count(b"\n\n") == 1


def test_explain_seed_3x3_prints_equations_deductions_and_field():
    code, out, err = run("explain", str(DATA / "seed-3x3.txt"))
    assert code == 0
    assert "  r1c1: r1c1 + r1c2 + r2c1 + r2c2 = 0" in out
    assert "  1. [all-empty] clue r1c1 = 0: its window r1c1 r1c2 r2c1 r2c2 holds no mine -> all four empty" in out
    assert "Trimming fixed all 9 cells: the field is unique (grade advanced)." in out
    assert out.endswith("\n___\n__x\n_x_\n")


@pytest.mark.parametrize("rows", [["?"], ["???"], ["?", "?"], ["???", "???"]])
def test_explain_without_any_clue_says_so(tmp_path, rows):
    path = tmp_path / "blank.txt"
    path.write_text("\n".join(rows) + "\n")
    code, out, _ = run("explain", str(path))
    cells = len(rows) * len(rows[0])
    assert code == 3 and "  (none: no cell has a clue)\nDeductions:\n  (none)\n" in out
    assert f"Trimming stops short with {cells} open cell(s)" in out


def test_explain_where_trimming_stops_short(seed_examples):
    code, out, _ = run("explain", str(DATA / "seed-5x5.txt"))
    assert code == 3
    assert "Trimming stops short with 4 open cell(s): r1c2 r2c2 r4c2 r5c2." in out
    assert "It split no cases: two solutions were already known" in out
    assert "then decided: multiple (grade search)" in out
    assert keys(fields_of(out.split("(grade search).\n", 1)[1])) == keys(seed_examples["seed-5x5"][1])


def test_explain_says_no_cases_were_split_only_when_none_were_tried():
    """The line on splits left out appears when trimming ran without them because two solutions
    were known, not when it ran first and split (in vain) on its own."""
    from recon import make_problem, solve
    from recon.cli import explanation

    rng = np.random.default_rng(1)
    seen = 0
    for shape in [(12, 12), (12, 12), (12, 12), (3, 40), (40, 3), (2, 60), (1, 80)]:
        field = rng.random(shape) < 0.4
        problem = make_problem(status(field), rng.random(shape) > 0.6)
        later = solve(problem, engine=["hybrid", "trim"], case_split=True)
        first = solve(problem, engine=["trim", "hybrid"], case_split=True)
        assert later.verdict is first.verdict is Verdict.MULTIPLE
        assert "It split no cases" in explanation(later, problem)
        assert "It split no cases" not in explanation(first, problem)
        seen += any(step.rule == "case-split" for step in first.trace)
    assert seen  # trimming first did split


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(1, 9), (9, 1), (2, 7), (5, 8)])
@pytest.mark.parametrize("difficulty", ["basic", "advanced"])
def test_explain_writes_the_proof_of_a_puzzle(tmp_path, shape, difficulty):
    """On a puzzle (clues missing), where hybrid leads the solve and grades it without writing a
    proof, explain still prints trimming's proof: numbered steps that fix every cell to the
    solution, the strongest of them at the grade printed. (It printed "(none)" before.)"""
    from recon.generation import generate_puzzle

    puzzle = generate_puzzle(*shape, 50, np.random.default_rng(3), difficulty=difficulty)
    path = tmp_path / "puzzle.txt"
    path.write_text(format_status(puzzle.clues, puzzle.known))
    code, out, _ = run("explain", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["grade"] == difficulty and data["open_cells"] == []
    fixed = {}
    for step in data["steps"]:
        fixed.update(zip(step["cells"], step["values"]))
    solution = data["solutions"][0]
    assert fixed == {f"r{r + 1}c{c + 1}": int(solution[r][c] == "x") for r in range(shape[0]) for c in range(shape[1])}
    assert ("advanced" if any(step["grade"] == "advanced" for step in data["steps"]) else "basic") == difficulty
    code, text, _ = run("explain", str(path))
    assert code == 0 and "Deductions:\n" in text and "(none)" not in text
    assert text.count("] ") >= len(data["steps"]) and f"(grade {difficulty})" in text


def test_explain_json_trace_is_consumable():
    code, out, _ = run("explain", str(DATA / "seed-7x7.txt"), "--json")
    data = json.loads(out)
    assert code == 0 and data["grade"] == "basic" and data["open_cells"] == []
    assert len(data["equations"]) == 49 and data["equations"][0] == {
        "name": "r1c1", "cells": ["r1c1", "r1c2", "r2c1", "r2c2"], "count": 1
    }
    fixed = {}
    for step in data["steps"]:
        assert set(step) == {"rule", "grade", "cells", "values", "sources", "derived", "text"}
        fixed.update(zip(step["cells"], step["values"]))
    solution = data["solutions"][0]
    assert fixed == {f"r{r + 1}c{c + 1}": int(solution[r][c] == "x") for r in range(7) for c in range(7)}


def test_solve_explain_goes_to_stderr_and_json(seed_examples):
    code, out, err = run("solve", str(DATA / "seed-7x7.txt"), "--explain")
    assert code == 0 and "Deductions:" in err and "Deductions:" not in out
    assert "grade basic" in err
    code, out, _ = run("solve", str(DATA / "seed-7x7.txt"), "--explain", "--json")
    assert json.loads(out)["steps"][0]["rule"] in ("all-empty", "all-mines")


def test_explain_bad_input_is_exit_2(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("12\n3\n")
    code, _, err = run("explain", str(path))
    assert code == 2 and err.startswith(f"{path}:2:2:")


def test_input_too_large_is_refused_before_reading(tmp_path, monkeypatch):
    import recon.cli as cli

    monkeypatch.setattr(cli, "MAX_INPUT_BYTES", 10)
    path = tmp_path / "big.txt"
    path.write_text("0000\n0000\n0000\n")
    code, _, err = run("solve", str(path))
    assert code == 2 and "recon reads status files up to" in err


def _brute_force(clues, known):
    """Every field meeting the clues, by the backtracking engine's plain enumeration."""
    from recon.engines import backtrack
    from recon.model import make_problem

    return list(backtrack.iter_solutions(make_problem(clues, known)))


@pytest.mark.parametrize("name", ["e1", "e7"])
def test_solve_counts_the_ambiguous_published_puzzles(tmp_path, name):
    """IST e1 and e7 are ambiguous (the data says at least 2 solutions: counted up to 2): solve
    reports their exact number of solutions and each varying cell's mine probability, equal to a
    plain enumeration."""
    from conftest import load_fillapix
    from recon import format_status

    clues, known, _, at_least = load_fillapix()[name]
    every = _brute_force(clues, known)
    expected = len(every)
    assert expected >= at_least == 2
    path = tmp_path / f"{name}.txt"
    path.write_text(format_status(clues, known))
    code, _, err = run("solve", str(path))
    assert code == 3 and f"count: exactly {expected} solutions" in err
    code, out, _ = run("solve", str(path), "--json")
    count = json.loads(out)["count"]
    assert count["count"] == expected and count["count_exact"]
    share = np.sum(every, axis=0)
    cols = clues.shape[1]
    varying = {f"r{r + 1}c{c + 1}": f"{share[r, c]}/{expected}" for r in range(clues.shape[0]) for c in range(cols) if 0 < share[r, c] < expected}
    from fractions import Fraction

    assert {k: Fraction(v) for k, v in count["varying"].items()} == {k: Fraction(v) for k, v in varying.items()}


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(1, 8), (8, 1), (2, 8), (8, 2), (5, 7), (7, 5)])
def test_solve_count_on_non_square_grids(tmp_path, shape):
    """Random partial statuses of non-square shapes: whenever solve finds several solutions, its
    count and probabilities are those of a plain enumeration, row and column in their places."""
    rng = np.random.default_rng(sum(shape))
    from recon import format_status

    checked = 0
    for _ in range(30):
        field = rng.random(shape) < 0.4
        clues, known = status(field), rng.random(shape) < 0.5
        every = _brute_force(clues, known)
        if len(every) < 2:
            continue
        path = tmp_path / "p.txt"
        path.write_text(format_status(clues, known))
        code, out, err = run("solve", str(path), "--json")
        count = json.loads(out)["count"]
        assert code == 3 and count["count"] == len(every) and count["count_exact"]
        share = np.sum(every, axis=0)
        varying = {f"r{r + 1}c{c + 1}" for r in range(shape[0]) for c in range(shape[1]) if 0 < share[r, c] < len(every)}
        assert set(count["varying"]) == varying
        for name, p in count["varying"].items():
            r, c = (int(v) - 1 for v in name[1:].split("c"))
            from fractions import Fraction

            assert Fraction(p) == Fraction(int(share[r, c]), len(every))
        checked += 1
    assert checked >= 5


def test_solve_count_can_be_turned_off_and_is_skipped_without_time_left(seed_examples):
    path = str(DATA / "seed-5x5.txt")
    code, _, err = run("solve", path)
    assert code == 3 and "count: exactly 2 solutions" in err and "r1c2 1/2" in err
    code, out, err = run("solve", path, "--no-count", "--json")
    assert code == 3 and "count:" not in err and "count" not in json.loads(out)
    code, out, err = run("solve", path, "-q", "--json")
    assert code == 3 and err == "" and json.loads(out)["count"]["count"] == 2
    code, _, err = run("solve", path, "--time-limit", "0.000001")
    assert "count:" not in err  # no time left for it (the solve itself may be undecided)


def test_solve_count_that_contradicts_the_solutions_is_a_bug(monkeypatch):
    """A count below the solutions solve found and verified exits 70 with both answers."""
    from recon import counting as count_module

    real = count_module.count_solutions

    def short(problem, **options):
        counted = real(problem, **options)
        counted.count = 1
        return counted

    monkeypatch.setattr(count_module, "count_solutions", short)
    code, _, err = run("solve", str(DATA / "seed-5x5.txt"))
    assert code == 70 and "exact counts differ" in err


def test_count_stops_at_its_default_time_limit_and_says_it_is_a_lower_bound(monkeypatch, tmp_path):
    """recon count has a default time limit (counting.COUNT_SECONDS): a group with more solutions
    than any enumeration reaches gives "at least N" (exit 4) instead of no answer for hours."""
    import recon.cli as cli

    # room for a first solution while the suite runs in parallel on a loaded machine (docs/decisions.md)
    monkeypatch.setattr(cli, "COUNT_SECONDS", 1.0)
    rng = np.random.default_rng(1)
    field = rng.random((30, 30)) < 0.5
    known = rng.random((30, 30)) < 0.25  # a wide ambiguous region: astronomically many solutions, no thin frontier
    path = tmp_path / "wide.txt"
    path.write_text(format_status(status(field), known))
    code, out, err = run("count", str(path), "--limit", "100000000")
    assert code == 4 and out.startswith("at least ") and "the time limit ran out" in err



@pytest.mark.parametrize("shape", [(30, 30), (1, 40), (40, 1), (2, 40)])
def test_a_count_that_finds_no_solution_in_time_says_undecided_not_at_least_0(tmp_path, shape):
    """A count whose time runs out before any solution is found has no lower bound: "at least 0"
    was true but said nothing, and read as if the status might have none. It says undecided. (A
    strip may find its free cells' 2^k within the microsecond: then a lower bound of at least 1.)"""
    rng = np.random.default_rng(1)
    field = rng.random(shape) < 0.5
    path = tmp_path / "wide.txt"
    path.write_text(format_status(status(field), rng.random(shape) < 0.25))
    for _ in range(2):
        code, out, err = run("count", str(path), "--time-limit", "0.000001")
        assert not out.startswith(("at least 0 ", "0 "))
        if shape == (30, 30) or out.startswith("undecided"):
            assert code == 4 and out == "undecided: no solution found in time\n"
            assert err.startswith("undecided, by ") and "no lower bound" in err
        else:  # a strip's count can finish before its first look at the clock
            assert (code, out.startswith("at least ")) in ((4, True), (3, False))
    code, out, _ = run("count", str(path), "--time-limit", "0.000001", "--json")
    payload = json.loads(out)
    assert payload["count"] >= 1 or (code == 4 and "no lower bound" in payload["reason"])


@pytest.mark.parametrize("shape", [(1, 13), (13, 1), (2, 8), (8, 2), (4, 4)])
def test_a_count_plain_enumeration_does_not_finish_is_checked_by_milp(monkeypatch, shape):
    """When plain enumeration does not finish (on search-grade puzzles from 12x12 on it did not in
    5 s), a count of at most MILP_CHECK_COUNT fields, SAT's one solution included, is checked by
    MILP, and equals brute force; a larger count says it is unchecked. A MILP count that differs is
    a disagreement, never an answer."""
    from recon import counting as count_module
    from recon.engines import milp
    from recon.model import make_problem
    from recon.result import EngineDisagreement

    from conftest import brute_force

    monkeypatch.setattr(count_module, "_enumerated", lambda *args: (0, False))
    rng = np.random.default_rng(sum(shape) * 3 + shape[0])
    seen, few = set(), None
    for _ in range(40):
        field = rng.random(shape) < rng.uniform(0.2, 0.7)
        known = rng.random(shape) < rng.uniform(0.3, 1.0)
        known.flat[rng.integers(known.size)] = False  # a partial status (a full one is counted by algebra)
        problem = make_problem(status(field), known)
        expected = len(brute_force(status(field), known))
        counted = count_module.count_solutions(problem)
        assert counted.exact and counted.count == expected
        checked = "checked by MILP" in counted.method
        assert checked == (expected <= count_module.MILP_CHECK_COUNT), counted.method
        if not checked and expected <= count_module.CROSSCHECK_COUNT:  # larger counts are not checked again
            assert "(plain enumeration did not finish)" in counted.method
        seen.add(checked)
        if 1 < expected <= count_module.MILP_CHECK_COUNT:
            few = problem  # several fields, few enough for MILP
    assert seen == {True, False}
    solve = milp.solve

    def miscounting(problem, limit, time_limit):
        result = solve(problem, limit=limit, time_limit=time_limit)
        result.solution_count += 1
        return result

    monkeypatch.setattr(milp, "solve", miscounting)
    with pytest.raises(EngineDisagreement, match="exact counts differ: hybrid [0-9]+, milp"):
        count_module.count_solutions(few)


def test_a_full_status_engine_on_a_puzzle_is_a_usage_error(tmp_path, monkeypatch):
    """--engine algebra on a status with clues missing is the user's choice, not a bug: exit 2
    with what to do instead (it was an 'internal error', exit 70), from a file or standard input."""
    path = tmp_path / "puzzle.txt"
    path.write_text("1?1\n???\n1?1\n")
    code, out, err = run("solve", str(path), "--engine", "algebra")
    assert code == 2 and out == ""
    assert "engine algebra needs a full status" in err and "has 5 cell(s) without a clue" in err and "--engine auto" in err
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"1?1\n???\n1?1\n")))
    code, _, err = run("solve", "-", "--engine", "algebra")
    assert code == 2 and "the standard input has 5 cell(s)" in err


@pytest.mark.parametrize("board", ["0000\n", "0\n0\n0\n", "000\n000\n", "11\n11\n", "010\n1?1\n"])
@pytest.mark.parametrize("total", [[], ["--mines", "0"]])
def test_algebra_on_a_classic_board_is_a_usage_error(tmp_path, board, total):
    """--engine algebra on a classic board, whose opened cells are given as empty: exit 2 with what
    to do instead, also where every cell is opened, so that the board reads as a full status (a
    fuzzed command line found that an internal error, exit 70). The same board under auto gets
    an answer."""
    path = tmp_path / "board.txt"
    path.write_text(board)
    code, out, err = run("solve", str(path), "--classic", *total, "--engine", "algebra")
    assert code == 2 and out == "", err
    if "?" in board:
        assert "engine algebra needs a full status" in err and "has 1 cell(s) without a clue" in err
    else:
        assert "engine algebra does not take cells given a value" in err and f"{path}, a classic Minesweeper board" in err
        assert ("and a total number of mines" in err) == bool(total)
    assert "--engine auto" in err
    code, _, err = run("solve", str(path), "--classic", *total)
    assert code in (0, 1, 3), err


def test_a_count_of_tens_of_thousands_of_digits_is_written_exactly(tmp_path):
    """2 x 40,000 cells without a clue: 2^80,000 fields, 24,083 digits past the point where str()
    gives way to halving; the text and the JSON give every digit."""
    import sys

    path = tmp_path / "open.txt"
    path.write_text(("?" * 40_000 + "\n") * 2)
    code, out, _ = run("count", str(path))
    if hasattr(sys, "set_int_max_str_digits"):  # (Python 3.10.7 on)
        sys.set_int_max_str_digits(0)
    assert code == 3 and out == f"{2**80_000} solutions\n"
    code, out, _ = run("count", str(path), "--json")
    assert code == 3 and json.loads(out)["count"] == 2**80_000


def test_the_command_line_runs_on_a_python_without_a_digit_limit(monkeypatch, tmp_path):
    """requires-python admits 3.10.0-3.10.6, which have no `sys.set_int_max_str_digits`: the
    command line must not need it, and its counts are exact there too."""
    monkeypatch.delattr(sys, "set_int_max_str_digits")
    code, out, _ = run("solve", str(DATA / "seed-3x3.txt"))
    assert code == 0 and out
    path = tmp_path / "open.txt"
    path.write_text("?" * 30 + "\n")
    code, out, _ = run("count", str(path))
    assert code == 3 and out == f"{2**30} solutions\n"


def test_probabilities_of_a_partial_status_stop_at_the_cell_limit_as_a_full_ones_do(monkeypatch, tmp_path):
    """Past PROBABILITY_CELLS no probabilities are listed (one exact fraction a cell), the count
    still exact, and the reason says why; within it they are listed."""
    from recon import counting

    path = tmp_path / "partial.txt"
    path.write_text("1??\n???\n??1\n")
    code, out, _ = run("count", str(path), "--json", "--probabilities")
    assert code == 3 and len(json.loads(out)["probabilities"]) == 3
    monkeypatch.setattr(counting, "PROBABILITY_CELLS", 8)
    code, out, err = run("count", str(path), "--json", "--probabilities")
    data = json.loads(out)
    assert code == 3 and data["probabilities"] is None and data["count"] == json.loads(run("count", str(path), "--json")[1])["count"]
    assert data["reason"] == "no probabilities past 8 cells (one exact fraction each)"


@pytest.mark.parametrize("shape, mines", [((1, 200), 100), ((200, 1), 100), ((2, 100), 100), ((3, 4), 6)])
def test_a_long_count_is_shortened_in_solves_report_and_whole_in_counts_output(tmp_path, shape, mines):
    """A covered board with a total has C(cells, mines) fields: `recon count` prints every digit,
    solve's count line (a report to read) its first and last twenty and how many there are."""
    from math import comb

    path = tmp_path / "covered.txt"
    path.write_text(f"# mines: {mines}\n" + "\n".join("?" * shape[1] for _ in range(shape[0])) + "\n")
    truth = str(comb(shape[0] * shape[1], mines))
    code, out, _ = run("count", str(path), "--classic")
    assert (code, out) == (3, f"{truth} solutions\n")
    code, _, err = run("solve", str(path), "--classic", "--max-solutions", "1")
    line = next(x for x in err.splitlines() if x.startswith("count: "))
    if len(truth) > 40:
        assert line.startswith(f"count: exactly {truth[:20]}...{truth[-20:]} ({len(truth):,} digits) solutions (")
        assert truth not in line
    else:
        assert line.startswith(f"count: exactly {truth} solutions (")


@pytest.mark.parametrize("shape", [(1, 9), (9, 1), (2, 7), (3, 5)])
def test_solve_names_the_cells_no_clue_sees(tmp_path, shape):
    """Several solutions because some cells are seen by no clue: the report counts and names
    them, each of which brute force finds both ways; with a clue seeing every cell, or a total, no
    such line."""
    rng = np.random.default_rng(sum(shape))
    field = rng.random(shape) < 0.4
    known = np.zeros(shape, dtype=bool)
    known.flat[0] = True  # one clue, in the first cell: it sees the cells next to it alone
    path = tmp_path / "s.txt"
    path.write_text(format_status(status(field), known))
    code, _, err = run("solve", str(path))
    unseen = [(r, c) for r in range(shape[0]) for c in range(shape[1]) if r > 1 or c > 1]
    every = [np.frombuffer(k, dtype=bool).reshape(shape) for k in brute_force(status(field), known)]
    assert all(len({bool(f[r, c]) for f in every}) == 2 for r, c in unseen)
    names = " ".join(f"r{r + 1}c{c + 1}" for r, c in unseen[:12])
    more = f" and {len(unseen) - 12} more" if len(unseen) > 12 else ""
    assert code == 3 and f"\n{len(unseen)} cell(s) no clue sees, each a mine in some solutions and empty in others: {names}{more}\n" in err
    path.write_text(format_status(status(field), np.ones(shape, dtype=bool)))
    assert "no clue sees" not in run("solve", str(path))[2]
    board = tmp_path / "b.txt"
    board.write_text("# mines: 2\n" + "\n".join("".join("1" if (r, c) == (0, 0) else "?" for c in range(shape[1])) for r in range(shape[0])) + "\n")
    code, _, err = run("solve", str(board))
    assert code == 3 and "no clue sees, each" not in err  # (the count's method may name them)


@pytest.mark.parametrize("board, mines, words", [("?\n", 1, "1 of 1 cells are certain (1 mine, 0 empty)"),
                                                  ("?\n", 0, "1 of 1 cells are certain (0 mines, 1 empty)"),
                                                  ("??\n", 1, "0 of 2 cells are certain (0 mines, 0 empty)")])
def test_count_says_how_many_cells_are_certain(tmp_path, board, mines, words):
    path = tmp_path / "b.txt"
    path.write_text(board)
    code, _, err = run("count", str(path), "--classic", "--mines", str(mines), "--probabilities")
    assert code in (0, 3) and words in err, err
