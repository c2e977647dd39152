"""Benchmark: puzzle generation time, clue fraction and grade per difficulty (issue 5 targets).

    python bench/bench_puzzle.py --sizes 10 20 --seeds 3

Each row: median seconds to a certified minimal puzzle at P = 50 %, the median fraction of clues
kept, how many seeds produced a puzzle, the grade `trim` (what `recon explain` prints) gives each
puzzle, and how many removal orders were tried (an order is retried when the result is easier
than asked). --only basic --sizes 60 runs one difficulty.

    python bench/bench_puzzle.py --only search --sizes 60 100 --local-ab

--local-ab times search generation with and without the tile solvers of `sat.LocalWitness`,
back to back for each seed (in alternating order), and prints both medians and the median of the
per-seed ratios: the same puzzles either way (checked here too), so only the time differs.

    python bench/bench_puzzle.py --sizes 30 60 100 --first-part-ab

--first-part-ab does the same for elimination-grade generation with `Options.first_part`
"advanced" (the clues the pairwise rules alone can do without go first, as advanced generation
removes them; the others are tried after) and "local" (the former first part: the clues the check
near them settles go first); needs numba and python-sat. The puzzles differ, so it prints the
median clue fraction of each too.

    python bench/bench_puzzle.py --sizes 60 100 --warm-ab

--warm-ab does it for elimination-grade generation with the warm starts of its whole-grid trims
(`Options.warm_block`) and without (warm_block = 0: every trim's pairwise phase from
scratch); the same puzzles either way (checked).

    python bench/bench_puzzle.py --sizes 60 100 --only advanced elimination search --order-ab
    python bench/bench_puzzle.py --sizes 20 30 --only advanced elimination search --extras-ab

--order-ab does it for each difficulty asked with clues removed tile by tile (the default,
`Options.order_tile`) and in plain random order (order_tile = 1). The puzzles differ, so it
prints the median clue fraction of each too. --extras-ab does it for each difficulty with the
extra it leans on and without it (numba for advanced and elimination, python-sat for search): the
same puzzles either way (checked).

    python bench/bench_puzzle.py --sizes 60 --seeds 2 --advanced-proofs

--advanced-proofs counts, for advanced generation, how many removals each of its proofs decides
(cheapest first, as `generation.advanced.remove_advanced` asks them).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

import numpy as np

from recon import make_problem
from recon.engines import trim
from recon.generation import DIFFICULTIES, GenerationFailed, Options, generate_puzzle


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 20, 30])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--p", type=float, default=50)
    parser.add_argument("--only", choices=DIFFICULTIES, nargs="+", default=list(DIFFICULTIES))
    parser.add_argument("--local-ab", action="store_true", help="search only: with and without sat.LocalWitness")
    parser.add_argument("--first-part-ab", action="store_true", help="elimination only: first_part advanced or local")
    parser.add_argument("--warm-ab", action="store_true", help="elimination only: trims started warm (warm_block) or cold")
    parser.add_argument("--order-ab", action="store_true", help="clues removed tile by tile (order_tile) or in plain random order")
    parser.add_argument("--extras-ab", action="store_true", help="with the extras or without: numba (advanced, elimination), python-sat (search)")
    parser.add_argument("--advanced-proofs", action="store_true", help="advanced only: how many removals each proof decides")
    args = parser.parse_args(argv)
    if args.order_ab:
        return order_ab(args)
    if args.extras_ab:
        return extras_ab(args)
    if args.advanced_proofs:
        return advanced_proofs(args)
    if args.warm_ab:
        return warm_ab(args)
    if args.local_ab:
        return local_ab(args)
    if args.first_part_ab:
        return first_part_ab(args)
    print("| size | difficulty | median s | median clue fraction | puzzles | grades (explain) | orders tried |")
    print("|---|---|---|---|---|---|---|")
    for n in args.sizes:
        for difficulty in args.only:
            times, fractions, made, grades, tries = [], [], 0, Counter(), []
            for seed in range(args.seeds):
                start = time.perf_counter()
                try:
                    puzzle = generate_puzzle(n, n, args.p, np.random.default_rng(seed), difficulty=difficulty)
                except GenerationFailed:
                    times.append(time.perf_counter() - start)
                    continue
                times.append(time.perf_counter() - start)
                made += 1
                fractions.append(puzzle.clue_count / (n * n))
                grades[str(trim.solve(make_problem(puzzle.clues, puzzle.known)).grade)] += 1
                tries.append(puzzle.tries)
            frac = f"{statistics.median(fractions):.1%}" if fractions else "-"
            print(f"| {n}x{n} | {difficulty} | {statistics.median(times):.2f} | {frac} | {made}/{args.seeds} | {dict(grades)} | {tries} |", flush=True)


def local_ab(args):
    """Search generation with the tile solvers (from every size) and without them, per seed."""
    ab(args, "search", "tiles", lambda on: Options(sat_tiles=on))


def first_part_ab(args):
    """Elimination-grade generation with first_part "advanced" (with) and "local" (without), per seed."""
    ab(args, "elimination", "the advanced first part", lambda on: Options(first_part="advanced" if on else "local"), same=False)


def warm_ab(args):
    """Elimination-grade generation with its trims started warm and cold (warm_block 0), per seed."""
    ab(args, "elimination", "warm trims", lambda on: Options() if on else Options(warm_block=0))


def order_ab(args):
    """Generation with clues removed tile by tile (with) and in plain random order (without), per
    seed, for each difficulty asked but basic (which always takes the plain order)."""
    for difficulty in args.only:
        if difficulty != "basic":
            print(f"\n{difficulty}:")
            ab(args, difficulty, "tiles", lambda on: Options() if on else Options(order_tile=1), same=False)


def extras_ab(args):
    """Generation with the extra each grade leans on and without it, per seed: numba for advanced
    and elimination (compiled=False), python-sat for search (sat=False, MILP certifies, as on the
    base install). The README's and `recon generate`'s "N times faster with the extra" come from
    this table."""
    without = {"advanced": Options(compiled=False), "elimination": Options(compiled=False),
               "search": Options(sat=False, certifier="milp")}
    for difficulty in args.only:
        if difficulty in without:
            print(f"\n{difficulty}:")
            ab(args, difficulty, "the extra", lambda on: Options() if on else without[difficulty])


def advanced_proofs(args):
    """Advanced generation, counting which proof decides each removal (`remove_advanced`'s steps,
    cheapest first): the check near the clue (first part), then the warm start, the proof that it
    stays with the far cells given (first radius), the check near it at the far radius, the same
    proof at the second radius, and the whole grid. Counts add up over the orders tried."""
    from recon.generation import advanced

    options = Options()
    counts = Counter()
    # which step a call is: the check near the clue and the proof that it stays by their radius
    names = {("window_fixed_nearby", options.pairwise_near): "part 1 goes",
             ("window_all_fixed", None): "warm start goes",
             ("must_stay", options.pairwise_given[0]): "stays (far cells given)",
             ("window_fixed_nearby", options.pairwise_far): "goes (near, far radius)",
             ("must_stay", options.pairwise_given[1]): "stays (second radius)",
             ("pairwise_window", None): "whole grid goes"}
    for name in {name for name, _ in names}:
        def counted(*a, _inner=getattr(advanced, name), _name=name, **k):
            answer = _inner(*a, **k)
            radius = a[4] if _name == "window_fixed_nearby" else a[5] if _name == "must_stay" else None
            counts[names[_name, radius]] += bool(answer)
            counts[names[_name, radius] + " asked"] += 1
            return answer
        setattr(advanced, name, counted)
    steps = list(names.values())
    print("| size | seed | orders | clues kept | " + " | ".join(steps) + " |")
    print("|---|---|---|---|" + "---|" * len(steps))
    for n in args.sizes:
        for seed in range(args.seeds):
            counts.clear()
            puzzle = generate_puzzle(n, n, args.p, np.random.default_rng(seed), difficulty="advanced", options=options)
            # the whole grid's answer is "the window is fixed", so its "no" is a clue that stays
            cells = [f"{counts[step]} of {counts[step + ' asked']}" for step in steps]
            print(f"| {n}x{n} | {seed} | {puzzle.tries} | {puzzle.clue_count} | " + " | ".join(cells) + " |", flush=True)


def ab(args, difficulty, what, options, same=True):
    """Time generation with `what` on and off (options(True) and options(False)),
    back to back per seed in alternating order; the puzzles must be the same, unless not `same`:
    then the median clue fractions are printed too."""
    generate_puzzle(12, 12, args.p, np.random.default_rng(0), difficulty=difficulty)  # load numba's kernels first
    extra = "" if same else " clue fraction with / without |"
    print(f"| size | with {what}, median s | without, median s | median ratio without/with | seeds |{extra}")
    print("|---|---|---|---|---|" + ("" if same else "---|"))
    for n in args.sizes:
        times = {True: [], False: []}
        fractions = {True: [], False: []}
        ratios = []
        for seed in range(args.seeds):
            made = {}
            for on in ((True, False) if seed % 2 == 0 else (False, True)):
                start = time.perf_counter()
                made[on] = generate_puzzle(n, n, args.p, np.random.default_rng(seed), difficulty=difficulty, options=options(on))
                times[on].append(time.perf_counter() - start)
                fractions[on].append(made[on].clue_count / (n * n))
            if same and not np.array_equal(made[True].known, made[False].known):
                raise SystemExit(f"different puzzles with and without {what} at {n}x{n}, seed {seed}")
            ratios.append(times[False][-1] / times[True][-1])
        extra = "" if same else f" {statistics.median(fractions[True]):.1%} / {statistics.median(fractions[False]):.1%} |"
        print(f"| {n}x{n} | {statistics.median(times[True]):.2f} | {statistics.median(times[False]):.2f} | "
              f"{statistics.median(ratios):.2f} | {args.seeds} |{extra}", flush=True)


if __name__ == "__main__":
    main()
