"""Batch experiments: many random statuses (or puzzles) solved, one CSV row per trial.

A sweep is the product of sizes, densities (P, percent) and hidden fractions, `trials` times
each. Every trial has its own seed, derived from the sweep's seed and the trial's place, so a
row is reproducible from its seed alone: `random_field(rows, cols, p, seed)`, then (with a hidden
fraction) that many cells drawn from the same generator lose their clue. The rows are streamed to
the CSV as trials finish, each written whole and flushed: a killed sweep loses at most the trials
in flight. Rerunning the same sweep with the same file skips the trials already written; a file
of another sweep is refused.
"""

from __future__ import annotations

import csv
import io
import json
import os
import statistics
import time
from array import array
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from itertools import islice

import numpy as np

from .model import make_problem, random_field, status
from .stats import wilson

COLUMNS = ["rows", "cols", "p", "hidden", "trial", "seed", "verdict", "solution_count", "count_exact", "seconds",
           "clues", "grade", "engines"]
HEADER = "# recon sweep "


@dataclass(frozen=True)
class Sweep:
    """What a sweep runs (its parameters are the CSV's first line)."""

    sizes: tuple[tuple[int, int], ...]
    densities: tuple[float, ...]
    hidden: tuple[float, ...] = (0.0,)
    trials: int = 100
    seed: int = 0
    engine: str = "auto"
    time_limit: float | None = None
    puzzle: str | None = None  # a difficulty: make minimal puzzles of that grade instead

    def check(self) -> None:
        """ValueError, in words, for a sweep that cannot run."""
        if not self.sizes:
            raise ValueError("the size list is empty: give --sizes 5x5,6x6 or --rows and --cols")
        if not self.densities:
            raise ValueError("the density list is empty")
        for p in self.densities:
            if not 0 <= p <= 100:
                raise ValueError(f"a density is a percentage from 0 to 100, got {p:g}")
        for h in self.hidden:
            if not 0 <= h <= 1:
                raise ValueError(f"a hidden fraction is from 0 to 1, got {h:g}")
        if self.trials < 1:
            raise ValueError(f"trials must be at least 1, got {self.trials}")

    def header(self) -> str:
        params = {"sizes": [f"{r}x{c}" for r, c in self.sizes], "densities": list(self.densities), "hidden": list(self.hidden),
                  "trials": self.trials, "seed": self.seed, "engine": self.engine, "time_limit": self.time_limit,
                  "puzzle": self.puzzle}
        return HEADER + json.dumps(params, sort_keys=True)

    def jobs(self):
        """Every trial: (rows, cols, p, hidden, trial, seed), in a fixed order."""
        for rows, cols in self.sizes:
            for p in self.densities:
                for h in self.hidden:
                    for t in range(self.trials):
                        key = [self.seed, rows, cols, round(p * 1000), round(h * 1000), t]
                        # a Python int before the shift: numpy 1 makes uint64 >> int a float, and refuses
                        seed = int(np.random.SeedSequence(key).generate_state(1, dtype=np.uint64)[0]) >> 1
                        yield rows, cols, p, h, t, seed


def trial(job, engine: str = "auto", time_limit: float | None = None, puzzle: str | None = None) -> dict:
    """Run one trial from its seed alone; its CSV row."""
    from .solver import solve

    rows, cols, p, h, t, seed = job
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    clues_kept, grade = "", ""
    problem = None
    if puzzle:
        from .generation import GenerationFailed, generate_puzzle

        try:
            made = generate_puzzle(rows, cols, p, rng, difficulty=puzzle)
            problem = make_problem(made.clues, made.known)
            clues_kept, grade = int(made.known.sum()), str(made.grade)
        except GenerationFailed:  # no puzzle of that grade from this seed (on a strip one cell wide, say)
            pass  # an undecided row, no engine run
    else:
        field = random_field(rows, cols, p, rng)
        known = np.ones(field.shape, dtype=bool)
        if h:
            hide = rng.choice(field.size, size=round(h * field.size), replace=False)
            known.flat[hide] = False
        problem = make_problem(status(field), known)
    verdict, solution_count, count_exact, runs = "undecided", 0, False, {}
    if problem is not None:
        result = solve(problem, engine=engine, time_limit=time_limit)
        verdict, solution_count, count_exact = result.verdict.value, result.solution_count, result.count_exact
        runs = result.engines or {result.engine: result}
        if not puzzle:
            grade = str(result.grade) if result.grade else ""
    return {"rows": rows, "cols": cols, "p": p, "hidden": h, "trial": t, "seed": seed, "verdict": verdict,
            "solution_count": solution_count, "count_exact": count_exact,
            "seconds": round(time.perf_counter() - start, 6), "clues": clues_kept, "grade": grade,
            "engines": " ".join(f"{name}={r.seconds:.6f}" for name, r in runs.items())}


def engine_seconds(cell: str) -> dict[str, float]:
    """The `engines` column read back: each engine that ran and its seconds."""
    out = {}
    for part in cell.split():
        name, _, seconds = part.partition("=")
        out[name] = float(seconds)
    return out


def trials(jobs, engine: str = "auto", time_limit: float | None = None, puzzle: str | None = None) -> list[dict]:
    """Several trials in one task: a cluster's per-task overhead (milliseconds) is paid once."""
    return [trial(job, engine, time_limit, puzzle) for job in jobs]


#: Trials per Dask task: a small trial takes less time than a Dask task's overhead
#: (docs/performance.md, "Sweeps").
DASK_CHUNK = 64


def _key(rows, cols, p, h, t) -> tuple:
    return int(rows), int(cols), float(p), float(h), int(t)


def done_trials(path: str, sweep: Sweep) -> set:
    """The trials already in the file (after cutting a half-written last line); ValueError if the
    file holds another sweep's rows."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return set()
    with open(path, "rb+") as f:
        data = f.read()
        if not data.endswith(b"\n"):  # a sweep killed mid-line: the partial row goes
            f.truncate(data.rfind(b"\n") + 1)
            data = data[: data.rfind(b"\n") + 1]
    lines = data.decode("utf-8", errors="replace").splitlines()
    if not lines or lines[0] != sweep.header():
        what = lines[0][:120] if lines else "(empty)"
        raise ValueError(f"{path} exists but is not a sweep of these parameters: its first line is {what!r}; "
                         "give another --out or the same parameters")
    if len(lines) > 1 and lines[1] != ",".join(COLUMNS):
        raise ValueError(f"{path} holds this sweep with other columns ({lines[1][:120]!r}), written by another "
                         "version of recon: give another --out")
    rows = csv.DictReader(lines[1:])
    return {_key(r["rows"], r["cols"], r["p"], r["hidden"], r["trial"]) for r in rows}


#: How long to wait for a Dask scheduler before saying it cannot be reached.
DASK_CONNECT_SECONDS = 10


def dask_client(address: str):
    """A client of the Dask scheduler at address (dask.distributed, an optional extra); ValueError
    naming the address when it cannot be reached within DASK_CONNECT_SECONDS."""
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("--dask needs dask.distributed: pip install 'recon[dask]'") from None
    try:
        return Client(address, timeout=DASK_CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as err:
        raise ValueError(f"cannot reach the Dask scheduler at {address} within {DASK_CONNECT_SECONDS} s: {err}") from None


def run(sweep: Sweep, out: str, *, workers: int | None = None, progress=None, dask: str | None = None) -> int:
    """Run the trials not yet in `out`, appending their rows as they finish; how many ran. dask: the
    address of a Dask scheduler (tcp://host:port) to run the trials on, instead of a local pool."""
    sweep.check()
    done = done_trials(out, sweep)
    todo = [job for job in sweep.jobs() if _key(*job[:5]) not in done]
    # the scheduler first: an address that cannot be reached (or dask.distributed missing) leaves
    # no output file behind
    client = dask_client(dask) if dask is not None else None
    try:
        return _run(sweep, out, todo, workers, progress, client)
    finally:
        if client is not None:
            client.close()


def _run(sweep: Sweep, out: str, todo: list, workers: int | None, progress, client) -> int:
    """run, with the Dask client (or None: a local pool)."""
    fresh = not os.path.exists(out) or os.path.getsize(out) == 0
    with open(out, "a", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, COLUMNS)
        if fresh:
            f.write(sweep.header() + "\n")
            writer.writeheader()
            f.flush()

        def write(row: dict) -> None:
            buffer = io.StringIO()
            csv.DictWriter(buffer, COLUMNS).writerow(row)
            f.write(buffer.getvalue())  # one write per row, flushed: never half a line left by a finished trial
            f.flush()

        workers = min(workers or os.cpu_count() or 1, max(len(todo), 1))  # no idle processes
        started = time.perf_counter()
        if client is not None:
            from distributed import as_completed

            window = 4 * max(1, sum(client.nthreads().values()))
            jobs, n = iter(todo), 0

            def submit(chunk):
                return client.submit(trials, chunk, sweep.engine, sweep.time_limit, sweep.puzzle, pure=False)

            chunks = [list(islice(jobs, DASK_CHUNK)) for _ in range(window)]
            flow = as_completed([submit(c) for c in chunks if c], loop=client.loop)
            for future in flow:
                for row in future.result():
                    write(row)
                    n += 1
                future.release()
                chunk = list(islice(jobs, DASK_CHUNK))  # one in for one out: memory does not grow with the sweep
                if chunk:
                    flow.add(submit(chunk))
                if progress:
                    progress(n, len(todo), time.perf_counter() - started)
            return len(todo)
        if workers == 1:
            for n, job in enumerate(todo, 1):
                write(trial(job, sweep.engine, sweep.time_limit, sweep.puzzle))
                if progress:
                    progress(n, len(todo), time.perf_counter() - started)
            return len(todo)
        with ProcessPoolExecutor(workers) as pool:
            pending, jobs, n = set(), iter(todo), 0
            window = 4 * workers  # trials in flight: memory does not grow with the sweep
            while True:
                while len(pending) < window:
                    job = next(jobs, None)
                    if job is None:
                        break
                    pending.add(pool.submit(trial, job, sweep.engine, sweep.time_limit, sweep.puzzle))
                if not pending:
                    break
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    write(future.result())
                    n += 1
                    if progress:
                        progress(n, len(todo), time.perf_counter() - started)
    return len(todo)


def summary(path: str) -> str:
    """Per size, density and hidden fraction: the fraction unique / multiple / none with its 95 %
    interval, and the median time; read from the CSV, a row at a time."""
    groups: dict[tuple, dict] = {}
    with open(path, encoding="utf-8") as f:
        next(f)  # the parameters
        for row in csv.DictReader(f):
            g = groups.setdefault((int(row["rows"]), int(row["cols"]), float(row["p"]), float(row["hidden"])),
                                  {"n": 0, "unique": 0, "multiple": 0, "none": 0, "undecided": 0, "seconds": array("d")})
            g["n"] += 1
            g[row["verdict"]] = g.get(row["verdict"], 0) + 1
            g["seconds"].append(float(row["seconds"]))
    lines = ["| size | P % | hidden | trials | unique | multiple | none | undecided | median time |", "|---|---|---|---|---|---|---|---|---|"]
    for (rows, cols, p, h), g in sorted(groups.items()):
        cells = []
        for verdict in ("unique", "multiple", "none"):
            low, high = wilson(g[verdict], g["n"])
            cells.append(f"{g[verdict] / g['n']:.1%} ({low:.1%}-{high:.1%})")
        lines.append(f"| {rows}x{cols} | {p:g} | {h:g} | {g['n']} | {' | '.join(cells)} | {g['undecided']} | "
                     f"{statistics.median(g['seconds']):.4f} s |")
    return "\n".join(lines) + "\n"


def plot(path: str, picture: str) -> None:
    """Draw the sweep in `path`: the fraction of fields with more than one solution against the
    number of cells (one line per density and hidden fraction, points coloured by rows mod 3),
    and the median time per trial against the number of cells. Needs matplotlib."""
    from .io.pictures import _pyplot, _save

    plt = _pyplot()
    groups: dict[tuple, dict] = {}
    per_engine: dict[tuple[str, int], array] = {}  # (engine, cells) -> its seconds in every trial
    with open(path, encoding="utf-8") as f:
        next(f)
        for row in csv.DictReader(f):
            key = (float(row["p"]), float(row["hidden"]), int(row["rows"]), int(row["cols"]))
            g = groups.setdefault(key, {"n": 0, "multiple": 0, "seconds": array("d")})
            g["n"] += 1
            g["multiple"] += row["verdict"] == "multiple"
            g["seconds"].append(float(row["seconds"]))
            for name, seconds in engine_seconds(row.get("engines") or "").items():
                per_engine.setdefault((name, key[2] * key[3]), array("d")).append(seconds)
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    colours = {0: "tab:blue", 1: "tab:green", 2: "tab:red"}
    for p, h in sorted({(k[0], k[1]) for k in groups}):
        keys = sorted((k for k in groups if k[:2] == (p, h)), key=lambda k: k[2] * k[3])
        cells = [k[2] * k[3] for k in keys]
        left.plot(cells, [groups[k]["multiple"] / groups[k]["n"] for k in keys], color="grey", linewidth=0.8,
                  label=f"P {p:g} %, hidden {h:g}")
        left.scatter(cells, [groups[k]["multiple"] / groups[k]["n"] for k in keys], c=[colours[k[2] % 3] for k in keys], zorder=3)
        right.plot(cells, [statistics.median(groups[k]["seconds"]) for k in keys], marker="o",
                   label=f"whole trial, P {p:g} %, hidden {h:g}")
    for name in sorted({name for name, _ in per_engine}):
        sizes = sorted(c for n, c in per_engine if n == name)
        right.plot(sizes, [statistics.median(per_engine[name, c]) for c in sizes], linestyle="--", marker=".",
                   label=f"{name} (all P)")
    left.set_xlabel("cells")
    left.set_ylabel("fraction with several solutions")
    left.set_title("ambiguity (points: rows mod 3 = 0 blue, 1 green, 2 red)", fontsize=9)
    left.legend(fontsize=7)
    right.set_xlabel("cells")
    right.set_ylabel("median seconds")
    right.set_yscale("log")
    right.set_title("time per trial and per engine", fontsize=9)
    right.legend(fontsize=7)
    fig.tight_layout()
    _save(plt, fig, picture)


def write_parquet(path: str, parquet: str, batch_rows: int = 65_536) -> int:
    # batch_rows sets pyarrow's block size: about that many rows a batch, at 128 bytes a row
    """The sweep's rows in `path` (CSV) as a Parquet file, read and written by pyarrow batch by
    batch (memory does not grow with the sweep), written safely (`io.files.write_atomically`);
    how many rows. Empty cells are null. Needs pyarrow."""
    try:
        import pyarrow as pa
        import pyarrow.csv as pcsv
        import pyarrow.parquet as pq
    except ImportError:
        raise ValueError("--parquet needs pyarrow: pip install 'recon[parquet]'") from None
    from .io.files import write_atomically

    types = {"rows": pa.int32(), "cols": pa.int32(), "p": pa.float64(), "hidden": pa.float64(), "trial": pa.int64(),
             "seed": pa.int64(), "verdict": pa.string(), "solution_count": pa.int64(), "count_exact": pa.bool_(),
             "seconds": pa.float64(), "clues": pa.int64(), "grade": pa.string(), "engines": pa.string()}
    rows = [0]

    def write(where: str) -> None:
        reader = pcsv.open_csv(path, read_options=pcsv.ReadOptions(skip_rows=1, block_size=batch_rows * 128),
                               convert_options=pcsv.ConvertOptions(column_types=types, strings_can_be_null=True))
        with pq.ParquetWriter(where, reader.schema) as writer:
            for batch in reader:  # the first line, the sweep's parameters, is skipped
                writer.write_batch(batch)
                rows[0] += batch.num_rows

    write_atomically(parquet, write)
    return rows[0]
