"""Classic Minesweeper boards (counts exclude the cell) as partial status plus fixed cells plus an
optional total: exact verdicts, counts and probabilities against brute force over the covered
cells, the shared data's known answers, and clear errors for bad boards."""

from __future__ import annotations

import io
import itertools
import json
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest


from recon import Verdict, solve
from recon.cli import main
from recon.counting import count_solutions
from recon.io.classic import board_problem, parse_board
from recon.model import status

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"  # ../shared beside the repository


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def neighbours(field: np.ndarray) -> np.ndarray:
    """Each cell's mines among its 8 neighbours (the cell excluded): the classic number."""
    padded = np.pad(field.astype(int), 1)
    rows, cols = field.shape
    around = sum(padded[dr : dr + rows, dc : dc + cols] for dr in range(3) for dc in range(3))
    return around - field.astype(int)


def board_text(field: np.ndarray, opened: np.ndarray, flagged: np.ndarray) -> str:
    numbers = neighbours(field)
    rows = []
    for r in range(field.shape[0]):
        rows.append("".join(str(numbers[r, c]) if opened[r, c] else "*" if flagged[r, c] else "?" for c in range(field.shape[1])))
    return "\n".join(rows) + "\n"


def random_board(rng, shape, densest: float, opened: float, flagged: float):
    """(board cells, field, opened mask): a random field of density up to `densest`, each empty
    cell opened with chance `opened` and each mine flagged with chance `flagged`."""
    field = rng.random(shape) < rng.uniform(0.1, densest)
    shown = ~field & (rng.random(shape) < opened)
    cells, _ = parse_board(board_text(field, shown, field & (rng.random(shape) < flagged)))
    return cells, field, shown


def brute_force(cells: np.ndarray, mines: int | None):
    """(count, mines per cell) over every assignment of the covered cells."""
    covered = np.argwhere(cells == -1)
    base = (cells == -2).astype(int)
    opened = cells >= 0
    count, tally = 0, np.zeros(cells.shape, dtype=object)
    for values in itertools.product((0, 1), repeat=len(covered)):
        field = base.copy()
        for (r, c), v in zip(covered, values):
            field[r, c] = v
        if mines is not None and field.sum() != mines:
            continue
        if (neighbours(field)[opened] == cells[opened]).all():
            count += 1
            tally += field
    return count, tally


SHAPES = [(1, 9), (9, 1), (2, 6), (3, 5), (4, 4)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("with_total", [False, True])
def test_counts_and_probabilities_equal_brute_force(shape, with_total):
    rng = np.random.default_rng(sum(shape) + with_total)
    seen = set()
    for _ in range(25):
        field = rng.random(shape) < rng.uniform(0.1, 0.6)
        opened = ~field & (rng.random(shape) < 0.5)
        flagged = field & (rng.random(shape) < 0.3)
        cells, _ = parse_board(board_text(field, opened, flagged))
        mines = int(field.sum()) if with_total else None
        if (cells == -1).sum() > 12:
            continue
        truth, tally = brute_force(cells, mines)
        problem = board_problem(cells, mines)
        counted = count_solutions(problem, probabilities=True)
        assert counted.exact and counted.count == truth
        want = [[Fraction(int(tally[r, c]), truth) for c in range(shape[1])] for r in range(shape[0])]
        assert counted.probabilities == want
        result = solve(problem, engine="all", max_solutions=3)
        assert result.verdict is (Verdict.UNIQUE if truth == 1 else Verdict.MULTIPLE)
        assert all((neighbours(f)[cells >= 0] == cells[cells >= 0]).all() and not f[cells >= 0].any() and f[cells == -2].all()
                   for f in result.solutions)
        if mines is not None:
            assert all(int(f.sum()) == mines for f in result.solutions)
        seen.add(truth == 1)
    assert seen == {True, False}


@pytest.mark.parametrize("shape", [(1, 9), (9, 1), (2, 6), (3, 4)])
def test_counts_with_every_total_equal_brute_force(shape):
    """Every total a board can hold, from none of its covered cells to all: the count and the
    probabilities equal brute force, where the cells no number sees take the few mines left or
    must take many (more than the numbers' groups can hold: the groups then need the rest)."""
    rng = np.random.default_rng(3 * sum(shape))
    free_seen = 0
    for _ in range(12):
        cells, _, opened = random_board(rng, shape, 0.6, 0.35, 0.2)
        low, high = int((cells == -2).sum()), int((cells < 0).sum())
        for mines in range(low, high + 1):
            truth, tally = brute_force(cells, mines)
            counted = count_solutions(board_problem(cells, mines), probabilities=True)
            assert counted.exact and counted.count == truth, (shape, mines)
            if truth:
                want = [[Fraction(int(tally[r, c]), truth) for c in range(shape[1])] for r in range(shape[0])]
                assert counted.probabilities == want, (shape, mines)
        free_seen += bool(((status(opened) == 0) & (cells == -1)).any())
    assert free_seen >= 3


@pytest.mark.parametrize("shape", SHAPES)
def test_plain_enumeration_with_a_total_equals_brute_force(shape):
    """The count's cross-check: backtracking over the cells some number sees, the others placed
    by a binomial, equals brute force over every covered cell, with and without the total."""
    from recon.counting import _enumerated

    rng = np.random.default_rng(7 * sum(shape))
    free_seen = 0
    for _ in range(25):
        cells, field, opened = random_board(rng, shape, 0.5, 0.3, 0.2)
        if (cells == -1).sum() > 10:
            continue
        for mines in (int(field.sum()), None):
            assert _enumerated(board_problem(cells, mines), 10**6, None) == (brute_force(cells, mines)[0], True)
        free_seen += bool(((status(opened) == 0) & (cells == -1)).any())
    assert free_seen >= 3  # boards with cells no number sees, where the binomial does the work


def test_a_beginner_board_with_its_total_is_counted_and_checked_independently(tmp_path):
    """9x9 with 10 mines after the first click: 25 cells no number sees. Plain enumeration used
    to walk their 2^25 fillings and give up; it now checks the count."""
    code, out, _ = run("generate", "9", "9", "--classic", "--mines", "10", "--seed", "11")
    cells, mines = parse_board(out)
    counted = count_solutions(board_problem(cells, mines), probabilities=True)
    assert counted.exact and counted.method.endswith("checked by plain enumeration"), counted.method


@pytest.mark.parametrize("shape", SHAPES)
def test_a_total_over_many_open_cells_is_solved_and_counted_without_sat(monkeypatch, shape):
    """Past sat.TOTAL_OPEN_CELLS open cells (here every board is past it) `auto` leads with
    deduction and the search that counts the total (hybrid), checked by MILP and trimming, and the
    count leaves SAT out, and both still equal brute force: SAT with a large total ran for
    minutes past its time limit on 50x50 boards."""
    from recon import counting
    from recon.engines import sat
    from recon.solver import plan

    monkeypatch.setattr(sat, "TOTAL_OPEN_CELLS", 0)
    asked = []
    monkeypatch.setattr(counting, "_unique_by_sat", lambda *args: asked.append(args))
    monkeypatch.setattr(sat, "backbone", lambda *args: asked.append(args))
    rng = np.random.default_rng(sum(shape) * 5)
    seen = set()
    for _ in range(25):
        field = rng.random(shape) < rng.uniform(0.1, 0.6)
        opened = ~field & (rng.random(shape) < 0.5)
        cells, _ = parse_board(board_text(field, opened, np.zeros(shape, dtype=bool)))
        if (cells == -1).sum() > 12:
            continue
        mines = int(field.sum())
        truth, _ = brute_force(cells, mines)
        problem = board_problem(cells, mines)
        assert plan(problem, "auto") == ["hybrid", "milp", "trim"]
        assert count_solutions(problem).count == truth
        result = solve(problem)
        assert result.verdict is (Verdict.UNIQUE if truth == 1 else Verdict.MULTIPLE)
        assert all(int(f.sum()) == mines for f in result.solutions)
        assert result.engines["hybrid"].verdict is result.verdict and result.engines["hybrid"].grade is None
        seen.add(truth == 1)
    assert seen == {True, False} and asked == []


def test_sat_by_name_on_a_large_total_is_a_usage_error(monkeypatch, tmp_path):
    """--engine sat on a total over more than sat.TOTAL_OPEN_CELLS open cells: exit 2 with what to
    use instead (SAT there ran for minutes past its time limit); --engine all leaves SAT out."""
    from recon.engines import sat

    monkeypatch.setattr(sat, "TOTAL_OPEN_CELLS", 3)
    path = tmp_path / "board.txt"
    path.write_text("1???\n1???\n")
    code, out, err = run("solve", str(path), "--classic", "--mines", "2", "--engine", "sat")
    assert code == 2 and out == "" and "engine sat does not take a total over more than 3 open cells" in err
    assert "--engine milp" in err and "without a clue" not in err
    code, out, err = run("solve", str(path), "--classic", "--mines", "2", "--engine", "all", "--json")
    assert code == 3 and "sat" not in json.loads(out)["engines"] and "milp" in json.loads(out)["engines"]


def _codegolf():
    text = (SHARED / "classic" / "codegolf_unique.txt").read_text()
    for block in text.split("\n== ")[1:]:
        lines = block.strip().split("\n")
        yield lines[0], "\n".join(lines[1:]) + "\n"


# the file's own exhaustive counts (see its header): truthy boards 1 each
CODEGOLF_COUNTS = {"falsy 1": 4, "falsy 2": 0, "falsy 3": 0, "falsy 4": 2}


@pytest.mark.skipif(not (SHARED / "classic").exists(), reason="the shared data is not beside the repository")
@pytest.mark.parametrize("name, board", list(_codegolf()) if (SHARED / "classic").exists() else [])
def test_codegolf_boards(tmp_path, name, board):
    path = tmp_path / "board.txt"
    path.write_text(board)
    want = CODEGOLF_COUNTS.get(name, 1)
    code, out, err = run("count", str(path), "--classic")
    assert out == f"{want} solution{'s' if want != 1 else ''}\n"
    code, out, err = run("solve", str(path), "--classic")
    assert code == {0: 1, 1: 0}.get(want, 3)
    if want == 0:
        assert re.search(r"clue r\d+c\d+ = \d", err), err  # names the clue that cannot be met


@pytest.mark.skipif(not (SHARED / "classic").exists(), reason="the shared data is not beside the repository")
def test_minesweepr_probabilities_with_the_total(tmp_path):
    """minesweepr's README example: 10x10, 10 mines; its printed probabilities to 4 decimals."""
    raw = (SHARED / "classic" / "minesweepr_readme_example.txt").read_text().splitlines()
    rows = [line for line in raw if line and not line.startswith(("#", "BOARD"))]
    path = tmp_path / "board.txt"
    path.write_text("# mines: 10\n" + "\n".join(row.replace(".", "0").replace("x", "?") for row in rows) + "\n")
    import json

    code, out, _ = run("count", str(path), "--classic", "--probabilities", "--json")
    p = json.loads(out)["probabilities"]
    expected = {(0, 3): 0.0, (1, 3): 1.0, (2, 3): 1.0, (3, 3): 1.0, (4, 3): 0.0, (5, 3): 0.0779, (5, 2): 0.0,
                (5, 1): 0.9221, (5, 0): 0.0779, (9, 9): 0.0779}
    for (r, c), value in expected.items():
        assert round(float(Fraction(p[r][c])), 4) == value
    code2, out2, _ = run("count", str(path), "--classic", "--mines", "10")
    assert code2 == code == 3 and out2 == f"{json.loads(out)['count']} solutions\n"


@pytest.mark.parametrize(
    "board, extra, words, where",
    [
        ("1?\n?9\n", [], "a 9", "2:2"),
        ("4?\n??\n", [], "expected a number 0-3 at r1c1, got 4", "1:1"),
        ("1??\n??\n", [], "expected 3 cells", "2:3"),
        ("1*\n??\n", ["--mines", "0"], "the total of 0 mines cannot be met", None),
        ("1*\n??\n", ["--mines", "4"], "the total of 4 mines cannot be met", None),
        ("1*\n??\n", ["--mines", "-1"], "N must be a whole number", None),
        ("# mines: x\n1*\n??\n", [], "expected the total number of mines", "1:10"),
        ("1*\n??\n#  mines: 4\n", [], "expected a total of 1 to 3 mines (the board has 1 flagged", "3:11"),
        ("# mines: 0\n1*\n??\n", [], "got 0", "1:10"),
        ("1?\n\n??\n", [], "rows must be consecutive", "2:1"),
        ("# mines: 3\n", [], "got no rows", "1:1"),
        ("\n  1??\n  ??x\n", [], "got 'x'", "3:5"),
        ("1??0\n?é??\n", [], "got 'é'", "2:2"),  # not ASCII
        ("1??0\n??.?\n", [], "got '.'", "2:3"),
        ("1??0\n??é.\n", [], "got 'é'", "2:3"),  # the first bad one named
        ("1??0\n??.é\n", [], "got '.'", "2:3"),
        ("1??\n???\n", ["--max-cells", "5"], "recon takes up to 5 cells", "1:1"),
    ],
)
def test_bad_boards_get_exit_2_with_a_message(tmp_path, capsys, board, extra, words, where):
    """Each refusal names the file, line and column (1-based) of what is wrong."""
    path = tmp_path / "board.txt"
    path.write_text(board)
    code, out, err = run("solve", str(path), "--classic", *extra)
    err += capsys.readouterr().err  # argparse writes its own errors to sys.stderr
    assert code == 2 and not out and words in err, err
    assert where is None or f"board.txt:{where}: " in err, err


def test_mines_overrides_a_total_the_board_cannot_hold(tmp_path):
    """A file's '# mines: N' out of range is refused at its line, unless --mines replaces it."""
    path = tmp_path / "b.txt"
    path.write_text("# mines: 99\n1?\n??\n")
    code, _, err = run("count", str(path))
    assert code == 2 and "b.txt:1:10: expected a total of 0 to 3 mines" in err
    code, out, _ = run("count", str(path), "--mines", "1")
    assert code == 3 and out == "3 solutions\n"


def test_mines_without_classic_is_refused(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text("011\n122\n122\n")
    code, _, err = run("solve", str(path), "--mines", "3")
    assert code == 2 and "--classic" in err


@pytest.mark.parametrize("shape", [(1, 9), (9, 1), (2, 6), (4, 4)])
def test_board_text_with_its_total_is_read_as_a_board_without_a_flag(tmp_path, shape):
    """A line '# mines: N' (what `generate --classic` writes) marks board text as a board: solve
    and count read it as `--classic` does, which brute force confirms; --mines overrides it
    without --classic; convert refuses it at that line (a board has no Fill-a-Pix status)."""
    rng = np.random.default_rng(sum(shape))
    checked = 0
    for trial in range(12):
        field = rng.random(shape) < 0.3
        opened = ~field & (rng.random(shape) < 0.5)
        text = board_text(field, opened, np.zeros(shape, dtype=bool))
        cells, _ = parse_board(text)
        if not opened.any() or (cells == -1).sum() > 12:
            continue
        mines = int(field.sum())
        path = tmp_path / f"b{trial}.txt"
        path.write_text(f"# a board\n# mines: {mines}\n{text}")
        truth, _ = brute_force(cells, mines)
        exit_of = {0: 1, 1: 0}  # none, unique; several: 3
        code, out, _ = run("count", str(path), "--json")
        assert code == exit_of.get(truth, 3) and json.loads(out)["count"] == truth
        read_as, flagged = (json.loads(run("count", str(path), *extra, "--json")[1]) for extra in ([], ["--classic"]))
        assert {k: v for k, v in read_as.items() if k != "seconds"} == {k: v for k, v in flagged.items() if k != "seconds"}
        other = mines + 1 if mines < field.size - opened.sum() else mines - 1
        code, out, _ = run("count", str(path), "--mines", str(other), "--json")
        assert json.loads(out)["count"] == brute_force(cells, other)[0] and code == exit_of.get(json.loads(out)["count"], 3)
        code, out, err = run("convert", str(path), "--format", "mosaic")
        assert code == 2 and not out and f"b{trial}.txt:2:1: " in err and "classic Minesweeper board" in err
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("text, line", [
    ("# mines: 2\n1??\n", 1), ("\ufeff# mines: 2\n1??\n", 1), ("# a board\n\n  # Mines : 9\n*1?\n", 3),
    ("1??\n# mines: 2\n", 2), ("# mines: 2\nx__\n", None), ("# mines: 1\n_x\n", None),  # fields (generate --field)
    ("1??\n", None), ("# 2 mines\n1??\n", None), ('<puzzle name="Minesweeper"><!-- # mines: 2 -->', None),
])
def test_a_board_is_known_by_its_total_line_and_its_rows(text, line):
    from recon.io.classic import total_line

    assert total_line(text) == line and total_line(text.encode()) == line


def test_the_hint_to_count_every_cell_repeats_how_the_board_was_read(tmp_path):
    path = tmp_path / "wide.txt"
    path.write_text("1" + "?" * 14 + "\n" + "?" * 15 + "\n")
    code, _, err = run("solve", str(path), "--classic", "--mines", "4")
    assert code == 3 and f"(recon count {path} --classic --mines 4 --probabilities shows every cell)" in err
    path.write_text("# mines: 4\n" + path.read_text())
    code, _, err = run("solve", str(path))
    assert code == 3 and f"(recon count {path} --probabilities shows every cell)" in err


def _legup_counts():
    path = SHARED / "legup" / "minesweeper" / "solution_counts.txt"
    if not path.exists():
        return []
    out, lines = [], path.read_text().splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"puzzles/(\S+\.xml): \S+ solutions=(\d+)", line)
        if m:
            unique = lines[i + 1].split(": ")[1] if i + 1 < len(lines) and "unique solution" in lines[i + 1] else None
            out.append((m.group(1), int(m.group(2)), unique))
    return out


@pytest.mark.parametrize("name, count, unique", _legup_counts())
def test_legup_minesweeper_is_read_as_classic_without_a_flag(name, count, unique):
    """By its puzzle name; the counts and unique solutions the shared data lists (a LEGUP file
    that lists a cell twice takes the later value, as the converter behind those counts did)."""
    path = str(SHARED / "legup" / "minesweeper" / name)
    code, out, err = run("count", path)
    assert out == f"{count} solution{'s' if count != 1 else ''}\n", err
    code, out, err = run("solve", path)
    assert code == (0 if count == 1 else 3)
    if unique:
        want = "\n".join("".join("x" if ch == "*" else "_" for ch in row) for row in unique.split("/")) + "\n"
        assert out == want
    code, _, err = run("convert", path, "--format", "status")
    assert code == 2 and "classic board" in err


@pytest.mark.parametrize("value, x, words", [
    ("9", "1", "value='9'"), ("-3", "1", "value='-3'"), ("x", "1", "value='x'"),
    ("6", "1", "expected a number 0-5 at x=1 y=0, got 6: the cell has 5 neighbours"),
    ("1", "3", "expected a cell inside the 3x2 board, got x='3' y='0'"),
])
def test_legup_minesweeper_errors_quote_the_value(tmp_path, value, x, words):
    path = tmp_path / "m.xml"
    path.write_text(f'<Legup><puzzle name="Minesweeper"><board height="2" width="3"><cells>\n'
                    f'<cell value="{value}" x="{x}" y="0"/></cells></board></puzzle></Legup>\n')
    code, _, err = run("solve", str(path))
    assert code == 2 and err.startswith(f"{path}:2:") and words in err, err


@pytest.mark.skipif(not (SHARED / "classic" / "endoh1").exists(), reason="the shared data is not beside the repository")
@pytest.mark.parametrize("name", ["hilbert2x2.txt", "hilbert4x4.txt", "ioccc.txt", "unwinnable.txt"])
def test_endoh1_maps_convert_to_fields_with_their_mines(name):
    path = SHARED / "classic" / "endoh1" / name
    width, height, mines = (int(t) for t in path.read_text().split()[:3])
    code, out, err = run("convert", str(path), "--format", "field")
    assert code == 0 and out.startswith(f"# endoh1 map {width}x{height}, {mines} mines\n")
    rows = out.splitlines()[1:]
    assert len(rows) == height and all(len(row) == width for row in rows)
    assert sum(row.count("x") for row in rows) == mines


def test_explain_names_legup_rules_and_uses_the_total(tmp_path):
    import json

    path = tmp_path / "b.txt"
    path.write_text("# mines: 1\n*??\n???\n")  # the flag is the one mine: every other cell is empty
    code, out, err = run("explain", str(path), "--classic", "--json")
    data = json.loads(out)
    assert code == 0 and data["verdict"] == "unique"
    step = data["steps"][-1]
    assert step["rule"] == "total" and step["legup"] == "Finish With Empty" and set(step["values"]) == {0}
    path.write_text("# mines: 3\n1?*\n???\n")  # r1c1 sees one of its three; the total puts the other at r2c3
    code, out, err = run("explain", str(path), "--classic")
    assert code == 3 and "[mine-count] the board holds 3 mines and 1 are placed, so 2 are left" in out
    assert "clue r1c1 holds 1, so the other 1 open cell(s) (r2c3; 1 seen by no number) hold all 1 -> a mine" in out
    code, out, err = run("explain", str(path), "--classic", "--mines", "2")  # --mines wins over the file's line
    assert code == 3 and "(r2c3; 1 seen by no number) hold none -> empty" in out
    code, out, err = run("explain", str(path), "--classic", "--mines", "4")
    assert code == 1 and "clue r1c1 holds 1, which leaves 2 for the other 1 open cell(s)" in out


def test_trimming_with_the_total_is_sound_on_random_boards():
    """Every cell trimming fixes with the total is the same in every brute-force solution."""
    from recon.engines import trim

    rng = np.random.default_rng(11)
    fixed_some = 0
    for shape in SHAPES * 6:
        field = rng.random(shape) < rng.uniform(0.1, 0.6)
        opened = ~field & (rng.random(shape) < 0.5)
        cells, _ = parse_board(board_text(field, opened, np.zeros(shape, bool)))
        if (cells == -1).sum() > 12:
            continue
        mines = int(field.sum())
        truth, tally = brute_force(cells, mines)
        result = trim.solve(board_problem(cells, mines))
        decided = result.decided & (cells == -1)
        for r, c in np.argwhere(decided):
            assert tally[r, c] in (0, truth) and bool(result.partial[r, c]) == (tally[r, c] == truth)
        fixed_some += bool(decided.any())
    assert fixed_some


@pytest.mark.parametrize("shape", [(1, 14), (14, 1), (2, 9), (9, 2), (4, 6), (6, 7), (8, 8)])
def test_counting_along_the_frontier_equals_enumerating_super_cells(shape):
    """Dynamic programming along the frontier (what counts long frontiers) and splitting (what
    counts wide blobs) give exactly what enumerating the super cells' assignments gives: the count
    split by mines, and each cell's share, on the covered cells of random boards."""
    from recon.counting import _by_frontier, _by_splitting, _by_super_cells

    rng = np.random.default_rng(sum(shape) + 3)
    checked = 0
    for _ in range(30):
        field = rng.random(shape) < rng.uniform(0.1, 0.5)
        opened = ~field & (rng.random(shape) < 0.6)
        numbers = neighbours(field)
        cols = shape[1]
        covered = [r * cols + c for r, c in np.argwhere(~opened)]
        equations = []
        for r, c in np.argwhere(opened):
            around = [y * cols + x for y in range(max(r - 1, 0), min(r + 2, shape[0]))
                      for x in range(max(c - 1, 0), min(c + 2, cols)) if not opened[y, x]]
            if around:
                equations.append((around, int(numbers[r, c])))
        dfs = _by_super_cells(covered, equations, 10**6, None)
        dp = _by_frontier(covered, equations, 10**6, None)
        assert dfs[2] and dp[2]
        assert dp[0] == dfs[0] and dp[1] == dfs[1]
        assert {k: v for k, v in dp[3].items()} == {k: v for k, v in dfs[3].items()}
        whole = _by_frontier(covered, equations, 10**6, None, by_mines=False)  # numbers, not polynomials
        assert whole[2] and whole[0] == dfs[0] and whole[1] == dfs[1] and whole[3] == {0: [dfs[0], dfs[1]]}
        split = _by_splitting(covered, equations, None)
        assert split[2] and split[0] == dfs[0] and split[1] == dfs[1] and split[3] == dfs[3]
        whole = _by_splitting(covered, equations, None, by_mines=False)  # numbers, not polynomials
        assert whole[2] and whole[0] == dfs[0] and whole[1] == dfs[1] and whole[3] == {0: [dfs[0], dfs[1]]}
        checked += dp[0] > 1
    assert checked >= 10


@pytest.mark.parametrize("board, mines", [("# mines: 2\n1??\n?*?\n", 2), ("1?*??\n", None), ("1\n?\n*\n?\n1\n", 1 + 1)])
def test_explain_shows_what_a_classic_board_gives_beyond_its_equations(tmp_path, board, mines):
    """A person checking the proof sees the whole model: under the equations, the opened cells
    given empty, the flags given mines and the total (when there is one); the JSON says the same;
    a Fill-a-Pix status has none of these lines."""
    from recon.model import cell_name

    path = tmp_path / "board.txt"
    path.write_text(board if board.startswith("#") or mines is None else f"# mines: {mines}\n{board}")
    cells, total = parse_board(path.read_text())
    empty = [cell_name(int(r), int(c)) for r, c in np.argwhere(cells >= 0)]
    flags = [cell_name(int(r), int(c)) for r, c in np.argwhere(cells == -2)]
    code, out, _ = run("explain", str(path), "--classic")
    head = out.split("Deductions:")[0]
    assert code in (0, 1, 3) and f"  given empty (the opened cells): {' '.join(empty)}\n" in head
    assert f"  given mines (the flags): {' '.join(flags) or 'none'}\n" in head
    assert (f"  total: the {cells.size} cells hold {total} mine(s)\n" in head) == (total is not None)
    code, out, _ = run("explain", str(path), "--classic", "--json")
    data = json.loads(out)
    assert data["given"] == {"empty": empty, "mines": flags} and data.get("total") == total
    status = tmp_path / "status.txt"
    status.write_text("011\n122\n122\n")
    code, out, _ = run("explain", str(status))
    assert "given" not in out and "total:" not in out
    code, out, _ = run("explain", str(status), "--json")
    assert "given" not in json.loads(out) and "total" not in json.loads(out)


def test_a_count_with_a_total_stops_at_its_time_limit():
    """The exact count with a total multiplies binomials of millions of bits on a large board:
    past the deadline it stops, and says the count is a lower bound, where without a limit the
    same count is exact."""
    import time

    from recon.counting import TimeUp, _with_total

    rng = np.random.default_rng(3)
    field = rng.random((30, 40)) < 0.2
    opened = np.zeros(field.shape, dtype=bool)
    opened[10:20, 10:20] = ~field[10:20, 10:20]
    cells, _ = parse_board(board_text(field, opened, np.zeros(field.shape, dtype=bool)))
    problem = board_problem(cells, int(field.sum()))
    assert count_solutions(problem).exact
    late = count_solutions(problem, time_limit=1e-9)
    assert not late.exact and "lower bound" in late.reason
    with pytest.raises(TimeUp):
        _with_total([], np.arange(2000), 400, np.full(2000, None), deadline=time.perf_counter() - 1)
