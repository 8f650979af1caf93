"""``sim looper run --scriptwriter adversarial --against PLAYER``: the setup search scored
against the named player, and its exploit list (text, --json, --out table ``exploits``)."""
import json

import polars as pl
from typer.testing import CliRunner

from sim.cli import app
from sim.core.game import get
from sim.looper.game import run
from strategies.looper.adversarial import REFINE

GAME = get("looper")
runner = CliRunner()
SMALL = ["scriptwriter.proposals=96", "scriptwriter.trials=8"]  # a small, fast search


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args], terminal_width=250)


def _errors(r):
    return [ln for ln in r.output.splitlines() if ln.startswith("error:")]


def _exploits(against, seed=3, games=200):
    roster = GAME.setup(sets=[f"scriptwriter.against={against}", *SMALL])
    return run(games, seed, player=against, scriptwriter="adversarial", roster=roster).tables["exploits"]


def test_search_against_player_beats_random_setups():
    ex = _exploits("cautious")
    assert set(ex["against"]) == {"cautious"}
    assert (ex["search_games"] == REFINE * 8).all()  # one player scored, the short list's REFINE × trials games each
    vs_random = run(2000, 3, player="cautious", scriptwriter="random").summary["player_win_rate"][0]
    assert vs_random > 0.5
    assert ex["player_win_rate"][0] < vs_random - 0.5 and ex["player_win_rate"].mean() < vs_random
    assert ex["player_win_rate"][0] <= ex["ci_high"][0]


def test_same_seed_same_exploit_list():
    a, b = _exploits("random", seed=9), _exploits("random", seed=9)
    assert a.equals(b)
    assert not a.select("key_person", "permanent_moves").equals(
        _exploits("random", seed=10).select("key_person", "permanent_moves"))


def test_bad_player_name_is_one_error_and_writes_nothing(tmp_path):
    out = tmp_path / "o"
    r = invoke("looper", "run", "--scriptwriter", "adversarial", "--against", "bayse", "--games", 10, "--out", out)
    assert r.exit_code == 2, r.output
    assert len(_errors(r)) == 1 and "bayes" in _errors(r)[0]
    assert not out.exists()


def test_against_needs_the_adversarial_scriptwriter(tmp_path):
    out = tmp_path / "o"
    r = invoke("looper", "run", "--scriptwriter", "random", "--against", "cautious", "--games", 10, "--out", out)
    assert r.exit_code == 2, r.output
    assert len(_errors(r)) == 1
    assert not out.exists()


def test_exploit_table_names_and_matches_fixed_script(tmp_path):
    out = tmp_path / "o"
    r = invoke("looper", "run", "--scriptwriter", "adversarial", "--against", "cautious", "--player", "cautious",
               "--games", 100, "--seed", 2, *[x for s in SMALL for x in ("--set", s)], "--out", out, "--json")
    assert r.exit_code == 0, r.output
    ex = pl.read_parquet(out / "summary.parquet")["exploits"].explode().struct.unnest()
    js = json.loads(r.stdout)["exploits"]
    assert [e["key_person"] for e in js] == ex["key_person"].to_list()
    setup = GAME.setup()
    top = ex.row(0, named=True)
    assert top["key_person"] in setup.ids
    perm = [p.split(" → ") for p in top["permanent_moves"].split("; ")]
    assert all(c in setup.ids and loc in setup.loc_ids for c, loc in perm)
    guests = []
    for g in filter(None, top["guest_moves"].split("; ")):
        day, move = g.removeprefix("day ").split(": ")
        c, loc = move.split(" → ")
        guests.append(f'{{ day = {int(day)}, character = "{c}", location = "{loc}" }}')
    toml = tmp_path / "script.toml"
    toml.write_text(f'[setup]\nkey_person = "{top["key_person"]}"\n'
                    f'permanent_moves = [{", ".join(f"{{ character = {c!r}, location = {loc!r} }}" for c, loc in perm)}]\n'
                    .replace("'", '"') + f'guest_moves = [{", ".join(guests)}]\nchoose = "adversarial"\n')
    fixed = run(2000, 7, player="cautious", scriptwriter="fixed", roster=GAME.setup(config=toml))
    s = fixed.summary.row(0, named=True)
    # the two intervals overlap (the same setup, independent games)
    assert s["ci_low"] <= top["ci_high"] + 0.01 and top["ci_low"] <= s["ci_high"] + 0.01, (s, top)
    assert "best setups against cautious" in invoke(
        "looper", "run", "--scriptwriter", "adversarial", "--against", "cautious", "--games", 50,
        *[x for s in SMALL for x in ("--set", s)]).output


def test_against_each_scores_against_the_player_it_faces():
    setup = GAME.setup(sets=["scriptwriter.against=each", *SMALL])
    st = GAME.strategies({"player": "cautious", "scriptwriter": "adversarial"})
    ex = GAME.run(setup, st, 100, 4).tables["exploits"]
    assert set(ex["against"]) == {"cautious"} and (ex["search_games"] == REFINE * 8).all()
    assert ex["player_win_rate"][0] < 0.5


def test_ladder_adversarial_vs_each():
    r = invoke("ladder", "looper", "--tiers", "player=random,cautious",
               "--tiers", "scriptwriter=adversarial@against=each@proposals=96@trials=8", "--games", 100, "--seed", 1)
    assert r.exit_code == 0, r.output
    assert "against=each" in r.output


def test_search_against_an_oracle_gives_it_the_judges_view():
    # an oracle_… player reads the judge's state: the search must build its kernel with the
    # oracle view (the PlayerView has no key / setup, so scoring with it does not compile)
    ex = _exploits("oracle_key", games=100)
    assert set(ex["against"]) == {"oracle_key"} and ex.height > 0
    assert ((ex["player_win_rate"] >= 0) & (ex["player_win_rate"] <= 1)).all()


def _lock(setup, key, char, loc):
    from strategies.looper.adversarial import locks

    lk = locks(setup)
    i, c, l = setup.ids.index(key), setup.ids.index(char), setup.loc_ids.index(loc)
    return lk, [r for r in range(len(lk)) if lk[r, 0] == i and lk[r, 1] == c and lk[r, 2] == l]


def test_locks_hold_the_one_move_forced_win_and_keep_to_the_variants():
    """The verge-of-madness woman made key person and moved to the ruins wins every game
    (one permanent move, R-6): a lock the search always weighs. Under P-16 no lock moves
    the key person, under P-15 none leaves a character at its table place."""
    import numpy as np

    from strategies.looper import PLAYERS
    from strategies.looper.adversarial import locks, score_setups

    setup = GAME.setup()
    lk, rows = _lock(setup, "verge_of_madness", "verge_of_madness", "ruins")
    assert len(rows) == 1
    assert (lk[rows[0], 3:] == -1)[::2].all()  # every other move slot unused
    fast = (PLAYERS.get("random"), PLAYERS.get("cautious"))
    wins = score_setups(setup, lk[rows], np.arange(4, dtype=np.uint64), 48, fast)
    assert wins[0] == 0
    pinned = GAME.setup(sets=["rules.key_person_movable=false"])
    lk2, rows2 = _lock(pinned, "verge_of_madness", "verge_of_madness", "ruins")
    assert not rows2 and len(lk2) and (lk2[:, 0] != lk2[:, 1]).all()
    moved = GAME.setup(sets=["rules.stay_moves=false"])
    lk3 = locks(moved)
    assert (np.asarray(moved.nb.home)[lk3[:, 1]] != lk3[:, 2]).all()


def test_search_weighs_the_locks_beside_its_proposals():
    """With no random proposal at all the pool is made of screened locks and the script
    library's scripts (issue 41: the library always seeds the search), and its best setup
    holds the scored player to 0 wins; without a screen only the library is left."""
    import numpy as np

    from strategies.looper import PLAYERS
    from strategies.looper.adversarial import library_rows, search_setups

    setup = GAME.setup()
    fast = (PLAYERS.get("random"), PLAYERS.get("cautious"))
    lib = {tuple(r) for r in library_rows(setup)}
    pool = search_setups(setup, np.random.default_rng(1), (PLAYERS.get("random"),), proposals=0, trials=8,
                         with_scores=True, screen=fast)
    width = pool.shape[1] - 2
    assert len(pool) == 8 and pool[0, width] == 0
    locks = (pool[:, 3:width:2] == -1).all(axis=1)  # one move each: locks
    assert locks.any() and all(lk or tuple(r[:width]) in lib for lk, r in zip(locks, pool))
    bare = search_setups(setup, np.random.default_rng(1), (PLAYERS.get("random"),), proposals=0, trials=8)
    assert len(bare) == min(8, len(lib)) and all(tuple(r) in lib for r in bare)


def test_the_search_plays_the_configured_player():
    """A search against the player the run plays scores it with the configuration's knob
    values (the ladder tier ``bayes@samples=4`` facing ``adversarial@against=each`` is searched
    against bayes with 4 samples, not the default 8); values that are not the named player's
    knobs (another player's table) leave it at its defaults."""
    import numpy as np

    from strategies.looper import PLAYERS
    from strategies.looper.adversarial import player_knobs, score_setups

    rnd, cautious = PLAYERS.get("random"), PLAYERS.get("cautious")
    one = GAME.setup(sets=["player.max_moves=1"])
    assert player_knobs(one, rnd)[0] == 1 and player_knobs(GAME.setup(), rnd)[0] == 64
    other = GAME.setup(sets=["player.min_gain=3"])  # cautious's knob: random plays at its defaults
    assert player_knobs(other, rnd)[0] == 64
    assert player_knobs(other, cautious)[[k.name for k in cautious.knobs].index("min_gain")] == 3
    bayes = PLAYERS.get("bayes")
    assert player_knobs(GAME.setup(sets=["player.samples=4"]), bayes)[1] == 4
    # and the scores follow: random moving one character a day wins other games than at three
    setup = GAME.setup()
    rows = np.asarray(_lock(setup, "attention_seeker", "socrates_in_love", "underworld")[0])
    key = np.arange(4, dtype=np.uint64)
    assert not np.array_equal(score_setups(setup, rows[:40], key, 48, (rnd,)),
                              score_setups(one, rows[:40], key, 48, (rnd,)))


PLUGIN = "tests.plugins.looper_player:stay_home"


def test_the_search_scores_against_a_plug_in_player(tmp_path):
    """``--against module:object``, as every strategy option takes a plug-in: the search
    plays the user's player (one that never moves loses every searched setup's loop 1)."""
    ex = _exploits(PLUGIN)
    assert set(ex["against"]) == {PLUGIN}
    assert ex["player_win_rate"][0] == 0.0
    r = invoke("looper", "run", "--player", PLUGIN, "--scriptwriter", "adversarial", "--against", PLUGIN,
               *[a for s in SMALL for a in ("--set", s)], "--games", 50, "--seed", 1, "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["exploits"][0]["against"] == PLUGIN
    bad = invoke("looper", "run", "--scriptwriter", "adversarial", "--against", "tests.plugins.looper_player:nope",
                 "--games", 10, "--out", tmp_path / "o")
    assert bad.exit_code == 2 and len(_errors(bad)) == 1 and "nope" in _errors(bad)[0]
    assert not (tmp_path / "o").exists()


def test_ladder_each_faces_a_plug_in_tier_with_a_search_against_it():
    r = invoke("ladder", "looper", "--tiers", f"player=cautious,{PLUGIN}", "--tiers",
               "scriptwriter=adversarial@against=each@proposals=96@trials=8", "--games", 50, "--seed", 1)
    assert r.exit_code == 0, r.output  # was: knob 'against': expected a choice
    assert PLUGIN in r.output


def test_a_misspelt_choice_names_the_closest():
    r = invoke("looper", "run", "--scriptwriter", "adversarial@against=baye", "--games", 10)
    assert r.exit_code == 2
    (err,) = _errors(r)
    assert "is not one of" in err and "did you mean 'bayes'" in err
