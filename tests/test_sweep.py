"""`recon sweep`: one CSV row per trial, reproducible from its seed alone, the same rows whatever
the number of workers, resumable after a kill (a half-written line cut), refused on another
sweep's file, and a summary whose fractions are those of the rows."""

from __future__ import annotations

import csv
import os
import signal

import numpy as np
import pytest

import recon
from recon.sweep import Sweep, done_trials, engine_seconds, run, trial, write_parquet
from test_classic import run as cli


def rows_of(path):
    with open(path) as f:
        next(f)
        return list(csv.DictReader(f))


def without_time(rows):
    """The rows less their times (the engines that ran are kept, by name)."""
    return sorted(tuple(v if k != "engines" else tuple(engine_seconds(v)) for k, v in r.items() if k != "seconds")
                  for r in rows)


def test_rows_are_reproducible_from_their_seed_and_right(tmp_path):
    out = tmp_path / "s.csv"
    sweep = Sweep(((3, 4), (1, 7), (7, 1), (2, 6)), (30.0,), (0.0, 0.4), trials=6, seed=3)
    assert run(sweep, str(out), workers=1) == 4 * 2 * 6
    for r in rows_of(out):
        rows, cols, p, h, seed = int(r["rows"]), int(r["cols"]), float(r["p"]), float(r["hidden"]), int(r["seed"])
        rng = np.random.default_rng(seed)
        field = recon.random_field(rows, cols, p, rng)
        known = np.ones(field.shape, dtype=bool)
        if h:
            known.flat[rng.choice(field.size, size=round(h * field.size), replace=False)] = False
        # the oracle: brute force over every field of the shape
        cells = rows * cols
        count = 0
        for bits in range(1 << cells):
            f = np.array([(bits >> k) & 1 for k in range(cells)], dtype=bool).reshape(rows, cols)
            count += bool((recon.status(f)[known] == recon.status(field)[known]).all())
        assert r["verdict"] == ("unique" if count == 1 else "multiple"), r
        assert int(r["solution_count"]) == min(count, 3) or (count >= 2 and int(r["solution_count"]) >= 2)


def test_the_same_rows_with_any_number_of_workers(tmp_path):
    sweep = Sweep(((5, 5), (8, 8)), (10.0, 50.0), trials=15, seed=1)
    run(sweep, str(tmp_path / "one.csv"), workers=1)
    run(sweep, str(tmp_path / "two.csv"), workers=2)
    assert without_time(rows_of(tmp_path / "one.csv")) == without_time(rows_of(tmp_path / "two.csv"))


def test_a_killed_sweep_resumes_without_losing_or_repeating_a_row(tmp_path):
    sweep = Sweep(((5, 5), (6, 6)), (30.0,), trials=20, seed=2)
    whole = tmp_path / "whole.csv"
    run(sweep, str(whole), workers=1)
    cut = tmp_path / "cut.csv"
    text = whole.read_text()
    cut.write_text(text[: len(text) * 2 // 3 - 7])  # killed mid-line
    kept = len(done_trials(str(cut), sweep))
    assert 0 < kept < 40 and cut.read_text().endswith("\n")  # the half line is gone
    assert len(rows_of(cut)) == kept
    assert run(sweep, str(cut), workers=2) == 40 - kept
    rows = rows_of(cut)
    assert len(rows) == 40 and without_time(rows) == without_time(rows_of(whole))
    assert run(sweep, str(cut), workers=1) == 0  # nothing left to do


def test_the_command_line_summary_and_bad_input(tmp_path):
    out = tmp_path / "s.csv"
    code, text, err = cli("sweep", "--sizes", "5x5,6x6", "--densities", "30", "--trials", "40", "--out", str(out), "--workers", "1")
    rows = rows_of(out)
    ambiguous = sum(r["verdict"] == "multiple" for r in rows if r["rows"] == "5") / 40
    assert code == 0 and f"| 5x5 | 30 | 0 | 40 | {1 - ambiguous:.1%}" in text and "| 6x6 | 30 | 0 | 40 | 100.0%" in text
    assert "40" in err or "80 trial(s) run" in err
    for argv, words in [(["--sizes", ""], "size list is empty"), (["--sizes", "5x5", "--densities", "120"], "0 to 100"),
                        (["--sizes", "5x5", "--densities", "40"], "not a sweep of these parameters"),
                        (["--sizes", "5y5"], "expected RxC")]:
        code, _, err = cli("sweep", *argv, "--out", str(out))
        assert code == 2 and words in err, err
    code, _, _ = cli("sweep", "--rows", "3..4", "--trials", "2", "--out", str(tmp_path / "r.csv"), "--workers", "1")
    assert code == 0 and {(r["rows"], r["cols"]) for r in rows_of(tmp_path / "r.csv")} == {("3", "3"), ("4", "4")}


def test_puzzle_trials_record_clues_and_grade(tmp_path):
    out = tmp_path / "p.csv"
    run(Sweep(((6, 6),), (50.0,), trials=3, seed=1, puzzle="advanced"), str(out), workers=1)
    rows = rows_of(out)
    assert all(r["verdict"] == "unique" and r["grade"] == "advanced" and 0 < int(r["clues"]) < 36 for r in rows)
    assert trial((6, 6, 50.0, 0.0, 0, int(rows[0]["seed"])), puzzle="advanced")["clues"] == int(rows[0]["clues"])


def test_a_size_without_puzzles_of_the_grade_counts_its_trials_undecided(tmp_path):
    """No search puzzle was found on a strip one cell wide (`recon generate` exits 4 there), and
    the sweep stopped with exit 70, losing the other sizes' rows. Now such a trial is a row of
    its own, undecided, with no engine run, and the summary counts it."""
    out = tmp_path / "p.csv"
    code, printed, err = cli("sweep", "--sizes", "1x12,5x5", "--densities", "50", "--puzzle", "--difficulty", "search",
                             "--trials", "2", "--seed", "1", "--out", str(out))
    assert code == 0, err
    rows = rows_of(out)
    strip = [r for r in rows if r["rows"] == "1"]
    assert len(strip) == 2 and all(r["verdict"] == "undecided" and r["engines"] == "" and r["clues"] == "" for r in strip)
    assert all(r["verdict"] == "unique" and r["grade"] == "search" for r in rows if r["rows"] == "5")
    assert "| 1x12 | 50 | 0 | 2 | 0.0% (0.0%-65.8%) | 0.0% (0.0%-65.8%) | 0.0% (0.0%-65.8%) | 2 |" in err + printed


@pytest.mark.filterwarnings("ignore")
def test_a_dask_cluster_gives_the_same_rows(tmp_path):
    """On a LocalCluster of two worker processes started by the test: the rows of the local pool."""
    distributed = pytest.importorskip("distributed")
    sweep = Sweep(((5, 5), (2, 7)), (30.0,), (0.0, 0.3), trials=12, seed=4)
    run(sweep, str(tmp_path / "local.csv"), workers=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        ran = run(sweep, str(tmp_path / "dask.csv"), dask=cluster.scheduler_address)
        code, text, _ = cli("sweep", "--sizes", "5x5,2x7", "--densities", "30", "--hidden", "0,0.3", "--trials", "12",
                            "--seed", "4", "--out", str(tmp_path / "dask.csv"), "--dask", cluster.scheduler_address)
    assert ran == 48 and code == 0 and "| 5x5 | 30 | 0 | 12 |" in text
    assert without_time(rows_of(tmp_path / "local.csv")) == without_time(rows_of(tmp_path / "dask.csv"))


def test_an_unreachable_dask_scheduler_is_named(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    from recon import sweep as sweeping

    monkeypatch.setattr(sweeping, "DASK_CONNECT_SECONDS", 1)
    code, _, err = cli("sweep", "--sizes", "5x5", "--out", str(tmp_path / "s.csv"), "--dask", "tcp://127.0.0.1:9")
    assert code == 2 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9 within 1 s" in err
    assert not (tmp_path / "s.csv").exists()  # refused before the output is begun


def test_the_plot(tmp_path):
    pytest.importorskip("matplotlib")
    picture = tmp_path / "s.svg"
    code, _, err = cli("sweep", "--rows", "4..6", "--trials", "5", "--out", str(tmp_path / "s.csv"), "--workers", "1",
                       "--plot", str(picture))
    text = picture.read_text()
    assert code == 0 and "fraction with several solutions" in text and "median seconds" in text
    engines = {name for r in rows_of(tmp_path / "s.csv") for name in engine_seconds(r["engines"])}
    assert engines and all(f"{name} (all P)" in text for name in engines)  # a line per engine
    code, _, err = cli("sweep", "--rows", "4..6", "--trials", "5", "--out", str(tmp_path / "s.csv"), "--plot", "x.jpg")
    assert code == 2 and "--plot must name" in err


def test_dask_without_dask_installed_says_how_to_install_it(tmp_path, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_dask(name, *args, **kwargs):
        if name == "distributed" or name.startswith(("distributed.", "dask")):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_dask)
    code, _, err = cli("sweep", "--sizes", "5x5", "--trials", "2", "--out", str(tmp_path / "s.csv"), "--dask", "tcp://127.0.0.1:9")
    assert code == 2 and "pip install 'recon[dask]'" in err and not (tmp_path / "s.csv").exists()


def test_each_row_says_which_engines_ran_and_how_long(tmp_path):
    out = tmp_path / "s.csv"
    run(Sweep(((5, 5), (1, 6), (6, 1)), (30.0,), (0.0, 0.5), trials=5, seed=6), str(out), workers=1)
    for r in rows_of(out):
        engines = engine_seconds(r["engines"])
        assert engines and all(t >= 0 for t in engines.values())
        assert sum(engines.values()) <= float(r["seconds"]) + 1e-3  # within the trial's own time
        full = float(r["hidden"]) == 0
        assert ("algebra" in engines) == full  # algebra leads on a full status, never on a partial one


def test_parquet_holds_the_rows_of_the_csv(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    out, parquet = tmp_path / "s.csv", tmp_path / "s.parquet"
    code, _, err = cli("sweep", "--sizes", "4x4,2x5", "--densities", "20,60", "--hidden", "0,0.5", "--trials", "7",
                       "--out", str(out), "--workers", "1", "--parquet", str(parquet))
    assert code == 0 and "wrote 56 row(s)" in err
    table = pq.read_table(parquet).to_pylist()
    rows = rows_of(out)
    assert len(table) == len(rows) == 56
    for got, want in zip(table, rows):
        assert got["seed"] == int(want["seed"]) and got["verdict"] == want["verdict"]
        assert got["solution_count"] == int(want["solution_count"]) and got["count_exact"] == (want["count_exact"] == "True")
        assert got["seconds"] == float(want["seconds"]) and got["engines"] == want["engines"]
        assert got["clues"] is None and (got["grade"] or "") == want["grade"]
    # small batches give the same file's rows
    assert write_parquet(str(out), str(tmp_path / "b.parquet"), batch_rows=5) == 56
    assert pq.read_table(tmp_path / "b.parquet").to_pylist() == table


def test_parquet_without_pyarrow_is_refused_before_the_sweep(tmp_path, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pyarrow" else real(name, *a))
    out = tmp_path / "s.csv"
    code, _, err = cli("sweep", "--sizes", "4x4", "--trials", "2", "--out", str(out), "--parquet", str(tmp_path / "s.parquet"))
    assert code == 2 and "pip install 'recon[parquet]'" in err and not out.exists()
    monkeypatch.undo()
    code, _, err = cli("sweep", "--sizes", "4x4", "--trials", "2", "--out", str(out), "--parquet", str(tmp_path / "no" / "s.parquet"))
    assert code == 2 and "cannot write" in err


def test_a_file_with_other_columns_is_refused(tmp_path):
    sweep = Sweep(((4, 4),), (30.0,), trials=3, seed=1)
    out = tmp_path / "s.csv"
    run(sweep, str(out), workers=1)
    lines = out.read_text().splitlines()
    out.write_text("\n".join([lines[0], lines[1].rsplit(",", 1)[0]] + [x.rsplit(",", 1)[0] for x in lines[2:]]) + "\n")
    with pytest.raises(ValueError, match="other columns"):
        done_trials(str(out), sweep)


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_stopped_sweep_says_where_its_rows_are_and_the_same_command_finishes_it(tmp_path, monkeypatch, signum, code):
    """Ctrl-C or SIGTERM during trial 11: the 10 finished are rows already, the message says so,
    and the same command runs the other 14 and no row twice."""
    import recon.sweep as sweep_module

    real, started = sweep_module.trial, []

    def stopped_at_eleven(*args):
        started.append(args)
        if len(started) == 11:
            os.kill(os.getpid(), signum)  # a real signal, raised at the next instruction
        return real(*args)

    out = tmp_path / "s.csv"
    argv = ["sweep", "--sizes", "4x4,2x7", "--trials", "12", "--out", str(out), "--workers", "1"]
    monkeypatch.setattr(sweep_module, "trial", stopped_at_eleven)
    status, text, err = cli(*argv)
    assert status == code and text == "" and f"the trials finished are in {out}; the same command resumes" in err, err
    assert len(rows_of(out)) == 10
    monkeypatch.setattr(sweep_module, "trial", real)
    status, text, err = cli(*argv)
    rows = rows_of(out)
    assert status == 0 and "14 trial(s) run" in err and len(rows) == 24
    assert len({(r["rows"], r["cols"], r["trial"]) for r in rows}) == 24
