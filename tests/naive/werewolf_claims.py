"""The Werewolf ``claims`` families (a table that talks) re-stated in plain Python for the
naive reference, so that a differential test compares the engine's strategy with an
independent one (issue 43).

Written from the documented model (strategies/werewolf/claims.py's docstring and knob
declarations, docs/werewolf.md's table) with dicts and sets of seats; only the knob
declarations (data) come from strategies/werewolf. Random choices are draws of the side's
stream with the project's primitives in the order the play needs them
(tests/naive/werewolf_strategies.py). Each decision recomputes everything from the view;
the scratch memory holds only the seer's last target, the accomplice's decision and the
attacker's last target.

**The table** (the public composition): ``s`` seers, ``m`` mediums, ``w`` wolf-team
members, of whom ``h`` read village to the seer (fenrir; the accomplice under R-2's
village variant); when one reads village to the medium he is *blind* (his "village"
settles nothing). ``prior = w / n``; a seer's "village" clears ``seen = 1 − h/w``.

**Trust** of each claimer, in this order: ``min(1, s/k)`` for k claimers of a role with s
holders (0 if none); 1 while it is out by the attack (the public ``out_how``: a revived
claimer is back to s/k); settle each role (once as many claimers as
holders are at 1, the others fall to 0; with one holder, trusts above a total of 1 are
scaled to sum to 1); each medium claimer in seat order with trust tm > 0 — its "wolf" on a
claimer multiplies that claimer's trust by 1 − tm, its "village" raises it to tm (unless
blind), and otherwise a seer claimer whose report it contradicts is multiplied by 1 −
``medium`` × tm; a confirmed seer claimer's "wolf" on a claimer drops that one to 0; settle again.

**Suspicion** of t: with own knowledge, a known wolf 100, a known village −100 (for the seer
only when she sees the whole team or t is herself; else her "village" on a non-claimer is
``prior − report × seen``); a claimer ``fake × (1 − trust)``, a confirmed one −100; anyone
else ``prior`` plus ``report × trust`` per seer claimer's "wolf" on it and minus ``report ×
trust × seen`` per "village" (a claimer's report on itself, and those of claimers trusted
0, aside).
The most (least) suspected among a set: the maximum, ties within 1e-12 uniformly at
random (or the lowest seat with ``agree``). The most trusted claimer of a set: the highest
positive trust, ties to the lowest seat.

Village (knobs ``claim_day``, ``report``, ``fake``, ``medium``, ``witch_kill``,
``witch_revive``, ``agree``, ``medium_wait``, ``guard_seer``): vote the most suspected other
candidate; the seer divines unread claimers (of either role) first, else anyone unread;
from ``claim_day`` the seer reports her newest reading, the medium (with ``medium_wait``
only once he has claimed or the claims are contested: more seer claimers than seers, or
some seer claimer and as many other medium claimers as mediums) an unannounced reading of
a participant out by the vote, lowest seat first; the paladin guards the most trusted
claimer (a seer claimer as trusted goes first, ``guard_seer``) plus others not guarded
last night (with nobody to guard and ``agree``: the highest seats), protecting at random
when only last night's set is left; the witch eliminates the most suspected living other
if its suspicion reaches ``witch_kill``, else revives the most trusted fallen claimer if
its trust reaches ``witch_revive``, else passes.

Wolves (knobs ``fake_claim``, ``fake_medium``, ``fake_day``, ``clear``, ``wolf_claim``,
``frame``, ``dodge``), modelling the table with the village's default knobs: vote the
most trusted claimer outside the team, else the least suspected; attack the most trusted
claimer, avoiding (chance ``dodge``) the attacker's last target when it is still there,
else anyone; hati (``frame``) marks a participant outside the team that no seer claimer
has read or is, else anyone outside the team (never last evening's mark), else at random;
the accomplice decides once (from ``fake_day``; chance ``fake_claim``, medium with chance
``fake_medium``, else seer) and falls back to the other role or silence when the
composition lacks the role, and to silence at a table without a paladin; with no
accomplice in the composition a wolf claims seer with chance ``wolf_claim`` unless a
teammate already does. A fake seer clears a living teammate (chance ``clear``), else frames
the most trusted living village-team claimer it has not framed yet, else a living
village-team participant nobody cleared and it has not framed, else any; a fake medium
reports yesterday's voted-out (lowest seat, not yet announced) as the opposite of its team.
"""
from __future__ import annotations

from sim.werewolf.enums import (CLAIM_BASE, CLAIM_MEDIUM, CLAIM_SEER, RF, V, WITCH_BASE, WITCH_ELIMINATE,
                                WITCH_PASS, WITCH_REVIVE, Ab, How)
from strategies.werewolf.claims import VILLAGE_KNOBS, WOLF_KNOBS
from tests.naive.werewolf_strategies import (NaiveVillage, NaiveWolves, _mask, _members, _pick, chance, draw_subset,
                                             knob, slots)
from tests.naive.werewolf_strategies import mark as random_mark
from tests.naive.werewolf_strategies import protect as random_protect

SURE = 100.0
DIVINED = 9    # mem: the seer's last divination target + 1
FAKING = 10    # mem: the fake claimer's decision (0 not yet, 1 seer, 2 silent, 3 medium)
ATTACKED = 11  # mem: the attacker's last target + 1
DEFAULT = {k.name: float(k.default) for k in VILLAGE_KNOBS}  # the wolves' model of the table


_V_SLOTS, _W_SLOTS = slots(VILLAGE_KNOBS), slots(WOLF_KNOBS)


def _kv(view, name):
    return knob(view, _V_SLOTS, name)


def _kw(view, name):
    return knob(view, _W_SLOTS, name)


class Table:
    """What the public composition (``rules.seats``, the role table, R-2's variant) says."""

    def __init__(self, rules, n):
        rt, acc_village = rules.table, int(rules.var[V.ACC_VILLAGE]) == 1
        roles = [int(rules.seats[p]) for p in range(n)]
        self.seers = sum(int(rt[r, RF.ABILITY] == Ab.DIVINE) for r in roles)
        self.mediums = sum(int(rt[r, RF.ABILITY] == Ab.MEDIUM) for r in roles)
        self.paladin = any(rt[r, RF.ABILITY] == Ab.PROTECT for r in roles)
        self.madman = any(rt[r, RF.MADMAN] == 1 for r in roles)
        team = [r for r in roles if rt[r, RF.TEAM] == 1]
        self.wolves = len(team)

        def reads_village(r, col):
            return rt[r, col] == 0 or (rt[r, RF.MADMAN] == 1 and acc_village)

        hidden = sum(int(reads_village(r, RF.SEER_WOLF)) for r in team)
        self.seen = 1.0 - hidden / self.wolves if self.wolves else 1.0
        self.medium_blind = any(reads_village(r, RF.MEDIUM_WOLF) for r in team)
        self.prior = self.wolves / n


_TABLES: dict = {}


class Record:
    """One view as Python values: the public record, the actor's own row and the table."""

    def __init__(self, view):
        n = self.n = int(view.n)
        self.me, self.day = int(view.me), int(view.day)
        self.alive = _members(view.alive)
        self.others = self.alive - {self.me}
        self.know = view.know.tolist()
        self.out_how, self.out_day = view.out_how.tolist(), view.out_day.tolist()
        self.role = view.claim_role.tolist()
        self.res = view.claim_res.tolist()
        self.ability = int(view.rules.table[view.my_role, RF.ABILITY])
        self.seers = sorted(self.claimers(CLAIM_SEER))  # the seer claimers, in seat order
        key = (view.rules.table.tobytes(), view.rules.seats.tobytes(), int(view.rules.var[V.ACC_VILLAGE]), n)
        if key not in _TABLES:
            _TABLES[key] = Table(view.rules, n)
        self.table = _TABLES[key]

    def known(self, read):
        return {t for t in range(self.n) if self.know[t] == read}

    def claimers(self, kind):
        return {c for c in range(self.n) if self.role[c] == kind}

    def said(self, c, read):
        """Whom claimer c last announced as ``read``."""
        return {t for t, r in enumerate(self.res[c]) if r == read}


def _settle(trust, group, holders):
    if not group or holders == 0:
        return
    if sum(trust[c] >= 1.0 for c in group) >= holders:
        for c in group:
            if trust[c] < 1.0:
                trust[c] = 0.0
    elif holders == 1:
        total = sum(trust[c] for c in sorted(group))
        if total > 1.0:
            for c in group:
                trust[c] /= total


def trust_of(rec, w_med) -> dict[int, float]:
    """{claimer: trust} (see the module docstring)."""
    table = rec.table
    seers, mediums = rec.claimers(CLAIM_SEER), rec.claimers(CLAIM_MEDIUM)
    trust = {}
    for group, holders in ((seers, table.seers), (mediums, table.mediums)):
        for c in group:
            trust[c] = min(1.0, holders / len(group)) if holders > 0 else 0.0
            if rec.out_how[c] == How.ATTACKED:
                trust[c] = 1.0
    _settle(trust, seers, table.seers)
    _settle(trust, mediums, table.mediums)
    for md in sorted(mediums):
        tm = trust[md]
        if tm <= 0.0:
            continue
        wolf, vill = rec.said(md, 1), set() if table.medium_blind else rec.said(md, 0)
        for c in sorted(trust):
            if c == md:
                continue
            if c in wolf:
                trust[c] *= 1.0 - tm
            elif c in vill and trust[c] < tm:
                trust[c] = tm
            elif c in seers and (rec.said(c, 1) & vill or rec.said(c, 0) & wolf):
                trust[c] *= 1.0 - w_med * tm
    for c in seers:
        if trust[c] >= 1.0:
            for t in rec.said(c, 1) & set(trust):
                if trust[t] < 1.0:
                    trust[t] = 0.0
    _settle(trust, seers, table.seers)
    _settle(trust, mediums, table.mediums)
    return trust


def suspicion(rec, trust, t, own, w_rep, w_fake) -> float:
    table = rec.table
    if own:
        k = rec.know[t]
        if k == 1:
            return SURE
        if k == 0:
            if t == rec.me or table.seen >= 1.0 or rec.ability != Ab.DIVINE:
                return -SURE
            if t not in trust:
                return table.prior - w_rep * table.seen
    if t in trust:
        return -SURE if trust[t] >= 1.0 else w_fake * (1.0 - trust[t])
    x = table.prior
    for c in rec.seers:
        if c == t or trust[c] <= 0.0:
            continue
        r = rec.res[c][t]
        if r == 1:
            x += w_rep * trust[c]
        elif r == 0:
            x -= w_rep * trust[c] * table.seen
    return x


def most_suspected(rng, rec, trust, among, own, w_rep, w_fake, agree, sign=1.0):
    """(the one with the highest sign × suspicion, its suspicion); ties within 1e-12
    uniformly at random, or the lowest seat with ``agree``."""
    score = {t: sign * suspicion(rec, trust, t, own, w_rep, w_fake) for t in among}
    best = max(score.values())
    top = {t for t, v in score.items() if v > best - 1e-12}
    return (min(top) if agree else _pick(rng, top)), sign * best


def most_trusted(trust, among) -> int:
    """The claimer of ``among`` with the highest positive trust, ties to the lowest seat; -1."""
    cands = [c for c in among if c in trust and trust[c] > 0.0]
    return min(cands, key=lambda c: (-trust[c], c)) if cands else -1


def _village(view):
    rec = Record(view)
    return rec, trust_of(rec, _kv(view, "medium"))


def _wolves(view):
    rec = Record(view)
    return rec, trust_of(rec, DEFAULT["medium"])


# ----------------------------------------------------------------------------- village

def village_vote(rng, view, cands) -> int:
    rec, trust = _village(view)
    cands = _members(cands)
    return most_suspected(rng, rec, trust, cands - {rec.me} or cands, True, _kv(view, "report"),
                          _kv(view, "fake"), bool(_kv(view, "agree")))[0]


def village_divine(rng, view) -> int:
    rec = Record(view)
    unread = rec.others - rec.known(0) - rec.known(1) or rec.others
    if not unread:
        return -1
    first = unread & (rec.claimers(CLAIM_SEER) | rec.claimers(CLAIM_MEDIUM))
    t = _pick(rng, first or unread)
    view.mem[DIVINED] = t + 1
    return t


def _contested(rec) -> bool:
    seers = len(rec.claimers(CLAIM_SEER))
    rivals = rec.claimers(CLAIM_MEDIUM) - {rec.me}
    return seers > rec.table.seers or (seers > 0 and len(rivals) >= rec.table.mediums)


def village_speak(rng, view) -> int:
    if view.day < _kv(view, "claim_day"):
        return -1
    rec = Record(view)
    if rec.ability == Ab.DIVINE and view.mem[DIVINED]:
        t = int(view.mem[DIVINED]) - 1
        return CLAIM_SEER * CLAIM_BASE + 2 * t + rec.know[t]
    if rec.ability == Ab.MEDIUM:
        if _kv(view, "medium_wait") and rec.me not in rec.claimers(CLAIM_MEDIUM) and not _contested(rec):
            return -1
        fresh = [t for t in range(rec.n) if t != rec.me and rec.know[t] >= 0 and rec.out_how[t] == How.VOTED
                 and rec.res[rec.me][t] < 0]
        if fresh:
            return CLAIM_MEDIUM * CLAIM_BASE + 2 * fresh[0] + rec.know[fresh[0]]
    return -1


def village_protect(rng, view):
    rec = Record(view)
    avail = rec.others
    k = min(int(view.rules.table[view.my_role, RF.PROTECT]), len(avail))
    if k <= 0:
        return _mask(())
    trust = trust_of(rec, _kv(view, "medium"))
    first = most_trusted(trust, avail)
    if first >= 0 and _kv(view, "guard_seer"):
        seer = most_trusted(trust, avail & rec.claimers(CLAIM_SEER))
        if seer >= 0 and trust[seer] >= trust[first]:
            first = seer
    last = _members(view.last_protect)
    chosen = {first} if first >= 0 else set()
    rest = avail - chosen
    fresh = rest - last
    need = k - len(chosen)
    if first < 0 and _kv(view, "agree") and len(fresh) >= need:
        chosen |= set(sorted(fresh)[len(fresh) - need:])
    elif len(fresh) >= need:
        chosen |= draw_subset(rng, fresh, need)
    else:
        chosen |= fresh | draw_subset(rng, rest - fresh, need - len(fresh))
    if chosen == last and k >= 2:
        return random_protect(rng, view)
    return _mask(chosen)


def village_witch(rng, view) -> int:
    rec, trust = _village(view)
    if rec.others:
        t, s = most_suspected(rng, rec, trust, rec.others, True, _kv(view, "report"), _kv(view, "fake"), False)
        if s >= _kv(view, "witch_kill"):
            return WITCH_ELIMINATE * WITCH_BASE + t
    best = most_trusted(trust, set(range(rec.n)) - rec.alive - {rec.me})
    if best >= 0 and trust[best] >= _kv(view, "witch_revive"):
        return WITCH_REVIVE * WITCH_BASE + best
    return WITCH_PASS * WITCH_BASE


# ----------------------------------------------------------------------------- wolves

def wolf_vote(rng, view, cands) -> int:
    cands = _members(cands)
    rec, trust = _wolves(view)
    outside = cands - rec.known(1)
    if not outside:
        return _pick(rng, cands)
    c = most_trusted(trust, outside)
    if c >= 0:
        return c
    return most_suspected(rng, rec, trust, outside, False, DEFAULT["report"], DEFAULT["fake"], False,
                          sign=-1.0)[0]


def wolf_attack(rng, view, cands) -> int:
    cands = _members(cands)
    rec, trust = _wolves(view)
    last = int(view.mem[ATTACKED]) - 1
    among = cands
    if last in cands and len(cands) > 1 and chance(rng, _kw(view, "dodge")):
        among = cands - {last}
    c = most_trusted(trust, among)
    if c < 0:
        c = _pick(rng, among)
    view.mem[ATTACKED] = c + 1
    return c


def wolf_mark(rng, view) -> int:
    if not _kw(view, "frame"):
        return random_mark(rng, view)
    rec = Record(view)
    avail = rec.others - rec.known(1) - {int(view.last_mark)}
    if not avail:
        return -1
    read: set[int] = set()
    for c in rec.claimers(CLAIM_SEER):
        read |= {c} | rec.said(c, 0) | rec.said(c, 1)
    return _pick(rng, avail - read or avail)


def _fake_seer(rng, view, rec) -> int:
    team = rec.known(1)
    mates = team & rec.others
    if mates and chance(rng, _kw(view, "clear")):
        return CLAIM_SEER * CLAIM_BASE + 2 * _pick(rng, mates)
    targets = rec.others - team
    if not targets:
        return -1
    trust = trust_of(rec, DEFAULT["medium"])
    framed = rec.said(rec.me, 1)
    c = most_trusted(trust, targets - framed)
    if c < 0:
        cleared: set[int] = set()
        for k in trust:
            cleared |= rec.said(k, 0)
        c = _pick(rng, targets - cleared - framed or targets)
    return CLAIM_SEER * CLAIM_BASE + 2 * c + 1


def _fake_medium(rec) -> int:
    team = rec.known(1)
    for t in range(rec.n):
        if t != rec.me and rec.out_how[t] == How.VOTED and rec.out_day[t] == rec.day - 1 and rec.res[rec.me][t] < 0:
            return CLAIM_MEDIUM * CLAIM_BASE + 2 * t + (0 if t in team else 1)
    return -1


def wolf_speak(rng, view) -> int:
    rec = Record(view)
    accomplice = view.rules.table[view.my_role, RF.MADMAN] == 1
    table = rec.table
    if not accomplice:
        if _kw(view, "wolf_claim") <= 0.0 or table.madman or rec.claimers(CLAIM_SEER) & rec.known(1) - {rec.me}:
            return -1
    if view.day < _kw(view, "fake_day"):
        return -1
    if view.mem[FAKING] == 0:
        if not chance(rng, _kw(view, "fake_claim" if accomplice else "wolf_claim")):
            role = 2
        elif accomplice and chance(rng, _kw(view, "fake_medium_r6" if int(view.rules.var[V.AFTER_ELIM]) == 1
                                            else "fake_medium")):
            role = 3
        else:
            role = 1
        if not table.paladin:  # the attack would confirm the true claimer: the lie is exposed
            role = 2
        elif role == 1 and table.seers == 0:
            role = 3 if accomplice and table.mediums > 0 else 2
        elif role == 3 and table.mediums == 0:
            role = 1 if table.seers > 0 else 2
        view.mem[FAKING] = role
    if view.mem[FAKING] == 1:
        return _fake_seer(rng, view, rec)
    if view.mem[FAKING] == 3:
        return _fake_medium(rec)
    return -1


VILLAGE = NaiveVillage("claims", vote=village_vote, divine=village_divine, protect=village_protect,
                       witch=village_witch, speak=village_speak, knobs=VILLAGE_KNOBS)
WOLVES = NaiveWolves("claims", vote=wolf_vote, mark=wolf_mark, attack=wolf_attack, speak=wolf_speak,
                     knobs=WOLF_KNOBS)
