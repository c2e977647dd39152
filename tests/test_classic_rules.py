"""The classic rules and their names: mine counting with the total, case splits (LEGUP's Satisfy
Number), LEGUP's and endoh1's rule names, and LEGUP's optional third rule.

The oracles are brute force over the covered cells and, for the names, each rule checked as its
author states it on the board as it stands before the step (written out here, apart from recon's
own naming).
"""

from __future__ import annotations

import itertools
import json
from math import comb

import numpy as np
import pytest

from recon import Verdict, solve
from recon.engines import trim
from recon.io.classic import board_problem, parse_board
from recon.model import make_problem, status
from recon.rules.trim import PACKING_WORK, _packing, classic_names
from test_classic import SHARED, board_text, neighbours, run

SHAPES = [(1, 9), (9, 1), (2, 7), (3, 5), (4, 4), (4, 6)]


def boards(seed: int, count: int, flags: float = 0.2, most_covered: int = 13, shapes=SHAPES):
    """Random classic boards (cells as parse_board reads them) with their fields; some numbers
    raised by one, so that some boards have no solution."""
    rng = np.random.default_rng(seed)
    made = 0
    while made < count:
        shape = shapes[made % len(shapes)]
        field = rng.random(shape) < rng.uniform(0.1, 0.6)
        opened = ~field & (rng.random(shape) < rng.uniform(0.3, 0.8))
        cells, _ = parse_board(board_text(field, opened, field & (rng.random(shape) < flags)))
        if (cells == -1).sum() > most_covered:
            continue
        if rng.random() < 0.15 and (cells >= 0).any():
            r, c = np.argwhere(cells >= 0)[rng.integers((cells >= 0).sum())]
            cells[r, c] = min(cells[r, c] + 1, int(neighbours(np.ones(shape, bool))[r, c]))
        made += 1
        yield cells, field


def solutions(cells: np.ndarray, mines: int | None) -> list[np.ndarray]:
    """Every field that meets the board (brute force over the covered cells: every way at once,
    in itertools.product's order)."""
    covered = np.flatnonzero(cells == -1)
    ways = np.arange(2 ** covered.size)
    fields = np.repeat((cells == -2).astype(int).reshape(1, -1), ways.size, axis=0)
    fields[:, covered] = (ways[:, None] >> np.arange(covered.size)[::-1]) & 1
    fields = fields.reshape(ways.size, *cells.shape)
    rows, cols = cells.shape
    padded = np.pad(fields, ((0, 0), (1, 1), (1, 1)))
    numbers = sum(padded[:, dr : dr + rows, dc : dc + cols] for dr in range(3) for dc in range(3)) - fields
    opened = cells >= 0
    fits = (numbers[:, opened] == cells[opened]).all(axis=1)
    if mines is not None:
        fits &= fields.reshape(ways.size, -1).sum(axis=1) == mines
    return list(fields[fits])


def cell(name: str) -> tuple[int, int]:
    r, c = name[1:].split("c")
    return int(r) - 1, int(c) - 1


@pytest.mark.slow
def test_mine_count_and_case_splits_are_sound_on_random_boards():
    """Trimming with case splits and the total fixes only what every solution agrees on, says
    none only with no solution and unique only with one; and each failed case of a split has no
    solution, while the cells a split fixes are the same in every solution. (Splits are rare on
    boards this small: elimination leaves them little; the next test has many.)"""
    used = {"mine-count": 0, "case-split": 0, "failed case": 0}
    for cells, field in boards(3, 160):
        for mines in (None, int(field.sum())):
            every = solutions(cells, mines)
            result = trim.solve(board_problem(cells, mines), cases=True)
            assert (result.verdict is Verdict.NONE) == (not every) or result.verdict is Verdict.UNDECIDED
            if result.verdict is Verdict.UNIQUE:
                assert len(every) == 1 and (result.solutions[0] == every[0]).all()
            if every and result.decided is not None:
                for r, c in np.argwhere(result.decided):
                    assert {int(f[r, c]) for f in every} == {int(result.partial[r, c])}
            for step in result.trace:
                used[step.rule] = used.get(step.rule, 0) + 1
                if step.rule == "case-split":
                    for (r, c), v in zip(step.cells, step.values):
                        assert all(f[r, c] == v for f in every)
                for case in step.cases:
                    if case["outcome"] == "fails":
                        used["failed case"] += 1
                        assert not any(all(f[cell(n)] for n in case["mines"]) and not any(f[cell(n)] for n in case["empty"])
                                       for f in every)
    assert used["mine-count"] >= 20, used


@pytest.mark.parametrize("shape", [(1, 12), (12, 1), (2, 7), (3, 4), (4, 3)])
def test_case_splits_are_sound_on_partial_statuses(shape):
    """The same on Fill-a-Pix puzzles (counts include the cell): against brute force over the field."""
    rng = np.random.default_rng(sum(shape))
    rows, cols = shape
    every_field = [np.array(bits, dtype=int).reshape(shape) for bits in itertools.product((0, 1), repeat=rows * cols)]
    every_status = [status(f) for f in every_field]
    for _ in range(40):
        field = rng.random(shape) < rng.uniform(0.2, 0.6)
        known = rng.random(shape) < rng.uniform(0.3, 0.8)
        clues = status(field)
        match = [f for f, s in zip(every_field, every_status) if (s[known] == clues[known]).all()]
        result = trim.solve(make_problem(clues, known), cases=True)
        if result.verdict is Verdict.UNIQUE:
            assert len(match) == 1 and (result.solutions[0] == match[0]).all()
        for r, c in np.argwhere(result.decided):
            assert {int(f[r, c]) for f in match} == {int(result.partial[r, c])}


@pytest.mark.parametrize("rows, cols, seed", [(8, 8, 5), (8, 8, 9), (6, 10, 3), (10, 6, 4)])
def test_case_splits_hold_against_an_independent_engine(tmp_path, rows, cols, seed):
    """On puzzles that need search: SAT proves that each failed way of every split has no
    solution, and that no solution gives a cell a split fixes the other value."""
    from recon.cli import read_problem

    pytest.importorskip("pysat")

    path = tmp_path / "p.txt"
    code, _, _ = run("generate", str(rows), str(cols), "40", "--puzzle", "--difficulty", "search", "--seed", str(seed),
                     "--out", str(path))
    problem = read_problem(str(path))
    result = trim.solve(problem, cases=True)
    splits = [step for step in result.trace if step.rule == "case-split"]
    assert code == 0 and splits

    def has_solution(**cells) -> bool:
        fixed = np.full(problem.shape, -1, dtype=np.int8)
        for name, v in cells.items():
            fixed[cell(name)] = v
        return solve(make_problem(problem.clues, problem.known, fixed), engine="sat").verdict is not Verdict.NONE

    for step in splits:
        for (r, c), v in zip(step.cells, step.values):
            assert not has_solution(**{f"r{r + 1}c{c + 1}": 1 - v})
        for case in step.cases:
            if case["outcome"] == "fails":
                assert not has_solution(**dict.fromkeys(case["mines"], 1), **dict.fromkeys(case["empty"], 0))


def test_explain_splits_cases_where_trimming_alone_stalls(tmp_path):
    """A puzzle that needs search: explain's proof ends with every cell fixed, by case splits
    whose failed ways each end in a contradiction; without the split, trimming stalls."""
    path = tmp_path / "p.txt"
    code, _, _ = run("generate", "8", "8", "40", "--puzzle", "--difficulty", "search", "--seed", "5", "--out", str(path))
    assert code == 0
    from recon.cli import read_problem

    assert trim.solve(read_problem(str(path))).verdict is Verdict.UNDECIDED
    code, out, _ = run("explain", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["verdict"] == "unique" and data["open_cells"] == []
    splits = [s for s in data["steps"] if s["rule"] == "case-split"]
    assert splits and all(s["grade"] == "search" for s in splits)
    for s in splits:
        assert all(case["outcome"] in ("fails", "holds") for case in s["cases"])
        assert all("exceeded" in c["steps"][-1] or "cannot be met" in c["steps"][-1] or "would need" in c["steps"][-1]
                   or "both" in c["steps"][-1] for c in s["cases"] if c["outcome"] == "fails")
    code, out, _ = run("explain", str(path))
    assert "Trimming fixed all 64 cells: the field is unique (grade search)." in out


def _state(problem, trace):
    """The board as it stands before each step: (value per cell: 0, 1 or -1 open), one per step."""
    value = problem.fixed.astype(int).copy()
    for step in trace:
        yield value.copy()
        for (r, c), v in zip(step.cells, step.values):
            value[r, c] = v


def _around(shape, r, c):
    return {(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < shape[0] and 0 <= c + dc < shape[1]}


def test_classic_names_mean_what_their_authors_say():
    """Every named step checked as LEGUP and endoh1 state the rule, on the board before it:
    endoh1 rule 1 (number == flags around: the covered ones are safe), rule 2 (number == covered
    and flagged around: they are mines), rules 3 and 4 (two numbers A, B: A == B - B's covered and
    flagged cells A does not see -> A's covered cells B does not see are safe; B == A - A's covered
    and flagged cells B does not see -> they are mines), the final rule (the mines left equal the
    covered cells, or none is left); LEGUP's Finish With Mines / Empty for one number, Too Many /
    Too Few Bombs, and Satisfy Number (every way to place the number's missing mines)."""
    seen: dict[str, int] = {}
    for cells, field in boards(7, 400, flags=0.25, most_covered=48, shapes=[(6, 8), (8, 6), (2, 12), (5, 5)]):
        for mines in (None, int(field.sum())):
            problem = board_problem(cells, mines)
            result = trim.solve(problem, cases=True)
            names = classic_names(result.trace, problem)
            for step, name, value in zip(result.trace, names, _state(problem, result.trace)):
                fixed = set(step.cells)
                covered = lambda cells_: {x for x in cells_ if value[x] == -1}  # noqa: E731
                flagged = lambda cells_: {x for x in cells_ if value[x] == 1}  # noqa: E731
                for vocabulary in ("legup", "endoh1"):
                    if name[vocabulary]:
                        seen[f"{vocabulary}: {name[vocabulary]}"] = seen.get(f"{vocabulary}: {name[vocabulary]}", 0) + 1
                e, lg = name["endoh1"], name["legup"]
                if e in ("rule 1", "rule 2") or lg in ("Finish With Empty", "Finish With Mines") and step.rule != "total":
                    x = cell(step.sources[0])
                    near = _around(cells.shape, *x)
                    if e == "rule 1" or lg == "Finish With Empty":
                        assert cells[x] == len(flagged(near)) and fixed == covered(near) and set(step.values) == {0}
                    else:
                        assert cells[x] == len(flagged(near) | covered(near)) and fixed == covered(near) and set(step.values) == {1}
                if e in ("rule 3", "rule 4"):
                    ok = False
                    for a_name, b_name in itertools.permutations(step.sources[:2] if step.rule == "overlap" else
                                                                 [n for n in _pair_of(result.trace, step)], 2):
                        a, b = cell(a_name), cell(b_name)
                        na, nb = _around(cells.shape, *a), _around(cells.shape, *b)
                        a_only, b_only = (na - nb) - {b}, (nb - na) - {a}
                        hidden = lambda s: covered(s) | flagged(s)  # noqa: E731
                        if e == "rule 3":
                            ok |= cells[a] == cells[b] - len(hidden(b_only)) and fixed == covered(a_only) and set(step.values) == {0}
                        else:
                            ok |= cells[b] == cells[a] - len(hidden(a_only)) and fixed == covered(a_only) and set(step.values) == {1}
                    assert ok, (step.text, e)
                if e == "final rule":
                    left = mines - int((value == 1).sum())
                    open_cells = {tuple(x) for x in np.argwhere(value == -1)}
                    assert fixed == open_cells and left in (0, len(open_cells)) and set(step.values) == {1 if left else 0}
                if lg in ("Too Many Bombs", "Too Few Bombs"):  # the board as the step before left it
                    x = cell(step.sources[0])
                    near = _around(cells.shape, *x)
                    if lg == "Too Many Bombs":
                        assert len(flagged(near)) > cells[x]
                    else:
                        assert len(flagged(near) | covered(near)) < cells[x]
                if lg == "Satisfy Number":
                    x = cell(step.sources[0])
                    near = _around(cells.shape, *x)
                    need, room = cells[x] - len(flagged(near)), covered(near)
                    ways = {frozenset(cell(n) for n in case["mines"]) for case in step.cases}
                    assert ways == {frozenset(w) for w in itertools.combinations(sorted(room), need)}
                    assert len(step.cases) == comb(len(room), need)
    for rule in ("endoh1: rule 1", "endoh1: rule 2", "endoh1: rule 3", "endoh1: rule 4", "endoh1: final rule",
                 "legup: Finish With Empty", "legup: Finish With Mines", "legup: Non Touching Shared Empty",
                 "legup: Non Touching Shared Bomb", "legup: Too Many Bombs", "legup: Too Few Bombs", "legup: Satisfy Number"):
        assert seen.get(rule, 0) >= 1, (rule, seen)


def _pair_of(trace, step):
    """The two numbers behind the derived equation a basic step fixes (a subset step's sources)."""
    made = next(s for s in trace if s.rule == "subset" and s.derived == step.sources[0])
    return made.sources


def test_explain_prints_both_vocabularies(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("01?\n01?\n01?\n")  # r2c2's three cells hold r1c2's two and r3c3: it is safe
    code, out, _ = run("explain", str(path), "--classic")
    assert "| LEGUP: " in out and "| endoh1: rule " in out
    code, out, _ = run("explain", str(path), "--classic", "--json")
    steps = json.loads(out)["steps"]
    assert steps and all("legup" in s and "endoh1" in s for s in steps)


def test_every_mine_sees_a_number_is_an_option(tmp_path):
    """LEGUP's third rule, off by default: with it a covered cell that sees no number is empty;
    counts equal brute force with the rule applied; a flag that sees no number is refused."""
    for cells, field in boards(5, 40, flags=0.15):
        opened = cells >= 0
        seen = status(opened) > 0
        every = [f for f in solutions(cells, None) if not (f.astype(bool) & ~seen & (cells == -1)).any()]
        if (cells == -2).any() and ((cells == -2) & ~seen).any():
            with pytest.raises(ValueError, match="sees no number"):
                board_problem(cells, None, mines_see_numbers=True)
            continue
        from recon.counting import count_solutions

        counted = count_solutions(board_problem(cells, None, mines_see_numbers=True))
        assert counted.exact and counted.count == len(every)
    path = tmp_path / "b.txt"
    path.write_text("1??\n???\n???\n")
    assert run("count", str(path), "--classic")[1] == "96 solutions\n"
    assert run("count", str(path), "--classic", "--mines-see-numbers")[1] == "3 solutions\n"
    path.write_text("1??\n???\n??*\n")
    code, _, err = run("solve", str(path), "--classic", "--mines-see-numbers")
    assert code == 2 and "r3c3 sees no number" in err
    code, _, err = run("solve", str(path), "--mines-see-numbers")
    assert code == 2 and "--classic" in err


@pytest.mark.skipif(not (SHARED / "legup" / "minesweeper").exists(), reason="the shared data is not beside the repository")
def test_legup_boards_are_unique_under_the_third_rule():
    """Without the rule two of LEGUP's nine boards have 2 and 4 solutions (the shared counts);
    with it every one has exactly one, and that field keeps the rule."""
    from recon.io.classic import parse_legup_minesweeper

    for path in sorted((SHARED / "legup" / "minesweeper").glob("*.xml")):
        cells = parse_legup_minesweeper(path.read_bytes(), str(path))
        result = solve(board_problem(cells, None, mines_see_numbers=True), engine="all")
        assert result.verdict is Verdict.UNIQUE, path.name
        field = result.solutions[0]
        numbers = cells > 0
        assert (neighbours(field)[numbers] == cells[numbers]).all()
        assert not (field & ~(status(numbers) > 0)).any()


def test_explain_does_not_split_cases_once_two_solutions_are_known():
    """With several solutions no split can finish the proof: solve(case_split=True) leaves them
    out when the lead engine has found two, though trimming alone would split (in vain)."""
    rng = np.random.default_rng(1)
    split_alone = 0
    for _ in range(6):
        field = rng.random((12, 12)) < 0.4
        problem = make_problem(status(field), rng.random((12, 12)) > 0.6)
        alone = trim.solve(problem, cases=True)
        split_alone += any(step.rule == "case-split" for step in alone.trace)
        result = solve(problem, engine=["hybrid", "trim"], case_split=True)
        assert result.verdict is Verdict.MULTIPLE
        assert not any(step.rule == "case-split" for step in result.trace)
    assert split_alone


@pytest.mark.parametrize("shape", [(2, 5001), (5001, 2)])
def test_explain_does_not_split_cases_once_the_checker_finds_two_solutions(shape):
    """Past 10,000 cells hybrid leads without searching where trimming stalls, and the checker
    finds the second solution: then too no split can finish the proof, and none is made."""
    rng = np.random.default_rng(3)
    field = rng.random(shape) < 0.4
    problem = make_problem(status(field), rng.random(shape) > 0.6)
    result = solve(problem, case_split=True)
    assert result.verdict is Verdict.MULTIPLE
    assert result.engines["hybrid"].verdict is Verdict.UNDECIDED  # the checker found the second
    assert not any(step.rule == "case-split" for step in result.trace)
    assert any(step.rule == "case-split" for step in trim.solve(problem, cases=True).trace)


def _heaviest(cells_of, weights) -> int:
    """The most weight of sets sharing no cell, over every subfamily (brute force)."""
    best = 0
    for k in range(len(cells_of) + 1):
        for pick in itertools.combinations(range(len(cells_of)), k):
            cells = [x for i in pick for x in cells_of[i]]
            if len(cells) == len(set(cells)):
                best = max(best, sum(weights[i] for i in pick))
    return best


def test_mine_count_packs_the_most_weight_as_brute_force_does():
    """mine-count's packing (`_packing`) against every subfamily of random sets of cells, as the
    equations of a board give them (windows of up to 8 cells, some sets alone, some in long
    chains): whenever some packing reaches the target, the one returned is disjoint and weighs
    the most; a packing it returns is always disjoint and never outweighs the most; with no search
    left (work=0) it is greedy, disjoint still."""
    rng = np.random.default_rng(11)
    reached = 0
    for _ in range(400):
        n = int(rng.integers(1, 11))
        cells_of = [sorted({int(x) for x in rng.integers(0, int(rng.integers(4, 30)), int(rng.integers(1, 9)))}) for _ in range(n)]
        weights = [int(rng.integers(1, len(c) + 1)) for c in cells_of]
        most = _heaviest(cells_of, weights)
        for target in (most, most + 1, max(most - 2, 0)):
            for work in (PACKING_WORK, 0):
                picked = _packing(cells_of, weights, target, work)
                if picked is None:
                    assert work == 0 or most < target
                    continue
                cells = [x for i in picked for x in cells_of[i]]
                assert len(cells) == len(set(cells))
                weight = sum(weights[i] for i in picked)
                assert weight <= most
                if work:
                    assert weight == most
                    reached += target == most
    assert reached >= 300


def test_mine_count_finds_the_packing_a_greedy_choice_misses():
    """The end of a no-guess board of Tatham's (14x26, 305 mines; the next test plays it): 270
    cells covered, 4 of them empty, and five numbers down one column of cells r5..r11 (counted
    in empty cells: r5+r6 = 1, r6+r7+r8 = 2, r7+r8+r9 = 2, r8+r9+r10 = 2, r9+r10+r11 = 2).
    Packing heaviest first may take r7..r9 with r5+r6 (3 empty cells); r6..r8 with r9..r11
    holds all 4, so every other covered cell is a mine."""
    cells_of = [[5, 6], [7, 8, 9], [6, 7, 8], [8, 9, 10], [9, 10, 11]]  # cells named by their row
    weights = [1, 2, 2, 2, 2]
    assert sum(weights[i] for i in _packing(cells_of, weights, 0, 0)) == 3
    assert _packing(cells_of, weights, 4) == [2, 4] and _heaviest(cells_of, weights) == 4
