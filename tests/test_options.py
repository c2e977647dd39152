"""Behaviour chosen by explicit options: generation's Options and time limit, hybrid's trimmer,
the one union-find helper, the Grade order."""

from __future__ import annotations

import importlib
import io
import os
import subprocess
import sys

import numpy as np
import pytest
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from recon import compiled, make_problem, status
from recon.cli import main
from recon.compiled import jit
from recon.engines import hybrid
from recon.generation import GenerationFailed, GenerationTimeout, Options, generate_puzzle
from recon.model import Groups, components
from recon.result import Grade, TimeUp, Verdict


@pytest.mark.parametrize("bad, message", [
    ({"first_part": "middle"}, "first_part must be one of"),
    ({"certifier": "backtrack"}, "certifier must be"),
    ({"time_limit": 0}, "time_limit must be positive"),
    ({"time_limit": -1.5}, "time_limit must be positive"),
    ({"order_tile": 0}, "order_tile must be a whole number of at least 1"),
    ({"order_tile": 2.5}, "order_tile must be a whole number of at least 1"),
])
def test_options_refuse_what_they_cannot_do(bad, message):
    with pytest.raises(ValueError, match=message):
        Options(**bad)


@pytest.mark.parametrize("difficulty, shape", [("advanced", (30, 37)), ("elimination", (37, 30)), ("search", (25, 31))])
def test_generation_stops_at_its_time_limit(difficulty, shape):
    """A time limit far below what the puzzle needs ends the generation with GenerationTimeout,
    which is both a GenerationFailed and the one timeout signal, TimeUp."""
    with pytest.raises(GenerationTimeout, match="time limit of 0.02 s") as raised:
        generate_puzzle(*shape, 40, np.random.default_rng(1), difficulty=difficulty, options=Options(time_limit=0.02))
    assert isinstance(raised.value, GenerationFailed) and isinstance(raised.value, TimeUp)


@pytest.mark.parametrize("shape", [(1, 14), (14, 1), (6, 10)])
def test_a_time_limit_that_suffices_changes_no_puzzle(shape):
    rng = lambda: np.random.default_rng(7)  # noqa: E731
    plain = generate_puzzle(*shape, 50, rng(), difficulty="basic")
    timed = generate_puzzle(*shape, 50, rng(), difficulty="basic", options=Options(time_limit=60))
    assert np.array_equal(plain.known, timed.known) and np.array_equal(plain.field, timed.field)


def test_cli_generate_time_limit_exits_4_with_the_reason():
    out, err = io.StringIO(), io.StringIO()
    code = main(["generate", "40", "40", "50", "--seed", "1", "--puzzle", "--difficulty", "elimination",
                 "--time-limit", "0.05"], stdout=out, stderr=err)
    assert code == 4 and out.getvalue() == ""
    assert "no puzzle within the time limit of 0.05 s" in err.getvalue()


def test_hybrid_answers_the_same_before_and_after_the_kernels_load():
    """Hybrid's trimmer is its compiled_trim argument, not whether this process has loaded numba's
    kernels: a library call gives the same result after a generation has run."""
    pytest.importorskip("numba")
    rng = np.random.default_rng(4)
    problems = [make_problem(status(rng.random((9, 11)) < 0.5), rng.random((9, 11)) < 0.6) for _ in range(12)]

    def answers():
        return [(r.verdict, r.grade, r.stats["trimmed"], [s.tobytes() for s in r.solutions])
                for r in (hybrid.solve(p, limit=3) for p in problems)]

    before = answers()
    compiled.load()
    assert answers() == before
    assert [(r.verdict, r.grade) for r in (hybrid.solve(p, limit=3, compiled_trim=True) for p in problems)] == [
        (v, g) for v, g, _, _ in before]


@pytest.mark.parametrize("shape", [(1, 30), (30, 1), (2, 15), (9, 11)])
def test_solve_chooses_hybrids_trimmer_by_its_argument_and_the_same_answer_either_way(shape):
    """solve's compiled_trim goes down to hybrid: True and False as asked, None as
    `hybrid.compiled_pays` says (explicit bounds: clues and cells; the kernels at hand). The
    answer does not depend on the choice."""
    pytest.importorskip("numba")
    from recon import solve

    compiled.load()
    rng = np.random.default_rng(sum(shape) + 40)
    answers = set()
    for _ in range(12):
        problem = make_problem(status(rng.random(shape) < 0.5), rng.random(shape) < 0.6)
        clues = int(problem.known.sum())
        assert hybrid.compiled_pays(problem, min_clues=clues, max_cells=problem.cells)
        assert not hybrid.compiled_pays(problem, min_clues=clues + 1)
        assert not hybrid.compiled_pays(problem, min_clues=0, max_cells=problem.cells - 1)
        assert not hybrid.compiled_pays(problem)  # small: Python is faster than loading
        got = {}
        for choice in (None, True, False):
            result = solve(problem, engine="hybrid", max_solutions=3, compiled_trim=choice)
            got[choice] = (result.verdict, result.grade, [s.tobytes() for s in result.solutions])
            trimmer = result.engines["hybrid"].stats.get("trimmer")
            if trimmer is not None:  # (trimming ran; on clues that clash the Python trimmer names them)
                assert trimmer == ("compiled" if choice else "python") or choice and result.verdict is Verdict.NONE
                answers.add(trimmer)
        assert got[None] == got[True] == got[False]
    assert answers == {"compiled", "python"}
    for bad in ("yes", 1):
        with pytest.raises(ValueError, match="compiled_trim"):
            solve(np.ones((2, 2), dtype=int), compiled_trim=bad)


def test_the_trim_engine_follows_case_splits_compiled_as_its_option_says(monkeypatch):
    """trim.split_probe: False, none; True, compiled from the first split; None, from the
    COMPILED_AFTER_SPLITS-th where the kernels are cached or loaded, else none; without numba,
    none. Before its turn the probe answers None, so that the trimmer follows the ways itself;
    then the kernel's answer."""
    from recon.engines import trim

    for available, ready, expected in ((True, True, (None, 0, trim.COMPILED_AFTER_SPLITS)),
                                       (True, False, (None, 0, None)), (False, True, (None, None, None))):
        monkeypatch.setattr(compiled, "AVAILABLE", available)
        monkeypatch.setattr(compiled, "cached", lambda: ready)
        monkeypatch.setattr(compiled, "is_loaded", lambda: False)
        probes = [trim.split_probe(choice) for choice in (False, True, None)]
        assert tuple(probe and probe.after for probe in probes) == expected
    monkeypatch.undo()
    pytest.importorskip("numba")
    split = ((1, 3), [("a", 0, 0, 0b111, 1), ("b", 0, 0, 0b011, 1)], [0, 1, 2], [0, 1, 2], 1)
    probe = trim._SplitProbe(2)
    assert [probe(*split) for _ in range(3)] == [None, None, compiled.split_ways(*split)]
    # a: one mine among three cells; b: one among the first two. Splitting a, the mine in the
    # first or second cell holds (the third empty), in the third it leaves b none: three ways, two hold
    assert compiled.split_ways(*split) == (3, 2, {2: 0})


@pytest.mark.parametrize("items, links", [(10, 4), (40, 25), (200, 150)])
def test_groups_are_scipys_connected_components(items, links):
    rng = np.random.default_rng(items)
    joins = [rng.choice(items, size=int(rng.integers(1, 4)), replace=False).tolist() for _ in range(links)]
    groups = Groups(range(items))
    for join in joins:
        groups.join(join)
    pairs = [(join[0], x) for join in joins for x in join[1:]] or [(0, 0)]
    a, b = zip(*pairs)
    graph = coo_matrix((np.ones(len(a)), (a, b)), shape=(items, items))
    count, labels = connected_components(graph, directed=False)
    members = groups.members(range(items))
    assert len(members) == count
    for group in members.values():
        assert len({labels[x] for x in group}) == 1
    assert sorted(x for group in members.values() for x in group) == list(range(items))


@pytest.mark.parametrize("items, links", [(1, 1), (10, 4), (40, 25), (200, 150), (30, 0)])
def test_components_joins_what_groups_joins(items, links):
    """`components` (numpy, all at once) puts two owners in one group exactly when `Groups`,
    joining each owner's items one owner at a time, does; items need not be small or dense, and
    an owner with no item is alone."""
    rng = np.random.default_rng(items + links)
    joins = [rng.choice(items, size=int(rng.integers(0, min(items, 3) + 1)), replace=False).tolist()
             for _ in range(links)]
    groups = Groups()
    for join in joins:
        groups.join(join)
    owner = np.repeat(np.arange(links), [len(join) for join in joins])
    item = np.array([x for join in joins for x in join], dtype=np.int64) * 1_000_003 + 7
    label = components(owner, item, links)
    assert label.shape == (links,)
    roots = [groups.find(join[0]) if join else ("alone", k) for k, join in enumerate(joins)]
    for a in range(links):
        for b in range(links):
            assert (label[a] == label[b]) == (roots[a] == roots[b]), (a, b)


@pytest.mark.parametrize("order", ["along", "reversed", "shuffled"])
def test_components_joins_a_long_chain(order):
    """A chain of 3,000 owners, each sharing an item with the next, numbered along it, against
    it or at random: one group, and two once a link is cut (one round is not enough)."""
    items = np.arange(3001)
    if order == "reversed":
        items = items[::-1]
    elif order == "shuffled":
        items = np.random.default_rng(1).permutation(items)
    owner = np.repeat(np.arange(3000), 2)
    item = items[np.c_[np.arange(3000), np.arange(1, 3001)].ravel()]
    assert len(set(components(owner, item, 3000).tolist())) == 1
    cut = item.copy()
    cut[2 * 1500 + 1] = 10**6  # owner 1500 no longer shares its second item with owner 1501
    assert len(set(components(owner, cut, 3000).tolist())) == 2


def test_grades_are_ordered_weakest_first():
    assert [g.value for g in Grade] == ["basic", "advanced", "elimination", "search"]
    assert Grade.BASIC.weaker is None and Grade.SEARCH.weaker is Grade.ELIMINATION
    assert Grade.ELIMINATION.weaker is Grade.ADVANCED and Grade.ADVANCED.weaker is Grade.BASIC
    assert f"{Grade.ADVANCED}" == "advanced" and Grade("search") is Grade.SEARCH


def test_compiling_the_kernels_is_announced_off_a_terminal_and_loading_them_is_not(tmp_path):
    """Off a terminal the progress line is silent; compiling numba's kernels (a cold cache) is said
    once anyway, and loading them from a warm cache is not said at all (a fresh process, its
    stderr a pipe)."""
    import subprocess
    import sys

    from recon import compiled

    if not compiled.AVAILABLE:
        pytest.skip("needs numba")
    cold = not compiled.cached()
    run = subprocess.run([sys.executable, "-m", "recon", "generate", "35", "35", "50", "--puzzle", "--difficulty", "advanced",
                          "--seed", "2", "--out", str(tmp_path / "p.txt")], capture_output=True, text=True)
    lines = run.stderr.splitlines()
    assert run.returncode == 0 and sum("compiling numba's kernels" in line for line in lines) == cold, lines
    assert all(line.startswith(("recon: compiling numba", "puzzle 35x35")) for line in lines), lines
    cold = not compiled.cached()  # that run may have left some kernels uncompiled: a 35x35 puzzle needs not all
    again = subprocess.run(run.args, capture_output=True, text=True).stderr.splitlines()
    assert sum("compiling numba's kernels" in line for line in again) == cold, again


@pytest.mark.skipif(not compiled.AVAILABLE, reason="needs numba")
def test_loading_the_kernels_leaves_blas_until_a_kernel_needs_it():
    """numba's array functions import scipy.linalg when they are imported, to probe for BLAS;
    loading the kernels answers that probe without it, and numba's np.dot and np.correlate still
    compile and agree with numpy's (np.dot then imports BLAS itself). A fresh process."""
    code = """
import sys
import numba
import numpy as np
from recon.compiled import jit

jit.load()
numba.njit(lambda x: x + 1)(1)  # the first compile sets numba's target up, array functions too
assert "numba.np.arraymath" in sys.modules and "scipy.linalg" not in sys.modules
a, b = np.arange(5.0), np.array([0.5, -1.0, 2.0, 3.0, 0.25])
assert numba.njit(lambda a, b: np.dot(a, b))(a, b) == np.dot(a, b)
assert np.array_equal(numba.njit(lambda a, b: np.correlate(a, b))(a, b), np.correlate(a, b))
assert "scipy.linalg" in sys.modules
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr


def test_small_grids_run_in_python_until_numbas_cache_holds_the_kernels(monkeypatch):
    """compiled=None decides per grid: below compile_min_cells, compiled only when numba's cache
    already holds the kernels (a first compile costs more than Python takes there), and for
    advanced and elimination never below cached_min_cells (loading them does); an explicit
    choice stands. The puzzles are the same either way."""
    if not compiled.AVAILABLE:
        pytest.skip("needs numba")
    monkeypatch.setattr(compiled, "cached", lambda: False)
    assert Options().for_grid(400).compiled is False and Options().for_grid(1000).compiled is True
    assert Options(compile_min_cells=100).for_grid(400).compiled is True
    assert Options(compiled=True).for_grid(4).compiled is True and Options(compiled=False).for_grid(10**6).compiled is False
    monkeypatch.setattr(compiled, "cached", lambda: True)
    assert Options().for_grid(400).compiled is True and Options().for_grid(4, Grade.SEARCH).compiled is True
    assert Options().for_grid(169, Grade.ADVANCED).compiled is False and Options().for_grid(170, Grade.ADVANCED).compiled is True
    assert Options().for_grid(79, Grade.ELIMINATION).compiled is False and Options().for_grid(80, Grade.ELIMINATION).compiled is True
    assert Options(compiled=True).for_grid(4, Grade.ELIMINATION).compiled is True
    for shape, grade in [((12, 13), "elimination"), ((4, 25), "elimination"), ((25, 4), "elimination"),
                         ((1, 30), "advanced"), ((30, 1), "advanced")]:
        made = {flag: generate_puzzle(*shape, 50, np.random.default_rng(3), difficulty=grade,
                                      options=Options(compiled=flag)).known for flag in (False, True)}
        assert (made[False] == made[True]).all()


def _cache_dir_in(tmp_path, monkeypatch):
    """numba's cache directory for recon.compiled under NUMBA_CACHE_DIR=tmp_path."""
    import hashlib
    from pathlib import Path

    here = Path(os.path.abspath(jit.__file__)).parent
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    where = tmp_path / f"{here.name}_{hashlib.sha1(str(here).encode()).hexdigest()}"
    assert jit.cache_dir() == where
    return where


def test_the_cache_check_reads_numbas_index_files_and_the_stamp(tmp_path, monkeypatch):
    """`compiled.cached()` against a cache directory we build: empty, every module but one, every
    module without the stamp of these sources, with it, and with another stamp."""
    where = _cache_dir_in(tmp_path, monkeypatch)
    assert not compiled.cached()
    where.mkdir()
    tag = f"py{sys.version_info.major}{sys.version_info.minor}"
    (where / jit.STAMP_FILE).write_text(jit.sources_stamp())
    for name in jit.KERNEL_MODULES[:-1]:
        (where / f"{name}._kernel-10.{tag}.nbi").write_bytes(b"")
    assert not compiled.cached()  # one module missing
    (where / f"{jit.KERNEL_MODULES[-1]}._kernel-10.{tag}.nbi").write_bytes(b"")
    assert compiled.cached()
    (where / jit.STAMP_FILE).write_text("compiled from other sources")
    assert not compiled.cached()
    (where / jit.STAMP_FILE).unlink()
    assert not compiled.cached()


def test_a_stale_cache_is_emptied_before_numba_can_load_it(tmp_path, monkeypatch):
    """numba checks a cached kernel only against its own file, though it holds the code of the
    kernels it calls from other files: with another stamp, every kernel entry goes (others stay)
    and the stamp is written; with this one nothing goes; a directory that cannot be cleaned is
    reported, so that load compiles without the cache."""
    where = _cache_dir_in(tmp_path, monkeypatch)
    where.mkdir()

    def entries():
        made = [where / f"{name}._kernel-10.py311.{kind}" for name in jit.KERNEL_MODULES for kind in ("nbi", "1.nbc")]
        for path in made:
            path.write_bytes(b"")
        return made

    stale = entries()
    other = where / "elsewhere._f-3.py311.nbi"
    other.write_bytes(b"")
    (where / jit.STAMP_FILE).write_text("compiled from other sources")
    assert jit.drop_stale_cache(where)
    assert not any(path.exists() for path in stale) and other.exists()
    assert (where / jit.STAMP_FILE).read_text() == jit.sources_stamp()
    fresh = entries()
    assert jit.drop_stale_cache(where) and all(path.exists() for path in fresh)
    (where / jit.STAMP_FILE).unlink()
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(PermissionError("read-only")))
    assert not jit.drop_stale_cache(where)


def _imported_by_kernel_modules() -> set[str]:
    """The recon files the kernel modules import names from (`from ..model import OPEN`, `from
    ..rules import trim`), read off their import statements, with the kernel modules and jit."""
    import ast
    from pathlib import Path

    here = Path(os.path.abspath(jit.__file__)).parent
    files = {here / f"{name}.py" for name in (*jit.KERNEL_MODULES, "jit")}
    for name in jit.KERNEL_MODULES:
        for node in ast.walk(ast.parse((here / f"{name}.py").read_text())):
            if isinstance(node, ast.ImportFrom) and node.level >= 1:
                base = here.parents[node.level - 2] if node.level > 1 else here
                target = base.joinpath(*node.module.split(".")) if node.module else base
                files |= {target / f"{alias.name}.py" for alias in node.names if (target / f"{alias.name}.py").is_file()}
                files |= {path for path in (target.with_suffix(".py"), target / "__init__.py") if path.is_file()}
    return {str(path) for path in files}


def test_the_stamp_covers_every_file_a_kernel_reads_from(tmp_path, monkeypatch):
    """The stamped sources are the kernel modules and every recon module they import names from;
    each recon function, class or module a kernel names is defined in one of them; and an edit of
    any of them changes the stamp (so a cross-module edit empties the cache)."""
    import importlib
    import types

    for name in jit.KERNEL_MODULES:
        importlib.import_module(f"recon.compiled.{name}")
    stamped = {str(path) for path in jit.stamped_sources()}
    assert stamped == _imported_by_kernel_modules()
    for kernel in jit._KERNELS:
        for name in kernel.__code__.co_names:
            value = kernel.__globals__.get(name)
            if isinstance(value, types.ModuleType):
                origin = getattr(value, "__file__", None)
            else:
                module = getattr(value, "__module__", None) if isinstance(value, (types.FunctionType, type)) else None
                origin = getattr(sys.modules.get(module), "__file__", None) if module else None
            if origin and os.path.abspath(origin).startswith(os.path.dirname(os.path.dirname(jit.__file__))):
                assert os.path.abspath(origin) in stamped, (kernel.__name__, name, origin)
    assert {"elimination.py", "pairwise.py", "search.py", "trim.py", "model.py", "closure.py"} <= {
        os.path.basename(path) for path in stamped}
    copies = []
    for i, path in enumerate(jit.stamped_sources()):
        copies.append(tmp_path / f"{i}_{path.name}")
        copies[-1].write_bytes(path.read_bytes())
    monkeypatch.setattr(jit, "stamped_sources", lambda: copies)
    stamps = {jit.sources_stamp()}
    for copy in copies:
        copy.write_bytes(copy.read_bytes() + b"# an edit\n")
        stamps.add(jit.sources_stamp())
    assert len(stamps) == len(copies) + 1


@pytest.mark.slow
def test_warmup_fills_numbas_cache():
    out, err = io.StringIO(), io.StringIO()
    if not compiled.AVAILABLE:
        assert main(["warmup"], stdout=out, stderr=err) == 2 and "pip install 'recon[fast]'" in err.getvalue()
        return
    assert main(["warmup"], stdout=out, stderr=err) == 0
    assert "numba's cache" in out.getvalue() and compiled.cached()


@pytest.mark.slow
@pytest.mark.skipif(not compiled.AVAILABLE, reason="needs numba")
def test_warmup_compiles_every_kernel(tmp_path):
    # into an empty cache: a kernel that warmup's puzzles never reach would compile on a user's
    # first large puzzle instead (the union-find of too large groups did, 1.6 s at 100x100)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    run = subprocess.run([sys.executable, "-m", "recon", "warmup"], env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    for module in jit.KERNEL_MODULES:
        importlib.import_module(f"recon.compiled.{module}")
    written = {p.name for p in tmp_path.rglob("*.nbi")}
    missing = sorted(f"{f.__module__}.{f.__name__}" for f in jit._KERNELS
                     if not any(name.startswith(f"{f.__module__.rsplit('.', 1)[1]}.{f.__name__}-") for name in written))
    assert not missing


def test_warmup_without_numba_says_how_to_install_it(monkeypatch):
    import recon.cli as cli

    monkeypatch.setattr(cli, "COMPILED_AVAILABLE", False)
    err = io.StringIO()
    assert main(["warmup"], stdout=io.StringIO(), stderr=err) == 2 and "pip install 'recon[fast]'" in err.getvalue()


@pytest.mark.skipif(not compiled.AVAILABLE, reason="needs numba")
@pytest.mark.parametrize("difficulty, shape", [("advanced", (24, 27)), ("elimination", (27, 24))])
def test_only_the_options_that_order_the_clues_change_the_puzzle(difficulty, shape):
    """The Options docstring's promise: tuning constants change the time only; order_tile and
    pairwise_near change which clue is tried when, so the puzzle (still minimal, of the grade)."""
    def made(**options):
        puzzle = generate_puzzle(*shape, 50, np.random.default_rng(2), difficulty=difficulty,
                                 options=Options(compiled=True, **options))  # compiled: not Python's pace
        assert puzzle.grade.value == difficulty and puzzle.minimal
        return puzzle.known

    default = made()
    for speed in [{"pairwise_far": 7}, {"pairwise_given": (5, 11)}, {"sat_tiles": True}, {"sat_tiles": False},
                  {"local_radii": (3,)}, {"warm_block": 0}]:
        assert np.array_equal(made(**speed), default), speed
    for order in [{"order_tile": 1}, {"pairwise_near": 2}]:
        assert not np.array_equal(made(**order), default), order


@pytest.mark.parametrize("difficulty, flag, extra", [("advanced", "COMPILED_AVAILABLE", "numba"),
                                                     ("elimination", "COMPILED_AVAILABLE", "numba"),
                                                     ("search", "SAT_AVAILABLE", "python-sat")])
def test_generate_names_the_missing_extra_and_what_it_is_worth(monkeypatch, difficulty, flag, extra):
    """Without the extra a grade leans on, `recon generate` says which to install and how much
    faster it makes that grade (the numbers of bench_puzzle.py --extras-ab); with it, or on a grid
    too small to matter, it says nothing."""
    import recon.cli as cli

    installed = {"COMPILED_AVAILABLE": cli.COMPILED_AVAILABLE, "SAT_AVAILABLE": cli.SAT_AVAILABLE}

    def hint(rows, missing):
        for name, value in installed.items():
            monkeypatch.setattr(cli, name, value and not (missing and name == flag))
        err = io.StringIO()
        assert main(["generate", str(rows), "20", "50", "--puzzle", "--difficulty", difficulty, "--seed", "1"],
                    stdout=io.StringIO(), stderr=err) == 0
        return [line for line in err.getvalue().splitlines() if "is not installed" in line]

    shown = hint(20, missing=True)
    assert len(shown) == 1 and shown[0].startswith(f"({extra} is not installed")
    assert shown[0].endswith(f"{difficulty}-grade generation faster: {cli.EXTRA_HINTS[difficulty][2]})")
    assert hint(19, missing=True) == []  # under EXTRA_HINT_CELLS
    if all(installed.values()):
        assert hint(20, missing=False) == []
