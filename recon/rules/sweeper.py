"""What a Minesweeper player knows, move by move: the trimming rules run on the numbers opened so far.

A `Sweeper` holds a game in progress: the field's numbers (hidden from the rules), the cells
opened, the mines known. Opening a cell shows its number, which is one more equation on its
covered neighbours (`Trimmer` takes it incrementally: an opened cell is empty, so its classic
number is its 3x3 count). `advance()` applies the rules, opens every cell they prove safe (a zero
opens its neighbours that way, as the game does) and marks every cell they prove a mine, until
nothing follows. It never guesses: what is left covered is what the rules cannot decide.

The total number of mines joins once few cells are left covered (`total_cells`): the rules `total`
and `mine-count` and elimination's total row, as endoh1's final rule does at the end of a game;
sooner, the total row would tie every covered cell into one group for elimination. The two rules
alone join sooner, once few mines or few empty cells are left (as on a dense board's end).

The generator (`recon.generation.classic`), the autoplayer and `recon play` all ask this one
player: a board certified no-guess is one this player finishes.

On a large board the single and pairwise rules may open most of it in one `advance()`; a caller
may pass their fixpoint compiled (`cascade`, from `recon.compiled`, a layer above this one), which
takes over once the rules here have opened many cells in one `advance()` (a pass over the whole
board, it would cost more than the few cells most moves open). Their fixpoint does not depend on
the order they run in, so the player opens and marks the same cells either way (tests hold the
two equal).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..model import OPEN, status, window_cells
from .trim import Contradiction, Trimmer

#: The total joins the rules once at most this many cells are left covered.
TOTAL_CELLS = 400
#: A cascade (compiled rules) takes over once the rules here have opened this many cells in one
#: `advance()` (or since the cascade last ran): most moves open fewer, a first click on a large
#: board may open most of it.
CASCADE_CELLS = 2_000

#: The single and pairwise rules' fixpoint on a board, each cell proved safe opened as they go:
#: (numbers, opened, known) -> (opened, known), as `recon.compiled.pairwise.sweep_fixed`.
Cascade = Callable[[np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


def numbers_of(field: np.ndarray) -> np.ndarray:
    """Each cell's classic number: the mines among its 8 neighbours (int8): its 3x3 count less
    itself."""
    f = np.asarray(field, dtype=bool)
    return (status(f).astype(np.int16) - f).astype(np.int8)


class Sweeper:
    """A game as the player sees it; the rules decide what follows from what is open.

    field: the mines (bool, hidden from the rules: only opened cells' numbers are read).
    mines: the total the player is told (None: not told). elimination: run exact elimination
    when the single and pairwise rules stall (True for a full player, as the generator uses).
    cascade: the single and pairwise rules compiled (see the module's notes), which take over once
    the rules here have opened cascade_cells cells in one advance(). opening: a list that takes
    each cell opened (its flat index), in the order opened (without a cascade)."""

    def __init__(self, field: np.ndarray, mines: int | None = None, *, elimination: bool = True,
                 total_cells: int = TOTAL_CELLS, cascade: Cascade | None = None, cascade_cells: int = CASCADE_CELLS,
                 opening: list[int] | None = None):
        self.field = np.asarray(field, dtype=bool)
        self.rows, self.cols = self.field.shape
        self.mines = mines
        self.elimination = elimination
        self.total_cells = total_cells
        self.cascade = cascade
        self.cascade_cells = cascade_cells
        self.opening = opening
        self._flooded = 0  # cells opened by _flood so far (how much the rules here have done)
        self.opened = np.zeros(self.field.shape, dtype=bool)
        self.flagged = np.zeros(self.field.shape, dtype=bool)  # mines the rules proved
        self.exploded = False
        self.rebuild()

    # -- the knowledge -------------------------------------------------------------------------
    def rebuild(self) -> None:
        """Build the rules' state from what is open and flagged now (after the field changed under
        covered cells: the numbers shown are read again)."""
        self._numbers = numbers_of(self.field)
        self.numbers = self._numbers.ravel().tolist()
        cols = self.cols
        flagged = self.flagged.ravel()
        covered = np.flatnonzero(~(self.opened.ravel() | flagged)).tolist()
        self._trimmer = Trimmer.on_cells((self.rows, cols), covered, [], proof=False)
        self._trimmer._names.append("a number")  # label 0, every equation's (read only for the proof)
        value = self._trimmer._value
        for x in np.flatnonzero(flagged):
            value[x] = 1
        self._seen = len(self._trimmer._fixed)
        # only the opened cells that still touch a covered cell say anything new
        near = status(~(self.opened | self.flagged)) > 0
        for x in np.flatnonzero(self.opened & near):
            self._tell(int(x))

    def field_changed(self, cells) -> None:
        """The field changed under these cells (the generator's perturber moved mines): the numbers
        around them are read again. Cells still undecided: each equation on them takes its new
        count (`Trimmer.recount`), where `rebuild` would tell every opened number again and derive
        all that follows once more; a mine the player had found among them: `rebuild`."""
        value = self._trimmer._value
        cells = [int(x) for x in cells]
        if any(value[x] != OPEN for x in cells):
            self.rebuild()
            return
        rows, cols, field, numbers = self.rows, self.cols, self.field, self._numbers
        near = {rc for x in cells for rc in window_cells((rows, cols), *divmod(x, cols))}
        for r, c in near:
            n = int(field[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2].sum()) - int(field[r, c])
            numbers[r, c] = n
            self.numbers[r * cols + c] = n
        self._trimmer.recount(cells, field.ravel())

    def _tell(self, x: int) -> None:
        """Cell x is open: its number becomes an equation on its covered neighbours (a mask over
        its window's box, made here: every opened cell passes through, a million on a large
        board)."""
        trimmer, cols = self._trimmer, self.cols
        value = trimmer._value
        r, c = divmod(x, cols)
        r0, c0 = max(r - 1, 0), max(c - 1, 0)
        c1 = min(c + 2, cols)
        mask = mines = 0
        for i in range(r0, min(r + 2, self.rows)):
            row, shift = i * cols, (i - r0) * 3 - c0
            for j in range(c0, c1):
                v = value[row + j]
                if v == OPEN:
                    mask |= 1 << (shift + j)
                elif v == 1:
                    mines += 1
        if mask:
            trimmer._add(r0, c0, mask, self.numbers[x] - mines, 0)
            trimmer._reduced = None  # elimination starts again with the new equation

    @property
    def covered(self) -> int:
        """Cells neither opened nor known to be mines."""
        return self._trimmer.open

    @property
    def won(self) -> bool:
        """Is every safe cell open?"""
        return not self.exploded and np.count_nonzero(self.opened) == self.field.size - np.count_nonzero(self.field)

    def known(self) -> np.ndarray:
        """Each cell: 0 known safe (opened), 1 known mine, OPEN undecided (int8, the board's shape)."""
        return self._trimmer.value.reshape(self.rows, self.cols)

    # -- moves ---------------------------------------------------------------------------------
    def open(self, r: int, c: int) -> bool:
        """The player opens (r, c), a guess or a known safe cell; False if it was a mine. As in
        the game, a zero opens its neighbours, and theirs, to the numbers around the region."""
        x = r * self.cols + c
        if self.opened.flat[x]:
            return True
        if self.field.flat[x]:
            self.exploded = True
            return False
        self._flood(x)
        return True

    def _flood(self, x: int) -> None:
        """Open the safe cell x; a zero opens its neighbours, and theirs, to the numbers around
        the region. A zero's equation is never made: the flood opens every cell it would fix, and
        made, it would be rewritten once for each neighbour opened."""
        trimmer, opened, rows, cols = self._trimmer, self.opened.ravel(), self.rows, self.cols
        value = trimmer._value
        opening = self.opening
        todo = [x]
        while todo:
            y = todo.pop()
            if opened[y]:
                continue
            opened[y] = True
            self._flooded += 1
            if opening is not None:
                opening.append(y)
            if value[y] == OPEN:
                trimmer._fix(y, 0)
            if self.numbers[y] != 0:
                self._tell(y)
                continue
            # a zero: its whole window is safe, fixed as one mask (one substitution, not nine)
            r, c = divmod(y, cols)
            r0, c0 = max(r - 1, 0), max(c - 1, 0)
            mask = 0
            for i in range(r0, min(r + 2, rows)):
                for j in range(c0, min(c + 2, cols)):
                    z = i * cols + j
                    if not opened[z]:
                        todo.append(z)
                        if value[z] == OPEN:
                            mask |= 1 << ((i - r0) * 3 + j - c0)
            if mask:
                trimmer._fix_mask(r0, c0, mask, 0)

    def resume(self, opened: np.ndarray, flagged: np.ndarray) -> None:
        """Go on from a board: these cells open, these mines known (both bool, the board's
        shape). An opened zero then opens its neighbours, as it would have in play."""
        self.opened[...] = opened
        self.flagged[...] = flagged
        self.rebuild()
        covered_near = status(~(self.opened | self.flagged)) > 0
        for x in np.flatnonzero(self.opened & covered_near).tolist():
            if self.numbers[x] == 0:
                for r, c in window_cells((self.rows, self.cols), *divmod(x, self.cols)):
                    self.open(r, c)

    def mark_mine(self, r: int, c: int) -> None:
        """Record a mine proved some other way (exact probabilities): the rules take it in."""
        x = r * self.cols + c
        if not self.field.flat[x]:
            raise ValueError(f"r{r + 1}c{c + 1} is no mine")
        if self._trimmer._value[x] == OPEN:
            self._trimmer._fix(x, 1)
        self.flagged.flat[x] = True

    def advance(self) -> bool:
        """Apply the rules and act on them (open the safe cells, flag the mines) until nothing
        more follows; did anything change?"""
        changed = False
        trimmer = self._trimmer
        since = self._flooded
        while True:
            try:
                trimmer.rule_basic()
                trimmer.rule_pairwise()
            except Contradiction as err:  # the field is the truth: the rules cannot contradict it
                raise AssertionError(f"the player's rules contradict the field: {err}") from None
            if self._act():
                changed = True
                if self.cascade is not None and self._flooded - since >= self.cascade_cells:
                    self._run_cascade()  # a large part of the board is opening: the rest compiled
                    trimmer, since = self._trimmer, self._flooded
                continue
            if not trimmer.open:
                break
            told = self.mines if self.mines is not None and trimmer.open <= self.total_cells else None
            if told != trimmer.mines:
                trimmer.mines, trimmer._reduced = told, None  # elimination's rows gain the total
            if trimmer.rule_total() or trimmer.rule_count() or (self.elimination and trimmer.rule_elimination()):
                self._act()
                changed = True
                continue
            if told is None and self._few_left(trimmer.open) and self._count_rules(trimmer):
                self._act()
                changed = True
                continue
            break
        return changed

    def _few_left(self, covered: int) -> bool:
        """Few mines, or few empty cells, left among many covered cells: there the total decides
        cells (a dense board's last empty cells) though elimination could not take its row."""
        if self.mines is None:
            return False
        left = self.mines - int(np.count_nonzero(self.flagged))
        return min(left, covered - left) <= self.total_cells

    def _count_rules(self, trimmer: Trimmer) -> bool:
        """The total's own rules (`total`, `mine-count`), without elimination's total row."""
        trimmer.mines = self.mines
        try:
            return trimmer.rule_total() or trimmer.rule_count()
        finally:
            trimmer.mines = None

    def _run_cascade(self) -> None:
        """The single and pairwise rules by the cascade, then the rules' state built again from
        what it opened and marked."""
        before = self._trimmer.open
        try:
            opened, known = self.cascade(self._numbers, self.opened, self.known())
        except ValueError as err:  # as in advance(): the field is the truth
            raise AssertionError(f"the player's rules contradict the field: {err}") from None
        if int((known == OPEN).sum()) < before:
            self.opened[...] = opened
            self.flagged[...] = known == 1
            self.rebuild()

    def _act(self) -> bool:
        """Open the cells the rules proved safe, flag those proved mines, since last time."""
        trimmer = self._trimmer
        fixed = trimmer._fixed
        acted = False
        while self._seen < len(fixed):
            x = fixed[self._seen]
            self._seen += 1
            if trimmer._value[x] == 1:
                self.flagged.flat[x] = True
            elif not self.opened.flat[x]:
                self._flood(x)
            acted = True
        return acted

    def undecided(self) -> np.ndarray:
        """Cells neither opened nor known to be mines (bool, the board's shape): `known() == OPEN`
        once advance() has acted on all the rules fixed, without reading the rules' cells."""
        return ~(self.opened | self.flagged)

    def frontier(self, undecided: np.ndarray | None = None) -> np.ndarray:
        """Covered undecided cells next to an opened cell (bool, the board's shape). undecided:
        `known() == OPEN`, if the caller has it already (reading the cells is a pass over the board)."""
        if undecided is None:
            undecided = self.known() == OPEN
        return undecided & (status(self.opened) > 0)

    def board_cells(self) -> np.ndarray:
        """The board as the player sees it, in recon.io.classic's codes: numbers where opened, -2
        (a flag) where a mine is known, -1 covered."""
        cells = np.full(self.field.shape, -1, dtype=np.int8)
        cells[self.flagged] = -2
        cells[self.opened] = self._numbers[self.opened]
        return cells
