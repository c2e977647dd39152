"""Benchmark: recon sweep's throughput (issue: batch sweeps). Targets: on the local pool, at least
80 % of one core's rate times the cores; on Dask with 2 local workers, within 1.5x the local
pool's time.

    python bench/bench_sweep.py --trials 20000

One core's rate is measured with --workers 1 on a tenth of the trials; the pool and a
LocalCluster of as many single-threaded worker processes as cores run all of them (8x8 full
status at 30 %, the sweep the issue names).
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time

from recon.sweep import Sweep, run


def peak_mb() -> float:
    """This process's peak resident memory so far (MB; Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(sweep: Sweep, **kwargs) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        run(sweep, os.path.join(tmp, "s.csv"), **kwargs)
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=20_000)
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    one = Sweep(((8, 8),), (30.0,), trials=max(1, args.trials // 10), seed=1)
    whole = Sweep(((8, 8),), (30.0,), trials=args.trials, seed=1)
    single = one.trials / timed(one, workers=1)
    before = peak_mb()
    pool_seconds = timed(whole, workers=cores)
    pool = whole.trials / pool_seconds
    print(f"| one core | {single:.0f} trials/s | peak memory {before:.0f} MB |")
    print(f"| local pool, {cores} workers | {pool:.0f} trials/s | {pool / (single * cores):.0%} of one core's rate x {cores} | "
          f"peak memory {peak_mb():.0f} MB (the parent) |", flush=True)
    try:
        from distributed import LocalCluster
    except ImportError:
        print("| dask | not installed |")
        return
    with LocalCluster(n_workers=cores, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        dask_seconds = timed(whole, dask=cluster.scheduler_address)
    print(f"| dask LocalCluster, {cores} workers | {whole.trials / dask_seconds:.0f} trials/s | "
          f"{dask_seconds / pool_seconds:.2f}x the local pool's time | peak memory {peak_mb():.0f} MB (the client) |")


if __name__ == "__main__":
    main()
