"""sim tune on the race, where every k's exact win probability is known (sim_race.exact)."""
import json

from typer.testing import CliRunner

from sim.analysis.tune import tune
from sim.cli import app
from sim.core.game import get
from sim.core.knobs import parse_spec, spec_sets
from sim_race.exact import win_probability
from sim_race.strategies import K_MAX, K_MIN, STRATEGIES

GAME = get("race")
runner = CliRunner()


def _exact(k1, k2=0, target=20):
    th = STRATEGIES.get("threshold").exact
    return win_probability(target, 0, th, th, k1=k1, k2=k2, faces=6, bust_face=1)


def _run(seed=1, threads=None, budget=40):
    against = {"p2": parse_spec(GAME, "p2", "threshold@k=0")}
    tree = GAME.build(sets=spec_sets(GAME, against["p2"]))
    return tune(GAME, tree, "p1", "threshold", against, budget=budget, games=4000, seed=seed, threads=threads)


def test_tune_finds_a_best_threshold_and_reports_its_true_rate():
    res = _run()
    exact = {k: _exact(k) for k in range(K_MIN, K_MAX + 1)}
    best = max(exact.values())
    k = res.params["k"]
    se = ((res.ci_high - res.ci_low) / (2 * 1.96))
    # the reported rate is the chosen k's true rate (fresh games: no winner's curse) …
    assert abs(res.tuned_rate - exact[k]) < 4 * se, (k, res.tuned_rate, exact[k])
    # … the chosen k is as good as the optimum up to the search's noise …
    assert exact[k] > best - 0.01, (k, exact[k], best)
    # … and the baseline is the default k = 0, measured the same way
    assert res.baseline == {"k": 0} and abs(res.baseline_rate - exact[0]) < 4 * se
    assert res.tuned_rate > res.baseline_rate


def test_tune_is_deterministic_for_any_thread_count():
    a, b = _run(seed=3, threads=1, budget=15), _run(seed=3, threads=2, budget=15)
    assert a.params == b.params and a.tuned_rate == b.tuned_rate and a.games == b.games
    assert a.trace.equals(b.trace)


def test_tune_cli_writes_a_strategy_file_any_command_accepts(tmp_path):
    r = runner.invoke(app, ["tune", "race", "--side", "p2", "--against", "p1=bold", "--budget", "12", "--games",
                            "2000", "--out", str(tmp_path / "t"), "--json"])
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert set(d) >= {"baseline_rate", "tuned_rate", "ci_low", "ci_high", "params", "games"}
    assert d["objective"].startswith("minimise")  # p2 lowers player 1's rate
    f = tmp_path / "t" / "_strategy.toml"
    assert f.read_text().startswith("[p2]\nstrategy = \"threshold\"\n")
    r = runner.invoke(app, ["race", "run", "--games", "1000", "--p1", "bold", "--p2", str(f), "--json"])
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["p2_k"] == d["params"]["k"]


def test_bad_input_is_one_line_exit_2():
    for args, msg in [
        (["--side", "p3"], "sides are p1, p2"),
        (["--side", "p1", "--budget", "0"], "--budget"),
        (["--side", "p1", "--strategy", "bold"], "no knobs to tune; tunable: threshold"),
        (["--side", "p1", "--against", "p2=threshold@k=50"], "must be in [-20, 20]"),
        (["--side", "p1", "--against", "p1=bold"], "SIDE=SPEC"),
        (["--side", "p1", "--games", "0"], "games"),
    ]:
        r = runner.invoke(app, ["tune", "race", *args])
        assert r.exit_code == 2, (args, r.stdout, r.stderr)
        assert msg in r.stderr and r.stderr.strip().count("\n") == 0, (args, r.stderr)
