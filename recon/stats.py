"""Small statistics shared by the commands that report rates (autoplay, sweep), and exact binomial
coefficients of large boards (the counts and the game's odds)."""

from __future__ import annotations

import math

import numpy as np


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of k successes in n trials; (0, 1) for none."""
    if not n:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


#: From this many factors on (min(k, n - k)), `comb` multiplies prime powers instead of asking math.comb.
PRIME_COMB_FACTORS = 2_000


def comb(n: int, k: int) -> int:
    """C(n, k) exactly, as math.comb (0 for k > n). Large values are built from their prime
    factors (Legendre: the power of p in C(n, k) is the carries when k and n - k are added in
    base p), multiplied pairwise so that the big products are balanced: math.comb in Python 3.11
    multiplies the factors one by one, far slower on a board of a million cells (docs/decisions.md)."""
    if n < 0 or k < 0:
        raise ValueError("n and k must be non-negative integers")
    k = min(k, n - k)
    if k < PRIME_COMB_FACTORS:
        return math.comb(n, k) if k >= 0 else 0
    sieve = np.ones(n + 1, dtype=bool)
    sieve[:2] = False
    root = math.isqrt(n)
    for p in range(2, root + 1):
        if sieve[p]:
            sieve[p * p :: p] = False
    primes = np.flatnonzero(sieve)
    factors = []
    for p in primes[primes <= root].tolist():
        e, q = 0, p
        while q <= n:
            e += n // q - k // q - (n - k) // q
            q *= p
        if e:
            factors.append(p**e)
    # a prime above the root divides with one power only: a carry or not, for all at once
    large = primes[primes > root]
    carries = n // large - k // large - (n - k) // large
    factors += large[carries > 0].tolist()
    while len(factors) > 1:
        paired = [factors[i] * factors[i + 1] for i in range(0, len(factors) - 1, 2)]
        if len(factors) % 2:
            paired.append(factors[-1])
        factors = paired
    return factors[0] if factors else 1
