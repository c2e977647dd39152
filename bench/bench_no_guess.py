"""Benchmark: no-guess classic boards (`recon generate --classic --no-guess`), in process and as a
fresh process. Targets (issue: classic play): expert (16x30, 99 mines) < 0.2 s; 50x50 at 40 %
< 2 s; 100x100 at 30 % < 3 s. The anchor is Simon Tatham's Mines generator (new_desc with
unique=true, his no-guess boards), timed in the same run when given: `--tatham PATH`, an executable
built outside this repository from his sources, that takes `WxHnM SEED` and prints a line whose
third field is the seconds his new_desc took (a fetched program's build stays out of the repo).

    python bench/bench_no_guess.py --seeds 5 --fresh --tatham PATH
    python bench/bench_no_guess.py --seeds 3 --large
    python bench/bench_no_guess.py --seeds 5 --strips
    python bench/bench_no_guess.py --seeds 5 --dense-strips --limit 60

Each row: median and worst over seeds, with the perturbations and runs the median seed needed.
In process the player's rules run as the command runs them (`player_rules`: compiled on large
boards when numba's cache holds the kernels); where that is compiled, the peer is the same
generation with the rules in Python, timed in the same run, and the two boards are checked equal.
A second peer at every size: the player rebuilding its equations from every opened number after
each perturbation (`recount=False`) instead of recounting those on the cells that changed; its
boards are checked equal too.

--strips: long boards at 1 mine in 6, against the perturber that only packs (`ways=("pack",)`,
the code before the race joined it), timed in the same run; a peer past `--limit` seconds counts
as the limit. --dense-strips: strips three wide at 1 mine in 4, against a field's patience of 4
runs in a row (`patience=4`), the same way.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np

from recon.generation.classic import no_guess_field, player_rules
from recon.generation.options import GenerationTimeout

SIZES = [(16, 30, 99), (50, 50, 1000), (100, 100, 3000)]
#: Beyond the targets (--large): how the time grows.
LARGE = [(200, 200, 12000), (300, 300, 27000), (1000, 1000, 160000)]
#: Long boards (--strips), 1 mine in 6.
STRIPS = [(3, 300, 150), (3, 2000, 1000), (2000, 3, 1000), (5, 1000, 833), (2, 1000, 334), (1, 2000, 333)]
#: Dense strips three wide (--dense-strips), 1 mine in 4.
DENSE_STRIPS = [(3, 875, 656), (3, 1248, 936), (1000, 3, 750)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--fresh", action="store_true", help="also time a fresh `recon generate` process per seed")
    parser.add_argument("--tatham", metavar="PATH", help="Tatham's generator, built outside the repo (see above)")
    parser.add_argument("--large", action="store_true", help="only the large boards: 200x200 and 300x300 at 30 %%, 1000x1000 at 16 %%")
    parser.add_argument("--strips", action="store_true", help="only long boards, against the perturber that only packs")
    parser.add_argument("--dense-strips", action="store_true",
                        help="only dense strips three wide, against a field's patience of 4 runs in a row")
    parser.add_argument("--limit", type=float, default=120, help="seconds a strip's peer may take (default 120)")
    args = parser.parse_args()
    if args.strips or args.dense_strips:
        return strips(args.seeds, args.limit, args.dense_strips)
    print("| board | mines | in process: median | worst | perturbations (median seed) | rules in Python (peer): median "
          "| peer / recon | rebuilt after each perturbation (peer): median | peer / recon | fresh process: median "
          "| Tatham: median | Tatham / recon (in process) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for rows, cols, mines in LARGE if args.large else SIZES:
        rules = player_rules((rows, cols))
        times, stats, peers, rebuilt = [], [], [], []
        for seed in range(args.seeds):
            start = time.perf_counter()
            field, made = no_guess_field(rows, cols, mines, np.random.default_rng(seed), (rows // 2, cols // 2), rules=rules)
            times.append(time.perf_counter() - start)
            stats.append(made)
            if rules:
                start = time.perf_counter()
                plain, _ = no_guess_field(rows, cols, mines, np.random.default_rng(seed), (rows // 2, cols // 2))
                peers.append(time.perf_counter() - start)
                assert np.array_equal(plain, field), f"seed {seed}: another board with the rules in Python"
            start = time.perf_counter()
            again, _ = no_guess_field(rows, cols, mines, np.random.default_rng(seed), (rows // 2, cols // 2), rules=rules,
                                      recount=False)
            rebuilt.append(time.perf_counter() - start)
            assert np.array_equal(again, field), f"seed {seed}: another board when the player rebuilds"
        peer = f"{statistics.median(peers):.2f} s" if peers else "-"
        speedup = f"{statistics.median(peers) / statistics.median(times):.1f}x" if peers else "-"
        rebuild = f"{statistics.median(rebuilt):.2f} s | {statistics.median(rebuilt) / statistics.median(times):.1f}x"
        fresh = "-"
        if args.fresh:
            # as after `pip install`: bytecode cached (a first, untimed run writes it), which
            # PYTHONDONTWRITEBYTECODE would forbid, adding recon's compile to every start
            env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
            walls = []
            for seed in [0, *range(args.seeds)]:
                start = time.perf_counter()
                subprocess.run([sys.executable, "-m", "recon", "generate", str(rows), str(cols), "--classic", "--mines",
                                str(mines), "--no-guess", "--seed", str(seed)], check=True, capture_output=True, env=env)
                walls.append(time.perf_counter() - start)
            walls = walls[1:]
            fresh = f"{statistics.median(walls):.2f} s"
        anchor = ratio = "-"
        if args.tatham:
            # his params are WxHnN; his own clock around new_desc, the same span as recon's
            spans = [float(subprocess.run([args.tatham, f"{cols}x{rows}n{mines}", str(seed)], check=True,
                                          capture_output=True, text=True).stdout.split()[2]) for seed in range(args.seeds)]
            anchor = f"{statistics.median(spans):.2f} s"
            ratio = f"{statistics.median(spans) / statistics.median(times):.1f}x"
        middle = sorted(range(len(times)), key=times.__getitem__)[len(times) // 2]
        print(f"| {rows}x{cols} | {mines} | {statistics.median(times):.2f} s | {max(times):.2f} s | "
              f"{stats[middle]['perturbations']} in {stats[middle]['runs']} runs | {peer} | {speedup} | {rebuild} | {fresh} | {anchor} | "
              f"{ratio} |", flush=True)


def strips(seeds: int, limit: float, dense: bool) -> None:
    """Long boards against the packing alone, or dense ones against a patience of 4 (`dense`); a
    peer past `limit` seconds counts as the limit."""
    peer_name, peer_options = ("patience 4", {"patience": 4}) if dense else ("packing only", {"ways": ("pack",)})
    print(f"| board | mines | recon: median | worst | fields, runs (median seed) | {peer_name} (peer): median | worst "
          "| peer / recon |")
    print("|---|---|---|---|---|---|---|---|")
    for rows, cols, mines in DENSE_STRIPS if dense else STRIPS:
        first = (rows // 2, cols // 2)
        times, stats, peers = [], [], []
        for seed in range(seeds):
            start = time.perf_counter()
            _, made = no_guess_field(rows, cols, mines, np.random.default_rng(seed), first)
            times.append(time.perf_counter() - start)
            stats.append(made)
            start = time.perf_counter()
            try:
                no_guess_field(rows, cols, mines, np.random.default_rng(seed), first, time_limit=limit, **peer_options)
                peers.append(time.perf_counter() - start)
            except GenerationTimeout:
                peers.append(limit)
        middle = sorted(range(len(times)), key=times.__getitem__)[len(times) // 2]
        shown = [f"> {p:.0f} s" if p >= limit else f"{p:.2f} s" for p in (statistics.median(peers), max(peers))]
        print(f"| {rows}x{cols} | {mines} | {statistics.median(times):.2f} s | {max(times):.2f} s | "
              f"{stats[middle]['fields']}, {stats[middle]['runs']} | {shown[0]} | {shown[1]} | "
              f"{'>= ' if max(peers) >= limit else ''}{statistics.median(peers) / statistics.median(times):.1f}x |", flush=True)


if __name__ == "__main__":
    main()
