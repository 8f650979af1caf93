"""Exact win probabilities of Werewolf under random play (``sim werewolf exact``).

Only plain ``werewolf``s, ``villager``s and ``seer``s are handled here (every other
table, in float64: :mod:`sim.werewolf.exact_roles`; :func:`fraction_path` says which).  Under *random
play* nobody uses any information, so a seer behaves exactly like a villager and
the game is a Markov chain on ``(living wolves, living village team, phase)``.
Everything is computed with :class:`fractions.Fraction` by a bottom-up dynamic
programme over those counts, so the results are exact rationals.

Random play, precisely (what the engine's ``random`` strategies do):

* **Vote** — every living participant votes independently and uniformly for one
  living participant (itself allowed).

  - ``runoff`` (the seed's rule): one most-voted participant is out; exactly two
    tied at the top are both out; three or more tied go to a runoff in which
    every living participant votes uniformly among the tied; repeated.  After
    ``max_runoffs`` runoffs with three or more still tied, nobody is out that day.
  - ``plurality``: the most-voted is out, ties broken uniformly — by symmetry the
    victim is uniform among the living.
  - ``random_lynch``: one living participant chosen uniformly is out (no votes).

  Given how many are out (1 or 2), *which* are out is a uniform subset of the
  living (votes do not depend on roles), e.g. P(both out are wolves) =
  C(w,2)/C(n,2).
* **Attack** — if a wolf lives, the wolves attack one living village-team
  participant chosen uniformly; it is out.
* **Win check** after every elimination event (a two-way tie is one event),
  village first: the village wins when no wolf lives; the wolves win when living
  village ≤ living wolves (``parity``, R-7) or when no village-team participant
  lives (``no_villagers``).
* ``start="day"``: the vote comes first (day 1 starts in the evening, R-3);
  ``start="night"``: the first attack comes before the first vote.

The published models this solver is checked against (Migdał, Paternault) live with the
tests, in ``tests/naive/mafia_models.py``.
"""
from __future__ import annotations

import sys
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial

from sim.errors import SimInputError

VOTE_RULES = ("runoff", "plurality", "random_lynch")
STARTS = ("day", "night")
END_RULES = ("parity", "no_villagers")

#: Exact runoff results carry thousands of digits (50 runoffs of tiny tie chances:
#: 20 participants ≈ 0.5 s, 30 ≈ 4 s); beyond this many it refuses rather than hang.
MAX_RUNOFF_PARTICIPANTS = 30
#: Likewise for the runoff cap (each extra runoff adds digits; 200 → ~5 s at 20).
MAX_EXACT_RUNOFFS = 200

_ZERO = Fraction(0)
_ONE = Fraction(1)


# --------------------------------------------------------------------------
# The vote: size of the top tie
# --------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _capped_assignments(voters: int, candidates: int, cap: int) -> int:
    """Ways to give ``voters`` labelled votes to ``candidates`` labelled
    candidates so that every candidate gets at most ``cap`` votes."""
    if candidates == 0:
        return 1 if voters == 0 else 0
    if voters > candidates * cap:
        return 0
    return sum(
        comb(voters, i) * _capped_assignments(voters - i, candidates - 1, cap)
        for i in range(min(cap, voters) + 1)
    )


@lru_cache(maxsize=None)
def top_tie_counts(voters: int, candidates: int) -> tuple[int, ...]:
    """``counts[t]`` = number of the ``candidates**voters`` equally likely vote
    profiles in which exactly ``t`` candidates share the highest vote count."""
    if voters < 1 or candidates < 1:
        raise SimInputError("a vote needs at least one voter and one candidate")
    counts = [0] * (candidates + 1)
    for top in range(1, voters + 1):
        for t in range(1, candidates + 1):
            rest = voters - t * top
            if rest < 0:
                break
            # choose the t top candidates, split the voters into t blocks of
            # `top` plus the rest, the rest go to the others with < top each
            ways = (
                comb(candidates, t)
                * factorial(voters) // (factorial(top) ** t * factorial(rest))
                * _capped_assignments(rest, candidates - t, top - 1)
            )
            counts[t] += ways
    assert sum(counts) == candidates ** voters
    return tuple(counts)


def top_tie_distribution(voters: int, candidates: int) -> tuple[Fraction, ...]:
    """``dist[t]`` = P(exactly ``t`` candidates tie for the most votes) when
    ``voters`` voters each vote uniformly for one of ``candidates`` candidates."""
    counts = top_tie_counts(voters, candidates)
    total = candidates ** voters
    return tuple(Fraction(c, total) for c in counts)


@lru_cache(maxsize=None)
def _runoff_round(voters: int, candidates: int, runoffs_left: int) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """(P one out, P two out, P nobody out, E runoffs) from a voting round with
    ``candidates`` candidates and ``runoffs_left`` runoffs still allowed."""
    dist = top_tie_distribution(voters, candidates) + (_ZERO, _ZERO)  # pad: dist[2] exists
    one, two, none, runs = dist[1], dist[2], _ZERO, _ZERO
    for t in range(3, candidates + 1):
        p = dist[t]
        if not p:
            continue
        if runoffs_left == 0:
            none += p
        else:
            a, b, c, r = _runoff_round(voters, t, runoffs_left - 1)
            one += p * a
            two += p * b
            none += p * c
            runs += p * (1 + r)
    return one, two, none, runs


def runoff_outcome(participants: int, max_runoffs: int = 50) -> dict[str, Fraction]:
    """Outcome of one day's vote under the ``runoff`` rule with ``participants``
    living participants (all of them vote, all of them are candidates).

    Returns ``{"one": P(one out), "two": P(two out), "none": P(nobody out),
    "runoffs": E[number of runoffs]}``.
    """
    _check_int("participants", participants, 1)
    _check_int("max_runoffs", max_runoffs, 0)
    if max_runoffs > MAX_EXACT_RUNOFFS:
        raise SimInputError(f"the exact runoff solver handles max_runoffs ≤ {MAX_EXACT_RUNOFFS}, got {max_runoffs}")
    one, two, none, runs = _runoff_round(participants, participants, max_runoffs)
    return {"one": one, "two": two, "none": none, "runoffs": runs}


# --------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------

def _check_int(name: str, value, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SimInputError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise SimInputError(f"{name} must be ≥ {minimum}, got {value}")


def _validate(wolves, villagers, seers, vote_rule, start, end_rule, max_runoffs) -> None:
    for name, value in (("wolves", wolves), ("villagers", villagers), ("seers", seers)):
        _check_int(name, value, 0)
    _check_int("max_runoffs", max_runoffs, 0)
    if vote_rule not in VOTE_RULES:
        raise SimInputError(f"vote_rule must be one of {', '.join(VOTE_RULES)}; got {vote_rule!r}")
    if start not in STARTS:
        raise SimInputError(f"start must be one of {', '.join(STARTS)}; got {start!r}")
    if end_rule not in END_RULES:
        raise SimInputError(f"end_rule must be one of {', '.join(END_RULES)}; got {end_rule!r}")
    if wolves == 0:
        raise SimInputError("the exact solver needs at least one werewolf (with none the village has already won)")
    village = villagers + seers
    if end_rule == "parity" and village <= wolves:
        raise SimInputError(
            f"the wolves have already won: {village} village-team ≤ {wolves} wolves (end_rule=parity)")
    if end_rule == "no_villagers" and village == 0:
        raise SimInputError("the wolves have already won: no village-team participant (end_rule=no_villagers)")
    if vote_rule == "runoff" and wolves + village > MAX_RUNOFF_PARTICIPANTS:
        raise SimInputError(
            f"the exact runoff solver handles at most {MAX_RUNOFF_PARTICIPANTS} participants, got {wolves + village}")
    if vote_rule == "runoff" and max_runoffs > MAX_EXACT_RUNOFFS:
        raise SimInputError(f"the exact runoff solver handles max_runoffs ≤ {MAX_EXACT_RUNOFFS}, got {max_runoffs}")


class _Value:
    """Village-win probability and (if ``full``) expected counts from one state on."""

    __slots__ = ("full", "win", "votes", "attacks", "runoffs", "idle")

    def __init__(self, full: bool, win=_ZERO, votes=_ZERO, attacks=_ZERO, runoffs=_ZERO, idle=_ZERO):
        self.full = full
        self.win, self.votes, self.attacks, self.runoffs, self.idle = win, votes, attacks, runoffs, idle

    def add(self, p: Fraction, other: "_Value") -> None:
        self.win += p * other.win
        if self.full:  # the expectations cost as much again each: only for the summary
            self.votes += p * other.votes
            self.attacks += p * other.attacks
            self.runoffs += p * other.runoffs
            self.idle += p * other.idle


_VILLAGE_WON = _Value(False, win=_ONE)
_WOLVES_WON = _Value(False)


def _solve(wolves: int, village: int, vote_rule: str, start: str, end_rule: str, max_runoffs: int,
           full: bool) -> _Value:
    """Bottom-up DP over (w, v), in increasing w + v.

    ``day[w][v]`` / ``night[w][v]``: value at the start of a vote / an attack with
    w wolves and v village-team alive and the game still running."""

    def terminal(w: int, v: int):
        if w == 0:
            return _VILLAGE_WON
        if (end_rule == "parity" and v <= w) or (end_rule == "no_villagers" and v == 0):
            return _WOLVES_WON
        return None

    day: dict[tuple[int, int], _Value] = {}
    night: dict[tuple[int, int], _Value] = {}

    def after_day(w: int, v: int) -> _Value:  # after a vote event: check, then the attack
        t = terminal(w, v)
        return t if t is not None else night[w, v]

    def after_night(w: int, v: int) -> _Value:  # after an attack: check, then the next vote
        t = terminal(w, v)
        return t if t is not None else day[w, v]

    for total in range(1, wolves + village + 1):
        for w in range(max(1, total - village), min(wolves, total) + 1):
            v = total - w
            if terminal(w, v) is not None:
                continue
            # night: the wolves attack a uniformly random village-team member
            nv = _Value(full, attacks=_ONE)
            nv.add(_ONE, after_night(w, v - 1))
            night[w, v] = nv
            # day: the vote
            n = w + v
            dv = _Value(full, votes=_ONE)
            if vote_rule == "runoff":
                p1, p2, p0, runs = _runoff_round(n, n, max_runoffs)
                if full:
                    dv.runoffs += runs
                    dv.idle += p0
            else:
                p1, p2, p0 = _ONE, _ZERO, _ZERO
            if p1:
                dv.add(p1 * Fraction(w, n), after_day(w - 1, v))
                dv.add(p1 * Fraction(v, n), after_day(w, v - 1))
            if p2:
                pairs = comb(n, 2)
                if w >= 2:
                    dv.add(p2 * Fraction(comb(w, 2), pairs), after_day(w - 2, v))
                dv.add(p2 * Fraction(w * v, pairs), after_day(w - 1, v - 1))
                if v >= 2:
                    dv.add(p2 * Fraction(comb(v, 2), pairs), after_day(w, v - 2))
            if p0:
                dv.add(p0, nv)  # nobody out: straight to the attack
            day[w, v] = dv

    table = day if start == "day" else night
    return table[wolves, village]


@lru_cache(maxsize=1024)
def _solve_cached(wolves, village, vote_rule, start, end_rule, max_runoffs, full=False) -> _Value:
    return _solve(wolves, village, vote_rule, start, end_rule, max_runoffs, full)


def exact_village_win(wolves: int, villagers: int, seers: int = 0, *, vote_rule: str = "runoff",
                      start: str = "day", end_rule: str = "parity", max_runoffs: int = 50) -> Fraction:
    """Exact probability that the village wins under random play.

    Seers count as villagers (random play ignores their information).
    Raises :class:`SimInputError` for negative counts, no wolves, a game the
    wolves have already won, or an unknown variant."""
    _validate(wolves, villagers, seers, vote_rule, start, end_rule, max_runoffs)
    return _solve_cached(wolves, villagers + seers, vote_rule, start, end_rule, max_runoffs).win


def fraction_str(x: Fraction) -> str:
    """``"p/q"`` for any size (runoff results can exceed Python's 4300-digit
    int→str guard, which is lifted only for this conversion)."""
    get = getattr(sys, "get_int_max_str_digits", None)
    if get is None:
        return f"{x.numerator}/{x.denominator}"
    old = get()
    sys.set_int_max_str_digits(0)
    try:
        return f"{x.numerator}/{x.denominator}"
    finally:
        sys.set_int_max_str_digits(old)


def exact_summary(wolves: int, villagers: int, seers: int = 0, *, vote_rule: str = "runoff",
                  start: str = "day", end_rule: str = "parity", max_runoffs: int = 50) -> dict:
    """The exact result as a JSON-friendly dict.

    ``expected_days`` counts votes held (a day starts with its vote; with
    ``start=night`` a game decided by the first attack lasted 0 days) — the
    engine's ``mean_days``.  ``expected_attacks`` counts attacks,
    ``expected_runoffs`` runoffs, ``expected_days_nobody_out`` days whose vote
    put nobody out (runoff cap reached).  There are no draws: every attack
    removes a village-team member, so a game lasts at most village + 1 votes and
    the engine's ``max_days`` cap (default 200) cannot bind unless the village
    team has 200 or more members."""
    _validate(wolves, villagers, seers, vote_rule, start, end_rule, max_runoffs)
    val = _solve_cached(wolves, villagers + seers, vote_rule, start, end_rule, max_runoffs, True)
    win = val.win
    return {
        "wolves": wolves, "villagers": villagers, "seers": seers,
        "variants": {"vote_rule": vote_rule, "start": start, "end_rule": end_rule, "max_runoffs": max_runoffs},
        "village_win": float(win),
        "village_win_exact": fraction_str(win),
        "wolf_win": float(1 - win),
        "expected_days": float(val.votes),
        "expected_days_exact": fraction_str(val.votes),
        "expected_attacks": float(val.attacks),
        "expected_runoffs": float(val.runoffs),
        "expected_days_nobody_out": float(val.idle),
        "draws": 0.0,
        "states": 2 * sum(1 for w in range(1, wolves + 1) for v in range(villagers + seers + 1)
                          if not (end_rule == "parity" and v <= w or end_rule == "no_villagers" and v == 0)),
        "arithmetic": "fraction",
    }


def longest_game(wolves: int, village: int, *, vote_rule: str = "runoff", start: str = "day",
                 end_rule: str = "parity") -> int:
    """The most votes (engine days) any game of this chain can last.

    Every transition of :func:`_solve` with a positive probability is followed: under
    ``runoff`` a vote can put one out, two out (two or more living) or nobody out (three
    or more living: the runoff cap can always be reached); under the other rules exactly
    one. The engine's ``variants.max_days`` binds (ends some game as a draw) iff it is
    smaller than this."""
    _check_int("wolves", wolves, 1)
    _check_int("village", village, 0)

    def terminal(w: int, v: int) -> bool:
        return w == 0 or (end_rule == "parity" and v <= w) or (end_rule == "no_villagers" and v == 0)

    @lru_cache(maxsize=None)
    def day(w: int, v: int) -> int:  # votes from the start of a vote on
        if terminal(w, v):
            return 0
        n = w + v
        nxt = [(w - 1, v)] * (w >= 1) + [(w, v - 1)] * (v >= 1)
        if vote_rule == "runoff" and n >= 2:
            nxt += [(w - 2, v)] * (w >= 2) + [(w - 1, v - 1)] * (w >= 1 and v >= 1) + [(w, v - 2)] * (v >= 2)
        best = max(0 if terminal(a, b) else night(a, b) for a, b in nxt)
        if vote_rule == "runoff" and n >= 3:
            best = max(best, night(w, v))  # nobody out: straight to the attack
        return 1 + best

    @lru_cache(maxsize=None)
    def night(w: int, v: int) -> int:  # votes from the start of an attack on
        return 0 if terminal(w, v - 1) else day(w, v - 1)

    for total in range(1, wolves + village + 1):  # bottom-up: shallow recursion
        for w in range(max(1, total - village), min(wolves, total) + 1):
            if not terminal(w, total - w):
                night(w, total - w)
                day(w, total - w)
    if terminal(wolves, village):
        return 0
    return day(wolves, village) if start == "day" else night(wolves, village)


# What the exact solver reads of a Werewolf configuration (``sim werewolf exact``).
_ROLE_FIELDS = ("team", "attacks", "ability", "seer_reads", "medium_reads", "madman", "drag", "protect_count")
_VARIANT_FIELDS = ("accomplice_counts_as", "abilities_after_elimination", "max_runoffs", "start", "vote_rule",
                   "end_rule", "max_days", "lone_accomplice_attacks")


def fraction_path(setup, default, combos) -> bool:
    """Whether the fraction solver answers for this table: only werewolf, villager and seer,
    their role data the default's, and ``max_days`` no shorter than the longest game of any
    variant in ``combos`` (so no draws). Every other table goes to the float64 chain of
    :mod:`sim.werewolf.exact_roles`."""
    from sim.werewolf.enums import RF

    if set(setup.seats) - {"werewolf", "villager", "seer"}:
        return False
    for rid in set(setup.seats):
        k, k0 = setup.role_ids.index(rid), default.role_ids.index(rid)
        if any(int(setup.nb.table[k, i]) != int(default.nb.table[k0, i]) for i in RF):
            return False
    w = setup.seats.count("werewolf")
    cap = int(setup.variants.get("max_days", 200))
    return all(cap >= longest_game(w, setup.n - w, vote_rule=vr, start=st, end_rule=er) for vr, st, er in combos)


def check_modelled(setup, default, *, composition_set: bool = False, all_variants: bool = False,
                   combos=()) -> None:
    """Refuse (one :class:`SimInputError`) a configuration the exact solver does not model.

    ``setup`` is the compiled configuration asked for, ``default`` the compiled default
    table with the same composition. Compared setting by setting (compiled, so a key set
    to its default value is no change): the role data of every role in the game (names
    aside) must be the default's; ``vote_rule`` / ``start`` / ``end_rule`` / ``max_runoffs``
    are modelled (the first three not with ``all_variants``, which sets them itself);
    ``accomplice_counts_as`` only matters with a madman in the game,
    ``abilities_after_elimination`` only with a role whose ability acts on the game
    (random play ignores what a seer learns, alive or not); ``max_days`` must not end any
    game as a draw (the solver has none): at least :func:`longest_game` for every
    variant in ``combos``. ``composition_set``: the composition came from
    ``--set composition.default`` (``--roles`` overrides it).

    ``sim werewolf exact`` calls it only for the tables :func:`fraction_path` sends here
    (werewolf / villager / seer, default role data, no draws); every other table goes to
    :func:`sim.werewolf.exact_roles.check_chain_modelled` and the role chain.
    """
    from sim.werewolf.enums import ABILITIES, RF, V

    why: list[str] = []
    if composition_set:
        why.append("composition.default is set by --roles here")
    present = sorted(set(setup.seats), key=setup.role_ids.index)
    for rid in present:
        k, k0 = setup.role_ids.index(rid), default.role_ids.index(rid)
        for f, name in zip(RF._fields, _ROLE_FIELDS):
            a, b = int(setup.nb.table[k, getattr(RF, f)]), int(default.nb.table[k0, getattr(RF, f)])
            if a != b:
                why.append(f"roles.{rid}.{name} differs from the default table")
    v, v0 = setup.nb.var, default.nb.var
    madman = any(setup.nb.table[setup.role_ids.index(r), RF.MADMAN] for r in present)
    acting = any(ABILITIES[int(setup.nb.table[setup.role_ids.index(r), RF.ABILITY])] not in ("none", "divine")
                 for r in present)
    for f, name in zip(V._fields, _VARIANT_FIELDS):
        i = getattr(V, f)
        if int(v[i]) == int(v0[i]):
            continue
        if name in ("vote_rule", "start", "end_rule") and all_variants:
            why.append(f"variants.{name} is ignored with --all-variants (it sets every vote_rule × start × end_rule)")
        elif name == "accomplice_counts_as" and madman:
            why.append("variants.accomplice_counts_as (a madman is in the game)")
        elif name == "abilities_after_elimination" and acting:
            why.append("variants.abilities_after_elimination (a role with an acting ability is in the game)")
    w = sum(1 for r in setup.seats if setup.nb.table[setup.role_ids.index(r), RF.ATTACKS])
    village = setup.n - w
    cap = int(v[V.MAX_DAYS])
    for vr, st, er in combos:
        longest = longest_game(w, village, vote_rule=vr, start=st, end_rule=er)
        if cap < longest:
            why.append(f"variants.max_days = {cap} can end a game as a draw (a game can last {longest} days "
                       f"with vote_rule={vr}, start={st}, end_rule={er}; the solver has no draws)")
            break
    if why:
        raise SimInputError("exact mode does not model this setting: " + "; ".join(why))
