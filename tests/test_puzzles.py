"""Puzzle formats of other tools: round trips, recognition by content, and precise errors."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from conftest import ROOT, load_fillapix
from recon import FormatError, solve, status
from recon.cli import main
from recon.io.foreign import (
    detect,
    format_hakank,
    format_legup,
    format_mosaic,
    parse_hakank,
    parse_legup,
    parse_mosaic,
    read_any_status,
    write_puzzle,
)

partial = st.tuples(st.integers(1, 9), st.integers(1, 40)).flatmap(
    lambda s: st.tuples(arrays(bool, s), arrays(bool, s))
)


@given(partial)
def test_mosaic_round_trip_non_square(pair):
    field, known = pair
    clues = status(field)
    text = format_mosaic(clues, known)
    assert text.startswith(f"{field.shape[1]}x{field.shape[0]}:")  # width first
    back, back_known = parse_mosaic(text)
    assert np.array_equal(back_known, known) and np.array_equal(back[known], clues[known])


def test_tatham_s_mosaic_puzzles_read_as_his_code_reads_them_and_have_one_solution():
    """tests/data/tatham_mosaic_ids.txt: five IDs made by his generator, each with the clues his
    new_game reads. recon reads the same clues, proves each puzzle's one solution (his generator
    keeps only puzzles his solver finishes) and writes the same ID back."""
    from recon import Verdict, make_problem

    blocks = []
    for line in (ROOT / "tests" / "data" / "tatham_mosaic_ids.txt").read_text().splitlines():
        if line.startswith("#"):
            continue
        if ":" in line:
            blocks.append((line, []))
        else:
            blocks[-1][1].append(line)
    assert len(blocks) == 5
    for text, rows in blocks:
        clues, known = parse_mosaic(text)
        assert known.tolist() == [[ch != "." for ch in row] for row in rows], text
        assert clues[known].tolist() == [int(ch) for row in rows for ch in row if ch != "."], text
        result = solve(make_problem(clues, known))
        assert result.verdict is Verdict.UNIQUE, text
        assert np.array_equal(status(result.solutions[0])[known], clues[known])
        assert format_mosaic(clues, known).strip() == text


def test_mosaic_splits_runs_longer_than_26():
    known = np.zeros((1, 60), bool)
    known[0, 59] = True
    clues = np.zeros((1, 60), np.uint8)
    clues[0, 59] = 1
    assert format_mosaic(clues, known) == "60x1:zzg1\n"  # 59 blanks = 26 + 26 + 7
    back, back_known = parse_mosaic("60x1:zzg1")
    assert back_known[0, 59] and back_known.sum() == 1


@given(partial)
def test_legup_round_trip(pair):
    field, known = pair
    clues = status(field)
    back, back_known = parse_legup(format_legup(clues, known))
    assert np.array_equal(back_known, known) and np.array_equal(back[known], clues[known])


def test_hakank_round_trip_and_square_only():
    rng = np.random.default_rng(1)
    field, known = rng.random((10, 10)) < 0.4, rng.random((10, 10)) < 0.5
    text = format_hakank(status(field), known)
    assert text.startswith("10\n") and "?" not in text
    back, back_known = parse_hakank(text)
    assert np.array_equal(back_known, known)
    with pytest.raises(ValueError, match="square grids only"):
        format_hakank(status(field[:, :7]), known[:, :7])


@pytest.mark.parametrize("fmt", ["status", "mosaic", "hakank", "legup"])
@given(st.tuples(st.integers(1, 9), st.integers(1, 9)).flatmap(lambda s: st.tuples(arrays(bool, s), arrays(bool, s))))
@example((np.ones((1, 1), bool), np.ones((1, 1), bool)))  # '1' then '1' is also a 2x1 status
def test_every_format_written_reads_back_by_its_content_as_the_same_puzzle(fmt, pair):
    """What `recon convert` writes, any command reads again (the format recognised by content)
    as the same clues; a shape a format cannot hold so is refused before anything is written."""
    field, known = pair
    clues = status(field)
    try:
        text = write_puzzle(clues, known, fmt)
    except ValueError:
        assert fmt == "hakank" and (field.shape[0] != field.shape[1] or field.shape == (1, 1))
        return
    back, back_known, found = read_any_status(text)
    assert found == fmt and np.array_equal(back_known, known) and np.array_equal(back[known], clues[known])


def test_bundled_hakank_files_are_recognised():
    puzzles = load_fillapix()
    for i in (1, 2, 3):
        clues, known, fmt = read_any_status((ROOT / "tests" / "data" / f"fill_a_pix{i}.txt").read_text())
        assert fmt == "hakank"
        assert np.array_equal(known, puzzles[f"hakank{i}"][1])


@pytest.mark.parametrize("fmt", ["status", "mosaic", "hakank", "legup"])
def test_detect_every_written_format(fmt):
    rng = np.random.default_rng(3)
    clues, known = status(rng.random((6, 6)) < 0.5), rng.random((6, 6)) < 0.6
    text = write_puzzle(clues, known, fmt)
    assert detect(text) == fmt
    back, back_known, found = read_any_status(text)
    assert found == fmt and np.array_equal(back_known, known)


@pytest.mark.parametrize(
    "text, where, words",
    [
        ("5x2:1a", (1, 7), "expected 10 cells"),
        ("2x1:123", (1, 7), "expected the description to end"),
        ("2x2:9c", (1, 1), "expected a count 0-4"),
        ("<Legup><puzzle><board height='2' width='x'/></puzzle></Legup>", (1, 16), "whole-number height"),
        ("<Legup><puzzle></puzzle></Legup>", (1, 1), "<board>"),
        ("<Legup>\n<puzzle>\n</Legup>", (3, 3), "malformed XML"),
        ("<Legup><board height='1' width='1'><cell value='3' x='4' y='0'/></board></Legup>", (1, 36), "inside the 1x1 board"),
        ("<Legup>\n <board height='1' width='3'>\n  <cell value='1' x='0' y='0'/>\n  <cell value='5' x='2' y='0'/>\n </board>\n</Legup>",
         (4, 3), "expected a count 0-2 at r1c3, got 5"),
        ("<board height='3' width='1'>\n<cell value='1' x='0' y='2'/>\n<cell value='2' x='0' y='2'/></board>", (3, 1),
         "expected each cell once, got x=0 y=2 again (first on line 2)"),
        ("<board height='2' width='1'>\n<cell value='x' x='0' y='1'/></board>", (2, 1), "whole-number value, x and y"),
        ("<board height='1' width='2'>\n\n  <cell value='111' x='1' y='0'/></board>", (3, 3), "clue number 0-9 or 10"),
        ("3\n...\n.x.\n...\n", (3, 2), "got 'x'"),
    ],
)
def test_errors_name_the_place(text, where, words):
    with pytest.raises(FormatError) as info:
        read_any_status(text, "p.txt")
    assert (info.value.line, info.value.col) == where and words in info.value.message


def test_legup_reads_only_the_cells_of_its_board():
    """A <cell> outside the first <board> (here after it) is no clue of that board; a board as the
    root element is read too; cells not listed have no clue (a 2x3 board: rows first)."""
    text = ("<Legup><puzzle><board height='2' width='3'><cells><cell value='104' x='2' y='1'/></cells></board>"
            "<cell value='0' x='0' y='0'/></puzzle></Legup>")
    clues, known, found = read_any_status(text)
    assert found == "legup" and clues.shape == (2, 3)
    assert known.tolist() == [[False, False, False], [False, False, True]] and clues[1, 2] == 4
    clues, known, _ = read_any_status("<board height='1' width='4'><cell value='10' x='0' y='0'/><cell value='2' x='3' y='0'/></board>")
    assert known.tolist() == [[False, False, False, True]] and clues[0, 3] == 2


def test_convert_and_solve_other_formats(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    source = ROOT / "tests" / "data" / "fill_a_pix1.txt"
    assert main(["convert", str(source), "--format", "legup"], stdout=out, stderr=err) == 0
    xml = tmp_path / "p.xml"
    xml.write_text(out.getvalue())
    assert "read hakank, wrote legup (10x10, 34 clues)" in err.getvalue()
    code_a = main(["solve", str(xml), "-q"], stdout=(a := io.StringIO()), stderr=io.StringIO())
    code_b = main(["solve", str(source), "-q"], stdout=(b := io.StringIO()), stderr=io.StringIO())
    assert code_a == code_b == 0 and a.getvalue() == b.getvalue()
    assert main(["convert", str(ROOT / "data" / "seed-3x3.txt"), "--format", "hakank"], stdout=io.StringIO(), stderr=io.StringIO()) == 0
    err = io.StringIO()
    rect = tmp_path / "r.txt"
    rect.write_text("12\n21\n11\n")
    assert main(["convert", str(rect), "--format", "hakank"], stdout=io.StringIO(), stderr=err) == 2
    assert "square grids only" in err.getvalue()


LEGUP_SHARED = ROOT.parent / "shared" / "data" / "legup" / "fillapix"


def _legup_counts() -> list[tuple[str, int, int, int, int]]:
    """(file, height, width, clues, solutions) from the shared set's solution_counts.txt."""
    rows = []
    for line in (LEGUP_SHARED / "solution_counts.txt").read_text().splitlines():
        m = re.match(r"(\S+\.xml): (\d+)x(\d+) clues=(\d+) solutions=(\d+)", line)
        if m:
            rows.append((m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5))))
    return rows


@pytest.mark.skipif(not LEGUP_SHARED.is_dir(), reason="../shared/data/legup/fillapix is not beside the repository")
def test_every_shared_legup_puzzle_reads_and_solves_as_its_provenance_says():
    """The LEGUP Fillapix files (read in place: their licence keeps them out of this repository)
    import with the size and clue count their provenance note gives, and solve to its number of
    solutions; the two with a <goal> (a cell to prove, once with a wrong value) read the same clues
    as the board without it."""
    listed = _legup_counts()
    assert len(listed) == len(list(LEGUP_SHARED.glob("*.xml"))) >= 9
    read = {}
    for name, height, width, clue_count, solutions in listed:
        clues, known, found = read_any_status((LEGUP_SHARED / name).read_bytes(), name)
        assert found == "legup" and clues.shape == (height, width) and int(known.sum()) == clue_count
        result = solve(clues, known)
        assert result.count_exact and result.solution_count == solutions, name
        read[name] = (clues, known)
    for goal in ("FillapixBasicWithGoal.xml", "FillapixBasicWithWrongGoal.xml"):
        assert np.array_equal(read[goal][1], read["FillapixBasic10x10_1.xml"][1])
        assert np.array_equal(read[goal][0], read["FillapixBasic10x10_1.xml"][0])


def test_legup_goal_cells_are_not_clues():
    """A <goal> names a cell to prove (LEGUP exercises); its value is no clue, even when it differs
    from the cell's clue in <cells>."""
    text = ("<Legup><puzzle><board height='1' width='3'><goal type='PROVE_CELL_MUST_BE'><cell value='1' x='0' y='0'/>"
            "<cell value='2' x='2' y='0'/></goal><cells><cell value='0' x='0' y='0'/></cells></board></puzzle></Legup>")
    clues, known, _ = read_any_status(text)
    assert known.tolist() == [[True, False, False]] and clues[0, 0] == 0


@pytest.mark.parametrize(
    "text, where, words",
    [
        ("3\n1.2\n..\n...\n", (3, 3), "expected 3 cells in this row like in the first row (line 2), got 2"),
        ("# from hakank\n\n3\n  1.2\n  .z.\n  ...\n", (5, 4), "got 'z'"),
        ("# from hakank\n3\n1.2\n...\n..\n", (5, 3), "like in the first row (line 3), got 2"),
    ],
)
def test_hakank_errors_point_at_the_file_lines_and_columns(text, where, words):
    """Errors in the rows of a hakank file name the file's own line and column (the size line,
    comments and indentation counted), also inside the message."""
    with pytest.raises(FormatError) as caught:
        read_any_status(text, "h.txt")
    assert (caught.value.line, caught.value.col) == where and words in caught.value.message
