"""Run the engines, verify every solution they return, and cross-check their answers.

``solve`` is the one entry point. With ``engine="auto"`` it runs the engine measured fastest for
the input (see bench/) and, up to CROSSCHECK_CELLS cells, others as cross-checks:

- a full status: exact algebra, checked by backtracking, MILP and trimming;
- a puzzle (partial status): hybrid (trimming, which grades it, then a search from the trimmed
  state), checked by SAT (MILP without python-sat). When hybrid leaves it undecided, the checker
  decides, and the cells trimming fixed are checked against every solution it finds.

``engine="all"`` runs every engine. Any two answers that contradict each other (including a cell
that trimming fixed to a value some solution does not have) raise EngineDisagreement: never pick
one silently.
"""

from __future__ import annotations

import time

import numpy as np

from .engines import ENGINES, FULL_ONLY, TAKES, algebra, available, backtrack, conditions, hybrid, milp, sat, takes, trim
from .model import Problem, is_solution, make_problem, violated_clues, cell_name
from .result import EngineDisagreement, EngineError, Result, Verdict

#: Inputs up to this many cells get a second engine as a cross-check under engine="auto".
CROSSCHECK_CELLS = 10_000
#: On a full status trimming joins the cross-check up to this many cells: there it costs about
#: what algebra and backtracking cost together; on larger grids many times more (docs/decisions.md,
#: "Measurements behind the constants").
TRIM_CHECK_CELLS = 100
#: Under engine="auto", the cross-check engine gets at least this many seconds ...
CROSSCHECK_MIN_SECONDS = 2.0
#: ... or this many times what the first engine took, whichever is more.
CROSSCHECK_FACTOR = 10.0
#: Under engine="auto" without python-sat, hybrid's search (after its deductions, which are
#: polynomial) gets at most this many seconds plus LEAD_PER_CELL per cell: on some search-grade
#: puzzles it is exponential where MILP is not. Past it, MILP
#: decides, with the whole time limit.
LEAD_SEARCH_SECONDS = 0.05
LEAD_PER_CELL = 2e-5
#: ... and searches only when trimming leaves at most this many cells open: on minimal
#: search-grade puzzles trimming leaves most cells open, and hybrid's search budget was lost
#: time. With python-sat, hybrid does not search when trimming stalls: SAT decides at once.
LEAD_SEARCH_CELLS = 100
#: Seconds an engine takes to set up before it can look at its deadline (its index of windows,
#: its model), per cell and per clue: about twice what was measured on dense and on sparse
#: statuses up to 16 million cells (docs/decisions.md, "Measurements behind the constants").
#: Under a time limit, an engine whose share is shorter than that is not started: it would
#: overrun the limit by its setup, and it could not decide anything anyway.
SETUP_SECONDS = {
    algebra.NAME: (0.0, 0.0), backtrack.NAME: (1e-7, 1e-5), hybrid.NAME: (4e-7, 1.2e-5),
    milp.NAME: (1.2e-6, 2e-6), sat.NAME: (4e-8, 6e-6), trim.NAME: (2e-7, 3.5e-5),
}


def setup_seconds(name: str, problem: Problem) -> float:
    """About how long engine `name` takes on `problem` before it looks at its deadline."""
    per_cell, per_clue = SETUP_SECONDS.get(name, (0.0, 0.0))
    return per_cell * problem.cells + per_clue * int(np.count_nonzero(problem.known))


def checker() -> str:
    """The complete engine that checks hybrid on puzzles, and decides when hybrid does not.

    SAT when python-sat is installed: on every group of bench/bench_solve_puzzles.py (published
    puzzles, generated basic to 50x50, advanced and search to 50x50, unique and ambiguous) it was
    faster than MILP in the same run. MILP otherwise.
    """
    return sat.NAME if available(sat.NAME) else milp.NAME


ENGINE_CHOICES = ("auto", "all", *ENGINES)


class TotalTooLarge(ValueError):
    """SAT asked for by name on a total over more open cells than sat.TOTAL_OPEN_CELLS."""


class CannotTake(ValueError):
    """An engine asked for by name that cannot take this input: algebra a puzzle, or a classic
    board's cells given a value or its total. `needs` says which: "full" or "conditions"."""

    def __init__(self, message: str, needs: str):
        super().__init__(message)
        self.needs = needs


def plan(problem: Problem, engine: str | list[str] | tuple[str, ...]) -> list[str]:
    """Return the engines to run, first the one whose verdict leads."""
    if isinstance(engine, (list, tuple)):
        unknown = [name for name in engine if name not in ENGINES]
        if unknown or not engine:
            raise ValueError(f"engine list must name engines from {', '.join(ENGINES)}, got {list(engine)!r}")
        names = list(dict.fromkeys(engine))
    elif engine == "all":
        return [name for name in ENGINES if takes(name, problem) and available(name)]
    elif engine in ENGINES:
        names = [engine]
    elif engine == "auto":
        if "mines" in conditions(problem):
            # a total: SAT where the total's open cells are few (sat.TOTAL_OPEN_CELLS), MILP
            # checking it; else deduction and a search that counts the total, MILP checking it
            # (and deciding where the search does not), and trimming, which reasons with the total
            if available(sat.NAME) and sat.takes_total(problem):
                names = [sat.NAME, milp.NAME]
            else:
                names = [hybrid.NAME, milp.NAME, trim.NAME]
            return names if problem.cells <= CROSSCHECK_CELLS else names[:1]
        if problem.is_full and not problem.has_conditions:
            # exact algebra is the fastest (bench/bench_algebra.py); backtracking, a search that
            # shares nothing with it, checks it cheaply; trimming too where it is fast (it also
            # grades). MILP is left to --engine all: loading scipy.optimize alone costs more than
            # the whole solve (bench/bench_peers.py)
            names = [algebra.NAME, backtrack.NAME] + ([trim.NAME] if problem.cells <= TRIM_CHECK_CELLS else [])
        else:
            # deduction, then search from the deduced state, grades the puzzle and is the
            # fastest of recon's own engines on puzzles (bench/bench_partial.py); SAT or MILP
            # checks it, told the lead's solutions so that it only has to prove there are no others
            names = [hybrid.NAME, checker()]
        return names if problem.cells <= CROSSCHECK_CELLS else names[:1]
    else:
        raise ValueError(f"engine must be one of {', '.join(ENGINE_CHOICES)}, got {engine!r}")
    if not problem.is_full:
        needs_full = [name for name in names if name in FULL_ONLY]
        if needs_full:
            raise CannotTake(f"engine {needs_full[0]} needs a full status (every cell a clue)", "full")
    if sat.NAME in names and not sat.takes_total(problem):
        raise TotalTooLarge(f"engine sat does not take a total over more than {sat.TOTAL_OPEN_CELLS} open cells "
                         "(it cannot keep to a time limit there): use --engine milp or auto")
    for name in names:
        missing = sorted(conditions(problem) - TAKES[name])
        if missing:
            what = " and ".join({"fixed": "cells given a value", "mines": "a total number of mines"}[c] for c in missing)
            raise CannotTake(f"engine {name} does not take {what}", "conditions")
    return names


def verify(result: Result, problem: Problem) -> None:
    """Raise EngineError unless every solution in the result reproduces every clue."""
    for k, field in enumerate(result.solutions):
        if field.shape != problem.shape or field.dtype != bool:
            raise EngineError(f"engine {result.engine} returned a solution of shape {field.shape}, dtype {field.dtype}")
        if not is_solution(field, problem):
            r, c = violated_clues(field, problem)[0]
            raise EngineError(
                f"engine {result.engine} returned solution {k + 1} that breaks clue {cell_name(int(r), int(c))}"
            )
    keys = {f.tobytes() for f in result.solutions}
    if len(keys) != len(result.solutions):
        raise EngineError(f"engine {result.engine} returned the same solution twice")


def _describe(result: Result) -> str:
    exact = "exactly" if result.count_exact else "at least"
    return f"{result.engine}: {result.verdict} ({exact} {result.solution_count} solution(s))"


def cross_check(results: dict[str, Result], max_solutions: int) -> Result:
    """Combine verified results of several engines into one; raise EngineDisagreement on a contradiction."""
    union: dict[bytes, np.ndarray] = {}
    for result in results.values():
        for field in result.solutions:
            union.setdefault(field.tobytes(), field)
    problems = []
    for result in results.values():
        if result.verdict is Verdict.NONE and union:
            problems.append(f"{result.engine} says there is no solution, but another engine found one")
        elif result.count_exact and len(union) > result.solution_count:
            problems.append(
                f"{result.engine} proved there are exactly {result.solution_count} solution(s), "
                f"but the engines found {len(union)} different ones"
            )
    for result in results.values():
        if result.decided is None or not union:
            continue
        for field in union.values():
            wrong = result.decided & (field != result.partial)
            if wrong.any():
                r, c = (int(v) for v in np.argwhere(wrong)[0])
                problems.append(
                    f"{result.engine} fixed {cell_name(r, c)} = {int(result.partial[r, c])}, "
                    f"but a solution found has {int(field[r, c])} there"
                )
                break
    exact_counts = {r.engine: r.solution_count for r in results.values() if r.count_exact}
    if len(set(exact_counts.values())) > 1:
        problems.append(
            "the exact solution counts differ: " + ", ".join(f"{k} {v}" for k, v in exact_counts.items())
        )
    decided = {r.verdict for r in results.values() if r.verdict is not Verdict.UNDECIDED}
    if len(decided) > 1:
        problems.append("the verdicts differ")
    if problems:
        detail = "; ".join(_describe(r) for r in results.values())
        raise EngineDisagreement("engines disagree: " + "; ".join(problems) + f" [{detail}]", results)

    exact = any(r.count_exact for r in results.values())
    if decided:
        verdict = decided.pop()
    elif len(union) >= 2:
        verdict = Verdict.MULTIPLE
    else:
        verdict = Verdict.UNDECIDED
    lead = next(iter(results.values()))
    reasons = [r.reason for r in results.values() if r.verdict is verdict and r.reason]
    if verdict is Verdict.NONE and trim.NAME in results and results[trim.NAME].verdict is Verdict.NONE:
        # trimming names the clue that breaks, near the conflict; algebra's inverse may point far away
        reasons.insert(0, results[trim.NAME].reason)
    # undecided: the last engine's reason, since it ran last because the ones before left the
    # question open (hybrid's "too many cells to search here" is not why a checker ran out of time)
    reason = (reasons[-1] if verdict is Verdict.UNDECIDED else reasons[0]) if reasons else lead.reason
    solutions = list(union.values())
    # the explanation (trace, cells fixed, grade) comes from trimming, which writes its proof; a
    # lead that grades without writing one (hybrid) only stands in when trimming did not run
    graded = [r for r in results.values() if r.grade is not None]
    explained = next((r for r in graded if r.engine == trim.NAME), graded[0] if graded else None)
    return Result(
        verdict,
        solutions[:max_solutions],
        exact,
        "+".join(results),
        sum(r.seconds for r in results.values()),
        {},
        reason,
        dict(results),
        solution_count=max(exact_counts.values()) if exact_counts else len(solutions),
        decided=explained.decided if explained else None,
        partial=explained.partial if explained else None,
        trace=explained.trace if explained else [],
        grade=explained.grade if explained else None,
    )


def solve(
    clues: np.ndarray,
    known: np.ndarray | None = None,
    *,
    engine: str | list[str] | tuple[str, ...] = "auto",
    max_solutions: int = 2,
    time_limit: float | None = None,
    compiled_trim: bool | None = None,
    case_split: bool = False,
    case_ways: int | None = None,
) -> Result:
    """Reconstruct every field (up to max_solutions) whose status matches the known clues.

    clues: counts 0-9, a 2-D integer array (a masked array: the mask means no clue), or a
    Problem (from `recon.read` or `make_problem`: fixed cells and a total too). known: True where
    a cell has a clue (default: everywhere).
    engine: "auto", "all", an engine name, or a list of engine names (the first one leads).
    time_limit: seconds for the whole solve; an engine that runs out says undecided, never guesses.
    Returns a Result: verdict, the verified solutions, solution_count, count_exact, grade, and
    each engine's own Result in `engines`. Raises ValueError for bad arguments, EngineError or
    EngineDisagreement for a bug (a field that fails the clues, engines that disagree).

        >>> import numpy as np, recon
        >>> result = recon.solve(np.array([[1, 1, 1], [1, 1, 1]]))  # one mine, seen by every count
        >>> result.verdict.value, result.solution_count, result.count_exact
        ('multiple', 2, True)
        >>> sorted("/".join(recon.format_field(f).split()) for f in result.solutions)
        ['___/_x_', '_x_/___']

    compiled_trim: the hybrid engine trims with the compiled kernels (`recon.compiled`, needs
    numba), and the trim engine follows its case splits' ways with them: the same answers,
    faster for a batch that pays their loading time once, and on one large status. None (the
    default): where that pays with the kernels in numba's cache (`hybrid.compiled_pays`: from
    60,000 clues, up to 16 million cells; `trim.split_probe`: after 800 splits); False: in Python.
    case_split: the answer is to be explained: trimming runs (added to the engines if they lack
    it; under "auto" the lead's search stays bounded as without it), and it splits cases where its
    other rules stall, so that its proof (the trace) goes further where it would otherwise leave
    the cells to a search. case_ways: the most ways those splits follow in all (default:
    `rules.trim.case_budget` of the grid); more lets a larger search-grade proof finish.
    """
    problem = clues if isinstance(clues, Problem) and known is None else make_problem(clues, known)
    if case_ways is not None and (isinstance(case_ways, bool) or not isinstance(case_ways, (int, np.integer))
                                  or case_ways < 0):
        raise ValueError(f"case_ways must be a whole number >= 0, got {case_ways!r}")
    if compiled_trim is not None and not isinstance(compiled_trim, (bool, np.bool_)):
        raise ValueError(f"compiled_trim must be None, True or False, got {compiled_trim!r}")
    if isinstance(max_solutions, bool) or not isinstance(max_solutions, (int, np.integer)) or max_solutions < 1:
        raise ValueError(f"max_solutions must be a whole number >= 1, got {max_solutions!r}")
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
    names = plan(problem, engine)
    start = time.perf_counter()
    results: dict[str, Result] = {}
    fallback = engine == "auto" and names[0] == hybrid.NAME
    total = problem.mines is not None
    if fallback and len(names) == 1:
        # large puzzle: the checker runs only if hybrid does not decide (MILP for a total: SAT
        # does not take one this large)
        names.append(milp.NAME if total else checker())
    if case_split and trim.NAME not in names:
        names.append(trim.NAME)  # the explanation is trimming's proof
    for i, name in enumerate(names):
        budget = None if time_limit is None else max(time_limit - (time.perf_counter() - start), 1e-3)
        if budget is not None and engine != "auto":
            # every engine asked for gets a fair share of what is left (what one leaves unused
            # goes to the next), not whatever the engines before it left
            budget = max(budget / (len(names) - i), 1e-3)
        lead = results.get(names[0])
        # Ask for one more solution than will be shown: finding none proves the count exact.
        options: dict = {"limit": max_solutions + 1}
        if name == hybrid.NAME:
            options["compiled_trim"] = hybrid.compiled_pays(problem) if compiled_trim is None else compiled_trim
        if name == trim.NAME and case_split and not any(r.verdict is Verdict.MULTIPLE for r in results.values()):
            # with several solutions (found by the lead, or by the checker where the lead left
            # the question open) no split can finish the proof
            options.update(cases=True, ways=case_ways, compiled=compiled_trim)
        if fallback and i == 0:
            options["search_seconds"] = LEAD_SEARCH_SECONDS + LEAD_PER_CELL * problem.cells
            # (with a total, most open cells are seen by it alone: the search lists their fields
            # as one block once every real clue has its mines)
            options["search_cells"] = None if total else 0 if names[1] == sat.NAME else LEAD_SEARCH_CELLS
        elif fallback and lead.verdict is Verdict.UNDECIDED:
            pass  # the checker decides, with what is left of the time limit
        elif fallback and problem.cells > CROSSCHECK_CELLS and name != trim.NAME:
            continue  # hybrid decided a puzzle too large for a cross-check
        elif engine == "auto" and i > 0 and name != trim.NAME:
            spent = sum(r.seconds for r in results.values())
            cap = max(CROSSCHECK_MIN_SECONDS, CROSSCHECK_FACTOR * spent)
            budget = cap if budget is None else min(budget, cap)
        told = name in (milp.NAME, sat.NAME) and lead is not None
        if told and lead.count_exact and len(lead.solutions) <= max_solutions:
            # the lead listed every solution: the checker proves that there is no other
            options["given"] = lead.solutions
        elif told and lead.verdict is Verdict.MULTIPLE and not lead.count_exact:
            # the lead found more solutions than are shown: the checker confirms, on its own, that the
            # first is not the only one (one solve for a second solution, not one per solution)
            options.update(limit=2, given=lead.solutions[:1])
        elif name == sat.NAME and fallback and lead.verdict is Verdict.UNDECIDED and lead.decided is not None:
            # SAT decides what hybrid's deductions left open: it looks for fields under them first
            # (not a cross-check here, and it proves nothing from them)
            options["deduced"] = np.where(lead.decided, lead.partial, -1).astype(np.int8)
        setup = 0.0 if budget is None else setup_seconds(name, problem)
        if budget is not None and budget < setup:
            reason = (f"not run: the {budget:.2g} s left for it are less than it takes to set up "
                      f"{problem.cells:,} cells and {int(np.count_nonzero(problem.known)):,} clues (about {setup:.2g} s)")
            results[name] = Result(Verdict.UNDECIDED, [], False, name, 0.0, {}, reason)
            continue
        result = ENGINES[name](problem, time_limit=budget, **options)
        verify(result, problem)
        results[name] = result
    return cross_check(results, max_solutions)
