"""Exact outcome probabilities of any seed Werewolf table under random play.

``sim werewolf exact`` uses this chain for every table outside the werewolf / villager /
seer tables of :mod:`sim.werewolf.exact` (which stays in exact fractions); it is written
in numpy float64 (not fractions), so "exact" here means: the value of the exact chain
below, computed in double precision (no sampling; the tests compare it with the engine
and, on werewolf / villager / seer tables, with the fraction solver to 1e-12).

What random play does (``strategies/werewolf/basic.py`` with the engine
``sim/werewolf/game_nb.py``), and so what the chain models
------------------------------------------------------------------------------------

*Only who is alive matters.* Under random play no decision reads what anybody learned:
hati's mark changes only what the seer reads, and the seer's and the medium's readings
are never used (``know`` is read by no random hook), claims are silent. So hati is an
ordinary attacking wolf, and the seer and the medium are villagers. What does change
who leaves: the vote, the witch, the paladin's protection, the attack and every drag
(``drag`` > 0: fenrir's). Which participants are alive at the end of a day, and the
paladin's last set, are all the game's future depends on.

*Classes.* Participants are merged into classes of interchangeable ones by what the
rules use of them: (wolf team, counts as wolf (R-2, ``accomplice_counts_as``), attacks,
drag, ability ∈ {none, protect (with its ``protect_count``), witch}). The default table
(``fenrir,hati,accomplice,seer,medium,paladin,witch,villager*5``) has six: fenrir,
hati, accomplice, the seven plain village participants (seer, medium, villagers),
the paladin, the witch. At most one paladin and one witch are modelled (each has its
own history; two of them are not interchangeable and are refused).

*State* at the start of a day (17:00): for every class c, ``AN[c]`` living members not in
the paladin's last set L, ``AL[c]`` living members in L, ``DL[c]`` out members in L
(the out members not in L are the rest). Every choice the engine makes is uniform over a
set defined by these cells, so members of one cell stay interchangeable. L is the set
the paladin protected last night (empty after a night he did not act).

*One day*, exactly in the engine's order, a win check (R-7, village first, by counts of
living counts-as-wolf and counts-as-village participants) after every event that puts
someone out or brings someone back — never otherwise:

1. **Vote** (18:00). ``runoff``: every living participant votes uniformly among the
   candidates, so by symmetry the out set is a uniform subset of the living of size one
   (P1), two (P2, a two-way tie) or zero (P0, ``max_runoffs`` runoffs still three-way
   tied); P1, P2, P0 are :func:`sim.werewolf.exact._runoff_round` (the fraction
   recursion over tie sizes, converted to float). ``plurality`` and ``random_lynch``:
   one uniform living participant. The out set leaves; then every leaving participant
   with drag d drags: altogether ``sum d`` participants, one after another uniformly
   among the living counts-as-village (the engine's ``M_CVILL``; R-2 madman included),
   i.e. a uniform subset of that size (all of them if fewer). Those dragged do not drag.
2. **Witch** (if she is alive, or always with ``abilities_after_elimination``, R-6):
   ``random_witch_nb`` draws uniformly among 1 + (living others) + (out others) = N
   options: pass with 1/N; each living other 1/N, put out (dragging, as above); each
   out other 1/N, brought back (into its cell: an L member returns to L).
3. **Paladin** (21:00, alive or R-6): A = his living others, k = min(protect_count, A);
   if k ≥ 2, k = A and L is exactly those A, k becomes A − 1; he protects a uniform
   k-subset of the living others other than L itself when k ≥ 2 and L is a k-subset of
   them (``random_protect_nb``'s rejection loop). The chain draws the protected set's
   class counts y: weight ∏ C(a_c, y_c), minus one for L's own class counts when L is
   excluded, over C(A, k) (− 1). The protected set becomes the new L (all alive). A
   paladin who does not act empties L.
4. **Attack** (22:00): if a living participant attacks and a living participant is
   not on the wolf team, the target is uniform among the living non-wolf-team (the
   accomplice is never a target; the paladin is one, he cannot protect himself); a
   protected target stays, anyone else leaves (fenrir drags if it is one, which random
   play can only reach with changed role data).

``start = "night"`` plays steps 3–4 once (day 0) before day 1.

*Solving.* The day-start states reachable from the deal are found by a breadth-first
walk; each gets its one-day transition row (to next day-start states, and to "village
won today" / "wolves won today"). Loops (revived participants, nobody-out days,
protected attacks) need no linear solve: the engine ends a game still running after
``max_days`` days as a draw, so the chain is run forward exactly that many days
(``p_{d+1} = p_d P``, a sparse matrix–vector product a day), accumulating the
probability of each side winning on each day. It stops early only when the probability
of a game still running is below 1e-300 (then "draws" is below it). Expected days are the
engine's ``mean_days``: the day a game ended (0: the first night of ``start=night``),
``max_days`` for a draw.

*Precision.* Every transition probability is a ratio of exact integers (binomial counts)
or a runoff fraction, rounded once to float64; sums of a few hundred thousand terms keep
the results within ~1e-13 of the exact rationals (the tests see ≤ 1e-14 against a
labelled brute force). Probabilities below float64's range (≈ 1e-300; e.g. a draw that
needs several days with nobody out, each < 1e-33 under 50 runoffs) come out as 0.
Tables of more than :data:`MAX_STATES` day-start states are refused.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np

from sim.errors import SimInputError

#: A table whose chain has more day-start states than this is refused (time, memory: the
#: 16-seat default-plus-four table has 2 201 states and takes about 7 s).
MAX_STATES = 20_000
#: Forward iteration stops early once a game is still running with at most this probability.
TAIL = 1e-300


@dataclass(frozen=True)
class Klass:
    """Interchangeable participants (by everything random play uses of a role)."""
    roles: tuple
    count: int
    wolf_team: bool
    counts_wolf: bool
    attacks: bool
    drag: int
    ability: str        # "none" | "protect" | "witch"
    protect_count: int


@dataclass(frozen=True)
class Chain:
    classes: tuple
    vote_rule: str = "runoff"
    start: str = "day"
    end_rule: str = "parity"
    max_runoffs: int = 50
    max_days: int = 200
    after_elim: bool = False
    lone_attacks: bool = False   # Q-2 variant: a lone accomplice attacks


def chain_of(setup, vote_rule=None, start=None, end_rule=None) -> Chain:
    """The chain of a compiled table (``vote_rule`` / ``start`` / ``end_rule``: override)."""
    from sim.werewolf.enums import ABILITIES, RF, V, VOTE_RULES

    t, v = setup.nb.table, setup.nb.var
    acc_village = int(v[V.ACC_VILLAGE]) == 1
    keys: dict = {}
    for rid in sorted(set(setup.seats), key=setup.role_ids.index):
        r = setup.role_ids.index(rid)
        ab = ABILITIES[int(t[r, RF.ABILITY])]
        ab = ab if ab in ("protect", "witch") else "none"
        wt = int(t[r, RF.TEAM]) == 1
        cw = wt and not (int(t[r, RF.MADMAN]) == 1 and acc_village)
        key = (wt, cw, int(t[r, RF.ATTACKS]) == 1, int(t[r, RF.DRAG]), ab,
               int(t[r, RF.PROTECT]) if ab == "protect" else 0)
        keys.setdefault(key, []).append(rid)
    classes = []
    for key, rids in keys.items():
        n = sum(setup.seats.count(r) for r in rids)
        if key[4] != "none" and n > 1:
            raise SimInputError(f"exact mode does not model this setting: {n} participants with the {key[4]} "
                                f"ability ({', '.join(rids)}); it models at most one (each has its own history, "
                                f"so they are not interchangeable)")
        classes.append(Klass(tuple(rids), n, *key))
    return Chain(tuple(classes),
                 vote_rule=vote_rule or VOTE_RULES[int(v[V.VOTE_RULE])],
                 start=start or ("night" if int(v[V.START_NIGHT]) else "day"),
                 end_rule=end_rule or ("no_villagers" if int(v[V.END_NO_VILLAGERS]) else "parity"),
                 max_runoffs=int(v[V.MAX_RUNOFFS]), max_days=int(v[V.MAX_DAYS]),
                 after_elim=int(v[V.AFTER_ELIM]) == 1, lone_attacks=int(v[V.LONE_ACC_ATTACKS]) == 1)


@lru_cache(maxsize=None)
def _hyper(sizes: tuple, k: int) -> tuple:
    """Every way to take k from cells of these sizes: ((counts, number of k-subsets), …)."""
    if not sizes:
        return (((), 1),) if k == 0 else ()
    out = []
    first, rest = sizes[0], sizes[1:]
    for x in range(min(first, k) + 1):
        for comp, w in _hyper(rest, k - x):
            out.append(((x,) + comp, comb(first, x) * w))
    return tuple(out)


@lru_cache(maxsize=None)
def _vote_split(vote_rule: str, n: int, max_runoffs: int) -> tuple:
    """(P nobody out, P one out, P two out) of a day's vote with n living."""
    if vote_rule != "runoff":
        return 0.0, 1.0, 0.0
    from sim.werewolf.exact import _runoff_round

    one, two, none, _ = _runoff_round(n, n, max_runoffs)
    return float(none), float(one), float(two)


class _Solver:
    def __init__(self, ch: Chain):
        self.ch = ch
        cl = ch.classes
        self.C = C = len(cl)
        self.tot = tuple(k.count for k in cl)
        self.N = sum(self.tot)
        self.cw = tuple(k.counts_wolf for k in cl)
        self.wt = tuple(k.wolf_team for k in cl)
        self.att = tuple(k.attacks for k in cl)
        self.drag = tuple(k.drag for k in cl)
        self.ip = next((i for i, k in enumerate(cl) if k.ability == "protect"), -1)
        self.iw = next((i for i, k in enumerate(cl) if k.ability == "witch"), -1)
        self.pc = cl[self.ip].protect_count if self.ip >= 0 else 0
        self.cvill = tuple(c for c in range(C) if not self.cw[c])
        self.nonwt = tuple(c for c in range(C) if not self.wt[c])
        self.everyone = tuple(range(C))
        self.start_state = tuple(self.tot) + (0,) * (2 * C)
        self._memo: dict = {}

    # -- helpers ---------------------------------------------------------------
    def alive(self, s, c):
        return s[c] + s[self.C + c]

    def check(self, s):
        """R-7 after an event: "V", "W" or None."""
        C = self.C
        w = v = 0
        for c in range(C):
            a = s[c] + s[C + c]
            if self.cw[c]:
                w += a
            else:
                v += a
        if w == 0:
            return "V"
        if self.ch.end_rule == "no_villagers":
            return "W" if v == 0 else None
        return "W" if v <= w else None

    def pick(self, s, classes, k):
        """Uniform k-subset of the living members of ``classes``: [(p, removal vector)]."""
        C = self.C
        sizes = tuple(s[c] for c in classes) + tuple(s[C + c] for c in classes)
        total = sum(sizes)
        k = min(k, total)
        if k == 0:
            return [(1.0, None)]
        den = comb(total, k)
        out = []
        m = len(classes)
        for comp, w in _hyper(sizes, k):
            x = [0] * (2 * C)
            for i, c in enumerate(classes):
                x[c] = comp[i]
                x[C + c] = comp[m + i]
            out.append((w / den, x))
        return out

    def remove(self, s, x):
        C = self.C
        s = list(s)
        for c in range(C):
            s[c] -= x[c]
            s[C + c] -= x[C + c]
            s[2 * C + c] += x[C + c]
        return tuple(s)

    def leave(self, s, x):
        """The removal x leaves (one event), with every drag it causes: [(p, state)]."""
        s = self.remove(s, x)
        C = self.C
        d = sum(self.drag[c] * (x[c] + x[C + c]) for c in range(C))
        if d == 0:
            return [(1.0, s)]
        out = []
        for p, y in self.pick(s, self.cvill, d):
            out.append((p, s if y is None else self.remove(s, y)))
        return out

    def _event(self, acc, p, s):
        w = self.check(s)
        acc.append((p, w if w else s))

    # -- the day ---------------------------------------------------------------
    def vote(self, s):
        C = self.C
        n = sum(s[c] + s[C + c] for c in range(C))
        p0, p1, p2 = _vote_split(self.ch.vote_rule, n, self.ch.max_runoffs)
        out = []
        if p0:
            out.append((p0, s))
        for j, pj in ((1, p1), (2, p2)):
            if not pj:
                continue
            for q, x in self.pick(s, self.everyone, j):
                for r, s2 in self.leave(s, x):
                    self._event(out, pj * q * r, s2)
        return out

    def _put_out(self, out, s, cell, w):
        """Events of one participant of ``cell`` leaving (and what that sets off), weight ``w``."""
        x = [0] * (2 * self.C)
        x[cell] = 1
        for r, s2 in self.leave(s, x):
            self._event(out, w * r, s2)

    def witch(self, s):
        iw, C = self.iw, self.C
        if iw < 0 or not (self.alive(s, iw) or self.ch.after_elim):
            return [(1.0, s)]
        N = self.N
        out = [(1.0 / N, s)]
        for c in range(C):
            if c == iw:
                continue
            for cell in (c, C + c):  # a living other: put out
                if s[cell]:
                    self._put_out(out, s, cell, s[cell] / N)
            dl = s[2 * C + c]
            dn = self.tot[c] - s[c] - s[C + c] - dl
            if dl:  # an out member of L comes back into L
                s2 = list(s)
                s2[2 * C + c] -= 1
                s2[C + c] += 1
                self._event(out, dl / N, tuple(s2))
            if dn:
                s2 = list(s)
                s2[c] += 1
                self._event(out, dn / N, tuple(s2))
        return out

    def protect(self, s):
        """The paladin's choice: [(p, state with the new L)]."""
        ip, C = self.ip, self.C
        if ip < 0:
            return [(1.0, s)]
        if not (self.alive(s, ip) or self.ch.after_elim):
            s2 = list(s)
            for c in range(C):
                s2[c] += s2[C + c]
                s2[C + c] = 0
                s2[2 * C + c] = 0
            return [(1.0, tuple(s2))]
        others = tuple(c for c in range(C) if c != ip)
        a = tuple(self.alive(s, c) for c in others)
        lc = tuple(s[C + c] for c in others)
        A = sum(a)
        k = min(self.pc, A)
        l_alive = sum(lc)
        l_whole = sum(s[2 * C + c] for c in range(C)) == 0  # every member of L is alive
        if k >= 2 and k == A and l_whole and l_alive == A:
            k -= 1
        exclude = 1 if (k >= 2 and l_whole and l_alive == k) else 0
        den = comb(A, k) - exclude
        out = []
        for y, w in _hyper(a, k):
            if exclude and y == lc:
                w -= 1
            if not w:
                continue
            s2 = [0] * (3 * C)
            for i, c in enumerate(others):
                s2[c] = a[i] - y[i]
                s2[C + c] = y[i]
            s2[ip] = self.alive(s, ip)
            out.append((w / den, tuple(s2)))
        return out

    def attack(self, s):
        C = self.C
        attacker = self.wt if self.ch.lone_attacks else self.att  # Q-2 (variant: the accomplice too)
        if not any(attacker[c] and self.alive(s, c) for c in range(C)):
            return [(1.0, s)]
        n = sum(self.alive(s, c) for c in self.nonwt)
        if n == 0:
            return [(1.0, s)]
        out = []
        prot = sum(s[C + c] for c in self.nonwt)
        if prot:
            out.append((prot / n, s))
        for c in self.nonwt:
            if s[c]:
                self._put_out(out, s, c, s[c] / n)
        return out

    def night(self, s):
        out = []
        for p, s1 in self.protect(s):
            for q, s2 in self.attack(s1):
                out.append((p * q, s2))
        return out

    def day(self, s):
        """One day from its start: {"V": p, "W": p, next day-start state: p}."""
        acc: dict = {}
        stage = {s: 1.0}
        for step in (self.vote, self.witch, self.night):
            nxt: dict = {}
            for s1, p1 in stage.items():
                for p2, s2 in self._cached(step, s1):
                    if isinstance(s2, str):
                        acc[s2] = acc.get(s2, 0.0) + p1 * p2
                    else:
                        nxt[s2] = nxt.get(s2, 0.0) + p1 * p2
            stage = nxt
        for s3, p3 in stage.items():
            acc[s3] = acc.get(s3, 0.0) + p3
        return acc

    def _cached(self, step, s):
        memo = self._memo.setdefault(step.__name__, {})
        r = memo.get(s)
        if r is None:
            r = memo[s] = step(s)
        return r

    # -- solve -----------------------------------------------------------------
    def solve(self) -> dict:
        import scipy.sparse as sp

        t0 = time.perf_counter()
        ch = self.ch
        index: dict = {}
        order: list = []

        def idx(s):
            i = index.get(s)
            if i is None:
                if len(order) >= MAX_STATES:
                    raise SimInputError(f"exact mode does not model this table: its chain has more than "
                                        f"{MAX_STATES} day-start states (too big to solve here)")
                i = index[s] = len(order)
                order.append(s)
            return i

        v0 = w0 = 0.0
        x0: dict = {}
        if ch.start == "night":  # the first night, day 0
            for p, s in self.night(self.start_state):
                if s == "V":
                    v0 += p
                elif s == "W":
                    w0 += p
                else:
                    x0[idx(s)] = x0.get(idx(s), 0.0) + p
        else:
            x0[idx(self.start_state)] = 1.0
        rows, cols, vals = [], [], []
        r_v, r_w = [], []
        i = 0
        while i < len(order):
            out = self.day(order[i])
            r_v.append(out.pop("V", 0.0))
            r_w.append(out.pop("W", 0.0))
            for s, p in out.items():
                rows.append(i)
                cols.append(idx(s))
                vals.append(p)
            i += 1
        S = len(order)
        P = sp.csr_matrix((vals, (rows, cols)), shape=(S, S)).T.tocsr()  # column-stochastic rows → x' = P x
        rv, rw = np.array(r_v), np.array(r_w)
        x = np.zeros(S)
        for j, p in x0.items():
            x[j] = p
        village, wolves, days = v0, w0, 0.0
        d = 0
        for d in range(1, ch.max_days + 1):
            ev, ew = float(x @ rv), float(x @ rw)
            village += ev
            wolves += ew
            days += d * (ev + ew)
            x = P @ x
            if x.sum() <= TAIL:
                break
        running = float(x.sum())
        draws = running if d == ch.max_days else 0.0
        days += ch.max_days * draws
        return {"village_win": village, "wolf_win": wolves, "draws": draws, "expected_days": days,
                "states": S, "transitions": len(vals), "days_iterated": d,
                "seconds": time.perf_counter() - t0}


def solve(ch: Chain) -> dict:
    """Village / wolf win and draw probabilities, expected days, states and time of a chain."""
    return _Solver(ch).solve()


def check_random_play(cfg) -> None:
    """Refuse strategy knobs (``village.*`` / ``wolves.*``): exact mode is the ``random``
    strategies' game, and they have none."""
    for side in ("village", "wolves"):
        if cfg.get(side):
            raise SimInputError(f"exact mode does not model this setting: {side}.{next(iter(cfg[side]))} "
                                f"(exact mode is the random strategies' game; they have no knobs)")


def check_chain_modelled(setup, cfg, *, composition_set=False, all_variants=False, changed=()) -> None:
    """Refuse (one :class:`SimInputError`) what the chain does not model: strategy knobs
    (``village.*`` / ``wolves.*``: the chain is the ``random`` strategies'), a composition
    from ``composition.default`` (``--roles`` sets it), ``vote_rule`` / ``start`` /
    ``end_rule`` set together with ``--all-variants``, a runoff vote of more than
    :data:`sim.werewolf.exact.MAX_RUNOFF_PARTICIPANTS` or ``max_runoffs`` above
    :data:`sim.werewolf.exact.MAX_EXACT_RUNOFFS`; two paladins or two witches are refused
    by :func:`chain_of`."""
    from sim.werewolf.exact import MAX_EXACT_RUNOFFS, MAX_RUNOFF_PARTICIPANTS

    check_random_play(cfg)
    why = []
    if composition_set:
        why.append("composition.default is set by --roles here")
    if all_variants:
        why += [f"variants.{k} is ignored with --all-variants (it sets every vote_rule × start × end_rule)"
                for k in changed]
    runoff = all_variants or setup.variants.get("vote_rule", "runoff") == "runoff"
    if runoff and setup.n > MAX_RUNOFF_PARTICIPANTS:
        why.append(f"a runoff vote of {setup.n} participants (the exact runoff solver handles at most "
                   f"{MAX_RUNOFF_PARTICIPANTS} participants)")
    mr = int(setup.variants.get("max_runoffs", 50))
    if runoff and mr > MAX_EXACT_RUNOFFS:
        why.append(f"variants.max_runoffs = {mr} (the exact runoff solver handles at most {MAX_EXACT_RUNOFFS})")
    if why:
        raise SimInputError("exact mode does not model this setting: " + "; ".join(why))
    chain_of(setup)


def roles_summary(setup, *, vote_rule=None, start=None, end_rule=None) -> dict:
    """The chain's result for a compiled table as a JSON-friendly dict (``sim werewolf exact``)."""
    ch = chain_of(setup, vote_rule, start, end_rule)
    res = solve(ch)
    res.update({
        "composition": setup.composition(),
        "classes": [{"roles": list(k.roles), "count": k.count} for k in ch.classes],
        "variants": {"vote_rule": ch.vote_rule, "start": ch.start, "end_rule": ch.end_rule,
                     "max_runoffs": ch.max_runoffs, "max_days": ch.max_days,
                     "abilities_after_elimination": ch.after_elim,
                     "lone_accomplice_attacks": ch.lone_attacks},
        "arithmetic": "float64",
    })
    return res
