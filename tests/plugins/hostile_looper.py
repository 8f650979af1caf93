"""Hostile Looper players (tests/test_looper_honest.py): every trick a plug-in could try to
learn the secret key person, and plug-ins that write into their views.

``hostile`` moves nobody (so whether a loop survives does not depend on its guess) and at
its first decision of a game tries, in order:

1. *stepping its generator back*: xoshiro256** can be run backwards (:func:`unstep_nb`).
   If the player's stream continued the scriptwriter's (as it once did), some state a few
   steps back is the scriptwriter's start: replaying the random scriptwriter's setup from
   it lands exactly on the player's start. It tries every back-step up to ``BACK`` and keeps
   the setup whose replay is consistent — that setup's key person is the answer;
2. *the old SplitMix-chain inversion*: undoing SplitMix64 on its start words (the seeding
   once chained them from the run key) to get candidate run-key words, checked by
   re-deriving its own start from them for games 0 … ``GAMES``−1; a key that passes gives
   the scriptwriter's stream, and the replayed setup the key person;
3. *stale slots*: anything in its view or scratch that looks like a key person (the info
   vector's trailing slots, later loops' entries, its day buffer's leftovers).

The first attack that claims success gives the guess; else the setup replayed from its own
start (a uniform character). ``name_key`` (R-2 variant) names the guess. mem[1] records
which attack produced it (1, 2, 3; 4 for the fallback), mem[2] whether stepping back
reproduced its own start (a check of :func:`unstep_nb`).
"""
import numba as nb
import numpy as np

from sim.core.rng import next_u64_nb, seed_stream_nb
from sim.looper.enums import I, Stream
from sim.looper.views import WriterView
from strategies.looper import PlayerStrategy
from strategies.looper.scriptwriter import random_setup_nb

BACK = 64  # back-steps tried (the random scriptwriter's setup draws about 15 numbers)
GAMES = 64  # game numbers tried by the key inversion
M64 = np.uint64(0xFFFFFFFFFFFFFFFF)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_INV1 = np.uint64(pow(0xBF58476D1CE4E5B9, -1, 1 << 64))
_INV2 = np.uint64(pow(0x94D049BB133111EB, -1, 1 << 64))


@nb.njit
def _rotr_nb(x, k):
    return (x >> np.uint64(k)) | (x << np.uint64(64 - k))


@nb.njit
def unstep_nb(s):
    """Undo one ``next_u64_nb`` step of the xoshiro256** state ``s`` in place."""
    n0, n1, n2, n3 = s[0], s[1], s[2], s[3]
    n3a = _rotr_nb(n3, 45)             # s3 ^ s1
    s0 = n0 ^ n3a
    y = n1 ^ n2                        # s1 ^ (s1 << 17)
    s1 = y ^ (y << np.uint64(17)) ^ (y << np.uint64(34)) ^ (y << np.uint64(51))
    s2 = n1 ^ s1 ^ s0
    s3 = n3a ^ s1
    s[0], s[1], s[2], s[3] = s0, s1, s2, s3


@nb.njit
def _unshift_nb(z, k):
    x = z
    for _ in range(64 // k + 1):
        x = z ^ (x >> np.uint64(k))
    return x


@nb.njit
def unsplitmix_nb(z):
    z = _unshift_nb(z, 31)
    z = z * _INV2
    z = _unshift_nb(z, 27)
    z = z * _INV1
    z = _unshift_nb(z, 30)
    return z - _GOLDEN


@nb.njit
def _replay_nb(state, rules, out):
    """The random scriptwriter's setup drawn from ``state`` (advanced in place)."""
    n = rules.info[I.N_CHARS]
    # why None: no reason sink (a namedtuple built in numba takes no defaults: every field given)
    v = WriterView(rules, np.int64(0), np.int64(0), np.uint64(0), np.int64(-1), out, np.zeros(n, np.int64),
                   np.zeros(n, np.int64), np.zeros(1, np.float64), None)
    random_setup_nb(state, v, np.zeros((1, 1), np.int64), out)
    return out[0]


@nb.njit
def attack_nb(start, rules, view, own):
    """(guess, attack number) from the player's start state (see the module's docstring)."""
    n = rules.info[I.N_CHARS]
    out = np.zeros(1 + 2 * rules.info[I.N_PERM] + 2 * rules.info[I.N_GUEST], np.int64)
    # 1. step back: is some earlier state the scriptwriter's start?
    #    (a replay lands on the start whenever it draws exactly as many numbers as were
    #    stepped back, so a later state can pass too: the one furthest back is taken)
    cand = start.copy()
    found = -1
    for _ in range(BACK):
        unstep_nb(cand)
        probe = cand.copy()
        k = _replay_nb(probe, rules, out)
        if probe[0] == start[0] and probe[1] == start[1] and probe[2] == start[2] and probe[3] == start[3]:
            found = k
    if found >= 0:
        return found, 1
    # 2. the SplitMix-chain inversion: run-key words out of the start words; a key that
    #    re-derives the player's own start (for some game g) would give the scriptwriter's
    key = np.zeros(4, np.uint64)
    st = np.zeros(4, np.uint64)
    for variant in range(2):
        for i in range(4):
            key[i] = unsplitmix_nb(start[i]) ^ (start[(i + 3) % 4] if variant else np.uint64(0))
        for g in range(GAMES):
            seed_stream_nb(st, key, g, Stream.PLAYER)
            if st[0] == start[0] and st[1] == start[1] and st[2] == start[2] and st[3] == start[3]:
                seed_stream_nb(st, key, g, Stream.SCRIPTWRITER)
                return _replay_nb(st, rules, out), 2
    # 3. stale slots: the info vector beyond its documented slots, later loops, its own buffer
    info = rules.info
    for j in range(I.NEG_AGITATION + 1, info.shape[0]):  # past the last documented slot
        if 0 < info[j] < n:
            return info[j], 3
    for lp in range(view.loop + 1, view.named.shape[0]):
        if 0 < view.named[lp] < n:
            return view.named[lp], 3
        if view.loop_end[lp] != 0:
            return 1 + view.loop_end[lp] % (n - 1), 3
    for i in range(own.buf.req_victim.shape[0]):
        if 0 < own.buf.req_victim[i] < n:
            return own.buf.req_victim[i], 3
    # fallback: the setup replayed from its own start (uniform, independent of the key)
    st = start.copy()
    return _replay_nb(st, rules, out), 4


@nb.njit
def hostile_move_nb(rng, view, own, out):
    mem = own.mem
    if mem[0] == 0:
        start = rng.copy()
        # draw a little, step back, and check that stepping back reaches the start again
        for _ in range(5):
            next_u64_nb(rng)
        back = rng.copy()
        for _ in range(5):
            unstep_nb(back)
        mem[2] = 1 if (back[0] == start[0] and back[1] == start[1] and back[2] == start[2]
                       and back[3] == start[3]) else 0
        guess, how = attack_nb(start, view.rules, view, own)
        mem[0] = guess + 1
        mem[1] = how
    return 0  # moves nobody: surviving never depends on the guess


@nb.njit
def hostile_name_nb(rng, view, own):
    n = view.rules.info[I.N_CHARS]
    g = own.mem[0] - 1
    return g if 0 < g < n else 1


hostile = PlayerStrategy("hostile", hostile_move_nb, hostile_name_nb,
                         doc="tries every trick to learn the key person; moves nobody")


@nb.njit
def write_ann_nb(rng, view, own, out):
    view.ann[0, 0, 0] = 3  # the announcements are read-only
    return 0


@nb.njit
def write_rules_nb(rng, view, own, out):
    view.rules.info[0] = 1  # so are the rules
    return 0


@nb.njit
def write_named_nb(rng, view, own):
    view.named[0] = 1
    return 1


writes_ann = PlayerStrategy("writes_ann", write_ann_nb)
writes_rules = PlayerStrategy("writes_rules", write_rules_nb)
writes_named = PlayerStrategy("writes_named", hostile_move_nb, write_named_nb)
