"""The competence check (issue 13): under tuned strategies no optional ability has a
significantly negative value to its own side; under the untuned `trusting` baseline the same check
flags the witch (so the test can fail). Also the pick of the strongest honest tiers and
``sim ladder --competence`` on a game without optional abilities."""
from __future__ import annotations

import json

import numpy as np
from typer.testing import CliRunner

from sim.analysis.metagame import Matrix, Tier, competence, measure, MEASURE, strongest
from sim.analysis.tune import tune
from sim.cli import app
from sim.core.game import get
from sim.core.knobs import Spec, parse_spec, spec_sets


def test_strongest_is_maximin_over_honest_tiers():
    rows = [Tier("village", "a"), Tier("village", "b"), Tier("village", "oracle_x")]
    cols = [Tier("wolves", "c"), Tier("wolves", "d"), Tier("wolves", "oracle_y")]
    rate = np.array([[0.9, 0.1, 0.0],    # a: worst case 0.1
                     [0.5, 0.4, 0.0],    # b: worst case 0.4 (the maximin row)
                     [1.0, 1.0, 1.0]])   # an oracle row is never picked
    m = Matrix(rows, cols, (rate * 1000).astype(np.int64), np.full((3, 3), 1000))
    i, j = strongest(m)
    assert (i, j) == (1, 1)  # column d: worst case (for the wolves) 0.4 < c's 0.9


def _tuned(game, side, against: Spec, budget, seed) -> Spec:
    tree = game.build(sets=spec_sets(game, against))
    return tune(game, tree, side, "trusting", {against.side: against}, budget=budget, games=2000, seed=seed).spec


def _check(game, v: Spec, w: Spec, games=30_000):
    tree = game.build(sets=[*spec_sets(game, v), *spec_sets(game, w)])
    rows, cols = [Tier("village", v.name, v.knobs)], [Tier("wolves", w.name, w.knobs)]
    m = measure(game, tree, rows, cols, 1000, 0, (MEASURE,))
    return competence(game, tree, m, games, 7)[2]


def test_tuned_trusting_is_competent_and_untuned_is_not():
    g = get("werewolf")
    plain_v, plain_w = parse_spec(g, "village", "trusting"), parse_spec(g, "wolves", "trusting")
    untuned = _check(g, plain_v, plain_w)
    witch = untuned.filter(untuned["ability"] == "witch").row(0, named=True)
    assert witch["value_ci_high"] < 0 and witch["competent"] is False  # the power check

    v = _tuned(g, "village", plain_w, 80, 1)
    w = _tuned(g, "wolves", v, 40, 2)
    df = _check(g, v, w)
    ab = df.filter(df["ability"] != "")
    assert ab.height >= 5  # seer, paladin, witch, hati, the claims
    bad = ab.filter(~ab["competent"])
    assert bad.height == 0, f"under {v.label} vs {w.label} a side gains by giving up: {bad.to_dicts()}"


def test_ladder_competence_cli(monkeypatch):
    args = ["ladder", "race", "--tiers", "p1=bold,cautious", "--tiers", "p2=bold", "--games", "2000",
            "--competence", "--json"]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    c = json.loads(r.output)["competence"]
    assert c["row"] == "bold" and c["col"] == "bold" and c["competent"] is True
    assert [a["ability"] for a in c["abilities"]] == ["p1_two_dice", "p2_two_dice"]
    assert all(a["value_ci_low"] > 0 for a in c["abilities"])  # two dice are worth a lot to bold play
    monkeypatch.setattr(type(get("race")), "abilities", lambda self, setup, strategies: [])
    r = CliRunner().invoke(app, args)
    c = json.loads(r.output)["competence"]
    assert c["competent"] is None and c["abilities"] == [] and "no optional ability" in c["note"]
