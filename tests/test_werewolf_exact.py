"""Tests of the exact random-play solver (sim/werewolf/exact.py).

Three kinds of checks:
* an independent brute force that labels every participant and enumerates every
  vote profile (no symmetry argument), for small tables and every variant;
* Migdał, arXiv:1009.1031 — closed form vs recurrence vs our general solver;
* Paternault, jouets.mafia — values printed in his documentation tables
  (http://jouets.ababsurdo.fr/fr/latest/mafia/, sections "Probabilité de victoire
  des innocents" and "Équilibre"), and his detective-free case vs our solver.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import lru_cache

import pytest

from sim.errors import SimInputError
from sim.werewolf import exact as E
from sim.werewolf.exact import (
    exact_summary,
    exact_village_win,
    runoff_outcome,
    top_tie_distribution,
)
from tests.naive.mafia_models import migdal_mafia_win, migdal_mafia_win_recurrence, paternault_village_win

VARIANTS = [
    (rule, start, end)
    for rule in E.VOTE_RULES
    for start in E.STARTS
    for end in E.END_RULES
]


# --------------------------------------------------------------------------
# Independent brute force (labelled participants, every vote profile)
# --------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _brute_vote(n: int, cands: tuple[int, ...], rule: str, runoffs_left: int) -> dict[frozenset, Fraction]:
    """Distribution of the set of participants (indices 0..n-1) put out by a vote."""
    out: dict[frozenset, Fraction] = {}
    profiles = len(cands) ** n
    for profile in itertools.product(cands, repeat=n):
        counts = {c: profile.count(c) for c in cands}
        best = max(counts.values())
        top = tuple(c for c in cands if counts[c] == best)
        p = Fraction(1, profiles)
        if rule == "plurality":
            for c in top:
                key = frozenset([c])
                out[key] = out.get(key, 0) + p / len(top)
        elif len(top) <= 2:
            key = frozenset(top)
            out[key] = out.get(key, 0) + p
        elif runoffs_left == 0:
            out[frozenset()] = out.get(frozenset(), 0) + p
        else:
            for key, q in _brute_vote(n, top, rule, runoffs_left - 1).items():
                out[key] = out.get(key, 0) + p * q
    return out


def _brute_game(roles: tuple[str, ...], rule: str, start: str, end: str, max_runoffs: int):
    """(P village wins, E votes held) with every participant labelled."""

    def verdict(rs):
        w = rs.count("W")
        v = len(rs) - w
        if w == 0:
            return 1
        if (end == "parity" and v <= w) or (end == "no_villagers" and v == 0):
            return 0
        return None

    @lru_cache(maxsize=None)
    def day(rs):
        n = len(rs)
        if rule == "random_lynch":
            dist = {frozenset([i]): Fraction(1, n) for i in range(n)}
        else:
            dist = _brute_vote(n, tuple(range(n)), rule, max_runoffs)
        win, votes = Fraction(0), Fraction(1)
        for gone, p in dist.items():
            rest = tuple(r for i, r in enumerate(rs) if i not in gone)
            if gone:
                t = verdict(rest)
                if t is not None:
                    win += p * t
                    continue
            a, b = night(rest)
            win += p * a
            votes += p * b
        return win, votes

    @lru_cache(maxsize=None)
    def night(rs):
        targets = [i for i, r in enumerate(rs) if r != "W"]
        win, votes = Fraction(0), Fraction(0)
        for i in targets:
            rest = rs[:i] + rs[i + 1:]
            p = Fraction(1, len(targets))
            t = verdict(rest)
            if t is not None:
                win += p * t
            else:
                a, b = day(rest)
                win += p * a
                votes += p * b
        return win, votes

    return day(roles) if start == "day" else night(roles)


def _compositions(max_n: int):
    for n in range(2, max_n + 1):
        for w in range(1, n):
            for s in range(0, 2):
                v = n - w - s
                if v >= 0:
                    yield w, v, s


BRUTE_CASES = [
    (rule, start, end, max_runoffs, 5 if rule != "random_lynch" else 7)
    for rule, start, end in VARIANTS
    for max_runoffs in ([0, 1, 50] if rule == "runoff" else [50])
] + [
    # six participants reach a three-way tie among six voters (2, 2, 2) and its runoffs
    ("runoff", "day", "parity", 1, 6),
    ("runoff", "night", "no_villagers", 50, 6),
]


@pytest.mark.parametrize("rule,start,end,max_runoffs,max_n", BRUTE_CASES)
def test_matches_labelled_brute_force(rule, start, end, max_runoffs, max_n):
    checked = 0
    for w, v, s in _compositions(max_n):
        village = v + s
        if (end == "parity" and village <= w) or (end == "no_villagers" and village == 0):
            with pytest.raises(SimInputError):
                exact_village_win(w, v, s, vote_rule=rule, start=start, end_rule=end, max_runoffs=max_runoffs)
            continue
        roles = ("W",) * w + ("V",) * v + ("S",) * s
        win, votes = _brute_game(roles, rule, start, end, max_runoffs)
        got = exact_village_win(w, v, s, vote_rule=rule, start=start, end_rule=end, max_runoffs=max_runoffs)
        assert got == win, (w, v, s)
        summ = exact_summary(w, v, s, vote_rule=rule, start=start, end_rule=end, max_runoffs=max_runoffs)
        assert summ["expected_days_exact"] == E.fraction_str(votes), (w, v, s)
        assert summ["village_win_exact"] == E.fraction_str(win), (w, v, s)
        checked += 1
    assert checked > 5


# --------------------------------------------------------------------------
# The vote: top-tie distribution and runoffs
# --------------------------------------------------------------------------

def test_top_tie_distribution_brute_force():
    for voters in range(1, 7):
        for cands in range(1, 7):
            if cands ** voters > 50_000:
                continue
            counts = [0] * (cands + 1)
            for prof in itertools.product(range(cands), repeat=voters):
                tally = [prof.count(c) for c in range(cands)]
                counts[tally.count(max(tally))] += 1
            assert E.top_tie_counts(voters, cands) == tuple(counts), (voters, cands)


def test_top_tie_distribution_sums_to_one_up_to_twenty():
    for voters in range(1, 21):
        for cands in range(1, voters + 1):
            dist = top_tie_distribution(voters, cands)
            assert sum(dist) == 1
            assert dist[0] == 0
            assert all(p == 0 for t, p in enumerate(dist) if t > voters)


def test_runoff_small_cases_by_hand():
    # 2 participants: same vote (1/2) → one out; split (1/2) → both out.
    assert runoff_outcome(2) == {"one": Fraction(1, 2), "two": Fraction(1, 2), "none": 0, "runoffs": 0}
    # 3 participants: a three-way tie (each 1 vote) has probability 3!/3^3 = 2/9, and a
    # two-way tie is impossible; the runoff among 3 is the same vote again.
    r0 = runoff_outcome(3, max_runoffs=0)
    assert r0 == {"one": Fraction(7, 9), "two": 0, "none": Fraction(2, 9), "runoffs": 0}
    r50 = runoff_outcome(3, max_runoffs=50)
    assert r50["none"] == Fraction(2, 9) ** 51
    assert r50["one"] == 1 - Fraction(2, 9) ** 51
    assert r50["runoffs"] == sum(Fraction(2, 9) ** k for k in range(1, 51))


def test_runoff_outcome_is_a_distribution():
    for n in range(1, 21):
        r = runoff_outcome(n)
        assert r["one"] + r["two"] + r["none"] == 1
        assert r["none"] < Fraction(1, 10 ** 20)


# --------------------------------------------------------------------------
# Properties and input validation
# --------------------------------------------------------------------------

@pytest.mark.parametrize("rule,start,end", VARIANTS)
def test_seers_count_as_villagers(rule, start, end):
    for w, v, s in [(1, 3, 1), (2, 6, 1), (3, 7, 2)]:
        kw = dict(vote_rule=rule, start=start, end_rule=end)
        assert exact_village_win(w, v, s, **kw) == exact_village_win(w, v + s, 0, **kw)


@pytest.mark.parametrize("start", E.STARTS)
@pytest.mark.parametrize("end", E.END_RULES)
def test_plurality_equals_random_lynch(start, end):
    for w, v in [(1, 4), (2, 7), (3, 9), (4, 16)]:
        assert exact_village_win(w, v, vote_rule="plurality", start=start, end_rule=end) == \
            exact_village_win(w, v, vote_rule="random_lynch", start=start, end_rule=end)


def test_default_table_summary():
    # R-1's head count with plain roles: 3 wolves, 8 villagers, 1 seer, all defaults.
    s = exact_summary(3, 8, 1)
    win = exact_village_win(3, 8, 1)
    assert s["village_win_exact"] == E.fraction_str(win)
    assert s["village_win"] == pytest.approx(float(win))
    assert s["wolf_win"] == pytest.approx(1 - float(win))
    assert 0 < s["village_win"] < 1
    assert 1 <= s["expected_days"] <= 12
    assert s["expected_days_nobody_out"] < 1e-20
    assert s["variants"] == {"vote_rule": "runoff", "start": "day", "end_rule": "parity", "max_runoffs": 50}


def test_summary_handles_huge_fractions():
    s = exact_summary(2, 14)  # 16 participants, 50 runoffs: thousands of digits
    assert len(s["village_win_exact"]) > 4300
    win = exact_village_win(2, 14)
    assert s["village_win_exact"] == E.fraction_str(win)
    p, q = s["village_win_exact"].split("/")
    assert len(p) + len(q) + 1 == len(s["village_win_exact"]) and q.isdigit() and p.isdigit()


def test_runoff_cap_changes_the_answer():
    a = exact_village_win(1, 2, max_runoffs=0)
    b = exact_village_win(1, 2, max_runoffs=50)
    assert a != b
    # 3 players, 1 wolf: a vote puts one uniform player out (7/9) or nobody (2/9).
    # one out: wolf 1/3 → village wins; villager → 1 v 1 → wolves (parity).
    # nobody out: the night attack makes it 1 v 1 → wolves.
    assert a == Fraction(7, 9) * Fraction(1, 3)


@pytest.mark.parametrize(
    "args,kwargs",
    [
        ((-1, 3), {}),
        ((1, -3), {}),
        ((1, 3, -1), {}),
        ((0, 5), {}),
        ((2, 2), {}),  # parity: already won
        ((3, 1, 1), {}),
        ((2, 0), {"end_rule": "no_villagers"}),
        ((1, 3), {"vote_rule": "majority"}),
        ((1, 3), {"start": "dusk"}),
        ((1, 3), {"end_rule": "last_man"}),
        ((1, 3), {"max_runoffs": -1}),
        ((1.0, 3), {}),
        ((True, 3), {}),
        ((10, 60), {}),  # runoff participant limit
        ((1, 3), {"max_runoffs": 201}),  # runoff cap limit
    ],
)
def test_bad_input(args, kwargs):
    with pytest.raises(SimInputError):
        exact_village_win(*args, **kwargs)
    with pytest.raises(SimInputError):
        exact_summary(*args, **kwargs)


def test_no_villagers_allows_wolf_majority():
    # 2 wolves v 1 villager, day first, random_lynch: lynch the villager (1/3) →
    # no villager left; lynch a wolf (2/3) → 1 v 1, the attack → 1 v 0. So 0.
    assert exact_village_win(2, 1, vote_rule="random_lynch", end_rule="no_villagers") == 0
    # 1 v 1 day first: lynch the wolf with probability 1/2.
    assert exact_village_win(1, 1, vote_rule="random_lynch", end_rule="no_villagers") == Fraction(1, 2)


# --------------------------------------------------------------------------
# Migdał, "A mathematical model of the Mafia game", arXiv:1009.1031
# Model: random lynch by day, the mafia kills a citizen by night, the game starts
# with a day, the mafia wins when no citizen is left → our random_lynch / day /
# no_villagers.  w(n, m) is the MAFIA's winning chance with n players, m mafiosi.
# --------------------------------------------------------------------------

def _double_factorial(k: int) -> int:
    return math.prod(range(k, 0, -2)) if k > 0 else 1


def test_migdal_closed_form_equals_recurrence():
    for n in range(1, 61):
        for m in range(0, n + 1):
            assert migdal_mafia_win(n, m) == migdal_mafia_win_recurrence(n, m), (n, m)


def test_migdal_equals_general_solver():
    for n in range(2, 31):
        for m in range(1, n):
            ours = 1 - exact_village_win(m, n - m, vote_rule="random_lynch", start="day", end_rule="no_villagers")
            assert ours == migdal_mafia_win(n, m), (n, m)


def test_migdal_night_start_shifts_by_one_player():
    for n in range(3, 25):
        for m in range(1, n - 1):
            ours = 1 - exact_village_win(m, n - m, vote_rule="random_lynch", start="night", end_rule="no_villagers")
            assert ours == migdal_mafia_win(n - 1, m), (n, m)


def test_migdal_one_mafioso_wallis_ratio():
    # m = 1: w(n, 1) = (n-1)!!/n!! — the chance that the lone mafioso escapes
    # every day's uniform lynch (day sizes n, n-2, ..., 2 or 3).
    for n in range(1, 60):
        assert migdal_mafia_win(n, 1) == Fraction(_double_factorial(n - 1), _double_factorial(n))
    # Parity effect (the paper's abstract: "the game strongly depends on the parity
    # of the total number of players"): adding one player to an even table RAISES
    # the mafia's chance; for m = 1 the ratio tends to π/2 (Wallis product).
    def w1(n):  # = migdal_mafia_win(n, 1), checked above for n < 60
        return Fraction(_double_factorial(n - 1), _double_factorial(n))

    ratios = [w1(2 * k + 1) / w1(2 * k) for k in range(1, 400)]
    assert all(r > 1 for r in ratios)
    assert all(a < b for a, b in zip(ratios, ratios[1:]))
    assert abs(float(ratios[-1]) - math.pi / 2) < 0.01


def test_published_models_large_inputs_do_not_recurse_deeply():
    assert 0 < migdal_mafia_win_recurrence(1500, 20) < 1
    assert 0 < paternault_village_win(5, 700, 2) < 1


def test_migdal_small_values_by_hand():
    # n = 3, m = 1: lynch the mafioso (1/3) or the game ends 1 mafioso v 0 citizens.
    assert migdal_mafia_win(3, 1) == Fraction(2, 3)
    # n = 5, m = 1: 4/5 · w(3, 1) = 8/15.
    assert migdal_mafia_win(5, 1) == Fraction(8, 15)
    # n = 4, m = 2: citizens need mafioso, (night), mafioso: 2/4 · 1/2 = 1/4.
    assert migdal_mafia_win(4, 2) == Fraction(3, 4)
    # n = 5, m = 2: citizens need two mafioso lynches: 2/5 · 1/3 = 2/15.
    assert migdal_mafia_win(5, 2) == Fraction(13, 15)
    # more mafiosi than citizens: the mafia cannot lose
    assert migdal_mafia_win(7, 4) == 1
    assert migdal_mafia_win(9, 5) == 1


def test_migdal_square_root_balance():
    # Abstract: "a relatively small number of the mafia members, i.e. proportional to
    # the square root of the total number of players, gives equal winning-chance".
    # The m giving w closest to 1/2 grows like sqrt(n) (ratio m/sqrt(n) stays bounded).
    for n in (51, 201, 401):
        best = min(range(1, 30), key=lambda m: abs(migdal_mafia_win(n, m) - Fraction(1, 2)))
        assert 0.2 < best / math.sqrt(n) < 0.6, (n, best)


# --------------------------------------------------------------------------
# Paternault, jouets.mafia (2016) — proba_soir(mafieux, innocents, detectives)
# Values copied from the tables of http://jouets.ababsurdo.fr/fr/latest/mafia/
# (printed as "{:.1f}%", rows = mafiosi, columns = total players).
# --------------------------------------------------------------------------

# "Aucun détectives" (python -m jouets.mafia.probadetective --detectives 0 --players 20)
PAT_D0 = {
    1: (4, [33.3, 25.0, 46.7, 37.5, 54.3, 45.3, 59.4, 50.8, 63.1, 54.9, 65.9, 58.1, 68.2, 60.7, 70.0, 62.9, 71.6]),
    2: (6, [13.3, 8.3, 22.9, 15.6, 29.8, 21.6, 35.2, 26.4, 39.5, 30.5, 43.0, 33.9, 46.0, 36.9, 48.5]),
    3: (8, [5.7, 3.1, 11.4, 6.9, 16.5, 10.5, 20.8, 14.0, 24.5, 17.1, 27.8, 19.9, 30.7]),
    4: (10, [2.5, 1.2, 5.8, 3.1, 9.1, 5.2, 12.2, 7.4, 15.1, 9.6, 17.8]),
}
# "Un seul détective" (--detectives 1 --players 20)
PAT_D1 = {
    1: (2, [100.0, 50.0, 70.4, 57.8, 71.6, 63.1, 73.9, 66.9, 75.9, 69.7, 77.6, 71.9, 79.0, 73.6, 80.2, 75.1,
            81.2, 76.4, 82.1]),
    2: (3, [0.0, 0.0, 27.8, 32.2, 40.3, 42.9, 46.1, 49.1, 50.0, 53.4, 53.2, 56.7, 55.7, 59.3, 57.9, 61.5, 59.7,
            63.3]),
    3: (4, [0.0, 0.0, 0.0, 12.2, 19.0, 25.5, 28.4, 32.2, 34.4, 36.8, 38.9, 40.2, 42.4, 43.0, 45.3, 45.4, 47.7]),
    5: (6, [0.0, 0.0, 0.0, 0.0, 0.0, 3.7, 7.9, 11.0, 13.8, 16.2, 18.3, 20.1, 21.9, 23.3, 24.9]),
}
# "Équilibre" tables (several detectives): (players, mafiosi, detectives) → %
PAT_EQ = {
    (5, 2, 2): 51.9, (6, 2, 2): 47.2, (6, 2, 3): 66.4, (7, 2, 2): 57.6, (8, 3, 3): 45.4, (9, 3, 3): 48.0,
    (9, 3, 4): 60.2, (10, 4, 5): 49.5, (10, 3, 3): 52.4, (11, 3, 2): 44.5, (13, 4, 4): 50.2, (22, 3, 1): 49.8,
    (24, 4, 2): 49.6, (25, 9, 10): 50.0, (26, 11, 13): 51.0, (30, 9, 9): 50.2, (30, 6, 4): 49.8,
}


def _pct_close(p: Fraction, printed: float) -> bool:
    return abs(100 * float(p) - printed) <= 0.05 + 1e-9


@pytest.mark.parametrize("table,detectives", [(PAT_D0, 0), (PAT_D1, 1)])
def test_paternault_tables(table, detectives):
    for mafiosi, (first_players, row) in table.items():
        for players, printed in enumerate(row, start=first_players):
            innocents = players - mafiosi - detectives
            p = paternault_village_win(mafiosi, innocents, detectives)
            assert _pct_close(p, printed), (mafiosi, players, float(p), printed)


def test_paternault_equilibrium_table():
    for (players, mafiosi, detectives), printed in PAT_EQ.items():
        p = paternault_village_win(mafiosi, players - mafiosi - detectives, detectives)
        assert _pct_close(p, printed), (players, mafiosi, detectives, float(p), printed)


def test_paternault_without_detectives_is_our_night_parity_random_lynch():
    for m in range(1, 12):
        for i in range(m + 1, 26):
            ours = exact_village_win(m, i, vote_rule="random_lynch", start="night", end_rule="parity")
            assert paternault_village_win(m, i, 0) == ours, (m, i)
            # his morning entry point is our day start
            ours_day = exact_village_win(m, i, vote_rule="random_lynch", start="day", end_rule="parity")
            assert paternault_village_win(m, i, 0, start="day") == ours_day, (m, i)


def test_paternault_detective_by_hand():
    # 1 mafioso v 1 detective at night: the mafioso kills the detective, who still
    # interrogates (simultaneous night) and can only pick the mafioso → village wins.
    assert paternault_village_win(1, 0, 1) == 1
    # 1 m, 1 i, 1 d at night: kill i (1/2) or d (1/2); interrogate m or i (1/2 each).
    # m hit → village; miss → 1 v 1 in the morning → mafia.
    assert paternault_village_win(1, 1, 1) == Fraction(1, 2)
    # Parity reached by a lynch is only checked the next morning: morning (1, 1, 1),
    # lynch the innocent (1/3) → (1, 0, 1) in the evening, and the detective still
    # catches the mafioso → village. Total: 1/3 (lynch m) + 1/3·1 + 1/3·P_s(1,1,0)=0.
    assert paternault_village_win(1, 1, 1, start="day") == Fraction(2, 3)


def test_paternault_detective_recurrence_independently():
    # Re-derive P_s(m, i, d) by enumerating (kill target, interrogation target) pairs
    # over labelled players, then the morning lynch over labelled players.
    @lru_cache(maxsize=None)
    def evening(m, i, d):
        if m == 0:
            return Fraction(1)
        nonmafia = ["i"] * i + ["d"] * d
        if not nonmafia:
            return Fraction(0)
        suspects = ["m"] * m + ["i"] * i if d else [None]
        total = Fraction(0)
        for victim in nonmafia:
            for suspect in suspects:
                mm = m - (suspect == "m")
                ii = i - (victim == "i")
                dd = d - (victim == "d")
                total += morning(mm, ii, dd)
        return total / (len(nonmafia) * len(suspects))

    @lru_cache(maxsize=None)
    def morning(m, i, d):
        if m == 0:
            return Fraction(1)
        if m >= i + d:
            return Fraction(0)
        n = m + i + d
        return (m * evening(m - 1, i, d) + i * evening(m, i - 1, d) + d * evening(m, i, d - 1)) / n

    for m in range(1, 5):
        for i in range(0, 9):
            for d in range(0, 4):
                assert paternault_village_win(m, i, d) == evening(m, i, d), (m, i, d)
                assert paternault_village_win(m, i, d, start="day") == morning(m, i, d), (m, i, d)
