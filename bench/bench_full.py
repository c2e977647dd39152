"""Benchmark: time to a proved verdict on random full status grids, per engine, same run.

    python bench/bench_full.py                      # the default table (a few minutes)
    python bench/bench_full.py --sizes 20 50 --seeds 3

For each size and mine density, several seeded fields are drawn; every engine decides each one
(looking for 2 solutions, which is the uniqueness test) and the median time is printed, with the
ratio milp / backtrack measured on the same inputs in the same run. `recon solve` end to end
(parse, both engines where auto runs both, verify, format) is timed through `recon.cli.main`.
The seed algorithm (naive row-major search, upper-bound pruning only) is timed on small grids.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from seed_reference import GaveUp, solve_naive  # noqa: E402

from recon import format_status, make_problem, random_field, status  # noqa: E402
from recon.cli import main  # noqa: E402
from recon.engines import ENGINES  # noqa: E402


def time_engine(name: str, problem, time_limit: float) -> tuple[float, str]:
    start = time.perf_counter()
    result = ENGINES[name](problem, limit=2, time_limit=time_limit)
    return time.perf_counter() - start, result.verdict.value


def time_cli(path: Path) -> tuple[float, int]:
    start = time.perf_counter()
    code = main(["solve", str(path), "-q"], stdout=io.StringIO(), stderr=io.StringIO())
    return time.perf_counter() - start, code


def main_bench(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 50, 100, 200, 300])
    parser.add_argument("--probs", type=float, nargs="+", default=[10, 30, 50])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--seed-sizes", type=int, nargs="+", default=[3, 4, 5, 6, 7, 8])
    parser.add_argument("--seed-budget", type=float, default=10.0)
    parser.add_argument("--tmp", type=Path, default=Path("bench/results"))
    args = parser.parse_args(argv)
    args.tmp.mkdir(parents=True, exist_ok=True)

    print(f"## Full status, median over {args.seeds} seeds (seconds to a proved verdict)\n")
    print("| size | P % | backtrack | milp | milp / backtrack | recon solve (auto, end to end) | verdicts |")
    print("|---|---|---|---|---|---|---|")
    for n in args.sizes:
        for p in args.probs:
            times: dict[str, list[float]] = {name: [] for name in ENGINES}
            cli_times: list[float] = []
            ratios: list[float] = []
            verdicts: dict[str, int] = {}
            for seed in range(args.seeds):
                field = random_field(n, n, p, np.random.default_rng(seed))
                problem = make_problem(status(field))
                per = {}
                for name in ENGINES:
                    seconds, verdict = time_engine(name, problem, args.time_limit)
                    times[name].append(seconds)
                    per[name] = seconds
                    verdicts[f"{name}:{verdict}"] = verdicts.get(f"{name}:{verdict}", 0) + 1
                ratios.append(per["milp"] / per["backtrack"])
                path = args.tmp / f"full_{n}_{p:g}_{seed}.txt"
                path.write_text(format_status(status(field)))
                seconds, _ = time_cli(path)
                cli_times.append(seconds)
            med = {name: statistics.median(v) for name, v in times.items()}
            summary = ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items()))
            print(
                f"| {n}x{n} | {p:g} | {med['backtrack']:.4f} | {med['milp']:.4f} | "
                f"{statistics.median(ratios):.1f}x | {statistics.median(cli_times):.3f} | {summary} |",
                flush=True,
            )

    print(f"\n## Seed algorithm (row-major, upper-bound pruning only), budget {args.seed_budget:g} s, P = 30 %\n")
    print("| size | seed algorithm | nodes | backtrack | ratio seed / backtrack |")
    print("|---|---|---|---|---|")
    for n in args.seed_sizes:
        field = random_field(n, n, 30, np.random.default_rng(n))
        problem = make_problem(status(field))
        bt, _ = time_engine("backtrack", problem, args.time_limit)
        start = time.perf_counter()
        try:
            _, _, nodes = solve_naive(problem, limit=2, budget=args.seed_budget)
            seconds = time.perf_counter() - start
            print(f"| {n}x{n} | {seconds:.3f} | {nodes} | {bt:.4f} | {seconds / bt:.0f}x |", flush=True)
        except GaveUp as stop:
            print(f"| {n}x{n} | gave up after {args.seed_budget:g} s | {stop.args[0]} | {bt:.4f} | > {args.seed_budget / bt:.0f}x |", flush=True)


if __name__ == "__main__":
    main_bench()
