"""Proofs a person can check: each elimination step's multipliers, added up by hand (here, by the
test, from the clues and the cells fixed before the step), give the equation it states; the
bounds of an overlap step hold on the board as it stands; a contradiction names the clue, its
value and the mines that break it."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from recon.cli import read_problem
from recon.model import window_cells
from test_classic import run


def cell(name: str) -> tuple[int, int]:
    r, c = name[1:].split("c")
    return int(r) - 1, int(c) - 1


def replay(problem, steps):
    """(the board before each step: 0, 1 or -1 open, per cell), step by step."""
    value = np.full(problem.shape, -1) if problem.fixed is None else problem.fixed.astype(int).copy()
    for step in steps:
        yield value.copy()
        for name, v in zip(step["cells"], step["values"]):
            value[cell(name)] = v


def as_it_stands(problem, value, name):
    """A clue's equation with the fixed cells substituted: ({cell: 1}, count)."""
    r, c = cell(name)
    window = window_cells(problem.shape, r, c)
    return ({x: 1 for x in window if value[x] == -1}, int(problem.clues[r, c]) - sum(1 for x in window if value[x] == 1))


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_elimination_multipliers_add_up_to_the_stated_equation(tmp_path, seed):
    path = tmp_path / "p.txt"
    code, _, _ = run("generate", "10", "10", "50", "--puzzle", "--difficulty", "elimination", "--seed", str(seed), "--out", str(path))
    problem = read_problem(str(path))
    code, out, _ = run("explain", str(path), "--json")
    steps = json.loads(out)["steps"]
    checked = 0
    derived: dict[str, tuple[set, int]] = {}  # e<k>: its cells and count when the subset rule made it

    def equation(value, name):
        if name.startswith("r"):
            return as_it_stands(problem, value, name)
        cells, count = derived[name]
        return {x: 1 for x in cells if value[x] == -1}, count - sum(1 for x in cells if value[x] == 1)

    for step, value in zip(steps, replay(problem, steps)):
        if step["rule"] == "subset":
            (small, cs), (big, cb) = (equation(value, n) for n in step["sources"])
            assert set(small) <= set(big)
            derived[step["derived"]] = (set(big) - set(small), cb - cs)
        if step["rule"] != "elimination":
            continue
        total: dict[tuple[int, int], int] = {}
        rhs = 0
        for k, name in step["combination"]:
            cells, count = equation(value, name)
            for x in cells:
                total[x] = total.get(x, 0) + k
            rhs += k * count
        total = {x: a for x, a in total.items() if a}
        m = step["divided_by"]
        want = {cell(n): m * a for a, n in step["equation"]["terms"]}
        assert total == want and rhs == m * step["equation"]["rhs"], step["text"]
        # the bound: the stated values are the only way for 0/1 cells to reach the right side
        terms = step["equation"]["terms"]
        for name, v in zip(step["cells"], step["values"]):
            a = next(a for a, n in terms if n == name)
            rest = [b for b, n in terms if n != name]
            low, high = sum(b for b in rest if b < 0), sum(b for b in rest if b > 0)
            target = step["equation"]["rhs"] - a * (1 - v)  # the other value
            assert not low <= target <= high, step["text"]
        checked += 1
    assert checked, "no elimination step to check"


def test_overlap_bounds_hold_on_the_board(tmp_path):
    path = tmp_path / "p.txt"
    run("generate", "12", "12", "45", "--puzzle", "--difficulty", "advanced", "--seed", "4", "--out", str(path))
    problem = read_problem(str(path))
    steps = json.loads(run("explain", str(path), "--json")[1])["steps"]
    seen = 0
    for step, value in zip(steps, replay(problem, steps)):
        if step["rule"] != "overlap" or not all(n.startswith("r") for n in step["sources"]):
            continue
        m = re.search(r"which hold (at least|at most) (\d+)", step["text"])
        (ca, a_cells), (cb, b_cells) = ((c, set(eq)) for eq, c in (as_it_stands(problem, value, n) for n in step["sources"]))
        shared = a_cells & b_cells
        low = max(0, ca - len(a_cells - shared), cb - len(b_cells - shared))
        high = min(len(shared), ca, cb)
        assert int(m.group(2)) == (low if m.group(1) == "at least" else high), step["text"]
        seen += 1
    assert seen


def test_a_contradiction_names_the_clue_its_value_and_the_mines(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("1*?\n*??\n")
    code, out, _ = run("explain", str(path), "--classic")
    assert code == 1 and "clue r1c1 = 1 is exceeded: 2 mine(s) around it: r1c2 (given), r2c1 (given)" in out
    path.write_text("011\n122\n123\n")  # r3c3 raised from 2: the reason names a clue beside it
    code, _, err = run("solve", str(path))
    assert code == 1 and re.search(r"clue r[23]c[23] = \d is exceeded: \d mine\(s\) around it: r\d+c\d+ \(step \d+\)", err), err


def test_explain_keeps_the_bounded_search_of_auto_and_adds_trimming(tmp_path):
    """explain ran auto's engines as a list to add trimming, which dropped auto's bound on
    hybrid's search: on a 50x50 search-grade puzzle it searched for minutes (solve took 0.2 s).
    Now solve(case_split=True) adds trimming itself: hybrid stops where trimming stalls, as under
    auto, and SAT decides."""
    pytest.importorskip("pysat")
    from recon import Verdict, solve

    path = tmp_path / "p.txt"
    code, _, _ = run("generate", "12", "12", "50", "--puzzle", "--difficulty", "search", "--seed", "1", "--out", str(path))
    assert code == 0
    problem = read_problem(str(path))
    plain = solve(problem)
    explained = solve(problem, case_split=True)
    assert list(explained.engines) == [*plain.engines, "trim"]
    assert explained.engines["hybrid"].verdict is plain.engines["hybrid"].verdict is Verdict.UNDECIDED
    assert explained.engines["hybrid"].stats["nodes"] == 0 and explained.verdict is Verdict.UNIQUE
    code, out, _ = run("explain", str(path), "--json")
    payload = json.loads(out)
    assert code == 0 and payload["engines"]["hybrid"]["verdict"] == "undecided" and payload["steps"]


@pytest.mark.parametrize("rows, cols, seed", [(12, 12, 1), (3, 30, 3), (30, 3, 4), (9, 14, 2)])
def test_the_case_splits_budget_cuts_the_same_proof_short(tmp_path, rows, cols, seed):
    """`ways` (explain --ways) bounds the ways case splits follow. With what the whole proof
    used it is the same proof; with fewer the proof is that proof's beginning, its cells agree
    with the one solution, and the stats and the text say the splits ran out; with none, no
    split at all."""
    pytest.importorskip("pysat")
    from recon import Verdict, solve
    from recon.engines import trim

    path = tmp_path / "p.txt"
    code, _, _ = run("generate", str(rows), str(cols), "45", "--puzzle", "--difficulty", "search", "--seed", str(seed),
                     "--out", str(path))
    problem = read_problem(str(path))
    whole = trim.solve(problem, cases=True, ways=10**6)
    used = whole.stats["ways"]
    assert code == 0 and whole.verdict is Verdict.UNIQUE and used > 0 and not whole.stats["out_of_ways"]
    answer = whole.solutions[0]
    texts = [step.text for step in whole.trace]
    same = trim.solve(problem, cases=True, ways=used)
    assert [step.text for step in same.trace] == texts and not same.stats["out_of_ways"]
    for budget in (0, used // 2, used - 1):
        short = trim.solve(problem, cases=True, ways=budget)
        assert short.verdict is Verdict.UNDECIDED and short.stats["out_of_ways"] and short.stats["ways"] <= budget
        assert [step.text for step in short.trace] == texts[: len(short.trace)]
        assert np.array_equal(short.partial[short.decided], answer[short.decided])
        assert budget or not any(step.rule == "case-split" for step in short.trace)
    code, out, _ = run("explain", str(path), "--ways", "0")
    assert code == 0 and "Its case splits ran out of ways (0 followed of 0): --ways N" in out
    code, out, _ = run("explain", str(path), "--ways", str(used))
    assert code == 0 and f"Trimming fixed all {rows * cols} cells: the field is unique (grade search)." in out
    assert solve(problem, case_split=True, case_ways=used).trace == whole.trace


def test_ways_is_checked(tmp_path, capsys):
    """--ways takes a whole number >= 0, and solve takes it only with --explain; the API says
    what it wants."""
    from recon import solve

    path = tmp_path / "p.txt"
    path.write_text("111\n111\n")
    for bad in ("-1", "x", "1.5"):
        code, _, err = run("explain", str(path), "--ways", bad)
        assert code == 2 and f"N must be a whole number >= 0, got '{bad}'" in capsys.readouterr().err + err
    code, _, err = run("solve", str(path), "--ways", "5")
    assert code == 2 and "give --explain too" in err
    code, _, _ = run("solve", str(path), "--explain", "--ways", "5")
    assert code == 3
    for bad in (-1, 2.5, True):
        with pytest.raises(ValueError, match="case_ways"):
            solve(read_problem(str(path)), case_split=True, case_ways=bad)


def test_the_api_takes_the_ways_too(tmp_path):
    """recon.explain(ways=N) follows at most N ways, as explain --ways does; a bad N is refused."""
    pytest.importorskip("pysat")
    import recon

    path = tmp_path / "p.txt"
    code, _, _ = run("generate", "12", "12", "45", "--puzzle", "--difficulty", "search", "--seed", "1", "--out", str(path))
    problem = read_problem(str(path))
    assert code == 0 and any(step.rule == "case-split" for step in recon.explain(problem))
    assert not any(step.rule == "case-split" for step in recon.explain(problem, ways=0))
    with pytest.raises(ValueError, match="ways must be"):
        recon.explain(problem, ways=-3)


def test_splits_stopped_by_the_time_limit_say_so(tmp_path):
    """A proof cut short by the time limit (the splits allowed every way) says so in its stats,
    which explain's text reads; the cells it fixed still agree with the one solution."""
    pytest.importorskip("pysat")
    from recon.cli import explanation
    from recon.engines import trim
    from recon import Verdict, solve

    path = tmp_path / "p.txt"
    code, _, _ = run("generate", "30", "3", "45", "--puzzle", "--difficulty", "search", "--seed", "4", "--out", str(path))
    problem = read_problem(str(path))
    whole = trim.solve(problem, cases=True, ways=10**6)
    cut = trim.solve(problem, cases=True, ways=10**6, time_limit=1e-9)
    assert code == 0 and whole.verdict is Verdict.UNIQUE and "timed_out" not in whole.stats
    assert cut.verdict is Verdict.UNDECIDED and cut.stats["timed_out"] and "time limit" in cut.reason
    assert np.array_equal(cut.partial[cut.decided], whole.solutions[0][cut.decided])
    result = solve(problem)
    result.engines["trim"] = cut
    result.decided, result.partial = cut.decided, cut.partial
    assert "It stopped at the time limit (--time-limit)." in explanation(result, problem)


@pytest.mark.parametrize("shape", [(1, 40), (40, 1), (2, 30), (9, 11), (14, 14)])
def test_case_splits_followed_compiled_give_the_same_proof(shape):
    """Each case split's ways followed by `recon.compiled.split_ways` (the trimmer's split_probe)
    instead of the trimmer's own loop: the same cells fixed, the same proof word for word, the
    same ways counted and the same contradiction, with the proof and without, on random partial
    statuses (one solution, several, none), some with fixed cells or a total; and the trim
    engine's answer is the same with its `compiled` option on and off. (The splits' ways are
    followed in their own boxes, so the same holds on a grid of any size.)"""
    pytest.importorskip("numba")
    from collections import Counter

    from recon import compiled
    from recon.engines import trim
    from recon.model import OPEN, make_problem, status
    from recon.rules.trim import Contradiction, Trimmer

    def outcome(problem, proof, probe):
        trimmer = Trimmer(problem, cases=True, proof=proof, ways=4000, split_probe=probe)
        clash = None
        try:
            trimmer.load()
            trimmer.run()
        except Contradiction as stop:
            clash = stop.step.text
        return clash, trimmer.value.tolist(), trimmer.ways_left, trimmer.out_of_ways, [s.text for s in trimmer.steps]

    rng = np.random.default_rng(shape[0] * 100 + shape[1])
    seen = Counter()
    for _ in range(14):
        field = rng.random(shape) < rng.uniform(0.2, 0.6)
        clues = status(field)
        known = rng.random(shape) < rng.uniform(0.35, 0.8)
        if rng.random() < 0.25:  # a clue one off: often no solution
            x = rng.integers(field.size)
            clues.flat[x] = min(clues.flat[x] + 1, 9)
        fixed = np.where(rng.random(shape) < 0.1, field, OPEN).astype(np.int8) if rng.random() < 0.3 else None
        mines = int(field.sum()) if rng.random() < 0.3 else None
        problem = make_problem(clues, known, fixed, mines)
        for proof in (False, True):
            probed = []

            def probe(*split):
                probed.append(split)
                return compiled.split_ways(*split)

            expected = outcome(problem, proof, None)
            assert outcome(problem, proof, probe) == expected
            seen["splits"] += len(probed)
            seen["clash" if expected[0] else "no clash"] += 1
            seen["case-split step"] += any(text.startswith("split ") for text in expected[4])
        assert trim.solve(problem, cases=True, compiled=True).trace == trim.solve(problem, cases=True, compiled=False).trace
    # (on a strip one cell wide no split fixed a cell: the pairwise rules had taken all there was)
    assert seen["splits"] and seen["clash"] and seen["no clash"] and (seen["case-split step"] or 1 in shape), seen
