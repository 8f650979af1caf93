"""`talk` strategies: a table that weighs what it hears (issue 15's talking table).

Everything below is computed afresh at each decision from the public record in the view
(claims, reports, who left how) and the participant's own knowledge — no hidden state.

Village. Each participant keeps a *suspicion* of every other (that it is on the wolf
team), built from:

* the claims: with ``s`` seers in the (public) composition and ``k`` seer claimers, each
  claimer is true with chance ``s / k`` (one claim alone: trusted, two: one of them is
  fake); a claimer the wolves attacked at night is confirmed (wolves do not attack their
  own), and with one seer at the table the other claimers are then fake; a claimer another
  claimer confirmed calls a wolf loses trust;
* the reports: a claimer's "wolf" raises the target's suspicion by ``report × trust``, its
  "village" lowers it; a claimer's own suspicion rises by ``fake × (1 − trust)``;
* its own knowledge (the seer's readings, a wolf's team), which overrides the rest.

It votes the most suspected candidate (ties at random), so two claimers are resolved by a
vote among them when nothing else separates them, and no claimer is cleared by the claim
alone. The seer claims from ``claim_day`` and reports her newest reading, divining
counter-claimers first; the paladin protects the most trusted living claimer with a second
participant different from last night's (the pair rule); the witch eliminates the most
suspected when its suspicion reaches ``witch_kill`` and revives the most trusted fallen
claimer when its trust reaches ``witch_revive``, otherwise passes.

Wolves. The accomplice counter-claims seer (chance ``fake_claim`` per game, from
``fake_day``) and frames the most trusted village-team claimer, else a random villager,
or with chance ``clear`` clears a wolf; the wolves attack the most trusted claimer, vote
the most trusted village-team claimer, else the least suspected village-team participant;
hati marks (frames) the most cleared participant outside the team.

The medium's readings stay private (the engine's public record has seer claims only):
that part of the issue is still to do.
"""
import numba as nb
import numpy as np

from sim.core.bits import lowest_nb, popcount_nb
from sim.core.knobs import Knob
from sim.core.nrt import scratch_nb
from sim.core.rng import choose_bit_nb
from sim.werewolf.enums import CLAIM_SEER, WITCH_BASE, WITCH_ELIMINATE, WITCH_PASS, WITCH_REVIVE, Ab, How, RF
from strategies.werewolf.basic import others_alive_nb, random_protect_nb, random_subset_nb
# the seer's speech is claims' (same memory slot, claim_day is knob 0 in both families)
from strategies.werewolf.claims import chance_nb, knob_nb, village_speak_nb, wolf_mark_nb  # noqa: F401

U1 = np.uint64(1)
MEM_LAST_DIVINED = 0  # the seer's last divination target + 1
MEM_FAKE = 1          # the accomplice's decision: 0 undecided, 1 claims, 2 silent

KV_CLAIM_DAY, KV_REPORT, KV_FAKE, KV_WITCH_KILL, KV_WITCH_REVIVE = range(5)
KW_FAKE, KW_FAKE_DAY, KW_CLEAR, KW_FRAME = range(4)

VILLAGE_KNOBS = (
    Knob("claim_day", "int", 1, 8, 1, doc="the seer claims and reports from this day on"),
    Knob("report", "float", 0.0, 4.0, 1.0, doc="suspicion a claimer's report moves, times its trust"),
    Knob("fake", "float", 0.0, 4.0, 1.0, doc="suspicion of a claimer, times its chance of being fake"),
    Knob("witch_kill", "float", 0.0, 4.0, 1.5, doc="the witch eliminates the most suspected at this suspicion"),
    Knob("witch_revive", "float", 0.0, 1.0, 1.0, doc="the witch revives a fallen claimer trusted this much"),
)
WOLF_KNOBS = (
    Knob("fake_claim", "float", 0.0, 1.0, 1.0, doc="chance (per game) the accomplice counter-claims seer"),
    Knob("fake_day", "int", 1, 8, 1, doc="the accomplice claims from this day on"),
    Knob("clear", "float", 0.0, 1.0, 0.0, doc="chance a fake report clears a wolf instead of framing"),
    Knob("frame", "bool", default=True, doc="hati marks the most cleared participant (else at random)"),
)

SURE = 100.0  # suspicion of what a participant knows for certain


@nb.njit(inline="always")
def _bit(i):
    return U1 << np.uint64(i)


@nb.njit(inline="always")
def seers_at_table_nb(view):
    s = 0
    for p in range(view.n):
        if view.rules.table[view.rules.seats[p], RF.ABILITY] == Ab.DIVINE:
            s += 1
    return s


@nb.njit(inline="always")
def trust_nb(view, trust):
    """trust[c]: the chance claimer c is a true seer (-1 for non-claimers)."""
    n = view.n
    k = 0
    for c in range(n):
        trust[c] = -1.0
        if view.claim_role[c] == CLAIM_SEER:
            k += 1
    if k == 0:
        return 0
    s = seers_at_table_nb(view)
    base = min(1.0, s / k) if s > 0 else 0.0
    confirmed = 0
    for c in range(n):
        if view.claim_role[c] == CLAIM_SEER:
            trust[c] = base
            if view.out_how[c] == How.ATTACKED:
                trust[c] = 1.0
                confirmed += 1
    if confirmed >= s and s > 0:  # every seer found: the other claimers are fake
        for c in range(n):
            if trust[c] >= 0.0 and trust[c] < 1.0:
                trust[c] = 0.0
    for c in range(n):  # a confirmed seer's "wolf" on a claimer unmasks it
        if trust[c] == 1.0:
            for t in range(n):
                if view.claim_res[c, t] == 1 and trust[t] >= 0.0 and trust[t] < 1.0:
                    trust[t] = 0.0
    return k


@nb.njit(inline="always")
def suspicion_nb(view, susp, trust, own):
    """susp[t]: how strongly the acting participant thinks t is on the wolf team (``own``:
    with what it knows for certain; without, the table's public suspicion)."""
    n = view.n
    w_rep = knob_nb(view, KV_REPORT, 1.0)
    w_fake = knob_nb(view, KV_FAKE, 1.0)
    trust_nb(view, trust)
    for t in range(n):
        susp[t] = 0.0
        if trust[t] >= 0.0:
            susp[t] += w_fake * (1.0 - trust[t])
    for c in range(n):
        if trust[c] > 0.0:
            for t in range(n):
                r = view.claim_res[c, t]
                if t != c and r >= 0:
                    susp[t] += w_rep * trust[c] * (1.0 if r == 1 else -1.0)
    if own:
        for t in range(n):
            k = view.know[t]
            if k == 1:
                susp[t] = SURE
            elif k == 0:
                susp[t] = -SURE


@nb.njit(inline="always")
def _argmax_nb(rng, score, mask, sign):
    """A set bit of mask with the highest sign * score (ties uniformly)."""
    best = -np.inf
    top = np.uint64(0)
    m = mask
    while m:
        j = lowest_nb(m)
        m &= m - U1
        v = sign * score[j]
        if v > best + 1e-12:
            best = v
            top = _bit(j)
        elif v > best - 1e-12:
            top |= _bit(j)
    return choose_bit_nb(rng, top)


@nb.njit(inline="always")
def _most_trusted_nb(view, mask, trust):
    """The set bit of mask with the highest positive trust (the first such; -1: none)."""
    best = -1
    for c in range(view.n):
        if (mask >> np.uint64(c)) & U1 and trust[c] > 0.0 and (best < 0 or trust[c] > trust[best]):
            best = c
    return best


@nb.njit(inline="always")
def village_vote_nb(rng, view, cands):
    n = view.n
    susp = scratch_nb(n)
    trust = scratch_nb(n)
    suspicion_nb(view, susp, trust, True)
    m = cands & ~_bit(view.me)
    return _argmax_nb(rng, susp, m if m else cands, 1.0)


@nb.njit(inline="always")
def village_divine_nb(rng, view):
    n = view.n
    unread = others_alive_nb(view)
    for t in range(n):
        if view.know[t] >= 0:
            unread &= ~_bit(t)
    if not unread:
        unread = others_alive_nb(view)
    if not unread:
        return -1
    claimers = np.uint64(0)
    for c in range(n):
        if view.claim_role[c] == CLAIM_SEER:
            claimers |= _bit(c)
    m = unread & claimers
    t = choose_bit_nb(rng, m if m else unread)
    view.mem[MEM_LAST_DIVINED] = t + 1
    return t


@nb.njit(inline="always")
def village_protect_nb(rng, view):
    """The most trusted living claimer, then others; never last night's set (the pair rule)."""
    n = view.n
    avail = others_alive_nb(view)
    k = min(view.rules.table[view.my_role, RF.PROTECT], popcount_nb(avail))
    if k <= 0:
        return np.uint64(0)
    trust = scratch_nb(n)
    trust_nb(view, trust)
    first = _most_trusted_nb(view, avail, trust)
    last = view.last_protect
    m = _bit(first) if first >= 0 else np.uint64(0)
    rest = avail & ~m
    fresh = rest & ~last  # a second participant not protected last night keeps the set new
    need = k - popcount_nb(m)
    if popcount_nb(fresh) >= need:
        m |= random_subset_nb(rng, fresh, need)
    else:
        m |= fresh | random_subset_nb(rng, rest & ~fresh, need - popcount_nb(fresh))
    if m == last and k >= 2:  # only last night's set was possible with this first pick
        return random_protect_nb(rng, view)  # (it knows the rule's corner cases)
    return m


@nb.njit(inline="always")
def village_witch_nb(rng, view):
    n = view.n
    me = view.me
    susp = scratch_nb(n)
    trust = scratch_nb(n)
    suspicion_nb(view, susp, trust, True)
    others = others_alive_nb(view)
    if others:
        t = _argmax_nb(rng, susp, others, 1.0)
        if susp[t] >= knob_nb(view, KV_WITCH_KILL, 1.5):
            return WITCH_ELIMINATE * WITCH_BASE + t
    full = (U1 << np.uint64(n)) - U1
    dead = full & ~view.alive & ~_bit(me)
    best = _most_trusted_nb(view, dead, trust)
    if best >= 0 and trust[best] >= knob_nb(view, KV_WITCH_REVIVE, 1.0):
        return WITCH_REVIVE * WITCH_BASE + best
    return WITCH_PASS * WITCH_BASE


@nb.njit(inline="always")
def _team_nb(view):
    """The wolf team as a wolf-team participant knows it (view.know == 1)."""
    m = np.uint64(0)
    for t in range(view.n):
        if view.know[t] == 1:
            m |= _bit(t)
    return m


@nb.njit(inline="always")
def wolf_vote_nb(rng, view, cands):
    n = view.n
    team = _team_nb(view)
    trust = scratch_nb(n)
    trust_nb(view, trust)
    m = cands & ~team
    if not m:
        return choose_bit_nb(rng, cands)
    c = _most_trusted_nb(view, m, trust)
    if c >= 0:
        return c
    susp = scratch_nb(n)
    suspicion_nb(view, susp, trust, False)  # as the village sees them: vote the least suspected
    return _argmax_nb(rng, susp, m, -1.0)


@nb.njit(inline="always")
def wolf_attack_nb(rng, view, cands):
    n = view.n
    trust = scratch_nb(n)
    trust_nb(view, trust)
    c = _most_trusted_nb(view, cands, trust)
    return c if c >= 0 else choose_bit_nb(rng, cands)


@nb.njit(inline="always")
def wolf_mark_nb_talk(rng, view):
    if knob_nb(view, KW_FRAME, 1.0) == 0.0:
        m = others_alive_nb(view)
        last = view.last_mark
        if last >= 0:
            m &= ~_bit(last)
        return choose_bit_nb(rng, m) if m else -1
    return wolf_mark_nb(rng, view)


@nb.njit(inline="always")
def wolf_speak_nb(rng, view):
    """The accomplice's counter-claim: frame the most trusted village claimer, or clear a wolf."""
    if view.rules.table[view.my_role, RF.MADMAN] != 1:
        return -1
    if view.day < knob_nb(view, KW_FAKE_DAY, 1.0):
        return -1
    if view.mem[MEM_FAKE] == 0:
        view.mem[MEM_FAKE] = 1 if chance_nb(rng, knob_nb(view, KW_FAKE, 1.0)) else 2
    if view.mem[MEM_FAKE] == 2:
        return -1
    n = view.n
    team = _team_nb(view) & ~_bit(view.me)
    wolves_alive = team & view.alive
    if wolves_alive and chance_nb(rng, knob_nb(view, KW_CLEAR, 0.0)):
        return choose_bit_nb(rng, wolves_alive) * 2 + 0
    trust = scratch_nb(n)
    trust_nb(view, trust)
    targets = others_alive_nb(view) & ~_team_nb(view)
    if not targets:
        return -1
    c = _most_trusted_nb(view, targets, trust)
    if c < 0:
        c = choose_bit_nb(rng, targets)
    return c * 2 + 1

