"""The `claims` families (Q-10: a table that talks: seer and medium claims, counter-claims and
reports weighed into trust and suspicion): the engine equals the naive reference with
them, their knobs follow the declared order, the medium speaks and is believed, they beat
the `trusting` baseline, and the competence property — withholding an optional ability
never helps its own side — holds at default knobs in the default table and two smaller ones."""
from __future__ import annotations

import pytest

from sim.analysis.restrict import restricted_play
from sim.core.game import get
from sim.core.stats import wilson
from sim.werewolf.game import run
from sim.werewolf.roles import resolve_setup
from sim.werewolf.trace import trace_game
from strategies.werewolf import VILLAGE, WOLVES
from strategies.werewolf import claims as c
from tests.test_werewolf_knobs import assert_engine_matches_naive

V, W = VILLAGE.get("claims"), WOLVES.get("claims")
TABLES = [None, "werewolf*2,seer,medium,paladin,witch,villager*4", "hati,accomplice,seer,paladin,witch,villager*4"]


def test_slots_follow_the_declared_order():
    v = [k.name for k in c.VILLAGE_KNOBS]
    w = [k.name for k in c.WOLF_KNOBS]
    assert [v.index(x) for x in ("claim_day", "report", "fake", "medium", "witch_kill", "witch_revive", "agree",
                                 "medium_wait", "guard_seer")] == \
        [c.KV_CLAIM_DAY, c.KV_REPORT, c.KV_FAKE, c.KV_MEDIUM, c.KV_WITCH_KILL, c.KV_WITCH_REVIVE, c.KV_AGREE,
         c.KV_MEDIUM_WAIT, c.KV_GUARD_SEER]
    assert [w.index(x) for x in ("fake_claim", "fake_medium", "fake_day", "clear", "wolf_claim", "frame", "dodge")] \
        == [c.KW_FAKE, c.KW_FAKE_MEDIUM, c.KW_FAKE_DAY, c.KW_CLEAR, c.KW_WOLF_CLAIM, c.KW_FRAME, c.KW_DODGE]


def test_declared_defaults_are_the_hooks_defaults():
    """Every knob set to its declared default plays exactly as a kernel given no knobs (the
    hooks' built-in defaults); and no hook reads the other side's knob slots (a wolf hook
    reading a village slot would see the wolves' value there)."""
    import numpy as np

    from sim.core.seeding import run_key
    from sim.werewolf.game import with_knobs
    from sim.werewolf.game_nb import chunk_kernel, new_counts

    setup = resolve_setup()
    kernel = chunk_kernel(V, W)
    plain, tuned = new_counts(setup.nb), new_counts(setup.nb)
    kernel(run_key(11), 0, 400, setup.nb, plain, None)
    kernel(run_key(11), 0, 400, with_knobs(setup, V, W), tuned, None)
    for k in plain._fields:
        assert np.array_equal(getattr(plain, k), getattr(tuned, k)), k


@pytest.mark.parametrize("roles, sets", [
    (None, []),
    (None, ["wolves.fake_medium=0.5", "village.agree=false", "wolves.dodge=0.5"]),
    (TABLES[2], ["village.witch_kill=0.5", "wolves.clear=0.5", "village.claim_day=2"]),
    ("werewolf*2,seer,medium,villager*5", ["wolves.wolf_claim=1"]),
])
def test_engine_matches_naive(roles, sets):
    assert_engine_matches_naive(resolve_setup(roles=roles, sets=sets), V, W, 21)


def _claims_by_role(setup, seed, games):
    """{(role of the claimer, role claimed)} over the first ``games`` games of ``seed``."""
    out = set()
    for g in range(games):
        ev = trace_game(setup, V, W, seed, g).events
        role = {e["participant"]: e["role"] for e in ev if e["event"] == "deal"}
        out |= {(role[e["claimer"]], e["claimed"]) for e in ev if e["event"] == "claim"}
    return out


def test_the_medium_claims_and_the_accomplice_fakes_either_role():
    """The medium reports voted-out participants' readings; the accomplice counter-claims
    seer by default and medium with fake_medium=1; nobody else lies."""
    assert _claims_by_role(resolve_setup(), 1, 30) == {("seer", "seer"), ("medium", "medium"),
                                                       ("accomplice", "seer")}
    assert ("accomplice", "medium") in _claims_by_role(resolve_setup(sets=["wolves.fake_medium=1"]), 1, 30)


def test_claims_village_beats_the_trusting_one():
    """Against the same wolves, weighing counter-claims wins more than trusting every claimer."""
    g = 20_000
    a = run(g, 3, village="claims", wolves="claims", tables=False).totals["scalars"][1]
    b = run(g, 3, village="trusting", wolves="claims", tables=False).totals["scalars"][1]
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
    if "medium" in setup.seats:
        assert "medium_claims" in set(ab["ability"].to_list())
    bad = ab.filter(~ab["competent"])
    assert bad.height == 0, bad.select("ability", "side", "value_to_side", "value_ci_low", "value_ci_high").to_dicts()
