"""Benchmark: partial status (Fill-a-Pix style), per engine, same run.

    python bench/bench_partial.py

Two sets: the published puzzles bundled in tests/data (hakank, IST e0-e7), and random planted
fields (P = 50 %) of which a fraction of the clues is kept. Each engine looks for 2 solutions
(the uniqueness test); the table gives median seconds and the ratio backtrack / milp.
This is the measurement behind engine="auto" choosing MILP first for partial status.

    python bench/bench_partial.py --large 150 300 --seeds 3

Large random statuses instead (P = 30 %), past the cross-check size, where `solve` runs hybrid's
deductions and SAT decides what they leave: `solve` as it runs (SAT looking first under hybrid's
deductions where one field is all it needs), against SAT alone on the same status (the peer, what
ran before), each timed in the same run; where solve trimmed compiled (from 60,000 clues),
hybrid's deductions with the Python trimmer, another peer; and where SAT swept a large part in
bands (`sat.SWEEP_CELLS`), SAT under the same deductions with one solver a part, the last peer.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from conftest import load_fillapix  # noqa: E402

from recon import make_problem, random_field, status  # noqa: E402
from recon.engines import ENGINES  # noqa: E402


def run(problem, time_limit):
    out = {}
    for name in ENGINES:
        start = time.perf_counter()
        result = ENGINES[name](problem, limit=2, time_limit=time_limit)
        out[name] = (time.perf_counter() - start, result.verdict.value)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 20, 30])
    parser.add_argument("--fractions", type=float, nargs="+", default=[0.3, 0.5, 0.7, 0.9])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--large", type=int, nargs="+", metavar="N", help="N x N random statuses through solve instead")
    args = parser.parse_args(argv)
    if args.large:
        return large(args.large, args.fractions, args.seeds)

    print("## Published puzzles (seconds to a proved verdict)\n")
    print("| puzzle | size | clues | backtrack | milp | backtrack / milp | verdicts |")
    print("|---|---|---|---|---|---|---|")
    for name, (clues, known, _, _) in load_fillapix().items():
        res = run(make_problem(clues, known), args.time_limit)
        bt, mi = res["backtrack"][0], res["milp"][0]
        print(f"| {name} | {clues.shape[0]}x{clues.shape[1]} | {int(known.sum())} | {bt:.4f} | {mi:.4f} | "
              f"{bt / mi:.2f}x | {res['backtrack'][1]} / {res['milp'][1]} |", flush=True)

    print(f"\n## Random planted fields, P = 50 %, median over {args.seeds} seeds, time limit {args.time_limit:g} s\n")
    print("| size | clues kept | backtrack | milp | backtrack / milp | backtrack undecided |")
    print("|---|---|---|---|---|---|")
    for n in args.sizes:
        for frac in args.fractions:
            bts, mis, ratios, undecided = [], [], [], 0
            for seed in range(args.seeds):
                rng = np.random.default_rng(seed)
                field = random_field(n, n, 50, rng)
                known = rng.random(field.shape) < frac
                res = run(make_problem(status(field), known), args.time_limit)
                bts.append(res["backtrack"][0])
                mis.append(res["milp"][0])
                ratios.append(res["backtrack"][0] / res["milp"][0])
                undecided += res["backtrack"][1] == "undecided"
            print(f"| {n}x{n} | {frac:.0%} | {statistics.median(bts):.4f} | {statistics.median(mis):.4f} | "
                  f"{statistics.median(ratios):.1f}x | {undecided}/{args.seeds} |", flush=True)


def large(sizes: list[int], fractions: list[float], seeds: int) -> None:
    """solve's engines on large random statuses, against SAT alone (the table in performance.md)."""
    from recon import solve
    from recon.engines import hybrid, sat

    print(f"## Random fields, P = 30 %, medians over {seeds} seed(s): solve against SAT alone\n")
    print("Where solve trimmed compiled (`hybrid.compiled_pays`), hybrid's deductions with the Python trimmer\n"
          "are timed too, in the same run (the kernels were loaded by then: the first compiled row pays that).\n")
    print("| size | clues kept | solve | of it hybrid | trimmer | hybrid, Python trimming (peer) | of it SAT, guided | "
          "largest part | SAT guided, one solver a part (peer) | SAT alone (peer) | peer / guided | verdicts |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n in sizes:
        for frac in fractions:
            rows = []
            for seed in range(seeds):
                rng = np.random.default_rng(seed)
                field = random_field(n, n, 30, rng)
                problem = make_problem(status(field), rng.random(field.shape) < frac)
                start = time.perf_counter()
                result = solve(problem)
                whole = time.perf_counter() - start
                start = time.perf_counter()
                alone = sat.solve(problem, limit=3)  # as solve asked SAT before: max_solutions + 1
                peer = time.perf_counter() - start
                assert alone.verdict is result.verdict, (n, frac, seed)
                guided = result.engines["sat"].seconds if "sat" in result.engines else float("nan")
                trimmer = result.engines["hybrid"].stats.get("trimmer", "none")
                python = float("nan")
                if trimmer == "compiled":
                    start = time.perf_counter()
                    hybrid.deduce(problem, compiled_trim=False)
                    python = time.perf_counter() - start
                sat_stats = result.engines["sat"].stats if "sat" in result.engines else {}
                whole_parts = float("nan")
                if sat_stats.get("swept"):
                    lead = hybrid.solve(problem, limit=2, search_cells=0, compiled_trim=trimmer == "compiled")
                    deduced = np.where(lead.decided, lead.partial, -1).astype(np.int8)
                    start = time.perf_counter()
                    again = sat.solve(problem, limit=3, deduced=deduced, sweep_cells=problem.cells)
                    whole_parts = time.perf_counter() - start
                    assert again.verdict is result.verdict, (n, frac, seed)
                rows.append((whole, result.engines["hybrid"].seconds, python, guided, whole_parts, peer,
                             result.verdict.value, trimmer, sat_stats.get("largest_part", 0)))
            # (a peer that ran on some seeds only: the median of those, nan where none)
            med = [statistics.median([r[i] for r in rows if r[i] == r[i]] or [float("nan")]) for i in range(6)]
            verdicts = ", ".join(sorted({r[6] for r in rows}))
            trimmers = ", ".join(sorted({r[7] for r in rows}))
            largest = int(statistics.median(r[8] for r in rows))
            print(f"| {n}x{n} | {frac:.0%} | {med[0]:.2f} | {med[1]:.2f} | {trimmers} | {med[2]:.2f} | {med[3]:.2f} | "
                  f"{largest:,} | {med[4]:.2f} | {med[5]:.2f} | {med[5] / med[3]:.1f}x | {verdicts} |", flush=True)


if __name__ == "__main__":
    main()
