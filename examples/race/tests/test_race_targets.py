"""``sim balance`` with targets on several cells of the skill ladder, on the race, against
exact rates: every fixed pair's win probability is sim_race.exact's (dynamic programming,
independent of the kernels), and the equilibrium's is the linear program over the exact
matrix of the family {bold, threshold@k, k = −20 … 20}. So the setting whose exact rates lie
closest to all the bands is known without the search, and the search must find it.

The bands are chosen so that the targets disagree: the equilibrium alone is in band at head
start 3 only, but there skill does not pay (threshold@k=2 below 53% against bold) and novices
are below their band; head start 2 misses the equilibrium's band by 6 points and meets the
other two, the least total distance by 4.7 points (a search that read one target would miss)."""
import json
from functools import lru_cache

import numpy as np
from typer.testing import CliRunner

from sim.analysis.balance import band_distance, parse_balance
from sim.analysis.balance_targets import balance_targets
from sim.analysis.metagame import _cell, parse_tier, solve_zero_sum
from sim.cli import app
from sim.core.game import get
from sim.core.target import parse_target
from sim_race.exact import exact_for

GAME = get("race")
FAMILY = ["bold"] + [f"threshold@k={k}" for k in range(-20, 21)]
Z = 1.959963984540054
TARGETS = [{"cell": "equilibrium", "band": "0.40:0.48"},
           {"cell": {"p1": "threshold@k=2", "p2": "bold"}, "band": "0.53:1"},
           {"cell": {"p1": "random", "p2": "random"}, "band": "0.51:0.70"}]
SPEC = {"game": "race", "seed": 3, "tolerance": 0.02, "max_games": 3_000_000,
        "base": {"p1": "threshold", "p2": "threshold", "set": ["rules.target=12"]},
        "params": [{"path": "rules.head_start", "low": 0, "high": 6}],
        "adapt": {"families": {"p1": ["bold"], "p2": ["bold"]}, "rounds": 4, "budget": 10, "games": 1000},
        "targets": TARGETS}


def _tree(head: int):
    return GAME.build(sets=["rules.target=12", f"rules.head_start={head}"])


def _pair(tree, a: str, b: str) -> float:
    setup, st = _cell(GAME, tree, parse_tier(GAME, "p1", a), parse_tier(GAME, "p2", b))[1]
    return exact_for(setup, st["p1"], st["p2"])


@lru_cache(maxsize=None)
def exact_rates(head: int) -> tuple[float, ...]:
    """Each target's exact rate at this head start (random is the uniform mixture of the
    race's two moves each turn; sim_race.exact solves it too)."""
    tree = _tree(head)
    out = []
    for t in TARGETS:
        if t["cell"] == "equilibrium":
            out.append(solve_zero_sum(np.array([[_pair(tree, a, b) for b in FAMILY] for a in FAMILY]))[0])
        else:
            out.append(_pair(tree, t["cell"]["p1"], t["cell"]["p2"]))
    return tuple(out)


def exact_distance(head: int) -> float:
    return sum(abs(band_distance(parse_target(t["band"]), r)) for t, r in zip(TARGETS, exact_rates(head)))


def test_the_search_finds_the_setting_closest_to_every_band():
    best = min(range(7), key=exact_distance)
    # the oracle's answer is unique by a margin far beyond the noise (else the test says nothing)
    assert sorted(exact_distance(h) for h in range(7))[1] - exact_distance(best) > 0.02
    res = balance_targets(parse_balance(SPEC))
    assert res.point == {"rules.head_start": best}
    for t, row, exact in zip(TARGETS, res.rows, exact_rates(best)):
        se = (row["ci_high"] - row["ci_low"]) / (2 * Z)
        slack = 0.02 if t["cell"] == "equilibrium" else 0.0  # a grown equilibrium is within ε of the family's
        assert abs(row["rate"] - exact) < slack + 4 * se, (row, exact)
        band = parse_target(t["band"])
        assert (row["verdict"] == "in band") == (band.low <= row["ci_low"] and row["ci_high"] <= band.high)
    assert res.hit == all(r["verdict"] == "in band" for r in res.rows)
    # every target was measured at every setting it visited, on one budget
    assert set(res.trace["cell"]) == {"equilibrium", "p1=threshold@k=2, p2=bold", "p1=random, p2=random"}
    assert res.games_used <= SPEC["max_games"] + 4 * 4 * 1000 * 8  # the budget, give or take one evaluation


def _spec_file(tmp_path, extra: str = "", targets: str | None = None):
    p = tmp_path / "t.toml"
    p.write_text('game = "race"\nseed = 2\ntolerance = 0.03\nmax_games = 300000\n' + extra +
                 '[base]\np1 = "threshold"\np2 = "threshold"\nset = ["rules.target=10"]\n'
                 '[[params]]\npath = "rules.head_start"\nlow = 0\nhigh = 3\n' +
                 (targets if targets is not None else
                  '[[targets]]\ncell = { p1 = "bold", p2 = "cautious" }\nband = "0.3:0.7"\n'
                  '[[targets]]\ncell = { p1 = "threshold@k=1", p2 = "random" }\nband = "0.5:1"\n'))
    return p


def test_targets_cli_json_trace_and_bad_inputs(tmp_path):
    r = CliRunner().invoke(app, ["balance", str(_spec_file(tmp_path)), "--json", "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert [t["cell"] for t in d["targets"]] == ["p1=bold, p2=cautious", "p1=threshold@k=1, p2=random"]
    assert all(t["ci_low"] <= t["rate"] <= t["ci_high"] for t in d["targets"])
    h = d["settings"]["rules.head_start"]
    tree = GAME.build(sets=["rules.target=10", f"rules.head_start={h}"])
    for t, (a, b) in zip(d["targets"], (("bold", "cautious"), ("threshold@k=1", "random"))):
        se = (t["ci_high"] - t["ci_low"]) / (2 * Z)
        assert abs(t["rate"] - _pair(tree, a, b)) < 4 * se, (t, _pair(tree, a, b))
    import polars as pl

    trace = pl.read_parquet(tmp_path / "o" / "trace.parquet")
    assert set(trace["cell"]) == {"p1=bold, p2=cautious", "p1=threshold@k=1, p2=random"}
    bad = [
        ({"targets": '[[targets]]\ncell = { p1 = "bold" }\nband = "0.3:0.7"\n'}, "both sides"),
        ({"targets": '[[targets]]\ncell = { p1 = "bold", p2 = "nosuch" }\nband = "0.3:0.7"\n'}, "nosuch"),
        ({"targets": '[[targets]]\ncell = "equilibrium"\nband = "0.7:0.3"\n'}, "targets.0.band"),
        ({"targets": '[[targets]]\ncell = "equilibrium"\nbnd = "0.3:0.7"\n'}, "band"),
        ({"targets": '[[targets]]\ncell = "equilibrium"\nband = "0.3:0.7"\n[[targets]]\ncell = "equilibrium"\n'
                     'band = "0.4:0.6"\n'}, "has a target already"),
        ({"extra": 'target = 0.5\n'}, "not both"),
    ]
    for i, (kw, msg) in enumerate(bad):
        r = CliRunner().invoke(app, ["balance", str(_spec_file(tmp_path, **kw)), "--out", str(tmp_path / f"b{i}")])
        assert r.exit_code == 2 and msg in r.stderr and r.stderr.strip().count("\n") == 0, (kw, r.stderr)
        assert not (tmp_path / f"b{i}").exists()
    for args, msg in ((["--adapt"], "[[targets]]"), (["--dask", "local:0"], "local:N")):
        r = CliRunner().invoke(app, ["balance", str(_spec_file(tmp_path)), *args, "--out", str(tmp_path / "x")])
        assert r.exit_code == 2 and msg in r.stderr, (args, r.stderr)


def test_grow_on_dask_equals_the_local_one():
    """``--dask``: the grown equilibrium's games batches on two worker processes give the
    same population, mixtures, value and certificate as this process."""
    import distributed

    from sim.analysis.grow import grow

    tree = _tree(2)
    start = [parse_tier(GAME, "p1", "bold")], [parse_tier(GAME, "p2", "cautious")]
    kw = dict(games=500, seed=4, rounds=2, budget=4, families={"p1": ["threshold"], "p2": ["threshold"]})
    local = grow(GAME, tree, *start, **kw).to_json()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster, distributed.Client(cluster) as client:
        remote = grow(GAME, tree, *start, client=client, **kw).to_json()
    assert remote == local


EQ_SWEEP = ('game = "race"\nseed = 1\nmetric = "equilibrium"\n[base]\np1 = "threshold"\np2 = "threshold"\n'
            'set = ["rules.target=12"]\n[equilibrium]\nfamilies = { p1 = ["bold"], p2 = ["bold"] }\nrounds = 3\n'
            'budget = 6\ngames = 1000\n[[axes]]\npath = "rules.head_start"\nvalues = [0, 2, 4]\n')


def test_sweep_metric_equilibrium_against_the_exact_values(tmp_path):
    """``metric = "equilibrium"``: each cell's value is its grown equilibrium's, within ε (and
    the noise) of the exact equilibrium of the family at that head start; the same on Dask."""
    spec = tmp_path / "eq.toml"
    spec.write_text(EQ_SWEEP)
    r = CliRunner().invoke(app, ["sweep", str(spec), "--out", str(tmp_path / "o"), "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["metric"] == "equilibrium" and len(d["rows"]) == 3
    for row in d["rows"]:
        tree = _tree(row["rules.head_start"])
        exact = solve_zero_sum(np.array([[_pair(tree, a, b) for b in FAMILY] for a in FAMILY]))[0]
        se = (row["rate_ci_high"] - row["rate_ci_low"]) / (2 * Z)
        assert abs(row["rate"] - exact) < 0.02 + 4 * se, (row, exact)
        assert row["successes"] is None and row["exploitability"] <= 0.05 and row["games"] > 3 * 4 * 1000
        assert abs(sum(json.loads(row["p1_mixture"]).values()) - 1) < 1e-9
    rates = [row["rate"] for row in sorted(d["rows"], key=lambda x: x["rules.head_start"])]
    assert rates[0] > rates[1] > rates[2]  # a head start for p2 lowers p1's value
    r = CliRunner().invoke(app, ["sweep", str(spec), "--out", str(tmp_path / "dk"), "--json", "--dask", "local:2"])
    assert r.exit_code == 0, r.output
    keep = ("rules.head_start", "rate", "rate_ci_low", "rate_ci_high", "exploitability", "p1_mixture", "p2_mixture")
    assert ([{k: x[k] for k in keep} for x in json.loads(r.stdout)["rows"]] ==
            [{k: x[k] for k in keep} for x in d["rows"]])
    r = CliRunner().invoke(app, ["report", str(tmp_path / "o"), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.output
    assert "equilibrium value" in (tmp_path / "rep" / "index.html").read_text()


def test_sweep_metric_equilibrium_bad_inputs(tmp_path):
    spec = tmp_path / "eq.toml"
    for old, new, msg in (('metric = "equilibrium"', 'metric = "bogus"', "metric"),
                          ('metric = "equilibrium"\n', '', "goes with metric"),
                          ('metric = "equilibrium"', 'metric = "equilibrium"\ngames = 500', "equilibrium.games"),
                          ('rounds = 3', 'rounds = 0', "equilibrium.rounds"),
                          ('rounds = 3', 'roundz = 3', "rounds"),
                          ('families = { p1 = ["bold"], p2 = ["bold"] }', 'tiers = { p1 = ["nosuch"] }', "nosuch")):
        spec.write_text(EQ_SWEEP.replace(old, new))
        r = CliRunner().invoke(app, ["sweep", str(spec), "--out", str(tmp_path / "x")])
        assert r.exit_code == 2 and msg in r.stderr and r.stderr.strip().count("\n") == 0, (new, r.stderr)
        assert not (tmp_path / "x").exists()


def _rows(r) -> dict:
    assert r.exit_code == 0, r.output
    return {x["rules.head_start"]: x for x in json.loads(r.stdout)["rows"]}


def test_sweep_of_equilibria_is_warm_started_from_the_neighbours(tmp_path):
    """``warm = true`` (the default): each cell is grown from the tiers (the cold pass), then
    again from its own and its neighbours' cold populations. Checked: every neighbour's cold
    member is in the warm population; the warm value is within ε and the noise of the exact
    equilibrium; the cold value equals a ``warm = false`` sweep's (the same cells, the same
    streams); a cell deleted and resumed comes back identical from the kept cold pass."""
    spec = tmp_path / "eq.toml"
    start = 'tiers = { p1 = ["threshold@k=-15"], p2 = ["threshold@k=15"] }\n'
    text = (EQ_SWEEP.replace("[equilibrium]\n", "[equilibrium]\n" + start)
            .replace('families = { p1 = ["bold"], p2 = ["bold"] }', 'families = { p1 = ["threshold"], p2 = ["threshold"] }')
            .replace("rounds = 3", "rounds = 1").replace("budget = 6", "budget = 3")
            .replace("values = [0, 2, 4]", "values = [0, 1, 2, 3]"))
    spec.write_text(text)
    out = tmp_path / "o"
    warm = _rows(CliRunner().invoke(app, ["sweep", str(spec), "--out", str(out), "--json"]))
    cold_dir = next(out.glob("game=race/sweep=*")) / "_cold"
    cold = {h: json.loads((cold_dir / f"cell={h}.json").read_text()) for h in range(4)}  # cell i is head start i
    grew = 0
    for h, row in warm.items():
        nb = [k for k in (h - 1, h + 1) if 0 <= k <= 3]
        assert json.loads(row["warm_from"]) == nb
        for side in ("p1", "p2"):
            pop = json.loads(row[f"{side}_population"])
            wanted = [t for k in (h, *nb) for t in cold[k]["population"][side]]
            assert set(wanted) <= set(pop), (h, side, wanted, pop)
            grew += len(set(wanted) - set(cold[h]["population"][side]))
        assert row["cold_rate"] == cold[h]["rate"]
        tree = _tree(h)
        exact = solve_zero_sum(np.array([[_pair(tree, a, b) for b in FAMILY] for a in FAMILY]))[0]
        se = (row["rate_ci_high"] - row["rate_ci_low"]) / (2 * Z)
        assert abs(row["rate"] - exact) < 0.02 + 4 * se, (row, exact)
    assert grew > 0  # some cell started from a member only a neighbour had found
    spec.write_text(text.replace("budget = 3", "budget = 3\nwarm = false"))
    plain = _rows(CliRunner().invoke(app, ["sweep", str(spec), "--out", str(tmp_path / "c"), "--json"]))
    assert all(plain[h]["rate"] == warm[h]["cold_rate"] and "cold_rate" not in plain[h] for h in plain)
    assert list((tmp_path / "c").glob("game=race/sweep=*")) and not list((tmp_path / "c").glob("game=race/sweep=*/_cold"))
    spec.write_text(text)
    import shutil
    shutil.rmtree(cold_dir.parent / "cell=2")
    r = CliRunner().invoke(app, ["sweep", str(spec), "--out", str(out), "--json"])
    assert _rows(r) == warm
    assert json.loads(r.stdout)["games"] == warm[2]["games"]  # the cold pass was kept, not grown again
    spec.write_text(text.replace("budget = 3", "budget = 3\nwarm = 1"))
    r = CliRunner().invoke(app, ["sweep", str(spec), "--out", str(tmp_path / "x")])
    assert r.exit_code == 2 and "equilibrium.warm" in r.stderr and r.stderr.strip().count("\n") == 0, r.stderr
