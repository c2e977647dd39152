"""Exact algebra for a full status: S = T_rows X T_cols, solved in integers in O(rows x cols).

T_k is the k x k tridiagonal matrix of ones. Solving T_k y = s is a chain: with y_-1 = y_k = 0,
each equation y_(i-1) + y_i + y_(i+1) = s_i minus the one before gives
y_(i+1) = y_(i-2) + s_i - s_(i-1), so each residue class of indices mod 3 is a cumulative sum,
started by y_-1 = 0, y_0 (unknown) and y_1 = s_0 - y_0. The last condition y_k = 0 fixes y_0 when
k mod 3 is 0 or 1; when k = 2 (mod 3) it is a consistency condition instead and y_0 stays free:
the solutions are p + t h with h = (1, -1, 0, 1, -1, 0, ..., 1, -1), T_k h = 0. All of this is
integer cumsums on whole arrays: no floating point, no rounding, no Python loop over cells.

- Neither side = 2 (mod 3): X = T_rows^-1 S T_cols^-1 exactly; the answer iff it is 0/1.
- One side = 2: every line across that side is independent, X[:, j] = p_j + t_j h; each line
  allows 0, 1 or 2 values of t_j, and the number of solutions is their product.
- Both sides = 2: X = X0 + v a^T + b w^T. Lines whose null entry is 0 are again independent; the
  rest reduce to difference constraints A_j - G_i in [L_ij, L_ij + 1] over integers (one per cell),
  decided by bounds propagation (exact for difference constraints), split into independent
  groups, and counted by enumeration within a budget (beyond it the count is reported as a lower
  bound, never guessed).
"""

from __future__ import annotations

import time
from fractions import Fraction

import numpy as np

from ..model import Groups, Problem, cell_name
from ..result import Result, Verdict

NAME = "algebra"
#: Enumeration budget (solutions of one group of coupled lines) for exact counts and probabilities.
COUNT_BUDGET = 100_000


class NotApplicable(ValueError):
    """The algebra engine needs a full status."""


def null_pattern(k: int) -> np.ndarray:
    """Return h_k = (1, -1, 0, 1, -1, 0, ...) of length k (T_k h = 0 when k = 2 mod 3)."""
    return np.resize(np.array([1, -1, 0], dtype=np.int32), k)


def chain_dtype(s: np.ndarray, axis: int = 0) -> type:
    """The narrowest integer type in which the chain of s along an axis cannot overflow.

    y_t = y_(t-3) + s_(t-1) - s_(t-2), started by y_1 = s_0, so |y| <= 2 max|s| (k // 3 + 2). For
    counts 0..9 that is int16 up to k = 5456 (half the memory traffic of int32), int32 beyond.
    """
    if s.size == 0:
        return np.int32
    largest = max(int(s.max()), -int(s.min()), 1)
    bound = 2 * largest * (s.shape[axis] // 3 + 2)
    for dtype in (np.int16, np.int32):
        if bound <= np.iinfo(dtype).max:
            return dtype
    return np.int64


def _running_sum(a: np.ndarray) -> None:
    """Replace a by its running sum along axis 0, in place.

    numpy's cumsum along axis 0 walks each column down the rows, one cache line per element on a
    wide grid; adding whole rows one after another reads memory in order and is several times
    faster once a row is long enough for the Python loop not to matter. Along a contiguous axis (the moved-axis view of axis 1) cumsum
    is the faster of the two.
    """
    if a.ndim == 2 and a.shape[1] >= 256 and a.strides[1] < a.strides[0]:
        for i in range(1, a.shape[0]):
            np.add(a[i], a[i - 1], out=a[i])
    else:
        np.cumsum(a, axis=0, out=a)


def chain(s: np.ndarray, axis: int = 0) -> np.ndarray:
    """Solve T y = s along an axis with y_0 = 0; return y_0..y_k (k + 1 entries, the last must be 0)."""
    s = np.asarray(s)
    dtype = chain_dtype(s, axis)
    shape = list(s.shape)
    shape[axis] += 1
    y = np.zeros(shape, dtype=dtype)
    # Work on views with the chain axis first; numpy walks them in memory order, no transposed copy.
    sv, yv = np.moveaxis(s, axis, 0), np.moveaxis(y, axis, 0)
    k = sv.shape[0]
    if k >= 1:
        yv[1] = sv[0]
    # y_t = y_(t-3) + s_(t-1) - s_(t-2) for t = 2..k; class r is started by y_-1 = 0, y_0, y_1
    for r, start in ((2, 2), (0, 3), (1, 4)):
        if start > k:
            continue
        target = yv[start::3]  # a strided view: y_start, y_(start+3), ...
        count = target.shape[0]
        # dtype= makes numpy subtract in the wide type (uint8 counts would wrap otherwise)
        np.subtract(sv[start - 1 :: 3][:count], sv[start - 2 :: 3][:count], out=target, dtype=dtype)
        _running_sum(target)
        if r != 2:
            target += yv[r]
    return y


def solve_line(s: np.ndarray, axis: int = 0) -> tuple[np.ndarray, np.ndarray | None]:
    """Solve T_k y = s along an axis exactly (k = s.shape[axis]).

    Returns (y, None) when k != 2 (mod 3); when k = 2 (mod 3), returns (p, ok) where the
    solutions are p + t h_k along the axis for any t, and ok says for which lines the system is
    consistent.
    """
    p = chain(s, axis)
    k = p.shape[axis] - 1
    shape = [1] * p.ndim
    shape[axis] = k
    h = null_pattern(k).reshape(shape)
    end = np.take(p, k, axis=axis)
    body = np.take(p, np.arange(k), axis=axis) if axis else p[:k]
    if k % 3 == 2:
        return body, end == 0
    y0 = -end if k % 3 == 0 else end  # h_k = 1 when k = 0 (mod 3), -1 when k = 1
    return body + np.expand_dims(y0, axis) * h, None


def _first_bad(x: np.ndarray) -> tuple[int, int] | None:
    bad = np.argwhere((x != 0) & (x != 1))
    return (int(bad[0][0]), int(bad[0][1])) if bad.size else None


class Solutions:
    """The solution set of a full status, described by independent choices."""

    def __init__(self, problem: Problem, deadline: float | None = None, budget: int = COUNT_BUDGET):
        """deadline (time.perf_counter) and budget bound the enumeration of coupled groups, the
        one part that is not linear: past either, the count is a lower bound (count_exact False,
        timed_out True at the deadline) and every group keeps the solutions listed so far."""
        if not problem.is_full:
            raise NotApplicable("the algebra engine needs a full status (every cell a clue)")
        self.problem = problem
        self.deadline, self.budget = deadline, budget
        self.timed_out = False
        self.reason: str | None = None
        self.kind = ""
        self.count: int = 0
        self.count_exact = True
        self._build()

    # -- construction ------------------------------------------------------------------
    def _build(self) -> None:
        rows, cols = self.problem.shape
        s = self.problem.clues  # uint8: chain() widens as it goes, no full-size copy here
        n2, m2 = rows % 3 == 2, cols % 3 == 2
        if not n2 and not m2:
            self.kind = "invertible"
            x = solve_line(solve_line(s, 0)[0], 1)[0]
            bad = _first_bad(x)
            if bad:
                self._none(f"the exact inverse gives {int(x[bad])} at {cell_name(*bad)}, not 0 or 1")
                return
            self.base, self.count = x, 1
            self.lines = []
            return
        if n2 != m2:
            self.kind = "lines"
            self.transposed = m2
            s_ = s.T if m2 else s  # now the singular side is axis 0
            w = solve_line(s_, 1)[0]  # invert the regular side
            p, ok = solve_line(w)
            if not ok.all():
                j = int(np.flatnonzero(~ok)[0])
                self._none(self._line_name(j) + " cannot be met by any field: the counts along it are inconsistent")
                return
            h = null_pattern(p.shape[0])[:, None]
            valid0 = ((p == 0) | (p == 1)).all(axis=0)
            valid1 = ((p + h == 0) | (p + h == 1)).all(axis=0)
            choices = valid0.astype(int) + valid1
            if (choices == 0).any():
                j = int(np.flatnonzero(choices == 0)[0])
                self._none(self._line_name(j) + " has no 0/1 solution")
                return
            self.p, self.h, self.valid0, self.valid1 = p, h, valid0, valid1
            self.count = 1 << int((choices == 2).sum())
            return
        self.kind = "coupled"
        self._build_coupled(s)

    def _line_name(self, j: int) -> str:
        return f"row {j + 1}" if self.transposed else f"column {j + 1}"

    def _none(self, reason: str) -> None:
        self.reason = reason
        self.count = 0

    def _build_coupled(self, s: np.ndarray) -> None:
        rows, cols = s.shape
        p, ok = solve_line(s)  # T_rows Y = S: Y = p + h a^T
        if not ok.all():
            j = int(np.flatnonzero(~ok)[0])
            self._none(f"column {j + 1}: the counts are inconsistent with any field")
            return
        v, w = null_pattern(rows), null_pattern(cols)
        # Each row of Y must be in the range of T_cols: chain end q(p_i) + v_i q(a) = 0.
        rows_chain = chain(p, 1)  # row i of p solved along the columns; its last entry is q(p_i)
        ends = rows_chain[:, cols]
        fixed_rows = v == 0
        if (ends[fixed_rows] != 0).any():
            i = int(np.flatnonzero(fixed_rows & (ends != 0))[0])
            self._none(f"row {i + 1}: the counts are inconsistent with any field")
            return
        need = -ends[~fixed_rows].astype(np.int64) * v[~fixed_rows]  # the value q(a) must take, per row
        if need.size and (need != need[0]).any():
            self._none("the row and column sums of the counts are inconsistent with any field")
            return
        # Choosing a = c e_last (q(e_last) = 1) makes every row consistent. e_last only enters the
        # chain's final condition, so the particular solution itself is rows_chain[:cols]: no
        # second pass is needed.
        x0 = rows_chain[:, :cols]
        del rows_chain
        self.x0, self.v, self.w = x0, v, w
        # Cells outside every null line are fixed.
        corner = x0[np.ix_(v == 0, w == 0)]
        bad = np.argwhere((corner != 0) & (corner != 1))
        if bad.size:
            r, cc = (int(np.flatnonzero(v == 0)[bad[0][0]]), int(np.flatnonzero(w == 0)[bad[0][1]]))
            self._none(f"{cell_name(r, cc)} would have to hold {int(x0[r, cc])} mines")
            return
        # Free lines: a_j for w_j = 0 (columns), b_i for v_i = 0 (rows).
        self.free_cols = self._free_options(x0)
        self.free_rows = self._free_options(x0.T)
        for name, options in (("column", self.free_cols), ("row", self.free_rows)):
            for j, vals in options.items():
                if not vals:
                    self._none(f"{name} {j + 1} has no 0/1 solution")
                    return
        # Coupled block: A_j - G_i in [L_ij, L_ij + 1] for v_i != 0, w_j != 0.
        self.I = np.flatnonzero(v != 0)
        self.J = np.flatnonzero(w != 0)
        sub = x0[np.ix_(self.I, self.J)]
        if sub.size and (sub.max() > 100 or sub.min() < -100):
            self._none("the lines through the ambiguous rows and columns admit no 0/1 field")
            return
        # L = -sub where v_i w_j = 1, sub - 1 where it is -1; v and w alternate 1, -1 along I and
        # J, so the sign is set on strided quarters in place (values in -2..1 where solvable)
        L = sub.astype(np.int16)
        del sub
        L[0::2, 0::2] *= -1
        L[1::2, 1::2] *= -1
        L[0::2, 1::2] -= 1
        L[1::2, 0::2] -= 1
        self.L = L
        lo_a, hi_a, lo_g, hi_g = _propagate(self.L, *_start_bounds(self.L))
        if lo_a is None:
            self._none("the lines through the ambiguous rows and columns admit no 0/1 field")
            return
        self.bounds = (lo_a, hi_a, lo_g, hi_g)
        count = 1
        for options in (*self.free_cols.values(), *self.free_rows.values()):
            count *= len(options)
        groups, exact = self._count_groups()
        self.groups = groups
        for g in groups:
            count *= g["count"]
        self.count = count
        self.count_exact = exact

    @staticmethod
    def _free_options(x0: np.ndarray) -> dict[int, list[int]]:
        """For each free column j (w_j = 0, so j = 2 mod 3), the t with x0[:, j] + t v in {0, 1}.

        v is 1, -1, 0 repeating down the column, so x0[i, j] + t v_i in {0, 1} for all i says:
        t in [-min, 1 - max] over the rows with v_i = 1, t in [max - 1, min] over those with
        v_i = -1, and the rows with v_i = 0 already 0 or 1. Each is a reduction over a strided
        view (rows 0::3, 1::3, 2::3 of columns 2::3): no copy, no temporary of the grid's size.
        """
        free = x0[:, 2::3]
        plus, minus, still = free[0::3], free[1::3], free[2::3]
        big = int(np.iinfo(x0.dtype).max)  # an empty reduction's value; the results are widened at once

        def reduce(part, how, initial):
            return how(part, axis=0, initial=initial).astype(np.int64)

        low = np.maximum(-reduce(plus, np.min, big), reduce(minus, np.max, -big) - 1)
        high = np.minimum(1 - reduce(plus, np.max, -big), reduce(minus, np.min, big))
        if still.shape[0]:
            ok = (still.min(axis=0) >= 0) & (still.max(axis=0) <= 1)
            high = np.where(ok, high, low - 1)
        return {3 * j + 2: list(range(int(lo), int(hi) + 1)) for j, (lo, hi) in enumerate(zip(low, high))}

    def _count_groups(self) -> tuple[list[dict], bool]:
        """Split the open coupled variables into independent groups and enumerate each."""
        lo_a, hi_a, lo_g, hi_g = self.bounds
        L = self.L
        open_a = np.flatnonzero(lo_a < hi_a)
        open_g = np.flatnonzero(lo_g < hi_g)
        # A constraint between A_j and G_i binds only if some pair of values in their domains breaks it.
        nodes = [("a", int(j)) for j in open_a] + [("g", int(i)) for i in open_g]
        joined = Groups(nodes)
        if open_a.size and open_g.size:
            sub_l = L[np.ix_(open_g, open_a)]
            binds = (hi_a[open_a][None, :] - lo_g[open_g][:, None] > sub_l + 1) | (
                lo_a[open_a][None, :] - hi_g[open_g][:, None] < sub_l
            )
            for gi, aj in np.argwhere(binds):
                joined.join([("a", int(open_a[aj])), ("g", int(open_g[gi]))])
        members = joined.members(nodes)
        groups, exact = [], True
        for nodes_ in members.values():
            solutions, complete = self._enumerate(nodes_)
            exact &= complete
            groups.append({"nodes": nodes_, "solutions": solutions, "count": len(solutions), "complete": complete})
        return groups, exact

    def _enumerate(self, nodes: list[tuple[str, int]]) -> tuple[list[dict], bool]:
        """List the value assignments of a group of coupled variables (up to the budget)."""
        lo_a, hi_a, lo_g, hi_g = self.bounds
        if len(nodes) == 1:  # bounds are exact for difference constraints: every value in them is feasible
            kind, idx = nodes[0]
            lo, hi = (lo_a, hi_a) if kind == "a" else (lo_g, hi_g)
            values = range(int(lo[idx]), int(hi[idx]) + 1)
            return [{nodes[0]: v} for v in values][: self.budget], len(values) <= self.budget
        out: list[dict] = []

        def values(bounds, k):
            kind, idx = nodes[k]
            side = 0 if kind == "a" else 2
            return iter(range(int(bounds[side][idx]), int(bounds[side + 1][idx]) + 1))

        # depth first, with a stack of its own: a group can hold thousands of coupled lines
        root = [lo_a.copy(), hi_a.copy(), lo_g.copy(), hi_g.copy()]
        stack = [(root, 0, values(root, 0))]
        deadline = self.deadline
        while stack:
            if deadline is not None and time.perf_counter() > deadline:
                self.timed_out = True
                return out, False
            bounds, k, todo = stack[-1]
            value = next(todo, None)
            if value is None:
                stack.pop()
                continue
            kind, idx = nodes[k]
            side = 0 if kind == "a" else 2
            b = [arr.copy() for arr in bounds]
            b[side][idx] = b[side + 1][idx] = value
            result = _propagate(self.L, *b)
            if result[0] is None:
                continue
            if k + 1 < len(nodes):
                stack.append((list(result), k + 1, values(result, k + 1)))
            elif len(out) >= self.budget:
                return out, False  # one solution more than the budget: the list is not complete
            else:
                out.append({node: int((result[0] if node[0] == "a" else result[2])[node[1]]) for node in nodes})
        return out, True

    # -- answers ---------------------------------------------------------------------
    def iter_fields(self, limit: int):
        """Yield up to limit solutions (boolean fields)."""
        if self.count == 0:
            return
        if self.kind == "invertible":
            yield self.base == 1
            return
        if self.kind == "lines":
            yield from self._iter_lines(limit)
            return
        yield from self._iter_coupled(limit)

    def _iter_lines(self, limit: int):
        both = np.flatnonzero(self.valid0 & self.valid1)
        first = np.where(self.valid0, 0, 1)
        produced = 0
        for mask in range(1 << min(len(both), 62)):
            if produced >= limit:
                return
            t = first.copy()
            for bit, j in enumerate(both[:62]):
                if mask >> bit & 1:
                    t[j] = 1
            x = self.p + self.h * t[None, :]
            yield (x.T if self.transposed else x) == 1
            produced += 1

    def _iter_coupled(self, limit: int):
        choices = []  # list of (kind, payload, options)
        for j, vals in self.free_cols.items():
            choices.append(("col", j, vals))
        for i, vals in self.free_rows.items():
            choices.append(("row", i, vals))
        for g in self.groups:
            choices.append(("group", None, g["solutions"]))
        lo_a, _, lo_g, _ = self.bounds
        produced = 0
        for pick in _product_indices([len(c[2]) for c in choices]):
            if produced >= limit:
                return
            a = np.zeros(len(self.w), dtype=self.x0.dtype)
            b = np.zeros(len(self.v), dtype=self.x0.dtype)
            A = lo_a.copy()
            G = lo_g.copy()
            for (kind, idx, options), k in zip(choices, pick):
                if kind == "col":
                    a[idx] = options[k]
                elif kind == "row":
                    b[idx] = options[k]
                else:
                    for (t, node), value in options[k].items():
                        (A if t == "a" else G)[node] = value
            a[self.J] = self.w[self.J] * A
            b[self.I] = -self.v[self.I] * G
            x = self.x0.copy()  # x0 + v a^T + b w^T, added on strided views (v, w are 1, -1, 0 repeating)
            x[0::3] += a
            x[1::3] -= a
            x[:, 0::3] += b[:, None]
            x[:, 1::3] -= b[:, None]
            yield x == 1
            produced += 1

    def probabilities(self) -> list[list[Fraction]] | None:
        """Return, per cell, the exact fraction of solutions with a mine there (None if not exact)."""
        if self.count == 0 or not self.count_exact:
            return None
        rows, cols = self.problem.shape
        made: dict[tuple[int, int], Fraction] = {}

        def fraction(num: int, den: int) -> Fraction:
            # cells of equal odds share one object: a unique field's million cells are two
            # Fractions, not a million, which its readers (the count's output) take once each
            key = (num, den)
            if key not in made:
                made[key] = Fraction(num, den)
            return made[key]

        if self.kind == "invertible":
            num = self.base.astype(object)
            den = 1
        elif self.kind == "lines":
            x0 = self.p
            x1 = self.p + self.h
            weight0 = self.valid0.astype(int)
            weight1 = self.valid1.astype(int)
            total = weight0 + weight1
            num = (x0 * weight0 + x1 * weight1).astype(object)
            prob = [[fraction(int(num[i, j]), int(total[j])) for j in range(num.shape[1])] for i in range(num.shape[0])]
            return [list(r) for r in zip(*prob)] if self.transposed else prob
        else:
            if self.count * rows * cols > 50_000_000:
                return None
            fields = list(self.iter_fields(COUNT_BUDGET + 1))
            if len(fields) != self.count:
                return None
            num = np.sum(fields, axis=0).astype(object)
            den = self.count
        return [[fraction(int(num[i, j]), den) for j in range(cols)] for i in range(rows)]


def _product_indices(sizes: list[int]):
    """Yield index tuples over the product of ranges, first index fastest... lazily."""
    if any(s == 0 for s in sizes):
        return
    idx = [0] * len(sizes)
    while True:
        yield tuple(idx)
        for k in range(len(sizes)):
            idx[k] += 1
            if idx[k] < sizes[k]:
                break
            idx[k] = 0
        else:
            return


def _start_bounds(L: np.ndarray):
    """Return first bounds: G_0 = 0 (the gauge: (a + c w, b - c v) is the same field), then what it implies."""
    lo_a, hi_a = L[0].copy(), L[0] + 1
    lo_g = (lo_a[None, :] - L - 1).max(axis=1)
    hi_g = (hi_a[None, :] - L).min(axis=1)
    lo_g[0] = hi_g[0] = 0
    return lo_a, hi_a, lo_g, hi_g


def _propagate(L, lo_a, hi_a, lo_g, hi_g):
    """Tighten bounds under A_j - G_i in [L_ij, L_ij + 1] to a fixpoint; None if empty."""
    if L.size == 0:
        return lo_a, hi_a, lo_g, hi_g
    for _ in range(4 * (L.shape[0] + L.shape[1]) + 4):
        new_lo_a = np.maximum(lo_a, (lo_g[:, None] + L).max(axis=0))
        new_hi_a = np.minimum(hi_a, (hi_g[:, None] + L + 1).min(axis=0))
        new_lo_g = np.maximum(lo_g, (new_lo_a[None, :] - L - 1).max(axis=1))
        new_hi_g = np.minimum(hi_g, (new_hi_a[None, :] - L).min(axis=1))
        if (new_lo_a > new_hi_a).any() or (new_lo_g > new_hi_g).any():
            return None, None, None, None
        if (
            np.array_equal(new_lo_a, lo_a)
            and np.array_equal(new_hi_a, hi_a)
            and np.array_equal(new_lo_g, lo_g)
            and np.array_equal(new_hi_g, hi_g)
        ):
            return lo_a, hi_a, lo_g, hi_g
        lo_a, hi_a, lo_g, hi_g = new_lo_a, new_hi_a, new_lo_g, new_hi_g
    return lo_a, hi_a, lo_g, hi_g


#: `solve` lists at most this many assignments per group of coupled lines: enough to list the
#: fields asked for and to tell one solution from several; `recon count` goes on to COUNT_BUDGET.
SOLVE_BUDGET = 1_000


def solve(problem: Problem, *, limit: int = 2, time_limit: float | None = None) -> Result:
    """Describe every solution of a full status exactly; list up to `limit` of them."""
    start = time.perf_counter()
    sols = Solutions(problem, None if time_limit is None else start + time_limit, max(SOLVE_BUDGET, limit + 1))
    fields = list(sols.iter_fields(limit))
    seconds = time.perf_counter() - start
    stats = {"kind": {"invertible": 0, "lines": 1, "coupled": 2}[sols.kind]}
    if sols.count < 2 and not sols.count_exact:  # out of time before one solution, or a second, was sure
        reason = f"time limit of {time_limit:g} s reached while enumerating coupled lines"
        return Result(Verdict.UNDECIDED, fields, False, NAME, seconds, stats, reason)
    if sols.count == 0:
        return Result(Verdict.NONE, [], True, NAME, seconds, stats, sols.reason)
    verdict = Verdict.UNIQUE if sols.count == 1 else Verdict.MULTIPLE
    reason = None
    if not sols.count_exact:
        reason = (f"time limit of {time_limit:g} s reached" if sols.timed_out else f"more than {sols.budget:,} solutions in one "
                  "group of coupled lines") + ": the count is a lower bound"
    return Result(
        verdict, fields, sols.count_exact, NAME, seconds, stats, reason, solution_count=max(sols.count, len(fields))
    )
