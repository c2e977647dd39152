"""Benchmark: no-guess classic boards (`recon generate --classic --no-guess`), in process and as a
fresh process. Targets (issue: classic play): expert (16x30, 99 mines) < 0.2 s; 50x50 at 40 %
< 2 s; 100x100 at 30 % < 3 s. The anchor is Simon Tatham's Mines generator, measured on this kind
of machine when the targets were set (50x50 at 40 %: 9.2 s; 100x100 at 30 %: 9.1 s); it is not
built here.

    python bench/bench_no_guess.py --seeds 5

Each row: median and worst over seeds, with the perturbations and runs the median seed needed.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

import numpy as np

from recon.generation.classic import no_guess_field

SIZES = [(16, 30, 99), (50, 50, 1000), (100, 100, 3000)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--fresh", action="store_true", help="also time a fresh `recon generate` process per seed")
    args = parser.parse_args()
    print("| board | mines | in process: median | worst | perturbations (median seed) | fresh process: median |")
    print("|---|---|---|---|---|---|")
    for rows, cols, mines in SIZES:
        times, stats = [], []
        for seed in range(args.seeds):
            start = time.perf_counter()
            _, made = no_guess_field(rows, cols, mines, np.random.default_rng(seed), (rows // 2, cols // 2))
            times.append(time.perf_counter() - start)
            stats.append(made)
        fresh = "-"
        if args.fresh:
            walls = []
            for seed in range(args.seeds):
                start = time.perf_counter()
                subprocess.run([sys.executable, "-m", "recon", "generate", str(rows), str(cols), "--classic", "--mines",
                                str(mines), "--no-guess", "--seed", str(seed)], check=True, capture_output=True)
                walls.append(time.perf_counter() - start)
            fresh = f"{statistics.median(walls):.2f} s"
        middle = sorted(range(len(times)), key=times.__getitem__)[len(times) // 2]
        print(f"| {rows}x{cols} | {mines} | {statistics.median(times):.2f} s | {max(times):.2f} s | "
              f"{stats[middle]['perturbations']} in {stats[middle]['runs']} runs | {fresh} |", flush=True)


if __name__ == "__main__":
    main()
