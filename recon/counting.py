"""Exact solution counts and per-cell mine probabilities.

A full status is counted by the algebra engine (exactly, however large the number). A partial
status is first deduced as far as the rules go (the hybrid engine's single-clue rules and
trimming: every solution agrees there); with python-sat, each cell still open is then asked of a
SAT solver the other way round (`sat.backbone`): unsatisfiable proves it the same in every
solution, and a solution found shows which cells vary. Without python-sat, MILP answers the same
question (`milp.backbone`: the solution farthest from a first one on the cells still asked, round
by round). The cells left open split into
independent groups (cells joined by an open clue that sees both, as classic Minesweeper analysers
split the frontier), each group is enumerated on its own (by SAT up to SAT_FIRST solutions, fast
however hard the search, then by the backtracking search, fast per solution) or counted without
listing (super cells along the frontier, or split along a tree decomposition), and the count is
the product of the group counts (times 2 for each cell no clue sees). So two far-apart ambiguous
corners cost the sum of their enumerations, not the product. Small grids are also counted by
plain enumeration with the backtracking engine (with a total, the cells no clue sees placed by a
binomial) and must agree; where that does not finish, a
count of a few fields is checked by MILP instead.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np

from .engines import algebra, backtrack, hybrid, milp, sat
from .model import OPEN, Groups, Problem, make_problem, unseen_open_cells
from .result import EngineDisagreement, EngineError, Result, TimeUp, Verdict
from .solver import verify
from .stats import comb as large_comb

ZERO, ONE, HALF = Fraction(0), Fraction(1), Fraction(1, 2)

#: Full grids up to this many cells are also counted by enumeration, as a cross-check.
CROSSCHECK_CELLS = 400
CROSSCHECK_COUNT = 2_000
#: The check of a partial status's count gives up after this long, or sooner when the time limit
#: of the count runs out: plain enumeration first, for at most PLAIN_SECONDS of it; then, for a
#: count of at most MILP_CHECK_COUNT, MILP (plain enumeration did not finish on search-grade
#: puzzles from 12x12 on, where MILP proves the one solution at once: docs/decisions.md).
CROSSCHECK_SECONDS = 5.0
PLAIN_SECONDS = 0.3
MILP_CHECK_COUNT = 10
#: How often a count says where it is, at most (seconds).
PROGRESS_SECONDS = 1.0
#: With python-sat, a group of open cells is first enumerated by SAT up to this many solutions.
SAT_FIRST = 1000
#: Super cells are enumerated up to this many assignments per group, then counted by dynamic
#: programming along the frontier (docs/performance.md, "Classic boards").
QUICK_ASSIGNMENTS = 2_000
#: The super cells' search gives up (as past its limit) once it has visited more than SUPER_NODES
#: nodes and SUPER_NODES_PER_LEAF per assignment found: on a search-grade puzzle without one
#: clue its weak bounds walked millions of dead ends, where SAT lists the few solutions at once
#: (docs/decisions.md).
SUPER_NODES = 100_000
SUPER_NODES_PER_LEAF = 100
#: Probabilities are listed (an exact fraction per cell) up to this many cells.
PROBABILITY_CELLS = 1_000_000
#: A group is split before it is counted along the frontier when its elimination order's width
#: (in super cells) is more than this below the frontier's (in equations): within it, as on a
#: strip two wide (2 against 4), the frontier's lighter steps win (docs/decisions.md, 11-29).
SPLIT_MARGIN = 2
#: ... and whatever its elimination order when its frontier is wider than this: no group that
#: wide has been counted along it (docs/decisions.md, 11-29).
FRONTIER_WIDTH = 22
#: The first pass (super cells, then dynamic programming along the frontier) gets at most this
#: share of the time limit, or QUICK_SECONDS without one, counted once the deduction has run
#: (on a million cells the deduction took most of it), before SAT's backbone and the
#: enumerators take over: on a search-grade puzzle with one large group of open cells it took
#: the whole time limit, leaving none for the backbone, which proves its one solution at once
#: (docs/decisions.md, "Measurements behind the constants").
QUICK_SHARE = 0.25
QUICK_SECONDS = 10.0
#: The first pass also gives up past this many states a step along the frontier: on a search
#: puzzle one clue short it built 100,000 for seconds, where SAT's backbone then settled it at once.
QUICK_STATES = 10_000
#: With python-sat, a partial status is first asked whether it has exactly one solution, for at
#: most this long (and at most the first pass's budget).
PROBE_SECONDS = 5.0
#: `recon count` stops enumerating after this many seconds unless told otherwise (--time-limit):
#: a group of hundreds of open cells can have more solutions than any enumeration reaches, and
#: without a limit the command gave no answer for hours (an ambiguous 30x30 with 665 cells in one
#: group); past it the count is a lower bound, said so.
COUNT_SECONDS = 60.0


@dataclass
class Count:
    """How many fields match a status, and how often each cell is a mine among them."""

    count: int
    exact: bool
    method: str
    seconds: float
    probabilities: list[list[Fraction]] | None = None
    reason: str | None = None
    #: True at the cells proved to differ between solutions (a bool grid), every other cell being
    #: proved the same in all of them; None when that is not known (an exact count with
    #: probabilities says it too)
    varies: np.ndarray | None = None
    #: the independent groups of open cells counted apart (a partial status), None for a full one
    groups: int | None = None

    @property
    def varying(self) -> list[tuple[int, int]] | None:
        """The cells (row, col) that `varies` marks, row by row (made when asked: on a large board
        they are millions)."""
        if self.varies is None:
            return None
        r, c = np.nonzero(self.varies)
        return list(zip(r.tolist(), c.tolist()))

    @property
    def array(self) -> np.ndarray | None:
        """The probabilities as a float array (the exact fractions are `probabilities`)."""
        if self.probabilities is None:
            return None
        return np.array([[float(p) for p in row] for row in self.probabilities])


def _enumerated(problem: Problem, limit: int, time_limit: float | None) -> tuple[int, bool]:
    """Count by plain enumeration with the backtracking engine: (count, exhausted), exhausted
    False past `limit` fields or the time limit. With a total, which backtracking does not take,
    the cells no clue sees are fixed empty and each field of the rest stands for the ways to
    place the mines still missing among them: C(free cells, total - its mines)."""
    plain, free = problem, 0
    if problem.mines is not None:
        fixed = np.full(problem.shape, OPEN, dtype=np.int8) if problem.fixed is None else problem.fixed.copy()
        unseen = unseen_open_cells(problem)
        fixed[unseen] = 0
        free = int(unseen.sum())
        plain = make_problem(problem.clues, problem.known, fixed)
    count = fields = 0
    try:
        for field in backtrack.iter_solutions(plain, time_limit=time_limit):
            fields += 1
            if fields > limit:
                return count, False
            if problem.mines is None:
                count += 1
            elif 0 <= (missing := problem.mines - int(field.sum())) <= free:
                count += large_comb(free, missing)
    except TimeUp:
        return count, False
    return count, True


def count_solutions(
    problem: Problem, *, probabilities: bool = False, limit: int = 100_000, time_limit: float | None = None,
    super_cells: bool = True, crosscheck: bool = True, progress=None, compiled_trim: bool | None = None,
) -> Count:
    """Count the solutions of a status exactly (or give a lower bound past the limit).
    super_cells: count a partial status by super cells first (see _by_super_cells); False goes
    straight to SAT's backbone and the enumerators, what happens when super cells do not suffice.
    crosscheck: count a small partial status again by plain enumeration (a player asking move
    after move, whose counts the tests hold to brute force, leaves it out). progress: called with
    a line saying where the count is, at most once a PROGRESS_SECONDS (the command line shows it
    on a terminal). compiled_trim: deduce with the compiled trimmer (`hybrid.deduce`; the same
    cells); None: where it pays (`hybrid.compiled_pays`)."""
    start = time.perf_counter()
    rows, cols = problem.shape
    if problem.is_full and not problem.has_conditions:
        sols = algebra.Solutions(problem, None if time_limit is None else start + time_limit)
        listed = probabilities and problem.cells <= PROBABILITY_CELLS
        probs = sols.probabilities() if listed else None
        reason = sols.reason
        if not sols.count_exact:
            reason = ("the time limit ran out" if sols.timed_out else
                      f"more than {algebra.COUNT_BUDGET:,} solutions in one group of coupled lines") + ": a lower bound"
        if probabilities and not listed:
            reason = (reason + "; " if reason else "") + f"no probabilities past {PROBABILITY_CELLS:,} cells (one exact fraction each)"
        result = Count(sols.count, sols.count_exact, "algebra", 0.0, probs, reason)
        if sols.count_exact and problem.cells <= CROSSCHECK_CELLS and sols.count <= CROSSCHECK_COUNT:
            n, exhausted = _enumerated(problem, CROSSCHECK_COUNT, None)
            if not exhausted or n != sols.count:
                raise EngineDisagreement(
                    f"exact counts differ: algebra {sols.count}, backtrack {n}",
                    {
                        "algebra": Result(Verdict.MULTIPLE if sols.count > 1 else Verdict.UNIQUE, [], True, "algebra", solution_count=sols.count),
                        "backtrack": Result(Verdict.MULTIPLE if n > 1 else Verdict.UNIQUE, [], exhausted, "backtrack", solution_count=n),
                    },
                )
            result.method = "algebra, checked by enumeration"
        if probabilities and probs is None and sols.count and listed:
            result.reason = (result.reason + "; " if result.reason else "") + "probabilities need an exact, enumerable count"
        result.seconds = time.perf_counter() - start
        return result
    deadline = None if time_limit is None else start + time_limit
    quick = QUICK_SECONDS if time_limit is None else QUICK_SHARE * time_limit  # the first pass's budget
    if sat.AVAILABLE and sat.takes_total(problem) and not (problem.mines is None and unseen_open_cells(problem).any()):
        # (a cell no clue sees, nothing fixes and no total bounds takes either value: not one solution)
        unique = _unique_by_sat(problem, probabilities, min(PROBE_SECONDS, quick))
        if unique is not None:
            if crosscheck and problem.cells <= CROSSCHECK_CELLS:
                unique.method += _checked_again(problem, 1, deadline, by=sat.NAME)
            unique.seconds = time.perf_counter() - start
            return unique
    # deduction from the clues and fixed cells, once for every pass (the total comes in when the
    # groups are combined)
    plain = problem if problem.mines is None else make_problem(problem.clues, problem.known, problem.fixed)
    compiled_trim = hybrid.compiled_pays(plain) if compiled_trim is None else compiled_trim
    search, _, _ = hybrid.deduce(plain, deadline, compiled_trim=compiled_trim)
    # first by super cells alone, which counts most boards at once; SAT's backbone and the
    # enumerators that follow are for the groups that do not yield to it
    n, exhausted, tally, method, varies, groups = _NOT_COUNTED
    quick_end = time.perf_counter() + quick  # from here: the deduction is not the first pass's
    if deadline is not None:
        quick_end = min(quick_end, deadline)
    if super_cells:
        n, exhausted, tally, method, varies, groups = _by_groups(problem, search, limit, quick_end, quick=True,
                                                                  progress=progress, states=min(limit, QUICK_STATES))
    if not exhausted and (search is None or not _past(deadline)):
        n, exhausted, tally, method, varies, groups = _by_groups(problem, search, limit, deadline, super_cells=super_cells,
                                                                  progress=progress)
    if not exhausted and super_cells and time.perf_counter() >= quick_end and not _past(deadline):
        # the first pass was cut short for the others, which did not finish either: it gets the rest
        counted = _by_groups(problem, search, limit, deadline, quick=True, progress=progress)
        if counted[1]:
            n, exhausted, tally, method, varies, groups = counted
    if crosscheck and problem.cells <= CROSSCHECK_CELLS and exhausted and n <= CROSSCHECK_COUNT:
        method += _checked_again(problem, n, deadline, by=hybrid.NAME)
    probs = None
    reason = None
    if exhausted and n and probabilities and problem.cells <= PROBABILITY_CELLS:
        probs = tally.tolist()
    if not exhausted and not n:  # a bound of 0 says nothing: the status may have no solution
        reason = "no solution was found in time, so there is no lower bound"
    elif not exhausted:
        reason = f"{_cut_short(limit, deadline)}: at least {n} (a lower bound)"
    elif n and probabilities and probs is None:
        reason = f"no probabilities past {PROBABILITY_CELLS:,} cells (one exact fraction each)"
    return Count(n, exhausted, method, time.perf_counter() - start, probs, reason, varies, groups)


def _unique_by_sat(problem: Problem, probabilities: bool, seconds: float) -> Count | None:
    """The count when SAT proves, within `seconds`, that the status has exactly one solution
    (a solve, then a blocked one that is unsatisfiable), else None. A puzzle made to be unique
    is counted at once, where enumeration could spend the whole time limit on a group of a
    thousand open cells."""
    result = sat.solve(problem, limit=2, time_limit=seconds)
    if result.verdict is not Verdict.UNIQUE:
        return None
    verify(result, problem)  # never expected to fail: SAT's model breaks a clue
    field = result.solutions[0]
    probs = [[ONE if v else ZERO for v in row] for row in field] if probabilities else None
    return Count(1, True, "SAT (one solution, and a second solve proved there is no other)", 0.0, probs, None,
                 np.zeros(problem.shape, dtype=bool), 0)


def _checked_again(problem: Problem, n: int, deadline: float | None, by: str) -> str:
    """Count again, independently of the engine that counted n (`by`), within CROSSCHECK_SECONDS
    and what is left before the deadline (never on top of it): by plain enumeration, then, if
    that did not finish and n is at most MILP_CHECK_COUNT, by MILP. Raise EngineDisagreement when
    a count that finished differs; return what to add to the method."""
    end = time.perf_counter() + CROSSCHECK_SECONDS
    if deadline is not None:
        end = min(end, deadline)
    left = end - time.perf_counter()
    if left <= 0:
        return " (no time left to check it by plain enumeration)"
    plain, plain_exhausted = _enumerated(problem, CROSSCHECK_COUNT, min(PLAIN_SECONDS, left))
    if plain_exhausted:
        _same_count(n, by, backtrack.NAME, plain)
        return ", checked by plain enumeration"
    left = end - time.perf_counter()
    if n > MILP_CHECK_COUNT or left <= 0:
        return " (plain enumeration did not finish)"
    checked = milp.solve(problem, limit=n + 1, time_limit=left)
    if not checked.count_exact:
        return " (neither plain enumeration nor MILP finished)"
    verify(checked, problem)
    _same_count(n, by, milp.NAME, checked.solution_count)
    return ", checked by MILP"


def _same_count(n: int, by: str, engine: str, other: int) -> None:
    """Raise EngineDisagreement unless the checking engine's exact count equals n (by `by`)."""
    if other != n:
        raise EngineDisagreement(
            f"exact counts differ: {by} {n}, {engine} {other}",
            {
                by: Result(Verdict.MULTIPLE if n > 1 else Verdict.UNIQUE, [], True, by, solution_count=n),
                engine: Result(Verdict.MULTIPLE if other > 1 else Verdict.UNIQUE, [], True, engine, solution_count=other),
            },
        )


#: What _by_groups gives when it counted nothing: no count, not exact, no probabilities, no
#: method, the varying cells not known, no groups.
_NOT_COUNTED = (0, False, None, "", None, 0)


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() >= deadline


def _cut_short(limit: int, deadline: float | None) -> str:
    """Which limit stopped a count: the time, or a group's solutions past `limit`."""
    if _past(deadline):
        return "the time limit ran out"
    return f"a group had more than {limit:,} solutions"


def _by_groups(problem: Problem, search, limit: int, deadline: float | None, quick: bool = False,
               super_cells: bool = True, progress=None, states: int | None = None):
    """Count a partial status group by group: (count, exact, per-cell Fractions, how it was
    counted, the cells proved to vary or None, the number of groups). search: the state deduction
    left from the clues and fixed cells (hybrid.deduce; read, not changed), None on a
    contradiction. quick: by super cells and along the frontier alone, keeping at most `states`
    states a step there (default `limit`). A group reached past the deadline is not counted:
    setting up its enumerators alone could take a large board's time again."""
    rows, cols = problem.shape
    if search is None:
        return 0, True, None, "deduction (a contradiction)", [], 0
    if quick and _past(deadline):
        return _NOT_COUNTED
    value = list(search.value)
    undecided = backtrack._UNDECIDED
    extra: dict[int, int] = {}
    seen_varying: set[int] = set()  # cells the backbone saw take both values
    known_all = False  # did the backbone settle every open cell (certain or varying)?
    prover = sat if sat.AVAILABLE else milp  # (MILP where python-sat is not installed)
    if not quick and sat.takes_total(problem):
        # cells the same in every solution, proved by SAT (or MILP), are fixed too: the groups
        # left are the cells that really vary, often far fewer (an ambiguous search-grade 50x50:
        # 2085 open after deduction, 450 vary)
        # cells no open clue sees are free (a factor of 2 each): nothing to ask about them
        # (with a total, they are not: the total can fix them all)
        seen = {x for k, cells in enumerate(search.clue_cells) if search.free[k] for x in cells}
        asked = [x for x in range(problem.cells) if value[x] == undecided and (x in seen or problem.mines is not None)]
        if prover is sat:
            extra, seen_varying, known_all = sat.backbone(problem, asked, deadline)
        else:
            extra, seen_varying, known_all = milp.backbone(problem, asked, deadline, values=value)  # (undecided: -1)
        # every cell asked is then proved certain or seen to vary, unless there is no solution
        # (nothing proved either way: then nothing varies, and the count says 0)
        known_all = known_all and bool(extra or seen_varying or not asked)
        for x, v in extra.items():
            value[x] = v
    # the passes over every cell in numpy: on a board of millions of cells, Python loops over
    # every cell were seconds each
    values = np.array(value, dtype=np.int8)
    is_open = values == undecided
    open_cells = np.flatnonzero(is_open)
    proved = "deduction" + (f", then {prover.NAME.upper()} proved {len(extra)} more cell(s) the same in every solution"
                            if extra else "")
    if not quick and _past(deadline):
        # no group would be counted now, and on a large board making them takes a while: the
        # bound is what the backbone saw (two solutions that differ, or one), without them
        return (2 if seen_varying else int(bool(extra)), False, None, proved + ", then the time limit ran out",
                is_open.reshape(rows, cols) if known_all else None, 0)
    # open clue equations, and groups of open cells joined by them
    equations = []
    joined = Groups()

    seen_by_clue = set()
    for k, cells in enumerate(search.clue_cells):
        if search.free[k]:
            open_here = [x for x in cells if value[x] == undecided]
            need = search.need[k] - sum(extra.get(x, 0) for x in cells)
            if not open_here:
                if need:
                    raise EngineError(f"the cells SAT proved certain break clue {k} of the deduced state")
                continue
            equations.append((open_here, need))
            seen_by_clue.update(open_here)
            joined.join(open_here)
    members = joined.members(seen_by_clue)
    group_eqs: dict[int, list] = {g: [] for g in members}
    for eq in equations:
        group_eqs[joined.find(eq[0][0])].append(eq)
    for g in group_eqs:
        group_eqs[g] = _along(group_eqs[g], cols)
    # one object per value: a grid of millions of cells shares three (flat, row-major)
    prob = np.array([ZERO, ONE, HALF], dtype=object)[np.where(is_open, 2, values)]
    total, exact = 1 << (len(open_cells) - len(seen_by_clue)), True  # cells no open clue sees: free
    hows: set[str] = set()
    by_mines = []  # with a total: per group, {mines in the group: [solutions, {cell: mines}]}
    has_total = problem.mines is not None  # else the counts need not be split by mines
    said = time.perf_counter()
    for done, (g, cells) in enumerate(members.items()):
        if progress is not None and time.perf_counter() - said >= PROGRESS_SECONDS:
            said = time.perf_counter()
            progress(f"counting group {done + 1} of {len(members)} ({len(cells)} cells){' by super cells' if quick else ''}")
        if _past(deadline):
            if quick:
                return _NOT_COUNTED
            count, tally, complete, per_k = 0, None, False, None
        elif quick:
            count, tally, complete, per_k = _by_super_cells(sorted(cells), group_eqs[g], min(limit, QUICK_ASSIGNMENTS), deadline)
            how = "super cells"
            if not complete:  # a long frontier: dynamic programming along it
                count, tally, complete, per_k = _by_frontier(sorted(cells), group_eqs[g], states or limit, deadline, has_total)
                how = "super cells along the frontier"
            if not complete:
                return _NOT_COUNTED
            hows.add(how)
        else:
            count, tally, complete, how, per_k = _enumerate_group(sorted(cells), group_eqs[g], limit, deadline, super_cells,
                                                                  has_total)
            hows.add(how)
        by_mines.append((cells, per_k))
        if not complete and seen_varying:
            # the backbone found solutions (so every group has one), and two that differ in this group
            # if one of its cells was seen to vary: a better lower bound than those listed so far
            count = max(count, 2 if seen_varying.intersection(cells) else 1)
        total *= count
        exact &= complete
        if count and complete:
            for x in cells:
                prob[x] = Fraction(tally[x], count)
    free = len(open_cells) - len(seen_by_clue)
    is_free = is_open.copy()
    is_free[list(seen_by_clue)] = False
    if problem.mines is not None:
        left = problem.mines - int((values == 1).sum())
        if exact:
            try:
                total = _with_total(by_mines, np.flatnonzero(is_free), left, prob, deadline)
            except TimeUp:  # its big binomials ran past the deadline
                exact = False
        if not exact:
            total = _lower_bound_with_total(total, left, free)
    method = proved + f", then {len(members)} independent group(s) enumerated" + (f" by {' and '.join(sorted(hows))}" if hows else "")
    method += f", {free} cell(s) no clue sees free" if free else ""
    varies = None
    if quick and exact:  # exact probabilities say which cells vary
        # the cells no clue sees share one probability (HALF, or the total's): it is read once
        varies = np.zeros(problem.cells, dtype=bool)
        if free:
            varies[is_free] = 0 < prob[np.argmax(is_free)] < 1
        for x in seen_by_clue:
            varies[x] = 0 < prob[x] < 1
    elif known_all:  # each open cell was seen to vary
        varies = np.zeros(problem.cells, dtype=bool)
        varies[open_cells] = True
    if varies is not None:
        varies = varies.reshape(rows, cols)
    return total, exact, prob.reshape(rows, cols) if exact else None, method, varies, len(members)


def _convolve(a: list[int], b: list[int], top: int | None = None, deadline: float | None = None) -> list[int]:
    """The product of two polynomials (coefficient lists), up to degree top (None: all of it);
    TimeUp past the deadline (the coefficients of a large board's free cells have hundreds of
    thousands of bits)."""
    top = len(a) + len(b) if top is None else top
    out = [0] * max(min(len(a) + len(b) - 1, top + 1), 0)
    for i, x in enumerate(a if len(a) <= top + 1 else a[: top + 1]):
        if deadline is not None and time.perf_counter() > deadline:
            raise TimeUp
        if x:
            for j, y in enumerate(b if len(b) <= top + 1 - i else b[: top + 1 - i]):
                if y:
                    out[i + j] += x * y
    return out


def _with_total(by_mines, free_cells: np.ndarray, left: int, prob: np.ndarray, deadline: float | None = None) -> int:
    """The exact count with a total: each group's solutions by their number of mines, convolved,
    the cells no clue sees filling the rest (a binomial coefficient); fills prob (a flat object
    array) with the exact fraction per open cell. left: the mines not yet placed by deduction.

    With j mines in the groups the free cells take the other left - j, so only the binomials
    C(f, left - j) for j up to the groups' most mines are needed: one computed from its prime
    factors and the rest stepped from it. (Every C(f, t) up to `left` once took tens of
    gigabytes on a board of a million cells: each has hundreds of thousands of bits.) Each
    group's share is read from the groups before it (prefix products, cut at degree `left`) and
    the ways of the groups after it and the free cells, by the mines before them."""
    if left < 0:
        return 0
    polys = []
    for _, per_k in by_mines:
        poly = [0] * (max(per_k, default=0) + 1)
        for k, (n, _) in per_k.items():
            poly[k] = n
        polys.append(poly)
    f = len(free_cells)
    prefix = [[1]]
    for poly in polys:
        prefix.append(_convolve(prefix[-1], poly, left, deadline))
    everything = prefix[-1]
    top = len(everything)  # the groups hold fewer than `top` mines
    # fill[j] = C(f, left - j): the ways of the free cells when the groups hold j mines
    fill = [0] * top
    first = max(0, left - f)
    if deadline is not None and time.perf_counter() > deadline:
        raise TimeUp  # (the first binomial alone is slow on the largest boards)
    if first < top:
        fill[first] = large_comb(f, left - first)
        for j in range(first + 1, min(top, left + 1)):
            fill[j] = fill[j - 1] * (left - j + 1) // (f - left + j)
    # after[g][u]: the ways of the groups from g on and the free cells when the groups before g hold u mines
    after = [fill]
    for poly in reversed(polys):
        if deadline is not None and time.perf_counter() > deadline:
            raise TimeUp
        rest, here = after[-1], [0] * top
        for k, n in enumerate(poly[:top]):
            if n:
                for u, y in enumerate(rest[k:]):
                    if y:
                        here[u] += n * y
        after.append(here)
    after.reverse()
    total = after[0][0]
    if total == 0:
        return 0
    for g, (cells, per_k) in enumerate(by_mines):
        before, rest = prefix[g], after[g + 1]
        # ways[k]: the completions of a group solution with k mines by the other groups and the free cells
        ways = {k: sum(n * rest[i + k] for i, n in enumerate(before[: top - k]) if n) for k in per_k}
        for x in cells:
            num = sum(tally[x] * ways[k] for k, (_, tally) in per_k.items())
            prob[x] = Fraction(num, total)
    if len(free_cells):
        # the fields with a mine at one free cell: C(f - 1, t - 1) = C(f, t) t / f, t = left - j
        num = sum(n * (b * (left - j) // f) for j, (n, b) in enumerate(zip(everything, fill)) if b)
        prob[free_cells] = Fraction(num, total)
    return total


def _lower_bound_with_total(product: int, left: int, free: int) -> int:
    """Without every group listed no exact count with a total is known: 1 if some solution was
    seen (the product counts listed solutions without the total), else 0."""
    return 1 if product and 0 <= left else 0


def _enumerate_group(cells: list[int], equations, limit: int, deadline: float | None, super_cells: bool = True,
                     by_mines: bool = True):
    """Count the 0/1 solutions of equations (cells, mines) over cells: (count, mines per cell,
    complete, how, the same split by mines). First by super cells (below), at most
    QUICK_ASSIGNMENTS assignments of them; past that, with python-sat, SAT lists up to SAT_FIRST
    solutions (a solve each: fast when they are few, however hard the search); past those, dynamic
    programming along the frontier (at most `limit` states a step), then splitting (a wide blob
    whose frontier is too wide; first when its elimination order is narrower than its frontier
    by more than SPLIT_MARGIN, or its frontier wider than FRONTIER_WIDTH); last the backtracking
    search (fast per solution where propagation is strong, exponential where it is weak), a lower
    bound where it cannot finish. A long group with more than `limit` solutions is counted only
    along the frontier: listing its assignments first took the whole time limit. Without
    `by_mines` (no total to meet) the frontier and the split keep their counts whole, not by
    mines: the last part of the answer may then hold every solution under 0 mines."""
    if super_cells:
        found, tally, complete, per_k = _by_super_cells(cells, equations, min(limit, QUICK_ASSIGNMENTS), deadline)
        if complete:
            return found, tally, True, "super cells", per_k
    by_sat = None
    if sat.AVAILABLE:
        first = min(SAT_FIRST, limit)
        found, tally, complete, per_k = _enumerate_with(sat.iter_equation_solutions, cells, equations, first, deadline)
        if complete:
            return found, tally, True, "SAT", per_k
        by_sat = found, tally, False, "SAT", per_k  # a lower bound, whatever the search after lists
    if super_cells and (deadline is None or time.perf_counter() < deadline):
        # each gets half the time left: where both fail, the search after them lists a lower bound
        ways = [("super cells along the frontier", lambda until: _by_frontier(cells, equations, limit, until, by_mines)),
                ("splitting", lambda until: _by_splitting(cells, equations, until, by_mines))]
        # each is exponential in its own width: the narrower first, the frontier on a tie unless
        # it is too wide to count at all
        supers = _super_cells(cells, equations)
        frontier = _frontier_width(supers)
        if frontier > FRONTIER_WIDTH or _split_width(supers, equations, frontier - SPLIT_MARGIN - 1, deadline) is not None:
            ways.reverse()
        for how, way in ways:
            if deadline is not None and time.perf_counter() >= deadline:
                break  # (setting either up costs time of its own)
            halfway = None if deadline is None else (time.perf_counter() + deadline) / 2
            found, tally, complete, per_k = way(halfway)
            if complete:
                return found, tally, True, how, per_k
    if by_sat is not None and by_sat[0] >= limit:  # SAT listed `limit` already: no search lists more
        return by_sat
    found, tally, complete, per_k = _enumerate_with(backtrack.iter_equation_solutions, cells, equations, limit, deadline)
    if by_sat is not None and not complete and found < by_sat[0]:
        return by_sat
    return found, tally, complete, "backtracking", per_k


def _frontier_width(supers) -> int:
    """The most equations `_by_frontier` holds open at once along a group (its super cells, from
    `_super_cells`): its states grow exponentially with it."""
    last = {e: i for i, (key, _) in enumerate(supers) for e in key}
    active: set[int] = set()
    width = 0
    for i, (key, _) in enumerate(supers):
        active = {e for e in active.union(key) if last[e] > i}
        width = max(width, len(active))
    return width


def _by_super_cells(cells: list[int], equations, limit: int, deadline: float | None):
    """Count the solutions by super cells, as minesweepr does: cells in exactly the same equations
    are one variable, the number of mines among them (0..size), and an assignment of those
    numbers stands for the product of binomial coefficients C(size, mines) solutions. A depth-first
    search over the super cells, each bounded by its equations' need and room; at most `limit`
    assignments, and at most SUPER_NODES nodes and SUPER_NODES_PER_LEAF per assignment (where the
    bounds prune too little, the other enumerators are faster). Returns (count, mines per cell,
    complete, {mines: [count, {cell: mines}]})."""
    supers = _super_cells(cells, equations)
    n = len(supers)
    size = [len(group) for _, group in supers]
    touches = [list(key) for key, _ in supers]
    need = [int(k) for _, k in equations]
    room = [0] * len(equations)
    for i in range(n):
        for e in touches[i]:
            room[e] += size[i]
    mines, top = [0] * n, [0] * n
    tally = [0] * n
    per_k: dict[int, list] = {}
    leaves = 0

    def apply(i: int, v: int, sign: int) -> None:
        for e in touches[i]:
            need[e] -= sign * v
            room[e] -= sign * size[i]

    i = 0
    nodes = 0
    while True:
        nodes += 1
        if nodes & 1023 == 0 and (nodes > SUPER_NODES + SUPER_NODES_PER_LEAF * leaves
                                  or (deadline is not None and time.perf_counter() > deadline)):
            return _super_result(supers, tally, per_k, False)
        if i == n:
            leaves += 1
            if leaves > limit:
                return _super_result(supers, tally, per_k, False)
            weight = 1
            for j in range(n):
                weight *= comb(size[j], mines[j])
            total = sum(mines)
            entry = per_k.setdefault(total, [0, [0] * n])
            entry[0] += weight
            for j in range(n):
                if mines[j]:
                    share = weight * mines[j] // size[j]  # each cell's mines over the weight's solutions
                    tally[j] += share
                    entry[1][j] += share
            i -= 1
        else:
            low, high = 0, size[i]
            for e in touches[i]:
                low = max(low, need[e] - (room[e] - size[i]))
                high = min(high, need[e])
            if low <= high:
                mines[i], top[i] = low, high
                apply(i, low, 1)
                i += 1
                continue
            i -= 1
        while i >= 0:  # the next value at depth i, or back up
            apply(i, mines[i], -1)
            if mines[i] < top[i]:
                mines[i] += 1
                apply(i, mines[i], 1)
                i += 1
                break
            i -= 1
        if i < 0:
            return _super_result(supers, tally, per_k, True)


def _super_cells(cells: list[int], equations):
    """The super cells of a group: (key: the equations holding them, cells), sorted by key, so by
    their first equation: neighbours come together."""
    eqs_of: dict[int, list[int]] = {}
    for e, (eq_cells, _) in enumerate(equations):
        for x in eq_cells:
            eqs_of.setdefault(x, []).append(e)
    members: dict[tuple, list[int]] = {}
    for x in cells:
        members.setdefault(tuple(eqs_of.get(x, ())), []).append(x)
    return sorted(members.items())


def _along(equations, cols: int):
    """A group's equations in order along its longer side (by each one's first cell), so that the
    super cells, sorted by their first equation, sweep the group in that direction: the state of
    `_by_frontier` then holds the equations across the short side. In clue order, a 3x3000
    strip's frontier ran along its rows and held thousands of open equations."""
    rows_of = [x // cols for eq, _ in equations for x in eq]
    cols_of = [x % cols for eq, _ in equations for x in eq]
    if max(cols_of) - min(cols_of) > max(rows_of) - min(rows_of):
        return sorted(equations, key=lambda eq: min((x % cols, x // cols) for x in eq[0]))
    return sorted(equations, key=lambda eq: min(eq[0]))


def _add_shifted(into: list[int], poly: list[int], shift: int, factor: int) -> list[int]:
    """into + factor * x^shift * poly (polynomials in the number of mines, as coefficient lists)."""
    if len(into) < len(poly) + shift:
        into = into + [0] * (len(poly) + shift - len(into))
    for m, n in enumerate(poly):
        if n:
            into[m + shift] += factor * n
    return into


def _by_frontier(cells: list[int], equations, limit: int, deadline: float | None, by_mines: bool = True):
    """Count the solutions by super cells in order, as dynamic programming: the state after the
    first i super cells is the mines given so far to each equation still open (one that has cells
    on both sides of i), with a polynomial in the mines placed; forward and backward passes give
    every super cell's share. Polynomial where the group is a long thin frontier, the classic
    board's shape, where enumerating assignments is exponential. Past `limit` states at one step,
    gives up (complete False). Returns what _by_super_cells returns. Without `by_mines` the
    polynomials are numbers (every solution put under 0 mines), as in _by_splitting."""
    shift = 1 if by_mines else 0
    supers = _super_cells(cells, equations)
    n = len(supers)
    size = [len(group) for _, group in supers]
    touches = [key for key, _ in supers]
    need = [int(k) for _, k in equations]
    last = {}
    room_after: list[dict[int, int]] = [dict() for _ in range(n)]  # room left in e after super i
    left = [0] * len(equations)
    for i in range(n):
        for e in touches[i]:
            left[e] += size[i]
            last[e] = i
    for i in range(n):
        for e in touches[i]:
            left[e] -= size[i]
            room_after[i][e] = left[e]
    # active[i]: the open equations before super i, in a fixed order; active[i + 1] is made as the
    # forward pass reaches super i (on a wide group making them all first ran past the deadline)
    active: list[tuple[int, ...]] = [()]

    def step(i: int, state: tuple, k: int):
        """The state after giving super i k mines, from `state` over active[i]; None if it breaks."""
        sums = dict(zip(active[i], state))
        for e in touches[i]:
            s = sums.get(e, 0) + k
            if s > need[e] or need[e] - s > room_after[i][e]:
                return None
            sums[e] = s
        return tuple(sums.get(e, 0) for e in active[i + 1])

    def late(count: int) -> bool:  # (a state's polynomials can be long: the clock is read often)
        return deadline is not None and count & 15 == 0 and time.perf_counter() > deadline

    forward = [{(): [1]}]
    work = 0
    for i in range(n):
        if deadline is not None and time.perf_counter() > deadline:
            return 0, {}, False, {}
        before = set(active[i])  # each has its last super at i or later
        active.append(tuple(e for e in active[i] + tuple(e for e in touches[i] if e not in before) if last[e] > i))
        nxt: dict[tuple, list[int]] = {}
        for state, poly in forward[i].items():
            work += 1
            if late(work):
                return 0, {}, False, {}
            for k in range(size[i] + 1):
                after = step(i, state, k)
                if after is not None:
                    nxt[after] = _add_shifted(nxt.get(after, []), poly, k * shift, comb(size[i], k))
        if len(nxt) > limit:
            return 0, {}, False, {}
        forward.append(nxt)
    backward: list[dict] = [dict() for _ in range(n)] + [{(): [1]}]
    for i in range(n - 1, -1, -1):
        for state in forward[i]:
            work += 1
            if late(work):
                return 0, {}, False, {}
            poly: list[int] = []
            for k in range(size[i] + 1):
                after = step(i, state, k)
                if after is not None and after in backward[i + 1]:
                    poly = _add_shifted(poly, backward[i + 1][after], k * shift, comb(size[i], k))
            if poly:
                backward[i][state] = poly
    total = forward[n].get((), [])
    per_k: dict[int, list] = {m: [count, [0] * n] for m, count in enumerate(total) if count}
    tally = [0] * n
    for i in range(n):
        for state, poly in forward[i].items():
            work += 1
            if late(work):
                return 0, {}, False, {}
            for k in range(1, size[i] + 1):
                after = step(i, state, k)
                if after is None or after not in backward[i + 1]:
                    continue
                # each cell of super i is a mine in C(size-1, k-1) of the C(size, k) ways
                joint = _add_shifted([], poly, k * shift, comb(size[i] - 1, k - 1))
                for m, n_before in enumerate(joint):
                    if not n_before:
                        continue
                    for j, n_after in enumerate(backward[i + 1][after]):
                        if n_after:
                            share = n_before * n_after
                            tally[i] += share
                            per_k[m + j][1][i] += share
    return _super_result(supers, tally, per_k, True)


def _on_supers(supers, equations) -> list[tuple[tuple[int, ...], int]]:
    """The equations over the super cells (their indices in `supers`), each (members, mines)."""
    of_cell = {x: j for j, (_, group) in enumerate(supers) for x in group}
    return [(tuple(sorted({of_cell[x] for x in eq_cells})), int(need)) for eq_cells, need in equations]


def _split_width(supers, equations, widest: int | None = None, deadline: float | None = None) -> int | None:
    """The width of the elimination order `_by_splitting` follows on a group (its super cells and
    equations): the splits it makes at once grow exponentially with it. None when it is past
    `widest` (or when finding out runs past the deadline)."""
    found = _elimination_order(len(supers), [members for members, _ in _on_supers(supers, equations)], widest, deadline)
    return None if found is None else found[1]


def _elimination_order(n: int, cliques, widest: int | None = None, deadline: float | None = None
                       ) -> tuple[list[int], int] | None:
    """An order to eliminate the vertices 0..n-1 of the graph in which each clique's vertices are
    all joined, by least fill (eliminating a vertex joins its neighbours: the one needing the
    fewest new edges first, then the one with the fewest neighbours, then the lowest), and its
    width (the most neighbours a vertex has when it goes). The usual heuristic for a tree
    decomposition of small width: on a chordal graph it adds no edge. None once the width passes
    `widest` (each step costs the square of the width or more) or past the deadline."""
    around: list[set[int]] = [set() for _ in range(n)]
    for clique in cliques:
        for a in clique:
            around[a].update(clique)
    for a in range(n):
        around[a].discard(a)

    def cost(v: int) -> tuple[int, int]:
        near = list(around[v])
        fill = sum(1 for i, a in enumerate(near) for b in near[i + 1 :] if b not in around[a])
        return fill, len(near)

    current = []
    for v in range(n):
        if deadline is not None and v & 255 == 0 and time.perf_counter() > deadline:
            return None
        current.append(cost(v))
    heap = [(*key, v) for v, key in enumerate(current)]
    heapq.heapify(heap)
    order: list[int] = []
    done = [False] * n
    width = 0
    while heap:
        *key, v = heapq.heappop(heap)
        if done[v] or tuple(key) != current[v]:
            continue  # eliminated, or its cost changed since this entry
        done[v] = True
        order.append(v)
        near = around[v]
        width = max(width, len(near))
        if widest is not None and width > widest:
            return None
        if deadline is not None and len(order) & 31 == 0 and time.perf_counter() > deadline:
            return None
        for a in near:
            around[a].discard(v)
            around[a].update(b for b in near if b != a)
        # new edges among the neighbours change the fill of the neighbours and of theirs
        for a in set(near).union(*(around[a] for a in near)):
            if not done[a] and (now := cost(a)) != current[a]:
                current[a] = now
                heapq.heappush(heap, (*now, a))
    return order, width


class _GiveUp(Exception):
    """The split count ran past its deadline or its depth."""


#: The split count gives up on a group past this depth of nested splits (Python's stack).
SPLIT_DEPTH = 400


def _by_splitting(cells: list[int], equations, deadline: float | None, by_mines: bool = True):
    """Count the solutions by splitting, as model counters do: give a super cell each of its
    values, settle what the equations then force, and count the parts that fall apart on their
    own, each part counted once for every split that leaves it the same (a cache keyed by its
    equations and what they still need). The super cell split first is the one a least-fill
    elimination order (`_elimination_order`) takes last: the splits follow a tree decomposition
    of the group, so a wide blob falls apart along its narrow places, where the frontier holds
    every equation across the blob at once. Returns what _by_super_cells returns; complete False
    past the deadline. Without `by_mines` the counts are numbers, not polynomials in the mines
    (every solution is put under 0 mines): a status with no total needs no more."""
    supers = _super_cells(cells, equations)
    size = [len(group) for _, group in supers]
    equations_of = _on_supers(supers, equations)
    # the super cell eliminated last is split first: the splits follow a tree decomposition
    found = _elimination_order(len(supers), [members for members, _ in equations_of], deadline=deadline)
    if found is None:  # past the deadline already
        return _super_result(supers, [0] * len(supers), {}, False)
    rank = {j: i for i, j in enumerate(found[0])}
    cache: dict[tuple, tuple] = {}
    nodes = 0

    def touching_of(eqs) -> dict[int, list[int]]:
        """Each super cell's equations, by their positions in `eqs`."""
        touching: dict[int, list[int]] = {}
        for e, (members, _) in enumerate(eqs):
            for j in members:
                touching.setdefault(j, []).append(e)
        return touching

    def settle(eqs, fixed: dict[int, int], touching: dict[int, list[int]], todo: list[int]):
        """The equations left once `fixed` is given and what it forces is added to it; None when
        one breaks. Only the equations `todo` and those of the cells forced are looked at: the
        others were settled before."""
        changed: dict[int, tuple | None] = {}  # equation -> what is left of it, None once met
        while todo:
            e = todo.pop()
            if e in changed and changed[e] is None:
                continue
            members, need = eqs[e]
            rest = []
            for j in members:
                v = fixed.get(j)
                if v is None:
                    rest.append(j)
                else:
                    need -= v
            room = sum(size[j] for j in rest)
            if need < 0 or need > room:
                return None
            if rest and 0 < need < room:
                changed[e] = (tuple(rest), need)
                continue
            changed[e] = None
            for j in rest:
                fixed[j] = 0 if need == 0 else size[j]
                todo.extend(touching[j])
        return [changed.get(e, eq) for e, eq in enumerate(eqs) if changed.get(e, eq) is not None]

    def parts(eqs) -> list[list]:
        """The equations in groups that share no super cell."""
        touching = touching_of(eqs)
        seen = [False] * len(eqs)
        found = []
        for first in range(len(eqs)):
            if seen[first]:
                continue
            seen[first] = True
            todo, part = [first], []
            while todo:
                e = todo.pop()
                part.append(eqs[e])
                for j in eqs[e][0]:
                    for f in touching[j]:
                        if not seen[f]:
                            seen[f] = True
                            todo.append(f)
            found.append(part)
        return found

    def count(eqs, depth: int):
        """(the solutions of one part by mines, {super cell: its mines over them, by mines})."""
        nonlocal nodes
        key = tuple(sorted(eqs))
        known = cache.get(key)
        if known is not None:
            return known
        nodes += 1
        if depth > SPLIT_DEPTH or (deadline is not None and nodes & 15 == 0 and time.perf_counter() > deadline):
            raise _GiveUp
        touching = touching_of(eqs)
        pick = max(touching, key=rank.__getitem__)
        total: list[int] = []
        tally: dict[int, list[int]] = {j: [] for j in touching}
        for m in range(size[pick] + 1):
            fixed = {pick: m}
            left = settle(eqs, fixed, touching, list(touching[pick]))
            if left is None:
                continue
            whole = join(fixed, [count(part, depth + 1) for part in parts(left)], tally)
            total = _add_shifted(total, whole, 0, 1)
        cache[key] = total, tally
        return total, tally

    def join(fixed: dict[int, int], counted: list[tuple], tally: dict[int, list[int]]) -> list[int]:
        """The solutions of the parts `counted` together, with the super cells `fixed` holds, by
        mines; each super cell's mines over them, by mines, are added to `tally`."""
        weight, shift = 1, 0
        for j, v in fixed.items():
            weight *= comb(size[j], v)
            shift += v if by_mines else 0
        def times(a: list[int], b: list[int]) -> list[int]:  # most products here are by [1]
            return b if a == [1] else a if b == [1] else _convolve(a, b)

        polys = [[0] * shift + [weight]] + [poly for poly, _ in counted]
        # products of every poly but one, from both ends: each part's tallies times the rest
        before, after = [[1]], [[1]]
        for poly in polys:
            before.append(times(before[-1], poly))
        for poly in reversed(polys):
            after.append(times(after[-1], poly))
        after.reverse()
        whole = before[-1]
        for j, v in fixed.items():
            if v:
                tally[j] = _add_shifted(tally.get(j, []), whole, 0, v)
        for k, (_, part_tally) in enumerate(counted, start=1):
            rest = times(before[k], after[k + 1])
            for j, t in part_tally.items():
                tally[j] = _add_shifted(tally.get(j, []), times(t, rest), 0, 1)
        return whole

    fixed: dict[int, int] = {}
    try:
        left = settle(equations_of, fixed, touching_of(equations_of), list(range(len(equations_of))))
        if left is None:
            return _super_result(supers, [0] * len(supers), {}, True)
        counted = [count(part, 0) for part in parts(left)]
    except _GiveUp:
        return _super_result(supers, [0] * len(supers), {}, False)
    for j, (key, group) in enumerate(supers):
        if not key:  # cells in no equation: any number of mines
            ways = [comb(size[j], m) for m in range(size[j] + 1)]
            mines_over = [m * n for m, n in enumerate(ways)]
            if not by_mines:
                ways, mines_over = [sum(ways)], [sum(mines_over)]
            counted.append((ways, {j: mines_over}))
    # the cells the group's own equations force (none after deduction) with every part
    mines: dict[int, list[int]] = {}
    total = join(fixed, counted, mines)
    per_k: dict[int, list] = {m: [n, [0] * len(supers)] for m, n in enumerate(total) if n}
    tally = [0] * len(supers)
    for j, poly in mines.items():
        for m, n in enumerate(poly):
            if n:
                per_k[m][1][j] += n // size[j]  # each cell of super j has its share
                tally[j] += n // size[j]
    return _super_result(supers, tally, per_k, True)


def _super_result(supers, tally, per_k, complete):
    """_by_super_cells's answer per cell (each cell of a super cell has its share)."""
    cell_tally = {x: tally[j] for j, (_, group) in enumerate(supers) for x in group}
    split = {k: [n, {x: t[j] for j, (_, group) in enumerate(supers) for x in group}] for k, (n, t) in per_k.items()}
    return sum(n for n, _ in per_k.values()), cell_tally, complete, split


def _enumerate_with(solutions, cells: list[int], equations, limit: int, deadline: float | None):
    """Count the solutions one enumerator yields, checking each: (count, mines per cell, complete,
    the same split by the number of mines: {mines: [solutions, {cell: mines}]})."""
    tally = dict.fromkeys(cells, 0)
    per_k: dict[int, list] = {}
    found = 0
    try:
        for value in solutions(cells, equations, deadline=deadline):
            if any(sum(value[x] for x in eq_cells) != need for eq_cells, need in equations):
                raise EngineError(f"{solutions.__module__} gave a group solution that breaks its equations")
            found += 1
            mines = [x for x in cells if value[x]]
            entry = per_k.setdefault(len(mines), [0, dict.fromkeys(cells, 0)])
            entry[0] += 1
            for x in mines:
                tally[x] += 1
                entry[1][x] += 1
            if found > limit:
                return limit, tally, False, per_k
    except TimeUp:
        return found, tally, False, per_k
    return found, tally, True, per_k


#: `recon solve` counts an ambiguous status's solutions exactly, with probabilities, within this
#: many seconds (fewer when its --time-limit leaves fewer); past them it says "at least".
SOLVE_COUNT_SECONDS = 1.0


def count_ambiguous(problem: Problem, result: Result, time_limit: float = SOLVE_COUNT_SECONDS, limit: int = 100_000,
                    super_cells: bool = True) -> Count:
    """Count the solutions of a status that `solve` found several of, with per-cell probabilities,
    and check the count against what solve found: an exact count below the solutions solve found
    and verified, or different from a count solve proved exact, is a bug (EngineDisagreement)."""
    if result.verdict is not Verdict.MULTIPLE:
        raise ValueError(f"count_ambiguous counts a status with several solutions, not one with verdict {result.verdict}")
    start = time.perf_counter()
    counted = count_solutions(problem, probabilities=True, limit=limit, time_limit=time_limit, super_cells=super_cells)
    # each says the true count is at least its count, and at most that when exact: they must meet
    uppers = [n for n, exact in ((counted.count, counted.exact), (result.solution_count, result.count_exact)) if exact]
    if uppers and max(counted.count, result.solution_count) > min(uppers):
        raise EngineDisagreement(
            f"exact counts differ: {counted.method} {'' if counted.exact else 'at least '}{counted.count}, "
            f"{result.engine} {'' if result.count_exact else 'at least '}{result.solution_count}",
            {
                "count": Result(Verdict.MULTIPLE if counted.count > 1 else Verdict.UNIQUE, [], counted.exact, "count", solution_count=counted.count),
                result.engine: result,
            },
        )
    if not counted.exact and counted.count < result.solution_count:
        counted.count = result.solution_count  # solve found (and checked) that many: a better lower bound
        why = _cut_short(limit, None if time_limit is None else start + time_limit)
        counted.reason = f"{why}; the {result.solution_count} solve found are a lower bound"
    return counted
