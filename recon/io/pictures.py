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


class MissingDependency(ImportError):
    """An optional dependency is not installed; the message says how to install it."""


def picture_size(shape: tuple[int, int], panels: int) -> tuple[int, int]:
    """Return the (width, height) in pixels of a picture of `panels` grids of this shape."""
    width, height = _figure_inches(shape, panels)
    return round(width * DPI), round(height * DPI)


def _figure_inches(shape: tuple[int, int], panels: int) -> tuple[float, float]:
    rows, cols = shape
    panels = max(panels, 1)
    width = panels * (cols * CELL_INCHES + 2 * MARGIN_INCHES)
    height = rows * CELL_INCHES + 2 * MARGIN_INCHES + TITLE_INCHES
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


def draw(
    path: str,
    problem: Problem | None,
    fields: list[np.ndarray],
    *,
    steps: np.ndarray | None = None,
    titles: list[str] | None = None,
) -> tuple[int, int]:
    """Draw clues and fields into a PNG or SVG file (atomically); return its size in pixels."""
    plt = _pyplot()
    fig = figure(problem, fields, steps=steps, titles=titles)
    suffix = os.path.splitext(path)[1].lower().lstrip(".") or "png"
    try:
        write_atomically(path, lambda tmp: fig.savefig(tmp, dpi=DPI, format=suffix))
    finally:
        plt.close(fig)
    shape = problem.shape if problem is not None else fields[0].shape
    return picture_size(shape, max(len(fields), 1))


def figure(
    problem: Problem | None,
    fields: list[np.ndarray],
    *,
    steps: np.ndarray | None = None,
    titles: list[str] | None = None,
    decided: list[np.ndarray] | None = None,
    outline_differences: bool = True,
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
    width, height = _figure_inches(shape, len(panels))
    fig = plt.figure(figsize=(width, height), dpi=DPI)
    panel_w = width / len(panels)
    last = steps.max() if steps is not None and steps.size else 0
    cmap = plt.get_cmap("YlGnBu")
    for i, field in enumerate(panels):
        left = (i * panel_w + MARGIN_INCHES) / width
        bottom = MARGIN_INCHES / height
        ax = fig.add_axes((left, bottom, cols * CELL_INCHES / width, rows * CELL_INCHES / height))
        ax.set_xlim(0, cols)
        ax.set_ylim(rows, 0)
        ax.set_aspect("equal")
        ax.axis("off")
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
                ax.add_patch(Rectangle((c, r), 1, 1, facecolor=face, edgecolor="#999999", linewidth=0.6))
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


def draw_probabilities(path: str, problem: Problem, probabilities: np.ndarray, title: str) -> tuple[int, int]:
    """Draw each cell's mine probability as a heat map (white 0 .. dark red 1), clues written in."""
    plt = _pyplot()
    from matplotlib.patches import Rectangle

    rows, cols = problem.shape
    width, height = _figure_inches(problem.shape, 1)
    fig = plt.figure(figsize=(width, height), dpi=DPI)
    ax = fig.add_axes((MARGIN_INCHES / width, MARGIN_INCHES / height, cols * CELL_INCHES / width, rows * CELL_INCHES / height))
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    cmap = plt.get_cmap("Reds")
    for r in range(rows):
        for c in range(cols):
            p = float(probabilities[r, c])
            ax.add_patch(Rectangle((c, r), 1, 1, facecolor=cmap(p), edgecolor="#999999", linewidth=0.6))
            label = str(int(problem.clues[r, c])) if problem.known[r, c] else ""
            if 0 < p < 1:
                label = f"{p:.2f}".lstrip("0") if not label else label
            if label:
                ax.text(c + 0.5, r + 0.55, label, ha="center", va="center", fontsize=8,
                        color="white" if p > 0.6 else "black")
    ax.set_title(title, fontsize=9)
    try:
        write_atomically(path, lambda tmp: fig.savefig(tmp, dpi=DPI, format=os.path.splitext(path)[1].lstrip(".").lower() or "png"))
    finally:
        plt.close(fig)
    return picture_size(problem.shape, 1)
