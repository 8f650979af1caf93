"""The Werewolf ``trusting`` families (a naive baseline) re-stated in plain Python for the
naive reference, so that a differential test compares the engine's strategy with an
independent one (issue 43).

Written from the documented play (strategies/werewolf/trusting.py's docstring and knob
declarations, docs/werewolf.md) with sets of seats; only the knob declarations (data) come
from strategies/werewolf. Each random choice is one draw of the side's stream with the
project's primitives, in the order the play needs it (tests/naive/werewolf_strategies.py):

Village (knobs ``claim_day``, ``follow``, ``trust``, ``guard_claimers``, ``eliminate``,
``revive``):
* the seer divines a living other she has not read yet (else any living other) and, from
  ``claim_day``, claims seer and reports her newest reading every day; nobody else speaks;
* the seer votes a wolf she read, else someone she has not cleared; anyone else votes,
  with chance ``follow``, a participant some *living* seer claimer reported as wolf, else
  someone not cleared — cleared: reported village by a living claimer, known village, and
  (``trust``) every seer claimer; a voter avoids itself when it can;
* the paladin guards seer claimers (``guard_claimers``; the highest seats when there are
  more than he may guard), fills the set at random, and protects at random when that set
  is last night's;
* the witch eliminates a reported (or known) wolf with chance ``eliminate``, else revives a
  fallen seer claimer (``revive``), else passes.

Wolves (knobs ``fake_claim``, ``hunt``, ``vote_claimers``, ``frame``):
* attack a seer claimer (``hunt``), else anyone; vote a seer claimer outside the team
  (``vote_claimers``), else someone outside the team;
* the accomplice decides once per game (chance ``fake_claim``) to fake-claim seer, and then
  reports a random living village-team participant as wolf every day;
* hati (``frame``) marks the living non-team participant most often reported village by
  any claimer (ties: the lowest seat), never last evening's; else at random.
"""
from __future__ import annotations

from sim.werewolf.enums import CLAIM_BASE, CLAIM_SEER, RF, WITCH_BASE, WITCH_ELIMINATE, WITCH_PASS, WITCH_REVIVE, Ab
from strategies.werewolf.trusting import VILLAGE_KNOBS, WOLF_KNOBS
from tests.naive.werewolf_strategies import (NaiveVillage, NaiveWolves, _mask, _members, _others_alive, _pick,
                                             ability, chance, claimers, draw_subset, known, knob, said, slots)
from tests.naive.werewolf_strategies import mark as random_mark
from tests.naive.werewolf_strategies import protect as random_protect

DIVINED = 5  # mem: the seer's last divination target + 1
FAKING = 6   # mem: the accomplice's once-a-game decision (0 not yet, 1 fake-claims, 2 silent)


_V_SLOTS, _W_SLOTS = slots(VILLAGE_KNOBS), slots(WOLF_KNOBS)


def _kv(view, name):
    return knob(view, _V_SLOTS, name)


def _kw(view, name):
    return knob(view, _W_SLOTS, name)


def _reported(view, read: int) -> set[int]:
    """Whom some living seer claimer reported as ``read``."""
    living = _members(view.alive)
    out: set[int] = set()
    for c in claimers(view, CLAIM_SEER) & living:
        out |= said(view, c, read)
    return out


def _vote_among(rng, preferred: set[int], cands: set[int], me: int) -> int:
    """A preferred candidate other than oneself, else any other, else (only oneself) oneself."""
    if preferred & cands - {me}:
        return _pick(rng, preferred & cands - {me})
    return _pick(rng, cands - {me} or cands)


# ----------------------------------------------------------------------------- village

def village_vote(rng, view, cands) -> int:
    me, cands = int(view.me), _members(cands)
    everyone = set(range(int(view.n)))
    if ability(view) == Ab.DIVINE:
        wolves = known(view, 1) - {me}
        if wolves & cands:
            return _pick(rng, wolves & cands)
        return _vote_among(rng, everyone - known(view, 0), cands, me)
    wolves = _reported(view, 1)
    if wolves & cands - {me} and chance(rng, _kv(view, "follow")):
        return _vote_among(rng, wolves, cands, me)
    cleared = _reported(view, 0) | known(view, 0)
    if _kv(view, "trust"):
        cleared |= claimers(view, CLAIM_SEER)
    return _vote_among(rng, everyone - cleared, cands, me)


def village_divine(rng, view) -> int:
    others = _others_alive(view)
    unread = others - known(view, 0) - known(view, 1)
    if not (unread or others):
        return -1
    t = _pick(rng, unread or others)
    view.mem[DIVINED] = t + 1
    return t


def village_speak(rng, view) -> int:
    if ability(view) != Ab.DIVINE or view.mem[DIVINED] == 0 or view.day < _kv(view, "claim_day"):
        return -1
    t = int(view.mem[DIVINED]) - 1
    return CLAIM_SEER * CLAIM_BASE + 2 * t + int(view.know[t])


def village_protect(rng, view):
    avail = _others_alive(view)
    k = min(int(view.rules.table[view.my_role, RF.PROTECT]), len(avail))
    guarded = claimers(view, CLAIM_SEER) & avail if _kv(view, "guard_claimers") else set()
    guarded = set(sorted(guarded)[len(guarded) - k:]) if len(guarded) > k else guarded
    chosen = guarded | draw_subset(rng, avail - guarded, k - len(guarded))
    if chosen == _members(view.last_protect) and len(chosen) >= 2:
        return random_protect(rng, view)
    return _mask(chosen)


def village_witch(rng, view) -> int:
    me = int(view.me)
    wolves = (_reported(view, 1) | known(view, 1)) & _others_alive(view)
    if wolves and chance(rng, _kv(view, "eliminate")):
        return WITCH_ELIMINATE * WITCH_BASE + _pick(rng, wolves)
    fallen = claimers(view, CLAIM_SEER) - _members(view.alive) - {me}
    if fallen and _kv(view, "revive"):
        return WITCH_REVIVE * WITCH_BASE + _pick(rng, fallen)
    return WITCH_PASS * WITCH_BASE


# ----------------------------------------------------------------------------- wolves

def wolf_vote(rng, view, cands) -> int:
    me, cands = int(view.me), _members(cands)
    team = known(view, 1)
    seers = claimers(view, CLAIM_SEER) - team
    if seers & cands and _kw(view, "vote_claimers"):
        return _pick(rng, seers & cands)
    return _vote_among(rng, set(range(int(view.n))) - team, cands, me)


def wolf_attack(rng, view, cands) -> int:
    cands = _members(cands)
    seers = claimers(view, CLAIM_SEER) & cands
    return _pick(rng, seers if seers and _kw(view, "hunt") else cands)


def wolf_mark(rng, view) -> int:
    if not _kw(view, "frame"):
        return random_mark(rng, view)
    avail = _others_alive(view) - known(view, 1) - {int(view.last_mark)}
    if not avail:
        return -1
    n = int(view.n)

    def cleared_by(t):  # how many claimers (living or not) announced t as village
        return sum(1 for c in range(n) if int(view.claim_res[c, t]) == 0)

    return min(avail, key=lambda t: (-cleared_by(t), t))


def wolf_speak(rng, view) -> int:
    if view.rules.table[view.my_role, RF.MADMAN] != 1:
        return -1
    if view.mem[FAKING] == 0:
        view.mem[FAKING] = 1 if chance(rng, _kw(view, "fake_claim")) else 2
    targets = _others_alive(view) - known(view, 1)
    if view.mem[FAKING] == 2 or not targets:
        return -1
    return CLAIM_SEER * CLAIM_BASE + 2 * _pick(rng, targets) + 1


VILLAGE = NaiveVillage("trusting", vote=village_vote, divine=village_divine, protect=village_protect,
                       witch=village_witch, speak=village_speak, knobs=VILLAGE_KNOBS)
WOLVES = NaiveWolves("trusting", vote=wolf_vote, mark=wolf_mark, attack=wolf_attack, speak=wolf_speak,
                     knobs=WOLF_KNOBS)
