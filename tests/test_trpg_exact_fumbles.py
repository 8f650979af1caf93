"""The exact TRPG duel under the DEFAULT fumble rule (issue 43): R-3 ``lose_turn`` with R-15
``fumble_applies_to = "any"`` — a fumbled dodge costs the defender its next turn — against a
value derived by hand. (tests/test_trpg_exact.py's dodge duels use ``fumble = "hit_ally"``.)"""
from fractions import Fraction as Fr

from tests.test_trpg_exact import C, ex, scen

P_HIT = Fr(215, 216)  # skill 30: every roll but a natural 18
Q = Fr(1, 216)        # a natural 18 (or a natural 3)


def duel(rules):
    # a (1 HP, no reaction) strikes first for 1 (2 on a critical); b has 3 HP, so a cannot
    # win in one round. b dodges a's hit with 10 and, unless it lost its turn, hits back.
    return ex(scen(C(1, 30, weapons=["one"]), C(3, 30, 10, weapons=["one"], reaction="dodge"),
                   rules={"max_rounds": 1, **rules}))


def test_a_fumbled_dodge_costs_the_next_turn():
    """b loses its turn when a hits (215/216) and b's dodge roll is a natural 18 (1/216)."""
    a, b, d, r = duel({})
    assert a == 0
    assert b == (1 - P_HIT * Q) * P_HIT
    assert d == 1 - b and r == 1


def test_only_attack_fumbles_under_the_attack_variant():
    """R-15 ``attack``: the fumbled dodge simply fails; b always gets its turn."""
    a, b, d, r = duel({"fumble_applies_to": "attack"})
    assert (a, b, d) == (0, P_HIT, Q)


def test_a_fumbled_attack_costs_the_attackers_next_turn():
    """Two rounds, b no threat (0 damage): a needs two hits on b's 2 HP (no dodge). A natural 18
    in round 1 costs a its round-2 turn; a critical (natural 3) in round 1 ends it at once."""
    a, b, d, r = ex(scen(C(1, 30, weapons=["one"]), C(2, 30, weapons=["zero"]), rules={"max_rounds": 2}))
    plain = 1 - 2 * Q  # a plain hit (neither 3 nor 18)
    assert a == Q + plain * P_HIT  # a fumble in round 1 (Q) leaves a nothing
    assert b == 0 and d == 1 - a
