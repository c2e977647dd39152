"""Benchmark: the exact algebra engine on large full status grids, and against the other engines.

    python bench/bench_algebra.py

Tables (medians over --repeats runs, all measured in this run):
1. Engine alone and `recon solve` end to end (parse, solve, verdict, verify, write), both through
   recon.cli.main in this process and as a fresh `python -m recon` process net of start-up,
   P = 30 %, 500x500 to 4000x4000, with the time ratio for every 4x the cells. Sizes are
   interleaved within each repeat.
2. At 200x200: algebra against backtracking and MILP on the same inputs.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from recon import format_status, make_problem, random_field, status
from recon.cli import main
from recon.engines import ENGINES


def median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def fresh_memory_for_large_arrays() -> str:
    """Make every large array in this process fresh memory, as in a real one-shot `recon solve`.

    glibc reuses freed heap for blocks up to a threshold that it raises to the largest block freed
    (at most 32 MB): a warm process re-solving a 2000x2000 grid gets its arrays without page faults,
    at 4000x4000 (arrays of 32-128 MB) it faults on every run. Growth ratios in one process would
    then compare a warm heap with a cold one. A fixed 128 kB threshold (glibc's starting value) sends every array above 128 kB (every grid array from 500x500 up)
    to fresh pages at every size, which is what a new process sees.
    """
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        M_MMAP_THRESHOLD = -3
        if libc.mallopt(M_MMAP_THRESHOLD, 128 << 10) == 1:
            return "fresh memory for arrays over 128 kB (glibc mmap threshold fixed)"
    except OSError:
        pass
    return "allocator left as it is (not glibc)"


def main_bench(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--series", type=str, nargs="+", default=["501,1002,2004,4008", "500,998,2000,3998"],
                        help="comma-separated sizes; growth ratios are taken within a series (same size class)")
    parser.add_argument("--skip-compare", action="store_true")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--p", type=float, default=30)
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="recon-bench-"))

    # /usr/bin/time reports the child's own peak memory (a forked child's ru_maxrss would include
    # this benchmark's memory at the fork)
    timer = ["/usr/bin/time", "-f", "%M"] if Path("/usr/bin/time").exists() else []

    # as after `pip install`: bytecode cached, which PYTHONDONTWRITEBYTECODE would forbid
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def run_cli(path: Path, out: Path) -> tuple[float, int]:
        """One `recon solve` in a fresh interpreter: (wall seconds, peak RSS in MB)."""
        start = time.perf_counter()
        proc = subprocess.run(
            [*timer, sys.executable, "-m", "recon", "solve", str(path), "--out", str(out), "-q"],
            capture_output=True, text=True, env=env,
        )
        seconds = time.perf_counter() - start
        assert proc.returncode in (0, 3), proc.stderr
        return seconds, (int(proc.stderr.strip().splitlines()[-1]) // 1024 if timer else -1)

    small = tmp / "small.txt"
    # above solver.CROSSCHECK_CELLS, so no cross-check engine runs: start-up and imports only
    small.write_text(format_status(status(random_field(120, 121, args.p, np.random.default_rng(0)))))
    run_cli(small, tmp / "small.out")  # untimed: writes the bytecode
    startup = statistics.median(run_cli(small, tmp / "small.out")[0] for _ in range(max(args.repeats, 5)))
    memory = fresh_memory_for_large_arrays()
    print(f"## Full status, P = {args.p:g} %, median of {args.repeats}; {memory}\n")
    print("engine: the algebra engine alone; in process: `recon solve` through recon.cli.main in this")
    print("process (parse, solve, verdict, verify, write); fresh process: `python -m recon solve` as a")
    print(f"user runs it, start-up included (start-up and imports alone, on a 120x121 status: {startup:.2f} s).\n")
    print("| size | size mod 3 | engine s | x per 4x cells | in process s | x per 4x cells "
          "| fresh process s | max RSS MB |")
    print("|---|---|---|---|---|---|---|---|")
    for series in args.series:
        sizes = [int(x) for x in series.split(",")]
        cases = {}
        for n in sizes:
            field = random_field(n, n, args.p, np.random.default_rng(n))
            problem = make_problem(status(field))
            path = tmp / f"s{n}.txt"
            path.write_text(format_status(problem.clues))
            cases[n] = (problem, path, tmp / f"o{n}.txt")
        # Sizes are interleaved within each repeat (not all repeats of one size, then the next), so
        # a change in the shared machine's load falls on both sides of a growth ratio alike. Each
        # kind of run has its own loop, so the heap one kind leaves behind does not slow the other.
        times = {n: ([], [], []) for n in sizes}
        rss = {}
        for _ in range(args.repeats):
            for n in sizes:
                problem, path, out = cases[n]
                start = time.perf_counter()
                ENGINES["algebra"](problem, limit=2)
                times[n][0].append(time.perf_counter() - start)
        for _ in range(args.repeats):
            for n in sizes:
                problem, path, out = cases[n]
                start = time.perf_counter()
                main(["solve", str(path), "--out", str(out), "-q"], stdout=io.StringIO(), stderr=io.StringIO())
                times[n][1].append(time.perf_counter() - start)
        for _ in range(args.repeats):
            for n in sizes:
                problem, path, out = cases[n]
                seconds, rss[n] = run_cli(path, out)
                times[n][2].append(seconds)
        previous = None
        for n in sizes:
            medians = [statistics.median(t) for t in times[n]]
            cells = [f"{m:.3f} | {m / previous[k]:.2f}" if previous else f"{m:.3f} | " for k, m in enumerate(medians[:2])]
            print(f"| {n}x{n} | {n % 3} | {' | '.join(cells)} | {medians[2]:.2f} | {rss[n]} |", flush=True)
            previous = medians

    if args.skip_compare:
        return
    print("\n## 200x200 full status: algebra against the other engines (median over seeds, same inputs)\n")
    print("| size | P % | algebra s | backtrack s | milp s | backtrack / algebra | milp / algebra |")
    print("|---|---|---|---|---|---|---|")
    for shape in ((200, 200), (201, 201), (199, 200)):
        for p in (10, 30, 50):
            t = {name: [] for name in ("algebra", "backtrack", "milp")}
            for seed in range(args.repeats):
                problem = make_problem(status(random_field(*shape, p, np.random.default_rng(seed))))
                for name in t:
                    t[name].append(median_time(lambda: ENGINES[name](problem, limit=2), 1))
            m = {k: statistics.median(v) for k, v in t.items()}
            print(
                f"| {shape[0]}x{shape[1]} | {p} | {m['algebra']:.4f} | {m['backtrack']:.4f} | {m['milp']:.4f} | "
                f"{m['backtrack'] / m['algebra']:.0f}x | {m['milp'] / m['algebra']:.0f}x |",
                flush=True,
            )


if __name__ == "__main__":
    main_bench()
