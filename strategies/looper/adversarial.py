"""Setup search for the adversarial scriptwriter (Python side, once per run).

Proposals favour traps: the key person and up to two more characters are moved
permanently into one location (a scriptwriter-moved character cannot be moved by the
player, R-6), guest moves often join them. Each proposal is scored by the player win
rate of short games against the given players (the registry passes the random and the
cautious ones); the best ``keep`` form the pool that ``pool_setup_nb`` draws from, so the
player cannot learn one fixed setup.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from sim.looper.enums import I
from sim.core.knobs import knob_vector
from sim.looper.game_nb import C_WINS, chunk_kernel, new_counts
from strategies.looper import scriptwriter as _w

PROPOSALS = 384
TRIALS = 48
KEEP = 8


def _propose(roster, rng: np.random.Generator, m: int) -> np.ndarray:
    R = roster.nb
    n, L = int(R.info[I.N_CHARS]), int(R.info[I.N_LOC])
    nperm, nguest = int(R.info[I.N_PERM]), int(R.info[I.N_GUEST])
    stay, key_movable = bool(R.info[I.STAY_MOVES]), bool(R.info[I.KEY_MOVABLE])
    out = np.zeros((m, 1 + 2 * nperm + 2 * nguest), np.int64)
    for r in range(m):
        key = int(rng.integers(1, n))
        trap = int(rng.integers(0, L))
        chars = [key] + [int(c) for c in rng.permutation(np.arange(1, n)) if c != key]
        out[r, 0] = key
        if not key_movable:  # P-16: the moves keep off the key person (the pinned one, if pinned)
            real = roster.fixed_key or key
            chars = [c for c in chars if c != real]
        for j in range(nperm):
            out[r, 1 + 2 * j] = chars[j]
            same = j == 0 or rng.random() < 0.6
            out[r, 2 + 2 * j] = trap if same else int(rng.integers(0, L))
            if not stay and out[r, 2 + 2 * j] == R.home[chars[j]]:  # P-15: it must change place
                out[r, 2 + 2 * j] = (R.home[chars[j]] + 1 + int(rng.integers(0, L - 1))) % L
        g = 1 + 2 * nperm
        for j in range(nguest):
            out[r, g + 2 * j] = int(rng.integers(1, n))
            out[r, g + 2 * j + 1] = trap if rng.random() < 0.6 else int(rng.integers(0, L))
            if not key_movable and out[r, g + 2 * j] == (roster.fixed_key or key):
                out[r, g + 2 * j] = chars[nperm % len(chars)]  # another character (not the key person)
    return out


def score_setups(roster, setups: np.ndarray, key: np.ndarray, trials: int, players: Sequence) -> np.ndarray:
    """Player wins against each setup row (``trials`` games per player, adversarial choices)."""
    R = roster.nb
    wins = np.zeros(len(setups), np.int64)
    kernels = [(chunk_kernel(p.move, p.name_key, _w.pool_setup_nb, _w.adversarial_choose_nb),
                knob_vector(p, p.name, None, "player")) for p in players]  # the players at their defaults
    no_knobs = np.zeros(1, np.float64)
    for r in range(len(setups)):
        params = np.ascontiguousarray(setups[r: r + 1])
        for kernel, pk in kernels:
            out = new_counts(R)
            kernel(key, 0, trials, R, params, False, roster.fixed_key, pk, no_knobs, out, None)
            wins[r] += out.scalars[C_WINS]
    return wins


def search_setups(roster, rng: np.random.Generator, players: Sequence, proposals: int = PROPOSALS,
                  trials: int = TRIALS, keep: int = KEEP) -> np.ndarray:
    """The ``keep`` proposals the ``players`` (PlayerStrategy objects) win least against."""
    cand = _propose(roster, rng, proposals)
    key = rng.integers(0, 2**63, size=4, dtype=np.uint64)
    wins = score_setups(roster, cand, key, trials, players)
    order = np.lexsort((np.arange(len(cand)), wins))
    return cand[order[:keep]]
