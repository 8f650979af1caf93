"""Restricted play in the Werewolf: an ability withheld is never used (read off the traces),
the holder keeps its seat, and the paired change is measured against the full game."""
import json

from typer.testing import CliRunner

from sim.cli import app
from sim.core.game import get

GAME = get("werewolf")


def test_abilities_of_the_default_table():
    setup = GAME.setup()
    names = [a.name for a in GAME.abilities(setup, GAME.strategies({"village": "claims", "wolves": "claims"}))]
    assert names == ["seer", "paladin", "witch", "hati", "seer_claims", "medium_claims", "accomplice_claims"]
    # random play never claims: no claim abilities to withhold
    assert "seer_claims" not in [a.name for a in GAME.abilities(setup, GAME.strategies({}))]


def test_a_withheld_ability_is_never_used_and_the_seats_stay():
    setup = GAME.setup()
    st = GAME.strategies({"village": "claims", "wolves": "claims"})
    for ability, event, actor in (("witch", "witch", "witch"), ("seer_claims", "claim", "claimer")):
        rsetup, rst = GAME.restrict(setup, st, ability)
        assert rst == st  # restricted play is data: the same strategies, the same kernel
        for k in range(40):
            full, restricted = GAME.trace(setup, st, 2, k), GAME.trace(rsetup, rst, 2, k)
            deal = [e for e in full.events if e["event"] == "deal"]
            assert deal == [e for e in restricted.events if e["event"] == "deal"]  # the same seats
            seer = {e["participant"] for e in deal if e["role"] == "seer"}
            for e in restricted.events:
                if e["event"] == event and ability == "witch":
                    assert e["action"] == "pass"
                elif e["event"] == event and ability == "seer":
                    raise AssertionError(f"the seer divined in game {k}")
                elif e["event"] == event and ability == "seer_claims":
                    assert e["claimer"] not in seer  # the accomplice may still claim


def test_the_witch_costs_the_village_under_trusting():
    """The issue's finding: under the `trusting` baseline the witch, acting on reports, loses the village games
    (a strategy that would do better without its ability: flagged not competent)."""
    r = CliRunner().invoke(app, ["werewolf", "loo", "--restrict", "--ability", "witch", "--games", "20000",
                                 "--village", "trusting", "--wolves", "trusting", "--seed", "1", "--json"])
    assert r.exit_code == 0, r.stderr
    rows = json.loads(r.stdout)["rows"]
    assert [x["restricted"] for x in rows] == ["(none)", "witch"]
    row = rows[1]
    assert row["side"] == "village" and row["delta_ci_low"] <= row["delta"] <= row["delta_ci_high"]
    assert row["delta_ci_low"] > 0 and row["competent"] is False
