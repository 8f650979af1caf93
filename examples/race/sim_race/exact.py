"""Player 1's exact win probability, by dynamic programming over (p1 total, p2 total, whose turn).

``V(a, b, t)`` is the probability that player 1 wins from totals ``a`` (player 1) and ``b``
(player 2) with player ``t`` to move. A turn that adds nothing (two dice with a bust face)
leaves the totals and passes the turn, so the two states of one (a, b) depend on each
other; with ``x = V(a, b, 1)`` and ``y = V(a, b, 2)``::

    x = q1 * y + r1        (q1: chance player 1's turn adds nothing; r1: the rest)
    y = q2 * x + r2   =>   x = (r1 + q1 * r2) / (1 - q1 * q2)

where ``r1`` only needs states with a larger ``a`` and ``r2`` states with a larger ``b``,
so (a, b) are solved from the target down. Independent of the kernel: it is the
reference the Monte Carlo tests are held to.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Callable

Policy = Callable[[int, int, int, int], float]  # P(two dice | me, other, target, k)


@lru_cache(maxsize=None)
def gains(faces: int, bust_face: int) -> tuple[tuple[tuple[int, float], ...], tuple[tuple[int, float], ...]]:
    """The distribution of one turn's points with one die and with two: ((points, p), …)."""
    one = tuple((f, 1.0 / faces) for f in range(1, faces + 1))
    c: Counter = Counter()
    for a in range(1, faces + 1):
        for b in range(1, faces + 1):
            c[0 if bust_face in (a, b) else a + b] += 1
    two = tuple((g, n / faces**2) for g, n in sorted(c.items()))
    return one, two


def win_probability(target: int, head_start: int, policy1: Policy, policy2: Policy, *, k1: int = 0,
                    k2: int = 0, faces: int = 6, bust_face: int = 1) -> float:
    """Player 1's chance to win from (0, head_start) with player 1 to move."""
    one, two = gains(faces, bust_face)
    T = target
    # v1[a][b] = V(a, b, player 1 to move), v2[a][b] = V(a, b, player 2 to move)
    v1 = [[0.0] * T for _ in range(T)]
    v2 = [[0.0] * T for _ in range(T)]

    def turn(p_two: float, dist_one, dist_two, after: Callable[[int], float]) -> tuple[float, float]:
        """(q, r): the chance the turn adds nothing, and the value of every other outcome."""
        q = r = 0.0
        for w, dist in ((1.0 - p_two, dist_one), (p_two, dist_two)):
            if w == 0.0:
                continue
            for g, p in dist:
                if g == 0:
                    q += w * p
                else:
                    r += w * p * after(g)
        return q, r

    for a in range(T - 1, -1, -1):
        for b in range(T - 1, -1, -1):
            q1, r1 = turn(policy1(a, b, T, k1), one, two, lambda g: 1.0 if a + g >= T else v2[a + g][b])
            q2, r2 = turn(policy2(b, a, T, k2), one, two, lambda g: 0.0 if b + g >= T else v1[a][b + g])
            x = (r1 + q1 * r2) / (1.0 - q1 * q2)
            v1[a][b] = x
            v2[a][b] = q2 * x + r2
    return v1[0][head_start]


def exact_for(setup, p1, p2) -> float | None:
    """The exact win probability of a compiled setup and two strategies, or None when a
    strategy has no exact form (a plug-in without ``exact``)."""
    if p1.exact is None or p2.exact is None:
        return None
    return win_probability(setup.target, setup.head_start, p1.exact, p2.exact, k1=setup.k("p1"),
                           k2=setup.k("p2"), faces=setup.faces, bust_face=setup.bust_face)
