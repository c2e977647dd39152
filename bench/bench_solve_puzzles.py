"""Benchmark: proved verdicts on Fill-a-Pix puzzles, published and generated (issue 5 solving target).

    python bench/bench_solve_puzzles.py --seeds 3

Sets:
- published: hakank's three and the IST examples e0-e7 (tests/data), and the LEGUP Fillapix files
  in ../shared/data/legup/fillapix read by the importer (not copied: their licence);
- generated: puzzles from recon's generator at P = 50 % (basic up to 50x50, advanced, elimination and search
  up to 30x30: generating those takes longer),
  and an ambiguous variant of each (its first 3 clues dropped).

--hybrid-trim compiled makes hybrid trim compiled (solve's compiled_trim option, for a batch that
has loaded numba's kernels); the default keeps hybrid's Python trimmer, as `recon solve` does.

Per group: median seconds of `solve(engine="auto")` (the hybrid engine leads, SAT checks it, MILP
without python-sat, and decides when trimming stalls), of hybrid alone and backtracking alone (each
limited by --backtrack-limit, 2 s), MILP alone and SAT alone (if python-sat is installed), all in
this run, with the verdicts and the grades hybrid reports; for the statuses with several solutions,
the median seconds of the count `recon solve` adds (`count.count_ambiguous`, at most 1 s) and how
many it counted exactly.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from conftest import load_fillapix  # noqa: E402

from recon import Verdict, make_problem, solve  # noqa: E402
from recon.counting import count_ambiguous  # noqa: E402
from recon.engines import backtrack, hybrid, milp, sat  # noqa: E402
from recon.generation import GenerationFailed, generate_puzzle  # noqa: E402
from recon.io.foreign import read_any_status  # noqa: E402

LEGUP = ROOT.parent / "shared" / "data" / "legup" / "fillapix"


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def measure(problems, repeats, backtrack_limit, compiled):
    rows = {"auto": [], "hybrid": [], "milp": [], "sat": [], "backtrack": [], "count": []}
    verdicts, grades, exact = Counter(), Counter(), 0
    for problem in problems:
        for _ in range(repeats):
            seconds, result = timed(lambda: solve(problem.clues, problem.known, compiled_trim=compiled))
            rows["auto"].append(seconds)
        verdicts[result.verdict.value] += 1
        if result.verdict is Verdict.MULTIPLE:  # what `recon solve` adds: the count, within 1 s
            seconds, counted = timed(lambda: count_ambiguous(problem, result))
            rows["count"].append(seconds)
            exact += counted.exact
        seconds, lead = timed(lambda: hybrid.solve(problem, limit=3, time_limit=backtrack_limit, compiled_trim=compiled))
        rows["hybrid"].append(seconds if lead.verdict.value != "undecided" else float("inf"))
        grades[lead.grade or "-"] += 1
        rows["milp"].append(timed(lambda: milp.solve(problem, limit=3))[0])
        rows["sat"].append(timed(lambda: sat.solve(problem, limit=3))[0] if sat.AVAILABLE else float("nan"))
        seconds, bt = timed(lambda: backtrack.solve(problem, limit=3, time_limit=backtrack_limit))
        rows["backtrack"].append(seconds if bt.verdict.value != "undecided" else float("inf"))
    return {k: statistics.median(v) if v else None for k, v in rows.items()}, verdicts, grades, exact


def show(name, size, problems, repeats, backtrack_limit, compiled):
    med, verdicts, grades, exact = measure(problems, repeats, backtrack_limit, compiled)
    def cell(key):
        return f"> {backtrack_limit:g}" if med[key] == float("inf") else f"{med[key]:.4f}"

    ratio = "-" if med["hybrid"] == float("inf") else f"{med['milp'] / med['hybrid']:.0f}x"
    count = "-" if med["count"] is None else f"{med['count']:.4f} ({exact}/{verdicts['multiple']})"
    print(
        f"| {name} | {size} | {len(problems)} | {med['auto']:.4f} | {cell('hybrid')} | {med['milp']:.4f} | {med['sat']:.4f} | {cell('backtrack')} "
        f"| {ratio} | {dict(verdicts)} | {dict(grades)} | {count} |",
        flush=True,
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="*", default=[10, 20, 30, 40, 50], help="sizes of the basic puzzles")
    parser.add_argument("--hard-sizes", type=int, nargs="+", default=[10, 20, 30])
    parser.add_argument("--hard", choices=["advanced", "elimination", "search"], nargs="+",
                        default=["advanced", "elimination", "search"],
                        help="the grades generated at --hard-sizes")
    parser.add_argument("--no-published", action="store_true", help="skip the published puzzles")
    parser.add_argument("--backtrack-limit", type=float, default=2.0,
                        help="seconds for backtracking alone (it is the slow engine on sparse puzzles)")
    parser.add_argument("--hybrid-trim", choices=["python", "compiled"], default="python",
                        help="python: hybrid trims in Python, as a fresh `recon solve` does; compiled: "
                             "numba's kernels are loaded first, as in a batch run (needs numba)")
    args = parser.parse_args(argv)
    compiled = args.hybrid_trim == "compiled"
    print("| set | size | puzzles | auto s | hybrid s | milp s | sat s | backtrack s | milp / hybrid | verdicts | grades | count s (exact) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    published = [make_problem(clues, known) for clues, known, _, _ in load_fillapix().values()]
    if not args.no_published:
        show("hakank + IST", "5x5-20x20", published, args.repeats, args.backtrack_limit, compiled)
    if LEGUP.is_dir() and not args.no_published:
        legup = []
        for path in sorted(LEGUP.glob("*.xml")):
            clues, known, _ = read_any_status(path.read_bytes(), str(path))
            legup.append(make_problem(clues, known))
        show("LEGUP (importer)", "10x10-20x20", legup, args.repeats, args.backtrack_limit, compiled)
    plan = [(n, "basic", 50) for n in args.sizes or []]
    plan += [(n, d, 50) for d in args.hard for n in args.hard_sizes]
    for n, difficulty, p in plan:
        puzzles, ambiguous = [], []
        for seed in range(args.seeds):
            try:
                puzzle = generate_puzzle(n, n, p, np.random.default_rng(seed), difficulty=difficulty)
            except GenerationFailed:
                continue
            puzzles.append(make_problem(puzzle.clues, puzzle.known))
            known = puzzle.known.copy()
            for r, c in np.argwhere(known)[:3]:
                known[r, c] = False
            ambiguous.append(make_problem(puzzle.clues, known))
        if not puzzles:
            print(f"| generated {difficulty} | {n}x{n} | 0 | no puzzle from {args.seeds} seeds |")
            continue
        show(f"generated {difficulty}", f"{n}x{n}", puzzles, args.repeats, args.backtrack_limit, compiled)
        show(f"{difficulty}, 3 clues dropped", f"{n}x{n}", ambiguous, args.repeats, args.backtrack_limit, compiled)


if __name__ == "__main__":
    main()
