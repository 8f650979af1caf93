"""TRPG side profiles against their own oracle (issue 43): whom a profile's character attacks
on a hand-built board. One attacker (side a) and three enemies: ``near`` one square away,
unhurt, with a club; ``far`` five squares away, down to 3 of 20 HP (the lowest HP band), with
a club; ``brute`` three squares away, unhurt, with an axe (3d6 against 1d6 at the same skill).
The right target follows from strategies/trpg/profiles.py's documentation: ``focus`` fires on
the weakest (far), ``ranged`` on the most dangerous (brute), ``random`` on any."""
import numba as nb
import numpy as np
import pytest

from sim.core.rng import seed_stream_nb
from sim.core.seeding import run_key
from sim.trpg.enums import B, CF
from sim.trpg.sheets import build_config, compile_setup
from sim.trpg.views import honest_view_nb, hp_band_nb, new_board_nb
from strategies.trpg.builtin import builtin_target_nb

NEAR, FAR, BRUTE = 1, 2, 3
BOARD = {
    "scenario": {"name": "focus", "sides": ["a", "b"], "first": "a"},
    "weapons": {"club": {"dice": "1d6", "kind": "melee"}, "axe": {"dice": "3d6", "kind": "melee"}},
    "characters": {
        "hero": {"side": "a", "position": 0, "hp": 20, "skills": {"melee": 12}, "weapons": ["club"]},
        "near": {"side": "b", "position": 1, "hp": 20, "skills": {"melee": 10}, "weapons": ["club"]},
        "far": {"side": "b", "position": 5, "hp": 20, "skills": {"melee": 10}, "weapons": ["club"]},
        "brute": {"side": "b", "position": 3, "hp": 20, "skills": {"melee": 10}, "weapons": ["axe"]},
    },
}


@nb.njit
def _targets(S, hp, seeds, key):
    n = S.chars.shape[0]
    bs = np.zeros((n, len(B)), np.int64)
    for j in range(n):  # the board at the start, as the sheets say, but for the HP given
        bs[j, B.HP] = hp[j]
        bs[j, B.BAND] = hp_band_nb(hp[j], S.chars[j, CF.HP])
        bs[j, B.X] = S.chars[j, CF.X]
        bs[j, B.Y] = S.chars[j, CF.Y]
        bs[j, B.WIELD] = S.char_weapons[j, 0]
        bs[j, B.ARM0] = -1
        bs[j, B.ARM0 + 1] = -1
    out = np.zeros(seeds, np.int64)
    rng = np.zeros(4, np.uint64)
    for g in range(seeds):
        seed_stream_nb(rng, key, g)
        out[g] = builtin_target_nb(rng, honest_view_nb(new_board_nb(S), S, bs, 1, 0), 0,
                                   np.uint64((1 << NEAR) | (1 << FAR) | (1 << BRUTE)))
    return out


def targets(profile: str, sets=()) -> set[int]:
    sc = compile_setup(build_config(BOARD, [f"tactics.a.profile={profile}", *sets]))
    return set(_targets(sc.nb, np.array([20, 20, 3, 20], np.int64), 100, run_key(43)).tolist())


def test_focus_fires_on_the_weakest():
    assert targets("focus") == {FAR}


def test_focus_target_knob_nearest():
    assert targets("focus", ["tactics.a.target=nearest"]) == {NEAR}


def test_ranged_takes_the_most_dangerous():
    assert targets("ranged") == {BRUTE}


def test_random_takes_any():
    assert targets("random") == {NEAR, FAR, BRUTE}


@pytest.mark.parametrize("profile", ["focus", "ranged"])
def test_hp_public_weakest_is_the_lowest_exact_hp(profile):
    """With exact HP public, ``weakest`` compares HP, not bands: 3 of 20 is still the weakest."""
    assert targets(profile, ["rules.hp_public=true", "tactics.a.target=weakest"]) == {FAR}
