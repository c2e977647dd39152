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

from fuzzing import ANSWERS, COMMANDS, SEEDS, argv_files, judge, mutate, random_argv, run_argv, run_one  # noqa: E402


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
    if args.argv:
        return fuzz_command_lines(args)
    rng = random.Random(args.seed)
    signal.signal(signal.SIGALRM, _alarm)
    codes: collections.Counter = collections.Counter()
    failures = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "input.txt")
        for i in range(args.inputs):
            data = rng.choice(SEEDS) if rng.random() < 0.02 else mutate(rng.choice(SEEDS), rng, rng.randint(1, 6))
            if rng.random() < 0.05:
                data = bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
            command = rng.choice(COMMANDS)
            signal.alarm(args.hang_seconds)
            try:
                code, err = run_one(path, data, command)
                problem = judge(code, err, path)
            except Hung:
                code, problem, err = -1, f"took more than {args.hang_seconds} s", ""
            finally:
                signal.alarm(0)
            codes[code] += 1
            if problem:
                failures.append((problem, command, data, err.strip().splitlines()[-1:] if err else []))
    seconds = time.perf_counter() - start
    print(f"{args.inputs} inputs in {seconds:.0f} s\n")
    print("| exit | inputs |")
    print("|---|---|")
    for code, n in sorted(codes.items()):
        print(f"| {code} | {n} |")
    print(f"\nfailures: {len(failures)}")
    for problem, command, data, last in failures[:20]:
        print(f"- {problem}: recon {command[0]} {' '.join(command[1:])} on {data[:80]!r}: {last}")
    return 1 if failures else 0


def fuzz_command_lines(args) -> int:
    """Random command lines, run in process: the exit statuses counted, failures listed."""
    rng = random.Random(args.seed)
    signal.signal(signal.SIGALRM, _alarm)
    codes: collections.Counter = collections.Counter()
    failures = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        files = argv_files(tmp)
        for _ in range(args.inputs):
            argv = random_argv(rng, tmp, files)
            signal.alarm(args.hang_seconds)
            try:
                code, err = run_argv(argv)
                problem = None if code in ANSWERS and "Traceback" not in err and "internal error" not in err else f"exit {code}"
            except Hung:
                code, problem, err = -1, f"took more than {args.hang_seconds} s", ""
            finally:
                signal.alarm(0)
            codes[code] += 1
            if problem:
                failures.append((problem, argv, err.strip().splitlines()[-1:] if err else []))
    print(f"{args.inputs} command lines in {time.perf_counter() - start:.0f} s\n")
    print("| exit | command lines |")
    print("|---|---|")
    for code, n in sorted(codes.items()):
        print(f"| {code} | {n} |")
    print(f"\nfailures: {len(failures)}")
    for problem, argv, last in failures[:20]:
        print(f"- {problem}: recon {' '.join(argv)}: {last}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
