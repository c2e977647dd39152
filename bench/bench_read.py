"""Benchmark: what reading an input costs `recon solve` (`recon play` for a map) when it has
millions of short lines or elements (the refusal of a grid past --max-cells, or a legal grid after
many comment lines), in a fresh process each: time and peak memory (issue: hardening).

    python bench/bench_read.py
    python bench/bench_read.py --peer /path/to/an/older/checkout

--peer runs the same inputs with another checkout of recon first on PYTHONPATH (an older commit,
say, from `git worktree add`), in the same sitting, alternating with this one.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

#: (name, the input's bytes, the command and its options): about 40-60 MB each, 16 million cells the limit
INPUTS = [
    ("20M lines of one cell, LF", lambda: b"1\n" * 20_000_000, ["solve"]),
    ("20M lines of one cell, CR LF", lambda: b"1\r\n" * 20_000_000, ["solve"]),
    ("10M lines of two tokens", lambda: b"1 1\n" * 10_000_000, ["solve"]),
    ("one line of 50M cells", lambda: b"1" * 50_000_000 + b"\n", ["solve"]),
    ("hakank's shape, 20M rows", lambda: b"20000000\n" + b"1\n" * 20_000_000, ["solve"]),
    ("a board, 20M lines", lambda: b"1\n" * 20_000_000, ["solve", "--classic"]),
    ("10M comment lines, then 2x2", lambda: b"# x\n" * 10_000_000 + b"11\n11\n", ["solve"]),
    ("LEGUP, 100000x100000 declared, 3M cells", lambda: (b'<Legup><puzzle name="Fillapix"><board height="100000" '
     b'width="100000"><cells>' + b'<cell value="1" x="0" y="0"/>' * 3_000_000 + b"</cells></board></puzzle></Legup>"), ["solve"]),
    ("endoh1 map, 9999x9999 declared, 40M numbers (play)", lambda: b"9999 9999 0\n" + b"0 " * 40_000_000, ["play"]),
]


def run(path: str, command: list[str], where: str | None) -> tuple[float, float, int]:
    """(seconds, peak MB, exit status) of `recon COMMAND path OPTIONS` in a fresh process (its own
    peak, from wait4)."""
    env = dict(os.environ)
    if where:
        env["PYTHONPATH"] = where
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "recon", command[0], path, *command[1:]], env=env, cwd=where or None,
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - start, usage.ru_maxrss / 1024, child.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", help="another checkout of recon, run from its own directory")
    args = parser.parse_args()
    print("| input | this: time | this: peak | peer: time | peer: peak | exit |" if args.peer else "| input | time | peak | exit |")
    print("|---|---|---|---|---|---|" if args.peer else "|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, make, command in INPUTS:
            path = os.path.join(tmp, "input.txt")
            with open(path, "wb") as handle:
                handle.write(make())
            peer = run(path, command, args.peer) if args.peer else None
            this = run(path, command, None)
            cells = f"{this[0]:.2f} s | {this[1]:,.0f} MB"
            if peer:
                cells += f" | {peer[0]:.2f} s | {peer[1]:,.0f} MB"
            print(f"| {name} | {cells} | {this[2]} |", flush=True)


if __name__ == "__main__":
    main()
