"""`claims` strategies: a table that talks and weighs what it hears (issue 15).

Everything is computed afresh at each decision from the public record in the view (who
claimed which role, what each claimer announced — ``claimed`` / ``said`` masks — and who
left how) and the participant's own knowledge; nothing is remembered but the seer's last
target and the accomplice's decision (``mem``).

**Trust** (the chance a claimer holds the role it claims), per role claimed (seer,
medium): with ``s`` holders of the role in the public composition and ``k`` claimers,
each claimer starts at ``s / k`` (one claim alone: trusted; two: one of them lies); a
claimer the wolves attacked is confirmed (wolves do not attack their own), and once every
holder of a role is confirmed its other claimers are liars; a confirmed seer's "wolf" on a
claimer unmasks it. A trusted medium's reading of a voted-out claimer confirms it
("village", unless some wolf-team member reads as village to the medium: the accomplice
under R-2's "village" variant, issue 40) or unmasks it ("wolf"), and a seer claimer whose report on a voted-out
participant the medium contradicts loses trust in proportion (knob ``medium``). With one
holder of a role the claimers' trusts are scaled to sum to at most one.

**Suspicion** (that a participant is on the wolf team): a claimer's is ``fake × (1 −
trust)`` (a confirmed one, trust 1, is cleared outright); anyone else's moves by ``report
× trust`` for each seer claimer's "wolf" (up) or "village" (down) on it — a "village"
only by the share of the wolf team the seer can see (fenrir reads as village: a lone
fenrir is cleared by nobody's reading); reports on a rival claimer do not count, the trust
model settles those; the participant's own knowledge (the seer's readings, as far as they
go, a wolf's team) overrides everything.

Village: votes the most suspected (ties at random), so two claimers are resolved by a
vote among them when nothing else separates them and no claimer is cleared by the claim
alone; the seer and the medium claim from ``claim_day`` and report their newest result
(the seer divines counter-claimers first). The medium waits (``medium_wait``) until a
claim is contested — more seer claimers than seers, or a rival medium claimer: its reading
of the voted-out only moves claimers' trust, so an uncontested claim settles nothing and
only gives the wolves a second trusted target beside the seer (issue 40: on
``werewolf,hati,seer,medium,paladin,witch,villager*4`` the eager medium cost the village
5.9 points). The paladin protects the most trusted living claimer, a seer claimer before
an equally trusted medium claimer (``guard_seer``), with a second participant new each
night (the pair rule) — with no claimer to guard and the table voting the lowest seats
first (``agree``), the highest seats, whom the vote reaches last; the witch eliminates
the most suspected when its suspicion reaches ``witch_kill`` and revives the most trusted
fallen claimer when its trust reaches ``witch_revive``, otherwise passes.

Wolves: the accomplice counter-claims (chance ``fake_claim`` per game, from ``fake_day``;
never a role the public composition lacks, and never at a table without a paladin, where
the wolves' attack kills and so confirms the true claimer and exposes the liar: issue 40),
as the medium with chance ``fake_medium`` (under R-6 ``fake_medium_r6``: an eliminated seer
keeps divining there, so a fake seer is contradicted to the end), else as the seer: a fake seer frames the most
trusted village-team claimer, else a village-team participant no claimer has cleared (or,
with chance ``clear``, clears a wolf: the true seer reads fenrir as village too, so a
cleared fenrir is not contradicted); a fake medium says the opposite of the truth of yesterday's voted-out.
With no accomplice at the table a wolf counter-claims seer with chance ``wolf_claim``.
The wolves attack the most trusted village-team claimer, else a random village-team
participant; they vote the most trusted village-team claimer, else the participant the
village trusts most; hati marks someone no seer claimer has read yet (``frame``).

Reasons (``sim werewolf trace``, :mod:`sim.core.reasons`): a vote, a witch's potion, a
protection and an attack state the ranking behind them — the chosen participant first,
then the next two of the same suspicion (or trust) ranking, with their scores — and the
threshold a potion was weighed against; computed only in a trace.

Speed: every helper is inlined into its hook (a view passed to a non-inlined call costs
more than the work) and scratch arrays live on the stack (:func:`sim.core.nrt.scratch_nb`).
The inlining is LLVM's (``forceinline=True``), not numba's (``inline="always"`` copies and
re-types a helper at each call site): the same speed, and the claims-vs-claims kernel
compiles in 35 – 39 s instead of 118 – 138 s.
"""
import numba as nb
import numpy as np

from sim.core.bits import highest_nb, lowest_nb, popcount_nb
from sim.core.knobs import Knob
from sim.core.nrt import scratch_nb
from sim.core.reasons import explaining_nb, rank_nb, reason_nb
from sim.core.rng import choose_bit_nb
from sim.werewolf.enums import (CLAIM_BASE, CLAIM_MEDIUM, CLAIM_SEER, WITCH_BASE, WITCH_ELIMINATE, WITCH_PASS,
                                WITCH_REVIVE, Ab, How, RF, V, Why)
from strategies.werewolf.basic import (chance_nb, knob_nb, known_nb as _known_nb, others_alive_nb, random_mark_nb,
                                      random_protect_nb, random_subset_nb)

U1 = np.uint64(1)
MEM_LAST_DIVINED = 0  # the seer's last divination target + 1
MEM_FAKE = 1          # the accomplice's decision: 0 undecided, 1 seer, 2 silent, 3 medium
MEM_ATTACKED = 2      # the attacker's last target + 1
MEM_TABLE = 3         # the public composition's counts, packed (0: not yet read this game)
MEM_TEAM = 4          # a wolf-team member's team mask, packed (mask << 1 | 1; 0: not yet read this game)

KV_CLAIM_DAY, KV_REPORT, KV_FAKE, KV_MEDIUM, KV_WITCH_KILL, KV_WITCH_REVIVE, KV_AGREE, KV_MEDIUM_WAIT, \
    KV_GUARD_SEER = range(9)
KW_FAKE, KW_FAKE_MEDIUM, KW_FAKE_DAY, KW_CLEAR, KW_WOLF_CLAIM, KW_FRAME, KW_DODGE, KW_FAKE_MEDIUM_R6 = range(8)

VILLAGE_KNOBS = (
    Knob("claim_day", "int", 1, 8, 1, doc="the seer and the medium claim and report from this day on"),
    Knob("report", "float", 0.0, 4.0, 1.0, doc="suspicion a seer claimer's report moves, times its trust"),
    Knob("fake", "float", 0.0, 4.0, 1.0, doc="suspicion of a claimer, times its chance of lying"),
    Knob("medium", "float", 0.0, 1.0, 1.0, doc="how far a medium's contradiction lowers a seer claimer's trust"),
    Knob("witch_kill", "float", 0.0, 5.0, 1.5, doc="the witch eliminates the most suspected at this suspicion"),
    Knob("witch_revive", "float", 0.0, 1.0, 1.0, doc="the witch revives a fallen claimer trusted this much"),
    Knob("agree", "bool", default=True, doc="ties in suspicion go to the lowest seat (the table votes as one)"),
    # issue 40: an uncontested medium claim settles nothing and splits the paladin's guard
    Knob("medium_wait", "bool", default=True, doc="the medium claims only once a claim is contested (more seer "
         "claimers than seers, or another medium claimer)"),
    Knob("guard_seer", "bool", default=True, doc="the paladin guards a seer claimer before an equally trusted "
         "medium claimer"),
)
WOLF_KNOBS = (
    Knob("fake_claim", "float", 0.0, 1.0, 1.0, doc="chance (per game) the accomplice counter-claims"),
    Knob("fake_medium", "float", 0.0, 1.0, 0.0, doc="chance its counter-claim is the medium's (else the seer's)"),
    Knob("fake_day", "int", 1, 8, 1, doc="the accomplice claims from this day on"),
    Knob("clear", "float", 0.0, 1.0, 0.0, doc="chance a fake seer report clears a wolf instead of framing"),
    Knob("wolf_claim", "float", 0.0, 1.0, 0.0, doc="with no accomplice at the table: chance a wolf claims seer"),
    Knob("frame", "bool", default=True, doc="hati marks someone no seer claimer has read yet (else at random)"),
    Knob("dodge", "float", 0.0, 1.0, 1.0, doc="chance the attack avoids last night's target that survived (guarded)"),
    # under R-6 an eliminated seer keeps divining and reporting: a fake seer is contradicted to
    # the end (seed 3's 14-seat table: the seer counter-claim cost the wolves 6.7 points, the
    # medium's gains them 26.1; issue 40)
    Knob("fake_medium_r6", "float", 0.0, 1.0, 1.0,
         doc="under R-6 (abilities after elimination): chance the counter-claim is the medium's"),
)

SURE = 100.0  # suspicion of what a participant knows for certain


@nb.njit(forceinline=True)
def _bit(i):
    return U1 << np.uint64(i)


@nb.njit(forceinline=True)
def _has(m, i):
    return (m >> np.uint64(i)) & U1 != 0


@nb.njit(forceinline=True)
def _ability_nb(view):
    return view.rules.table[view.my_role, RF.ABILITY]


@nb.njit(forceinline=True)
def table_nb(view):
    """(seers, mediums, wolf team) in the public composition, read once per game into mem."""
    x = view.mem[MEM_TABLE]
    if x == 0:
        s = m = w = h = mh = 0
        acc_village = view.rules.var[V.ACC_VILLAGE] == 1
        for p in range(view.n):
            r = view.rules.seats[p]
            ab = view.rules.table[r, RF.ABILITY]
            s += ab == Ab.DIVINE
            m += ab == Ab.MEDIUM
            team = view.rules.table[r, RF.TEAM] == 1
            w += team
            # a wolf-team member the seer (h) / the medium (mh) reads as village: fenrir to the
            # seer; the accomplice to both under R-2's "village" variant
            madv = view.rules.table[r, RF.MADMAN] == 1 and acc_village
            h += team and (view.rules.table[r, RF.SEER_WOLF] == 0 or madv)
            mh += team and (view.rules.table[r, RF.MEDIUM_WOLF] == 0 or madv)
        x = 1 + s + 64 * m + 4096 * w + 262144 * h + 16777216 * mh
        view.mem[MEM_TABLE] = x
    x -= 1
    return x % 64, (x // 64) % 64, (x // 4096) % 64


@nb.njit(forceinline=True)
def seen_nb(view):
    """The share of the wolf team the seer can see: a "village" reading clears only that
    much (fenrir reads as village: with a lone fenrir it clears nobody)."""
    table_nb(view)
    w = (view.mem[MEM_TABLE] - 1) // 4096 % 64
    h = (view.mem[MEM_TABLE] - 1) // 262144 % 64
    return 1.0 - h / w if w > 0 else 1.0


@nb.njit(forceinline=True)
def medium_blind_nb(view):
    """Whether some wolf-team member reads as village to the medium (the accomplice under
    R-2's "village" variant): then her "village" on a claimer does not make it genuine."""
    table_nb(view)
    return (view.mem[MEM_TABLE] - 1) // 16777216 > 0


@nb.njit(forceinline=True)
def _settle_nb(view, trust, kind, s):
    """One role's claimers: confirmed → the rest lie; one holder → trusts sum to ≤ 1."""
    m = view.claimed[kind]
    if not m or s == 0:
        return
    confirmed = 0
    total = 0.0
    k = m
    while k:
        c = lowest_nb(k)
        k &= k - U1
        if trust[c] >= 1.0:
            confirmed += 1
        total += trust[c]
    if confirmed >= s:
        k = m
        while k:
            c = lowest_nb(k)
            k &= k - U1
            if trust[c] < 1.0:
                trust[c] = 0.0
    elif s == 1 and total > 1.0:
        k = m
        while k:
            c = lowest_nb(k)
            k &= k - U1
            trust[c] /= total


@nb.njit(forceinline=True)
def trust_nb(view, trust, w_med):
    """trust[c] for every claimer c (the mask of claimers is returned; others unset).
    ``w_med``: the village's ``medium`` knob (the wolves, who cannot read the village's
    knobs, model the table with the default 1)."""
    seers, mediums = view.claimed[CLAIM_SEER], view.claimed[CLAIM_MEDIUM]
    claimers = seers | mediums
    if not claimers:
        return claimers
    s_seer, s_med, _ = table_nb(view)
    ks, km = popcount_nb(seers), popcount_nb(mediums)
    k = claimers
    while k:
        c = lowest_nb(k)
        k &= k - U1
        if _has(seers, c):
            trust[c] = min(1.0, s_seer / ks) if s_seer > 0 else 0.0
        else:
            trust[c] = min(1.0, s_med / km) if s_med > 0 else 0.0
        if view.out_how[c] == How.ATTACKED:
            trust[c] = 1.0
    _settle_nb(view, trust, CLAIM_SEER, s_seer)
    _settle_nb(view, trust, CLAIM_MEDIUM, s_med)
    # the mediums' readings of voted-out participants
    k = mediums
    while k:
        md = lowest_nb(k)
        k &= k - U1
        tm = trust[md]
        if tm <= 0.0:
            continue
        wolf, vill = view.said[md, 1], view.said[md, 0]
        if medium_blind_nb(view):
            vill = np.uint64(0)  # a "village" here may be the accomplice's: it settles nothing
        j = claimers & ~_bit(md)
        while j:
            c = lowest_nb(j)
            j &= j - U1
            if _has(wolf, c):
                trust[c] *= 1.0 - tm
            elif _has(vill, c) and trust[c] < tm:
                trust[c] = tm
            elif _has(seers, c) and ((view.said[c, 1] & vill) | (view.said[c, 0] & wolf)):
                trust[c] *= 1.0 - w_med * tm
    # a confirmed seer's "wolf" on a claimer unmasks it
    k = seers
    while k:
        c = lowest_nb(k)
        k &= k - U1
        if trust[c] >= 1.0:
            j = view.said[c, 1] & claimers
            while j:
                t = lowest_nb(j)
                j &= j - U1
                if trust[t] < 1.0:
                    trust[t] = 0.0
    _settle_nb(view, trust, CLAIM_SEER, s_seer)
    _settle_nb(view, trust, CLAIM_MEDIUM, s_med)
    return claimers


@nb.njit(forceinline=True)
def suspicion_of_nb(view, trust, claimers, t, own, w_rep, w_fake, prior):
    """How strongly the acting participant thinks t is on the wolf team (``own``: with what
    it knows for certain; without, the table's public suspicion). A chance-like scale: a
    claimer's chance of lying (× ``fake``), anyone else the wolf team's share of the table
    (``prior``) moved by the seer claimers' reports."""
    if own:
        k = view.know[t]
        if k == 1:
            return SURE
        if k == 0:
            seen = seen_nb(view)
            if t == view.me or seen >= 1.0 or _ability_nb(view) != Ab.DIVINE:
                return -SURE
            if not _has(claimers, t):  # her own "village" clears only the wolves she can see
                return prior - w_rep * seen
    if _has(claimers, t):
        # a confirmed claimer is cleared as surely as what one knows (else, when the seer has
        # cleared everyone else, the table votes its own seer out; issue 40)
        return -SURE if trust[t] >= 1.0 else w_fake * (1.0 - trust[t])
    x = prior
    j = view.claimed[CLAIM_SEER]
    while j:
        c = lowest_nb(j)
        j &= j - U1
        if c != t and trust[c] > 0.0:
            if _has(view.said[c, 1], t):
                x += w_rep * trust[c]
            elif _has(view.said[c, 0], t):
                x -= w_rep * trust[c] * seen_nb(view)
    return x


@nb.njit(forceinline=True)
def prior_nb(view):
    """The wolf team's share of the public composition."""
    return table_nb(view)[2] / view.n


@nb.njit(forceinline=True)
def _extreme_nb(rng, view, trust, claimers, mask, own, sign, w_rep, w_fake, agree=False):
    """A set bit of mask with the highest sign × suspicion (ties uniformly, or the lowest
    seat with ``agree``; -1: empty). Only claimers, the participants a seer claimer
    reported and (``own``) those the participant knows can differ from the prior, so
    they are scored one by one and the rest as one block. ``w_rep`` / ``w_fake``: the
    village's ``report`` / ``fake`` knobs (the wolves model the table with the defaults)."""
    prior = prior_nb(view)
    special = claimers
    j = view.claimed[CLAIM_SEER]
    while j:
        c = lowest_nb(j)
        j &= j - U1
        special |= view.said[c, 0] | view.said[c, 1]
    if own:
        ab = _ability_nb(view)
        if ab == Ab.DIVINE or ab == Ab.MEDIUM:  # their readings grow; everyone else knows only itself
            for t in range(view.n):
                if view.know[t] >= 0:
                    special |= _bit(t)
        else:
            special |= _bit(view.me)
    special &= mask
    rest = mask & ~special
    best = sign * prior if rest else -np.inf
    top = rest
    m = special
    while m:
        j = lowest_nb(m)
        m &= m - U1
        v = sign * suspicion_of_nb(view, trust, claimers, j, own, w_rep, w_fake, prior)
        if v > best + 1e-12:
            best = v
            top = _bit(j)
        elif v > best - 1e-12:
            top |= _bit(j)
    if not top:
        return -1, best
    if agree:
        return lowest_nb(top), sign * best
    return choose_bit_nb(rng, top), sign * best


@nb.njit(forceinline=True)
def _village_trust_nb(view, trust):
    return trust_nb(view, trust, knob_nb(view, KV_MEDIUM, 1.0))


@nb.njit(forceinline=True)
def _village_extreme_nb(rng, view, trust, claimers, mask, agree):
    return _extreme_nb(rng, view, trust, claimers, mask, True, 1.0, knob_nb(view, KV_REPORT, 1.0),
                       knob_nb(view, KV_FAKE, 1.0), agree)


@nb.njit(forceinline=True)
def _most_trusted_nb(mask, claimers, trust):
    """The set bit of mask ∩ claimers with the highest positive trust (-1: none)."""
    best = -1
    m = mask & claimers
    while m:
        c = lowest_nb(m)
        m &= m - U1
        if trust[c] > 0.0 and (best < 0 or trust[c] > trust[best]):
            best = c
    return best


@nb.njit(forceinline=True)
def _explain_suspicion_nb(view, trust, claimers, mask, chosen, own, w_rep, w_fake, sign):
    """The suspicion ranking behind a choice among ``mask`` (``sign`` -1: the least
    suspected first). Only in a trace: the caller tests :func:`explaining_nb`."""
    sc = np.zeros(view.n)
    prior = prior_nb(view)
    m = mask
    while m:
        j = lowest_nb(m)
        m &= m - U1
        sc[j] = suspicion_of_nb(view, trust, claimers, j, own, w_rep, w_fake, prior)
    rank_nb(view.why, Why.SUSPECT, sc, mask, chosen, 3, sign)


@nb.njit(forceinline=True)
def _explain_trust_nb(view, trust, mask, chosen):
    """The trust ranking of the claimers in ``mask`` behind a choice (trace only)."""
    sc = np.zeros(view.n)
    m = mask
    while m:
        j = lowest_nb(m)
        m &= m - U1
        sc[j] = trust[j]
    rank_nb(view.why, Why.TRUST, sc, mask, chosen, 3, 1.0)


# ------------------------------------------------------------------------- village

@nb.njit(forceinline=True)
def village_vote_nb(rng, view, cands):
    trust = scratch_nb(view.n)
    claimers = _village_trust_nb(view, trust)
    m = cands & ~_bit(view.me)
    agree = knob_nb(view, KV_AGREE, 1.0) != 0.0
    t, _ = _village_extreme_nb(rng, view, trust, claimers, m if m else cands, agree)
    if explaining_nb(view.why):
        _explain_suspicion_nb(view, trust, claimers, m if m else cands, t, True, knob_nb(view, KV_REPORT, 1.0),
                              knob_nb(view, KV_FAKE, 1.0), 1.0)
    return t


@nb.njit(forceinline=True)
def village_divine_nb(rng, view):
    unread = others_alive_nb(view) & ~_known_nb(view, 0) & ~_known_nb(view, 1)
    if not unread:
        unread = others_alive_nb(view)
    if not unread:
        return -1
    m = unread & (view.claimed[CLAIM_SEER] | view.claimed[CLAIM_MEDIUM])
    t = choose_bit_nb(rng, m if m else unread)
    if m:
        # a claimer not yet read: test the claim
        reason_nb(view.why, Why.CLAIMER, t, -1, CLAIM_SEER if _has(view.claimed[CLAIM_SEER], t) else CLAIM_MEDIUM)
    reason_nb(view.why, Why.UNREAD, -1, -1, popcount_nb(m if m else unread))
    view.mem[MEM_LAST_DIVINED] = t + 1
    return t


@nb.njit(forceinline=True)
def _contested_nb(view):
    """The seer's role is claimed by more participants than hold it, or a rival medium
    claimer speaks while someone claims seer: only then does a medium's reading of the
    voted-out settle anything in this model (it moves seer claimers' trust)."""
    s_seer, s_med, _ = table_nb(view)
    seers = popcount_nb(view.claimed[CLAIM_SEER])
    others = view.claimed[CLAIM_MEDIUM] & ~_bit(view.me)
    return seers > s_seer or (seers > 0 and popcount_nb(others) >= s_med)


@nb.njit(forceinline=True)
def village_speak_nb(rng, view):
    """The seer reports her newest reading, the medium a result not yet announced."""
    if view.day < knob_nb(view, KV_CLAIM_DAY, 1.0):
        return -1
    ab = _ability_nb(view)
    if ab == Ab.DIVINE:
        if view.mem[MEM_LAST_DIVINED] == 0:
            return -1
        t = view.mem[MEM_LAST_DIVINED] - 1
        reason_nb(view.why, Why.ANNOUNCES, t, -1, view.know[t])
        return CLAIM_SEER * CLAIM_BASE + t * 2 + view.know[t]
    if ab == Ab.MEDIUM:
        me = view.me
        if knob_nb(view, KV_MEDIUM_WAIT, 1.0) != 0.0 and not _has(view.claimed[CLAIM_MEDIUM], me) \
                and not _contested_nb(view):
            return -1
        for t in range(view.n):
            if t != me and view.know[t] >= 0 and view.out_how[t] == How.VOTED and view.claim_res[me, t] < 0:
                reason_nb(view.why, Why.ANNOUNCES, t, -1, view.know[t])
                return CLAIM_MEDIUM * CLAIM_BASE + t * 2 + view.know[t]
    return -1


@nb.njit(forceinline=True)
def village_protect_nb(rng, view):
    """The most trusted living claimer, then others; never last night's set (the pair rule)."""
    avail = others_alive_nb(view)
    k = min(view.rules.table[view.my_role, RF.PROTECT], popcount_nb(avail))
    if k <= 0:
        return np.uint64(0)
    trust = scratch_nb(view.n)
    claimers = _village_trust_nb(view, trust)
    first = _most_trusted_nb(avail, claimers, trust)
    if first >= 0 and knob_nb(view, KV_GUARD_SEER, 1.0) != 0.0:  # the seer's readings are worth more
        seer = _most_trusted_nb(avail & view.claimed[CLAIM_SEER], claimers, trust)
        if seer >= 0 and trust[seer] >= trust[first]:
            first = seer
    if explaining_nb(view.why):
        _explain_trust_nb(view, trust, avail & claimers, first)
    last = view.last_protect
    m = _bit(first) if first >= 0 else np.uint64(0)
    rest = avail & ~m
    fresh = rest & ~last  # a second participant not protected last night keeps the set new
    need = k - popcount_nb(m)
    if first < 0 and knob_nb(view, KV_AGREE, 1.0) != 0.0 and popcount_nb(fresh) >= need:
        # nobody to guard: the table votes the lowest seats first (agree), so an attack there
        # only takes a vote it would spend anyway; guard the highest seats (issue 40)
        for _ in range(need):
            h = highest_nb(fresh)
            m |= _bit(h)
            fresh &= ~_bit(h)
        reason_nb(view.why, Why.SEATS, -1, -1, need)
    elif popcount_nb(fresh) >= need:
        if need > 0:
            reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(fresh))
        m |= random_subset_nb(rng, fresh, need)
    else:
        if need > popcount_nb(fresh):
            reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(rest & ~fresh))
        m |= fresh | random_subset_nb(rng, rest & ~fresh, need - popcount_nb(fresh))
    if m == last and k >= 2:  # only last night's set was possible with this first pick
        return random_protect_nb(rng, view)  # (it knows the rule's corner cases)
    return m


@nb.njit(forceinline=True)
def village_witch_nb(rng, view):
    n = view.n
    trust = scratch_nb(n)
    claimers = _village_trust_nb(view, trust)
    others = others_alive_nb(view)
    if others:
        t, s = _village_extreme_nb(rng, view, trust, claimers, others, False)
        if explaining_nb(view.why):
            _explain_suspicion_nb(view, trust, claimers, others, t, True, knob_nb(view, KV_REPORT, 1.0),
                                  knob_nb(view, KV_FAKE, 1.0), 1.0)
            reason_nb(view.why, Why.THRESHOLD, -1, -1, knob_nb(view, KV_WITCH_KILL, 1.5))
        if s >= knob_nb(view, KV_WITCH_KILL, 1.5):
            return WITCH_ELIMINATE * WITCH_BASE + t
    full = (U1 << np.uint64(n)) - U1
    dead = full & ~view.alive & ~_bit(view.me)
    best = _most_trusted_nb(dead, claimers, trust)
    if explaining_nb(view.why) and best >= 0:
        reason_nb(view.why, Why.TRUST, best, -1, trust[best])
        reason_nb(view.why, Why.THRESHOLD, -1, -1, knob_nb(view, KV_WITCH_REVIVE, 1.0))
    if best >= 0 and trust[best] >= knob_nb(view, KV_WITCH_REVIVE, 1.0):
        return WITCH_REVIVE * WITCH_BASE + best
    return WITCH_PASS * WITCH_BASE


# ------------------------------------------------------------------------- wolves

@nb.njit(forceinline=True)
def _team_nb(view):
    """The wolf team as the acting member knows it from the deal, read once per game."""
    x = view.mem[MEM_TEAM]
    if x == 0:
        x = np.int64(_known_nb(view, 1)) * 2 + 1
        view.mem[MEM_TEAM] = x
    return np.uint64(x >> 1)


@nb.njit(forceinline=True)
def wolf_vote_nb(rng, view, cands):
    team = _team_nb(view)
    m = cands & ~team
    if not m:
        return choose_bit_nb(rng, cands)
    trust = scratch_nb(view.n)
    claimers = trust_nb(view, trust, 1.0)
    c = _most_trusted_nb(m, claimers, trust)
    if c >= 0:
        if explaining_nb(view.why):
            _explain_trust_nb(view, trust, m & claimers, c)
        return c
    t, _ = _extreme_nb(rng, view, trust, claimers, m, False, -1.0, 1.0, 1.0)  # the one the village trusts most
    if explaining_nb(view.why):
        _explain_suspicion_nb(view, trust, claimers, m, t, False, 1.0, 1.0, -1.0)
    return t


@nb.njit(forceinline=True)
def wolf_attack_nb(rng, view, cands):
    """The most trusted claimer, unless last night's attack on it failed (it is guarded)."""
    trust = scratch_nb(view.n)
    claimers = trust_nb(view, trust, 1.0)
    m = cands
    last = view.mem[MEM_ATTACKED] - 1
    if last >= 0 and _has(cands, last) and popcount_nb(cands) > 1 \
            and chance_nb(rng, knob_nb(view, KW_DODGE, 1.0)):
        m = cands & ~_bit(last)
        reason_nb(view.why, Why.AVOID, last)
    c = _most_trusted_nb(m, claimers, trust)
    if c < 0:
        c = choose_bit_nb(rng, m)
        reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(m))
    elif explaining_nb(view.why):
        _explain_trust_nb(view, trust, m & claimers, c)
    view.mem[MEM_ATTACKED] = c + 1
    return c


@nb.njit(forceinline=True)
def wolf_mark_nb(rng, view):
    """Hati frames someone no seer claimer has read yet (the true seer divines the unread,
    so a mark on a participant she already cleared is wasted): never its own team nor last
    evening's mark; with ``frame`` off, at random."""
    if knob_nb(view, KW_FRAME, 1.0) == 0.0:
        return random_mark_nb(rng, view)
    last = view.last_mark
    avail = others_alive_nb(view) & ~_team_nb(view)
    if last >= 0:
        avail &= ~_bit(last)
    if not avail:
        return -1
    read = np.uint64(0)
    j = view.claimed[CLAIM_SEER]
    while j:
        c = lowest_nb(j)
        j &= j - U1
        read |= view.said[c, 0] | view.said[c, 1] | _bit(c)
    fresh = avail & ~read
    if last >= 0:
        reason_nb(view.why, Why.AVOID, last)
    if fresh:
        reason_nb(view.why, Why.UNREAD, -1, -1, popcount_nb(fresh))
    else:
        reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(avail))
    return choose_bit_nb(rng, fresh if fresh else avail)


@nb.njit(forceinline=True)
def _fake_seer_nb(rng, view, team):
    """A fake seer's report: clear fenrir / a wolf, or frame the trusted rival claimer."""
    wolves_alive = team & view.alive & ~_bit(view.me)
    if wolves_alive and chance_nb(rng, knob_nb(view, KW_CLEAR, 0.0)):
        t = choose_bit_nb(rng, wolves_alive)
        reason_nb(view.why, Why.KNOWN, t, -1, 1.0)  # a teammate, announced as village
        reason_nb(view.why, Why.ANNOUNCES, t, -1, 0.0)
        return CLAIM_SEER * CLAIM_BASE + t * 2 + 0
    targets = others_alive_nb(view) & ~team
    if not targets:
        return -1
    trust = scratch_nb(view.n)
    claimers = trust_nb(view, trust, 1.0)
    c = _most_trusted_nb(targets & ~view.said[view.me, 1], claimers, trust)
    if c >= 0:
        reason_nb(view.why, Why.TRUST, c, -1, trust[c])  # frames the trusted rival
    else:
        cleared = np.uint64(0)
        j = claimers
        while j:
            k = lowest_nb(j)
            j &= j - U1
            cleared |= view.said[k, 0]
        fresh = targets & ~cleared & ~view.said[view.me, 1]
        c = choose_bit_nb(rng, fresh if fresh else targets)
        reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(fresh if fresh else targets))
    reason_nb(view.why, Why.ANNOUNCES, c, -1, 1.0)
    return CLAIM_SEER * CLAIM_BASE + c * 2 + 1


@nb.njit(forceinline=True)
def _fake_medium_nb(view, team):
    """A fake medium's report: the opposite of the truth of a voted-out participant."""
    me = view.me
    for t in range(view.n):
        if t != me and view.out_how[t] == How.VOTED and view.out_day[t] == view.day - 1 \
                and view.claim_res[me, t] < 0:
            reason_nb(view.why, Why.ANNOUNCES, t, -1, 0.0 if _has(team, t) else 1.0)  # the opposite of its truth
            return CLAIM_MEDIUM * CLAIM_BASE + t * 2 + (0 if _has(team, t) else 1)
    return -1


@nb.njit(forceinline=True)
def wolf_speak_nb(rng, view):
    """The accomplice's (or, with none at the table, a wolf's) counter-claim."""
    madman = view.rules.table[view.my_role, RF.MADMAN] == 1
    if not madman:
        p_wolf = knob_nb(view, KW_WOLF_CLAIM, 0.0)
        if p_wolf <= 0.0:
            return -1
        for p in range(view.n):  # an accomplice at the table claims instead
            if view.rules.table[view.rules.seats[p], RF.MADMAN] == 1:
                return -1
        if view.claimed[CLAIM_SEER] & _team_nb(view) & ~_bit(view.me):
            return -1  # a teammate already claims
    if view.day < knob_nb(view, KW_FAKE_DAY, 1.0):
        return -1
    if view.mem[MEM_FAKE] == 0:
        p = knob_nb(view, KW_FAKE, 1.0) if madman else knob_nb(view, KW_WOLF_CLAIM, 0.0)
        if not chance_nb(rng, p):
            view.mem[MEM_FAKE] = 2
        elif madman and chance_nb(rng, knob_nb(view, KW_FAKE_MEDIUM_R6, 1.0) if view.rules.var[V.AFTER_ELIM] == 1
                                  else knob_nb(view, KW_FAKE_MEDIUM, 0.0)):
            view.mem[MEM_FAKE] = 3
        else:
            view.mem[MEM_FAKE] = 1
        # a role the public composition lacks is a claim everyone knows is a lie (issue 40):
        # the other role, else silence
        s_seer, s_med, _ = table_nb(view)
        guarded = False  # without a paladin the wolves' attack kills the true claimer, whom it
        for p in range(view.n):  # confirms: the liar is exposed for nothing (issue 40)
            guarded |= view.rules.table[view.rules.seats[p], RF.ABILITY] == Ab.PROTECT
        if not guarded:
            view.mem[MEM_FAKE] = 2
        elif view.mem[MEM_FAKE] == 1 and s_seer == 0:
            view.mem[MEM_FAKE] = 3 if madman and s_med > 0 else 2
        elif view.mem[MEM_FAKE] == 3 and s_med == 0:
            view.mem[MEM_FAKE] = 1 if s_seer > 0 else 2
    team = _team_nb(view)
    if view.mem[MEM_FAKE] == 1:
        return _fake_seer_nb(rng, view, team)
    if view.mem[MEM_FAKE] == 3:
        return _fake_medium_nb(view, team)
    return -1
