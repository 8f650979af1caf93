"""Published closed forms of Mafia-like games, used only to check the exact solver
(sim/werewolf/exact.py) in tests/test_werewolf_exact.py.

* :func:`migdal_mafia_win` / :func:`migdal_mafia_win_recurrence` — P. Migdał,
  "A mathematical model of the Mafia game", arXiv:1009.1031 (v1 2010, v3 2013).
* :func:`paternault_village_win` — L. Paternault, ``jouets.mafia`` (2016, GPLv3),
  which adds *detectives* with a model that differs from our seer (see there).
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

from sim.errors import SimInputError
from sim.werewolf.exact import STARTS, _check_int

_ZERO = Fraction(0)
_ONE = Fraction(1)


def migdal_mafia_win_recurrence(n: int, m: int) -> Fraction:
    """Mafia winning chance w(n, m) in Migdał's model, by its recurrence.

    P. Migdał, "A mathematical model of the Mafia game", arXiv:1009.1031
    (https://arxiv.org/abs/1009.1031; v1 2010, v3 2013).  Model: ``n`` players
    of whom ``m`` are mafiosi; **the game starts with a day**; each day a player
    chosen uniformly among all the living is lynched; each night the mafia kills
    one citizen; **the mafia wins when no citizen is left**, the citizens when no
    mafioso is left (a pure death process: every day+night removes 2 players).
    Hence, one day and one night being one step,

        w(n, m) = (n-m)/n · w(n-2, m) + m/n · w(n-2, m-1),
        w(n, 0) = 0,   w(n, m) = 1 when no citizen remains (n = m),

    with the game stopping as soon as a boundary is hit (after the lynch or after
    the kill).  In this project's terms: ``vote_rule=random_lynch, start=day,
    end_rule=no_villagers``; with a night first the chance is w(n-1, m) counted
    after the first kill.  (The end rule and the day start also match the
    simulation code of Migdał & Kolanowski, github.com/stared/A-numerical-model-
    of-the-Mafia-game, ``kto_wygral_jedna_gre``: ``while n > m`` … ``break`` when
    ``m == 0 or n - m == 0``.)
    """
    _check_int("n", n, 1)
    _check_int("m", m, 0)
    if m > n:
        raise SimInputError(f"m={m} mafiosi cannot exceed n={n} players")
    for k in range(1, n):  # fill the memo bottom-up so the recursion stays shallow
        _migdal_rec(k, min(k, m))
    return _migdal_rec(n, m)


@lru_cache(maxsize=None)
def _migdal_rec(n: int, m: int) -> Fraction:
    if m == 0:
        return _ZERO
    if n == m:
        return _ONE
    # day: lynch a uniformly random player
    after_mafioso = _ZERO if m == 1 else _migdal_night(n - 1, m - 1)
    return Fraction(m, n) * after_mafioso + Fraction(n - m, n) * _migdal_night(n - 1, m)


def _migdal_night(n: int, m: int) -> Fraction:
    if n == m:  # no citizen left after the lynch
        return _ONE
    return _migdal_rec(n - 1, m)  # the mafia kills a citizen


@lru_cache(maxsize=None)
def migdal_survival_product(n: int, j: int) -> Fraction:
    """q_j(n) = ∏ (1 - j/s) over the day sizes s = n, n-2, …, s ≥ 2.

    For j = 1 this is the chance that one given mafioso escapes every lynch,
    q_1(n) = (n-1)!!/n!! (Wallis-type ratio); in Γ form, for n = 2k+1,
    q_j = Γ(3/2) Γ(k + (3-j)/2) / (Γ((3-j)/2) Γ(k + 3/2)), and for n = 2k,
    q_j = Γ(k + 1 - j/2) / (Γ(1 - j/2) Γ(k + 1)) (1/Γ at a pole is 0)."""
    q = _ONE
    for s in range(n, 1, -2):
        q *= Fraction(s - j, s)
    return q


def migdal_mafia_win(n: int, m: int) -> Fraction:
    """Closed form of Migdał's w(n, m) (model: see :func:`migdal_mafia_win_recurrence`):

        w(n, m) = Σ_{j=1..m} (-1)^(j+1) C(m, j) ∏_{s = n, n-2, …, ≥2} (1 - j/s).

    Inclusion–exclusion over which mafiosi survive; the factors may be zero or
    negative for j ≥ 2 and the sum is still exact.  The paper's abstract
    announces "closed-form solutions for the mafia winning-chance w(n,m)"; its
    body (and so its own equation numbering and Γ-function notation) could not
    be consulted when this was written, so this form was derived from the model
    and is verified in the tests against the recurrence (every 0 ≤ m ≤ n ≤ 60)
    and against :func:`exact_village_win` (every 1 ≤ m < n ≤ 30).  Special case
    m = 1: w(n, 1) = (n-1)!!/n!!.
    """
    _check_int("n", n, 1)
    _check_int("m", m, 0)
    if m > n:
        raise SimInputError(f"m={m} mafiosi cannot exceed n={n} players")
    if m == n:
        return _ONE
    return sum(((-1) ** (j + 1) * comb(m, j) * migdal_survival_product(n, j) for j in range(1, m + 1)), _ZERO)


def paternault_village_win(mafiosi: int, innocents: int, detectives: int, *, start: str = "night") -> Fraction:
    """Village (innocents + detectives) winning chance in Paternault's model.

    L. Paternault, *Jouets*, module ``jouets.mafia`` ("Probabilités de victoire
    au jeu mafia", 2016, GPLv3), functions ``proba_soir`` (evening/night start,
    the default: "le jeu … commence la nuit") and ``proba_matin`` (morning); doc
    http://jouets.ababsurdo.fr/fr/latest/mafia/ .  Everything is random:

    * **Night** (state m, i, d at dusk), two *simultaneous* actions:
      the mafia kills a uniformly random non-mafioso (innocent w.p. i/(i+d),
      detective w.p. d/(i+d)); and, if d ≥ 1 at dusk, the detectives — as one
      group, one interrogation per night however many they are, acting even if
      the only detective is the one killed that night — interrogate a player
      chosen uniformly among the m + i **non-detectives alive at dusk** (they know
      each other; the target may be the innocent killed that same night).  An
      interrogated mafioso is **eliminated at once** (no vote); an interrogated
      innocent is not revealed and nothing is remembered (targets are redrawn
      independently every night).
    * **Morning**: win check, village first — m = 0 → village; m ≥ i + d →
      mafia.  This is the **only** parity check: parity reached by the day's
      lynch is not checked until after the next night.
    * **Day**: one living player chosen uniformly among **all** the living
      (detectives included, no information used) is lynched; then night.

        P_m(m,i,d) = m/N·P_s(m-1,i,d) + i/N·P_s(m,i-1,d) + d/N·P_s(m,i,d-1), N = m+i+d
        P_s(m,i,0) = P_m(m,i-1,0)
        P_s(m,i,d) = i/(i+d)·[m/(m+i)·P_m(m-1,i-1,d) + i/(m+i)·P_m(m,i-1,d)]
                   + d/(i+d)·[m/(m+i)·P_m(m-1,i,d-1) + i/(m+i)·P_m(m,i,d-1)]

    with P = 1 when m = 0 (checked first), P_m = 0 when m ≥ i + d, and any term
    with a negative count being 0.  With d = 0 this is exactly
    ``exact_village_win(m, i, vote_rule="random_lynch", start="night",
    end_rule="parity")``.
    """
    for name, value in (("mafiosi", mafiosi), ("innocents", innocents), ("detectives", detectives)):
        _check_int(name, value, 0)
    if start not in STARTS:
        raise SimInputError(f"start must be one of {', '.join(STARTS)}; got {start!r}")
    for total in range(mafiosi + innocents + detectives):  # bottom-up: shallow recursion
        for m in range(min(mafiosi, total) + 1):
            for d in range(min(detectives, total - m) + 1):
                i = total - m - d
                if i <= innocents:
                    _pat_morning(m, i, d)
                    _pat_evening(m, i, d)
    return _pat_evening(mafiosi, innocents, detectives) if start == "night" else _pat_morning(mafiosi, innocents, detectives)


@lru_cache(maxsize=None)
def _pat_morning(m: int, i: int, d: int) -> Fraction:
    if min(m, i, d) < 0:
        return _ZERO
    if m == 0:
        return _ONE
    if m >= i + d:
        return _ZERO
    n = m + i + d
    return (Fraction(m, n) * _pat_evening(m - 1, i, d) + Fraction(i, n) * _pat_evening(m, i - 1, d)
            + Fraction(d, n) * _pat_evening(m, i, d - 1))


@lru_cache(maxsize=None)
def _pat_evening(m: int, i: int, d: int) -> Fraction:
    if min(m, i, d) < 0:
        return _ZERO
    if m == 0:
        return _ONE
    if d == 0:
        return _pat_morning(m, i - 1, 0)
    kill_i, kill_d = Fraction(i, i + d), Fraction(d, i + d)
    hit, miss = Fraction(m, m + i), Fraction(i, m + i)
    return (kill_i * (hit * _pat_morning(m - 1, i - 1, d) + miss * _pat_morning(m, i - 1, d))
            + kill_d * (hit * _pat_morning(m - 1, i, d - 1) + miss * _pat_morning(m, i, d - 1)))
