"""Reading and writing status and field text, and every error message of the reader."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from recon import FormatError, format_field, format_fields, format_status, parse_field, parse_status, status


def test_plain_status():
    clues, known = parse_status("011\n122\n122\n")
    assert clues.dtype == np.uint8 and clues.tolist() == [[0, 1, 1], [1, 2, 2], [1, 2, 2]]
    assert known.all()


def test_status_is_rows_by_columns():
    clues, known = parse_status("1221\n1221\n")
    assert clues.shape == (2, 4)


@pytest.mark.parametrize("mark", ["?", ".", "-"])
def test_cells_without_a_clue(mark):
    clues, known = parse_status(f"1{mark}\n{mark}1\n")
    assert known.tolist() == [[True, False], [False, True]]
    assert clues.tolist() == [[1, 0], [0, 1]]


def test_tolerated_layout():
    text = "\ufeff# a comment\n\n  # indented comment\r\n011  \r\n122\t\r\n122\r\n\r\n# after the grid\n\n"
    clues, known = parse_status(text)
    assert clues.tolist() == [[0, 1, 1], [1, 2, 2], [1, 2, 2]]


@pytest.mark.parametrize("shape", [(4, 1), (5, 4), (4, 2)])
def test_a_comment_inside_the_grid_is_refused_not_dropped(shape):
    """'#' at the start of a row once removed the row silently; inside the grid it is refused, at
    its line, on thin grids too."""
    rows = ["1" * shape[1]] * shape[0]
    lines = ["# before", *rows[:2], "#" + rows[2][1:], *rows[3:], "# after"]
    err = error("\n".join(lines) + "\n")
    assert (err.line, err.col) == (4, 1) and "comment" in err.message

def test_whitespace_separated_tokens():
    clues, known = parse_status("0 1 1\n1  2\t2\n1 ? 2\n")
    assert clues.tolist() == [[0, 1, 1], [1, 2, 2], [1, 0, 2]]
    assert known.sum() == 8


def test_bytes_input():
    clues, _ = parse_status(b"12\n21\n")
    assert clues.shape == (2, 2)


def error(text, path="in.txt", parse=parse_status) -> FormatError:
    with pytest.raises(FormatError) as info:
        parse(text, path)
    return info.value


def test_error_unknown_character():
    err = error("011\n1x2\n122\n")
    assert str(err) == "in.txt:2:2: expected a count 0-9, or '?', '.' or '-' for a cell without a clue, got 'x'"
    assert (err.line, err.col) == (2, 2)


def test_error_unknown_character_after_indent_and_comment():
    err = error("# head\n  01\n  0!\n")
    assert (err.line, err.col) == (3, 4) and "got '!'" in err.message


def test_error_non_ascii_character():
    err = error("01\n0\u00e9\n")
    assert (err.line, err.col) == (2, 2) and "got 'é'" in err.message


def test_error_control_character_is_named():
    err = error("01\n0\x07\n")
    assert "U+0007" in err.message


def test_error_row_too_short():
    err = error("0111\n122\n")
    assert str(err) == "in.txt:2:4: expected 4 cells in this row like in the first row (line 1), got 3"


def test_error_row_too_long():
    err = error("011\n1222\n")
    assert (err.line, err.col) == (2, 4) and "expected 3 cells" in err.message and "got 4" in err.message


def test_error_token_row_wrong_length():
    err = error("0 1 1\n1 2\n")
    assert (err.line, err.col) == (2, 4) and "expected 3 cells" in err.message


def test_error_token_is_not_one_count():
    err = error("0 1\n10 1\n")
    assert (err.line, err.col) == (2, 1) and "got '10'" in err.message


def test_error_empty_file():
    err = error("")
    assert str(err) == "in.txt:1:1: expected a status grid, got no rows (the input is empty or only comments)"


def test_error_only_comments_and_blanks():
    err = error("# nothing\n\n   \n")
    assert "got no rows" in err.message


def test_error_blank_line_inside_grid():
    err = error("011\n\n122\n")
    assert (err.line, err.col) == (2, 1) and "blank line" in err.message


def test_error_corner_count_too_large():
    err = error("51\n11\n")
    assert str(err) == "in.txt:1:1: expected a count 0-4 at r1c1, got 5: a corner cell sees only 4 cells"


def test_error_edge_count_too_large():
    err = error("000\n700\n000\n")
    assert str(err) == "in.txt:2:1: expected a count 0-6 at r2c1, got 7: an edge cell sees only 6 cells"


def test_error_count_too_large_on_a_one_row_grid():
    err = error("1 4 1\n")
    assert str(err) == "in.txt:1:3: expected a count 0-3 at r1c2, got 4: this cell of a 1x3 grid sees only 3 cells"


def test_error_count_too_large_on_a_single_cell():
    err = error("2\n")
    assert str(err) == "in.txt:1:1: expected a count 0-1 at r1c1, got 2: this cell of a 1x1 grid sees only 1 cell"


def test_error_count_too_large_on_a_one_column_grid():
    err = error("1\n1\n3\n")
    assert (err.line, err.col) == (3, 1) and "0-2 at r3c1" in err.message


def test_error_not_utf8():
    err = error(b"011\n1\xff2\n")
    assert (err.line, err.col) == (2, 2) and "0xff" in err.message


def test_unknown_cell_may_sit_where_a_count_would_be_impossible():
    clues, known = parse_status("?1\n11\n")
    assert not known[0, 0]


@given(st.tuples(st.integers(1, 8), st.integers(1, 8)).flatmap(lambda s: arrays(bool, s)), st.data())
def test_status_round_trip(field, data):
    known = data.draw(arrays(bool, field.shape))
    clues = status(field)
    text = format_status(clues, known)
    back, back_known = parse_status(text)
    assert np.array_equal(back_known, known)
    assert np.array_equal(back[known], clues[known])


@given(st.tuples(st.integers(1, 8), st.integers(1, 8)).flatmap(lambda s: arrays(bool, s)))
def test_field_round_trip(field):
    text = format_field(field)
    assert set(text) <= {"x", "_", "\n"}
    assert np.array_equal(parse_field(text), field)


@pytest.mark.parametrize("mine, empty", [("x", "_"), ("1", "0"), ("*", "."), ("#", "."), ("X", "_")])
def test_field_alphabets(mine, empty):
    field = parse_field(f"{mine}{empty}{empty}\n{empty}{mine}{mine}\n")
    assert field.tolist() == [[True, False, False], [False, True, True]]


def test_field_comments_are_not_rows_of_mines():
    text = "# a comment\n#note\n#.#\n##.\n"
    assert parse_field(text).tolist() == [[True, False, True], [True, True, False]]


def test_field_error_names_the_alphabet():
    err = error("x_\nxq\n", parse=parse_field)
    assert (err.line, err.col) == (2, 2) and "'x' (mine) or '_' (empty)" in err.message


def test_several_fields_are_separated_by_one_blank_line():
    a = np.array([[True, False]])
    b = np.array([[False, True]])
    assert format_fields([a, b]) == "x_\n\n_x\n"


LAYOUTS = [
    "{g}", "{g}\n", "\n\n{g}\n\n\n", "{g}\r\n", "  {g}", "# note\n{g}", "{g}\n\n# end\n", "\ufeff{g}",
]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", [(1, 1), (1, 9), (9, 1), (2, 7), (6, 4)])
def test_fast_reader_agrees_with_the_general_reader(monkeypatch, layout, shape):
    """Plain grids take a vectorised path; everything else the line-by-line reader. Both must
    give the same grid and the same line numbers (seen through an error's position)."""
    import recon.io.text as formats

    rng = np.random.default_rng(sum(shape))
    clues = status(rng.random(shape) < 0.5)
    known = rng.random(shape) < 0.8
    grid = format_status(clues, known).rstrip("\n")
    text = layout.format(g=grid.replace("\n", "\r\n" if "\r" in layout else "\n"))
    # a count too large for its corner, to see the line number each reader reports
    bad_lines = grid.split("\n")
    bad_lines[-1] = bad_lines[-1][:-1] + "9"
    bad = layout.format(g="\n".join(bad_lines))
    results = []
    for fast in (True, False):
        if not fast:
            monkeypatch.setattr(formats, "read_plain_grid", lambda data, table: None)
        for data in (text, text.encode("utf-8")):
            got_clues, got_known = parse_status(data)
            assert np.array_equal(got_known, known) and np.array_equal(got_clues[known], clues[known])
        with pytest.raises(FormatError) as err:
            parse_status(bad.encode("utf-8"), "f.txt")
        results.append((err.value.line, err.value.col))
    assert results[0] == results[1]


@pytest.mark.parametrize("text", ["12\n123\n", "12\n\n12\n", "1 2\n", "12\n1a\n", "\n\n\n", "", "12\r\r\n12\n",
                                  "1\r2\n12\n", "12\n12\r"])
def test_fast_reader_leaves_irregular_input_to_the_general_reader(text):
    from recon.io.text import _STATUS, read_plain_grid

    assert read_plain_grid(text.encode(), _STATUS.table) is None


@pytest.mark.parametrize(
    "parse, text, where, hint",
    [
        (parse_status, "1?2\nx_1\n", (2, 1), "this looks like a field (x mine, _ empty)"),
        (parse_status, "12\n1_\n22\n", (2, 2), "this looks like a field"),
        (parse_status, "0 1\n1 X\n", (2, 3), "this looks like a field"),
        (parse_field, "x_x\n?1?\n", (2, 1), "this looks like a status (counts)"),
        (parse_field, "x_\n05\nxx\n", (2, 2), "this looks like a status"),
        (parse_status, "12\n3z\n", (2, 2), None),
        (parse_status, "011\n1x2\n122\n", (2, 2), None),  # a stray x in a row of counts: no hint
        (parse_field, "x_\n_z\n", (2, 2), None),
        (parse_field, "x_x\n_?x\n", (2, 2), None),
        (parse_field, "1?*\n???\n", (1, 2), "got '?', a covered cell of a classic board"),  # a board's mines are hidden
    ],
)
def test_a_field_read_as_a_status_or_the_reverse_is_named(parse, text, where, hint):
    """The bad cell is located as always; when its row is a row of the other kind of grid, the
    message says so (a field file passed to `recon solve`, a status to `render --field`)."""
    with pytest.raises(FormatError) as caught:
        parse(text, "g.txt")
    assert (caught.value.line, caught.value.col) == where
    if hint is None:
        assert "looks like" not in caught.value.message
    else:
        assert hint in caught.value.message


def test_decimal_text_and_json_text_write_big_integers_as_str_and_json_do():
    """Big integers (a count of a board's free cells has hundreds of thousands of digits) are
    written by halving, since str() is quadratic; the digits must be str()'s, sign and edges too."""
    import json
    import random
    import sys

    from recon.io.text import BIG_BITS, decimal_text, json_text

    if hasattr(sys, "set_int_max_str_digits"):  # (Python 3.10.7 on)
        sys.set_int_max_str_digits(0)
    rng = random.Random(5)
    numbers = [0, 1, -1, 2**BIG_BITS, 2**BIG_BITS + 1, 10**20_000, 10**20_000 - 1, -(3**70_001), 2**200_003]
    numbers += [rng.getrandbits(rng.randrange(BIG_BITS - 5, 4 * BIG_BITS)) for _ in range(6)]
    for n in numbers:
        assert decimal_text(n) == str(n)
    payload = {"count": numbers[-1], "rows": 2, "nested": {"count": -(3**70_001), "list": [[1, 2**70_000], ["a"]]},
               "probabilities": [["1/2", "0"]], "flag": True, "none": None}
    assert json_text(payload) == json.dumps(payload, indent=1)
