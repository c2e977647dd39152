"""What every part of generation shares: the options it is run with, where it is, and its errors.

Behaviour is chosen here and passed down, never by module globals: a `Job` holds one
generation's `Options` (which backends, the tuning constants, a progress callback, a time limit)
and where it is (which field, order of removal and pass), and every removal strategy takes it.
The backends change only the speed: compiled or Python, with SAT or without, the same puzzles
for the same seed (tests compare them).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from .. import compiled
from ..engines import milp, sat
from ..result import Grade, ReconError, TimeUp
from ..rules.trim import ELIMINATION_MAX_CELLS

#: How elimination-grade generation's first pass starts (`Options.first_part`): "advanced",
#: advanced generation's removals first (each keeps the puzzle trimmed), then the clues left with
#: SAT and trimming; "local", every clue the check near it settles first, then the others;
#: None, one pass that tries each clue in turn. The puzzles differ; docs/decisions.md says why
#: "advanced" is the default.
FIRST_PARTS = ("advanced", "local", None)


class GenerationFailed(ReconError):
    """No puzzle of the asked grade was found within the tries allowed."""


class GenerationTimeout(GenerationFailed, TimeUp):
    """The time limit ran out before a puzzle was found."""


@dataclass(frozen=True)
class Options:
    """How to generate. The defaults are the fastest measured (docs/performance.md). Only the
    options that order the clues tried change the puzzle made: order_tile, first_part,
    pairwise_near (advanced's first part takes the clues its check settles first) and, with
    first_part "local", the last of local_radii.

    compiled: run the checks with numba's kernels (`recon.compiled`); None: when numba is
    installed. sat: decide removals with an incremental SAT solver first; None: when python-sat
    is installed. certifier: the complete engine that proves a non-basic puzzle unique at the
    end ("sat" or "milp"); None: sat when installed.
    """

    compiled: bool | None = None
    #: with compiled=None, a grid of fewer cells runs in Python unless numba's cache already
    #: holds the kernels: a first compile takes longer than Python takes there
    #: (docs/performance.md, "First run"); compiled=True compiles whatever the size
    compile_min_cells: int = 1000
    #: ... and below these many cells (advanced, elimination) in Python even then: loading the
    #: cached kernels costs more than Python takes there (docs/performance.md)
    cached_min_cells: tuple[int, int] = (170, 80)
    sat: bool | None = None
    certifier: str | None = None
    #: below this many cells, the basic loop and a single trimming check run in Python unless this
    #: job has loaded the kernels already: loading them costs more than they save there
    kernel_min_cells: int = 1000
    first_part: str | None = "advanced"
    #: advanced, elimination and search try their clues tile by tile, tiles of this many cells
    #: square (`make.removal_order`; 1: plain random order), so that checks in a row ask about one
    #: place; basic keeps the plain order: its 64-lane loop is slower with neighbours in a batch
    order_tile: int = 4
    #: the radii the check near a clue is run at, in turn; the answer is monotone in the radius,
    #: so the last one decides and the others only save time
    local_radii: tuple[int, ...] = (4, 10)
    #: elimination's whole-grid trims start warm from the pairwise fixpoint without the next
    #: warm_block clues to try (0: cold), itself found warm from one without warm_outer
    warm_block: int = 16
    warm_outer: int = 64
    #: advanced generation's local checks: near the clue at this radius first ...
    pairwise_near: int = 4
    #: ... the proof that a clue must stay with the cells farther than these radii given ...
    pairwise_given: tuple[int, int] = (6, 14)
    #: ... and near the clue at this radius, between the two
    pairwise_far: int = 10
    #: ask small SAT solvers over tiles of the grid first for a second solution near the clue
    #: (`recon.engines.sat.LocalWitness`); None: on grids of sat.LOCAL_MIN_CELLS cells or more
    sat_tiles: bool | None = None
    #: remember why a trim failed on a group too large for elimination (`compiled.LargeGroup`),
    #: so that later passes keep the clue without trimming again while the proof holds
    large_group_proofs: bool = True
    #: elimination runs on groups of open cells up to this size (trimming's own limit)
    elimination_max_cells: int = ELIMINATION_MAX_CELLS
    #: told one line of text at most every progress_seconds (see `Job.tick`)
    progress: Callable[[str], None] | None = None
    #: told once, before numba's kernels load (a first run compiles them, which takes a while);
    #: the command line says it on stderr even off a terminal, where progress is silent
    announce: Callable[[str], None] | None = None
    progress_seconds: float = 1.0
    #: seconds for the whole generation; None: no limit
    time_limit: float | None = None

    def __post_init__(self) -> None:
        if self.first_part not in FIRST_PARTS:
            raise ValueError(f"first_part must be one of {FIRST_PARTS}, got {self.first_part!r}")
        if self.certifier not in (None, sat.NAME, milp.NAME):
            raise ValueError(f"certifier must be {sat.NAME!r} or {milp.NAME!r}, got {self.certifier!r}")
        if self.compiled and not compiled.AVAILABLE:
            raise ValueError("compiled=True needs numba: pip install 'recon[fast]'")
        if self.sat and not sat.AVAILABLE:
            raise ValueError(f"sat=True needs python-sat: {sat.INSTALL_HINT}")
        if not (isinstance(self.order_tile, int) and self.order_tile >= 1):
            raise ValueError(f"order_tile must be a whole number of at least 1, got {self.order_tile!r}")
        if self.time_limit is not None and not self.time_limit > 0:
            raise ValueError(f"time_limit must be positive, got {self.time_limit!r}")

    @property
    def use_kernels(self) -> bool:
        """Run the compiled kernels at all?"""
        return compiled.AVAILABLE if self.compiled is None else self.compiled

    def for_grid(self, cells: int, grade: Grade | None = None) -> "Options":
        """These options for a grid of this many cells and a puzzle of this grade: `compiled`
        decided (compile_min_cells, cached_min_cells)."""
        if self.compiled is not None or not compiled.AVAILABLE:
            return self
        if cells >= self.compile_min_cells:
            return replace(self, compiled=True)
        floor = {Grade.ADVANCED: self.cached_min_cells[0], Grade.ELIMINATION: self.cached_min_cells[1]}.get(grade, 0)
        return replace(self, compiled=cells >= floor and compiled.cached())

    @property
    def use_sat(self) -> bool:
        """Ask an incremental SAT solver first?"""
        return sat.AVAILABLE if self.sat is None else self.sat

    @property
    def certifier_name(self) -> str:
        """The engine that certifies a non-basic puzzle."""
        return self.certifier or (sat.NAME if sat.AVAILABLE else milp.NAME)


class Job:
    """One generation: its options, its deadline, and where it is, for the progress line
    ("field 2, order 3, pass 2 (elimination): 120 of 211 clues tried, 1572 of 3600 left, 12 s")."""

    def __init__(self, options: Options | None = None):
        self.options = options or Options()
        self.start = self.last = time.perf_counter()
        self.deadline = None if self.options.time_limit is None else self.start + self.options.time_limit
        self.field = self.order = self.passes = 1
        self.part = ""
        self.kernels_loaded = False

    def at(self, **where) -> None:
        """Record which field, order, pass or part of a pass generation is on."""
        for name, value in where.items():
            setattr(self, name, value)

    def tick(self, tried: int, total: int, left: int, cells: int) -> None:
        """Say where generation is (at most every progress_seconds); stop at the deadline."""
        now = self.check_time()
        if self.options.progress is None or now - self.last < self.options.progress_seconds:
            return
        self.last = now
        where = "".join(f"{name} {n}, " for name, n in (("field", self.field), ("order", self.order)) if n > 1)
        where += f"pass {self.passes}{self.part}"
        self.options.progress(f"{where}: {tried} of {total} clues tried, {left} of {cells} left, {now - self.start:.0f} s")

    def check_time(self) -> float:
        """Stop at the deadline; else the time now."""
        now = time.perf_counter()
        if self.deadline is not None and now > self.deadline:
            raise GenerationTimeout(f"no puzzle within the time limit of {self.options.time_limit:g} s")
        return now

    def load_kernels(self) -> None:
        """Load the compiled kernels now, telling the progress callback (a first run compiles them)."""
        compiled.load(announce=self.options.announce or self.options.progress)
        self.kernels_loaded = True

    def compiled_pays(self, cells: int) -> bool:
        """Run a check of this many cells compiled? When the kernels are in use and the grid is
        large enough to pay for loading them, or this job has loaded them already."""
        return self.options.use_kernels and (cells >= self.options.kernel_min_cells or self.kernels_loaded)
