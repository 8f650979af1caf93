"""One test per ruling of the Werewolf rules (docs/rules/werewolf.md R-1 … R-7) and the
project rulings (docs/werewolf.md Q-1 … Q-9), each on a tiny scripted game.

How the games are scripted
--------------------------
* One test-local strategy family (``SCRIPTED_V`` / ``SCRIPTED_W``): every hook reads its
  decision from a module-level constant array (``VOTE[s, day, runoff, actor]`` …) and
  falls back to a fixed, legal choice (vote/attack the lowest candidate, no divination,
  no mark, no protection, the witch passes, silence). All scenarios share the one family,
  so only one engine kernel is compiled for this file.
* The scenario number ``s`` travels in the rules the strategies can see: every scripted
  setup uses ``variants.max_days = BASE + s`` (no scripted game comes near the cap).
* Scripts name participants by seat, so a scenario is played on the games ``g`` whose
  deal (the engine's Fisher–Yates from game g's stream) puts the roles in the written
  order (found with ``tests.naive.werewolf.deal``).
* Every ruling is checked on the engine's aggregate ``Counts`` (endings, days, per-role
  survival and out-how, runoffs, days with nobody out) and, as a cross-check, on the
  naive reference replaying the same games.
"""
from __future__ import annotations

from functools import lru_cache

import numba as nb
import numpy as np
import pytest

from sim.core.bits import lowest_nb
from sim.core.seeding import run_key
from sim.errors import SimInputError
from sim.werewolf.enums import CLAIM_SEER, EVENTS, HOW, WINNERS, WITCH_BASE, WITCH_ELIMINATE, WITCH_REVIVE, V
from sim.werewolf.game_nb import C_NOBODY_OUT, C_RUNOFFS, chunk_kernel, new_counts
from sim.werewolf.roles import resolve_setup
from strategies.werewolf import VillageStrategy, WolfStrategy
from tests.naive.werewolf import counts_of, deal, naive_game

KEY = run_key(4242)
BASE = 100          # variants.max_days = BASE + scenario number
NS, ND, NR, NP = 32, 8, 4, 12   # scenarios, scripted days (0 = a night-start's first night), runoffs, seats
U1 = np.uint64(1)

VOTE = np.full((NS, ND, NR, NP), -1, np.int64)   # -1: lowest candidate; <= -10: claimed(x)
DIVINE = np.full((NS, ND, NP), -1, np.int64)     # -1: no divination
MARK = np.full((NS, ND, NP), -1, np.int64)       # -1: no mark
SPEAK = np.full((NS, ND, NP), -1, np.int64)      # t: announce my reading of t (if I have one)
PROTECT = np.zeros((NS, ND, NP), np.int64)       # a mask of seats
WITCH = np.zeros((NS, ND, NP), np.int64)         # action * 64 + target (0: pass)
ATTACK = np.full((NS, ND), -1, np.int64)         # -1: lowest candidate


def claimed(fallback: int) -> int:
    """Vote code: the lowest candidate some living claimer reported as wolf, else ``fallback``."""
    return -10 - fallback


class Script:
    """A scenario: a seating (role id per seat) and decisions by day and seat."""

    count = 0

    def __init__(self, seats: list[str], *sets: str):
        self.id = Script.count
        Script.count += 1
        assert self.id < NS and len(seats) <= NP
        self.seats = list(seats)
        self.sets = list(sets)

    def setup(self, *sets: str):
        return resolve_setup(roles=",".join(self.seats),
                             sets=[f"variants.max_days={BASE + self.id}", *self.sets, *sets])

    def votes(self, day: int, *targets: int, runoff: int = 0):
        """Seat p votes targets[p]; one target for everybody if a single one is given."""
        if len(targets) == 1:
            targets = targets * len(self.seats)
        VOTE[self.id, day, runoff, :len(targets)] = targets
        return self

    def divine(self, day, seer, t):
        DIVINE[self.id, day, seer] = t
        return self

    def mark(self, day, hati, t):
        MARK[self.id, day, hati] = t
        return self

    def speak(self, day, p, t):
        SPEAK[self.id, day, p] = t
        return self

    def protect(self, day, paladin, *ts):
        PROTECT[self.id, day, paladin] = sum(1 << t for t in ts)
        return self

    def witch(self, day, wi, action, t):
        WITCH[self.id, day, wi] = action * WITCH_BASE + t
        return self

    def attack(self, day, t):
        ATTACK[self.id, day] = t
        return self


# ----------------------------------------------------------------------------- the strategy

@nb.njit
def _slot(view):
    """(scenario, day) of this decision, or (-1, -1) when unscripted."""
    s = view.rules.var[V.MAX_DAYS] - BASE
    d = view.day
    if s < 0 or s >= NS or d >= ND:
        return -1, -1
    return s, d


@nb.njit
def s_vote(rng, view, cands):
    s, d = _slot(view)
    r = view.runoff
    e = np.int64(-1)
    if s >= 0 and r < NR:
        e = VOTE[s, d, r, view.me]
    if e >= 0:
        return e
    if e <= -10:  # the lowest reported wolf among the candidates, else the fallback
        n = view.n
        for t in range(n):
            if (cands >> np.uint64(t)) & U1:
                for c in range(n):
                    if view.claim_role[c] == CLAIM_SEER and (view.alive >> np.uint64(c)) & U1 \
                            and view.claim_res[c, t] == 1:
                        return np.int64(t)
        return -e - 10
    return lowest_nb(cands)


@nb.njit
def s_divine(rng, view):
    s, d = _slot(view)
    return DIVINE[s, d, view.me] if s >= 0 else np.int64(-1)


@nb.njit
def s_mark(rng, view):
    s, d = _slot(view)
    return MARK[s, d, view.me] if s >= 0 else np.int64(-1)


@nb.njit
def s_speak(rng, view):
    s, d = _slot(view)
    if s < 0:
        return np.int64(-1)
    t = SPEAK[s, d, view.me]
    if t < 0 or view.know[t] < 0:
        return np.int64(-1)
    return t * 2 + view.know[t]


@nb.njit
def s_protect(rng, view):
    s, d = _slot(view)
    return np.uint64(PROTECT[s, d, view.me]) if s >= 0 else np.uint64(0)


@nb.njit
def s_witch(rng, view):
    s, d = _slot(view)
    return WITCH[s, d, view.me] if s >= 0 else np.int64(0)


@nb.njit
def s_attack(rng, view, cands):
    s, d = _slot(view)
    t = ATTACK[s, d] if s >= 0 else np.int64(-1)
    return t if t >= 0 else lowest_nb(cands)


SCRIPTED_V = VillageStrategy("scripted", vote=s_vote, divine=s_divine, protect=s_protect, witch=s_witch,
                             speak=s_speak, doc="test script (tests/test_werewolf_rules.py)")
SCRIPTED_W = WolfStrategy("scripted", vote=s_vote, mark=s_mark, attack=s_attack, speak=s_speak,
                          doc="test script (tests/test_werewolf_rules.py)")

ELIM, REVIVE = WITCH_ELIMINATE, WITCH_REVIVE
W, V_ = "werewolf", "villager"

# ----------------------------------------------------------------------------- scenarios
# Seats are written out; comments follow the game. "lowest" = the fallback choice.

# R: exactly two tied -> both out. W0, villagers 1-5. Night 1: lowest (3) attacked; day 2: all vote 0.
TIE = Script([W] + [V_] * 5).votes(1, 1, 1, 1, 2, 2, 2)
# Q-4: a two-way tie of both wolves is one event -> the village wins at once.
TIE_WOLVES = Script([W, W, V_, V_, V_]).votes(1, 0, 1, 0, 1, 2)
# R: three tied -> runoffs among them until at most two remain (Q-8): tie, tie, then seat 3.
RUNOFF = (Script([W] + [V_] * 5).votes(1, 1, 1, 2, 2, 3, 3).votes(1, 1, 2, 3, 1, 2, 3, runoff=1)
          .votes(1, 3, 3, 3, 1, 2, 3, runoff=2).attack(1, 1))
# ... a runoff that ends in a two-way tie puts both out
RUNOFF_PAIR = Script([W] + [V_] * 5).votes(1, 1, 1, 2, 2, 3, 3).votes(1, 1, 1, 1, 2, 2, 2, runoff=1)
# ... and a runoff vote for somebody who is not tied is refused
RUNOFF_BAD = Script([W] + [V_] * 5).votes(1, 1, 1, 2, 2, 3, 3).votes(1, 4, 1, 2, 3, 1, 2, runoff=1)
# R-4: tied after the first vote and after runoffs 1 and 2; runoff 3 (if allowed) decides for seat 3.
CAP = (Script([W] + [V_] * 5).votes(1, 1, 1, 2, 2, 3, 3).votes(1, 1, 2, 3, 1, 2, 3, runoff=1)
       .votes(1, 1, 1, 2, 2, 3, 3, runoff=2).votes(1, 3, 3, 3, 3, 3, 3, runoff=3).attack(1, 1))
# Paladin (Q-1): W0, paladin 1, villagers 2-7; every attack hits a protected seat.
PALADIN = (Script([W, "paladin"] + [V_] * 6)
           .votes(1, 7).protect(1, 1, 2, 3).attack(1, 2)
           .votes(2, 6).protect(2, 1, 3, 4).attack(2, 3)
           .votes(3, 5).protect(3, 1, 2, 3).attack(3, 2)   # night 1's pair again after a gap: legal
           .votes(4, 0))
PALADIN_REPEAT = (Script([W, "paladin"] + [V_] * 6)
                  .votes(1, 7).protect(1, 1, 2, 3).attack(1, 2)
                  .votes(2, 6).protect(2, 1, 3, 2))       # the same pair two nights running
# Hati (Q-1): never the same participant two evenings running; after a gap it may.
HATI_GAP = (Script(["hati"] + [V_] * 6)
            .mark(1, 0, 2).votes(1, 6).attack(1, 5)
            .mark(2, 0, 3).votes(2, 4).attack(2, 1)
            .mark(3, 0, 2).votes(3, 0))
HATI_REPEAT = Script(["hati"] + [V_] * 6).mark(1, 0, 2).votes(1, 6).attack(1, 5).mark(2, 0, 2)
# Fenrir's drag: tied out with a villager, 2 village-team left -> both go (Q-3) -> wolves win.
DRAG_FEW = Script(["fenrir", W, V_, V_, V_]).votes(1, 0, 0, 2, 2, 1)
# ... with 6 villagers exactly 3 go; then the werewolf (lowest seat) is voted out on day 2.
DRAG_MANY = Script(["fenrir", W] + [V_] * 6).votes(1, 0)
# R-7 village first: fenrir the last wolf, the drag takes the whole village -> village wins.
FIRST_2 = Script(["fenrir", V_, V_]).votes(1, 0)
FIRST_3 = Script(["fenrir", V_, V_, V_]).votes(1, 0)
FIRST_WITCH = Script(["fenrir", "witch", V_, V_]).votes(1, 3).witch(1, 1, ELIM, 0)
# R-5: the village votes the seer out and the witch revives her; she divines the werewolf on day 2 and
# says so; everyone votes the reported wolf.
REVIVE_SEER = (Script([W, "seer", "witch"] + [V_] * 4)
               .votes(1, 1).witch(1, 2, REVIVE, 1).attack(1, 6)
               .divine(2, 1, 0).speak(2, 1, 0).votes(2, claimed(3)))
# R-5: fenrir voted out drags 3, the witch revives him, he is voted out and drags 3 again.
REVIVE_FENRIR = Script(["fenrir", W, "witch"] + [V_] * 6).votes(1, 0).witch(1, 2, REVIVE, 0)
# Seer readings: fenrir reads village (the village votes the claimed wolf, else seat 5).
SEER_FENRIR = (Script(["fenrir", "seer"] + [V_] * 4)
               .divine(1, 1, 0).speak(1, 1, 0).votes(1, claimed(5)).attack(1, 2).votes(2, 0))
# ... a villager hati marks reads wolf that evening ...
MARK_TODAY = (Script(["hati", "seer"] + [V_] * 4)
              .mark(1, 0, 2).divine(1, 1, 2).speak(1, 1, 2).votes(1, claimed(0)).attack(1, 3)
              .votes(2, claimed(0)))
# ... and village again the next evening.
MARK_YESTERDAY = (Script(["hati", "seer"] + [V_] * 4)
                  .mark(1, 0, 2).divine(1, 1, 3).speak(1, 1, 3).votes(1, 5).attack(1, 4)
                  .mark(2, 0, 3).divine(2, 1, 2).speak(2, 1, 2).votes(2, claimed(0)))
# R-2 / Q-2: the werewolf is voted out on day 1, the accomplice lives; then seat 5, then lowest.
ACCOMPLICE = Script([W, "accomplice"] + [V_] * 4).votes(1, 0).votes(2, 5)
# R-6: the seer is voted out on day 1, divines the werewolf on day 2 while out, is revived that
# evening and on day 3 announces what she knows; the village votes a reported wolf, else seat 3.
AFTER_ELIM = (Script([W, "seer", "witch"] + [V_] * 4)
              .votes(1, 1).attack(1, 6)
              .divine(2, 1, 0).votes(2, 5).witch(2, 2, REVIVE, 1).attack(2, 4)
              .speak(3, 1, 0).votes(3, claimed(3)))
# Q-6: the medium learns the team of yesterday's voted-out: W0 is voted out and revived, the
# medium announces "wolf" on day 2 and the village votes him out again (else seat 6); W1 goes on day 3.
MEDIUM = {first: (Script([first, W, "medium", "witch"] + [V_] * 4)
                  .votes(1, 0).witch(1, 3, REVIVE, 0).attack(1, 7)
                  .speak(2, 2, 0).votes(2, claimed(6)))
          for first in (W, "fenrir")}
# Q-7: the seer divines the accomplice on day 1; the village votes a reported wolf, else seat 6.
ACC_READING = Script([W, "accomplice", "seer"] + [V_] * 4).divine(1, 2, 1).speak(1, 2, 1).votes(1, claimed(6))


# ----------------------------------------------------------------------------- playing them

@lru_cache(maxsize=None)
def _kernel():
    return chunk_kernel(SCRIPTED_V, SCRIPTED_W)


@lru_cache(maxsize=None)
def seated_games(seats: tuple[str, ...], count: int) -> tuple[int, ...]:
    """The first ``count`` games of the run whose deal is exactly ``seats``."""
    setup = resolve_setup(roles=",".join(seats))
    found = []
    g = 0
    while len(found) < count:
        if tuple(deal(setup, KEY, g)) == seats:
            found.append(g)
        g += 1
        assert g < 200_000
    return tuple(found)


def play(script: Script, *sets: str, games: int = 1, per_game: bool = False, naive: bool = True):
    """Play the script on the engine; returns (setup, Counts or list of per-game Counts).

    With ``naive``, the naive reference replays the same games and must tally the same."""
    setup = script.setup(*sets)
    gs = seated_games(tuple(script.seats), games)
    kernel = _kernel()
    outs = []
    total = new_counts(setup.nb)
    for g in gs:
        out = new_counts(setup.nb)
        kernel(KEY, g, 1, setup.nb, out, None)
        kernel(KEY, g, 1, setup.nb, total, None)
        outs.append(out)
    if naive:
        want = counts_of(setup, [naive_game(setup, KEY, g, SCRIPTED_V, SCRIPTED_W) for g in gs])
        got = total._asdict()
        assert all(np.array_equal(got[k], want[k]) for k in want), (summary(setup, got), summary(setup, want))
    return setup, (outs if per_game else total)


def naive_logs(script: Script, *sets: str, games: int = 1):
    setup = script.setup(*sets)
    return [naive_game(setup, KEY, g, SCRIPTED_V, SCRIPTED_W) for g in seated_games(tuple(script.seats), games)]


def summary(setup, c) -> dict:
    """Counts as a readable dict: endings, days, {role: {status: count}}, runoffs, idle days."""
    c = c if isinstance(c, dict) else c._asdict()
    roles = {}
    for r, rid in enumerate(setup.role_ids):
        if c["role_games"][r]:
            d = {"alive": int(c["role_survived"][r])} if c["role_survived"][r] else {}
            d.update({HOW[h]: int(c["role_out"][r, h]) for h in range(1, len(HOW)) if c["role_out"][r, h]})
            roles[rid] = d
    return {
        "end": {(WINNERS[a], EVENTS[b]): int(c["end"][a, b]) for a, b in np.argwhere(c["end"])},
        "days": {int(d): int(k) for d, k in enumerate(c["days_hist"]) if k},
        "roles": roles,
        "runoffs": int(c["scalars"][C_RUNOFFS]),
        "nobody_out": int(c["scalars"][C_NOBODY_OUT]),
    }


def outcome(end, days, roles, runoffs=0, nobody_out=0):
    return {"end": end, "days": days, "roles": roles, "runoffs": runoffs, "nobody_out": nobody_out}


# ----------------------------------------------------------------------------- the vote

def test_two_way_tie_puts_both_out():
    setup, c = play(TIE)
    assert summary(setup, c) == outcome(
        {("village", "vote"): 1}, {2: 1},
        {"villager": {"alive": 2, "voted": 2, "attacked": 1}, "werewolf": {"voted": 1}})


def test_two_way_tie_is_one_event():
    """Q-4: both wolves out together -> one win check -> the village wins on day 1."""
    setup, c = play(TIE_WOLVES)
    assert summary(setup, c) == outcome(
        {("village", "vote"): 1}, {1: 1}, {"villager": {"alive": 3}, "werewolf": {"voted": 2}})


def test_three_way_tie_goes_to_runoffs_until_decided():
    setup, c = play(RUNOFF)
    assert summary(setup, c) == outcome(
        {("village", "vote"): 1}, {2: 1},
        {"villager": {"alive": 3, "voted": 1, "attacked": 1}, "werewolf": {"voted": 1}}, runoffs=2)


def test_runoff_ending_in_a_two_way_tie_puts_both_out():
    setup, c = play(RUNOFF_PAIR)
    assert summary(setup, c) == outcome(
        {("village", "vote"): 1}, {2: 1},
        {"villager": {"alive": 2, "voted": 2, "attacked": 1}, "werewolf": {"voted": 1}}, runoffs=1)


def test_runoff_votes_only_for_the_tied():
    """Q-8: in a runoff the candidates are the tied only."""
    with pytest.raises(ValueError, match="not a candidate"):
        play(RUNOFF_BAD, naive=False)
    with pytest.raises(ValueError, match="not a candidate"):
        naive_logs(RUNOFF_BAD)


@pytest.mark.parametrize("cap", [0, 1, 2, 3, 50])
def test_runoff_cap(cap):
    """R-4: after max_runoffs runoffs with three or more still tied, nobody is out that day."""
    setup, c = play(CAP, f"variants.max_runoffs={cap}")
    if cap <= 2:  # still tied after `cap` runoffs: nobody out, the attack comes
        want = outcome({("village", "vote"): 1}, {2: 1},
                       {"villager": {"alive": 4, "attacked": 1}, "werewolf": {"voted": 1}},
                       runoffs=cap, nobody_out=1)
    else:  # the 4th round (3rd runoff) decides
        want = outcome({("village", "vote"): 1}, {2: 1},
                       {"villager": {"alive": 3, "voted": 1, "attacked": 1}, "werewolf": {"voted": 1}},
                       runoffs=3)
    assert summary(setup, c) == want
    assert int(c.scalars[C_NOBODY_OUT]) == (1 if cap <= 2 else 0)


# ----------------------------------------------------------------------------- night abilities

def test_paladin_protection_and_pair_rule():
    """Protected targets survive the attack; last night's pair may come back after a gap."""
    setup, c = play(PALADIN)
    assert summary(setup, c) == outcome(
        {("village", "vote"): 1}, {4: 1},
        {"villager": {"alive": 3, "voted": 3}, "paladin": {"alive": 1}, "werewolf": {"voted": 1}})


def test_paladin_may_not_repeat_last_nights_pair():
    with pytest.raises(ValueError, match="paladin"):
        play(PALADIN_REPEAT, naive=False)
    with pytest.raises(ValueError, match="paladin"):
        naive_logs(PALADIN_REPEAT)


def test_hati_marks_again_after_a_gap():
    setup, c = play(HATI_GAP)
    assert summary(setup, c) == outcome(
        {("village", "vote"): 1}, {3: 1}, {"villager": {"alive": 2, "voted": 2, "attacked": 2}, "hati": {"voted": 1}})


def test_hati_may_not_mark_the_same_participant_twice_running():
    with pytest.raises(ValueError, match="hati"):
        play(HATI_REPEAT, naive=False)
    with pytest.raises(ValueError, match="hati"):
        naive_logs(HATI_REPEAT)


# ----------------------------------------------------------------------------- fenrir

def test_fenrir_drags_all_when_fewer_than_three_are_left():
    """Tied out with a villager: the drag counts after both are out (Q-3); 2 left -> both go."""
    setup, c = play(DRAG_FEW)
    assert summary(setup, c) == outcome(
        {("wolves", "vote"): 1}, {1: 1},
        {"villager": {"voted": 1, "dragged": 2}, "fenrir": {"voted": 1}, "werewolf": {"alive": 1}})


def test_fenrir_drags_exactly_three():
    games = 12
    setup, c = play(DRAG_MANY, games=games)
    assert summary(setup, c) == outcome(
        {("village", "vote"): games}, {2: games},
        {"villager": {"alive": 2 * games, "dragged": 3 * games, "attacked": games},
         "fenrir": {"voted": games}, "werewolf": {"voted": games}})


@pytest.mark.parametrize("script, event, roles", [
    (FIRST_2, "vote", {"villager": {"dragged": 2}, "fenrir": {"voted": 1}}),
    (FIRST_3, "vote", {"villager": {"dragged": 3}, "fenrir": {"voted": 1}}),
    (FIRST_WITCH, "witch", {"villager": {"voted": 1, "dragged": 1}, "witch": {"dragged": 1},
                            "fenrir": {"witch": 1}}),
], ids=["voted_2", "voted_3", "witch"])
def test_village_first_when_fenrir_takes_the_village_with_him(script, event, roles):
    """R-7: fenrir, the last wolf, leaves and his drag empties the village: the village wins."""
    setup, c = play(script)
    assert summary(setup, c) == outcome({("village", event): 1}, {1: 1}, roles)


# ----------------------------------------------------------------------------- the witch (R-5, Q-5)

def test_revived_seer_divines_again():
    """R-5: revived with her role, the seer divines the werewolf, says so, and the village
    votes him out on day 2."""
    setup, c = play(REVIVE_SEER)
    assert summary(setup, c) == outcome(
        {("village", "vote"): 1}, {2: 1},
        {"villager": {"alive": 3, "attacked": 1}, "seer": {"alive": 1}, "witch": {"alive": 1},
         "werewolf": {"voted": 1}})
    log = naive_logs(REVIVE_SEER)[0]["log"]
    assert (1, "revive", 1) in log and (2, "divine", 1, 0, 1) in log


def test_revived_fenrir_drags_again():
    """R-5: voted out, fenrir drags 3; revived by the witch and voted out again (he is the
    lowest seat), he drags 3 more. When the first drag took the witch there is no revival
    and the werewolf is voted out instead."""
    games = 16
    setup, outs = play(REVIVE_FENRIR, games=games, per_game=True)
    revived = 0
    for c in outs:
        s = summary(setup, c)
        dragged = sum(r.get("dragged", 0) for r in s["roles"].values())
        if dragged == 6:  # revived and dragged again
            revived += 1
            assert s["end"] == {("wolves", "vote"): 1} and s["days"] == {2: 1}
            assert s["roles"]["fenrir"] == {"voted": 1} and s["roles"]["werewolf"] == {"alive": 1}
        else:  # the witch went in the first drag
            assert dragged == 3 and s["roles"]["witch"] == {"dragged": 1}
            assert s["end"] == {("village", "vote"): 1} and s["roles"]["werewolf"] == {"voted": 1}
    assert 0 < revived < games


# ----------------------------------------------------------------------------- the seer

def test_fenrir_reads_village_to_the_seer():
    """The seer divines fenrir and announces 'village': the village votes seat 5, not fenrir."""
    setup, c = play(SEER_FENRIR)
    assert summary(setup, c) == outcome(
        {("village", "vote"): 1}, {2: 1},
        {"villager": {"voted": 1, "attacked": 1, "dragged": 2}, "seer": {"dragged": 1},
         "fenrir": {"voted": 1}})
    assert (1, "divine", 1, 0, 0) in naive_logs(SEER_FENRIR)[0]["log"]


def test_hati_marked_villager_reads_wolf_that_evening():
    setup, c = play(MARK_TODAY)
    assert summary(setup, c) == outcome(
        {("village", "vote"): 1}, {2: 1},
        {"villager": {"alive": 2, "voted": 1, "attacked": 1}, "seer": {"alive": 1}, "hati": {"voted": 1}})
    assert (1, "divine", 1, 2, 1) in naive_logs(MARK_TODAY)[0]["log"]


def test_hati_mark_lasts_one_evening_only():
    setup, c = play(MARK_YESTERDAY)
    assert summary(setup, c) == outcome(
        {("village", "vote"): 1}, {2: 1},
        {"villager": {"alive": 2, "voted": 1, "attacked": 1}, "seer": {"alive": 1}, "hati": {"voted": 1}})
    log = naive_logs(MARK_YESTERDAY)[0]["log"]
    assert (1, "mark", 0, 2) in log and (2, "divine", 1, 2, 0) in log


# ----------------------------------------------------------------------------- the medium

@pytest.mark.parametrize("role, sets", [(W, ()), ("fenrir", ("roles.fenrir.drag=0",)),
                                        ("fenrir", ("roles.fenrir.drag=0", "roles.fenrir.medium_reads=village"))],
                         ids=["werewolf", "fenrir", "fenrir_reads_village"])
def test_medium_reads_yesterdays_voted_out(role, sets):
    """Q-6: on day 2 the medium knows the team of whoever was voted out on day 1 (fenrir
    reads wolf to her by default, roles.fenrir.medium_reads); with that reading the village
    finishes on day 3, without it on day 4."""
    setup, c = play(MEDIUM[role], *sets)
    s = summary(setup, c)
    if sets[-1:] != ("roles.fenrir.medium_reads=village",):
        assert s["end"] == {("village", "vote"): 1} and s["days"] == {3: 1}
        assert s["roles"]["medium"] == {"attacked": 1} and s["roles"]["villager"] == {"alive": 3, "attacked": 1}
    else:
        assert s["end"] == {("village", "vote"): 1} and s["days"] == {4: 1}
        assert s["roles"]["villager"] == {"alive": 2, "attacked": 1, "voted": 1}


# ----------------------------------------------------------------------------- teams and variants

def test_accomplice_counts_as_village_variant():
    """R-2 variant: the werewolf is voted out on day 1 and the village wins at once while
    the accomplice lives."""
    setup, c = play(ACCOMPLICE, "variants.accomplice_counts_as=village")
    assert summary(setup, c) == outcome(
        {("village", "vote"): 1}, {1: 1},
        {"villager": {"alive": 4}, "accomplice": {"alive": 1}, "werewolf": {"voted": 1}})


def test_accomplice_counts_as_wolf_by_default():
    setup, c = play(ACCOMPLICE)
    assert summary(setup, c)["end"] == {("village", "vote"): 1}
    assert summary(setup, c)["days"] == {3: 1}  # the accomplice had to be voted out (day 3)
    assert summary(setup, c)["roles"]["accomplice"] == {"voted": 1}


@pytest.mark.parametrize("variant", [False, True], ids=["wolf", "village"])
def test_accomplice_reads_per_variant(variant):
    """Q-7: the seer reads the accomplice as wolf by default (he is voted out on day 1) and
    as village in the madman variant (seat 6 is voted out instead)."""
    sets = ("variants.accomplice_counts_as=village",) if variant else ()
    setup, c = play(ACC_READING, *sets)
    s = summary(setup, c)
    assert s["end"] == {("village", "vote"): 1} and s["days"] == {2: 1}
    assert s["roles"]["seer"] == {"attacked": 1}
    if variant:
        assert s["roles"]["accomplice"] == {"alive": 1} and s["roles"]["villager"] == {"alive": 3, "voted": 1}
    else:
        assert s["roles"]["accomplice"] == {"voted": 1} and s["roles"]["villager"] == {"alive": 4}


@pytest.mark.parametrize("sets", [(), ("variants.abilities_after_elimination=true",)], ids=["default", "after_elim"])
def test_attack_needs_a_living_wolf(sets):
    """Q-2: with only the accomplice left of the wolf team, nobody is attacked (two nights)."""
    setup, c = play(ACCOMPLICE, *sets)
    assert summary(setup, c) == outcome(
        {("village", "vote"): 1}, {3: 1},
        {"villager": {"alive": 3, "voted": 1}, "accomplice": {"voted": 1}, "werewolf": {"voted": 1}})


def test_lone_accomplice_attacks_in_the_variant():
    """Q-2 variant (``lone_accomplice_attacks``): the same script, but the accomplice, alone of
    the wolf team, attacks on nights 1 and 2 and the wolves win by parity on night 2."""
    setup, c = play(ACCOMPLICE, "variants.lone_accomplice_attacks=true")
    s = summary(setup, c)
    assert s["end"] == {("wolves", "attack"): 1} and s["days"] == {2: 1}
    assert s["roles"]["accomplice"] == {"alive": 1} and s["roles"]["villager"] == {"alive": 1, "voted": 1,
                                                                                    "attacked": 2}


@pytest.mark.parametrize("variant", [False, True])
def test_abilities_after_elimination(variant):
    """R-6: a seer that is out divines only under the variant. Her day-2 reading (made while
    out) is what she announces on day 3 after the witch revived her."""
    sets = ("variants.abilities_after_elimination=true",) if variant else ()
    setup, c = play(AFTER_ELIM, *sets)
    if variant:  # she knew: the werewolf is voted out on day 3
        want = outcome({("village", "vote"): 1}, {3: 1},
                       {"villager": {"alive": 1, "voted": 1, "attacked": 2}, "seer": {"alive": 1},
                        "witch": {"alive": 1}, "werewolf": {"voted": 1}})
    else:  # she knew nothing: seat 3 is voted out and the wolves win by the next attack
        want = outcome({("wolves", "attack"): 1}, {3: 1},
                       {"villager": {"voted": 2, "attacked": 2}, "seer": {"attacked": 1},
                        "witch": {"alive": 1}, "werewolf": {"alive": 1}})
    assert summary(setup, c) == want


# ----------------------------------------------------------------------------- compositions

@pytest.mark.parametrize("roles, message", [
    ("villager*4,seer", "no wolves"),
    ("accomplice,villager*4", "no wolves"),
    ("werewolf*2,villager*2", "already win"),
    ("werewolf,accomplice,villager*2", "already win"),
    ("fenrir,hati,villager", "already win"),
    ("werewolf,vampire,villager*3", "unknown role"),
    ("werewolf,villager*-2", "negative count"),
    ("", "empty"),
])
def test_bad_compositions_raise(roles, message):
    with pytest.raises(SimInputError, match=message):
        resolve_setup(roles=roles)


def test_compositions_counted_per_variant():
    """The same table is fine when the accomplice counts as village (R-2) or under
    end_rule=no_villagers, and the wolves-already-win check follows the variant."""
    resolve_setup(roles="werewolf,accomplice,villager*2", sets=["variants.accomplice_counts_as=village"])
    resolve_setup(roles="werewolf*2,villager*2", sets=["variants.end_rule=no_villagers"])
    with pytest.raises(SimInputError, match="already win"):
        resolve_setup(roles="werewolf*2", sets=["variants.end_rule=no_villagers"])
