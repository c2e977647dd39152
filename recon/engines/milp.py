"""MILP: the clues as one sparse equality system over binary cells, solved by scipy's HiGHS.

Model: one binary variable per cell (``Bounds(0, 1)``, ``integrality=1``), ``A @ x == clues`` for
the known clues with A from `recon.model.constraint_matrix`.

- The first solve has a zero objective: any solution s.
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

import sys
import time
import warnings

import numpy as np

from ..model import OPEN, Problem, constraint_matrix, impossible_clue_reason
from ..result import EngineError, Result, Verdict

NAME = "milp"

# scipy.optimize.milp status codes
_OPTIMAL, _LIMIT, _INFEASIBLE = 0, 1, 2
HIGHS_OVERRUN = 0.3
#: ... and its feasibility jump heuristic (HiGHS 1.9 on) does not look at the time limit at all:
#: under a deadline it is off (scipy passes options it does not know to HiGHS as they are).
DEADLINE_OPTIONS = {"mip_heuristic_run_feasibility_jump": False}
#: ... and its rounds of cuts at the root look at it too seldom on a large model: past CHILD_CELLS
#: cells, a solve under a deadline runs HiGHS in a forked process of its own, stopped CHILD_GRACE
#: seconds after the deadline if it has not answered (docs/performance.md, "Time limits"). Only
#: on Linux, and not from a daemonic process (a worker of multiprocessing's Pool or of Dask),
#: which may have no children.
CHILD_CELLS = 10_000
CHILD_GRACE = 0.05


def _highs(deadline: float | None, cells: int, *args, **kwargs):
    """scipy's milp(*args, **kwargs); under a deadline on more than CHILD_CELLS cells, in a
    forked child, and None when the child has not answered by the deadline (it is killed)."""
    import multiprocessing

    from scipy.optimize import milp

    with warnings.catch_warnings():  # (that it passes them on; an older HiGHS without the option skips it)
        warnings.filterwarnings("ignore", message="Unrecognized options detected")
        if (deadline is None or cells <= CHILD_CELLS or not sys.platform.startswith("linux")
                or multiprocessing.current_process().daemon):
            return milp(*args, **kwargs)
        context = multiprocessing.get_context("fork")
        receive, send = context.Pipe(duplex=False)
        child = context.Process(target=_child, args=(send, args, kwargs), daemon=True)
        # (Python 3.12 on warns of forking a process with threads, such as BLAS's: the child only
        # runs HiGHS and sends its answer back)
        warnings.simplefilter("ignore", DeprecationWarning)
        child.start()
    send.close()
    try:
        if not receive.poll(max(deadline - time.perf_counter(), 0) + CHILD_GRACE):
            return None
        ok, answer = receive.recv()
    except EOFError:
        raise EngineError("scipy.optimize.milp's process ended without an answer") from None
    finally:
        child.kill()
        child.join()
        receive.close()
    if not ok:
        raise EngineError(f"scipy.optimize.milp failed in its process: {answer}")
    return answer


def _child(send, args, kwargs) -> None:
    """HiGHS in the forked child (forked inside _highs's warning filters, which it keeps)."""
    from scipy.optimize import milp

    try:
        answer = (True, milp(*args, **kwargs))
    except Exception as err:  # (told to the parent, which raises it as an engine error)
        answer = (False, f"{type(err).__name__}: {err}")
    send.send(answer)
    send.close()


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
    """
    start = time.perf_counter()  # before the imports: in a fresh process they take part of the time limit
    deadline = None if time_limit is None else start + time_limit
    import scipy.sparse as sp
    from scipy.optimize import Bounds, LinearConstraint  # imported here: loading it is slow

    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    n = problem.cells
    stats = {"solves": 0, "cuts": 0}
    reason = impossible_clue_reason(problem)
    if reason:
        return Result(Verdict.NONE, [], True, NAME, time.perf_counter() - start, stats, reason)

    a = constraint_matrix(problem.shape, problem.known).astype(np.float64)
    b = problem.clues[problem.known].astype(np.float64)
    integrality = np.ones(n)
    low, high = np.zeros(n), np.ones(n)
    if problem.fixed is not None:  # a fixed cell: both bounds at its value
        given_cells = problem.fixed.ravel() != OPEN
        low[given_cells] = high[given_cells] = problem.fixed.ravel()[given_cells]
    bounds = Bounds(low, high)
    if problem.mines is not None:  # the total: one row of ones
        a = sp.vstack([a, sp.csr_array(np.ones((1, n)))]).tocsr()
        b = np.append(b, float(problem.mines))
    objective = np.zeros(n)

    solutions: list[np.ndarray] = []
    cut_rows: list[np.ndarray] = []
    cut_lb: list[float] = []
    for field in given[:limit]:
        solutions.append(np.asarray(field, dtype=bool))
        row, lb = no_good_cut(solutions[-1])
        cut_rows.append(row)
        cut_lb.append(lb)
    stats["given"] = len(solutions)
    exhausted = False
    timed_out = False
    while len(solutions) < limit:
        options: dict[str, object] = {"disp": False, "presolve": True, "mip_rel_gap": 0.0}
        if time_limit is not None:
            remaining = time_limit - (time.perf_counter() - start)
            if remaining <= 0:
                timed_out = True
                break
            # HiGHS overruns its own limit by a few tenths of a second (docs/performance.md,
            # "Time limits"): it is given less, so that the engine keeps the caller's
            options["time_limit"] = max(remaining - HIGHS_OVERRUN, remaining / 4)
            options.update(DEADLINE_OPTIONS)
        constraints = [LinearConstraint(a, b, b)] if a.shape[0] else []
        # Solutions known: ask for the one farthest from the first, the others cut off. The
        # optimum is the first itself exactly when no solution outside the known ones exists.
        farthest = len(solutions) >= 1
        goal = objective
        if farthest:
            reference = solutions[0].ravel()
            goal = 2.0 * reference - 1.0  # agreement with the reference, up to a constant
            stats["farthest"] = stats.get("farthest", 0) + 1
        if len(cut_rows) > farthest:
            cuts = sp.csr_array(np.vstack(cut_rows[1:] if farthest else cut_rows))
            constraints.append(LinearConstraint(cuts, np.array(cut_lb[1:] if farthest else cut_lb), np.inf))
        stats["solves"] += 1
        res = _highs(deadline, n, goal, constraints=constraints, integrality=integrality, bounds=bounds, options=options)
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
        x = np.rint(res.x).astype(np.int8)
        if np.abs(res.x - x).max() > 1e-6:
            raise EngineError("scipy.optimize.milp returned a non-integral point")
        field = x.reshape(problem.shape).astype(bool)
        if farthest and np.array_equal(field.ravel(), reference):
            # The best found agrees everywhere. Unique only if that optimum is proved: status
            # optimal with zero gap, and the dual bound above sum(s) - 1 (the objective is integral).
            bound = getattr(res, "mip_dual_bound", None)
            proved = res.status == _OPTIMAL and (bound is None or bound > float(goal @ reference) - 0.5)
            if proved:
                exhausted = True
            else:
                timed_out = True
            break
        solutions.append(field)
        row, lb = no_good_cut(field)
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
