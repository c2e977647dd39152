"""Benchmark: how well `--time-limit` bounds a whole `recon solve` command (issue: hardening).

    python bench/bench_time_limits.py --limits 1 2 --repeats 3

Hard inputs are made here (a minimal search-grade 60x60 puzzle, an ambiguous 200x200 full status
with coupled lines, random 150x150 and 400x400 partial statuses with 35 % of the clues), then
solved by a fresh `recon` process per engine and limit; the engine "count" is `recon count` with
that limit. The table gives the median wall time and the overrun past the limit, Python's
start-up included, next to the start-up alone (`recon --version`) measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

RECON = [sys.executable, "-m", "recon"]


def make_inputs(directory: str) -> dict[str, str]:
    from recon import status
    from recon.engines.algebra import null_pattern
    from recon.generation import generate_puzzle
    from recon.io.text import format_status

    paths = {}
    puzzle = generate_puzzle(60, 60, 50, np.random.default_rng(5), difficulty="search")
    paths["search 60x60"] = format_status(puzzle.clues, puzzle.known)
    rng = np.random.default_rng(1)
    field = rng.random((200, 200)) < 0.3
    v = null_pattern(200)
    for j in rng.choice(200, 30, replace=False):
        field[j, v == 1], field[j, v == -1] = False, True
    for j in rng.choice(200, 30, replace=False):
        field[v == 1, j], field[v == -1, j] = False, True
    paths["coupled full 200x200"] = format_status(status(field))
    for n in (150, 400):
        rng = np.random.default_rng(3)
        field = rng.random((n, n)) < 0.5
        paths[f"partial {n}x{n}"] = format_status(status(field), rng.random((n, n)) < 0.35)
    out = {}
    for name, text in paths.items():
        out[name] = os.path.join(directory, name.replace(" ", "_") + ".txt")
        with open(out[name], "w") as handle:
            handle.write(text)
    return out


def wall(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limits", type=float, nargs="+", default=[1.0, 2.0])
    parser.add_argument("--engines", nargs="+", default=["auto", "all", "sat", "milp", "hybrid", "backtrack", "trim", "count"])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    startup = statistics.median(wall([*RECON, "--version"]) for _ in range(args.repeats))
    print(f"start-up alone (recon --version): {startup:.2f} s\n")
    print("| input | engine | limit s | median wall s | overrun s | worst overrun s |")
    print("|---|---|---|---|---|---|")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in make_inputs(tmp).items():
            for engine in args.engines:
                for limit in args.limits:
                    argv = [*RECON, "count", path] if engine == "count" else [*RECON, "solve", path, "--engine", engine]
                    times = [wall([*argv, "--time-limit", str(limit)]) for _ in range(args.repeats)]
                    over = [t - limit for t in times]
                    worst = max(worst, max(over))
                    print(f"| {name} | {engine} | {limit:g} | {statistics.median(times):.2f} | "
                          f"{max(statistics.median(over), 0):.2f} | {max(max(over), 0):.2f} |", flush=True)
    print(f"\nworst overrun: {worst:.2f} s (start-up included)")


if __name__ == "__main__":
    main()
