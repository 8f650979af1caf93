"""Werewolf views built by hand for strategy unit tests (issue 43): a public record and one
participant's knowledge written out explicitly, so a test derives the right decision from the
rules and the strategy's documentation, not from the engine."""
from __future__ import annotations

import numpy as np

from sim.core.rng import seed_stream_nb
from sim.core.seeding import run_key
from sim.werewolf.enums import CLAIM_MEDIUM, CLAIM_SEER, CLAIMS, KNOB_SLOTS
from sim.werewolf.game_nb import MEM
from sim.werewolf.roles import RolesNB, resolve_setup
from sim.werewolf.views import View

# The default 12-seat table with the deal in composition order: seat → role.
SEATS = ["fenrir", "hati", "accomplice", "seer", "medium", "paladin", "witch"] + ["villager"] * 5
TEAM = (0, 1, 2)  # fenrir, hati, the accomplice
VILLAGE_TEAM = tuple(range(3, 12))


def _ro(a):
    a = np.asarray(a).copy()
    a.flags.writeable = False
    return a


def mask(ps) -> np.uint64:
    m = 0
    for p in ps:
        m |= 1 << p
    return np.uint64(m)


def bits(m) -> set[int]:
    return {i for i in range(64) if int(m) >> i & 1}


def view(me: int, *, seer_claims: dict[int, dict[int, int]] | None = None, alive=range(12), day: int = 2,
         knobs: dict[int, float] | None = None, last_mark: int = -1, last_protect=(), know=None,
         mem: dict[int, int] | None = None, medium_claims: dict[int, dict[int, int]] | None = None,
         voted=()):
    """``me``'s view on ``day`` of the default table. ``seer_claims[c] = {t: 1 wolf / 0 village}``:
    c claimed seer and announced those readings. A wolf-team ``me`` knows its team (1) and the
    rest (0); anyone else knows only itself, unless ``know`` says more. ``mem``: slots of its
    own scratch as the strategy left them. ``medium_claims``: as ``seer_claims`` for the
    medium's role; ``voted``: participants out by yesterday's vote (the others not alive were
    attacked)."""
    setup = resolve_setup()
    R = setup.nb
    role = setup.role_ids.index(SEATS[me])
    n = 12
    claim_role = np.full(n, -1, np.int64)
    claim_res = np.full((n, n), -1, np.int64)
    claimed = np.zeros(len(CLAIMS), np.uint64)
    said = np.zeros((n, 2), np.uint64)
    for kind, c, reads in [*((CLAIM_SEER, c, r) for c, r in (seer_claims or {}).items()),
                           *((CLAIM_MEDIUM, c, r) for c, r in (medium_claims or {}).items())]:
        claim_role[c] = kind
        claimed[kind] |= np.uint64(1 << c)
        for t, r in reads.items():
            claim_res[c, t] = r
            said[c, r] |= np.uint64(1 << t)
    if know is None:
        know = np.full(n, -1, np.int64)
        if me in TEAM:
            know[:] = 0
            know[list(TEAM)] = 1
        else:
            know[me] = 0
    kv = np.full(KNOB_SLOTS, np.nan)
    for k, v in (knobs or {}).items():
        kv[k] = v
    out_how = np.zeros(n, np.int64)
    for p in range(n):
        if p not in alive:
            out_how[p] = 1 if p in voted else 2
    scratch = np.zeros(MEM, np.int64)
    for k, v in (mem or {}).items():
        scratch[k] = v
    rules = RolesNB(_ro(R.table), _ro(R.var), _ro(R.seats), _ro(R.knobs[:0]))
    return View(n, day, 0, rules, mask(alive), _ro(out_how), _ro(np.where(out_how > 0, day - 1, 0)),
                _ro(np.zeros(n, np.int64)), _ro(claim_role), _ro(claim_res), _ro(claimed), _ro(said), me, role,
                _ro(know), np.int64(last_mark), mask(last_protect), _ro(kv), scratch)


def draws(fn, make_view, *args, times: int = 300, seed: int = 43):
    """``fn(rng, view, *args)`` on ``times`` independent streams, each on a fresh view (a
    strategy may write its own ``mem``)."""
    key = run_key(seed)
    out = []
    for g in range(times):
        rng = np.zeros(4, np.uint64)
        seed_stream_nb(rng, key, g)
        out.append(fn(rng, make_view(), *args))
    return out
