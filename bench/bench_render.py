"""Benchmark: drawing a large grid as one image, its time and its peak memory.

    python bench/bench_render.py --sizes 300 1000 2000 4000 --repeats 3

Past `io.pictures.PATCH_CELLS` cells a grid is drawn as one image, its longest side
MAX_GRID_INCHES. recon hands matplotlib each cell's index into a palette of the colours used
(`pictures._show_colours`). The peer, measured in the same run: the same picture drawn from the
(rows, cols, 3) RGB array itself, as recon did before, which matplotlib resamples as float RGBA
at the picture's size. Each drawing (`pictures.draw` of a random field at 30 % and its status,
to PNG) runs in a forked process of its own, so that its peak resident memory is its own; the
two ways alternate. Both pictures are checked equal pixel for pixel. Medians of --repeats.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np

from recon.io import pictures
from recon.model import make_problem, status


def rgb_image(ax, face: np.ndarray) -> None:
    """The peer: the RGB array itself, as imshow takes it."""
    rows, cols = face.shape[:2]
    ax.imshow(face, interpolation="nearest", extent=(0, cols, rows, 0), aspect="equal")


def drawn_in_child(n: int, way: str, path: str) -> tuple[float, float]:
    """(seconds, peak MB) of drawing an n x n field and its status into path, in a forked child."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: draw, send the time, leave at once
        os.close(read)
        if way == "rgb":
            pictures._show_colours = rgb_image
        field = np.random.default_rng(n).random((n, n)) < 0.3
        problem = make_problem(status(field))
        start = time.perf_counter()
        pictures.draw(path, problem, [field], titles=["field"])
        os.write(write, f"{time.perf_counter() - start}".encode())
        os._exit(0)
    os.close(write)
    seconds = float(os.read(read, 64).decode() or "nan")
    os.close(read)
    _, code, usage = os.wait4(pid, 0)
    if code != 0:
        sys.exit(f"the {way} drawing of {n}x{n} failed")
    return seconds, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[300, 1000, 2000, 4000])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    import matplotlib.image

    pictures._pyplot()  # imported before the forks: each child draws, none imports
    print("| grid | palette s | palette MB | RGB image s (peer) | RGB image MB | time peer / palette | memory peer / palette |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for n in args.sizes:
            runs: dict[str, list[tuple[float, float]]] = {"palette": [], "rgb": []}
            for _ in range(args.repeats):
                for way in runs:
                    runs[way].append(drawn_in_child(n, way, os.path.join(folder, f"{way}.png")))
            same = np.array_equal(*(matplotlib.image.imread(os.path.join(folder, f"{way}.png")) for way in runs))
            if not same:
                sys.exit(f"{n}x{n}: the two pictures differ")
            (ps, pm), (rs, rm) = ([statistics.median(v[i] for v in runs[way]) for i in (0, 1)] for way in runs)
            print(f"| {n}x{n} | {ps:.2f} | {pm:.0f} | {rs:.2f} | {rm:.0f} | {rs / ps:.2f} | {rm / pm:.2f} |", flush=True)


if __name__ == "__main__":
    main()
