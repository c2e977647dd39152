"""Pictures of status grids, fields and solutions (matplotlib, an optional extra: recon[plot]).

One panel per field drawn: mines are dark squares, clues are written in their cells, cells fixed
by trimming are shaded by the step that fixed them (light = early, darker = late), and where
several solutions are drawn the cells in which they differ are outlined in red.
"""

from __future__ import annotations

import os

import numpy as np

from .files import write_atomically
from ..model import Problem

CELL_INCHES = 0.45
MARGIN_INCHES = 0.3
TITLE_INCHES = 0.35
DPI = 100
INSTALL_HINT = "drawing needs matplotlib: pip install 'recon[plot]' (or pip install matplotlib)"
#: The picture formats, by file suffix. SVG keeps its text as text (searchable, selectable).
PICTURE_FORMATS = (".png", ".svg", ".pdf")
LEGEND_INCHES = 0.45
#: The longest side of a picture's grids, in inches: cells shrink past it, so that a large
#: status stays a picture of a few thousand pixels a side, drawn in seconds (docs/decisions.md).
MAX_GRID_INCHES = 40.0
#: Cells smaller than this are drawn as one image, without their numbers, which would not fit;
#: so are grids of more than PATCH_CELLS cells, where the numbers are too small to read and a
#: patch per cell is slow (docs/decisions.md, "Measurements behind the constants").
TEXT_MIN_INCHES = 0.15
PATCH_CELLS = 4096


def as_image(shape: tuple[int, int], panels: int = 1) -> bool:
    """Is a grid of this shape drawn as one image, without its numbers?"""
    return cell_inches(shape, panels) < TEXT_MIN_INCHES or shape[0] * shape[1] > PATCH_CELLS


class MissingDependency(ImportError):
    """An optional dependency is not installed; the message says how to install it."""


#: About how wide a character of a panel's title (9 points) and of the legend (6 points) is: a
#: narrow grid's picture is widened to hold its text, not cut off at the edge.
TITLE_CHAR_INCHES = 0.075
LEGEND_CHAR_INCHES = 0.05


def picture_size(shape: tuple[int, int], panels: int, legend: bool = False, titles: list[str] | None = None,
                 notes: list[str] | None = None) -> tuple[int, int]:
    """Return the (width, height) in pixels of a picture of `panels` grids of this shape, each
    under one of `titles`, with the legend's lines `notes` below."""
    width, height = _figure_inches(shape, panels, legend, titles, notes)
    return int(width * DPI), int(height * DPI)  # as matplotlib's canvas sizes itself (truncated)


def cell_inches(shape: tuple[int, int], panels: int = 1) -> float:
    """The side of a cell: CELL_INCHES, or less where the grids would pass MAX_GRID_INCHES."""
    rows, cols = shape
    return min(CELL_INCHES, MAX_GRID_INCHES / max(rows, max(panels, 1) * cols))


def _figure_inches(shape: tuple[int, int], panels: int, legend: bool = False, titles: list[str] | None = None,
                   notes: list[str] | None = None) -> tuple[float, float]:
    rows, cols = shape
    panels = max(panels, 1)
    cell = cell_inches(shape, panels)
    title = max((len(t) for t in titles or []), default=0) * TITLE_CHAR_INCHES + 2 * 0.05
    note = max((len(n) for n in notes or []), default=0) * LEGEND_CHAR_INCHES + 2 * 0.05
    width = max(panels * max(cols * cell + 2 * MARGIN_INCHES, title), note)
    height = rows * cell + 2 * MARGIN_INCHES + TITLE_INCHES + (LEGEND_INCHES if legend else 0)
    return width, height


def step_map(shape: tuple[int, int], trace) -> np.ndarray:
    """Return, for each cell, the 1-based number of the trimming step that fixed it (0 if none)."""
    steps = np.zeros(shape, dtype=int)
    for number, step in enumerate(trace, start=1):
        for r, c in step.cells:
            if steps[r, c] == 0:
                steps[r, c] = number
    return steps


def _pyplot():
    """Import pyplot (on the Agg backend when no other is set), or say how to install it."""
    try:
        import matplotlib

        if "matplotlib.pyplot" not in __import__("sys").modules:
            matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as err:
        raise MissingDependency(INSTALL_HINT) from err
    return plt


def _show_colours(ax, face: np.ndarray) -> None:
    """Draw a (rows, cols, 3) grid of colours in [0, 1] as one image, one cell a colour: as each
    cell's index into a palette of the colours used. matplotlib resamples an RGB image to the
    picture's size as float RGBA, a 1000x1000 grid at 4,000 pixels a side in 1.4 GB; with an
    index plane the whole drawing takes 0.6 GB (docs/performance.md, "Pictures")."""
    from matplotlib.colors import ListedColormap, Normalize

    rows, cols = face.shape[:2]
    packed = np.zeros((rows, cols), dtype=np.uint32)  # a channel at a time: 16 million cells are drawn
    for k, shift in enumerate((16, 8, 0)):
        packed |= (face[..., k] * 255).astype(np.uint32) << shift  # truncated, as matplotlib makes bytes
    codes = np.unique(packed)
    index = np.searchsorted(codes, packed)
    palette = np.stack([codes >> 16, (codes >> 8) & 255, codes & 255], axis=1) / 255
    # each index k maps to (k + 0.5) / len: the middle of its palette entry, so that a resampled
    # index a rounding away from k keeps its colour
    ax.imshow(index.astype(np.float32), cmap=ListedColormap(palette),
              norm=Normalize(-0.5, len(codes) - 0.5), interpolation="nearest", interpolation_stage="data",
              extent=(0, cols, rows, 0), aspect="equal")


def _save(plt, fig, path: str) -> tuple[int, int]:
    """Write the figure atomically in the format its suffix names; SVG text stays text. Returns
    its size in pixels, as matplotlib's canvas sizes itself (truncated)."""
    width, height = fig.get_size_inches()
    suffix = os.path.splitext(path)[1].lower().lstrip(".") or "png"
    import matplotlib

    try:
        with matplotlib.rc_context({"svg.fonttype": "none", "pdf.fonttype": 42}):
            write_atomically(path, lambda tmp: fig.savefig(tmp, dpi=DPI, format=suffix))
    finally:
        plt.close(fig)
    return int(width * DPI), int(height * DPI)


def draw(
    path: str,
    problem: Problem | None,
    fields: list[np.ndarray],
    *,
    steps: np.ndarray | None = None,
    titles: list[str] | None = None,
    legend: bool = True,
) -> tuple[int, int]:
    """Draw clues and fields into a PNG, SVG or PDF file (atomically); return its size in pixels.
    No fields: the bare puzzle, its clues only. legend: say what the marks mean, under the panels."""
    plt = _pyplot()
    return _save(plt, picture(problem, fields, steps=steps, titles=titles, legend=legend), path)


def picture(problem: Problem | None, fields: list[np.ndarray], *, steps: np.ndarray | None = None,
            titles: list[str] | None = None, legend: bool = True):
    """The Figure `draw` saves: the panels, and with `legend` the lines that say what the marks mean,
    the whole as wide as its longest title and line need."""
    notes = legend_lines(fields, steps) if legend else None
    fig = figure(problem, fields, steps=steps, titles=titles, legend=legend, notes=notes)
    if notes:
        fig.text(0.01, 0.005, "\n".join(notes), fontsize=6, ha="left", va="bottom")
    return fig


def legend_lines(fields: list[np.ndarray], steps: np.ndarray | None) -> list[str]:
    """The lines of text under the panels: what dark, shaded and outlined cells mean."""
    parts = []
    if fields:
        parts.append("dark: mine")
    if steps is not None and steps.max() > 0:
        parts.append(f"shaded: fixed by trimming, light at step 1 to dark at step {int(steps.max())}")
    if len(fields) > 1:
        parts.append("red outline: the solutions differ there")
    if not fields:
        parts.append("the puzzle: a number counts the mines in its 3x3 window, itself included")
    return parts


def figure(
    problem: Problem | None,
    fields: list[np.ndarray],
    *,
    steps: np.ndarray | None = None,
    titles: list[str] | None = None,
    decided: list[np.ndarray] | None = None,
    outline_differences: bool = True,
    legend: bool = False,
    notes: list[str] | None = None,
):
    """Return a matplotlib Figure with one panel per field (clues only when there is no field).

    decided: per field, a mask of the cells that are known; the others are drawn grey.
    outline_differences: outline in red the cells in which the fields differ.
    """
    plt = _pyplot()
    from matplotlib.patches import Rectangle

    if problem is None and not fields:
        raise ValueError("nothing to draw: give a problem or at least one field")
    shape = problem.shape if problem is not None else fields[0].shape
    rows, cols = shape
    panels = fields or [None]
    differ = np.zeros(shape, bool)
    for f in fields[1:]:
        differ |= f != fields[0]
    width, height = _figure_inches(shape, len(panels), legend, titles, notes)
    cell = cell_inches(shape, len(panels))
    fig = plt.figure(figsize=(width, height), dpi=DPI)
    panel_w = width / len(panels)
    below = MARGIN_INCHES + (LEGEND_INCHES if legend else 0)  # room for the legend under the panels
    last = steps.max() if steps is not None and steps.size else 0
    cmap = plt.get_cmap("YlGnBu")
    for i, field in enumerate(panels):
        left = (i * panel_w + (panel_w - cols * cell) / 2) / width  # centred: a wide title may widen the panel
        bottom = below / height
        ax = fig.add_axes((left, bottom, cols * cell / width, rows * cell / height))
        ax.set_xlim(0, cols)
        ax.set_ylim(rows, 0)
        ax.set_aspect("equal")
        ax.axis("off")
        if as_image(shape, len(panels)):  # too small for numbers: the colours as one image
            face = np.ones(shape + (3,))
            if steps is not None and last > 0:
                shaded = steps > 0
                face[shaded] = cmap(0.1 + 0.5 * steps[shaded] / last)[:, :3]
            if field is not None:
                face[field] = (0.13, 0.13, 0.13)
                if outline_differences and len(fields) > 1:
                    face[differ] = np.where(field[differ, None], (0.55, 0.0, 0.0), (1.0, 0.45, 0.45))
            if decided is not None:
                face[~decided[i]] = (0.87, 0.87, 0.87)
            _show_colours(ax, face)
            if titles and i < len(titles):
                ax.set_title(titles[i], fontsize=9)
            continue
        for r in range(rows):
            for c in range(cols):
                mine = field is not None and bool(field[r, c])
                unknown = decided is not None and not decided[i][r, c]
                if unknown:
                    mine = False
                    face = "#dddddd"
                elif mine:
                    face = "#222222"
                elif steps is not None and steps[r, c] > 0:
                    face = cmap(0.1 + 0.5 * steps[r, c] / max(last, 1))
                else:
                    face = "white"
                ax.add_patch(Rectangle((c, r), 1, 1, facecolor=face, edgecolor="#999999", linewidth=0.6, clip_on=False))
                if outline_differences and field is not None and len(fields) > 1 and differ[r, c]:
                    ax.add_patch(Rectangle((c + 0.06, r + 0.06), 0.88, 0.88, fill=False, edgecolor="red", linewidth=2))
                if problem is not None and problem.known[r, c]:
                    ax.text(
                        c + 0.5,
                        r + 0.55,
                        str(int(problem.clues[r, c])),
                        ha="center",
                        va="center",
                        fontsize=9,
                        color="white" if mine else "black",
                    )
        if titles and i < len(titles):
            ax.set_title(titles[i], fontsize=9)
    return fig


def draw_probabilities(path: str, problem: Problem, probabilities: np.ndarray | None, title: str,
                       known_cells: np.ndarray | None = None, known_values: np.ndarray | None = None) -> tuple[int, int]:
    """Draw each cell's mine probability as a heat map, clues written in.

    Varying cells are coloured from white (0) to dark red (1) with their probability written
    under the clue; certain cells get their own marks, so 0.97 is never taken for 1: a certain
    mine is black with a white cross, a certain empty cell white with a small open circle. A
    colour bar gives the scale with its exact ends. Without probabilities (a count that did not
    finish), known_cells / known_values give the cells proved the same in every solution; the
    others are grey with a '?'."""
    plt = _pyplot()
    from matplotlib.colors import Normalize
    from matplotlib.patches import Rectangle

    rows, cols = problem.shape
    notes = ["black, x: a mine in every solution", "o: empty in every solution" + ("; grey ?: not known" if probabilities is None else "")]
    width, height = _figure_inches(problem.shape, 1, True, [title], notes)
    cell = cell_inches(problem.shape)
    left = (width - cols * cell) / 2  # centred under its title, which may be wider than the grid
    width += 1.0  # the colour bar
    below = MARGIN_INCHES + LEGEND_INCHES
    fig = plt.figure(figsize=(width, height), dpi=DPI)
    ax = fig.add_axes((left / width, below / height, cols * cell / width, rows * cell / height))
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    cmap = plt.get_cmap("Reds")
    image = as_image(problem.shape)
    if image:  # too small for numbers and marks: the colours as one image
        face = np.full(problem.shape + (3,), 0.8)  # not known
        if probabilities is not None:
            p = np.asarray(probabilities, dtype=float)
            face = cmap(p)[..., :3]
            face[p == 1.0] = (0.07, 0.07, 0.07)
            face[p == 0.0] = (1.0, 1.0, 1.0)
        elif known_cells is not None:
            face[known_cells & (known_values == 1)] = (0.07, 0.07, 0.07)
            face[known_cells & (known_values == 0)] = (1.0, 1.0, 1.0)
        _show_colours(ax, face)
    for r in range(0 if image else rows):
        for c in range(cols):
            clue = str(int(problem.clues[r, c])) if problem.known[r, c] else ""
            if probabilities is not None:
                p = float(probabilities[r, c])
                certain = p in (0.0, 1.0)
            elif known_cells is not None and known_cells[r, c]:
                p, certain = float(known_values[r, c]), True
            else:
                p, certain = None, False
            if certain and p == 1:
                face, ink = "#111111", "white"
            elif certain:
                face, ink = "white", "black"
            elif p is None:
                face, ink = "#cccccc", "black"
            else:
                face, ink = cmap(p), ("white" if p > 0.6 else "black")
            ax.add_patch(Rectangle((c, r), 1, 1, facecolor=face, edgecolor="#999999", linewidth=0.6, clip_on=False))
            if certain and p == 1:  # a small cross in the corner, the clue stays readable
                ax.plot([c + 0.74, c + 0.9], [r + 0.1, r + 0.26], color="white", linewidth=1)
                ax.plot([c + 0.74, c + 0.9], [r + 0.26, r + 0.1], color="white", linewidth=1)
            elif certain:
                ax.add_patch(plt.Circle((c + 0.82, r + 0.18), 0.08, fill=False, edgecolor="#555555", linewidth=0.7))
            if clue:
                ax.text(c + 0.5, r + (0.4 if p is not None and not certain else 0.55), clue, ha="center", va="center",
                        fontsize=9, color=ink)
            if p is not None and not certain:
                ax.text(c + 0.5, r + (0.78 if clue else 0.55), f"{p:.2f}".lstrip("0"), ha="center", va="center",
                        fontsize=6 if clue else 8, color=ink)
            elif p is None:
                ax.text(c + 0.5, r + 0.8 if clue else r + 0.55, "?", ha="center", va="center", fontsize=7, color="#444444")
    ax.set_title(title, fontsize=9)
    bar = fig.add_axes(((width - 0.8) / width, below / height, 0.15 / width, rows * cell / height))
    scale = fig.colorbar(plt.cm.ScalarMappable(norm=Normalize(0, 1), cmap=cmap), cax=bar)
    scale.set_ticks([0, 0.25, 0.5, 0.75, 1])
    scale.set_ticklabels(["0", ".25", ".5", ".75", "1"])
    scale.ax.tick_params(labelsize=7)
    fig.text(0.01, 0.005, "\n".join(notes), fontsize=6, ha="left", va="bottom")
    return _save(plt, fig, path)
