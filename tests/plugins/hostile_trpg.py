"""Hostile TRPG plug-ins (tests/test_trpg_honest.py): each tries a trick to learn what a
character may not know — the coming dodge roll, others' exact HP — or to change the game.

- ``peek_reaction`` copies the generator it is handed and rolls the coming 3d6 on the copy
  (the trick that worked when strategies got the live rules' stream): it dodges only when
  that "prediction" says the dodge succeeds, else takes the hit.
- ``rewind_reaction`` steps its generator back to where its stream began (xoshiro256** is
  invertible) and predicts from there, in case the stream were the rules' own start.
- ``stale_reaction`` looks for leftovers: an exact HP, a view that is not its own, a
  band that is not the present one; it raises (stopping the run) if it finds any.
- ``write_target`` / ``write_reaction`` assign into their views (must not compile).
"""
import numba as nb
import numpy as np

from sim.core.rng import randint_nb
from sim.trpg.enums import B, CF
from sim.trpg.views import HIDDEN


@nb.njit
def _predict_roll(state):
    s = state.copy()
    return randint_nb(s, 6) + randint_nb(s, 6) + randint_nb(s, 6) + 3


@nb.njit
def _dodge_if_predicted(rng_like, view, d, can_dodge):
    if not can_dodge:
        return 0
    roll = _predict_roll(rng_like)
    pen = view.state[B.SYM_PEN]
    if roll == 3 or (roll != 18 and roll + pen <= view.sheet[CF.DODGE]):
        return 1
    return 0


@nb.njit
def peek_reaction(rng, view, d, attacker, can_dodge):
    return _dodge_if_predicted(rng, view, d, can_dodge)


_M64 = np.uint64(0xFFFFFFFFFFFFFFFF)


@nb.njit
def _rotr(x, k):
    return (x >> np.uint64(k)) | (x << np.uint64(64 - k))


@nb.njit
def _unshift_left_xor(y, k):
    # x ^= x << k  →  invert
    x = y
    for _ in range(64 // k + 1):
        x = y ^ (x << np.uint64(k))
    return x


@nb.njit
def xoshiro_back(s):
    """One step of xoshiro256** backwards (the inverse of sim.core.rng.next_u64_nb's update)."""
    s3 = _rotr(s[3], 45)
    s2 = s[2]
    s1 = s[1]
    s0 = s[0]
    # forward: t = s1 << 17; s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 45)
    s0 = s0 ^ s3          # s0 before "s0 ^= s3" (s3 here is the updated s3)
    s1_before_xor = s1    # s1 after "s1 ^= s2" where s2 was updated (s2 ^ s0)
    # undo s2 ^= t later; first recover s1: s1_new = s1_old ^ s2_mid, s2_mid = s2_old ^ s0_old
    # s2_new = s2_mid ^ (s1_old << 17)  →  s1_new = s1_old ^ s2_new ^ (s1_old << 17)
    y = s1_before_xor ^ s2
    s1_old = _unshift_left_xor(y, 17)
    s2_mid = s2 ^ (s1_old << np.uint64(17))
    s2_old = s2_mid ^ s0
    s3_old = s3 ^ s1_old
    s[0] = s0
    s[1] = s1_old
    s[2] = s2_old
    s[3] = s3_old


@nb.njit
def rewind_reaction(rng, view, d, attacker, can_dodge):
    s = rng.copy()
    for _ in range(64):  # back past every draw this side can have made so far
        xoshiro_back(s)
    return _dodge_if_predicted(s, view, d, can_dodge)


@nb.njit
def stale_reaction(rng, view, d, attacker, can_dodge):
    if view.me != d:
        raise ValueError("a view that is not the deciding character's")
    for j in range(view.hp.shape[0]):
        if view.hp_public == 0 and view.hp[j] != HIDDEN:
            raise ValueError("an exact HP leaked into the view")
    if view.hp_public == 1 and view.hp[d] != view.state[B.HP]:
        raise ValueError("own HP differs from own state")
    if view.state[B.BAND] != view.hp_band[d]:
        raise ValueError("own band differs from own state")
    return 1 if can_dodge else 0


@nb.njit
def write_reaction(rng, view, d, attacker, can_dodge):
    view.hp[attacker] = -100  # must not compile: views are read-only
    return 0


@nb.njit
def write_target(rng, view, actor, cands):
    view.state[B.HP] = 1000
    return 0


@nb.njit
def hostile_reaction(rng, view, d, attacker, can_dodge):
    """Every trick at once (one kernel for the tests): the stale-slot checks of
    ``stale_reaction``, then ``peek_reaction``'s copy (SP 0) or ``rewind_reaction``'s
    rewound generator (SP 1) to decide whether to dodge."""
    if view.me != d:
        raise ValueError("a view that is not the deciding character's")
    for j in range(view.hp.shape[0]):
        if view.hp_public == 0 and view.hp[j] != HIDDEN:
            raise ValueError("an exact HP leaked into the view")
    if view.hp_public == 1 and view.hp[d] != view.state[B.HP]:
        raise ValueError("own HP differs from own state")
    if view.state[B.BAND] != view.hp_band[d]:
        raise ValueError("own band differs from own state")
    if view.sheet[CF.SP] == 1:
        return rewind_reaction(rng, view, d, attacker, can_dodge)
    return peek_reaction(rng, view, d, attacker, can_dodge)


@nb.njit
def oracle_lowest_hp(rng, view, actor, cands):
    """An honest-to-say oracle: named ``oracle_…``, it gets the judge's view (``view.bs``
    exists only there) and attacks the candidate with the lowest exact HP."""
    best = -1
    for j in range(view.bs.shape[0]):
        if (cands >> np.uint64(j)) & np.uint64(1):
            if best < 0 or view.bs[j, B.HP] < view.bs[best, B.HP]:
                best = j
    return best
