"""Benchmark: the one trimming core (recon.rules.trim) against another checkout of recon, such as
the one before the two Python trimmers became one (the Trimmer with its proof, and `rules/quiet`
without it).

    git worktree add /tmp/before <commit>
    python bench/bench_trim_core.py --before /tmp/before --sizes 40 50 --seeds 3

Minimal advanced and elimination puzzles are generated here, then trimmed in fresh processes, one
per checkout, alternating, --rounds times. Two jobs per puzzle:
- bare: hybrid's trim without the proof, of the cells the single-clue rules leave open;
- proof: `trim.solve`, the trace `recon explain` prints.
Each time is the median of --repeats in one process; the table gives the median over rounds and
puzzles, and the median ratio this checkout / before. Both checkouts must fix the same cells.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def hybrid_trim_input(problem):
    """The open cells and equations hybrid gives its trimmer after the single-clue rules."""
    from recon.engines import backtrack
    from recon.model import cell_name

    search = backtrack._Search(problem)
    search.start()
    open_cells = [i for i, v in enumerate(search.value) if v == backtrack._UNDECIDED]
    equations = []
    for k, cells in enumerate(search.clue_cells):
        if search.free[k]:
            r, c = search.clue_rc[k]
            equations.append((cell_name(r, c), [x for x in cells if search.value[x] == backtrack._UNDECIDED], search.need[k]))
    return open_cells, equations


def bare_trimmer(shape, open_cells, equations):
    """Trimming without the proof, as this checkout spells it."""
    try:
        from recon.rules.quiet import QuietTrimmer  # before the one core
    except ImportError:
        from recon.rules.trim import Trimmer

        return Trimmer.on_cells(shape, open_cells, equations, proof=False)
    return QuietTrimmer.on_cells(shape, open_cells, equations)


def worker(path: str, repeats: int) -> None:
    """Time each puzzle in the file with the recon on sys.path; print JSON."""
    from recon import make_problem
    from recon.engines import trim

    data = np.load(path)
    out = {}
    for key in sorted({k.rsplit("_", 1)[0] for k in data.files}):
        problem = make_problem(data[key + "_clues"], data[key + "_known"])
        open_cells, equations = hybrid_trim_input(problem)
        bare, proof = [], []
        for _ in range(repeats):
            start = time.perf_counter()
            trimmer = bare_trimmer(problem.shape, open_cells, equations)
            trimmer.load()
            trimmer.run()
            bare.append(time.perf_counter() - start)
            start = time.perf_counter()
            result = trim.solve(problem)
            proof.append(time.perf_counter() - start)
        value = trimmer.value.tolist()
        out[key] = [statistics.median(bare), statistics.median(proof), value, result.decided.ravel().tolist(), len(result.trace)]
    print(json.dumps(out))


def run_worker(checkout: Path, path: str, repeats: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    done = subprocess.run([sys.executable, __file__, "--worker", path, "--repeats", str(repeats)],
                          env=env, capture_output=True, text=True, check=True, cwd=tempfile.gettempdir())
    return json.loads(done.stdout)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, help="a checkout of recon to compare with")
    parser.add_argument("--sizes", type=int, nargs="+", default=[40, 50])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, args.repeats)
        return
    if args.before is None:
        parser.error("--before is required")
    from recon.generation import generate_puzzle

    grades = ("advanced", "elimination")
    puzzles = {}
    for n in args.sizes:
        for grade in grades:
            for seed in range(args.seeds):
                puzzle = generate_puzzle(n, n, 50, np.random.default_rng(seed), difficulty=grade)
                puzzles[f"{n}-{grade}-{seed}_clues"] = puzzle.clues
                puzzles[f"{n}-{grade}-{seed}_known"] = puzzle.known
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "puzzles.npz")
        np.savez(path, **puzzles)
        checkouts = {"before": args.before.resolve(), "after": HERE.parent}
        runs = {name: [] for name in checkouts}
        for r in range(args.rounds):
            for name in (("before", "after") if r % 2 == 0 else ("after", "before")):
                runs[name].append(run_worker(checkouts[name], path, args.repeats))
    print("| size | grade | job | before s | after s | median ratio after/before | puzzles |")
    print("|---|---|---|---|---|---|---|")
    for n in args.sizes:
        for grade in grades:
            keys = [f"{n}-{grade}-{seed}" for seed in range(args.seeds)]
            for job, index in (("bare", 0), ("proof", 1)):
                per = {name: [statistics.median(run[k][index] for run in runs[name]) for k in keys] for name in runs}
                ratios = [a / b for a, b in zip(per["after"], per["before"])]
                print(f"| {n}x{n} | {grade} | {job} | {statistics.median(per['before']):.4f} | "
                      f"{statistics.median(per['after']):.4f} | {statistics.median(ratios):.2f} | {len(keys)} |")
            for k in keys:
                before, after = runs["before"][0][k], runs["after"][0][k]
                if before[2] != after[2] or before[3] != after[3]:
                    raise SystemExit(f"{k}: the two checkouts fixed different cells")


if __name__ == "__main__":
    main()
