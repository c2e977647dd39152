"""MILP: the clues as one sparse equality system over binary cells, solved by scipy's HiGHS.

Model: one binary variable per cell (``Bounds(0, 1)``, ``integrality=1``), ``A @ x == clues`` for
the known clues with A from `recon.model.constraint_matrix`.

- The first solve asks for any solution s: it minimises the mines, but stops at the first
  solution found (a gap tolerance of 100 %). HiGHS finds one sooner with that objective than with
  none (docs/decisions.md, "MILP's first solve").
- Uniqueness, given one solution s: minimise the agreement with s,
  ``f(x) = sum(x[s == 1]) - sum(x[s == 0]) = sum(s) - hamming(x, s)``. s is the only solution
  exactly when the proved optimum is sum(s); any optimum below it is a second solution, the one
  farthest from s. The gap tolerance is zero, so "optimal" is a proof. This is much faster than
  asking HiGHS to prove a no-good cut infeasible, because the objective gives it a bound to
  prune with.
- Further solutions: each later solution s gets a no-good cut
  ``sum(x[s == 0]) - sum(x[s == 1]) >= 1 - sum(s)`` that excludes exactly s, and the next solve
  again minimises agreement with the first: its optimum is the first solution exactly when there
  is no other, otherwise it is a new one.
"""

from __future__ import annotations

import time
import warnings

import numpy as np

from ..model import OPEN, Problem, constraint_matrix, impossible_clue_reason, is_solution
from ..result import EngineError, Result, Verdict
from . import child, unseen

NAME = "milp"

# scipy.optimize.milp status codes
_OPTIMAL, _LIMIT, _INFEASIBLE = 0, 1, 2
HIGHS_OVERRUN = 0.3
#: ... and its feasibility jump heuristic (HiGHS 1.9 on) does not look at the time limit at all:
#: under a deadline it is off (scipy passes options it does not know to HiGHS as they are).
DEADLINE_OPTIONS = {"mip_heuristic_run_feasibility_jump": False}
#: ... and its rounds of cuts at the root look at it too seldom on a large model: past CHILD_CELLS
#: cells, a solve runs HiGHS in a forked process of its own (`child`), stopped shortly after the
#: deadline if it has not answered (docs/performance.md, "Time limits"). Without a deadline too:
#: HiGHS in process holds off SIGTERM and Ctrl-C until it returns, which on a large model was never.
CHILD_CELLS = 10_000


def _highs(deadline: float | None, cells: int, *args, **kwargs):
    """scipy's milp(*args, **kwargs); on more than CHILD_CELLS cells, in a forked child where one
    can be had, and None when the child has not answered by the deadline."""
    from scipy.optimize import milp

    with warnings.catch_warnings():  # (that it passes them on; an older HiGHS without the option skips it)
        warnings.filterwarnings("ignore", message="Unrecognized options detected")
        if cells <= CHILD_CELLS or not child.can_fork():
            return milp(*args, **kwargs)
        try:  # (the child is forked inside these filters, and keeps them)
            answered, answer = child.run(_milp, (args, kwargs), deadline)
        except child.ChildFailed as err:
            raise EngineError(f"scipy.optimize.milp failed in its process: {err}") from None
    return answer if answered else None


def _milp(args, kwargs):
    """HiGHS, as the child runs it."""
    from scipy.optimize import milp

    return milp(*args, **kwargs)


def _model(problem: Problem, values=None):
    """(A, b, lower bounds, upper bounds): A x = b holds the known clues (and the total, a row of
    ones); a fixed cell, or one whose value `values` gives (0 or 1), has both bounds at it."""
    import scipy.sparse as sp

    n = problem.cells
    a = constraint_matrix(problem.shape, problem.known).astype(np.float64)
    b = problem.clues[problem.known].astype(np.float64)
    low, high = np.zeros(n), np.ones(n)
    if problem.fixed is not None:
        given_cells = problem.fixed.ravel() != OPEN
        low[given_cells] = high[given_cells] = problem.fixed.ravel()[given_cells]
    if values is not None:
        values = np.asarray(values)
        settled = (values == 0) | (values == 1)
        low[settled] = high[settled] = values[settled]
    if problem.mines is not None:
        a = sp.vstack([a, sp.csr_array(np.ones((1, n)))]).tocsr()
        b = np.append(b, float(problem.mines))
    return a, b, low, high


def _options(deadline: float | None, any_solution: bool = False) -> dict[str, object] | None:
    """HiGHS's options for a solve proved to zero gap (any_solution: one that stops at the first
    solution found), within what is left before the deadline (None: nothing is left)."""
    options: dict[str, object] = {"disp": False, "presolve": True, "mip_rel_gap": 1.0 if any_solution else 0.0}
    if deadline is not None:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            return None
        # HiGHS overruns its own limit by a few tenths of a second (docs/performance.md,
        # "Time limits"): it is given less, so that the engine keeps the caller's
        options["time_limit"] = max(remaining - HIGHS_OVERRUN, remaining / 4)
        options.update(DEADLINE_OPTIONS)
    return options


def _proved_optimal(res, goal: np.ndarray, reference: np.ndarray) -> bool:
    """Is the optimum res found, agreeing with the reference, proved: status optimal with zero
    gap, and the dual bound above goal @ reference - 1 (the objective is integral)?"""
    bound = getattr(res, "mip_dual_bound", None)
    return res.status == _OPTIMAL and (bound is None or bound > float(goal @ reference) - 0.5)


def _point(res) -> np.ndarray:
    """HiGHS's point as 0/1 integers; EngineError when it is not integral."""
    x = np.rint(res.x).astype(np.int8)
    if np.abs(res.x - x).max() > 1e-6:
        raise EngineError("scipy.optimize.milp returned a non-integral point")
    return x


def backbone(problem: Problem, cells, deadline: float | None = None, values=None) -> tuple[dict[int, int], set[int], bool]:
    """Which of these cells (flat indices) hold the same value in every solution? sat.backbone's
    answer ({cell: value} proved, {cells} seen to vary, complete), by MILP, for an install
    without python-sat.

    One solution s first. Then, round by round, the solution that agrees least with s on the
    cells asked and not yet seen to vary (the uniqueness solve's objective, on those cells
    alone): where it differs from s, cells vary; an optimum that agrees with s on all of them,
    proved, proves each the same in every solution. Few rounds, as each finds the most cells
    that differ at once. values: cell values already known (a deduction), set as bounds. At the
    deadline: nothing proved, the cells seen to vary, not complete. No solution: nothing proved,
    complete."""
    from scipy.optimize import Bounds, LinearConstraint

    if impossible_clue_reason(problem):
        return {}, set(), True
    n = problem.cells
    a, b, low, high = _model(problem, values)
    kwargs = {"constraints": [LinearConstraint(a, b, b)] if a.shape[0] else [], "integrality": np.ones(n),
              "bounds": Bounds(low, high)}
    candidates = {int(x) for x in cells}
    varying: set[int] = set()
    first = None
    while True:
        options = _options(deadline, any_solution=first is None)
        if options is None:
            return {}, varying, False
        goal = np.ones(n) if first is None else np.zeros(n)  # first, any solution (the module docstring)
        if first is not None:
            asked = np.array(sorted(candidates), dtype=np.intp)
            goal[asked] = 2.0 * first[asked] - 1.0  # agreement with s on them, up to a constant
        res = _highs(deadline, n, goal, options=options, **kwargs)
        if res is None or (res.status == _LIMIT and res.x is None):
            return {}, varying, False
        if res.status == _INFEASIBLE and first is None:
            return {}, set(), True
        if res.status not in (_OPTIMAL, _LIMIT):
            raise EngineError(f"scipy.optimize.milp failed: status {res.status}: {res.message}")
        x = _point(res)
        if not is_solution(x.reshape(problem.shape), problem):
            raise EngineError("scipy.optimize.milp returned a point that breaks a clue")
        if first is None:
            first = x
            if not candidates:
                return {}, varying, True
            continue
        differ = {int(y) for y in np.flatnonzero(x != first)}
        varying |= differ
        if res.status == _LIMIT:
            return {}, varying, False
        if not differ & candidates:
            if not _proved_optimal(res, goal, first):
                return {}, varying, False
            return {x: int(first[x]) for x in candidates}, varying, True
        candidates -= differ
        if not candidates:
            return {}, varying, True


def no_good_cut(solution: np.ndarray) -> tuple[np.ndarray, float]:
    """Return (row, lower bound) of the linear cut that excludes exactly this 0/1 solution."""
    s = solution.ravel().astype(np.int8)
    return (1 - 2 * s).astype(np.float64), float(1 - int(s.sum()))


def solve(
    problem: Problem,
    *,
    limit: int = 2,
    time_limit: float | None = None,
    given: list[np.ndarray] | tuple[np.ndarray, ...] = (),
) -> Result:
    """Find up to `limit` solutions with MILP and no-good cuts and say whether there are others.

    given: solutions already found and checked by someone else (a cross-check passes the lead
    engine's). They are cut off from the start and listed first, so MILP only has to prove there
    is no other solution, one solve instead of one per solution; a solution the lead missed is
    still found.

    Without a total, the cells no clue sees and nothing fixes are fixed empty in the model, and
    each field found is listed with every value of theirs (`unseen`).
    """
    return unseen.solve(_solve, problem, limit=limit, time_limit=time_limit, given=given)


def _solve(problem: Problem, *, limit: int, time_limit: float | None, given) -> Result:
    """solve, on a problem whose cells no clue sees are fixed (or under a total)."""
    start = time.perf_counter()  # before the imports: in a fresh process they take part of the time limit
    deadline = None if time_limit is None else start + time_limit
    import scipy.sparse as sp
    from scipy.optimize import Bounds, LinearConstraint  # imported here: loading it is slow

    n = problem.cells
    stats = {"solves": 0, "cuts": 0}
    reason = impossible_clue_reason(problem)
    if reason:
        return Result(Verdict.NONE, [], True, NAME, time.perf_counter() - start, stats, reason)

    a, b, low, high = _model(problem)
    kept = unseen.model_cells(problem)
    base = np.zeros(n, dtype=np.int8)  # each field before the model's cells are read in
    if kept is not None:  # the cells no clue sees are fixed: columns of their own, left out
        a, low, high = a[:, kept], low[kept], high[kept]
        base = (problem.fixed.ravel() == 1).astype(np.int8)
    m = len(low)  # the model's variables
    if m == 0:  # every cell fixed, no clue: that field is the only one (HiGHS takes no empty model)
        stats["given"] = min(len(given), 1)
        field = base.reshape(problem.shape).astype(bool)
        return Result(Verdict.UNIQUE, [field], True, NAME, time.perf_counter() - start, stats)
    integrality = np.ones(m)
    bounds = Bounds(low, high)
    objective = np.ones(m)  # the first solve's: any solution (see the module docstring)

    def variables(field: np.ndarray) -> np.ndarray:
        return field.ravel() if kept is None else field.ravel()[kept]

    solutions: list[np.ndarray] = []
    cut_rows: list[np.ndarray] = []
    cut_lb: list[float] = []
    for field in given[:limit]:
        solutions.append(np.asarray(field, dtype=bool))
        row, lb = no_good_cut(variables(solutions[-1]))
        cut_rows.append(row)
        cut_lb.append(lb)
    stats["given"] = len(solutions)
    exhausted = False
    timed_out = False
    while len(solutions) < limit:
        options = _options(deadline, any_solution=not solutions)
        if options is None:
            timed_out = True
            break
        constraints = [LinearConstraint(a, b, b)] if a.shape[0] else []
        # Solutions known: ask for the one farthest from the first, the others cut off. The
        # optimum is the first itself exactly when no solution outside the known ones exists.
        farthest = len(solutions) >= 1
        goal = objective
        if farthest:
            reference = variables(solutions[0])
            goal = 2.0 * reference - 1.0  # agreement with the reference, up to a constant
            stats["farthest"] = stats.get("farthest", 0) + 1
        if len(cut_rows) > farthest:
            cuts = sp.csr_array(np.vstack(cut_rows[1:] if farthest else cut_rows))
            constraints.append(LinearConstraint(cuts, np.array(cut_lb[1:] if farthest else cut_lb), np.inf))
        stats["solves"] += 1
        res = _highs(deadline, m, goal, constraints=constraints, integrality=integrality, bounds=bounds, options=options)
        if res is None:  # stopped at the deadline
            timed_out = True
            break
        if res.status == _INFEASIBLE:
            if farthest:  # the reference itself satisfies the constraints: HiGHS is wrong
                raise EngineError("scipy.optimize.milp called the clues infeasible after finding a solution")
            exhausted = True
            break
        if res.status == _LIMIT:
            if res.x is None:
                timed_out = True
                break
        elif res.status != _OPTIMAL:
            raise EngineError(f"scipy.optimize.milp failed: status {res.status}: {res.message}")
        point = _point(res)
        if farthest and np.array_equal(point, reference):
            # The best found agrees everywhere: unique only if that optimum is proved.
            if _proved_optimal(res, goal, reference):
                exhausted = True
            else:
                timed_out = True
            break
        field = base.copy()
        field[slice(None) if kept is None else kept] = point
        solutions.append(field.reshape(problem.shape).astype(bool))
        row, lb = no_good_cut(point)
        cut_rows.append(row)
        cut_lb.append(lb)
        stats["cuts"] += 1
        if res.status == _LIMIT:
            timed_out = True
            break
    seconds = time.perf_counter() - start
    verdict = Verdict.of_search(len(solutions), exhausted)
    reason = None
    if verdict is Verdict.NONE:
        reason = "the MILP solver proved the clues infeasible"
    elif verdict is Verdict.UNDECIDED and timed_out:
        reason = f"time limit of {time_limit:g} s reached"
    return Result(verdict, solutions, exhausted, NAME, seconds, stats, reason)
