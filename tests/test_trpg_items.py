"""Items (持ち物, R-19 / T-12) and the monologue's chosen checks (R-20): the data is checked
(an unknown item is an error naming the closest), a trace shows an item used, a heal item
helps its holder, and
the monologue's criticals go only to the check kinds its strategy names. The kernel
against the naive reference with items: tests/test_trpg_diff.py."""
from __future__ import annotations

import math
from collections import Counter

import pytest

from sim.errors import SimInputError
from sim.trpg.enums import CF, IF, N_IF
from sim.trpg.game import run
from sim.trpg.sheets import resolve_setup
from sim.trpg.trace import trace

# a 1v1 knife duel: x carries what a test gives it
DUEL = {
    "scenario": {"name": "medkit", "sides": ["a", "b"]},
    "characters": {
        "x": {"side": "a", "position": 0, "hp": 14, "weapons": ["knife"],
              "skills": {"athletics": 10, "melee": 11, "dodge": 9, "shooting": 7}},
        "y": {"side": "b", "position": 1, "hp": 14, "weapons": ["knife"],
              "skills": {"athletics": 10, "melee": 11, "dodge": 9, "shooting": 7}},
    },
}
N = 3000


def duel(sets=()):
    return resolve_setup(DUEL, list(sets))


def rate(sc, games=N, seed=3):
    s = run(games, seed, scenario=sc, threads=1).to_json()
    return s["win_rate"]["a"]


# ----------------------------------------------------------------------------- data

def test_items_compile_into_slots_and_the_carried_reduction():
    sc = duel(["characters.x.items.first_aid=2", "characters.x.items.charm=1", "characters.x.items.reduction=1"])
    row = sc.nb.chars[0]
    assert row[CF.ITEM_FIXED] == 2  # the plain reduction 1 and the charm, a carried tool (R-10 items step)
    assert row[CF.ITEM0 + IF.COUNT] == 2 and row[CF.ITEM0 + N_IF + IF.EFFECT] == 0  # one slot used
    assert sc.item_slots == [["first_aid"], []]


@pytest.mark.parametrize("sets, msg", [
    (["characters.x.items.first_ade=1"], "unknown item 'first_ade' (did you mean 'first_aid'?)"),
    (["characters.x.items.first_aid=-1"], "characters.x.items.first_aid"),
    (["items.first_aid.effect=heal"], "items.first_aid.effect"),
    (["items.first_aid.action=carried"], "only a `reduction` tool works by being carried"),
    (["items.charm.kind=consumable"], "a `reduction` item is a tool"),
    (["characters.x.strategy.monologue_checks=attack,dogde"], "unknown check kind 'dogde' (did you mean 'dodge'?)"),
    (["characters.x.strategy.item_hp_at=2"], "characters.x.strategy.item_hp_at"),
])
def test_bad_item_data_is_one_error(sets, msg):
    with pytest.raises(SimInputError, match=None) as e:
        duel(sets)
    assert msg in str(e.value)


def test_an_unknown_item_key_is_an_error_on_the_command_line(tmp_path):
    import subprocess
    import sys

    p = tmp_path / "s.toml"
    p.write_text('[scenario]\nsides = ["a", "b"]\n[characters.x]\nside = "a"\nhp = 5\nitems = { bandage = 1 }\n'
                 '[characters.y]\nside = "b"\nhp = 5\n', encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "sim", "trpg", "run", str(p), "--games", "1"], capture_output=True,
                       text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and "unknown item 'bandage'" in lines[0], r.stderr


def test_a_trace_shows_the_item_used():
    for how in ("main", "sub"):
        sc = duel(["characters.x.items.first_aid=1", "characters.x.strategy.item_hp_at=0.9",
                   f"characters.x.strategy.item_action={how}"])
        events = [e for g in range(5) for e in trace(sc, 1, g).events if e["event"] == "item"]
        assert events and all(e["actor"] == "x" and e["item"] == "first_aid" and e["rule"] == "R-19" for e in events)
        assert all(e["main"] == (how == "main") for e in events)


# ----------------------------------------------------------------------------- what items are worth

def test_a_heal_item_raises_its_holders_win_rate():
    """The shipped ``medkit``: x's two first-aid kits (2d6 each) lift it from an even duel
    (the same sheets without kits: ``DUEL``) by at least 5 points (95 %)."""
    base = rate(duel())
    kits = rate(resolve_setup("medkit"))
    assert resolve_setup("medkit").nb.chars[0, CF.ITEM0 + IF.COUNT] == 2
    assert rate(resolve_setup("medkit", ["characters.x.items.first_aid=0"])) == base  # the same duel
    se = math.sqrt(base * (1 - base) / N + kits * (1 - kits) / N)
    assert kits - base - 1.96 * se >= 0.05, (base, kits)


@pytest.mark.parametrize("scenario, holder", [("kite", "gun"), ("kite", "bat"), ("arm_guard", "boxer")])
def test_carrying_a_heal_item_never_hurts_under_the_default_strategy(scenario, holder):
    """A first-aid kit under the default thresholds: the holder's side never does worse
    (beyond the noise: the lower 95 % bound of the change is above -1.5 points)."""
    sc0 = resolve_setup(scenario)
    side = sc0.sides[int(sc0.nb.chars[sc0.ids.index(holder), CF.SIDE])]

    def r(sets):
        s = run(N, 9, scenario=resolve_setup(scenario, sets), threads=1).to_json()
        return s["win_rate"][side]

    base, kit = r([]), r([f"characters.{holder}.items.first_aid=1"])
    se = math.sqrt(base * (1 - base) / N + kit * (1 - kit) / N)
    assert kit - base + 1.96 * se >= -0.015, (base, kit)


# ----------------------------------------------------------------------------- the monologue

def test_monologue_criticals_go_only_to_the_chosen_checks():
    """A fallen x (its ally z still up) monologues; with ``monologue_checks = ["attack"]`` its life checks are
    rolled (no monologue critical on them), with ``["life"]`` they are monologue criticals."""
    base = ["characters.x.hp=3", "characters.x.strategy.monologue=fallen", "characters.x.strategy.life_mp=2",
            "characters.x.strategy.item_hp_at=0"]

    ally = {"side": "a", "position": 0, "hp": 30, "weapons": ["fists"], "strategy": {"cover": False}}

    def crit_checks(kinds):
        cfg = {**DUEL, "characters": {**DUEL["characters"], "z": ally}}  # a fallen x: its side goes on
        sc = resolve_setup(cfg, base + [f"characters.x.strategy.monologue_checks={kinds}"])
        got = Counter()
        for g in range(12):
            for e in trace(sc, 2, g).events:
                if e["event"] == "check" and e["actor"] == "x" and e["roll"] == 0:
                    got[e["check"]] += 1
        return got

    only_attack = crit_checks("attack")
    only_life = crit_checks("life")
    assert only_attack["life check"] == 0 and only_life["life check"] > 0, (only_attack, only_life)
    assert only_life["attack"] == 0


def test_by_default_a_monologue_spends_no_critical_on_a_move():
    """x monologues at once (``low_mp`` with 2 MP) three squares from y: it must walk. By
    default (attack, dodge, life) its move checks are rolled and the criticals wait for its
    attacks; with ``"any"`` the first three checks — moves — take them (the old reading)."""
    base = ["characters.x.mp=2", "characters.x.strategy.monologue=low_mp", "characters.y.position=3",
            "characters.x.strategy.item_hp_at=0"]

    def crits(sets):
        got = Counter()
        sc = duel(base + sets)
        for g in range(8):
            for e in trace(sc, 4, g).events:
                if e["event"] == "check" and e["actor"] == "x" and e["roll"] == 0:
                    got[e["check"]] += 1
        return got

    default, anything = crits([]), crits(["characters.x.strategy.monologue_checks=any"])
    assert default["move"] == 0 and default["attack"] > 0, default
    assert anything["move"] > 0, anything
