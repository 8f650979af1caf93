"""The `talk` families (a table that weighs claims, counter-claims and reports): the engine
equals the naive reference with them, their knobs follow the declared order, they beat the
trusting `claims` village, and the competence property — withholding an optional ability
never helps its own side — holds at default knobs in the default table and two smaller ones."""
from __future__ import annotations

import pytest

from sim.analysis.restrict import restricted_play
from sim.core.game import get
from sim.core.stats import wilson
from sim.werewolf.game import run
from sim.werewolf.roles import resolve_setup
from strategies.werewolf import VILLAGE, WOLVES
from strategies.werewolf import claims as c
from strategies.werewolf import talk as t
from tests.test_werewolf_knobs import assert_engine_matches_naive

V, W = VILLAGE.get("talk"), WOLVES.get("talk")
TABLES = [None, "werewolf*2,seer,medium,paladin,witch,villager*4", "hati,accomplice,seer,paladin,witch,villager*4"]


def test_slots_follow_the_declared_order():
    v = [k.name for k in t.VILLAGE_KNOBS]
    w = [k.name for k in t.WOLF_KNOBS]
    assert [v.index(x) for x in ("claim_day", "report", "fake", "witch_kill", "witch_revive")] == \
        [t.KV_CLAIM_DAY, t.KV_REPORT, t.KV_FAKE, t.KV_WITCH_KILL, t.KV_WITCH_REVIVE]
    assert [w.index(x) for x in ("fake_claim", "fake_day", "clear", "frame")] == \
        [t.KW_FAKE, t.KW_FAKE_DAY, t.KW_CLEAR, t.KW_FRAME]
    # talk's seer speaks with claims' function: the same memory slot and claim_day slot
    assert t.MEM_LAST_DIVINED == c.MEM_LAST_DIVINED and t.KV_CLAIM_DAY == c.KV_CLAIM_DAY


@pytest.mark.parametrize("roles, sets", [(None, []), (TABLES[2], ["village.witch_kill=0.5", "wolves.clear=0.5",
                                                                  "village.claim_day=2"])])
def test_engine_matches_naive(roles, sets):
    assert_engine_matches_naive(resolve_setup(roles=roles, sets=sets), V, W, 21)


def test_talk_village_beats_the_trusting_one():
    """Against the same wolves, weighing counter-claims wins more than trusting every claimer."""
    g = 20_000
    a = run(g, 3, village="talk", wolves="claims", tables=False).totals["scalars"][1]
    b = run(g, 3, village="claims", wolves="claims", tables=False).totals["scalars"][1]
    lo, _ = wilson(int(a), g)
    _, hi = wilson(int(b), g)
    assert lo > hi, (a / g, b / g)


@pytest.mark.parametrize("roles", TABLES, ids=["default", "ten", "nine"])
def test_competent_at_default_knobs(roles):
    game = get("werewolf")
    setup = game.setup(None, [], roles=roles)
    df = restricted_play(game, setup, {"village": V, "wolves": W}, 20_000, 3)
    ab = df.filter(df["ability"] != "")
    assert {"seer", "paladin", "witch"} <= set(ab["ability"].to_list())
    bad = ab.filter(~ab["competent"])
    assert bad.height == 0, bad.select("ability", "side", "value_to_side", "value_ci_low", "value_ci_high").to_dicts()
