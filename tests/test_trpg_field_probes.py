"""The honesty harness over every TRPG view field (issue 43): for each field a probe target
plug-in (tests/plugins/probe_fields_trpg.py) attacks whom that field alone points at. The
hidden quantity is the enemies' exact HP (docs/rules/trpg.md "What the player knows": the
table shows a band unless ``rules.hp_public``).

The scene: two enemies alike in every public respect (same sheet, same place, 1,000 HP so
a 5-point hit leaves both in the top band). In round 1 an ally with the ``random`` target
profile attacks first and hits one of them (uniformly, from its side's stream); then the
probe attacks. Nothing the probe's view shows depends on which enemy was hit, so its pick
is the lower-HP enemy in half the games whose ally hit (binomial test against 1/2). Its
``oracle_`` twin, fed the exact HP in the field's shape through the same decoder, picks it
every time: each probe can see a leak of its field. With ``rules.hp_public`` the honest
``hp`` field does show the exact HP, and its probe must find the lower one: the harness sees
real information too.

The reaction hook is handed the same View (sim/trpg/views.py), so these probes cover its
fields; the hidden quantity a reaction would want — the coming dodge roll — is in no view,
not even the judge's, and tests/test_trpg_honest.py tries to predict it with every trick.
"""
import numba
import numpy as np
import pytest
from scipy.stats import binomtest

from sim.core.seeding import run_key
from sim.core.trace import new_log
from sim.trpg.enums import CF, EV
from sim.trpg.game import kernel_of
from sim.trpg.game_nb import new_counts
from sim.trpg.sheets import build_config, compile_setup
from sim.trpg.views import WHITELIST, View
from tests.plugins.probe_fields_trpg import FIELDS

NOJIT = bool(numba.config.DISABLE_JIT)
GAMES = 400 if NOJIT else 2000
PLUGIN = "tests.plugins.probe_fields_trpg:"


def scene(field: int, plugin: str = "probe", hp_public: bool = False):
    def char(side, **strategy):
        return {"side": side, "position": 0, "hp": 1000, "skills": {"melee": 30}, "weapons": ["c5"],
                "strategy": {"reaction": "none", "cover": False, **strategy}}

    chars = {"ally": char("a", target="random"),
             "probe": char("a", target=PLUGIN + plugin, arm_horizon=field),
             "e1": char("b"), "e2": char("b")}
    cfg = {"scenario": {"sides": ["a", "b"]}, "weapons": {"c5": {"dice": "5", "kind": "melee"}},
           "characters": chars, "rules": {"max_rounds": 1, "hp_public": hp_public}}
    return compile_setup(build_config(cfg))


def lower_hp_picks(setup, games=GAMES, seed=4343):
    """(picks of the lower-HP enemy, games where the ally's hit made one lower)."""
    kernel = kernel_of(setup, trace=True)
    ally, probe = setup.ids.index("ally"), setup.ids.index("probe")
    key = run_key(seed, int(setup.nb.chars[probe, CF.S_ARM_HORIZON]))  # the field: a stream each
    log = new_log()
    right = decided = 0
    for g in range(games):
        log[0, 0], log[0, 1] = 1, 0
        kernel(key, g, 1, setup.nb, new_counts(setup.nb), log)
        rows = log[1:log[0, 0]]
        att = np.flatnonzero((rows[:, 0] == EV.ATTACK) & (rows[:, 1] == probe))[0]
        before = rows[:att]
        hit = before[(before[:, 0] == EV.HIT) & (before[:, 1] == ally) & (before[:, 3] > 0)]
        if not len(hit):
            continue  # the ally missed: both enemies at full HP
        decided += 1
        right += int(rows[att, 2] == hit[0, 2])
    return right, decided


def test_every_view_field_has_a_probe():
    # ``why`` closes every view: the strategy's reason sink (sim.core.reasons), not knowledge
    assert FIELDS == WHITELIST and View._fields == WHITELIST + ("why",)


@pytest.mark.parametrize("field", FIELDS)
def test_a_field_alone_tells_nothing_of_the_exact_hp(field):
    right, decided = lower_hp_picks(scene(FIELDS.index(field)))
    assert decided > GAMES * 0.9  # the ally's 30 in melee hits but on a fumble
    assert binomtest(right, decided, 0.5).pvalue > 1e-4, (field, right, decided)


@pytest.mark.parametrize("field", FIELDS)
def test_the_probe_would_see_a_leak(field):
    right, decided = lower_hp_picks(scene(FIELDS.index(field), "oracle_probe"))
    assert right == decided, (field, right, decided)


def test_public_hp_is_seen_by_the_hp_probe():
    right, decided = lower_hp_picks(scene(FIELDS.index("hp"), hp_public=True))
    assert right == decided, (right, decided)
