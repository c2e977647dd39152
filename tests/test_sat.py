"""The SAT engine: its clauses mean the counts, it agrees with exhaustive search, and the
incremental uniqueness check used by generation answers as a from-scratch count does."""

from __future__ import annotations

import io
import time
from itertools import product

import numpy as np
import pytest

from recon import Verdict, is_solution, make_problem, status
from recon import solver as solving
from recon.cli import main
from recon.engines import backtrack, hybrid, sat
from recon.result import TimeUp
from recon.model import OPEN, random_field

from conftest import brute_force, keys

needs_sat = pytest.mark.skipif(not sat.AVAILABLE, reason="python-sat is not installed")
SHAPES = [(1, 1), (1, 2), (1, 7), (7, 1), (2, 2), (2, 6), (6, 2), (3, 3), (3, 5)]


@needs_sat
@pytest.mark.parametrize("guards", [1, 2])
def test_a_guarded_constraint_binds_exactly_when_its_guard_is_on(guards):
    """"Exactly k of w literals" under one selector (a clue) or two (a pair of clues): with every
    selector true it holds exactly when k literals are true; with any selector false, always.
    Every w from 1 to 6, every k, every assignment, literals of both signs."""
    from pysat.solvers import Solver

    field = np.zeros((1, 1), dtype=bool)
    for w in range(1, 7):
        lits = [x if x % 2 else -x for x in range(1, w + 1)]
        selectors = list(range(w + 1, w + 1 + guards))
        for k in range(w + 1):
            oracle = sat.SecondSolution(field, [0])
            oracle._solver = Solver(name=sat.ORACLE_BATCH_SOLVER)
            oracle._next = w + guards + 1
            oracle._add_guarded(lits, k, [-s for s in selectors])
            for bits in product((False, True), repeat=w + guards):
                values = [x if bit else -x for x, bit in zip(range(1, w + guards + 1), bits)]
                true_lits = sum(1 for x in lits if (x > 0) == bits[abs(x) - 1])
                on = all(bits[s - 1] for s in selectors)
                assert oracle._solver.solve(assumptions=values) == (not on or true_lits == k), (w, k, bits)
            oracle.close()


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(1, 5), (5, 1), (2, 4), (4, 2), (3, 4)])
def test_pair_constraints_hold_for_every_field(shape):
    """The difference of two nearby clues is implied by them: every field meets it."""
    rows, cols = shape
    known = np.ones(shape, dtype=bool)
    seen = 0
    for bits in product((False, True), repeat=rows * cols):
        field = np.array(bits).reshape(shape)
        pairs, clash = sat.clue_pairs(shape, known, status(field))
        assert clash is None
        for a, b, lits, k in pairs:
            assert sum(bits[x - 1] if x > 0 else not bits[-x - 1] for x in lits) == k, (shape, a, b)
            seen += 1
    assert seen > 0


@pytest.mark.parametrize("shape", [(1, 12), (12, 1), (2, 9), (7, 8)])
def test_the_pairs_as_arrays_are_the_pairs_as_lists(shape):
    """clue_pairs_flat gives clue_pairs' pairs, in the same order, and the same clash: on
    fields' statuses and on random counts (which often clash part way), with literal numbers
    (cells left out as 0) or without."""
    rng = np.random.default_rng(sum(shape) + 3)
    for i in range(40):
        known = rng.random(shape) < rng.uniform(0.3, 1.0)
        counts = status(rng.random(shape) < 0.4) if i % 2 else rng.integers(0, 7, size=shape)
        numbers = None
        if i % 4 >= 2:  # some cells left out of the model, the others numbered 1, 2, ...
            numbers = np.zeros(counts.size + 1, dtype=np.int64)
            kept = np.flatnonzero(rng.random(counts.size) < 0.7)
            numbers[kept + 1] = np.arange(1, kept.size + 1)
        pairs, clash = sat.clue_pairs(shape, known, counts, numbers=numbers)
        first, second, flat, lengths, k, clash_flat = sat.clue_pairs_flat(shape, known, counts, numbers=numbers)
        assert clash_flat == clash
        lists = np.split(flat, np.cumsum(lengths)[:-1]) if lengths.size else []
        assert [(a, b, lits, kk) for a, b, lits, kk in pairs] == [
            (a, b, x.tolist(), kk) for a, b, x, kk in zip(first.tolist(), second.tolist(), lists, k.tolist())]


@pytest.mark.parametrize("shape", [(1, 3), (3, 1), (2, 3), (3, 2), (2, 2)])
def test_pair_clash_exactly_when_no_field_meets_both_clues(shape):
    rows, cols = shape
    n = rows * cols
    fields = [np.array(bits).reshape(shape) for bits in product((False, True), repeat=n)]
    statuses = np.array([status(f).ravel() for f in fields])
    pairs_checked = 0
    for a in range(n):
        for b in range(a + 1, n):
            ra, ca, rb, cb = *divmod(a, cols), *divmod(b, cols)
            if (rb - ra, cb - ca) not in sat.PAIR_OFFSETS:
                continue
            known = np.zeros(n, dtype=bool)
            known[[a, b]] = True
            # counts up to each window's size (a larger one is impossible_clue_reason's business)
            for x in range(statuses[:, a].max() + 1):
                for y in range(statuses[:, b].max() + 1):
                    counts = np.zeros(n, dtype=np.int64)
                    counts[a], counts[b] = x, y
                    possible = bool(((statuses[:, a] == x) & (statuses[:, b] == y)).any())
                    _, clash = sat.clue_pairs(shape, known.reshape(shape), counts.reshape(shape))
                    assert (clash is None) == possible, (shape, a, b, x, y)
                    assert clash is None or clash == (a, b)
                    pairs_checked += 1
    assert pairs_checked > 0


@needs_sat
@pytest.mark.parametrize("shape", [(1, 6), (6, 1), (2, 4), (4, 2), (3, 3)])
def test_sat_agrees_with_brute_force_on_random_digits(shape):
    """Clues that need not come from a field: often no solution, found by a pair or by search."""
    rng = np.random.default_rng(shape[0] * 10 + shape[1])
    verdicts = set()
    for _ in range(40):
        known = rng.random(shape) < 0.6
        clues = np.where(known, rng.integers(0, 5, size=shape), 0)
        expected = brute_force(clues, known)
        result = sat.solve(make_problem(clues, known), limit=len(expected) + 1)
        assert result.count_exact and keys(result.solutions) == expected, (shape, clues, known)
        verdicts.add(result.verdict)
    assert Verdict.NONE in verdicts and len(verdicts) >= 2


@needs_sat
def test_sat_names_the_two_clues_that_cannot_both_hold():
    clues = np.array([[0, 3, 0], [0, 0, 0]])
    known = np.array([[True, True, False], [False, False, False]])
    # r1c1 = 0 empties r1c1, r1c2, r2c1, r2c2; r1c2 = 3 then needs 3 mines in r1c3, r2c3 alone
    result = sat.solve(make_problem(clues, known))
    assert result.verdict is Verdict.NONE and result.count_exact
    assert "r1c1 = 0 and r1c2 = 3 cannot both be met" in result.reason
    assert brute_force(clues, known) == set()


@pytest.mark.slow
@needs_sat
@pytest.mark.parametrize("shape", SHAPES)
def test_sat_lists_exactly_the_solutions_brute_force_finds(shape):
    rng = np.random.default_rng(sum(shape) * 7 + shape[0])
    for _ in range(12):
        field = rng.random(shape) < rng.uniform(0.2, 0.7)
        known = rng.random(shape) < rng.uniform(0.2, 1.0)
        clues = status(field)
        expected = brute_force(clues, known)
        result = sat.solve(make_problem(clues, known), limit=len(expected) + 1)
        assert result.count_exact and keys(result.solutions) == expected
        assert result.verdict is Verdict.of_search(len(expected), True)


@needs_sat
def test_sat_says_none_for_impossible_and_contradictory_clues():
    clues = np.array([[5, 0, 0]])  # a corner window of 2 cells cannot hold 5 mines
    result = sat.solve(make_problem(clues))
    assert result.verdict is Verdict.NONE and "holds only 2 cells" in result.reason
    contradictory = np.array([[2, 0]])  # both cells mines, then the second clue sees 2, not 0
    result = sat.solve(make_problem(contradictory))
    assert result.verdict is Verdict.NONE and result.count_exact


@needs_sat
@pytest.mark.parametrize("shape", [(2, 8), (8, 2), (5, 5)])
def test_sat_given_solutions_are_listed_first_and_the_rest_found(shape):
    field = random_field(*shape, 50, np.random.default_rng(11))
    known = np.random.default_rng(12).random(shape) < 0.5
    problem = make_problem(status(field), known)
    complete = backtrack.solve(problem, limit=10_000)
    assert complete.count_exact
    result = sat.solve(problem, limit=10_000, given=[field])
    assert np.array_equal(result.solutions[0], field)
    assert keys(result.solutions) == keys(complete.solutions)
    assert result.count_exact and result.stats["given"] == 1


@needs_sat
@pytest.mark.parametrize("shape", SHAPES + [(2, 7), (4, 4)])
def test_deduced_values_change_no_answer(shape):
    """sat.solve(deduced=...) lists real fields and gives the verdict and count of the search
    without them (brute force), whether the values are right (a field's), wrong (a field that
    fails the clues) or fit no field at all, with every limit and with a solution given. Partial
    statuses leave cells no clue sees, where one field is all that is asked and the values lead."""
    from recon.engines import unseen

    rng = np.random.default_rng(sum(shape))
    guided = parts = 0
    for trial in range(30):
        field = random_field(*shape, 40, rng)
        known = rng.random(shape) < (1.0 if trial % 4 == 0 else 0.3)
        clues = status(field)
        problem = make_problem(clues, known)
        truth = brute_force(clues, known)
        values = (field, ~field, rng.random(shape) < 0.5)[trial % 3]
        deduced = np.where(rng.random(shape) < 0.6, values, OPEN).astype(np.int8)
        for limit in (1, 2, 3):
            for given in ([], [field]):
                result = sat.solve(problem, limit=limit, given=given, deduced=deduced)
                if unseen.free_cells(problem).size and not given and trial % 3 == 1 and truth:
                    # one field asked, values that no field meets: the whole model without them
                    guided += result.stats.get("by_parts") is False
                parts += result.stats.get("by_parts") is True
                plain = sat.solve(problem, limit=limit, given=given)
                assert all(is_solution(f, problem) for f in result.solutions)
                assert keys(result.solutions) <= truth and len(keys(result.solutions)) == len(result.solutions)
                assert (result.verdict, result.count_exact, len(result.solutions)) == (
                    plain.verdict, plain.count_exact, len(plain.solutions)), (trial, limit, given)
                assert not result.count_exact or keys(result.solutions) == truth
    if shape[0] * shape[1] >= 8:
        assert guided  # the guided path met wrong values and asked again
        assert parts  # and found a field part by part


@needs_sat
def test_a_part_swept_in_bands_meets_every_constraint_or_has_none():
    """`sat._sweep_part` on chains of "exactly k" constraints over a few consecutive literals
    (both signs, as the clue differences have), against every assignment: a model it returns
    meets every constraint, and it returns None exactly when none does. Bands of 1 to 5
    literals, or of twice the widest constraint's span; a band whose choices before it cannot be
    extended is widened, and with nothing before it left, its failure is a proof."""
    rng = np.random.default_rng(5)
    widened = nones = 0
    for trial in range(300):
        size = int(rng.integers(1, 13))
        planted = rng.random(size) < 0.4
        constraints = []
        for _ in range(int(rng.integers(1, 2 * size + 2))):
            first = int(rng.integers(1, size + 1))
            width = int(rng.integers(1, 5))
            lits = [x if rng.random() < 0.8 else -x for x in range(first, min(first + width, size + 1))]
            k = sum(planted[abs(x) - 1] == (x > 0) for x in lits)
            if trial % 3 == 2 and rng.random() < 0.3:
                k = int(rng.integers(0, len(lits) + 1))  # may leave no assignment
            constraints.append((lits, int(k)))
        every = np.array(list(product([False, True], repeat=size)))
        meets = np.ones(len(every), dtype=bool)
        for lits, k in constraints:
            got = sum(every[:, abs(x) - 1] if x > 0 else ~every[:, abs(x) - 1] for x in lits)
            meets &= got == k
        reach = max(max(abs(x) for x in lits) - min(abs(x) for x in lits) for lits, _ in constraints)
        for band, spans in ((1, 0), (2, 0), (5, 0), (1, 2)):
            stats = {}
            found = sat._sweep_part(*_flat(constraints), size, band, None, stats, spans)
            assert (found is None) == (not meets.any()), (trial, band)
            if found is not None:
                assert found.shape == (size,)
                assert meets[int("".join("1" if x else "0" for x in found), 2)]
                # (a band of at least spans * reach + 1 literals)
                assert stats["bands"] == -(-size // max(band, spans * reach + 1)), (trial, band, spans)
            nones += found is None
            widened += stats.get("widened", 0) > 0
    assert widened and nones
    with pytest.raises(TimeUp):  # a deadline passed: no band is taken as met
        sat._sweep_part(*_flat([([1, 2], 1)]), 2, 1, time.perf_counter() - 1, {})


def _flat(constraints):
    """Constraints (literals, k) as `sat._sweep_part` takes them: literals end to end, their
    numbers, the ks."""
    return (np.array([x for lits, _ in constraints for x in lits], dtype=np.int64),
            np.array([len(lits) for lits, _ in constraints], dtype=np.int64),
            np.array([k for _, k in constraints], dtype=np.int64))


@needs_sat
@pytest.mark.parametrize("shape", SHAPES + [(2, 7), (4, 4), (2, 8)])
def test_fields_by_parts_in_bands_are_fields_exactly_where_one_keeps_the_values(shape):
    """`sat._field_by_parts` with every part swept in small bands (sweep_cells=0), with one
    solver per part (batch_cells=1) and with parts batched into one solver: a field is returned
    exactly where some field (brute force) keeps every deduced value, and it is one, keeping
    them."""
    rng = np.random.default_rng(sum(shape) + 3)
    swept = batched = 0
    for trial in range(24):
        field = random_field(*shape, 40, rng)
        known = rng.random(shape) < (1.0 if trial % 4 == 0 else 0.5)
        clues = status(field)
        problem = make_problem(clues, known)
        truth = [np.frombuffer(k, dtype=bool).reshape(shape) for k in brute_force(clues, known)]
        values = (field, ~field, rng.random(shape) < 0.5)[trial % 3]
        deduced = np.where(rng.random(shape) < 0.4, values, OPEN).astype(np.int8)
        decided = deduced >= 0
        kept = any(np.array_equal(t[decided], deduced[decided] > 0) for t in truth)
        for sweep_cells, band, batch_cells in ((0, 1, 1), (0, 4, 1), (sat.SWEEP_CELLS, sat.SWEEP_BAND, 1),
                                               (sat.SWEEP_CELLS, sat.SWEEP_BAND, 3),
                                               (sat.SWEEP_CELLS, sat.SWEEP_BAND, sat.BATCH_CELLS)):
            stats = {}
            found = sat._field_by_parts(problem, deduced, None, stats, sweep_cells=sweep_cells, band=band,
                                        band_spans=sat.SWEEP_BAND_SPANS if band == sat.SWEEP_BAND else 0,
                                        batch_cells=batch_cells)
            assert (found is not None) == kept, (trial, sweep_cells, band, batch_cells)
            if found is not None:
                assert is_solution(found, problem) and np.array_equal(found[decided], deduced[decided] > 0)
            if sweep_cells == 0:
                swept += stats.get("swept", 0)
            batched += stats.get("batches", 0) < stats.get("parts", 0)
    if shape[0] * shape[1] >= 6:
        assert swept
    if max(shape) >= 6:  # (a smaller grid seldom falls into two parts)
        assert batched


@pytest.mark.parametrize("shape", [(1, 30), (30, 1), (2, 20), (9, 11)])
def test_clue_differences_on_the_open_cells_hold_on_the_field(shape):
    """The differences of nearby clues that a part's model takes (`sat._pairs_by_part`: counts
    less the deduced mines, the deduced cells left out) hold on the field the deductions come
    from; with every open cell in one part none is left out, and a part per cell keeps only
    the pairs whose open cells are one cell."""
    from recon.model import windows_of

    rng = np.random.default_rng(sum(shape) + 11)
    for _ in range(20):
        field = rng.random(shape) < 0.4
        problem = make_problem(status(field), rng.random(shape) < 0.7)
        value = np.where(rng.random(shape) < 0.5, field, OPEN).astype(np.int8).ravel()
        ks = np.flatnonzero(problem.known.ravel())
        windows = windows_of(shape, ks)
        inside = windows >= 0
        here = np.where(inside, value[np.where(inside, windows, 0)], 0)
        need = problem.clues.ravel()[ks] - (inside & (here > 0)).sum(axis=1)
        cells = np.unique(windows[inside & (here < 0)])
        part, literal = np.full(field.size, -1), np.zeros(field.size, dtype=np.int64)
        part[cells], literal[cells] = 0, cells + 1  # one part, each cell its own literal
        where, flat, lengths, ks_ = sat._pairs_by_part(problem, ks, need, part, literal)
        lists = np.split(flat, np.cumsum(lengths)[:-1]) if lengths.size else []
        every, _ = sat.clue_pairs(shape, problem.known, status(field))
        assert set(where.tolist()) <= {0} and len(lists) == len(ks_) == len(where) <= len(every)
        for lits, k in zip(lists, ks_):
            lits = np.array(lits)
            assert (value[np.abs(lits) - 1] == OPEN).all()
            assert int(np.where(lits > 0, field.ravel()[np.abs(lits) - 1], ~field.ravel()[np.abs(lits) - 1]).sum()) == k
        part[cells] = np.arange(cells.size)  # a part per cell
        where, flat, lengths, _ = sat._pairs_by_part(problem, ks, need, part, literal)
        lists = np.split(flat, np.cumsum(lengths)[:-1]) if lengths.size else []
        assert all(len(set(np.abs(lits).tolist())) == 1 for lits in lists)


@needs_sat
def test_hybrid_undecided_says_what_its_deductions_fixed():
    """hybrid stopped before its search (search_cells=0) returns the cells its deductions fixed,
    and each holds its value in every solution (brute force); the SAT engine then lists the
    same solutions guided by them."""
    rng = np.random.default_rng(7)
    seen = 0
    for shape in [(1, 12), (12, 1), (2, 7), (3, 5), (4, 4)]:
        for _ in range(8):
            field = random_field(*shape, 35, rng)
            known = rng.random(shape) < 0.6
            clues = status(field)
            problem = make_problem(clues, known)
            truth = [np.frombuffer(k, dtype=bool).reshape(shape) for k in brute_force(clues, known)]
            result = hybrid.solve(problem, limit=3, search_cells=0)
            if result.verdict is not Verdict.UNDECIDED:
                continue
            seen += 1
            assert result.decided is not None and result.partial is not None
            for solution in truth:
                assert np.array_equal(solution[result.decided], result.partial[result.decided])
            deduced = np.where(result.decided, result.partial, OPEN).astype(np.int8)
            guided = sat.solve(problem, limit=len(truth) + 1, deduced=deduced)
            assert guided.count_exact and keys(guided.solutions) == keys(truth)
    assert seen >= 10


@needs_sat
def test_sat_out_of_time_is_undecided_never_a_guess():
    field = random_field(9, 9, 50, np.random.default_rng(3))
    result = sat.solve(make_problem(status(field)), time_limit=1e-9)
    assert result.verdict is Verdict.UNDECIDED and not result.count_exact
    assert "time limit" in result.reason


@needs_sat
def test_sat_interrupted_mid_search_is_undecided_or_right():
    """A real interrupt (the solver is stopped by a timer while it works): undecided with the
    reason, or, on a machine fast enough to finish, the verdict of the unlimited run."""
    field = random_field(90, 70, 50, np.random.default_rng(1))
    known = np.random.default_rng(2).random(field.shape) < 0.35
    problem = make_problem(status(field), known)
    limited = sat.solve(problem, limit=3, time_limit=0.01)
    if limited.verdict is Verdict.UNDECIDED:
        assert "time limit" in limited.reason and not limited.count_exact
    else:
        assert limited.verdict is sat.solve(problem, limit=3).verdict


def test_without_python_sat_the_engine_says_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setattr(sat, "AVAILABLE", False)
    problem = make_problem(np.array([[1, 1]]))
    with pytest.raises(sat.Unavailable, match=r"pip install 'recon\[sat\]'"):
        sat.solve(problem)
    assert "sat" not in solving.plan(problem, "all")
    path = tmp_path / "s.txt"
    path.write_text("11\n")
    out, err = io.StringIO(), io.StringIO()
    assert main(["solve", str(path), "--engine", "sat"], stdout=out, stderr=err) == 2
    assert "python-sat" in err.getvalue() and "Traceback" not in err.getvalue()


@needs_sat
@pytest.mark.parametrize("batch", [3, None])
@pytest.mark.parametrize("shape", [(1, 9), (9, 1), (2, 7), (4, 5)])
def test_second_solution_answers_as_counting_from_scratch(shape, batch):
    """Along a removal path, "another solution without c?" equals a complete count of the clues
    kept so far minus c, whichever way each answer goes; with batches of 3 clues, the solver is
    rebuilt every few questions from the clues then in force."""
    rng = np.random.default_rng(shape[0] * 10 + shape[1])
    answers, used = set(), 0
    for _ in range(300):  # 2 x k: few fields have a unique full status (T_2 is singular)
        if used == 3:
            break
        field = rng.random(shape) < rng.uniform(0.1, 0.6)
        clues = status(field)
        if backtrack.solve(make_problem(clues), limit=2).verdict is not Verdict.UNIQUE:
            continue
        used += 1
        known = np.ones(field.size, dtype=bool)
        order = rng.permutation(field.size)
        with sat.SecondSolution(field, order, batch=batch) as oracle:
            for c in order:
                c = int(c)
                fewer = known.copy()
                fewer[c] = False
                expected = backtrack.solve(make_problem(clues, fewer.reshape(shape)), limit=2).verdict is Verdict.MULTIPLE
                answer = oracle.another_without(c)
                assert answer == expected, (shape, c)
                oracle.decide(c, answer)
                known[c] = answer
                answers.add(answer)
            with pytest.raises(ValueError, match="decided already"):
                oracle.another_without(int(order[0]))
            if batch == 3:
                assert oracle.builds >= field.size // 3
    assert used == 3 and answers == {True, False}  # both kinds of answer were checked


@needs_sat
def test_second_solution_takes_decisions_made_without_asking_it():
    """Clues decided without a question (as generation may, when a cheaper search settles one)
    are taken into the next solver built, and the questions asked still equal counts."""
    shape = (4, 6)
    rng = np.random.default_rng(8)
    while True:
        field = rng.random(shape) < 0.4
        clues = status(field)
        if backtrack.solve(make_problem(clues), limit=2).verdict is Verdict.UNIQUE:
            break
    order = [int(c) for c in rng.permutation(field.size)]
    known = np.ones(field.size, dtype=bool)

    def counted(c):
        fewer = known.copy()
        fewer[c] = False
        return backtrack.solve(make_problem(clues, fewer.reshape(shape)), limit=2).verdict is Verdict.MULTIPLE

    with sat.SecondSolution(field, order, batch=4) as oracle:
        for i, c in enumerate(order):
            if i % 3 == 1:  # decided elsewhere, by the count itself
                keep = counted(c)
            else:
                keep = oracle.another_without(c)
                assert keep == counted(c)
            oracle.decide(c, keep)
            known[c] = keep
        assert 0 < known.sum() < field.size


def _tiny_tiles(monkeypatch, core=2, margin=1):
    """Tiles of core x core clues with `margin` cells around, asked about every clue."""
    monkeypatch.setattr(sat, "LOCAL_MIN_KEEPS", 0)
    monkeypatch.setattr(sat, "TILE_CORE", core)
    monkeypatch.setattr(sat, "TILE_MARGIN", margin)


@needs_sat
@pytest.mark.parametrize("shape", [(1, 13), (13, 1), (2, 11), (5, 9), (9, 6)])
def test_local_witnesses_answer_as_counting_from_scratch(monkeypatch, shape):
    """With tiles asked first (every question), the answers still equal a complete count along
    the removal path; every local witness is a second solution of the clues in force without
    the clue asked about, differing from the field in its window; some questions were answered
    by a tile and some by the whole grid."""
    _tiny_tiles(monkeypatch)
    rng = np.random.default_rng(shape[0] * 100 + shape[1])
    local_answers = whole_grid_answers = 0
    for _ in range(200):
        field = rng.random(shape) < rng.uniform(0.2, 0.6)
        clues = status(field)
        if backtrack.solve(make_problem(clues), limit=2).verdict is not Verdict.UNIQUE:
            continue
        known = np.ones(field.size, dtype=bool)
        order = rng.permutation(field.size)
        with sat.SecondSolution(field, order, batch=5, local=True) as oracle:
            for c in order:
                c = int(c)
                fewer = known.copy()
                fewer[c] = False
                problem = make_problem(clues, fewer.reshape(shape))
                expected = backtrack.solve(problem, limit=2).verdict is Verdict.MULTIPLE
                other = oracle.local.witness(c)
                if other is not None:
                    assert is_solution(other, problem) and not np.array_equal(other, field)
                    r, q = divmod(c, shape[1])
                    near = np.zeros(shape, dtype=bool)
                    near[max(r - 1, 0) : r + 2, max(q - 1, 0) : q + 2] = True
                    assert (other != field)[near].any()
                found_before = oracle.local_found
                answer = oracle.another_without(c)
                assert answer == expected, (shape, c)
                local_answers += oracle.local_found - found_before
                whole_grid_answers += answer and oracle.local_found == found_before
                oracle.decide(c, answer)
                known[c] = answer
        if local_answers and whole_grid_answers:
            break
    assert local_answers and whole_grid_answers


@needs_sat
def test_local_witnesses_change_no_decision(monkeypatch):
    """A removal path on a 17 x 23 grid (tiles of 3 x 3 clues, stale tiles rebuilt) decides every
    clue as the whole-grid solver alone does."""
    field = random_field(17, 23, 50, np.random.default_rng(5))
    order = np.random.default_rng(6).permutation(field.size)
    paths = {}
    for local in (False, True):
        if local:
            _tiny_tiles(monkeypatch, core=3, margin=2)
        with sat.SecondSolution(field, order, local=local) as oracle:
            for c in order:
                c = int(c)
                oracle.decide(c, oracle.another_without(c))
            paths[local] = oracle.state.copy()
            if local:  # 6 x 8 tiles: more builds than that means stale tiles were rebuilt
                assert oracle.local_found > 0 and oracle.local.builds > 6 * 8
    assert np.array_equal(paths[False], paths[True])


@needs_sat
def test_a_local_witness_that_is_not_a_second_solution_is_an_error():
    field = np.zeros((4, 5), dtype=bool)
    field[1, 2] = True
    state = np.full(field.size, -1, dtype=np.int8)
    with pytest.raises(ValueError, match="margin of at least 1"):
        sat.LocalWitness(field, status(field).ravel(), state, core=2, margin=0)
    witness = sat.LocalWitness(field, status(field).ravel(), state)
    with pytest.raises(RuntimeError, match="not a second solution"):
        witness._check(field.copy(), 7, (0, 4, 0, 5))  # the field itself: it does not differ
    moved = np.zeros_like(field)
    moved[1, 3] = True
    with pytest.raises(RuntimeError, match="not a second solution"):
        witness._check(moved, 7, (0, 4, 0, 5))  # differs near clue 7, but breaks other clues


def _milp_backbone(problem, asked, deadline=None):
    """MILP's backbone, told the values of some cells every solution shares (as a deduction
    would tell it) when the problem has any."""
    from recon.engines import milp

    every = np.array([np.frombuffer(b, dtype=bool) for b in brute_force(problem.clues, problem.known)]
                     or np.zeros((0, problem.cells), bool))
    values = np.full(problem.cells, -1)
    if len(every) and problem.mines is None:
        shared = np.flatnonzero(every.min(axis=0) == every.max(axis=0))[::2]
        values[shared] = every[0, shared]
    return milp.backbone(problem, asked, deadline, values=values)


@pytest.mark.parametrize("backbone", [pytest.param(sat.backbone, marks=needs_sat, id="sat"),
                                      pytest.param(_milp_backbone, id="milp")])
@pytest.mark.parametrize("shape", SHAPES)
def test_backbone_is_exactly_the_cells_every_solution_shares(shape, backbone):
    """sat.backbone and milp.backbone prove a cell certain exactly when every solution (brute
    force) has its value, and name every other cell asked as varying, with a total too; with no
    solution they prove nothing."""
    rng = np.random.default_rng(sum(shape) * 11 + shape[1])
    for _ in range(12):
        field = rng.random(shape) < rng.uniform(0.2, 0.7)
        known = rng.random(shape) < rng.uniform(0.2, 1.0)
        clues = status(field)
        if rng.random() < 0.15:
            clues = clues.copy()
            clues.flat[int(rng.integers(clues.size))] ^= 1  # often no solution
        mines = int(field.sum()) if rng.random() < 0.3 else None
        every = [f for f in (np.frombuffer(b, dtype=bool).reshape(shape) for b in brute_force(clues, known))
                 if mines is None or f.sum() == mines]
        asked = [x for x in range(clues.size) if rng.random() < 0.8]
        fixed, varying, complete = backbone(make_problem(clues, known, mines=mines), asked)
        assert complete
        if not every:
            assert fixed == {} and varying == set()
            continue
        same = {x for x in asked if len({int(f.flat[x]) for f in every}) == 1}
        assert set(fixed) == same and {x: int(every[0].flat[x]) for x in same} == fixed
        assert set(asked) - same <= varying
        assert all(len({int(f.flat[x]) for f in every}) == 2 for x in varying)


def _window_equations(clues, known):
    """Each known clue as an equation (its window's flat cells, its count)."""
    rows, cols = clues.shape
    return [([y * cols + x for y in range(max(r - 1, 0), min(r + 2, rows)) for x in range(max(c - 1, 0), min(c + 2, cols))],
             int(clues[r, c])) for r in range(rows) for c in range(cols) if known[r, c]]


@needs_sat
@pytest.mark.parametrize("shape", [(1, 7), (7, 1), (2, 5), (5, 2), (3, 4)])
def test_a_large_model_under_a_deadline_answers_as_without_one(monkeypatch, shape):
    """Past INTERRUPT_CELLS a model under a deadline goes to Minicard, without the quick try: the
    engine, the backbone and the group enumerator then answer as brute force does (made large
    here by a threshold of 0), with a total too."""
    monkeypatch.setattr(sat, "INTERRUPT_CELLS", 0)
    far = time.perf_counter() + 60
    rng = np.random.default_rng(sum(shape) * 13 + shape[0])
    cells = list(range(shape[0] * shape[1]))
    for _ in range(8):
        field = rng.random(shape) < 0.5
        known = rng.random(shape) < 0.6
        clues = status(field)
        expected = brute_force(clues, known)
        assert sat._limited_solver(len(cells), far)[1] is False
        result = sat.solve(make_problem(clues, known), limit=len(expected) + 1, time_limit=60)
        assert result.count_exact and keys(result.solutions) == expected
        mines = int(field.sum())
        with_total = sat.solve(make_problem(clues, known, mines=mines), limit=len(expected) + 1, time_limit=60)
        every = [np.frombuffer(b, dtype=bool).reshape(shape) for b in expected]
        assert keys(with_total.solutions) == {f.tobytes() for f in every if f.sum() == mines}
        fixed, varying, complete = sat.backbone(make_problem(clues, known), cells, deadline=far)
        same = {x for x in cells if len({int(f.flat[x]) for f in every}) == 1}
        assert complete and set(fixed) == same and varying == set(cells) - same
        equations = _window_equations(clues, known)
        listed = {tuple(v[x] for x in cells) for v in sat.iter_equation_solutions(cells, equations, deadline=far)}
        assert listed == {tuple(int(f.flat[x]) for x in cells) for f in every}
    assert sat._limited_solver(len(cells), None)[1] is True  # no deadline: Gluecard, as ever


@pytest.mark.parametrize("engine", [pytest.param("sat", marks=needs_sat), "milp"])
def test_backbone_out_of_time_says_so(engine):
    from recon.engines import milp

    field = random_field(30, 30, 50, np.random.default_rng(1))
    known = np.random.default_rng(2).random((30, 30)) < 0.3
    backbone = sat.backbone if engine == "sat" else milp.backbone
    fixed, varying, complete = backbone(make_problem(status(field), known), range(900), deadline=0.0)
    assert not complete and fixed == {} and varying == set()


@needs_sat
@pytest.mark.parametrize("shape", [(1, 9), (9, 1), (2, 7), (4, 4)])
def test_sat_enumerates_the_group_solutions_backtracking_enumerates(shape):
    """sat.iter_equation_solutions yields the same 0/1 solutions as the backtracking search (and
    raises TimeUp at a passed deadline)."""
    rng = np.random.default_rng(sum(shape))
    cells = list(range(shape[0] * shape[1]))
    for _ in range(10):
        field = rng.random(shape) < 0.5
        known = rng.random(shape) < 0.6
        clues = status(field)
        equations = _window_equations(clues, known)
        by_sat = {tuple(v[x] for x in cells) for v in sat.iter_equation_solutions(cells, equations)}
        by_search = {tuple(v[x] for x in cells) for v in backtrack.iter_equation_solutions(cells, equations)}
        assert by_sat == by_search and len(by_sat) >= 1
    with pytest.raises(TimeUp):
        list(sat.iter_equation_solutions(cells, [], deadline=0.0))
    assert list(sat.iter_equation_solutions(cells[:2], [(cells[:2], 3)])) == []  # 3 mines in 2 cells
    assert list(sat.iter_equation_solutions(cells[:2], [(cells[:2], -1)])) == []
