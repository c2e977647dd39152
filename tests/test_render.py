"""Pictures: a real PNG and SVG of the expected size, and a clear message without matplotlib."""

from __future__ import annotations

import builtins
import io
import struct

import numpy as np
import pytest

from conftest import DATA
from recon import status
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
    assert png_size(target) == picture_size((5, 5), 2)
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
    assert (width, height) == picture_size((2, 7), 1) and width > height


def test_render_svg(tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "three.svg"
    code, _, _ = run("render", str(DATA / "seed-3x3.txt"), "--out", str(target))
    assert code == 0
    text = target.read_text()
    assert text.lstrip().startswith("<?xml") and "<svg" in text


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
    assert code == 2 and "--out must name a .png or .svg file" in err


def test_count_heat_map_png(tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "heat.png"
    code, out, err = run("count", str(DATA / "seed-5x5.txt"), "--picture", str(target))
    assert code == 3 and out == "2 solutions\n"
    assert png_size(target) == picture_size((5, 5), 1)


def test_count_heat_map_needs_an_exact_count(tmp_path):
    status_file = tmp_path / "s.txt"
    rng = np.random.default_rng(1)  # a wide ambiguous region: no exact count within the time limit
    status_file.write_text(format_status(status(rng.random((30, 30)) < 0.5), rng.random((30, 30)) < 0.25))
    code, _, err = run("count", str(status_file), "--time-limit", "0.3", "--picture", str(tmp_path / "h.png"))
    assert code == 2 and "need an exact count" in err
