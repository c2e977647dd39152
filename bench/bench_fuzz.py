"""Fuzz corpus: malformed inputs for every reader and command, counted (issue: hardening).

    python bench/bench_fuzz.py --inputs 10000 --seed 1

Each input is a random edit of a valid input in one of recon's formats (tests/fuzzing.py), run
through one of the commands in process, each held to a time limit (SIGALRM). The table counts the
exit statuses; anything but an answer (0, 1, 3, 4) or a refusal with a message (2) is a failure,
listed with the input that caused it. 0 failures expected.

    python bench/bench_fuzz.py --argv --inputs 3000 --seed 1

--argv: random command lines instead (tests/fuzzing.py's `random_argv`: every command but play
and warmup, options from recon's own parser with sane or edge values, small inputs).
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

from fuzzing import COMMANDS, SEEDS, argv_files, judge, judge_argv, mutate, random_argv, run_argv, run_one  # noqa: E402


class Hung(BaseException):
    """An input ran past --hang-seconds. Not an Exception: recon's main would turn it into exit 70
    (a bug) and the hang would be reported as a crash."""


def _alarm(signum, frame):
    raise Hung


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hang-seconds", type=int, default=10, help="an input taking longer is a failure")
    parser.add_argument("--argv", action="store_true", help="random command lines instead of malformed inputs")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        cases = command_lines(rng, tmp) if args.argv else inputs(rng, tmp)
        return campaign(cases, args.inputs, args.hang_seconds, "command lines" if args.argv else "inputs")


def inputs(rng: random.Random, tmp: str):
    """Malformed inputs, each run through a command: (what it was, a call that runs it and says
    what went wrong, or None)."""
    path = os.path.join(tmp, "input.txt")
    while True:
        data = rng.choice(SEEDS) if rng.random() < 0.02 else mutate(rng.choice(SEEDS), rng, rng.randint(1, 6))
        if rng.random() < 0.05:
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
        command = rng.choice(COMMANDS)

        def case(data=data, command=command):
            code, err = run_one(path, data, command)
            return code, err, judge(code, err, path)

        yield f"recon {command[0]} {' '.join(command[1:])} on {data[:80]!r}", case


def command_lines(rng: random.Random, tmp: str):
    """Random command lines (tests/fuzzing.py's random_argv), as `inputs` gives its cases."""
    files = argv_files(tmp)
    while True:
        argv = random_argv(rng, tmp, files)

        def case(argv=argv):
            code, err = run_argv(argv)
            return code, err, judge_argv(code, err, tmp)

        yield f"recon {' '.join(argv)}", case


def campaign(cases, count: int, hang_seconds: int, what: str) -> int:
    """Run `count` cases, each held to hang_seconds; print the exit statuses and the failures."""
    signal.signal(signal.SIGALRM, _alarm)
    codes: collections.Counter = collections.Counter()
    failures = []
    start = time.perf_counter()
    for _, (label, case) in zip(range(count), cases):
        signal.alarm(hang_seconds)
        try:
            code, err, problem = case()
        except Hung:
            code, problem, err = -1, f"took more than {hang_seconds} s", ""
        finally:
            signal.alarm(0)
        codes[code] += 1
        if problem:
            failures.append((problem, label, err.strip().splitlines()[-1:] if err else []))
    print(f"{count} {what} in {time.perf_counter() - start:.0f} s\n")
    print(f"| exit | {what} |")
    print("|---|---|")
    for code, n in sorted(codes.items()):
        print(f"| {code} | {n} |")
    print(f"\nfailures: {len(failures)}")
    for problem, label, last in failures[:20]:
        print(f"- {problem}: {label}: {last}")
    return 1 if failures else 0

if __name__ == "__main__":
    sys.exit(main())
