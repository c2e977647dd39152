"""Shared helpers for the tests: the bundled seed examples and a brute-force oracle."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from recon import parse_field, parse_status

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"

#: Shapes that expose row/column mix-ups; every engine test runs on them.
ODD_SHAPES = [(1, 1), (1, 5), (5, 1), (2, 7), (7, 2), (4, 11), (3, 8)]


def load_seed_examples() -> dict[str, tuple[np.ndarray, list[np.ndarray]]]:
    """Return {name: (status, [solutions])} from data/seed_examples.txt."""
    examples = {}
    blocks = (DATA / "seed_examples.txt").read_text().split("\n== ")[1:]
    for block in blocks:
        head, *rest = block.strip("\n").split("\n")
        name = head.split()[0]
        parts = "\n".join(rest).split("\n-- solution ")
        clues, known = parse_status(parts[0])
        assert known.all()
        solutions = [parse_field(p.split("\n", 1)[1]) for p in parts[1:]]
        expected = int(head.split("solutions=")[1])
        assert len(solutions) == expected
        examples[name] = (clues, solutions)
    return examples


def pytest_configure(config):
    """Ctrl-C raises, as in a process started from a terminal, where the suite runs as a background
    job (`cmd &` in a script), which starts with SIGINT ignored: the tests that send a real Ctrl-C,
    to this process or to a recon they start, would never see it. (A handled signal is reset at
    exec, so child processes start with Python's own handler too.)"""
    import signal

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def seed_examples():
    return load_seed_examples()


def brute_force(clues: np.ndarray, known: np.ndarray | None = None) -> set[bytes]:
    """Return every solution (as bytes of a bool array) by trying all 2**cells fields."""
    rows, cols = clues.shape
    if known is None:
        known = np.ones(clues.shape, dtype=bool)
    n = rows * cols
    assert n <= 16, "brute force is for tiny grids"
    fields = ((np.arange(2**n)[:, None] >> np.arange(n)) & 1).astype(bool).reshape(-1, rows, cols)
    padded = np.pad(fields.astype(np.int64), ((0, 0), (1, 1), (1, 1)))
    counts = sum(padded[:, dr : dr + rows, dc : dc + cols] for dr in range(3) for dc in range(3))
    match = (counts[:, known] == clues[known]).all(axis=1)
    return {f.tobytes() for f in fields[match]}


def brute_force_many(shape: tuple[int, int], statuses: list[np.ndarray]) -> list[set[bytes]]:
    """Return the solution sets of many full statuses by testing every one of the 2**cells fields.

    Each field is a `rows * cols`-bit integer, row r in bits r*cols .. r*cols+cols-1. Its status
    is keyed exactly by two integers (the status digits of the first rows in base 10, and those of
    the remaining rows), each a sum over rows of a table lookup by the row's bit pattern, so all
    2**25 fields of a 5x5 grid are keyed in chunks in a few seconds. Nothing here uses the algebra
    or a search: every field is looked at.
    """
    rows, cols = shape
    n = rows * cols
    assert n <= 26, "brute force is for small grids"
    patterns = ((np.arange(2**cols)[:, None] >> np.arange(cols)) & 1).astype(np.int64)
    across = sum(np.pad(patterns, ((0, 0), (1, 1)))[:, d : d + cols] for d in range(3))  # (2**cols, cols)
    split = max(1, rows // 2)
    parts = [range(0, split), range(split, rows)]
    # table[part][k][pattern]: what row k with that pattern adds to the part's key
    tables = []
    for part in parts:
        base = part.start
        table = np.zeros((rows, 2**cols), dtype=np.int64)
        for i in part:  # status row i gets across[row k] for k in i-1..i+1
            weights = 10 ** (np.arange(cols, dtype=np.int64) + cols * (i - base))
            for k in (i - 1, i, i + 1):
                if 0 <= k < rows:
                    table[k] += across @ weights
        tables.append(table)
    wanted = {}
    for index, s in enumerate(statuses):
        s = np.asarray(s, dtype=np.int64)
        key = tuple(
            int(sum(int(s[i, j]) * 10 ** (j + cols * (i - part.start)) for i in part for j in range(cols))) for part in parts
        )
        wanted.setdefault(key, []).append(index)
    firsts = np.array(sorted({k[0] for k in wanted}), dtype=np.int64)
    found: list[set[bytes]] = [set() for _ in statuses]
    chunk = 1 << min(n, 21)
    for start in range(0, 2**n, chunk):
        f = np.arange(start, start + chunk, dtype=np.int64)
        row_bits = [(f >> (cols * k)) & (2**cols - 1) for k in range(rows)]
        key0 = sum(tables[0][k][row_bits[k]] for k in range(rows))
        at = np.minimum(np.searchsorted(firsts, key0), len(firsts) - 1)
        hit = firsts[at] == key0
        if not hit.any():
            continue
        key1 = sum(tables[1][k][row_bits[k][hit]] for k in range(rows))
        for value, k0, k1 in zip(f[hit].tolist(), key0[hit].tolist(), key1.tolist()):
            for index in wanted.get((k0, k1), ()):
                field = ((value >> np.arange(n)) & 1).astype(bool).reshape(rows, cols)
                found[index].add(field.tobytes())
    return found


def keys(fields) -> set[bytes]:
    """Return the fields as a set of bytes for comparing solution sets."""
    return {np.asarray(f, dtype=bool).tobytes() for f in fields}


def load_fillapix() -> dict[str, tuple[np.ndarray, np.ndarray, list[np.ndarray], int]]:
    """Return {name: (clues, known, [known solutions], number of solutions)} for the bundled puzzles."""
    import re

    here = ROOT / "tests" / "data"
    puzzles = {}
    solutions_text = (here / "solutions_computed_by_us.txt").read_text()
    for i in (1, 2, 3):
        lines = [ln for ln in (here / f"fill_a_pix{i}.txt").read_text().splitlines() if ln and not ln.startswith("#")]
        n = int(lines[0])
        clues, known = parse_status("\n".join(lines[1 : 1 + n]))
        block = solutions_text.split(f"puzzle fill_a_pix{i}.txt")[1].split("\n", 1)[1]
        solution = parse_field("\n".join(block.splitlines()[:n]))
        puzzles[f"hakank{i}"] = (clues, known, [solution], 1)
    text = (here / "ist_2014_lisp_examples.txt").read_text()
    for m in re.finditer(r"puzzle (e\d) (\d+)x(\d+) [^\n]*n_solutions=(\d+)[^\n]*\n(.*?)\nsolution:\n(.*?)(?:\n\n|\Z)", text, re.S):
        clues, known = parse_status(m.group(5))
        puzzles[m.group(1)] = (clues, known, [parse_field(m.group(6))], int(m.group(4)))
    return puzzles
