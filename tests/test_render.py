"""Pictures: a real PNG and SVG of the expected size, and a clear message without matplotlib."""

from __future__ import annotations

import builtins
import io
import struct

import numpy as np
import pytest

from conftest import DATA
from recon import make_problem, status
from recon.cli import main
from recon.io.text import format_status
from recon.io.pictures import picture_size


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), stdout=out, stderr=err), out.getvalue(), err.getvalue()


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.mark.slow
def test_render_png_of_two_solutions(tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "five.png"
    code, _, err = run("render", str(DATA / "seed-5x5.txt"), "--out", str(target))
    assert code == 3
    assert png_size(target) == picture_size((5, 5), 2, legend=True)
    assert f"wrote {target}" in err
    assert [p.name for p in tmp_path.iterdir()] == ["five.png"]


def test_render_png_of_a_non_square_field(tmp_path):
    pytest.importorskip("matplotlib")
    field = tmp_path / "f.txt"
    field.write_text("x__x__x\n_x___x_\n")
    target = tmp_path / "f.png"
    code, _, _ = run("render", str(field), "--field", "--out", str(target))
    assert code == 0
    width, height = png_size(target)
    assert (width, height) == picture_size((2, 7), 1, legend=True) and width > height


@pytest.mark.parametrize("fmt", ["endoh1", "mines"])
def test_render_field_draws_the_mines_of_a_map_or_a_mines_id(tmp_path, fmt):
    """An endoh1 map and a Mines game ID are fields with their mines given: `render --field`
    draws the same picture as of the field `convert --format field` writes from them."""
    pytest.importorskip("matplotlib")
    given, field = tmp_path / "given.txt", tmp_path / "field.txt"
    assert run("generate", "4", "7", "--classic", "--mines", "5", "--seed", "3", "--format", fmt, "--out", str(given))[0] == 0
    assert run("convert", str(given), "--format", "field", "--out", str(field))[0] == 0
    pictures = []
    for source in (given, field):
        target = tmp_path / f"{source.stem}.png"
        code, _, err = run("render", str(source), "--field", "--out", str(target))
        assert code == 0 and f"wrote {target}" in err
        pictures.append(target.read_bytes())
    assert pictures[0] == pictures[1]


def test_render_svg(tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "three.svg"
    code, _, _ = run("render", str(DATA / "seed-3x3.txt"), "--out", str(target))
    assert code == 0
    text = target.read_text()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    # text stays text (searchable): the clue digits and the legend are <text> elements
    assert text.count("<text") >= 9 + 1 and "dark: mine" in text


def test_render_without_matplotlib_says_how_to_install(tmp_path, monkeypatch):
    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    target = tmp_path / "x.png"
    code, _, err = run("render", str(DATA / "seed-3x3.txt"), "--out", str(target))
    assert code == 2
    assert "pip install 'recon[plot]'" in err
    assert not target.exists()


def test_render_refuses_other_formats(tmp_path):
    code, _, err = run("render", str(DATA / "seed-3x3.txt"), "--out", str(tmp_path / "x.jpg"))
    assert code == 2 and "--out must name a .png, .svg or .pdf file" in err


def test_count_heat_map_png(tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "heat.png"
    code, out, err = run("count", str(DATA / "seed-5x5.txt"), "--picture", str(target))
    assert code == 3 and out == "2 solutions\n"
    width, height = png_size(target)
    assert (width - 100, height) == picture_size((5, 5), 1, legend=True)  # a colour bar beside


def test_count_heat_map_without_an_exact_count_draws_what_is_known(tmp_path):
    pytest.importorskip("matplotlib")
    status_file = tmp_path / "s.txt"
    rng = np.random.default_rng(1)  # a wide ambiguous region: no exact count within the time limit
    status_file.write_text(format_status(status(rng.random((30, 30)) < 0.5), rng.random((30, 30)) < 0.25))
    target = tmp_path / "h.svg"
    code, _, err = run("count", str(status_file), "--time-limit", "1", "--picture", str(target))  # room under load
    text = target.read_text()
    assert code == 4 and "at least" in text and "grey ?: not known" in text and text.count(">?<") > 100


def test_heat_map_marks_certain_cells_and_writes_each_probability(tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "h.svg"
    code, _, _ = run("count", str(DATA / "seed-5x5.txt"), "--picture", str(target))
    text = target.read_text()
    assert code == 3 and text.count(">.50<") == 4  # the four varying cells, written out
    assert "a mine in every solution" in text and "empty in every solution" in text


def test_render_pdf_and_the_bare_puzzle(tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "p.pdf"
    code, _, err = run("render", str(DATA / "seed-5x5.txt"), "--out", str(target), "--puzzle-only")
    assert code == 0 and target.read_bytes()[:5] == b"%PDF-" and "multiple" not in err
    svg = tmp_path / "p.svg"
    run("render", str(DATA / "seed-5x5.txt"), "--out", str(svg), "--puzzle-only")
    assert "the puzzle" in svg.read_text() and "solution 1" not in svg.read_text()


@pytest.mark.parametrize("shape", [(70, 80), (1, 5000), (5000, 1)])
def test_a_large_grid_is_one_image_of_bounded_size_with_its_mines_where_they_are(tmp_path, shape):
    """A 200x200 status drew a patch and a number per cell into 9,060 x 9,140 pixels, in 56 s, and
    a 1000x1000 did not finish: past PATCH_CELLS cells, or when cells are too small for numbers,
    the grid is one image, its longest side MAX_GRID_INCHES. Its pixels are checked: the centre of
    each cell sampled is dark exactly where the field has a mine."""
    pytest.importorskip("matplotlib")
    import matplotlib.image

    from recon.io import pictures

    rows, cols = shape
    rng = np.random.default_rng(sum(shape))
    field = rng.random(shape) < 0.3
    path = tmp_path / "f.txt"
    path.write_text("\n".join("".join("x" if v else "_" for v in row) for row in field) + "\n")
    target = tmp_path / "f.png"
    code, _, err = run("render", str(path), "--field", "--out", str(target))
    assert code == 0, err
    width, height = png_size(target)
    assert (width, height) == picture_size(shape, 1, True, ["field and its counts"], pictures.legend_lines([field], None))
    assert pictures.as_image(shape) and max(width, height) <= (pictures.MAX_GRID_INCHES + 2) * pictures.DPI
    pixels = matplotlib.image.imread(str(target))[..., :3].mean(axis=2)
    cell = pictures.cell_inches(shape)
    top = height / pictures.DPI - pictures.MARGIN_INCHES - pictures.LEGEND_INCHES - rows * cell
    left = (width / pictures.DPI - cols * cell) / 2  # the grid is centred (a column is widened for its title)
    checked = 0
    for r, c in zip(rng.integers(0, rows, 40), rng.integers(0, cols, 40)):
        x = (left + (c + 0.5) * cell) * pictures.DPI
        y = (top + (r + 0.5) * cell) * pictures.DPI
        if cell * pictures.DPI < 3:  # cells under 3 pixels: resampled, not one colour each
            break
        assert (pixels[int(y), int(x)] < 0.3) == bool(field[r, c]), (r, c)
        checked += 1
    assert checked or cell * pictures.DPI < 3


@pytest.mark.parametrize("shape, colours, pixels", [((40, 60), 300, 4), ((1, 700), 5, 2), ((700, 1), 5, 3), ((2, 900), 40, 1),
                                                    ((1, 1), 1, 30)])
def test_a_grid_drawn_as_one_image_is_the_rgb_image_pixel_for_pixel(shape, colours, pixels):
    """A grid too large for numbers is drawn as each cell's index into a palette (a third of the
    memory of an RGB image, which matplotlib resamples as float RGBA at the picture's size). The
    pixels are those of matplotlib's own drawing of the RGB image, with up to 300 colours (a long
    trace's shades), at 1 to 30 pixels a cell."""
    pytest.importorskip("matplotlib")
    from recon.io import pictures

    plt = pictures._pyplot()
    rng = np.random.default_rng(colours)
    face = rng.random((colours, 3))[rng.integers(0, colours, shape)]
    drawn = []
    for show in (pictures._show_colours, lambda ax, f: ax.imshow(f, interpolation="nearest", extent=(0, shape[1], shape[0], 0))):
        fig = plt.figure(figsize=(shape[1] * pixels / pictures.DPI + 0.2, shape[0] * pixels / pictures.DPI + 0.2), dpi=pictures.DPI)
        ax = fig.add_axes((0.1 / fig.get_figwidth(), 0.1 / fig.get_figheight(), 1 - 0.2 / fig.get_figwidth(), 1 - 0.2 / fig.get_figheight()))
        ax.set_xlim(0, shape[1])
        ax.set_ylim(shape[0], 0)
        ax.axis("off")
        show(ax, face)
        fig.canvas.draw()
        drawn.append(np.asarray(fig.canvas.buffer_rgba()).copy())
        plt.close(fig)
    assert drawn[0].shape == drawn[1].shape and (drawn[0] != 255).any()
    assert np.array_equal(drawn[0], drawn[1])


def test_a_large_heat_map_is_one_image_too(tmp_path):
    """The count's picture of a 70x70 puzzle (one solution: every cell certain): one image, the
    size of the grid plus its colour bar, black where the solution has a mine."""
    pytest.importorskip("matplotlib")
    import matplotlib.image

    from recon.io import pictures

    puzzle, field, target = tmp_path / "p.txt", tmp_path / "f.txt", tmp_path / "heat.png"
    code, _, _ = run("generate", "70", "70", "40", "--puzzle", "--seed", "2", "--out", str(puzzle), "--field", str(field))
    assert code == 0
    code, _, err = run("count", str(puzzle), "--picture", str(target))
    assert code == 0, err
    width, height = png_size(target)
    assert (width - pictures.DPI, height) == picture_size((70, 70), 1, legend=True) and pictures.as_image((70, 70))
    mines = [line.strip() for line in field.read_text().splitlines() if line.strip() and not line.startswith("#")]
    pixels = matplotlib.image.imread(str(target))[..., :3].mean(axis=2)
    cell = pictures.cell_inches((70, 70))
    top = height / pictures.DPI - pictures.MARGIN_INCHES - pictures.LEGEND_INCHES - 70 * cell
    for r, c in [(0, 0), (5, 9), (33, 41), (69, 69), (12, 60)]:
        x = int((pictures.MARGIN_INCHES + (c + 0.5) * cell) * pictures.DPI)
        y = int((top + (r + 0.5) * cell) * pictures.DPI)
        assert (pixels[y, x] < 0.3) == (mines[r][c] == "x"), (r, c)


@pytest.mark.parametrize("shape, solutions", [((5, 1), 2), ((1, 2), 2), ((2, 3), 3), ((1, 1), 1), ((3, 12), 2)])
def test_no_title_or_legend_is_cut_off_on_a_narrow_grid(shape, solutions):
    """A column, a strip or a tiny grid had its titles ("solution 1 of at least 4 solutions")
    running into each other and off the edge, and its legend cut: each text drawn now lies inside
    the picture, and each panel's title inside its own panel."""
    pytest.importorskip("matplotlib")
    from recon.io import pictures

    rng = np.random.default_rng(sum(shape))
    fields = [rng.random(shape) < 0.4 for _ in range(solutions)]
    problem = make_problem(status(fields[0]))
    titles = [f"solution {i} of at least {solutions + 2} solutions" for i in range(1, solutions + 1)]
    steps = np.arange(shape[0] * shape[1]).reshape(shape) % 3
    fig = pictures.picture(problem, fields, steps=steps, titles=titles)
    renderer = fig.canvas.get_renderer()
    width = fig.bbox.width
    panel = width / solutions
    for i, ax in enumerate(fig.axes):
        box = ax.title.get_window_extent(renderer)
        assert i * panel - 1 <= box.x0 and box.x1 <= (i + 1) * panel + 1, (ax.title.get_text(), box, panel)
    for text in fig.texts:
        box = text.get_window_extent(renderer)
        assert 0 <= box.x0 and box.x1 <= width + 1, (text.get_text(), box, width)
    size = pictures.picture_size(shape, solutions, True, titles, pictures.legend_lines(fields, steps))
    assert size == (int(fig.get_size_inches()[0] * pictures.DPI), int(fig.get_size_inches()[1] * pictures.DPI))
    import matplotlib.pyplot as plt

    plt.close(fig)
