"""TRPG reactions against their own oracle (issue 43): the ``auto`` reaction (T-11) takes
whichever of none, dodge and guard leaves the least expected damage, worked out by hand here
for an axe (3d6, mean 10.5) against a defender holding a club (a weapon guard takes off a 1d6
roll, mean 3.5):

- none: 10.5; guard: 10.5 − 3.5 = 7;
- dodge 16: fails on 17 or 18 (4 of 216 rolls): 10.5 · 4/216 ≈ 0.19 → dodge;
- dodge 5: succeeds on 3 – 5 (10 of 216): 10.5 · 206/216 ≈ 10.0 > 7 → guard;
- dodge 16 with ``dodge_threshold`` 0.99 (212/216 ≈ 0.981 is below it) → guard.
The fixed reactions do what they say (dodge falls back to a guard when it cannot dodge)."""
import numba as nb
import numpy as np
import pytest

from sim.trpg.enums import B, CF
from sim.trpg.sheets import build_config, compile_setup
from sim.trpg.views import honest_view_nb, hp_band_nb, new_board_nb
from strategies.trpg.builtin import builtin_reaction_nb

NONE, DODGE, GUARD = 0, 1, 2
BOARD = {
    "scenario": {"name": "react", "sides": ["a", "b"], "first": "a"},
    "weapons": {"club": {"dice": "1d6", "kind": "melee"}, "axe": {"dice": "3d6", "kind": "melee"}},
    "characters": {
        "hero": {"side": "a", "position": 0, "hp": 20, "skills": {"melee": 12}, "weapons": ["axe"]},
        "def": {"side": "b", "position": 1, "hp": 20, "skills": {"melee": 10, "dodge": 16}, "weapons": ["club"]},
    },
}


@nb.njit
def _react(S, can_dodge):
    n = S.chars.shape[0]
    bs = np.zeros((n, len(B)), np.int64)
    for j in range(n):  # the board at the start, as the sheets say
        bs[j, B.HP] = S.chars[j, CF.HP]
        bs[j, B.BAND] = hp_band_nb(bs[j, B.HP], S.chars[j, CF.HP])
        bs[j, B.X] = S.chars[j, CF.X]
        bs[j, B.Y] = S.chars[j, CF.Y]
        bs[j, B.WIELD] = S.char_weapons[j, 0]
        bs[j, B.ARM0] = -1
        bs[j, B.ARM0 + 1] = -1
    return builtin_reaction_nb(np.zeros(4, np.uint64), honest_view_nb(new_board_nb(S), S, bs, 1, 1), 1, 0, can_dodge)


def react(*sets, can_dodge=True):
    sc = compile_setup(build_config(BOARD, [f"characters.def.strategy.{s}" if "skills" not in s else
                                            f"characters.def.{s}" for s in sets]))
    return int(_react(sc.nb, can_dodge))


@pytest.mark.parametrize("sets,want", [
    (("reaction=auto",), DODGE),
    (("reaction=auto", "skills.dodge=5"), GUARD),
    (("reaction=auto", "dodge_threshold=0.99"), GUARD),
    (("reaction=auto", "dodge_threshold=0.97"), DODGE),
])
def test_auto_takes_the_least_expected_damage(sets, want):
    assert react(*sets) == want


def test_fixed_reactions():
    assert react("reaction=none") == NONE
    assert react("reaction=guard") == GUARD
    assert react("reaction=dodge") == DODGE
    assert react("reaction=dodge", can_dodge=False) == GUARD
    assert react("reaction=auto", can_dodge=False) == GUARD  # guard (7) still beats none (10.5)
