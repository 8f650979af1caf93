"""The Werewolf ``random`` families re-stated in plain Python for the naive reference
(tests/naive/werewolf.py ``naive_game``), so that a differential test compares the engine's
``random`` strategy with an independent one, not with itself (issue 43).

Written from the strategies' documented behaviour ("uniform among the legal choices for
every decision", docs/rules/werewolf.md for what is legal: Q-1's paladin never repeats
last night's pair, the hati never marks the same participant twice running) with sets of
seats, nothing from strategies/werewolf. Each random choice is one draw of the side's
stream with the project's primitives — a uniform member of a set by ``choose_bit_nb`` on
its mask, a uniform index by ``randint_nb`` — in the order the strategy documents, so the
streams line up draw by draw. The witch's codes are the engine's encoding (data:
sim/werewolf/enums.py). The skilled families are re-stated the same way, with the helpers
below: ``trusting`` in tests/naive/werewolf_trusting.py, ``claims`` in
tests/naive/werewolf_claims.py; :func:`naive_village` / :func:`naive_wolves` pick the
re-statement by the engine family's name.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from sim.core.rng import choose_bit_nb, randint_nb, uniform_nb
from sim.werewolf.enums import RF, WITCH_BASE, WITCH_ELIMINATE, WITCH_PASS, WITCH_REVIVE


def _mask(seats) -> np.uint64:
    m = 0
    for p in seats:
        m |= 1 << int(p)
    return np.uint64(m)


def _members(mask) -> set[int]:
    m, out = int(mask), set()
    while m:
        low = m & -m
        out.add(low.bit_length() - 1)
        m ^= low
    return out


def _pick(rng, seats) -> int:
    return int(choose_bit_nb(rng, _mask(seats)))


def _others_alive(view) -> set[int]:
    return _members(view.alive) - {int(view.me)}


# ---------------------------------------------------------------- shared by the skilled families

def slots(decls) -> dict[str, tuple[int, float]]:
    """Knob declarations → {name: (its View.knobs slot, its default)}: the declared order."""
    return {k.name: (i, float(k.default)) for i, k in enumerate(decls)}


def knob(view, slots_: dict, name: str) -> float:
    """The side's value of knob ``name`` (NaN or absent: the declared default; a bool is
    1.0 / 0.0)."""
    slot, default = slots_[name]
    v = float(view.knobs[slot]) if slot < len(view.knobs) else float("nan")
    return v if v == v else default


def chance(rng, p: float) -> bool:
    """True with probability p, one uniform draw only when 0 < p < 1 (so p = 1 replays
    p-free play, as the strategies' docstrings state)."""
    if p >= 1.0:
        return True
    if p <= 0.0:
        return False
    return float(uniform_nb(rng)) < p


def known(view, read: int) -> set[int]:
    """Whom the acting participant knows to read ``read`` (1 wolf, 0 village)."""
    return {t for t in range(int(view.n)) if int(view.know[t]) == read}


def ability(view) -> int:
    return int(view.rules.table[view.my_role, RF.ABILITY])


def claimers(view, kind: int) -> set[int]:
    """Everyone who ever claimed role ``kind`` (the public ``claim_role``)."""
    return {c for c in range(int(view.n)) if int(view.claim_role[c]) == kind}


def said(view, c: int, read: int) -> set[int]:
    """Whom claimer c last announced as ``read`` (its public ``claim_res`` row)."""
    return {t for t in range(int(view.n)) if int(view.claim_res[c, t]) == read}


def draw_subset(rng, avail: set[int], k: int) -> set[int]:
    """k members of avail drawn one by one (fewer if avail runs out)."""
    left, chosen = set(avail), set()
    for _ in range(k):
        if not left:
            break
        c = _pick(rng, left)
        left.discard(c)
        chosen.add(c)
    return chosen


def vote(rng, view, cands) -> int:
    return _pick(rng, _members(cands))


attack = vote


def divine(rng, view) -> int:
    """A uniform living other; nobody: -1."""
    others = _others_alive(view)
    return _pick(rng, others) if others else -1


def mark(rng, view) -> int:
    """A uniform living other but the one marked last evening; nobody: -1."""
    others = _others_alive(view) - {int(view.last_mark)}
    return _pick(rng, others) if others else -1


def protect(rng, view) -> np.uint64:
    """``protect_count`` living others (fewer when fewer live), drawn one by one; a set of
    two or more may not be last night's (Q-1): draw again until it differs, and when last
    night's set is the only full one, protect one fewer."""
    avail = _others_alive(view)
    last = _members(view.last_protect)
    k = min(int(view.rules.table[view.my_role, RF.PROTECT]), len(avail))
    if k >= 2 and k == len(avail) and avail == last:
        k -= 1
    while True:
        chosen = draw_subset(rng, avail, k)
        if chosen != last or k < 2:
            return _mask(chosen)


def witch(rng, view) -> int:
    """One uniform draw over the options in this order: pass, eliminate a living other
    (by seat), revive an out other (by seat)."""
    me = int(view.me)
    alive = sorted(_others_alive(view))
    out = sorted(set(range(int(view.n))) - _members(view.alive) - {me})
    k = int(randint_nb(rng, 1 + len(alive) + len(out)))
    if k == 0:
        return WITCH_PASS * WITCH_BASE
    if k <= len(alive):
        return WITCH_ELIMINATE * WITCH_BASE + alive[k - 1]
    return WITCH_REVIVE * WITCH_BASE + out[k - 1 - len(alive)]


def silent(rng, view) -> int:
    return -1


@dataclass(frozen=True)
class NaiveVillage:
    name: str
    vote: Callable = vote
    divine: Callable = divine
    protect: Callable = protect
    witch: Callable = witch
    speak: Callable = silent
    knobs: tuple = ()
    oracle: Any = False


@dataclass(frozen=True)
class NaiveWolves:
    name: str
    vote: Callable = vote
    mark: Callable = mark
    attack: Callable = attack
    speak: Callable = silent
    knobs: tuple = ()
    oracle: Any = False


def naive_village(engine):
    """The re-stated family of the engine's village strategy's name (``random``,
    ``trusting``, ``claims``), or the engine's own family for any other (a plug-in)."""
    from tests.naive import werewolf_claims, werewolf_trusting  # here: they import this module's helpers

    return {"random": NaiveVillage("random"), "trusting": werewolf_trusting.VILLAGE,
            "claims": werewolf_claims.VILLAGE}.get(engine.name, engine)


def naive_wolves(engine):
    from tests.naive import werewolf_claims, werewolf_trusting

    return {"random": NaiveWolves("random"), "trusting": werewolf_trusting.WOLVES,
            "claims": werewolf_claims.WOLVES}.get(engine.name, engine)
