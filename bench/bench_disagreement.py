"""Disagreement harness: random instances through every engine against brute force (issue:
hardening).

    python bench/bench_disagreement.py --instances 10000 --seed 1

Each instance is a random field on a random shape (1xk, kx1, 2xk and small rectangles up to
--max-cells cells), a random density (0-100 %), and a random fraction of its clues kept (full
status about a third of the time); sometimes a clue is changed so that no field may fit. Every
instance goes through `solve(engine="all")` (each engine's answer verified, any two that
contradict raising EngineDisagreement) and against brute force over all 2^cells fields: the
verdict, the exact count and the solutions listed must match. Prints counts; 0 wrong expected.

    python bench/bench_disagreement.py --classic --instances 20000 --seed 1226

--classic does the same for classic Minesweeper boards (cells opened, flagged or covered, the
total given about half the time, a number or the total sometimes changed), the exact count and
every cell's mine probability checked too; a total the board cannot hold must be refused only
where brute force finds no field.

    python bench/bench_disagreement.py --medium --instances 5000 --seed 1444

--medium takes grids past brute force (strips of up to 400 cells, rectangles up to 44x44), where
solve takes the paths of large statuses: hybrid asked to deduce with no search after it, once with
the Python trimmer (on a sparse grid without its search state) and once compiled, each deduced
cell held by SAT's backbone to be the same in every field; `solve` against SAT alone on the
verdict; a unique answer the planted field unless a clue was changed.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time

import numpy as np

from recon import EngineDisagreement, Verdict, make_problem, solve, status


def all_statuses(shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Every field of the shape (2^cells, rows, cols) and its status."""
    rows, cols = shape
    n = rows * cols
    codes = np.arange(2**n, dtype=np.int64)
    fields = ((codes[:, None] >> np.arange(n)) & 1).astype(np.int8).reshape(-1, rows, cols)
    padded = np.pad(fields, ((0, 0), (1, 1), (1, 1)))
    counts = sum(padded[:, dr : dr + rows, dc : dc + cols] for dr in range(3) for dc in range(3))
    return fields.astype(bool), counts


def random_shape(rng, max_cells: int) -> tuple[int, int]:
    kind = rng.integers(4)
    if kind == 0:
        return 1, int(rng.integers(1, max_cells + 1))
    if kind == 1:
        return int(rng.integers(1, max_cells + 1)), 1
    if kind == 2:
        return 2, int(rng.integers(1, max_cells // 2 + 1))
    while True:
        rows, cols = (int(v) for v in rng.integers(2, 6, size=2))
        if rows * cols <= max_cells:
            return rows, cols


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--instances", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-cells", type=int, default=16)
    parser.add_argument("--classic", action="store_true", help="classic Minesweeper boards instead of statuses")
    parser.add_argument("--medium", action="store_true", help="grids past brute force, against SAT's backbone")
    args = parser.parse_args(argv)
    if args.classic:
        return classic(args)
    if args.medium:
        return medium(args)
    rng = np.random.default_rng(args.seed)
    cache: dict = {}
    tally: collections.Counter = collections.Counter()
    wrong = []
    start = time.perf_counter()
    for i in range(args.instances):
        shape = random_shape(rng, args.max_cells)
        if shape not in cache:
            cache[shape] = all_statuses(shape)
        fields, statuses = cache[shape]
        field = rng.random(shape) < rng.uniform(0, 1)
        clues = status(field).astype(np.int64)
        known = np.ones(shape, bool) if rng.random() < 0.35 else rng.random(shape) < rng.uniform(0.2, 1)
        if rng.random() < 0.15:  # a changed clue: maybe no field fits
            r, c = int(rng.integers(shape[0])), int(rng.integers(shape[1]))
            known[r, c] = True
            clues[r, c] = max(0, clues[r, c] + int(rng.choice([-1, 1])))
        from recon.model import window_sizes

        clues = np.minimum(clues, window_sizes(shape)).astype(np.uint8)
        match = (statuses[:, known] == clues[known]).all(axis=1)
        truth = int(match.sum())
        kind = "full" if known.all() else "partial"
        try:
            result = solve(make_problem(clues, known), engine="all", max_solutions=3)
        except EngineDisagreement as err:
            tally["disagreement"] += 1
            wrong.append((shape, kind, "disagreement", str(err)[:200]))
            continue
        problems = against_brute_force(result, fields[match])
        tally[f"{kind} {result.verdict.value}"] += 1
        if problems:
            wrong.append((shape, kind, "; ".join(problems), clues.tolist(), known.tolist()))
    return report(args, "instances", "verdict", "wrong answers or disagreements", tally, wrong, start)


def against_brute_force(result, real: np.ndarray) -> list[str]:
    """What is wrong with a solve's result, given every field that fits (brute force): its
    verdict (undecided aside), its count when exact, and each field it lists."""
    truth = len(real)
    expected = Verdict.NONE if truth == 0 else Verdict.UNIQUE if truth == 1 else Verdict.MULTIPLE
    problems = []
    if result.verdict is not expected and result.verdict is not Verdict.UNDECIDED:
        problems.append(f"verdict {result.verdict.value}, brute force {truth} solution(s)")
    if result.count_exact and result.solution_count != truth:
        problems.append(f"exact count {result.solution_count}, brute force {truth}")
    if not {f.tobytes() for f in result.solutions} <= {f.tobytes() for f in real}:
        problems.append("a listed field does not fit")
    return problems


def report(args, what: str, kind: str, failures: str, tally, wrong: list, start: float) -> int:
    """Print the run's table and its failures; the exit status (1 when any)."""
    print(f"{args.instances} {what} in {time.perf_counter() - start:.0f} s (up to {args.max_cells} cells, seed {args.seed})\n")
    print(f"| {what} | {kind} |")
    print("|---|---|")
    for key, n in sorted(tally.items()):
        print(f"| {n} | {key} |")
    print(f"\n{failures}: {len(wrong)}")
    for item in wrong[:20]:
        print("-", item)
    return 1 if wrong else 0


def classic(args) -> int:
    """Random classic boards (cells opened, flagged or covered, the total given about half the
    time, a number or the total sometimes changed) through `solve(engine="all")` and the exact count
    with probabilities, against brute force over every field of the shape."""
    from fractions import Fraction

    from recon.counting import count_solutions
    from recon.io.classic import COVERED, FLAG, board_problem

    rng = np.random.default_rng(args.seed)
    cache: dict = {}
    tally: collections.Counter = collections.Counter()
    wrong = []
    start = time.perf_counter()
    for _ in range(args.instances):
        shape = random_shape(rng, args.max_cells)
        if shape not in cache:
            fields, statuses = all_statuses(shape)
            cache[shape] = fields, statuses - fields  # a classic number leaves its own cell out
        fields, numbers_of = cache[shape]
        field = rng.random(shape) < rng.uniform(0, 0.6)
        numbers = numbers_of[int(sum(int(v) << i for i, v in enumerate(field.ravel())))]
        opened = ~field & (rng.random(shape) < rng.uniform(0, 0.9))
        flagged = field & (rng.random(shape) < rng.uniform(0, 0.5))
        cells = np.where(opened, numbers, np.where(flagged, FLAG, COVERED)).astype(np.int8)
        mines = int(field.sum()) if rng.random() < 0.5 else None
        if rng.random() < 0.15 and opened.any():  # a changed number: maybe no field fits
            r, c = (int(v) for v in np.argwhere(opened)[rng.integers(opened.sum())])
            neighbours = numbers_of[-1][r, c]  # the board full of mines: each cell's neighbour count
            cells[r, c] = min(neighbours, max(0, int(cells[r, c]) + int(rng.choice([-1, 1]))))
        if mines is not None and rng.random() < 0.1:
            mines = max(0, mines + int(rng.choice([-1, 1])))
        match = (~fields[:, opened]).all(axis=1) & fields[:, flagged].all(axis=1)
        match &= (numbers_of[:, opened] == cells[opened]).all(axis=1)
        if mines is not None:
            match &= fields.reshape(len(fields), -1).sum(axis=1) == mines
        truth = int(match.sum())
        try:
            problem = board_problem(cells, mines)
        except ValueError as err:  # a total outside what the board can hold: refused (exit 2)
            tally["classic with total, refused"] += 1
            if truth:
                wrong.append((shape, f"refused ({err}), brute force {truth} solution(s)", cells.tolist(), mines))
            continue
        try:
            result = solve(problem, engine="all", max_solutions=3)
        except EngineDisagreement as err:
            tally["disagreement"] += 1
            wrong.append((shape, "disagreement", str(err)[:200]))
            continue
        problems = against_brute_force(result, fields[match])
        counted = count_solutions(problem, probabilities=True)
        if counted.exact and counted.count != truth:
            problems.append(f"count {counted.count}, brute force {truth}")
        if counted.exact and truth and counted.probabilities is not None:
            mined = fields[match].sum(axis=0)
            if any(Fraction(counted.probabilities[r][c]) != Fraction(int(mined[r, c]), truth)
                   for r in range(shape[0]) for c in range(shape[1])):
                problems.append("a probability differs from brute force")
        tally[f"classic {'with' if mines is not None else 'without'} total, {result.verdict.value}"] += 1
        if problems:
            wrong.append((shape, "; ".join(problems), cells.tolist(), mines))
    return report(args, "classic boards", "kind, verdict", "wrong answers, counts, probabilities or disagreements",
                  tally, wrong, start)


def medium(args) -> int:
    """Random statuses past brute force: what hybrid deduces where no search follows (both
    trimmers), held to SAT's backbone; the verdicts of `solve` and of SAT alone."""
    from recon.engines import hybrid, sat
    from recon.model import is_solution, window_sizes

    rng = np.random.default_rng(args.seed)
    tally: collections.Counter = collections.Counter()
    wrong = []
    start = time.perf_counter()
    for number in range(args.instances):
        kind = rng.integers(5)
        shape = ((1, int(rng.integers(2, 401))), (int(rng.integers(2, 401)), 1), (2, int(rng.integers(2, 201))),
                 (int(rng.integers(2, 201)), 2), (int(rng.integers(3, 45)), int(rng.integers(3, 45))))[kind]
        field = rng.random(shape) < rng.choice([0.05, 0.15, 0.3, 0.5, 0.7, 0.9, rng.uniform(0, 1)])
        known = rng.random(shape) < rng.choice([0.05, 0.15, 0.25, 0.5, 0.8, 1.0, rng.uniform(0, 1)])
        clues = status(field).astype(np.int64)
        changed = rng.random() < 0.1
        if changed:  # maybe no field fits
            r, c = int(rng.integers(shape[0])), int(rng.integers(shape[1]))
            known[r, c] = True
            clues[r, c] = max(0, clues[r, c] + int(rng.choice([-1, 1])))
        problem = make_problem(np.minimum(clues, window_sizes(shape)).astype(np.uint8), known)
        where = f"instance {number}, {shape[0]}x{shape[1]}"
        truth = sat.solve(problem, limit=2).verdict
        for compiled in (False, True):
            result = hybrid.solve(problem, search_cells=0, compiled_trim=compiled)
            tally[f"hybrid ({result.stats.get('trimmer', 'state')}), {result.verdict.value}"] += 1
            if result.verdict is Verdict.UNDECIDED:
                if result.decided is None or truth is Verdict.NONE:
                    continue  # (nothing to hold its cells to)
                cells = np.flatnonzero(result.decided.ravel())
                fixed, _, complete = sat.backbone(problem, cells)
                value = result.partial.ravel()
                if complete and any(fixed.get(int(x)) != int(value[x]) for x in cells):
                    wrong.append((where, f"hybrid (compiled={compiled}) deduced a cell that varies or is wrong"))
            elif result.verdict is not truth or (result.solutions and not is_solution(result.solutions[0], problem)):
                wrong.append((where, f"hybrid (compiled={compiled}) {result.verdict.value}, SAT {truth.value}"))
        try:
            result = solve(problem)
        except EngineDisagreement as err:
            tally["disagreement"] += 1
            wrong.append((where, "disagreement", str(err)[:200]))
            continue
        tally[f"solve {result.verdict.value}"] += 1
        if result.verdict is not truth and result.verdict is not Verdict.UNDECIDED:
            wrong.append((where, f"solve {result.verdict.value}, SAT {truth.value}"))
        elif result.verdict is Verdict.UNIQUE and not changed and not (result.solutions[0] == field).all():
            wrong.append((where, "unique, but not the planted field"))
    args.max_cells = 44 * 44
    return report(args, "instances", "engine, verdict", "wrong deductions, verdicts or disagreements", tally, wrong, start)


if __name__ == "__main__":
    sys.exit(main())
